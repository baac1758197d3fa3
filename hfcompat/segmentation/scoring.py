"""The SIGHAN bakeoff measures: word precision, recall, F1, OOV rate, OOV and IV recall.

As the bakeoff's score script does, each line's gold and predicted words are aligned
by a longest common subsequence of the word strings (what `diff` computes); a word
counts as correct when it is part of the alignment. OOV means: not in the training
word list given as `dictionary`. The alignment here is a true longest one (`diff --minimal`);
plain `diff`, which the script calls, now and then settles for a slightly shorter one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

IDEOGRAPHIC_SPACE = "\u3000"


@dataclass
class Score:
    """Counts and rates of one scoring run (rates are fractions, not percentages)."""

    gold_words: int
    predicted_words: int
    correct_gold: int  # gold words inside the alignment
    correct_predicted: int  # predicted words inside the alignment
    oov_words: int
    oov_correct: int
    iv_correct: int
    insertions: int
    deletions: int
    substitutions: int

    @property
    def recall(self) -> float:
        """Share of the gold words found."""
        return self.correct_gold / self.gold_words if self.gold_words else 0.0

    @property
    def precision(self) -> float:
        """Share of the predicted words that are right."""
        return self.correct_predicted / self.predicted_words if self.predicted_words else 0.0

    @property
    def f1(self) -> float:
        """Harmonic mean of precision and recall."""
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def oov_rate(self) -> float:
        """Share of the gold words that the dictionary lacks."""
        return self.oov_words / self.gold_words if self.gold_words else 0.0

    @property
    def oov_recall(self) -> float:
        """Share of the out-of-vocabulary gold words found (nan when there are none)."""
        return self.oov_correct / self.oov_words if self.oov_words else float("nan")

    @property
    def iv_recall(self) -> float:
        """Share of the in-vocabulary gold words found (nan when there are none)."""
        iv_words = self.gold_words - self.oov_words
        return self.iv_correct / iv_words if iv_words else float("nan")

    def summary(self) -> str:
        """The bakeoff's summary lines, three decimals."""
        rows = [("TOTAL INSERTIONS", self.insertions), ("TOTAL DELETIONS", self.deletions),
                ("TOTAL SUBSTITUTIONS", self.substitutions),
                ("TOTAL NCHANGE", self.insertions + self.deletions + self.substitutions),
                ("TOTAL TRUE WORD COUNT", self.gold_words), ("TOTAL TEST WORD COUNT", self.predicted_words),
                ("TOTAL TRUE WORDS RECALL", f"{self.recall:.3f}"),
                ("TOTAL TEST WORDS PRECISION", f"{self.precision:.3f}"), ("F MEASURE", f"{self.f1:.3f}"),
                ("OOV Rate", f"{self.oov_rate:.3f}"), ("OOV Recall Rate", f"{self.oov_recall:.3f}"),
                ("IV Recall Rate", f"{self.iv_recall:.3f}")]
        return "\n".join(f"=== {name}:\t{value}" for name, value in rows)


def words_of(line: str) -> list[str]:
    """A segmented line's words: split on whitespace, the ideographic space included."""
    return line.replace(IDEOGRAPHIC_SPACE, " ").split()


def score(gold_lines: Iterable[str], predicted_lines: Iterable[str],
          dictionary: Iterable[str] = ()) -> Score:
    """Score predicted segmentations against gold ones, line by line (lines pair up in order).

    Lines whose gold side is empty are skipped, as in the bakeoff. `dictionary` is the
    training word list that decides which gold words are out of vocabulary.
    """
    known = set(dictionary)
    totals = dict.fromkeys(("gold", "pred", "gold_ok", "pred_ok", "oov", "oov_ok", "iv_ok", "ins", "del", "sub"), 0)
    for gold_line, predicted_line in zip(gold_lines, predicted_lines):
        gold, predicted = words_of(gold_line), words_of(predicted_line)
        if not gold:
            continue
        gold_matched, predicted_matched = align(gold, predicted)
        totals["gold"] += len(gold)
        totals["pred"] += len(predicted)
        totals["gold_ok"] += sum(gold_matched)
        totals["pred_ok"] += sum(predicted_matched)
        for word, matched in zip(gold, gold_matched):
            if word in known:
                totals["iv_ok"] += matched
            else:
                totals["oov"] += 1
                totals["oov_ok"] += matched
        missed, extra = len(gold) - sum(gold_matched), len(predicted) - sum(predicted_matched)
        substituted = _substitutions(gold_matched, predicted_matched)
        totals["sub"] += substituted
        totals["del"] += missed - substituted
        totals["ins"] += extra - substituted
    return Score(totals["gold"], totals["pred"], totals["gold_ok"], totals["pred_ok"], totals["oov"],
                 totals["oov_ok"], totals["iv_ok"], totals["ins"], totals["del"], totals["sub"])


def align(gold: list[str], predicted: list[str]) -> tuple[list[bool], list[bool]]:
    """Which words of each side belong to a longest common subsequence of the two word lists."""
    n, m = len(gold), len(predicted)
    head = 0
    while head < min(n, m) and gold[head] == predicted[head]:
        head += 1
    tail = 0
    while tail < min(n, m) - head and gold[n - 1 - tail] == predicted[m - 1 - tail]:
        tail += 1
    gold_matched = [True] * head + [False] * (n - head - tail) + [True] * tail
    predicted_matched = [True] * head + [False] * (m - head - tail) + [True] * tail
    middle_gold, middle_predicted = gold[head:n - tail], predicted[head:m - tail]
    for i, j in _lcs_pairs(middle_gold, middle_predicted):
        gold_matched[head + i] = True
        predicted_matched[head + j] = True
    return gold_matched, predicted_matched


def _lcs_pairs(a: list[str], b: list[str]) -> list[tuple[int, int]]:
    """Index pairs of one longest common subsequence of a and b (dynamic programming)."""
    if not a or not b:
        return []
    rows, cols = len(a), len(b)
    length = [[0] * (cols + 1) for _ in range(rows + 1)]
    for i in range(rows - 1, -1, -1):
        row, below = length[i], length[i + 1]
        for j in range(cols - 1, -1, -1):
            row[j] = below[j + 1] + 1 if a[i] == b[j] else max(below[j], row[j + 1])
    pairs = []
    i = j = 0
    while i < rows and j < cols:
        if a[i] == b[j]:
            pairs.append((i, j))
            i += 1
            j += 1
        elif length[i + 1][j] >= length[i][j + 1]:
            i += 1
        else:
            j += 1
    return pairs


def _substitutions(gold_matched: list[bool], predicted_matched: list[bool]) -> int:
    """How many unmatched words pair up side by side between two alignment anchors (diff's `|`)."""
    substituted = 0
    gold_gap = predicted_gap = 0
    g = p = 0
    while g < len(gold_matched) or p < len(predicted_matched):
        if g < len(gold_matched) and not gold_matched[g]:
            gold_gap += 1
            g += 1
        elif p < len(predicted_matched) and not predicted_matched[p]:
            predicted_gap += 1
            p += 1
        else:
            substituted += min(gold_gap, predicted_gap)
            gold_gap = predicted_gap = 0
            g += 1
            p += 1
    return substituted + min(gold_gap, predicted_gap)
