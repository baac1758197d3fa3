"""ByteLevel: byte-level tokens back into UTF-8 text (invalid bytes as U+FFFD), as HF's ByteLevel decoder."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..pipeline.bytelevel import BYTELEVEL_TO_LATIN1
from ..pipeline.fields import as_bool, field_value
from .base import Decoder


def _bytelevel_token_bytes(token: str) -> bytes:
    """The bytes a token stands for: its byte-level bytes, or its UTF-8 if a char is outside the alphabet."""
    try:
        return token.translate(BYTELEVEL_TO_LATIN1).encode("latin-1")
    except UnicodeEncodeError:
        return token.encode("utf-8", "surrogatepass")


@dataclass
class ByteLevel(Decoder):
    """GPT-2 byte-level: byte chars back to bytes, then one lossy UTF-8 decode of everything."""

    add_prefix_space: bool = True
    trim_offsets: bool = True
    use_regex: bool = True
    TYPE: ClassVar[str] = "ByteLevel"

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """Return one string: the UTF-8 decode, one U+FFFD per maximal invalid subpart."""
        try:  # fast path: every token is byte-level
            data = "".join(tokens).translate(BYTELEVEL_TO_LATIN1).encode("latin-1")
        except UnicodeEncodeError:
            data = b"".join(_bytelevel_token_bytes(token) for token in tokens)
        return [data.decode("utf-8", "replace")]

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"type": self.TYPE, "add_prefix_space": self.add_prefix_space,
                "trim_offsets": self.trim_offsets, "use_regex": self.use_regex}

    @classmethod
    def from_dict(cls, data: dict) -> "ByteLevel":
        """Read the tokenizer.json form (add_prefix_space and trim_offsets are mandatory)."""
        return cls(
            add_prefix_space=as_bool(field_value(data, "add_prefix_space"), "add_prefix_space"),
            trim_offsets=as_bool(field_value(data, "trim_offsets"), "trim_offsets"),
            use_regex=as_bool(field_value(data, "use_regex", True), "use_regex"),
        )
