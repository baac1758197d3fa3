"""hfcompat.models.wordlevel against tokenizers 0.23.3: whole-word lookup, unk, errors and JSON form."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import regex
from hypothesis import given
from hypothesis import strategies as st
from tokenizers import Tokenizer, models

from hfcompat.errors import FormatError, TokenizationError
from hfcompat.models import model_from_dict
from hfcompat.models.wordlevel import WordLevel


def char_span(word: str, offsets: tuple[int, int]) -> tuple[int, int]:
    """Byte offsets within `word` as char offsets, the unit the Python binding reports."""
    data = word.encode("utf-8")
    return len(data[: offsets[0]].decode("utf-8")), len(data[: offsets[1]].decode("utf-8"))


def ours(model: WordLevel, word: str) -> list[tuple[int, str, tuple[int, int]]]:
    """(id, token, char offsets) from hfcompat."""
    return [(t.id, t.value, char_span(word, t.offsets)) for t in model.tokenize(word)]


def theirs(tokenizer: Tokenizer, word: str) -> list[tuple[int, str, tuple[int, int]]]:
    """(id, token, char offsets) from the oracle, the word being one pre-token."""
    encoding = tokenizer.encode(word, add_special_tokens=False)
    return list(zip(encoding.ids, encoding.tokens, encoding.offsets))


def raw_ours(model: WordLevel, word: str) -> list[tuple[int, str, tuple[int, int]]]:
    """(id, token, byte offsets) straight from hfcompat's model."""
    return [tuple(token) for token in model.tokenize(word)]


def raw_theirs(tokenizer: Tokenizer, word: str) -> list[tuple[int, str, tuple[int, int]]]:
    """(id, token, byte offsets) straight from the oracle's model (also defined for the empty word)."""
    return [(t.id, t.value, t.offsets) for t in tokenizer.model.tokenize(word)]


def agree(model: WordLevel, oracle: Tokenizer, word: str) -> bool:
    """Same tokens as the oracle's model, and through the oracle's pipeline when it calls the model."""
    same = raw_ours(model, word) == raw_theirs(oracle, word)
    return same and (not word or ours(model, word) == theirs(oracle, word))


def oracle_from_model_json(model: dict) -> Tokenizer:
    """A tokenizer.json holding just `model`, read by the official library."""
    return Tokenizer.from_str(json.dumps({"version": "1.0", "model": model}))


@pytest.mark.conformance
@pytest.mark.parametrize("corpus", ["corpora/botchan.txt", "corpora/taylorswift.txt"])
def test_real_vocab_matches_oracle(shared: Path, corpus: str) -> None:
    # BERT's vocabulary used as a word-level one: common words hit, the rest are unknown.
    table = models.WordPiece.read_file(str(shared / "refs/bert-base-uncased/vocab.txt"))
    words = sorted(set((shared / corpus).read_text(encoding="utf-8").split()))
    words += [word.lower() for word in words] + ["日本語", "é", ""]
    model = WordLevel(table, "[UNK]")
    oracle = Tokenizer(models.WordLevel(table, unk_token="[UNK]"))
    assert [word for word in words if not agree(model, oracle, word)] == []
    hits = sum(model.tokenize(word)[0].value != "[UNK]" for word in words if word)
    assert 1000 < hits < len(words)


SMALL = {"<unk>": 0, "hello": 1, "wörld": 2, "日本": 3, "": 4, " ": 5}


@pytest.mark.parametrize("word", ["hello", "wörld", "日本", "日本語", "Hello", " ", "", "\u0301"])
def test_small_vocab(word: str) -> None:
    assert agree(WordLevel(SMALL), Tokenizer(models.WordLevel(SMALL, unk_token="<unk>")), word)


def test_byte_offsets() -> None:
    assert WordLevel(SMALL).tokenize("日本") == [(3, "日本", (0, 6))]
    assert WordLevel(SMALL).tokenize("日本語") == [(0, "<unk>", (0, 9))]


def test_missing_unk_raises_hf_message() -> None:
    table = {"a": 0}
    with pytest.raises(Exception) as expected:
        Tokenizer(models.WordLevel(table, unk_token="<unk>")).encode("b", add_special_tokens=False)
    with pytest.raises(TokenizationError) as actual:
        WordLevel(table).tokenize("b")
    assert str(actual.value) == str(expected.value)


@pytest.mark.parametrize("table", [SMALL, {}, {"b": 3, "a": 1}], ids=["small", "empty", "holes"])
def test_to_dict_matches_oracle(table: dict[str, int]) -> None:
    expected = json.loads(Tokenizer(models.WordLevel(table, unk_token="[U]")).to_str())["model"]
    actual = WordLevel(table, "[U]").to_dict()
    assert list(actual.items()) == list(expected.items())
    assert list(actual["vocab"].items()) == list(expected["vocab"].items())


def test_from_dict_round_trip_with_oracle() -> None:
    data = WordLevel(SMALL).to_dict()
    oracle = oracle_from_model_json(data)
    model = WordLevel.from_dict(json.loads(json.dumps(data)))
    assert json.loads(oracle.to_str())["model"] == model.to_dict()
    assert all(agree(model, oracle, word) for word in ["hello", "x", "日本", ""])
    assert isinstance(model_from_dict(data), WordLevel)
    untagged = {key: value for key, value in data.items() if key != "type"}
    assert isinstance(WordLevel.from_dict(untagged), WordLevel)


@pytest.mark.parametrize("missing", ["unk_token", "vocab"])
def test_from_dict_requires_fields(missing: str) -> None:
    data = WordLevel(SMALL).to_dict()
    del data[missing]
    with pytest.raises(Exception, match=f"missing field `{missing}`"):
        oracle_from_model_json(data)
    with pytest.raises(FormatError, match=f"missing field `{missing}`") as error:
        WordLevel.from_dict(data)
    assert error.value.field == missing


@pytest.mark.parametrize(
    "field,value",
    [("unk_token", None), ("vocab", ["a"]), ("vocab", {"a": -2}), ("vocab", {"a": 2**32}), ("vocab", {"a": "1"})],
)
def test_from_dict_rejects_bad_fields(field: str, value: Any) -> None:
    data = {**WordLevel(SMALL).to_dict(), field: value}
    with pytest.raises(Exception):
        oracle_from_model_json(data)
    with pytest.raises(FormatError) as error:
        WordLevel.from_dict(data)
    assert error.value.field == field


def test_from_dict_rejects_another_type() -> None:
    with pytest.raises(FormatError, match="expected WordLevel"):
        WordLevel.from_dict({**WordLevel(SMALL).to_dict(), "type": "BPE"})


def test_vocab_accessors() -> None:
    model = WordLevel(SMALL)
    assert model.token_to_id("日本") == 3 and model.token_to_id("x") is None
    assert model.id_to_token(2) == "wörld" and model.id_to_token(42) is None
    assert model.get_vocab() == SMALL and model.get_vocab_size() == len(SMALL)


@given(word=st.one_of(st.text(alphabet="ab日 ", max_size=4), st.text(max_size=10)), with_unk=st.booleans())
def test_random_text_matches_oracle(word: str, with_unk: bool) -> None:
    table = {piece: index for index, piece in enumerate(["<unk>", "a", "ab", "日", "b 日", " "])}
    if not with_unk:
        del table["<unk>"]
    oracle = Tokenizer(models.WordLevel(table, unk_token="<unk>"))
    try:
        raw_theirs(oracle, word)
    except Exception as error:
        with pytest.raises(TokenizationError, match=regex.escape(str(error))):
            WordLevel(table).tokenize(word)
        return
    assert agree(WordLevel(table), oracle, word)
