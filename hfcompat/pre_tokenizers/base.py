"""PreTokenizer and SplitWise, the split behaviours, and the helpers the pre-tokenizers share."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from itertools import accumulate
from typing import Any, Callable, ClassVar

import regex

from ..pipeline.bytelevel import BYTE_CHARS, bytes_to_chars
from ..pipeline.fields import as_choice
from ..pipeline.normalized import BEHAVIORS, NormalizedString, PreTokenizedString, Span, unit_spans
from ..pipeline.oniguruma import onig_view

# The pieces of a text (a pre-tokenizer's fast form): their strings and start chars.
Pieces = tuple[list[str], list[int]]
# The split behaviours as tokenizer.json spells them.
BEHAVIOR_TO_JSON = {"removed": "Removed", "isolated": "Isolated",
                    "merged_with_previous": "MergedWithPrevious",
                    "merged_with_next": "MergedWithNext", "contiguous": "Contiguous"}
BEHAVIOR_FROM_JSON = {v: k for k, v in BEHAVIOR_TO_JSON.items()}


class PieceForm(Enum):
    """What one of a pre-tokenizer's pieces, pre-tokenized alone, gives the model."""

    TEXT = "text"  # one split: the piece itself
    BYTES = "bytes"  # one split: the piece's byte-level chars
    PREFIXED = "prefixed"  # one split: the route's mark, then the piece (when the piece holds no mark)
    SPLITS = "splits"  # whatever pre-tokenizing the piece alone gives


def whole_text(text: str) -> Pieces:
    """The pieces of a text nothing cuts: the text itself, if not empty."""
    return ([text], [0]) if text else ([], [])


@dataclass(frozen=True)
class PieceRoute:
    """How a pre-tokenizer's pieces reach the model: given only when each piece, pre-tokenized
    alone, comes out as it does inside the segment, so that its tokens can be cached by its
    text. Made once per encode plan, for the backend in use."""

    form: PieceForm
    find: Callable[[str], Pieces] = whole_text  # a segment's pieces and their starts
    mark: str = ""  # PREFIXED: the char put before each piece, standing for the piece's first char
    scanner: Any = None  # the compiled Scanner that finds the pieces (scanned_patterns), if any


TEXT_ROUTE = PieceRoute(PieceForm.TEXT)  # no pre-tokenizer: the text is one piece


def words_spanning_split(ns: NormalizedString, words: list[str]) -> list[NormalizedString]:
    """`words` as normalized strings each spanning all of the split's original text (for a pre-tokenizer that
    rewrites the text, so that no word has a span of its own)."""
    whole = (0, len(ns.original))
    return [NormalizedString(ns.original, word, [whole] * len(word), ns.original_shift) for word in words]


class PreTokenizer:
    """Base class: subclasses implement `pre_tokenize` and `to_dict`."""

    TYPE: ClassVar[str] = ""

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Split every untokenized split of `pts` in place."""
        raise NotImplementedError

    def pre_tokenize_str(self, text: str) -> list[tuple[str, Span]]:
        """The pieces of `text` with their char offsets, as the Python binding returns them."""
        pts = PreTokenizedString(text)
        self.pre_tokenize(pts)
        return pts.get_splits()

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json object (types without options)."""
        return {"type": self.TYPE}

    def is_context_free(self) -> bool:
        """Whether each split is cut and changed by its own text alone, not by where it lies."""
        return False

    def word_pieces(self, text: str) -> Pieces | None:
        """The pieces of a segment and where each starts, when `piece_route` is given; else None
        (the route is found again on each call: an encoder keeps `piece_route().find`)."""
        route = self.piece_route()
        return None if route is None else route.find(text)

    def piece_route(self) -> PieceRoute | None:
        """How this pre-tokenizer's pieces are found and reach the model (None: it gives no
        pieces that can be cached alone)."""
        return None

    def words(self, text: str) -> list[str] | None:
        """The splits `pre_tokenize` makes of a whole normalized text, as plain strings (what
        trainers count); None when only `pre_tokenize` can tell."""
        route = self.piece_route()
        if route is None or route.form not in (PieceForm.TEXT, PieceForm.BYTES):
            return None
        if route.form is PieceForm.BYTES and route.scanner is not None:
            scanned: list[str] = route.scanner.byte_pieces(text, BYTE_CHARS)
            return scanned
        pieces = self.word_pieces(text)
        if pieces is None:
            return None
        if route.form is PieceForm.TEXT:
            return pieces[0]
        return [bytes_to_chars(piece.encode()) for piece in pieces[0]]


class SplitWise(PreTokenizer):
    """Base of the pre-tokenizers that treat each split by its text alone."""

    def is_context_free(self) -> bool:
        """Always: nothing depends on where a split lies."""
        return True


def _check_behavior(behavior: str) -> str:
    """`behavior` itself if it names a split behaviour (snake_case, as in HF's Python API)."""
    if behavior not in BEHAVIORS:
        raise ValueError(f"unknown split behavior {behavior!r} (expected one of {BEHAVIORS})")
    return behavior


def _matches(ns: NormalizedString, pattern: "regex.Pattern[str]",
             fast_spans: Callable[[str], list[Span] | None] | None = None) -> list[NormalizedString]:
    """The pieces of `ns` that `pattern` matches (it never matches the empty string).

    `fast_spans` may compute the same spans faster for some texts (it returns None otherwise).
    """
    if not ns.is_identity():
        return ns.split(pattern, "removed", invert=True)
    text = ns.normalized
    spans = fast_spans(text) if fast_spans is not None else None
    if spans is None:
        spans = [m.span() for m in pattern.finditer(onig_view(text))]
    original, shift = ns.original, ns.original_shift
    if original == text:
        return [NormalizedString(text[s:e], None, None, shift + s) for s, e in spans]
    return [NormalizedString(original[s:e], text[s:e], None, shift + s) for s, e in spans]


def _capturing(pattern: "regex.Pattern[str]") -> "regex.Pattern[str]":
    """`pattern` as one capturing group, so that its `split` returns the matches too."""
    return regex.compile(f"({pattern.pattern})", pattern.flags)


def _split_pieces(text: str, splitter: "regex.Pattern[str]") -> Pieces:
    """The matches of a `_capturing` pattern in `text` (Oniguruma's classes) and their starts.

    `split` alternates the text between matches with the matches, so the running total of
    the part lengths gives every start, with no Python code per match.
    """
    view = onig_view(text)
    parts = splitter.split(view)
    pieces = parts[1::2]
    starts = list(accumulate(map(len, parts)))[0::2][:len(pieces)]
    if view is not text:
        pieces = [text[start:start + len(piece)] for start, piece in zip(starts, pieces)]
    return pieces, starts


def _literal_pattern(text: str) -> "regex.Pattern[str]":
    """A pattern matching `text` literally; the empty string matches everywhere, as in HF."""
    return regex.compile(regex.escape(text))


def prefixed_alignments(size: int) -> list[Span]:
    """The alignments of a `size`-char piece whose first char was prepended (HF's `prepend`):
    the prepended char stands for the segment's first char, like the char after it."""
    return [(0, 1)] + unit_spans(size)[:size - 1]


def _prefixed_piece(original: str, piece: str, shift: int) -> NormalizedString:
    """The first piece of an unaligned segment after one char was prepended (HF's `prepend`)."""
    size = len(piece)
    return NormalizedString(original[:max(size - 1, 1)], piece, prefixed_alignments(size), shift)


def _behavior(value: Any) -> str:
    """A behaviour from its JSON name ("Isolated"; serde also reads {"Isolated": null})."""
    if isinstance(value, dict) and len(value) == 1 and next(iter(value.values())) is None:
        value = next(iter(value))
    return BEHAVIOR_FROM_JSON[as_choice(value, "behavior", tuple(BEHAVIOR_FROM_JSON))]
