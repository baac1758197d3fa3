"""Random Unicode through real and trained tokenizers: hfcompat agrees with tokenizers on each."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tokenizers import Tokenizer

from .harness import compare, oracle_ref, subject, subject_ref
from .test_trained_matrix import CASES, TRAIN_LINES, train

pytestmark = pytest.mark.conformance

REF_NAMES = ["gpt2", "bert-base-uncased", "t5", "phi-3-mini", "clip"]
TRAINED_NAMES = ["bert-wordpiece", "bpe-byte-fallback-llama", "unigram-byte-fallback", "roberta-trim", "lowercase"]
FIXTURE_FILE = Path(__file__).resolve().parents[2] / "fixtures" / "multilingual.txt"

# Pieces that make tokenizers branch: whitespace kinds, marks, digits, look-alikes of specials.
SPACES = [" ", "  ", "   ", "\t", "\n", "\r\n", "\r", "\u00a0", "\u3000", "\u2003", "\u200b", "\u200d", "\ufeff"]
MARKS = ["\u0301", "\u0308", "\u0323", "\u0951", "\u093f", "\u064e", "\u3099", "\ufe0f", "\U0001f3fd"]
DIGITS = list("0123456789") + ["12345678", "2012", "8868", "²", "½", "Ⅻ", "٣", "४", "１"]
PIECES = [
    "[CLS]", "[SEP]", "[MASK]", "[UNK]", "[PAD]", "<s>", "</s>", "<pad>", "<unk>", "<mask>",
    "<|endoftext|>", "<|startoftext|>", "ab", "abc", "bcd", "the", "CASE", "HeLLo", "<0x41>",
    "<0xE6>", "▁", "Ġ", "Ċ", "##", "</w>", "'s", "'t", "'re", "'ll", "https://", "x" * 20,
]


def fixture_characters() -> list[str]:
    """Every distinct character of the multilingual fixture."""
    return sorted(set(FIXTURE_FILE.read_text(encoding="utf-8")))


any_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)
mixed_text = st.lists(
    st.one_of(
        st.sampled_from(fixture_characters()),
        st.sampled_from(SPACES),
        st.sampled_from(MARKS),
        st.sampled_from(DIGITS),
        st.sampled_from(PIECES),
        st.text(st.characters(exclude_categories=("Cs",)), max_size=3),
    ),
    max_size=24,
).map("".join)
texts = st.one_of(any_text, mixed_text)


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory, corpora, multilingual) -> Callable[[str], tuple[Any, Any]]:
    """(oracle, subject) for a few trained cases, each trained and loaded once per module."""
    cache: dict[str, tuple[Any, Any]] = {}
    lines = corpora("botchan", TRAIN_LINES) + multilingual

    def get(name: str) -> tuple[Any, Any]:
        if name not in cache:
            path = tmp_path_factory.mktemp(name) / "tokenizer.json"
            train(CASES[name], lines).save(str(path))
            cache[name] = (Tokenizer.from_file(str(path)), subject().load(path))
        return cache[name]

    return get


@pytest.mark.parametrize("name", REF_NAMES)
@given(first=texts, second=texts)
def test_random_text_on_references(shared: Path, name: str, first: str, second: str) -> None:
    """Two random texts, alone and as a pair, with and without special tokens."""
    compare(oracle_ref(shared, name), subject_ref(shared, name), [first, second], pairs=True, label=name)


@pytest.mark.parametrize("name", TRAINED_NAMES)
@given(first=texts, second=texts)
def test_random_text_on_trained(trained, name: str, first: str, second: str) -> None:
    """The same on tokenizers trained at test time."""
    oracle, ours = trained(name)
    compare(oracle, ours, [first, second], pairs=True, label=name)
