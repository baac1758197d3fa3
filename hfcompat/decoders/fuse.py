"""Fuse: every token joined into one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .base import Decoder


@dataclass
class Fuse(Decoder):
    """Fuse: all tokens into one."""

    TYPE: ClassVar[str] = "Fuse"

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """Return the concatenation as a single token."""
        return ["".join(tokens)]

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"type": self.TYPE}

    @classmethod
    def from_dict(cls, data: dict) -> "Fuse":
        """Read the tokenizer.json form (no fields)."""
        return cls()
