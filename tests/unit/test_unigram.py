"""hfcompat.models.unigram (and its lattice) against tokenizers 0.23.3.

Covers T5's real 32k model on the corpora, every checked case of FORMATS A.7 (all entries
matchable, f64 unk score, byte fallback, unk fusing, ties), errors, the JSON form, n-best and
marginals (against exhaustive enumeration) and random text. Every test runs on each backend
(the `backend` fixture): the compiled Viterbi (models/_unigram.pyx) and the pure-Python one.
"""

from __future__ import annotations

import itertools
import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
import regex
from hypothesis import given
from hypothesis import strategies as st
from tokenizers import Tokenizer, models

from hfcompat.errors import FormatError, TokenizationError
from hfcompat.models import model_from_dict
from hfcompat.pipeline.json_numbers import serde_json_f64
from hfcompat.models.unigram import Unigram

pytestmark = pytest.mark.usefixtures("backend")

Triple = tuple[int, str, tuple[int, int]]
BYTES = [(f"<0x{byte:02X}>", -20.0) for byte in range(256)]

# --------------------------------------------------------------------------- oracle helpers


def char_span(word: str, offsets: tuple[int, int]) -> tuple[int, int]:
    """Byte offsets within `word` as char offsets, the unit the Python binding reports."""
    data = word.encode("utf-8")
    return len(data[: offsets[0]].decode("utf-8")), len(data[: offsets[1]].decode("utf-8"))


def ours(model: Unigram, word: str) -> list[Triple]:
    """(id, token, char offsets) from hfcompat."""
    return [(t.id, t.value, char_span(word, t.offsets)) for t in model.tokenize(word)]


def theirs(tokenizer: Tokenizer, word: str) -> list[Triple]:
    """(id, token, char offsets) from the oracle's pipeline, the word being one pre-token."""
    encoding = tokenizer.encode(word, add_special_tokens=False)
    return list(zip(encoding.ids, encoding.tokens, encoding.offsets))


def raw_theirs(tokenizer: Tokenizer, word: str) -> list[Triple]:
    """(id, token, byte offsets) straight from the oracle's model."""
    return [(t.id, t.value, t.offsets) for t in tokenizer.model.tokenize(word)]


def agree(model: Unigram, oracle: Tokenizer, word: str) -> bool:
    """Same tokens as the oracle's model, and through its pipeline when that calls the model."""
    same = [tuple(token) for token in model.tokenize(word)] == raw_theirs(oracle, word)
    return same and (not word or ours(model, word) == theirs(oracle, word))


def mismatches(model: Unigram, oracle: Tokenizer, words: list[str]) -> list[tuple[str, Any, Any]]:
    """The words on which hfcompat and the oracle disagree."""
    wrong = [word for word in words if not agree(model, oracle, word)]
    return [(word, raw_theirs(oracle, word), model.tokenize(word)) for word in wrong]


def oracle(vocab: list[tuple[str, float]], unk_id: int | None = 0, byte_fallback: bool = False) -> Tokenizer:
    """The official Unigram in a bare tokenizer."""
    return Tokenizer(models.Unigram(vocab, unk_id, byte_fallback))


def oracle_from_model_json(model: dict) -> Tokenizer:
    """A tokenizer.json holding just `model`, read by the official library."""
    return Tokenizer.from_str(json.dumps({"version": "1.0", "model": model}))


def both(
    vocab: list[tuple[str, float]], unk_id: int | None = 0, byte_fallback: bool = False
) -> tuple[Unigram, Tokenizer]:
    """hfcompat's and the oracle's model built from the same arguments."""
    return Unigram(vocab, unk_id, byte_fallback), oracle(vocab, unk_id, byte_fallback)


# --------------------------------------------------------------------------- T5


T5 = "refs/t5/tokenizer.json"


@lru_cache(maxsize=None)
def t5_model_json(shared: Path, exact_floats: bool = False) -> dict:
    """T5's model object (old style, no "type"), numbers read as HF reads them unless `exact_floats`."""
    text = (shared / T5).read_text(encoding="utf-8")
    return json.loads(text, parse_float=None if exact_floats else serde_json_f64)["model"]


@lru_cache(maxsize=None)
def t5_oracle(shared: Path) -> Tokenizer:
    """The official library reading T5's file, with only its model left in the pipeline."""
    tokenizer = Tokenizer.from_file(str(shared / T5))
    tokenizer.normalizer = tokenizer.pre_tokenizer = tokenizer.post_processor = None
    return tokenizer


@lru_cache(maxsize=None)
def t5_pair(shared: Path, backend: str) -> tuple[Unigram, Tokenizer]:
    """T5's model read by hfcompat and by the oracle from the same file (one model per backend,
    so that no backend answers from the other's cache)."""
    return Unigram.from_dict(t5_model_json(shared)), t5_oracle(shared)


@lru_cache(maxsize=None)
def corpus_words(shared: Path, name: str) -> tuple[str, ...]:
    """Distinct pre-tokens: whitespace-split words, or whole lines of the Japanese novel."""
    paths = {
        "botchan": "corpora/botchan.txt",
        "taylorswift": "corpora/taylorswift.txt",
        "wagahaiwa": "corpora/wagahaiwa_nekodearu.txt",
        "pku": "corpora/icwb2/pku_test.utf8",
    }
    text = (shared / paths[name]).read_text(encoding="utf-8")
    pieces = text.splitlines() if name in ("wagahaiwa", "pku") else text.split()
    return tuple(sorted(set(filter(None, pieces))))


@pytest.mark.conformance
@pytest.mark.parametrize("corpus", ["botchan", "taylorswift", "wagahaiwa", "pku"])
@pytest.mark.parametrize("metaspace", [True, False], ids=["metaspace", "raw"])
def test_t5_matches_oracle(shared: Path, corpus: str, metaspace: bool, backend: str) -> None:
    model, reference = t5_pair(shared, backend)
    words = [("▁" if metaspace else "") + word for word in corpus_words(shared, corpus)]
    assert mismatches(model, reference, words) == []
    assert len(words) > 1000


@pytest.mark.conformance
def test_t5_with_byte_pieces_matches_oracle(shared: Path) -> None:
    # Appended byte pieces: byte fallback kicks in, and their low score moves unk_score.
    data = t5_model_json(shared)
    vocab = [(piece, score) for piece, score in data["vocab"]] + [(p, -40.0) for p, _ in BYTES]
    model, reference = both(vocab, data["unk_id"], byte_fallback=True)
    words = list(corpus_words(shared, "wagahaiwa")[::7]) + list(corpus_words(shared, "botchan")[::5])
    assert mismatches(model, reference, words) == []
    assert model.unk_score == -50.0


@pytest.mark.conformance
def test_t5_loads_untagged(shared: Path) -> None:
    data = t5_model_json(shared)
    assert "type" not in data
    model = model_from_dict(data)
    assert isinstance(model, Unigram)
    assert model.get_vocab_size() == oracle_from_model_json(data).get_vocab_size() == 32100
    assert [t.value for t in model.tokenize("▁Hello")] == ["▁Hello"]


@pytest.mark.conformance
def test_t5_scores_are_read_like_serde_json(shared: Path) -> None:
    # serde_json (no float_roundtrip) reads many of T5's scores 1 ULP away from the nearest
    # double; read exactly, the model splits differently from the library reading the file.
    read_by_hf = json.loads(t5_oracle(shared).to_str())["model"]["vocab"]
    assert [score for _, score in t5_model_json(shared)["vocab"]] == [score for _, score in read_by_hf]
    exact = t5_model_json(shared, exact_floats=True)["vocab"]
    assert sum(a[1] != b[1] for a, b in zip(exact, read_by_hf)) > 8000
    dashes = "▁" + "-" * 55
    assert agree(Unigram.from_dict(t5_model_json(shared)), t5_oracle(shared), dashes)
    assert not agree(Unigram.from_dict(t5_model_json(shared, exact_floats=True)), t5_oracle(shared), dashes)


@pytest.mark.conformance
def test_t5_exact_floats_match_oracle_built_from_the_same_floats(shared: Path) -> None:
    data = t5_model_json(shared, exact_floats=True)
    model, reference = both([tuple(entry) for entry in data["vocab"]], data["unk_id"])
    words = ["▁" + word for word in corpus_words(shared, "botchan")[::2]]
    words += list(corpus_words(shared, "wagahaiwa")[::20])
    assert mismatches(model, reference, words) == []


@pytest.mark.conformance
def test_t5_lattice_viterbi_matches_oracle(shared: Path, backend: str) -> None:
    model, reference = t5_pair(shared, backend)
    words = ["▁" + word for word in corpus_words(shared, "botchan")[::4]]
    words += list(corpus_words(shared, "wagahaiwa")[::50])
    wrong = []
    for word in words:
        pieces, unknown = [], ""
        for node in model.lattice(word).viterbi():  # fuse unknowns as the model does
            text = word[node.pos : node.pos + node.length]
            if node.id == model.unk_id:
                unknown += text
                continue
            pieces += [unknown, text] if unknown else [text]
            unknown = ""
        pieces += [unknown] if unknown else []
        if pieces != [t.value for t in reference.model.tokenize(word)]:
            wrong.append(word)
    assert wrong == []


# --------------------------------------------------------------------------- FORMATS A.7 cases

CONTROL = [("<unk>", 0.0), ("<s>", 0.0), ("<0x41>", -1.0), ("a", -1.0), ("b", -1.0), ("ab", -1.5)]


@pytest.mark.parametrize("word", ["<0x41>", "a<s>", "<unk>", "<unk>x", "x<unk>", "A", "ab<s>ab"])
@pytest.mark.parametrize("byte_fallback", [False, True])
def test_every_entry_is_matchable(word: str, byte_fallback: bool) -> None:
    model, reference = both(CONTROL, 0, byte_fallback)
    assert agree(model, reference, word)


def test_every_entry_is_matchable_explicit() -> None:
    model = Unigram(CONTROL, 0)
    assert model.tokenize("<0x41>") == [(2, "<0x41>", (0, 6))]
    assert model.tokenize("a<s>") == [(3, "a", (0, 1)), (1, "<s>", (1, 4))]
    # the literal unk piece has the unk id, so it fuses with an unknown neighbour
    assert model.tokenize("<unk>x") == [(0, "<unk>x", (0, 6))]


def qbc_vocab(with_pad: bool) -> list[tuple[str, float]]:
    """A vocabulary where `Q` is unknown and the unk score decides between Q|bc and Qb|c."""
    vocab = [("<unk>", 0.0), ("Qb", -12.0), ("b", -3.0), ("c", -12.0), ("bc", -1.0)]
    return vocab + [("<pad>", -1000.0)] if with_pad else vocab


@pytest.mark.parametrize("with_pad,expected", [(False, ["Q", "bc"]), (True, ["Qb", "c"])])
def test_unk_score_is_min_of_all_scores_minus_ten(with_pad: bool, expected: list[str]) -> None:
    model, reference = both(qbc_vocab(with_pad))
    assert [t.value for t in model.tokenize("Qbc")] == expected
    assert agree(model, reference, "Qbc")


def test_byte_fallback_spells_the_fused_unknown() -> None:
    vocab = [("<unk>", 0.0), ("a", -1.0), ("b", -1.0)] + BYTES
    model, reference = both(vocab, 0, byte_fallback=True)
    tokens = model.tokenize("aé日b")
    assert [t.value for t in tokens] == ["a", "<0xC3>", "<0xA9>", "<0xE6>", "<0x97>", "<0xA5>", "b"]
    assert {t.offsets for t in tokens[1:-1]} == {(1, 6)}
    assert ours(model, "aé日b")[1][2] == (1, 3)
    assert agree(model, reference, "aé日b")


@pytest.mark.parametrize("word", ["aé日b", "é", "aéb", "日日日", "xé"])
def test_byte_fallback_needs_every_byte(word: str) -> None:
    vocab = [("<unk>", 0.0), ("a", -1.0), ("b", -1.0)] + [entry for entry in BYTES if entry[0] != "<0xA9>"]
    model, reference = both(vocab, 0, byte_fallback=True)
    assert agree(model, reference, word)


@pytest.mark.parametrize("word", ["xyz東京", "abxyab", "xaybz", "東", "ab"])
def test_adjacent_unknowns_fuse(word: str) -> None:
    model, reference = both([("<unk>", 0.0), ("a", -1.0), ("b", -1.0), ("ab", -1.0)])
    assert agree(model, reference, word)
    assert len(model.tokenize("xyz東京")) == 1


def test_ties_keep_the_longest_last_piece() -> None:
    model, reference = both([("<unk>", 0.0), ("x", -1.0), ("y", -1.0), ("z", -1.0), ("xy", -2.0), ("yz", -2.0)])
    assert [t.value for t in model.tokenize("xyz")] == ["x", "yz"]
    assert all(agree(model, reference, word) for word in ["xyz", "xyzxyz", "xxyyzz"])


def test_scores_add_in_float64() -> None:
    vocab = [("<unk>", 0.0), ("x", -3.7411351203918457), ("y", -9.19174861907959), ("xy", -12.932884216308594)]
    model, reference = both(vocab)
    assert [t.value for t in model.tokenize("xy")] == ["x", "y"]  # SentencePiece (f32) says "xy"
    assert agree(model, reference, "xy")


def test_repeated_piece_keeps_its_last_id() -> None:
    model, reference = both([("<unk>", 0.0), ("a", -1.0), ("b", -1.0), ("a", -5.0), ("ab", -5.5)])
    assert all(agree(model, reference, word) for word in ["a", "ab", "aab", "ba"])
    assert model.token_to_id("a") == 3 and model.id_to_token(1) == "a"
    assert model.get_vocab() == reference.get_vocab() and model.get_vocab_size() == 5


def test_fused_unknown_that_is_a_piece_gets_its_id() -> None:
    # Positive scores: two unknown chars (2 * 20) outscore the piece "xy" (30).
    model, reference = both([("<unk>", 30.0), ("xy", 30.0), ("a", 30.0)])
    assert model.tokenize("xy") == [(1, "xy", (0, 2))]
    assert all(agree(model, reference, word) for word in ["xy", "axy", "xya"])


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize("word", ["b", "ab", "ba", "aé"])
def test_missing_unk_id_raises_hf_message(word: str) -> None:
    model, reference = both([("a", -1.0)], None)
    with pytest.raises(Exception) as expected:
        reference.model.tokenize(word)
    with pytest.raises(TokenizationError) as actual:
        model.tokenize(word)
    assert str(actual.value) == str(expected.value) == "Encountered an unknown token but `unk_id` is missing"


def test_missing_unk_id_is_fine_when_no_unknown_wins() -> None:
    # At "a" no single-char piece starts, but the unk proposal loses to the piece "xa".
    model, reference = both([("x", -1.0), ("xa", -1.0)], None)
    assert model.tokenize("xa") == [(1, "xa", (0, 2))]
    assert agree(model, reference, "xa") and agree(model, reference, "")


@pytest.mark.parametrize("vocab,unk_id", [([("a", 0.0)], 1), ([("a", 0.0)], 7), ([], 0)])
def test_bad_unk_id_is_a_format_error(vocab: list, unk_id: int) -> None:
    with pytest.raises(Exception):
        oracle(vocab, unk_id)
    with pytest.raises(FormatError):
        Unigram(vocab, unk_id)
    with pytest.raises(Exception):
        oracle_from_model_json({"type": "Unigram", "unk_id": unk_id, "vocab": vocab})
    with pytest.raises(FormatError) as error:
        Unigram.from_dict({"type": "Unigram", "unk_id": unk_id, "vocab": vocab})
    assert error.value.field in ("unk_id", "vocab")


def test_empty_vocabulary_without_unk() -> None:
    model, reference = both([], None)
    assert agree(model, reference, "")
    with pytest.raises(TokenizationError):
        model.tokenize("a")


# --------------------------------------------------------------------------- JSON form


@pytest.mark.parametrize(
    "vocab,unk_id,byte_fallback",
    [(CONTROL, 0, False), (CONTROL, None, True), ([("a", -1), ("<unk>", 0)], 1, False), ([], None, False)],
)
def test_to_dict_matches_oracle(vocab: list, unk_id: int | None, byte_fallback: bool) -> None:
    expected = json.loads(oracle(vocab, unk_id, byte_fallback).to_str())["model"]
    actual = Unigram(vocab, unk_id, byte_fallback).to_dict()
    assert list(actual.items()) == list(expected.items())
    assert json.dumps(actual) == json.dumps(expected)  # 0 written as 0.0, as HF does


def test_from_dict_round_trip_with_oracle() -> None:
    data = Unigram(CONTROL + BYTES, 0, True).to_dict()
    reference = oracle_from_model_json(data)
    model = Unigram.from_dict(json.loads(json.dumps(data)))
    assert model.to_dict() == json.loads(reference.to_str())["model"]
    assert all(agree(model, reference, word) for word in ["ab<s>", "é", "<unk>é"])
    assert Unigram.from_dict({"vocab": [["<unk>", 0]], "unk_id": 0}).to_dict()["byte_fallback"] is False


@pytest.mark.parametrize(
    "patch,field",
    [
        ({"vocab": None}, "vocab"),
        ({"vocab": {"a": 1.0}}, "vocab"),
        ({"vocab": [["<unk>", 0.0], ["a"]]}, "vocab[1]"),
        ({"vocab": [["<unk>", 0.0], ["a", "1"]]}, "vocab[1]"),
        ({"vocab": [["<unk>", 0.0], [1, 1.0]]}, "vocab[1]"),
        ({"vocab": [["<unk>", 0.0], ["a", float("nan")]]}, "vocab[1]"),
        ({"vocab": [["<unk>", 0.0], ["a", 10**400]]}, "vocab[1]"),
        ({"unk_id": -1}, "unk_id"),
        ({"unk_id": "0"}, "unk_id"),
        ({"byte_fallback": "yes"}, "byte_fallback"),
        ({"byte_fallback": None}, "byte_fallback"),
    ],
)
def test_from_dict_rejects_bad_fields(patch: dict, field: str) -> None:
    data = {**Unigram(CONTROL, 0).to_dict(), **patch}
    with pytest.raises(Exception):
        oracle_from_model_json(data)
    with pytest.raises(FormatError) as error:
        Unigram.from_dict(data)
    assert error.value.field == field


def test_from_dict_needs_vocab_and_its_own_type() -> None:
    with pytest.raises(Exception, match="Missing vocab"):
        oracle_from_model_json({"type": "Unigram", "unk_id": 0})
    with pytest.raises(FormatError, match="Missing vocab"):
        Unigram.from_dict({"type": "Unigram", "unk_id": 0})
    with pytest.raises(FormatError, match="expected Unigram"):
        Unigram.from_dict({"type": "BPE", "vocab": []})


def oracle_reads(literals: list[str]) -> list[float]:
    """How the official library reads each number literal (as Unigram scores)."""
    vocab = ",".join(f'["{index}",{literal}]' for index, literal in enumerate(literals))
    text = '{"version":"1.0","model":{"type":"Unigram","unk_id":null,"vocab":[%s]}}' % vocab
    return [score for _, score in json.loads(Tokenizer.from_str(text).to_str())["model"]["vocab"]]


EDGE_LITERALS = [
    "-2.0122928619384766", "0.1", "-0.0", "1e-400", "4.9e-324", "2.2250738585072014e-308", "123.5e300",
    "1.7976931348623157e308", "18446744073709551616.5", "1844674407370955161.5e3", "1844674407370955161.6",
    "18446744073709551615.123", "123456789012345678901234567890.123", "0.000000000000000000000012345678901234567",
    "1E+5", "1e0000000000000000000002", "0.0e99999999999", "-1e-99999999999",
]


def test_serde_json_f64_on_edge_literals() -> None:
    assert [serde_json_f64(literal) for literal in EDGE_LITERALS] == oracle_reads(EDGE_LITERALS)
    assert serde_json_f64("-2.0122928619384766") != -2.0122928619384766  # 1 ULP off, like HF


@pytest.mark.parametrize("literal", ["1e309", "1.7976931348623159e308", "1e99999999999"])
def test_serde_json_f64_out_of_range(literal: str) -> None:
    with pytest.raises(Exception, match="number out of range"):
        oracle_reads([literal])
    with pytest.raises(FormatError, match="number out of range"):
        serde_json_f64(literal)


number_literals = st.builds(
    lambda sign, integer, fraction, exponent: f"{sign}{integer}.{fraction}{exponent}",
    st.sampled_from(["", "-"]),
    st.one_of(st.just("0"), st.from_regex(r"[1-9][0-9]{0,24}", fullmatch=True)),
    st.from_regex(r"[0-9]{1,25}", fullmatch=True),
    st.one_of(st.just(""), st.integers(-330, 300).map(lambda e: f"e{e}")),
)


@given(st.lists(number_literals, min_size=1, max_size=50))
def test_serde_json_f64_matches_oracle(literals: list[str]) -> None:
    readable = []
    for literal in literals:
        try:
            serde_json_f64(literal)
        except FormatError:
            continue
        readable.append(literal)
    if readable:
        assert [serde_json_f64(literal) for literal in readable] == oracle_reads(readable)


def test_accessors_and_cache() -> None:
    model = Unigram(CONTROL, 0)
    assert model.token_to_id("ab") == 5 and model.token_to_id("zz") is None
    assert model.id_to_token(1) == "<s>" and model.id_to_token(6) is None and model.id_to_token(-1) is None
    first = model.tokenize("abab")
    first.append(None)  # callers may mutate what they get
    assert model.tokenize("abab") == model.tokenize("abab") == [(5, "ab", (0, 2)), (5, "ab", (2, 4))]
    assert model.encode("abxyab") == ["ab", "xy", "ab"]


# --------------------------------------------------------------------------- lattice: n-best, marginals


def segmentations(model: Unigram, word: str) -> list[tuple[float, tuple[str, ...]]]:
    """Every segmentation the lattice allows, with its score, found by brute force."""
    pieces = dict(model.token_to_ids)
    results = []
    for cuts in itertools.product([False, True], repeat=max(len(word) - 1, 0)):
        bounds = [0] + [i + 1 for i, cut in enumerate(cuts) if cut] + [len(word)]
        parts = tuple(word[a:b] for a, b in zip(bounds, bounds[1:]))
        score = 0.0
        for start, part in zip(bounds, parts):
            if part in pieces:
                score += model.vocab[pieces[part]][1]
            elif len(part) == 1 and word[start] not in pieces:
                score += model.unk_score
            else:
                break
        else:
            results.append((score, parts))
    return sorted(results, key=lambda item: -item[0])


NBEST_VOCAB = [
    ("<unk>", 0.0), ("a", -1.0), ("b", -1.5), ("c", -2.0), ("ab", -2.0), ("bc", -2.25), ("abc", -4.0), ("ca", -2.5)
]


@pytest.mark.parametrize("word", ["abc", "abcab", "cabca", "axbc", "abcabca", "xx"])
@pytest.mark.parametrize("n", [1, 2, 5, 100])
def test_nbest_against_enumeration(word: str, n: int) -> None:
    model = Unigram(NBEST_VOCAB, 0)
    expected = segmentations(model, word)
    paths = model.lattice(word).nbest(n)
    assert len(paths) == min(n, len(expected))
    scores = [sum(node.score for node in path) for path in paths]
    assert scores == pytest.approx([score for score, _ in expected[: len(paths)]])
    everything = {parts for _, parts in expected}
    assert all(tuple(word[node.pos : node.pos + node.length] for node in path) in everything for path in paths)
    assert len({tuple(map(id, path)) for path in paths}) == len(paths)


@pytest.mark.parametrize("word", ["abc", "abcab", "axbc", "cabcab"])
def test_marginals_against_enumeration(word: str) -> None:
    model = Unigram(NBEST_VOCAB, 0)
    found = segmentations(model, word)
    log_z = math.log(sum(math.exp(score) for score, _ in found))
    expected = [0.0] * len(model.vocab)
    for score, parts in found:
        for part in parts:
            expected[model.token_to_ids.get(part, 0)] += 2.0 * math.exp(score - log_z)
    actual = [0.0] * len(model.vocab)
    assert model.lattice(word).populate_marginal(2.0, actual) == pytest.approx(2.0 * log_z)
    assert actual == pytest.approx(expected)


# --------------------------------------------------------------------------- random text

ALPHABET = "abcé日\u0301 "
piece_text = st.text(alphabet=ALPHABET + "<>0x", min_size=1, max_size=4)
vocabularies = st.lists(
    st.tuples(piece_text, st.floats(-30, 5, allow_nan=False, width=64)), min_size=0, max_size=14
)


@given(
    word=st.one_of(st.text(alphabet=ALPHABET + "xyz", max_size=16), st.text(max_size=12)),
    vocab=vocabularies,
    unk=st.one_of(st.none(), st.integers(0, 13)),
    byte_fallback=st.booleans(),
    byte_pieces=st.booleans(),
)
def test_random_text_matches_oracle(
    word: str, vocab: list, unk: int | None, byte_fallback: bool, byte_pieces: bool
) -> None:
    vocab = [("<unk>", -1.0)] + vocab + (BYTES if byte_pieces else [])
    unk_id = None if unk is None else min(unk, len(vocab) - 1)
    model, reference = both(vocab, unk_id, byte_fallback)
    try:
        raw_theirs(reference, word)
    except Exception as error:
        with pytest.raises(TokenizationError, match=regex.escape(str(error))):
            model.tokenize(word)
        return
    assert agree(model, reference, word)
