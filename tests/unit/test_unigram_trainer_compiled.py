"""The Unigram trainer's segments (hfcompat/trainers/unigram_segments.py) and their compiled E step
and Viterbi counts (_unigram_trainer.pyx) against the lattice's reference loops on whole words."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hfcompat import _backend
from hfcompat.models.lattice import span_marginals, span_viterbi
from hfcompat.models.unigram import Unigram
from hfcompat.trainers.unigram_segments import Segments

VOCAB = [("<unk>", -20.0), ("a", -1.5), ("b", -2.0), ("ab", -2.2), ("ba", -3.1), ("aba", -2.9), ("c", -4.0),
         ("bab", -3.3), ("abab", -2.5)]
WORDS = st.lists(st.tuples(st.text(alphabet="abcd", min_size=1, max_size=60), st.integers(1, 9)), min_size=1,
                 max_size=8)


def segments_of(words: list[tuple[str, int]], model: Unigram) -> Segments:
    """The words added one by one."""
    segments = Segments()
    for word, count in words:
        segments.add_word(word, count, model.starts(word))
    return segments.done()


def backends() -> list[str]:
    """The backends this installation has."""
    return _backend.available()


@pytest.mark.parametrize("backend", backends())
@given(words=WORDS, scale=st.sampled_from([1.0, 1e-30, 1e-90]))
def test_segments_expect_and_count_what_whole_words_do(backend: str, words: list[tuple[str, int]],
                                                       scale: float) -> None:
    """Expected counts equal the words' forward-backward sums up to rounding (equal segments are
    summed once), and best counts equal exactly; tiny probabilities make long words rescale."""
    model = Unigram(VOCAB, unk_id=0)
    probs = [math.exp(score) * scale for _, score in VOCAB]
    scores = [math.log(prob) for prob in probs]
    reference, best = [0.0] * len(VOCAB), [0.0] * len(VOCAB)
    for word, count in words:
        span_marginals(model.starts(word), probs, count, reference)
        for _, _, piece in span_viterbi(model.starts(word), scores):
            best[piece] += count
    with _backend.use(backend):
        segments = segments_of(words, model)
        assert segments.expected(probs, 16) == pytest.approx(reference, rel=1e-9)
        assert segments.best_counts(scores) == best


@given(words=WORDS, dropped=st.sets(st.sampled_from([3, 4, 5, 7, 8])), scale=st.sampled_from([1.0, 1e-90]))
def test_both_backends_give_identical_sums(words: list[tuple[str, int]], dropped: set[int], scale: float) -> None:
    """The compiled loops give bit for bit the pure-Python sums, also after renumbering and reweighing."""
    if _backend.COMPILED not in _backend.available():
        pytest.skip("the compiled core is not built")
    model = Unigram(VOCAB, unk_id=0)
    segments = segments_of(words, model)
    new_ids = [-1 if index in dropped else index - sum(1 for gone in dropped if gone < index)
               for index in range(len(VOCAB))]
    segments = segments.renumbered(new_ids)
    segments = segments.reweighed([weight * (index % 3) for index, weight in enumerate(segments.weights)])
    probs = [math.exp(score) * scale for index, (_, score) in enumerate(VOCAB) if index not in dropped]
    scores = [math.log(prob) for prob in probs]
    found = {}
    for backend in backends():
        with _backend.use(backend):
            found[backend] = (segments.expected(probs, 16), segments.best_counts(scores))
    assert found[_backend.COMPILED] == found[_backend.PYTHON]


@given(text=st.text(alphabet="abcd\udfff▁", max_size=30), unk=st.sampled_from([0, None]))
def test_compiled_starts_are_the_python_ones(text: str, unk: int | None) -> None:
    """Unigram.starts from the compiled Viterbi's trie equals the Python trie's, unk included."""
    if _backend.COMPILED not in _backend.available():
        pytest.skip("the compiled core is not built")
    vocab = VOCAB + [("\udfff", -9.0), ("▁a", -3.0), ("d▁", -5.0)]
    found = {}
    for backend in backends():
        with _backend.use(backend):
            found[backend] = Unigram(vocab, unk_id=unk).starts(text)
    assert found[_backend.COMPILED] == found[_backend.PYTHON]
