"""WordLevelTrainer on hand-made word counts (tests/conformance/test_training.py compares with tokenizers)."""

from __future__ import annotations

from hfcompat.trainers import WordLevelTrainer


def test_wordlevel_orders_by_count_then_text() -> None:
    """Specials, then words by descending count, ties in code point order; vocab_size caps it."""
    model = WordLevelTrainer(4, special_tokens=["<unk>"], show_progress=False).train({"b": 2, "a": 2, "c": 5, "d": 1})
    assert model.vocab == {"<unk>": 0, "c": 1, "a": 2, "b": 3}
