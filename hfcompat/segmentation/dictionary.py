"""The word dictionary of segmentation: frequencies in a prefix table, loaded from jieba or word lists."""

from __future__ import annotations

import importlib.util
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ..errors import FormatError
from ..files import atomic_write_text


@dataclass
class Dictionary:
    """Words with their frequencies, plus every proper prefix of a word (frequency 0).

    The prefix entries make the table a prefix structure: a scan that extends a
    fragment one character at a time stops as soon as the fragment is no key.
    `total` is the sum of the frequencies of the entries read (duplicates count
    each time, as jieba counts them), the denominator of unigram probabilities.
    """

    freq: dict[str, int] = field(default_factory=dict)
    total: int = 0
    force_split: set[str] = field(default_factory=set)
    max_length: int = 0
    _log_probs: dict[str, float | None] | None = field(default=None, repr=False, compare=False)

    @classmethod
    def from_words(cls, words: Iterable[str | tuple[str, int]], default_freq: int = 1) -> "Dictionary":
        """A dictionary from words or (word, frequency) pairs, in order."""
        dictionary = cls()
        dictionary._insert_all((entry, default_freq) if isinstance(entry, str) else entry for entry in words)
        return dictionary

    @classmethod
    def load(cls, path: str | Path, default_freq: int = 1) -> "Dictionary":
        """Read jieba's format (`word freq [tag]` a line) or a list of words, one a line."""
        path = Path(path)
        dictionary = cls()
        with open(path, encoding="utf-8-sig") as handle:
            entries = (_parse_line(line, default_freq, path, lineno) for lineno, line in enumerate(handle, 1))
            dictionary._insert_all(entry for entry in entries if entry is not None)
        return dictionary

    @classmethod
    def from_jieba(cls) -> "Dictionary":
        """The dictionary shipped inside an installed `jieba` package (read, jieba is not run)."""
        return cls.load(jieba_file("dict.txt"))

    def save(self, path: str | Path) -> None:
        """Write the words in jieba's format (`word freq` a line), atomically; Dictionary.load reads it back.

        Deleted words (frequency 0) are not written: the file keeps what cuts, not the history.
        """
        atomic_write_text(Path(path), self.to_text())

    def to_text(self) -> str:
        """The words in jieba's format (`word freq` a line), the text `save` writes."""
        return "".join(f"{word} {freq}\n" for word, freq in self.freq.items() if freq)

    def _insert_all(self, entries: Iterable[tuple[str, int]]) -> None:
        """Set each word's frequency, count it in the total and register its prefixes."""
        table = self.freq
        register_prefix = table.setdefault
        total, longest = self.total, self.max_length
        for word, freq in entries:
            table[word] = freq
            total += freq
            size = len(word)
            for end in range(1, size):
                register_prefix(word[:end], 0)
            if size > longest:
                longest = size
        self.total, self.max_length = total, longest
        self._log_probs = None

    def add_word(self, word: str, freq: int) -> None:
        """Add a user word with its frequency (Segmenter.add_word suggests one, as jieba does).

        Frequency 0 deletes the word: the HMM then splits it into characters, as jieba's del_word.
        """
        if not word:
            raise ValueError("cannot add an empty word")
        self._insert_all([(word, int(freq))])
        if freq == 0:
            self.force_split.add(word)
        else:
            self.force_split.discard(word)

    def __contains__(self, word: object) -> bool:
        """Whether `word` is a word (frequency above 0), not only a prefix."""
        return bool(self.freq.get(word))  # type: ignore[call-overload]

    def __len__(self) -> int:
        """The number of words (prefix-only entries excluded)."""
        return sum(1 for f in self.freq.values() if f)

    def log_probs(self) -> dict[str, float | None]:
        """The prefix table with log(freq) - log(total) for words and None for bare prefixes.

        The DAG's edge weights, computed once; one lookup tells both whether a fragment
        can still grow into a word and what it weighs if it is one.
        """
        if self._log_probs is None:
            log_total = math.log(self.total) if self.total > 0 else 0.0
            self._log_probs = {w: math.log(f) - log_total if f else None for w, f in self.freq.items()}
        return self._log_probs

    def log_prob(self, word: str) -> float:
        """The edge weight of one word, or of an uncovered character when `word` is no word."""
        weight = self.log_probs().get(word)
        return self.log_unknown() if weight is None else weight

    def log_unknown(self) -> float:
        """The edge weight of a character no word covers: log(1) - log(total)."""
        return math.log(1) - (math.log(self.total) if self.total > 0 else 0.0)


def _parse_line(line: str, default_freq: int, path: Path, lineno: int) -> tuple[str, int] | None:
    """One dictionary line as (word, frequency), None for a blank line."""
    text = line.strip()
    if not text:
        return None
    fields = text.split(" ")
    if len(fields) == 1:
        return text, default_freq
    try:
        freq = int(fields[1])
    except ValueError:
        raise FormatError(f"line {lineno}: frequency {fields[1]!r} is not an integer",
                          path=str(path), field="freq") from None
    return fields[0], freq


def jieba_file(relative: str) -> Path:
    """A data file inside the installed jieba package, found without importing jieba."""
    spec = importlib.util.find_spec("jieba")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("jieba is not installed: pip install jieba==0.42.1")
    return Path(next(iter(spec.submodule_search_locations))) / relative
