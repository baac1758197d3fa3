"""FixedLength: chunks of a fixed number of chars."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..pipeline.fields import USIZE_MAX, as_uint
from ..pipeline.normalized import NormalizedString, PreTokenizedString
from .base import SplitWise


@dataclass
class FixedLength(SplitWise):
    """Chunks of `length` chars."""

    length: int = 5
    TYPE: ClassVar[str] = "FixedLength"

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Cut every segment into chunks."""
        pts.split(lambda _, ns: self._chunks(ns))

    def _chunks(self, ns: NormalizedString) -> list[NormalizedString]:
        """The chunks of one segment (HF panics on length 0 with a non-empty segment)."""
        size = len(ns.normalized)
        if size and self.length == 0:
            raise ValueError("chunk size must be non-zero")
        return [ns.slice(i, min(i + self.length, size)) for i in range(0, size, self.length or 1)]

    def to_dict(self) -> dict[str, Any]:
        """{"type": "FixedLength", "length": ...}."""
        return {"type": self.TYPE, "length": self.length}

    @classmethod
    def from_dict(cls, data: dict) -> "FixedLength":
        """Read the JSON form (length defaults to 5)."""
        return cls(as_uint(data.get("length", 5), "length", USIZE_MAX))
