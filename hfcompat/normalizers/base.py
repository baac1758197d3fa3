"""The Normalizer base class, and the helpers the normalizers share."""

from __future__ import annotations

from typing import Any, Callable, ClassVar

import regex

from ..pipeline.fields import as_bool, field_value
from ..pipeline.normalized import NormalizedString


class Normalizer:
    """Base of all normalizers."""

    TYPE: ClassVar[str] = ""

    def normalize(self, ns: NormalizedString) -> None:
        """Normalize `ns` in place."""
        raise NotImplementedError

    def normalize_str(self, text: str) -> str:
        """The normalized form of a plain string."""
        ns = NormalizedString(text)
        self.normalize(ns)
        return ns.normalized

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form of this normalizer."""
        return {"type": self.TYPE}

    @classmethod
    def from_dict(cls, data: dict) -> "Normalizer":
        """Read the tokenizer.json form (field-less normalizers ignore any other key)."""
        return cls()


def _drop_chars(ns: NormalizedString, candidates: "regex.Pattern[str]",
                drop: Callable[[str], bool]) -> None:
    """Remove the chars for which `drop` is true; `candidates` finds (a superset of) them fast."""
    text = ns.normalized
    counts = None
    pieces = []
    last = 0
    for match in candidates.finditer(text):
        position = match.start()
        if drop(match.group()):
            if counts is None:
                counts = bytearray(b"\x01") * len(text)
            counts[position] = 0
            pieces.append(text[last:position])
            last = position + 1
    if counts is not None:
        pieces.append(text[last:])
        ns.expand_counts("".join(pieces), counts)


def _bool_field(data: dict, name: str) -> bool:
    """A mandatory boolean field."""
    return as_bool(field_value(data, name), name)
