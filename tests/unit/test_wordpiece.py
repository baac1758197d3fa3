"""hfcompat.models.wordpiece against tokenizers 0.23.3: tokens, ids, offsets, errors and JSON form.

Every test runs on each backend (the `backend` fixture): the compiled greedy match
(models/_wordpiece.pyx) and the pure-Python one.
"""

from __future__ import annotations

import json
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
from hfcompat.models.wordpiece import WordPiece

pytestmark = pytest.mark.usefixtures("backend")

VOCABS = {"uncased": "refs/bert-base-uncased/vocab.txt", "chinese": "refs/bert-base-chinese/vocab.txt"}
CORPORA = {
    "botchan": "corpora/botchan.txt",
    "taylorswift": "corpora/taylorswift.txt",
    "wagahaiwa": "corpora/wagahaiwa_nekodearu.txt",
    "pku": "corpora/icwb2/pku_training_words.utf8",
}


# --------------------------------------------------------------------------- helpers


def char_span(word: str, offsets: tuple[int, int]) -> tuple[int, int]:
    """Byte offsets within `word` as char offsets, the unit the Python binding reports."""
    data = word.encode("utf-8")
    return len(data[: offsets[0]].decode("utf-8")), len(data[: offsets[1]].decode("utf-8"))


def ours(model: Any, word: str) -> list[tuple[int, str, tuple[int, int]]]:
    """(id, token, char offsets) from hfcompat."""
    return [(t.id, t.value, char_span(word, t.offsets)) for t in model.tokenize(word)]


def theirs(tokenizer: Tokenizer, word: str) -> list[tuple[int, str, tuple[int, int]]]:
    """(id, token, char offsets) from the oracle, the word being one pre-token."""
    encoding = tokenizer.encode(word, add_special_tokens=False)
    return list(zip(encoding.ids, encoding.tokens, encoding.offsets))


def raw_theirs(tokenizer: Tokenizer, word: str) -> list[tuple[int, str, tuple[int, int]]]:
    """(id, token, byte offsets) straight from the oracle's model (also defined for the empty word)."""
    return [(t.id, t.value, t.offsets) for t in tokenizer.model.tokenize(word)]


def agree(model: Any, oracle: Tokenizer, word: str) -> bool:
    """Same tokens as the oracle's model, and through the oracle's pipeline when it calls the model."""
    same = [tuple(token) for token in model.tokenize(word)] == raw_theirs(oracle, word)
    return same and (not word or ours(model, word) == theirs(oracle, word))


def mismatches(model: Any, oracle: Tokenizer, words: list[str]) -> list[tuple[str, Any, Any]]:
    """The words on which hfcompat and the oracle disagree."""
    return [(word, theirs(oracle, word), ours(model, word)) for word in words if not agree(model, oracle, word)]


def oracle_from_model_json(model: dict) -> Tokenizer:
    """A tokenizer.json holding just `model`, read by the official library."""
    return Tokenizer.from_str(json.dumps({"version": "1.0", "model": model}))


@lru_cache(maxsize=None)
def vocab(shared: Path, name: str) -> dict[str, int]:
    """A real vocab.txt, read by the official reader."""
    return models.WordPiece.read_file(str(shared / VOCABS[name]))


@lru_cache(maxsize=None)
def corpus_words(shared: Path, name: str) -> tuple[str, ...]:
    """Distinct pre-tokens of a corpus: whitespace-split words, or whole lines for Japanese."""
    text = (shared / CORPORA[name]).read_text(encoding="utf-8")
    pieces = text.splitlines() if name == "wagahaiwa" else text.split()
    return tuple(sorted(set(filter(None, pieces))))


def bert_words(words: tuple[str, ...]) -> list[str]:
    """Lower-cased words split BERT-style into letters/digits runs and single punctuation."""
    return sorted({part for word in words for part in regex.findall(r"\w+|[^\w\s]", word.lower())})


# --------------------------------------------------------------------------- real vocabularies


@pytest.mark.conformance
@pytest.mark.parametrize(
    "vocab_name,corpus,bert_split",
    [
        ("uncased", "botchan", True),
        ("uncased", "botchan", False),
        ("uncased", "taylorswift", True),
        ("uncased", "taylorswift", False),
        ("uncased", "wagahaiwa", False),
        ("chinese", "pku", False),
        ("chinese", "wagahaiwa", False),
        ("chinese", "botchan", True),
    ],
)
def test_real_vocab_matches_oracle(shared: Path, vocab_name: str, corpus: str, bert_split: bool) -> None:
    words = corpus_words(shared, corpus)
    words = bert_words(words) if bert_split else list(words)
    table = vocab(shared, vocab_name)
    model = WordPiece(table)
    oracle = Tokenizer(models.WordPiece(table, unk_token="[UNK]"))
    assert mismatches(model, oracle, words) == []
    assert len(words) > 1000


@pytest.mark.conformance
@pytest.mark.parametrize("max_chars", [0, 1, 5, 12])
def test_max_input_chars_per_word(shared: Path, max_chars: int) -> None:
    table = vocab(shared, "uncased")
    model = WordPiece(table, max_input_chars_per_word=max_chars)
    oracle = Tokenizer(models.WordPiece(table, unk_token="[UNK]", max_input_chars_per_word=max_chars))
    words = bert_words(corpus_words(shared, "botchan"))[:3000] + ["日本語のテキスト", "é" * 6]
    assert mismatches(model, oracle, words) == []


@pytest.mark.conformance
def test_from_vocab_file(shared: Path) -> None:
    model = WordPiece.from_vocab_file(shared / VOCABS["uncased"], max_input_chars_per_word=50)
    assert model.get_vocab() == vocab(shared, "uncased")
    assert model.max_input_chars_per_word == 50
    assert [t.value for t in model.tokenize("unaffable")] == ["una", "##ffa", "##ble"]


# --------------------------------------------------------------------------- hand-made cases

SMALL = {"[UNK]": 0, "un": 1, "##aff": 2, "##able": 3, "a": 4, "##b": 5, "é": 6, "##日": 7, "ab": 8, "##y": 9}
SMALL_WORDS = ["unaffable", "unaffablex", "unaffabley", "ab", "abb", "aéb", "é日", "é日日", "", "x"]


@pytest.mark.parametrize("word", SMALL_WORDS + ["a" * 101, "é" * 101])
@pytest.mark.parametrize("prefix", ["##", "", "@@"])
def test_small_vocab(word: str, prefix: str) -> None:
    table = {key.replace("##", prefix) if key.startswith("##") else key: value for key, value in SMALL.items()}
    model = WordPiece(table, continuing_subword_prefix=prefix)
    oracle = Tokenizer(models.WordPiece(table, unk_token="[UNK]", continuing_subword_prefix=prefix))
    assert agree(model, oracle, word)


def test_failed_position_makes_whole_word_unknown() -> None:
    model = WordPiece(SMALL)
    assert model.tokenize("unaffablex") == [(0, "[UNK]", (0, 10))]
    assert model.tokenize("aé日") == [(0, "[UNK]", (0, 6))]
    assert model.tokenize("aé") == [(0, "[UNK]", (0, 3))]
    assert model.tokenize("é日日") == [(6, "é", (0, 2)), (7, "##日", (2, 5)), (7, "##日", (5, 8))]


@pytest.mark.parametrize("word", ["zzz", "z" * 120])
def test_missing_unk_raises_hf_message(word: str) -> None:
    table = {"a": 0, "##b": 1}
    oracle = Tokenizer(models.WordPiece(table, unk_token="[UNK]"))
    with pytest.raises(Exception) as expected:
        oracle.encode(word, add_special_tokens=False)
    with pytest.raises(TokenizationError) as actual:
        WordPiece(table).tokenize(word)
    assert str(actual.value) == str(expected.value)
    assert WordPiece(table).tokenize("ab") == [(0, "a", (0, 1)), (1, "##b", (1, 2))]


# --------------------------------------------------------------------------- JSON form


@pytest.mark.parametrize(
    "table",
    [SMALL, {}, {"b": 3, "a": 1}, {"a": 0, "b": 0, "c": 2}],
    ids=["small", "empty", "holes", "shared-id"],
)
def test_to_dict_matches_oracle(table: dict[str, int]) -> None:
    model = WordPiece(table, unk_token="<u>", continuing_subword_prefix="@@", max_input_chars_per_word=7)
    oracle = Tokenizer(
        models.WordPiece(table, unk_token="<u>", continuing_subword_prefix="@@", max_input_chars_per_word=7)
    )
    expected = json.loads(oracle.to_str())["model"]
    actual = model.to_dict()
    if len(set(table.values())) == len(table):
        assert list(actual.items()) == list(expected.items())
        assert list(actual["vocab"].items()) == list(expected["vocab"].items())
    else:
        # HF keeps an arbitrary one of the tokens sharing an id.
        assert actual.keys() == expected.keys() and actual["vocab"].keys() <= table.keys()
        assert sorted(actual["vocab"].values()) == sorted(expected["vocab"].values())


def test_from_dict_round_trip_with_oracle() -> None:
    data = WordPiece(SMALL, max_input_chars_per_word=9).to_dict()
    oracle = oracle_from_model_json(data)
    model = WordPiece.from_dict(json.loads(json.dumps(data)))
    assert json.loads(oracle.to_str())["model"] == model.to_dict()
    words = ["unaffable", "unaffablex", "aé", "abbbbbbbbbbb"]
    assert mismatches(model, oracle, words) == []
    assert isinstance(model_from_dict(data), WordPiece)


FIELDS = ["unk_token", "continuing_subword_prefix", "max_input_chars_per_word", "vocab"]


@pytest.mark.parametrize("missing", FIELDS)
def test_from_dict_requires_every_field(missing: str) -> None:
    data = WordPiece(SMALL).to_dict()
    del data[missing]
    with pytest.raises(Exception, match=f"missing field `{missing}`"):
        oracle_from_model_json(data)
    with pytest.raises(FormatError, match=f"missing field `{missing}`") as error:
        WordPiece.from_dict(data)
    assert error.value.field == missing


@pytest.mark.parametrize(
    "field,value",
    [
        ("unk_token", 3),
        ("continuing_subword_prefix", None),
        ("max_input_chars_per_word", -1),
        ("max_input_chars_per_word", "9"),
        ("vocab", [["a", 1]]),
        ("vocab", {"a": -1}),
        ("vocab", {"a": 1.5}),
        ("vocab", {"a": True}),
    ],
)
def test_from_dict_rejects_bad_fields(field: str, value: Any) -> None:
    data = WordPiece(SMALL).to_dict()
    data[field] = value
    with pytest.raises(Exception):
        oracle_from_model_json(data)
    with pytest.raises(FormatError) as error:
        WordPiece.from_dict(data)
    assert error.value.field == field


def test_from_dict_rejects_another_type() -> None:
    data = {**WordPiece(SMALL).to_dict(), "type": "WordLevel"}
    with pytest.raises(FormatError, match="expected WordPiece") as error:
        WordPiece.from_dict(data)
    assert error.value.field == "type"


def test_vocab_accessors() -> None:
    model = WordPiece(SMALL)
    assert model.token_to_id("##able") == 3 and model.token_to_id("zz") is None
    assert model.id_to_token(6) == "é" and model.id_to_token(99) is None
    assert model.get_vocab() == SMALL and model.get_vocab_size() == len(SMALL)


# --------------------------------------------------------------------------- random text

ALPHABET = "abcé日本\u0301 x"
PIECES = ["[UNK]", "a", "b", "ab", "abc", "é", "日本"]
PIECES += ["##a", "##b", "##c", "##bc", "##é", "##日", "##本", "##\u0301"]


@given(
    word=st.one_of(st.text(alphabet=ALPHABET, max_size=14), st.text(max_size=14)),
    max_chars=st.integers(0, 12),
    with_unk=st.booleans(),
)
def test_random_text_matches_oracle(word: str, max_chars: int, with_unk: bool) -> None:
    table = {piece: index for index, piece in enumerate(PIECES) if with_unk or piece != "[UNK]"}
    model = WordPiece(table, max_input_chars_per_word=max_chars)
    oracle = Tokenizer(models.WordPiece(table, unk_token="[UNK]", max_input_chars_per_word=max_chars))
    try:
        raw_theirs(oracle, word)
    except Exception as error:  # the oracle's missing-unk error
        with pytest.raises(TokenizationError, match=regex.escape(str(error))):
            model.tokenize(word)
        return
    assert agree(model, oracle, word)


# --------------------------------------------------------------------------- char offsets, candidates

CANDIDATE_VOCAB = {token: index for index, token in enumerate([
    "[UNK]", "日", "本", "##本", "語", "##語", "日本", "##日本語", "é", "##é", "a", "##a", "b", "##b", "##bc",
    "##c", "#", "##", "###", "ab", "##éa",
])}


@given(st.text(alphabet="日本語éabc#", min_size=1, max_size=12))
def test_char_offsets_are_the_byte_offsets_in_chars(word: str) -> None:
    """tokenize_chars (what the tokenizer calls) gives the same tokens, with the bytes'
    spans counted in chars; tokenize's bytes are checked against the oracle above."""
    model = WordPiece(CANDIDATE_VOCAB)
    by_bytes, by_chars = model.tokenize(word), model.tokenize_chars(word)
    assert [token[:2] for token in by_chars] == [token[:2] for token in by_bytes]
    assert [char_span(word, token.offsets) for token in by_bytes] == [token.offsets for token in by_chars]
    assert [tuple(token) for token in by_bytes] == \
        [(t.id, t.value, t.offsets) for t in models.WordPiece(CANDIDATE_VOCAB, unk_token="[UNK]").tokenize(word)]


def test_candidates_longer_than_any_piece_on_that_char_are_not_tried() -> None:
    """The longest candidate at a position is the longest piece beginning with its char."""
    model = WordPiece(CANDIDATE_VOCAB)
    assert model.reference_matcher.longest_candidate("日本語", 0) == 2  # "日本"
    assert model.reference_matcher.longest_candidate("本日本語", 1) == 3  # "##日本語"
    assert model.reference_matcher.longest_candidate("xa", 0) == 0
    assert model.reference_matcher.longest_candidate("a#", 1) == 1  # "###" is "#" after the prefix
