"""SIGHAN measures on hand-checked cases."""

from __future__ import annotations

import math

from hfcompat.segmentation import score
from hfcompat.segmentation.scoring import align, words_of


def test_perfect_segmentation() -> None:
    """Identical lines: every rate is 1, no edits."""
    result = score(["我们 相信 AI"], ["我们 相信 AI"], ["我们", "相信"])
    assert (result.precision, result.recall, result.f1) == (1.0, 1.0, 1.0)
    assert result.oov_words == 1 and result.oov_recall == 1.0 and result.iv_recall == 1.0
    assert result.insertions == result.deletions == result.substitutions == 0


def test_counts_of_a_wrong_line() -> None:
    """Gold 我们|相信|世界 vs 我|们|相信|世界: 2 of 3 gold right, 2 of 4 predicted right."""
    result = score(["我们 相信 世界"], ["我 们 相信 世界"], ["我们", "相信", "世界"])
    assert result.recall == 2 / 3 and result.precision == 2 / 4
    assert math.isclose(result.f1, 2 * (2 / 4) * (2 / 3) / (2 / 4 + 2 / 3))
    assert (result.substitutions, result.insertions, result.deletions) == (1, 1, 0)
    assert result.iv_recall == 2 / 3 and math.isnan(result.oov_recall)


def test_alignment_is_by_word_strings_like_diff() -> None:
    """The bakeoff aligns words by value: a repeated word may match across positions."""
    assert align(["ab", "a", "b"], ["a", "b", "ab"]) == ([False, True, True], [True, True, False])


def test_empty_gold_lines_are_skipped_and_ideographic_space_separates() -> None:
    """Blank gold lines do not count; U+3000 is a separator like a space."""
    result = score(["", "我们\u3000相信"], ["x", "我们 相信"])
    assert result.gold_words == 2 and result.predicted_words == 2 and result.f1 == 1.0
    assert words_of("a\u3000b  c\r") == ["a", "b", "c"]


def test_summary_has_the_bakeoff_lines() -> None:
    """The summary prints the bakeoff's names with three decimals."""
    text = score(["我们 相信"], ["我们 相 信"], ["我们"]).summary()
    assert "=== F MEASURE:\t0.400" in text and "=== OOV Rate:\t0.500" in text
