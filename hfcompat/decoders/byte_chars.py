"""The decoder of transformers' byte tokenizers (models/utf8_bytes.py): tokens chr(b) back to text.

transformers joins the bytes of every token (chr(b) for a byte token, the UTF-8 of any other token:
an added one) and decodes the whole as UTF-8, dropping what is not valid (ByT5: errors="ignore") or
writing U+FFFD for it (Perceiver: errors="replace"). No file
format holds this decoder: `to_dict` raises UnsupportedConversion.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import UnsupportedConversion
from .base import Decoder

BYTE_LIMIT = 256


def token_bytes(token: str) -> bytes:
    """A byte token's byte (one character below U+0100), else the token's UTF-8."""
    if len(token) == 1 and ord(token) < BYTE_LIMIT:
        return bytes((ord(token),))
    return token.encode("utf-8", "surrogatepass")


@dataclass
class ByteChars(Decoder):
    """All tokens' bytes joined, decoded as UTF-8 with Python's `errors` mode for invalid bytes."""

    errors: str = "ignore"

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """The one text of all the tokens."""
        return [b"".join(map(token_bytes, tokens)).decode("utf-8", self.errors)]

    def to_dict(self) -> dict[str, Any]:
        """Refused: tokenizer.json's decoders have no byte-per-Latin-1-character step."""
        raise UnsupportedConversion("decoder: transformers' byte tokenizer decode (chr(b) tokens as bytes, invalid "
                                    "UTF-8 dropped) has no form in tokenizer.json")
