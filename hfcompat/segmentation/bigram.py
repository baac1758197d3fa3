"""Path scoring with a word bigram model: the best path over the word graph by P(word | previous word)."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable

from ..errors import FormatError
from .dag import build_dag
from .dictionary import Dictionary

START = "<s>"


@dataclass
class BigramModel:
    """Word and word-pair counts from segmented text, interpolated with add-one unigrams."""

    unigrams: Counter[str] = field(default_factory=Counter)
    bigrams: Counter[tuple[str, str]] = field(default_factory=Counter)
    weight: float = 0.8  # share of the bigram estimate in the interpolation
    total: int = 0  # number of word tokens counted, sentence starts included

    @classmethod
    def train(cls, lines: Iterable[str], weight: float = 0.8) -> "BigramModel":
        """Count the words and adjacent word pairs of whitespace-segmented lines."""
        model = cls(weight=weight)
        for line in lines:
            words = line.split()
            if not words:
                continue
            model.unigrams[START] += 1
            model.unigrams.update(words)
            model.bigrams.update(zip([START] + words, words))
            model.total += len(words) + 1
        return model

    def to_dict(self) -> dict[str, Any]:
        """The counts as JSON-ready data: word pairs as [previous, word, count] triples."""
        return {"weight": self.weight, "total": self.total, "unigrams": dict(self.unigrams),
                "bigrams": [[previous, word, count] for (previous, word), count in self.bigrams.items()]}

    @classmethod
    def from_dict(cls, data: Any) -> "BigramModel":
        """The model of `to_dict`'s form; a malformed part is a FormatError naming it."""
        if not isinstance(data, dict):
            raise FormatError("expected an object with weight, total, unigrams and bigrams")
        weight, total, unigrams, bigrams = (data.get(k) for k in ("weight", "total", "unigrams", "bigrams"))
        if not isinstance(weight, (int, float)) or isinstance(weight, bool) or not 0 <= weight <= 1:
            raise FormatError(f"expected a number from 0 to 1, got {weight!r}", field="weight")
        if not _is_count(total):
            raise FormatError(f"expected a count, got {total!r}", field="total")
        if not isinstance(unigrams, dict) or not all(_is_count(c) for c in unigrams.values()):
            raise FormatError("expected an object of word counts", field="unigrams")
        if not isinstance(bigrams, list) or not all(
                isinstance(t, list) and len(t) == 3 and isinstance(t[0], str) and isinstance(t[1], str)
                and _is_count(t[2]) for t in bigrams):
            raise FormatError("expected a list of [previous, word, count]", field="bigrams")
        return cls(Counter(unigrams), Counter({(p, w): c for p, w, c in bigrams}), float(weight), total)

    def dictionary(self) -> Dictionary:
        """The trained words as a dictionary (frequency = count), for the word graph."""
        return Dictionary.from_words((w, c) for w, c in self.unigrams.items() if w != START)

    def log_prob(self, previous: str, word: str) -> float:
        """log P(word | previous): bigram relative frequency interpolated with the smoothed unigram."""
        unigram = (self.unigrams.get(word, 0) + 1) / (self.total + len(self.unigrams) + 1)
        seen = self.unigrams.get(previous, 0)
        bigram = self.bigrams.get((previous, word), 0) / seen if seen else 0.0
        return math.log(self.weight * bigram + (1 - self.weight) * unigram)


def _is_count(value: Any) -> bool:
    """A non-negative integer (not a boolean)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def bigram_cut(text: str, dictionary: Dictionary, model: BigramModel, previous: str = START) -> list[str]:
    """The path through the word graph of `text` with the highest bigram log-probability (Viterbi)."""
    dag = build_dag(text, dictionary)
    n = len(text)
    # best[i]: last word of a path covering text[:i] -> (score, start of that word, its previous word)
    best: list[dict[str, tuple[float, int, str]]] = [dict() for _ in range(n + 1)]
    best[0][previous] = (0.0, -1, "")
    for start in range(n):
        for last, (score, _, _) in best[start].items():
            for end in dag[start]:
                word = text[start:end + 1]
                candidate = score + model.log_prob(last, word)
                known = best[end + 1].get(word)
                if known is None or candidate > known[0]:
                    best[end + 1][word] = (candidate, start, last)
    words = []
    position = n
    word = max(best[n].items(), key=lambda item: item[1][0])[0] if n else ""
    while position > 0:
        _, start, last = best[position][word]
        words.append(word)
        position, word = start, last
    words.reverse()
    return words
