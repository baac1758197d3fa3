"""WordPieceTrainer on hand-made word counts, and its score mode against a naive loop."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_trainers_bpe import WORD_COUNTS, naive_merge

from hfcompat.trainers import WordPieceTrainer


def test_wordpiece_score_prefers_rare_parts() -> None:
    """freq(ab)/(freq(a)freq(b)): a pair of rare parts beats a frequent pair of common parts."""
    counts = {"ab": 10, "ac": 10, "xy": 1}
    model = WordPieceTrainer(6, show_progress=False).train(counts)
    assert "xy" in model.vocab and "ab" not in model.vocab


def test_wordpiece_rejects_unknown_scoring() -> None:
    """Only the two documented scorings exist."""
    with pytest.raises(ValueError, match="scoring"):
        WordPieceTrainer(scoring="likelihood")


def naive_score_wordpiece(word_counts: dict[str, int], vocab_size: int) -> set[str]:
    """WordPiece as documented: recount, score freq(ab)/(freq(a)freq(b)), first pair on ties."""
    from fractions import Fraction

    splits = {word: [c if i == 0 else "##" + c for i, c in enumerate(word)] for word in word_counts}
    vocab = sorted({piece for split in splits.values() for piece in split})
    while len(vocab) < vocab_size:
        pair_counts: dict[tuple[str, str], int] = {}
        token_counts: dict[str, int] = {}
        for word, count in word_counts.items():
            split = splits[word]
            for token in split:
                token_counts[token] = token_counts.get(token, 0) + count
            for pair in zip(split, split[1:]):
                pair_counts[pair] = pair_counts.get(pair, 0) + count
        if not pair_counts:
            break
        scores = {p: Fraction(c, token_counts[p[0]] * token_counts[p[1]]) for p, c in pair_counts.items()}
        top = max(scores.values())
        best = next(pair for pair, score in scores.items() if score == top)
        new = best[0] + best[1][2:] if best[1].startswith("##") else best[0] + best[1]
        splits = {word: naive_merge(split, *best, new) for word, split in splits.items()}
        if new not in vocab:
            vocab.append(new)
    return set(vocab)


@given(word_counts=WORD_COUNTS, vocab_size=st.integers(1, 30))
def test_wordpiece_score_equals_the_naive_algorithm(word_counts: dict[str, int], vocab_size: int) -> None:
    """The score queue learns the vocabulary of the recount-everything algorithm."""
    vocab = WordPieceTrainer(vocab_size, show_progress=False).learn(word_counts)
    assert set(vocab) == naive_score_wordpiece(word_counts, vocab_size)
