"""WordPiece: the continuing-subword prefix removed, words joined with spaces, HF's optional clean-up."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..pipeline.fields import as_bool, as_str, field_value
from .base import Decoder, wordpiece_cleanup


@dataclass
class WordPiece(Decoder):
    """WordPiece: continuation tokens lose their prefix, others get a leading space."""

    prefix: str = "##"
    cleanup: bool = True
    TYPE: ClassVar[str] = "WordPiece"

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """Join pieces per token; the first token is kept as is (even with the prefix)."""
        prefix, size = self.prefix, len(self.prefix)
        out = []
        for i, token in enumerate(tokens):
            if i:
                token = token[size:] if token.startswith(prefix) else " " + token
            if self.cleanup:
                token = wordpiece_cleanup(token)
            out.append(token)
        return out

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"type": self.TYPE, "prefix": self.prefix, "cleanup": self.cleanup}

    @classmethod
    def from_dict(cls, data: dict) -> "WordPiece":
        """Read the tokenizer.json form (prefix and cleanup are mandatory)."""
        return cls(prefix=as_str(field_value(data, "prefix"), "prefix"),
                   cleanup=as_bool(field_value(data, "cleanup"), "cleanup"))
