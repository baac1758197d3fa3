"""The compiled "hf" merge loop of BpeTrainer (hfcompat/trainers/_bpe_trainer.pyx) against the
pure-Python reference (its twins `load` and `merge_hf` in hfcompat/trainers/bpe.py), on random
word counts and every trainer option."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hfcompat import _backend
from hfcompat.trainers import BpeTrainer, bpe
from hfcompat.trainers.bpe import MAX_COMPILED_ID

pytest.importorskip("hfcompat.trainers._bpe_trainer", reason="the compiled core is not built")

ALPHABET = "aab日é "
WORD_COUNTS = st.dictionaries(st.text(alphabet=ALPHABET, max_size=12), st.integers(0, 60), max_size=12)


@st.composite
def trainers(draw: st.DrawFn) -> BpeTrainer:
    """A random "hf" trainer: small vocabularies and every option that changes the merges."""
    return BpeTrainer(
        vocab_size=draw(st.integers(0, 40)),
        min_frequency=draw(st.integers(0, 6)),
        special_tokens=draw(st.sampled_from([(), ("<s>",), ("<s>", "a", "ab")])),
        limit_alphabet=draw(st.none() | st.integers(0, 5)),
        initial_alphabet=draw(st.lists(st.sampled_from("abcz日"), max_size=3)),
        continuing_subword_prefix=draw(st.sampled_from([None, "##", "a"])),
        end_of_word_suffix=draw(st.sampled_from([None, "</w>", "b"])),
        max_token_length=draw(st.none() | st.integers(1, 5)),
        end_of_word_symbol=draw(st.sampled_from([None, "</w>"])),
        show_progress=False,
    )


def learned(trainer: BpeTrainer, word_counts: dict[str, int], backend: str) -> tuple[Any, Any]:
    """`trainer.learn` on `backend`; on the compiled one the Python loop must not run."""
    with _backend.use(backend):
        if backend == _backend.PYTHON:
            return trainer.learn(word_counts)
        with mock.patch.object(bpe, "merge_hf", side_effect=AssertionError("the Python loop ran")):
            return trainer.learn(word_counts)


@settings(max_examples=400, deadline=None)
@given(trainer=trainers(), word_counts=WORD_COUNTS)
def test_merges_and_vocabulary_equal_the_reference(trainer: BpeTrainer, word_counts: dict[str, int]) -> None:
    """Random word counts and options: the compiled loop learns the reference's merges and vocabulary."""
    compiled = learned(trainer, word_counts, _backend.COMPILED)
    assert compiled == learned(trainer, word_counts, _backend.PYTHON)


@settings(max_examples=150, deadline=None)
@given(first=WORD_COUNTS, second=WORD_COUNTS, size=st.integers(0, 30), more=st.integers(0, 30))
def test_extend_equals_the_reference(first: dict[str, int], second: dict[str, int], size: int, more: int) -> None:
    """Continued training (words segmented by the old merges first) gives the same model on both."""
    model = BpeTrainer(size, show_progress=False).train(first)
    trainer = BpeTrainer(size + more, show_progress=False, max_token_length=4)
    models = []
    for backend in (_backend.COMPILED, _backend.PYTHON):
        with _backend.use(backend):
            extended = trainer.extend(model, second)
        models.append((extended.vocab, extended.merges))
    assert models[0] == models[1]


def test_long_repeats_and_ties() -> None:
    """Long runs of one char (a pair overlapping itself) and many equal counts: still identical."""
    word_counts = {"a" * 50: 3, "ab" * 20: 3, "ba" * 21: 2, "b" * 7 + "a" * 7: 3, "日本" * 9: 6, "": 4}
    trainer = BpeTrainer(60, show_progress=False)
    assert learned(trainer, word_counts, _backend.COMPILED) == learned(trainer, word_counts, _backend.PYTHON)


@pytest.mark.parametrize("count", [2 ** 61, -(2 ** 61), 2 ** 70, 2 ** 60, 2 ** 57])
def test_counts_beyond_int64_stay_in_python(count: int) -> None:
    """A count the C loop could overflow (alone, or times a word's length): the Python loop runs
    instead, with the same result."""
    word_counts = {"abab": count, "abc": 5, "cab": 1, "a" * 17: count}
    trainer = BpeTrainer(12, show_progress=False)
    with _backend.use(_backend.COMPILED):
        compiled = trainer.learn(word_counts)
    assert compiled == learned(trainer, word_counts, _backend.PYTHON)


def test_ids_beyond_31_bits_stay_in_python() -> None:
    """A vocabulary that could hand out ids past int32: the Python loop runs, with the same result."""
    trainer = BpeTrainer(MAX_COMPILED_ID + 1, show_progress=False)
    word_counts = {"abab": 3, "abc": 2}
    with _backend.use(_backend.COMPILED):
        compiled = trainer.learn(word_counts)
    assert compiled == learned(trainer, word_counts, _backend.PYTHON)


def test_pure_python_backend_runs_the_python_loop() -> None:
    """`_backend.use(PYTHON)` makes the reference loop run (HFCOMPAT_PURE_PYTHON=1 selects it too)."""
    with _backend.use(_backend.PYTHON), mock.patch.object(bpe, "merge_hf", wraps=bpe.merge_hf) as loop:
        BpeTrainer(10, show_progress=False).learn({"hug": 3, "pug": 2})
    assert loop.call_count == 1
