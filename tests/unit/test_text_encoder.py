"""The Tokenizer's TextEncoder: built once per set of components and backend, rebuilt when either
changes, emptied by `clear_cache`, and left out of a pickle."""

from __future__ import annotations

import pickle

import pytest

from hfcompat import _backend, load, normalizers, pre_tokenizers
from hfcompat.pipeline.added_vocabulary import AddedVocabulary

from conftest import shared_file

TEXT = "Hello world, hello again; 日本語 too"


def gpt2():
    """GPT-2's tokenizer.json, freshly loaded."""
    return load(str(shared_file("refs/gpt2/tokenizer.json")))


def official(relative: str = "refs/gpt2/tokenizer.json"):
    """The same tokenizer.json read by `tokenizers`, the oracle."""
    tokenizers = pytest.importorskip("tokenizers")
    return tokenizers.Tokenizer.from_file(str(shared_file(relative)))


def same_as_official(ours, oracle, text: str = TEXT) -> bool:
    """Ids, tokens and offsets of `text` equal to the oracle's."""
    mine, theirs = ours.encode(text), oracle.encode(text)
    return (mine.ids, mine.tokens, mine.offsets) == (theirs.ids, theirs.tokens, theirs.offsets)


def test_one_encoder_serves_every_call_until_a_component_changes() -> None:
    """encode, encode_batch and encode_ids share one encoder; each setter builds a new one."""
    tokenizer = gpt2()
    first = tokenizer._text_encoder()
    tokenizer.encode(TEXT)
    tokenizer.encode_batch([TEXT, TEXT])
    tokenizer.encode_ids(TEXT)
    assert tokenizer._text_encoder() is first
    expected = tokenizer.encode(TEXT).ids
    for change in (lambda: setattr(tokenizer, "model", tokenizer.model),
                   lambda: setattr(tokenizer, "pre_tokenizer", tokenizer.pre_tokenizer),
                   lambda: setattr(tokenizer, "normalizer", normalizers.NFC()),
                   lambda: setattr(tokenizer, "added_vocabulary", AddedVocabulary())):
        before = tokenizer._text_encoder()
        change()
        assert tokenizer._text_encoder() is not before
    assert tokenizer.encode(TEXT).ids == expected  # NFC changes nothing in TEXT
    oracle = official()
    oracle.normalizer = pytest.importorskip("tokenizers").normalizers.NFC()
    assert same_as_official(tokenizer, oracle)


def test_a_new_pre_tokenizer_is_used_at_once() -> None:
    """Pieces cached under the old pre-tokenizer do not answer for the new one."""
    tokenizer = gpt2()
    spaced = tokenizer.encode("a b").tokens
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=True)
    assert tokenizer.encode("a b").tokens == ["Ġa", "Ġb"] != spaced
    oracle = official()
    oracle.pre_tokenizer = pytest.importorskip("tokenizers").pre_tokenizers.ByteLevel(add_prefix_space=True)
    assert same_as_official(tokenizer, oracle, "a b") and same_as_official(tokenizer, oracle)


def test_switching_the_backend_builds_a_new_encoder() -> None:
    """The plan holds the backend's kernels: a switch builds a new encoder, with the same results."""
    if len(_backend.available()) < 2:
        pytest.skip("the compiled core is not built in this installation")
    tokenizer = gpt2()
    expected = tokenizer.encode(TEXT)
    first = tokenizer._text_encoder()
    with _backend.use(_backend.PYTHON if _backend.backend == _backend.COMPILED else _backend.COMPILED):
        assert tokenizer.encode(TEXT).offsets == expected.offsets
        assert tokenizer._text_encoder() is not first
        assert same_as_official(tokenizer, official())


@pytest.mark.parametrize("relative", ["refs/gpt2/tokenizer.json", "refs/t5/tokenizer.json"])
def test_clear_cache_empties_every_cache(relative: str) -> None:
    """After clear_cache no piece is cached and the next pass gives the same tokens."""
    tokenizer = load(str(shared_file(relative)))
    for _ in range(2):  # a piece is kept the second time it is computed
        expected = tokenizer.encode(TEXT)
        ids = tokenizer.encode_ids(TEXT)
    encoder = tokenizer._text_encoder()
    assert encoder.piece_cache
    assert encoder.ids_cache or "gpt2" in relative  # T5's ids come piece by piece (GPT-2's: scanned in C)
    tokenizer.clear_cache()
    assert not encoder.piece_cache and not encoder.ids_cache and not encoder.word_cache
    assert tokenizer.encode(TEXT).tokens == expected.tokens
    assert tokenizer.encode_ids(TEXT) == ids
    assert same_as_official(tokenizer, official(relative))


def test_a_pickled_tokenizer_builds_its_own_encoder() -> None:
    """The encoder (and the compiled tables of its plan) stays out of the pickle."""
    tokenizer = gpt2()
    expected = tokenizer.encode(TEXT)
    copy = pickle.loads(pickle.dumps(tokenizer))
    assert copy._encoder is None
    assert copy.encode(TEXT).ids == expected.ids
