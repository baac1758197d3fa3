"""BPEDecoder: the end-of-word suffix back into spaces."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..pipeline.fields import as_str, field_value
from .base import Decoder


@dataclass
class BPEDecoder(Decoder):
    """Classic BPE: the end-of-word suffix becomes a space (removed in the last token)."""

    suffix: str = "</w>"
    TYPE: ClassVar[str] = "BPEDecoder"

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """Replace every occurrence of the suffix in each token."""
        last = len(tokens) - 1
        return [token.replace(self.suffix, "" if i == last else " ") for i, token in enumerate(tokens)]

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"type": self.TYPE, "suffix": self.suffix}

    @classmethod
    def from_dict(cls, data: dict) -> "BPEDecoder":
        """Read the tokenizer.json form (suffix is mandatory)."""
        return cls(suffix=as_str(field_value(data, "suffix"), "suffix"))
