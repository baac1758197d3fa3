"""The Unigram trainer's words as segments whose candidate spans sit in flat arrays.

A segment is a distinct text (a word, or a part of one cut where no span crosses) with its
count. Its spans are kept as int32 (end, id) pairs in two flat arrays instead of per-position
lists of tuples, about a tenth of the memory: segment s covers positions bounds[s] to
bounds[s + 1], and position p's spans are firsts[p] to firsts[p + 1] of `ends` (relative to the
segment's start) and `ids`. Segments are added one word at a time, so no word's span lists
outlive it. The E step (`expected`) and the Viterbi counts (`best_counts`) rebuild one segment's
span lists at a time and run the lattice's fast paths on them; `_unigram_trainer.pyx` is their
compiled twin, the same arithmetic over the arrays in the same order, with identical results.
"""

from __future__ import annotations

import sys
from array import array
from itertools import islice
from typing import Any, MutableSequence, Sequence

from .. import _backend
from ..models.lattice import Starts, span_marginals, span_viterbi

_backend.load("unigram_trainer")  # the compiled twin, when it was built

OFFSETS = "q"  # positions and span offsets (may pass 2**31 on a large chunk)
SPANS = "i"  # span ends (within a segment) and seed ids


def expected(bounds: Sequence[int], firsts: Sequence[int], ends: Sequence[int], ids: Sequence[int],
             weights: list[int], probs: Sequence[float], found: MutableSequence[float], window: int) -> None:
    """Add each segment's span_marginals (weighed by its count) into `found`, segment by segment."""
    sums, by_id = list(found), list(probs)  # lists: Python reads them faster than arrays
    for segment, weight in enumerate(weights):
        span_marginals(segment_starts(bounds, firsts, ends, ids, segment), by_id, weight, sums, window)
    found[:] = array("d", sums)


def best_counts(bounds: Sequence[int], firsts: Sequence[int], ends: Sequence[int], ids: Sequence[int],
                weights: list[int], scores: Sequence[float], found: MutableSequence[float]) -> None:
    """Add each segment's count to `found` at every piece of its best segmentation, segment by segment."""
    sums, by_id = list(found), list(scores)  # lists: Python reads them faster than arrays
    for segment, weight in enumerate(weights):
        for _, _, piece in span_viterbi(segment_starts(bounds, firsts, ends, ids, segment), by_id):
            sums[piece] += weight
    found[:] = array("d", sums)


def segment_starts(bounds: Sequence[int], firsts: Sequence[int], ends: Sequence[int], ids: Sequence[int],
                   segment: int, new_ids: list[int] | None = None) -> Starts:
    """The spans of one segment of the flat arrays, grouped by start (with `new_ids`: their
    pieces renumbered, those at -1 left out)."""
    low, high = bounds[segment], bounds[segment + 1]
    base, top = firsts[low], firsts[high]
    pairs = list(zip(ends[base:top], ids[base:top]))
    offsets = firsts[low : high + 1]
    if new_ids is None:
        return [pairs[first - base : last - base] for first, last in zip(offsets, offsets[1:])]
    return [[(stop, new_ids[piece]) for stop, piece in pairs[first - base : last - base] if new_ids[piece] >= 0]
            for first, last in zip(offsets, offsets[1:])]


def segment_bounds(starts: Starts, ids: list[int] | None = None) -> list[tuple[int, int]]:
    """(begin, end) of the parts a text falls into when cut wherever no span crosses
    (with `ids`, only the spans whose ids[piece] >= 0 count)."""
    bounds = []
    begin = reach = 0
    for position, group in enumerate(starts):
        if reach <= position and position > begin:
            bounds.append((begin, position))
            begin = position
        if ids is None:
            longest = max(group)[0] if group else 0
            if longest > reach:
                reach = longest
            continue
        for end, piece in group:
            if end > reach and ids[piece] >= 0:
                reach = end
    bounds.append((begin, len(starts)))
    return bounds


class Segments:
    """Distinct segment texts, their counts and spans in flat arrays; one-char segments are
    only counted, per seed id, in `singles` (the char is the only way to spell them)."""

    def __init__(self, singles: dict[int, int] | None = None):
        self.texts: list[str] = []
        self.weights: list[int] = []
        self.bounds = array(OFFSETS, [0])
        self.firsts = array(OFFSETS, [0])
        self.ends = array(SPANS)
        self.ids = array(SPANS)
        self.singles: dict[int, int] = {} if singles is None else singles
        self._index: dict[str, int] = {}  # text -> segment, while words are being added

    def __len__(self) -> int:
        """The number of segments."""
        return len(self.texts)

    def add_word(self, text: str, weight: int, starts: Starts) -> None:
        """Cut `text` (its spans `starts`) where no span crosses; a part met before only adds its count."""
        for begin, end in segment_bounds(starts):
            if end - begin == 1:
                piece = starts[begin][0][1]
                self.singles[piece] = self.singles.get(piece, 0) + weight
                continue
            part = text if end - begin == len(text) else text[begin:end]
            index = self._index.get(part)
            if index is not None:
                self.weights[index] += weight
                continue
            self._index[part] = len(self.texts)
            self.texts.append(part)
            self.weights.append(weight)
            self._append_spans(starts, begin, end)

    def add_spans(self, starts: Starts) -> int:
        """Keep `starts` as one more segment, uncut and without text or count; returns its number
        (for `starts`)."""
        self._append_spans(starts, 0, len(starts))
        return len(self.bounds) - 2

    def done(self) -> "Segments":
        """Forget the text index that adding words needs; returns self."""
        self._index = {}
        return self

    def _append_spans(self, starts: Starts, begin: int, end: int) -> None:
        """Append the spans of positions begin to end, their ends shifted to the part's start."""
        ends, ids, firsts = self.ends, self.ids, self.firsts
        for group in islice(starts, begin, end):
            for stop, piece in group:
                ends.append(stop - begin)
                ids.append(piece)
            firsts.append(len(ends))
        self.bounds.append(len(firsts) - 1)

    def starts(self, segment: int, ids: list[int] | None = None) -> Starts:
        """The segment's spans grouped by start (with `ids`: renumbered, those at -1 left out)."""
        return segment_starts(self.bounds, self.firsts, self.ends, self.ids, segment, ids)

    def renumbered(self, ids: list[int]) -> "Segments":
        """The segments with their pieces renumbered (ids[old id], -1 drops the span) and cut anew."""
        result = Segments({ids[piece]: count for piece, count in self.singles.items()})  # chars are never dropped
        for segment, (text, weight) in enumerate(zip(self.texts, self.weights)):
            result.add_word(text, weight, self.starts(segment, ids))
        return result.done()

    def reweighed(self, weights: list[int]) -> "Segments":
        """The segments with these counts, without those at 0 (another chunk counts them)."""
        result = Segments(self.singles)
        bounds, firsts = self.bounds, self.firsts
        for segment, weight in enumerate(weights):
            if not weight:
                continue
            result.texts.append(self.texts[segment])
            result.weights.append(weight)
            low, high = bounds[segment], bounds[segment + 1]
            base, top = firsts[low], firsts[high]
            shift = len(result.ends) - base
            result.ends.extend(self.ends[base:top])
            result.ids.extend(self.ids[base:top])
            result.firsts.extend([first + shift for first in firsts[low + 1 : high + 1]])
            result.bounds.append(len(result.firsts) - 1)
        return result

    def expected(self, probs: list[float], window: int) -> list[float]:
        """Expected count of each seed id over every segmentation of the segments."""
        found = array("d", [0.0] * len(probs))
        for piece, count in self.singles.items():
            if probs[piece] > 0.0:
                found[piece] += count  # the only way to spell its segment
        _loops().expected(self.bounds, self.firsts, self.ends, self.ids, self.weights, array("d", probs), found,
                          window)
        return found.tolist()

    def best_counts(self, scores: list[float]) -> list[float]:
        """How often each seed id is in the best segmentations of the segments."""
        found = array("d", [0.0] * len(scores))
        for piece, count in self.singles.items():
            if scores[piece] > float("-inf"):
                found[piece] += count
        _loops().best_counts(self.bounds, self.firsts, self.ends, self.ids, self.weights, array("d", scores), found)
        return found.tolist()


def _loops() -> Any:
    """The module that runs `expected` and `best_counts`: the compiled one when built, else this one."""
    return _backend.unigram_trainer or sys.modules[__name__]
