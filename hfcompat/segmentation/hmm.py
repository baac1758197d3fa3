"""The B/M/E/S hidden Markov model for words the dictionary lacks: Viterbi decoding and training."""

from __future__ import annotations

import ast
import functools
import math
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable

import regex

from ..errors import FormatError
from .dictionary import jieba_file

STATES = "BMES"  # Begin, Middle, End of a word, Single-character word
MIN_LOG = -3.14e100  # the log-probability of an impossible event (jieba's constant)
PREVIOUS = {"B": "ES", "M": "MB", "S": "SE", "E": "BM"}  # the states that may precede each state

_HAN_RUN = regex.compile("([\u4E00-\u9FD5]+)")
_ALNUM_RUN = regex.compile(r"([a-zA-Z0-9]+(?:\.\d+)?%?)")


@dataclass
class HMM:
    """Log-probabilities: start[state], trans[from][to], emit[state][char]; missing = impossible."""

    start: dict[str, float]
    trans: dict[str, dict[str, float]]
    emit: dict[str, dict[str, float]]

    @classmethod
    def from_jieba(cls) -> "HMM":
        """The model shipped with jieba (finalseg/prob_*.py), read as literals without running jieba."""
        return _jieba_model()

    @classmethod
    def train(cls, lines: Iterable[str]) -> "HMM":
        """Estimate the model from segmented text (words separated by whitespace), by counting."""
        starts: Counter[str] = Counter()
        transitions: dict[str, Counter[str]] = {s: Counter() for s in STATES}
        emissions: dict[str, Counter[str]] = {s: Counter() for s in STATES}
        for line in lines:
            tags = [(char, tag) for word in line.split() for char, tag in zip(word, word_tags(word))]
            if not tags:
                continue
            starts[tags[0][1]] += 1
            for (_, before), (_, after) in zip(tags, tags[1:]):
                transitions[before][after] += 1
            for char, tag in tags:
                emissions[tag][char] += 1
        return cls(start=_log_normalize(starts), trans={s: _log_normalize(c) for s, c in transitions.items()},
                   emit={s: _log_normalize(c) for s, c in emissions.items()})

    def to_dict(self) -> dict[str, dict]:
        """{"start": ..., "trans": ..., "emit": ...}: the log-probabilities as JSON-ready tables."""
        return {"start": self.start, "trans": self.trans, "emit": self.emit}

    @classmethod
    def from_dict(cls, data: Any) -> "HMM":
        """The model of `to_dict`'s form; a malformed table is a FormatError naming it."""
        if not isinstance(data, dict):
            raise FormatError("expected an object with start, trans and emit")
        start = _log_table(data.get("start"), "start")
        trans = {state: _log_table(row, f"trans.{state}") for state, row in _table(data.get("trans"), "trans").items()}
        emit = {state: _log_table(row, f"emit.{state}") for state, row in _table(data.get("emit"), "emit").items()}
        return cls(start=start, trans=trans, emit=emit)

    def __post_init__(self) -> None:
        """Precompute, for each state, its possible predecessors with the transition weights."""
        self._incoming = {y: [(y0, self.trans.get(y0, {}).get(y, MIN_LOG)) for y0 in PREVIOUS[y]]
                          for y in STATES}

    def tag(self, chars: str) -> list[str]:
        """The most probable state sequence (Viterbi); ties go to the later state letter, as in jieba."""
        start, emit, incoming = self.start, self.emit, self._incoming
        scores = {y: start.get(y, MIN_LOG) + emit.get(y, {}).get(chars[0], MIN_LOG) for y in STATES}
        back: list[dict[str, str]] = []
        for char in chars[1:]:
            new_scores = {}
            pointers = {}
            for y in STATES:
                emitted = emit.get(y, {}).get(char, MIN_LOG)
                best, best_from = None, ""
                for y0, moved in incoming[y]:
                    candidate = scores[y0] + moved + emitted
                    if best is None or candidate > best or (candidate == best and y0 > best_from):
                        best, best_from = candidate, y0
                new_scores[y] = best
                pointers[y] = best_from
            scores = new_scores
            back.append(pointers)
        state = "S" if scores["S"] >= scores["E"] else "E"
        path = [state]
        for pointers in reversed(back):
            state = pointers[state]
            path.append(state)
        path.reverse()
        return path

    def cut_han(self, chars: str) -> list[str]:
        """Words of a run of Han characters from its tags; a dangling B/M run ends as one word."""
        words = []
        begin = following = 0
        for i, state in enumerate(self.tag(chars)):
            if state == "B":
                begin = i
            elif state == "E":
                words.append(chars[begin:i + 1])
                following = i + 1
            elif state == "S":
                words.append(chars[i])
                following = i + 1
        if following < len(chars):
            words.append(chars[following:])
        return words

    def cut(self, text: str, force_split: frozenset[str] | set[str] = frozenset()) -> list[str]:
        """Segment text: Han runs by the model, other text into alphanumeric/number runs and the rest.

        A found word listed in `force_split` (a deleted word) comes out as single characters.
        """
        words = []
        for block in _HAN_RUN.split(text):
            if not block:
                continue
            if _HAN_RUN.fullmatch(block):
                for word in self.cut_han(block):
                    if word in force_split:
                        words.extend(word)
                    else:
                        words.append(word)
            else:
                words.extend(piece for piece in _ALNUM_RUN.split(block) if piece)
        return words


def word_tags(word: str) -> str:
    """The B/M/E/S tags of one word's characters."""
    if len(word) == 1:
        return "S"
    return "B" + "M" * (len(word) - 2) + "E"


def _table(value: Any, name: str) -> dict:
    """A JSON object keyed by strings, else a FormatError naming the table."""
    if not isinstance(value, dict) or not all(isinstance(key, str) for key in value):
        raise FormatError("expected an object keyed by states or characters", field=name)
    return value


def _log_table(value: Any, name: str) -> dict[str, float]:
    """A table of log-probabilities (numbers), else a FormatError naming the table."""
    table = _table(value, name)
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in table.values()):
        raise FormatError("expected numbers (log-probabilities)", field=name)
    return {key: float(v) for key, v in table.items()}


def _log_normalize(counts: Counter[str]) -> dict[str, float]:
    """Counts as log-probabilities (an empty counter gives an empty table)."""
    total = sum(counts.values())
    return {key: math.log(count / total) for key, count in counts.items() if count}


@functools.lru_cache(maxsize=1)
def _jieba_model() -> HMM:
    """Read jieba's three parameter files once."""
    start, trans, emit = (_literal_assignment(jieba_file(f"finalseg/prob_{name}.py")) for name in ("start", "trans", "emit"))
    return HMM(start=start, trans=trans, emit=emit)


def _literal_assignment(path) -> dict:
    """The dict literal assigned to P in one of jieba's parameter modules."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "P" for t in node.targets):
            return ast.literal_eval(node.value)
    raise ValueError(f"{path}: no P = {{...}} assignment")
