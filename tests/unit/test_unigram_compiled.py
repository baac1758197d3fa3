"""The compiled Unigram Viterbi (hfcompat/models/_unigram.pyx) against its pure-Python twin
(`unigram.Viterbi`), on random vocabularies and words, summing in float64 (HF) and in float32
(sentencepiece), with reserved pieces, ties and missing unk ids."""

from __future__ import annotations

from typing import Any, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hfcompat import _backend
from hfcompat.errors import TokenizationError
from hfcompat.models.unigram import Unigram
from hfcompat.pipeline.normalized import char_spans

_unigram = pytest.importorskip("hfcompat.models._unigram", reason="the compiled core is not built")

ALPHABET = "abcé日"
# Few distinct scores make ties common; float32 values are what a .model holds.
SCORES = st.sampled_from([-1.0, -2.0, -0.5, -3.25]) | st.floats(-30.0, 0.0, width=32)
VOCABS = st.lists(st.tuples(st.text(alphabet=ALPHABET, min_size=1, max_size=4), SCORES), min_size=1, max_size=30)
WORDS = st.lists(st.text(alphabet=ALPHABET + "x", max_size=24), min_size=1, max_size=6)


@st.composite
def models(draw: st.DrawFn) -> Unigram:
    """A random Unigram: maybe no unk id, maybe reserved pieces, maybe float32 sums."""
    vocab = draw(VOCABS)
    ids = st.integers(0, len(vocab) - 1)
    model = Unigram(vocab, draw(st.none() | ids), draw(st.booleans()))
    reserved = draw(st.frozensets(ids, max_size=3))
    if reserved:
        model.without_matching(reserved)
    if draw(st.booleans()):
        model.sum_in_float32(model.min_score - 10.0)
    return model


def reference_spans(model: Unigram, word: str) -> list[tuple[int, int, int]] | None:
    """The reference's spans of `word`, or None where it raises TokenizationError (no unk id)."""
    try:
        return model.reference_viterbi.best_path(word)
    except TokenizationError:
        return None


def tokens_on(model: Any, word: str, backend: str) -> object:
    """`model.tokenize(word)` on one backend, from an empty cache if it has one (or the error it raises)."""
    if hasattr(model, "clear_cache"):
        model.clear_cache()
    with _backend.use(backend):
        try:
            return model.tokenize(word)
        except (TokenizationError, OverflowError) as error:
            return repr(error)


def assert_twins_agree(model: Any, words: list[str], compiled: Callable[[str], object],
                       reference: Callable[[str], object]) -> None:
    """On every word, the compiled function gives the reference's answer, and the model's tokens
    (ids, values, offsets) are the same on both backends."""
    for word in words:
        assert compiled(word) == reference(word), word
        assert tokens_on(model, word, _backend.COMPILED) == tokens_on(model, word, _backend.PYTHON), word


@settings(max_examples=300, deadline=None)
@given(model=models(), words=WORDS)
def test_best_path_equals_the_reference(model: Unigram, words: list[str]) -> None:
    """Random models and words: the compiled spans are the reference's, tokens and offsets too."""
    with _backend.use(_backend.COMPILED):
        viterbi = model.viterbi()
    assert_twins_agree(model, words, viterbi.best_path, lambda word: reference_spans(model, word))


@settings(max_examples=50, deadline=None)
@given(model=models(), word=st.text(alphabet="ab", min_size=200, max_size=1000))
def test_long_words_agree(model: Unigram, word: str) -> None:
    """Long words: many positions, long float32 sums."""
    with _backend.use(_backend.COMPILED):
        assert model.viterbi().best_path(word) == reference_spans(model, word)


def test_float32_sums_near_the_limit_are_reset_not_overflowed() -> None:
    """Two pieces scored -3e38 would overflow a float32 sum; sentencepiece's score reset (past
    1e5 the path scores restart from 0) keeps it finite, on both backends alike."""
    model = Unigram([("<unk>", 0.0), ("a", -3e38)], 0)
    model.sum_in_float32(-1e30)
    with _backend.use(_backend.COMPILED):
        assert model.viterbi().best_path("aa") == [(0, 1, 1), (1, 2, 1)]
    assert model.reference_viterbi.best_path("aa") == [(0, 1, 1), (1, 2, 1)]
    assert tokens_on(model, "aa", _backend.COMPILED) == tokens_on(model, "aa", _backend.PYTHON)


def test_ids_beyond_31_bits_stay_in_python() -> None:
    """An unk id the C arrays cannot hold: the model runs the Python Viterbi."""
    model = Unigram([("a", -1.0)])
    model.unk_id = 2 ** 31
    with _backend.use(_backend.COMPILED):
        assert model.viterbi() is model.reference_viterbi
        assert [token.value for token in model.tokenize("aa")] == ["a", "a"]


def test_the_compiled_viterbi_is_rebuilt_when_matching_changes() -> None:
    """`without_matching` and `sum_in_float32` drop the compiled Viterbi built before them."""
    model = Unigram([("<unk>", 0.0), ("ab", -1.0), ("a", -1.0), ("b", -1.0)], 0)
    with _backend.use(_backend.COMPILED):
        assert [token.value for token in model.tokenize("ab")] == ["ab"]
        model.without_matching(frozenset({1}))
        assert [token.value for token in model.tokenize("ab")] == ["a", "b"]


def python_columns(model: Unigram, word: str) -> object:
    """The reference's tokens of `word` as a tokenizer's columns (char spans), or the error it raises."""
    with _backend.use(_backend.PYTHON):
        try:
            tokens = model._tokens(word, model.reference_viterbi.best_path(word))
        except TokenizationError as error:
            return repr(error)
    return [t.id for t in tokens], [t.value for t in tokens], char_spans(word, [t.offsets for t in tokens])


@settings(max_examples=300, deadline=None)
@given(model=models(), words=WORDS)
def test_columns_equal_the_reference(model: Unigram, words: list[str]) -> None:
    """Random models and words (unknown spans among them): the compiled Viterbi's columns are
    its twin's, which are the reference tokens' ids, strings and char spans (and `ids` their
    ids); the compiled ones are None only where the twin raises, and both are None only where
    an unknown span is spelled in bytes."""
    with _backend.use(_backend.COMPILED):
        compiled = model.viterbi()
    twin = model.reference_viterbi
    for word in words:
        expected = python_columns(model, word)
        found = compiled.columns(word, model.byte_fallback)
        assert compiled.ids(word, model.byte_fallback) == (None if found is None else found[0]), word
        if isinstance(expected, str):  # the reference raises: the twin too, the compiled one declines
            assert found is None, word
            with pytest.raises(TokenizationError):
                twin.columns(word, model.byte_fallback)
            continue
        assert twin.columns(word, model.byte_fallback) == found, word
        assert twin.ids(word, model.byte_fallback) == (None if found is None else found[0]), word
        assert found == expected or (found is None and model.byte_fallback), word


@settings(max_examples=200, deadline=None)
@given(model=models(), words=WORDS)
def test_kernels_equal_the_reference_tokens(model: Unigram, words: list[str]) -> None:
    """Random models and words: the compiled kernel's columns and ids are the pure one's, which
    are the reference tokens' (byte-fallback tokens included); where the reference raises, both
    columns raise and the ids raise or are None (the Encoding path then raises)."""
    kernels = {}
    for backend in (_backend.COMPILED, _backend.PYTHON):
        with _backend.use(backend):
            kernels[backend] = model.kernel()
    for word in words:
        answers = []
        for kernel in kernels.values():
            try:
                answers.append(kernel.columns(word))
            except TokenizationError as error:
                answers.append(repr(error))
        assert answers[0] == answers[1] == python_columns(model, word), word
        for kernel in kernels.values():
            try:
                ids = kernel.ids(word)
            except TokenizationError:
                ids = None
            assert ids is None or ids == answers[0][0], word
