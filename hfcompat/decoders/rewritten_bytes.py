"""The decoder of MyT5's rewritten hex byte tokens (models/rewritten_bytes.py): the merge map undone, then the
decompose map, over all the tokens at once (an added token's text starts no rule and stays as it is), each
hex token then its byte and any other token its UTF-8, and the whole decoded as UTF-8 with invalid bytes
dropped, as transformers' MyT5Tokenizer.convert_tokens_to_string does. No file format holds this decoder:
`to_dict` raises UnsupportedConversion.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import UnsupportedConversion
from ..pipeline.byte_rewriting import ByteRewriter
from .base import Decoder


def token_bytes(token: str) -> bytes:
    """A hex token's bytes, else the token's UTF-8 (an added token)."""
    try:
        return bytes.fromhex(token)
    except ValueError:
        return token.encode("utf-8", "surrogatepass")


@dataclass
class RewrittenBytesDecoder(Decoder):
    """The tokens with `merge` and then `decompose` undone, as one text of their bytes."""

    decompose: ByteRewriter
    merge: ByteRewriter

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """The one text of all the tokens."""
        restored = self.decompose.undo(self.merge.undo(tokens))
        return [b"".join(map(token_bytes, restored)).decode("utf-8", "ignore")]

    def to_dict(self) -> dict[str, Any]:
        """Refused: tokenizer.json's decoders do not undo byte rewriting."""
        raise UnsupportedConversion("decoder: MyT5's decode (byte_maps.json's rewriting undone over hex byte "
                                    "tokens) has no form in tokenizer.json")
