"""Strip (whitespace at either end) and StripAccents (every combining mark)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..pipeline.normalized import NormalizedString
from .base import Normalizer, _bool_field, _drop_chars
from .unicode import _MAYBE_COMBINING_MARK, is_combining_mark


@dataclass
class Strip(Normalizer):
    """Trim whitespace on the left and/or the right."""

    strip_left: bool = True
    strip_right: bool = True
    TYPE: ClassVar[str] = "Strip"

    def normalize(self, ns: NormalizedString) -> None:
        """Strip in place."""
        ns.strip(self.strip_left, self.strip_right)

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"type": self.TYPE, "strip_left": self.strip_left, "strip_right": self.strip_right}

    @classmethod
    def from_dict(cls, data: dict) -> "Strip":
        """Read the tokenizer.json form (both fields are mandatory)."""
        return cls(strip_left=_bool_field(data, "strip_left"),
                   strip_right=_bool_field(data, "strip_right"))


@dataclass
class StripAccents(Normalizer):
    """Remove every combining mark (Mn, Mc, Me); nothing is decomposed first."""

    TYPE: ClassVar[str] = "StripAccents"

    def normalize(self, ns: NormalizedString) -> None:
        """Drop the marks in place."""
        if not ns.normalized.isascii():
            _drop_chars(ns, _MAYBE_COMBINING_MARK, is_combining_mark)
