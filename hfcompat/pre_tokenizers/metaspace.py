"""Metaspace: spaces become a replacement char, prepended per a scheme, then split on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import FormatError
from ..pipeline.fields import as_bool, as_char, as_choice, as_str, field_value, optional_field
from ..pipeline.normalized import NormalizedString, PreTokenizedString
from .base import PreTokenizer, _literal_pattern, _prefixed_piece

PREPEND_SCHEMES = ("always", "first", "never")


@dataclass
class Metaspace(PreTokenizer):
    """Spaces become `replacement`, which is prepended per `prepend_scheme`; then split on it."""

    replacement: str = "\u2581"
    prepend_scheme: str = "always"
    split: bool = True
    TYPE: ClassVar[str] = "Metaspace"

    def __post_init__(self) -> None:
        """Check the values HF would refuse."""
        as_char(self.replacement, "replacement")
        as_choice(self.prepend_scheme, "prepend_scheme", PREPEND_SCHEMES)
        self._pattern = _literal_pattern(self.replacement)

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Replace, prepend and split every segment."""
        pts.split(self._split_one)

    def is_context_free(self) -> bool:
        """Unless the scheme is "first", which prepends only at the start of the input."""
        return self.prepend_scheme != "first"

    def _split_one(self, _: int, ns: NormalizedString) -> list[NormalizedString]:
        """One segment: "first" prepends only to a segment that starts the original text."""
        if self.split and ns.is_identity() and len(ns.normalized) == len(ns.original):
            return self._split_identity(ns)
        if " " in ns.normalized:
            ns.replace(" ", self.replacement)
        if self._prepends(ns.normalized, ns.offsets_original()[0]):
            ns.prepend(self.replacement)
        if self.split:
            return ns.split(self._pattern, "merged_with_next")
        return [ns]

    def words(self, text: str) -> list[str] | None:
        """The splits of a whole text; not with "first", which depends on where the normalized
        text begins in the original."""
        if self.prepend_scheme == "first":
            return None
        replaced = text.replace(" ", self.replacement)
        if self._prepends(replaced, 0):
            replaced = self.replacement + replaced
        if not self.split:
            return [replaced] if replaced else []
        mark = self.replacement
        parts = replaced.split(mark)
        return [part for part in parts[:1] if part] + [mark + part for part in parts[1:]]

    def _prepends(self, text: str, original_start: int) -> bool:
        """Whether the replacement goes in front of this (already replaced) segment."""
        if not text or text.startswith(self.replacement):
            return False
        return self.prepend_scheme == "always" or (
            self.prepend_scheme == "first" and original_start == 0)

    def _split_identity(self, ns: NormalizedString) -> list[NormalizedString]:
        """`_split_one` for an unaligned segment, building the pieces directly (the hot path).

        With one-char matches, merged_with_next cuts right before every replacement char.
        """
        original, shift, mark = ns.original, ns.original_shift, self.replacement
        if " " not in ns.normalized and mark not in ns.normalized:  # one word (after a split)
            if self._prepends(ns.normalized, shift):
                return [_prefixed_piece(original, mark + ns.normalized, shift)]
            return [ns]
        replaced = ns.normalized.replace(" ", mark)
        prefixed = self._prepends(replaced, shift)
        pieces = []
        end = -1 if prefixed else 0
        for i, part in enumerate((mark + replaced if prefixed else replaced).split(mark)):
            piece = mark + part if i else part
            if not piece:
                continue
            start, end = end, end + len(piece)
            if start < 0:
                pieces.append(_prefixed_piece(original, piece, shift))
            else:
                pieces.append(NormalizedString(original[start:end], piece, None, shift + start))
        return pieces

    def to_dict(self) -> dict[str, Any]:
        """{"type": "Metaspace", "replacement": ..., "prepend_scheme": ..., "split": ...}."""
        return {"type": self.TYPE, "replacement": self.replacement,
                "prepend_scheme": self.prepend_scheme, "split": self.split}

    @classmethod
    def from_dict(cls, data: dict) -> "Metaspace":
        """Read the JSON form, including the legacy `add_prefix_space` and `str_rep`."""
        replacement = as_char(field_value(data, "replacement"), "replacement")
        scheme = as_choice(field_value(data, "prepend_scheme", "always"), "prepend_scheme",
                           PREPEND_SCHEMES)
        split = optional_field(data, "split", as_bool)
        optional_field(data, "str_rep", as_str)  # an old copy of `replacement`, checked and dropped
        if optional_field(data, "add_prefix_space", as_bool) is False and scheme != "never":
            raise FormatError("add_prefix_space does not match declared prepend_scheme",
                              field="add_prefix_space")
        return cls(replacement, scheme, split is not False)
