"""hfcompat.compat.sentencepiece against sentencepiece itself: the same call on the same model and
input gives the same result (ids, pieces, protos, offsets, decodes, errors), on both backends."""

from __future__ import annotations

import io
import math
import pickle
from pathlib import Path

import pytest
import sentencepiece as owner
from hypothesis import given
from hypothesis import strategies as st

import hfcompat.compat.sentencepiece as facade
from conftest import corpus_lines, mixed_sample, shared_file

pytestmark = pytest.mark.conformance

SHARED_MODELS = {"albert": "refs/albert/spiece.model", "xlnet": "refs/xlnet/spiece.model",
                 "llama2": "refs/llama2/tokenizer.model"}
TRAINED = {
    "unigram_user": {"user_defined_symbols": ["<ud>", "@@"], "control_symbols": ["<ctrl>"]},
    "unigram_bytes": {"byte_fallback": True, "split_digits": True},
    "bpe": {"model_type": "bpe"},
    "bpe_bytes_identity": {"model_type": "bpe", "byte_fallback": True, "normalization_rule_name": "identity",
                           "remove_extra_whitespaces": False},
    "char": {"model_type": "char"},
    "word": {"model_type": "word"},
    "unigram_suffix": {"treat_whitespace_as_suffix": True},
}
UNIGRAMS = ["albert", "xlnet", "unigram_user", "unigram_bytes"]
ODD_TEXTS = ["", " ", "  hello  world  ", "藤 x", "ＫＡＤＯＫＡＷＡ ㍻", "a\u0301 b", "x😊y 😊😊", "\t tab\r\n",
             "<ud>x@@ <ctrl> y", "12345 678", "ﬁ\u3000z", "\ufeffBOM", "▁lead ▁▁", "a" * 300]
NOT_UTF8 = [b"a\xffb", b"\xc3", b"x \xe2\x96 y\xf0\x9f\x98", b"\xc3\xa9\xff\xfe  z"]


@pytest.fixture(scope="session")
def trained_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Small models of several kinds, trained by sentencepiece once per session."""
    directory = tmp_path_factory.mktemp("spm-facade")
    lines = mixed_sample(150)
    for name, options in TRAINED.items():
        buffer = io.BytesIO()
        owner.SentencePieceTrainer.train(sentence_iterator=iter(lines), model_writer=buffer, vocab_size=2000,
                                         hard_vocab_limit=False, character_coverage=0.98, num_threads=1,
                                         minloglevel=2, **options)
        (directory / f"{name}.model").write_bytes(buffer.getvalue())
    return directory


def model_file(request: pytest.FixtureRequest, name: str) -> str:
    """The path of a shared or trained model."""
    if name in SHARED_MODELS:
        return str(shared_file(SHARED_MODELS[name]))
    return str(request.getfixturevalue("trained_dir") / f"{name}.model")


def pair(request: pytest.FixtureRequest, name: str, **options: object) -> tuple:
    """(sentencepiece's processor, the facade's) on one model with the same options."""
    path = model_file(request, name)
    return owner.SentencePieceProcessor(model_file=path, **options), facade.SentencePieceProcessor(model_file=path,
                                                                                                   **options)


def texts() -> list[str]:
    """Corpus lines of several languages and odd cases."""
    return mixed_sample(12) + ODD_TEXTS


def outcome(call: object) -> object:
    """A call's result, or its exception's type (both libraries must fail alike)."""
    try:
        return call()
    except Exception as error:  # noqa: BLE001 - the type is what is compared
        return type(error)


ALL_MODELS = [*SHARED_MODELS, *TRAINED]


@pytest.mark.parametrize("name", ALL_MODELS)
def test_encode_forms(request: pytest.FixtureRequest, name: str, backend: str) -> None:
    """ids, pieces (str, bytes), serialized protos and offset mappings, with every extra option."""
    theirs, ours = pair(request, name)
    for text in texts():
        for return_type in (int, str, bytes, "serialized_proto", "offset_mapping"):
            assert ours.encode(text, return_type=return_type) == theirs.encode(text, return_type=return_type), \
                (text, return_type)
        data = text.encode("utf-8")
        assert ours.encode(data, return_type="offset_mapping") == theirs.encode(data, return_type="offset_mapping")
        for options in ({"add_bos": True}, {"add_eos": True, "reverse": True}, {"emit_unk_piece": True}):
            for return_type in (int, str, "proto"):
                assert outcome(lambda: ours.encode(text, return_type=return_type, **options)) == \
                    outcome(lambda: theirs.encode(text, return_type=return_type, **options)), (text, options)
    for data in NOT_UTF8:
        for return_type in (int, str, "serialized_proto", "offset_mapping"):
            assert ours.encode(data, return_type=return_type) == theirs.encode(data, return_type=return_type), data
        assert ours.normalize(data, with_offsets=True) == theirs.normalize(data, with_offsets=True), data
    batch = texts()
    assert ours.encode(batch, return_type=str) == theirs.encode(batch, return_type=str)
    assert ours.encode_as_ids(batch) == theirs.encode_as_ids(batch)


@pytest.mark.parametrize("name", ALL_MODELS)
def test_decode_forms(request: pytest.FixtureRequest, name: str) -> None:
    """Decoding ids and pieces to text, bytes, protos and offset mappings; odd id runs too."""
    theirs, ours = pair(request, name)
    size = theirs.get_piece_size()
    runs = [theirs.encode(text) for text in texts()]
    runs += [list(range(start, min(size, start + 12))) for start in range(0, min(size, 400), 37)]
    runs += [[0, 1, 2, 0, 0], [size - 1, 0, size - 2]]
    for ids in runs:
        pieces = [theirs.id_to_piece(i) for i in ids]
        for return_type in (str, bytes, "serialized_proto", "offset_mapping"):
            assert ours.decode(ids, return_type=return_type) == theirs.decode(ids, return_type=return_type), ids
            assert ours.decode(pieces, return_type=return_type) == theirs.decode(pieces, return_type=return_type)
    odd_pieces = ["foo", "▁▁bar", "<0x41>", "<unk>", "<s>", "▁", "\u2581x\u2581"]
    assert ours.decode(odd_pieces, return_type="serialized_proto") == \
        theirs.decode(odd_pieces, return_type="serialized_proto")
    assert ours.decode(runs) == theirs.decode(runs)
    for bad in ([size], [[0, size]], size, [-1]):
        assert outcome(lambda: ours.decode(bad)) == outcome(lambda: theirs.decode(bad)) == IndexError


@pytest.mark.parametrize("name", ALL_MODELS)
def test_piece_queries(request: pytest.FixtureRequest, name: str) -> None:
    """Every piece's id, text, score and type; the special ids; errors for ids out of range."""
    theirs, ours = pair(request, name)
    size = theirs.get_piece_size()
    assert len(ours) == ours.vocab_size() == ours.GetPieceSize() == size
    every = list(range(size))
    assert ours.id_to_piece(every) == theirs.id_to_piece(every)
    assert ours.piece_to_id(theirs.id_to_piece(every)) == every
    assert ours.piece_to_id(["no such piece", "<unk>"]) == theirs.piece_to_id(["no such piece", "<unk>"])
    for query in ("get_score", "is_unknown", "is_control", "is_unused", "is_byte"):
        assert getattr(ours, query)(every) == getattr(theirs, query)(every), query
        for bad in (-1, size, [0, size]):
            assert outcome(lambda: getattr(ours, query)(bad)) == outcome(lambda: getattr(theirs, query)(bad)) \
                == IndexError
    for special in ("unk_id", "bos_id", "eos_id", "pad_id"):
        assert getattr(ours, special)() == getattr(theirs, special)(), special
    for bad in (123, [123], "a"):
        assert outcome(lambda: ours.PieceToId(bad)) == outcome(lambda: theirs.PieceToId(bad))
        assert outcome(lambda: ours.IdToPiece(bad)) == outcome(lambda: theirs.IdToPiece(bad))
    assert ours.serialized_model_proto() == theirs.serialized_model_proto()


@pytest.mark.parametrize("name", ALL_MODELS)
def test_normalize(request: pytest.FixtureRequest, name: str) -> None:
    """The normalized text, with char offsets for str and byte offsets for bytes."""
    theirs, ours = pair(request, name)
    for text in texts():
        assert ours.normalize(text, with_offsets=True) == theirs.normalize(text, with_offsets=True), text
        data = text.encode("utf-8")
        assert ours.normalize(data, with_offsets=True) == theirs.normalize(data, with_offsets=True), text


@pytest.mark.parametrize("name", UNIGRAMS)
def test_nbest(request: pytest.FixtureRequest, name: str) -> None:
    """The n best: scores as sentencepiece's, best first; the first is the encoding (unless tied:
    sentencepiece's agenda orders equal paths as its heap does); each decodes back."""
    theirs, ours = pair(request, name)
    for text in mixed_sample(3) + ["hello world", "I have a pen."]:
        mine, owners = ours.nbest_encode(text, nbest_size=6), theirs.nbest_encode(text, nbest_size=6)
        mine_scores = [n.score for n in ours.nbest_encode(text, nbest_size=6, return_type="proto").nbests]
        owner_scores = [n.score for n in theirs.nbest_encode(text, nbest_size=6, return_type="proto").nbests]
        assert mine_scores == pytest.approx(owner_scores, rel=1e-5), text
        if len(owner_scores) < 2 or owner_scores[0] != owner_scores[1]:  # paths of equal score: heap order
            assert mine[0] == owners[0] == theirs.encode(text), text
        assert all(theirs.decode(ids) == theirs.decode(owners[0]) for ids in mine)


@pytest.mark.parametrize("name", ["albert", "unigram_bytes", "bpe"])
def test_sampling(request: pytest.FixtureRequest, name: str) -> None:
    """Sampling cannot match sentencepiece's random draws: both spread over several encodings that
    decode to the same text, and both refuse sampling without a valid nbest_size."""
    theirs, ours = pair(request, name)
    text = "Tokenization is unbelievably fun to sample"
    for nbest_size in (-1, 8):
        drawn = {tuple(ours.encode(text, enable_sampling=True, alpha=0.1, nbest_size=nbest_size)) for _ in range(60)}
        assert len(drawn) > 1
        assert {theirs.decode(list(ids)) for ids in drawn} == {theirs.decode(theirs.encode(text))}
    assert outcome(lambda: ours.encode(text, enable_sampling=True, nbest_size=1)) == \
        outcome(lambda: theirs.encode(text, enable_sampling=True, nbest_size=1)) == ValueError


def test_pickle_keeps_model_and_options(request: pytest.FixtureRequest) -> None:
    """A pickled processor encodes as before, with its constructor options."""
    theirs, ours = pair(request, "xlnet", add_eos=True, reverse=True, out_type=str)
    copy = pickle.loads(pickle.dumps(ours))
    assert copy.encode("Hello world.") == theirs.encode("Hello world.")


def test_argument_errors(request: pytest.FixtureRequest) -> None:
    """Bad arguments fail with sentencepiece's exception types."""
    theirs, ours = pair(request, "albert")
    calls = [lambda sp: sp.encode("a", return_type="immutable_proto"),
             lambda sp: sp.encode("a", return_type=int, out_type=int),
             lambda sp: sp.encode("a", return_bytes=True),
             lambda sp: sp.encode("a", num_threads="2"),
             lambda sp: sp.encode(3),
             lambda sp: sp.decode([1.5]),
             lambda sp: sp.encode("a", return_type="offset_mapping", add_bos=True),
             lambda sp: sp.encode("a\ud800"),
             lambda sp: sp.decode(["\ud800"]),
             lambda sp: sp.piece_to_id(["a", "\ud800"])]
    for call in calls:
        assert outcome(lambda: call(ours)) == outcome(lambda: call(theirs))


@given(st.text(max_size=40))
def test_hypothesis_random_unicode(text: str) -> None:
    """Random Unicode: ids, pieces, protos and normalization as sentencepiece's on ALBERT and Llama 2."""
    for name in ("albert", "llama2"):
        theirs, ours = _loaded(name)
        for return_type in (int, str, "serialized_proto"):
            assert ours.encode(text, return_type=return_type) == theirs.encode(text, return_type=return_type)
        assert ours.normalize(text, with_offsets=True) == theirs.normalize(text, with_offsets=True)
        ids = theirs.encode(text)
        assert ours.decode(ids, return_type="serialized_proto") == theirs.decode(ids, return_type="serialized_proto")


_LOADED: dict[str, tuple] = {}


def _loaded(name: str) -> tuple:
    """The pair of processors of a shared model, loaded once (hypothesis calls many times)."""
    if name not in _LOADED:
        path = str(shared_file(SHARED_MODELS[name]))
        _LOADED[name] = owner.SentencePieceProcessor(model_file=path), facade.SentencePieceProcessor(model_file=path)
    return _LOADED[name]


@pytest.mark.parametrize("options", [{"rule_name": "nfkc_cf"}, {"rule_name": "identity"},
                                     {"rule_name": "nmt_nfkc", "add_dummy_prefix": False},
                                     {"norm_map": [("foo", "bar"), ("ab", "x")], "remove_extra_whitespaces": False}])
def test_normalizer(options: dict) -> None:
    """SentencePieceNormalizer from rule names and maps, flags overridden, normalizes as sentencepiece's."""
    theirs, ours = owner.SentencePieceNormalizer(**options), facade.SentencePieceNormalizer(**options)
    for text in ODD_TEXTS + ["foo  abab ＡＢＣ"]:
        assert ours.normalize(text, with_offsets=True) == theirs.normalize(text, with_offsets=True), text
    assert outcome(lambda: facade.SentencePieceNormalizer(norm_map=[("a", "a")])) == \
        outcome(lambda: owner.SentencePieceNormalizer(norm_map=[("a", "a")])) == ValueError


@pytest.mark.parametrize("model_type", ["unigram", "bpe"])
def test_trained_model_runs_in_sentencepiece(tmp_path: Path, model_type: str) -> None:
    """A model SentencePieceTrainer.train writes loads in sentencepiece, which encodes it as the facade does."""
    lines = list(corpus_lines("botchan"))[:600]
    prefix = tmp_path / "m"
    facade.SentencePieceTrainer.train(sentence_iterator=iter(lines), model_prefix=str(prefix), vocab_size=300,
                                      model_type=model_type, user_defined_symbols=["<ud>"])
    theirs = owner.SentencePieceProcessor(model_file=f"{prefix}.model")
    ours = facade.SentencePieceProcessor(model_file=f"{prefix}.model")
    assert theirs.get_piece_size() == 300
    assert [theirs.id_to_piece(i) for i in range(4)] == ["<unk>", "<s>", "</s>", "<ud>"]
    for text in lines[:30] + ODD_TEXTS:
        assert ours.encode(text, return_type=str) == theirs.encode(text, return_type=str), text
        assert ours.decode(theirs.encode(text)) == theirs.decode(theirs.encode(text))
    assert not math.isnan(theirs.get_score(5))


def test_numpy_results(request: pytest.FixtureRequest) -> None:
    """return_type='numpy': sentencepiece's values, dtype and read-only flag; arrays decode back."""
    numpy = pytest.importorskip("numpy")
    theirs, ours = pair(request, "llama2")
    for text in texts():
        mine, owners = ours.encode(text, return_type="numpy"), theirs.encode(text, return_type="numpy")
        assert mine.dtype == owners.dtype == numpy.int32 and mine.tolist() == owners.tolist(), text
        assert mine.flags.writeable == owners.flags.writeable
        assert ours.decode(numpy.array(owners, dtype=numpy.int64)[::-1]) == theirs.decode(owners[::-1])


@pytest.mark.parametrize("model_type", ["word", "char"])
def test_trained_word_and_char_models(tmp_path: Path, model_type: str) -> None:
    """WORD and CHAR models the facade trains load in sentencepiece and encode there as in the facade."""
    buffer = io.BytesIO()
    lines = list(corpus_lines("botchan"))[:300]
    facade.SentencePieceTrainer.train(sentence_iterator=iter(lines), model_writer=buffer, vocab_size=200,
                                      model_type=model_type, hard_vocab_limit=False, user_defined_symbols=["."])
    theirs = owner.SentencePieceProcessor(model_proto=buffer.getvalue())
    ours = facade.SentencePieceProcessor(model_proto=buffer.getvalue())
    for text in lines[:40] + ODD_TEXTS:
        assert ours.encode(text, return_type="serialized_proto") == theirs.encode(text, return_type="serialized_proto")


def test_nbest_timeout(request: pytest.FixtureRequest) -> None:
    """SetNBestTimeout: a long search gives the best path alone, a short one (under 4096 steps) all n."""
    theirs, ours = pair(request, "albert")
    try:
        for library in (owner, facade):
            library.SetNBestTimeout(1)
        for text in ("the" * 20000, "I saw a girl with a telescope."):
            mine, owners = ours.nbest_encode(text, nbest_size=10), theirs.nbest_encode(text, nbest_size=10)
            assert len(mine) == len(owners) and mine[0] == owners[0]
    finally:
        for library in (owner, facade):
            library.SetNBestTimeout(0)
