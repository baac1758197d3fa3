"""ByteLevel: GPT-2's byte-level split, and `to_byte_level`, its char-per-byte mapping."""

from __future__ import annotations

import codecs
import itertools
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar

from ..pipeline.bytelevel import BYTE_CHARS
from ..pipeline.fields import as_bool, field_value
from ..pipeline.normalized import UTF8_STARTS, NormalizedString, PreTokenizedString, unit_spans
from ..pipeline.oniguruma import compile_pattern, onig_view
from .base import PieceForm, PieceRoute, SplitWise, _capturing, _prefixed_piece, _split_pieces
from .scanned_patterns import GPT2_PATTERN, ONIGURUMA, scanner

# GPT2_PATTERN is the pattern of HF's ByteLevel pre-tokenizer (run by Oniguruma).
_GPT2_RE = compile_pattern(GPT2_PATTERN)
_GPT2_SPLITTER = _capturing(_GPT2_RE)


@dataclass
class ByteLevel(SplitWise):
    """GPT-2's byte-level split: a prefix space, the GPT-2 regex, then one char per byte.

    Every split gets the prefix space when `add_prefix_space` (also after added tokens); each
    byte char of a multi-byte char keeps that char's original span. `trim_offsets` only matters
    to the ByteLevel post-processor; it is kept here for the JSON form.
    """

    add_prefix_space: bool = True
    trim_offsets: bool = True
    use_regex: bool = True
    TYPE: ClassVar[str] = "ByteLevel"

    @staticmethod
    def alphabet() -> list[str]:
        """The 256 byte chars, in byte order."""
        return list(BYTE_CHARS)

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Prefix, split and map every segment to byte-level chars."""
        if not (self.add_prefix_space or self.use_regex or _has_empty_split(pts)):
            pts.normalize(to_byte_level)  # nothing to cut or drop: map the segments in place
            return
        pts.split(self._split_one)

    def piece_route(self) -> PieceRoute | None:
        """A piece is one GPT-2 regex match (scanned in C, or found by the regex): one word, in
        byte-level chars; none with a prefix space, which only the first piece would get."""
        if self.add_prefix_space or not self.use_regex:
            return None
        compiled = scanner(GPT2_PATTERN, ONIGURUMA)
        find = compiled.split if compiled is not None else partial(_split_pieces, splitter=_GPT2_SPLITTER)
        return PieceRoute(PieceForm.BYTES, find, scanner=compiled)

    def _split_one(self, _: int, ns: NormalizedString) -> list[NormalizedString]:
        """Prefix a space if there is none, isolate the GPT-2 regex matches, map the bytes."""
        if ns.is_identity() and self.use_regex:
            return self._split_identity(ns)
        if self.add_prefix_space and not ns.normalized.startswith(" "):
            ns.prepend(" ")
        pieces = ns.split(_GPT2_RE, "isolated") if self.use_regex else [ns]
        for piece in pieces:
            to_byte_level(piece)
        return pieces

    def _split_identity(self, ns: NormalizedString) -> list[NormalizedString]:
        """`_split_one` for an unaligned segment, building the pieces directly (the hot path).

        The GPT-2 regex matches at every position, so its matches tile the text and their
        lengths give the offsets. An ASCII text is mapped to byte chars in one call.
        """
        text, original, shift = ns.normalized, ns.original, ns.original_shift
        prefixed = self.add_prefix_space and text != "" and not text.startswith(" ")
        source = " " + text if prefixed else text
        lag = 1 if prefixed else 0  # source index minus text index
        if source.isascii():
            mapped = codecs.charmap_decode(source.encode(), "strict", BYTE_CHARS)[0]
        else:
            mapped, spans = "", unit_spans(len(source))
        pieces = []
        end = 0
        compiled = scanner(GPT2_PATTERN, ONIGURUMA)
        view = source if mapped or compiled is not None else onig_view(source)
        for match in compiled.findall(source) if compiled is not None else _GPT2_RE.findall(view):
            start, end = end, end + len(match)
            if view is not source:
                match = source[start:end]
            if prefixed and start == 0:
                piece = _prefixed_piece(original, mapped[:end] if mapped else match, shift)
                if not mapped:
                    to_byte_level(piece)
            elif mapped:
                piece = NormalizedString(original[start - lag:end - lag], mapped[start:end], None,
                                         shift + start - lag)
            else:
                # to_byte_level, inlined: this runs for every piece of non-ASCII text.
                data = match.encode()
                chars = codecs.charmap_decode(data, "strict", BYTE_CHARS)[0]
                alignments = None
                if len(data) != len(match):
                    sources = itertools.accumulate(data.translate(UTF8_STARTS), initial=-1)
                    next(sources)
                    alignments = list(map(spans.__getitem__, sources))
                piece = NormalizedString(original[start - lag:end - lag], chars, alignments,
                                         shift + start - lag)
            pieces.append(piece)
        return pieces

    def to_dict(self) -> dict[str, Any]:
        """{"type": "ByteLevel", "add_prefix_space", "trim_offsets", "use_regex"}."""
        return {"type": self.TYPE, "add_prefix_space": self.add_prefix_space,
                "trim_offsets": self.trim_offsets, "use_regex": self.use_regex}

    @classmethod
    def from_dict(cls, data: dict) -> "ByteLevel":
        """Read the JSON form (add_prefix_space and trim_offsets are mandatory)."""
        return cls(as_bool(field_value(data, "add_prefix_space"), "add_prefix_space"),
                   as_bool(field_value(data, "trim_offsets"), "trim_offsets"),
                   as_bool(data.get("use_regex", True), "use_regex"))


def _has_empty_split(pts: PreTokenizedString) -> bool:
    """True if a split is empty (splitting would drop it)."""
    return any(not split.normalized.normalized for split in pts.splits)


def to_byte_level(ns: NormalizedString) -> None:
    """Replace each char by the byte-level chars of its UTF-8 bytes, all aligned to it."""
    text = ns.normalized
    data = text.encode()
    mapped = codecs.charmap_decode(data, "strict", BYTE_CHARS)[0]
    if len(data) == len(text):
        ns.map_chars(mapped)
        return
    # The index of the char each byte belongs to: a running count of char-starting bytes.
    sources = itertools.accumulate(data.translate(UTF8_STARTS), initial=-1)
    next(sources)
    ns.expand_from(mapped, sources)
