"""transformers' byte tokenizers (ByT5, Perceiver, Dia): each UTF-8 byte of the text is one token.

Byte b has the id b + offset (the special tokens take the ids below the bytes, and sentinels may
follow them; Dia's offset 0 gives bytes 0-2 the ids of its specials, which name them) and the token string chr(b), one Latin-1 character per byte: "é" is the two tokens
"Ã" and "©". There is no vocabulary file; the class builds this from its special tokens. Token
strings of this kind exist in no file format (tokenizer.json's byte fallback writes `<0xC3>`,
its ByteLevel another alphabet), so `to_dict` raises UnsupportedConversion.
"""

from __future__ import annotations

from typing import Any

from ..errors import UnsupportedConversion
from .base import Token, VocabLookup

BYTE_COUNT = 256


class UTF8Bytes(VocabLookup):
    """Byte b -> id b + `offset`, token chr(b); `specials` (token -> id) are known to the vocabulary only."""

    def __init__(self, offset: int, specials: dict[str, int]):
        self.offset = offset
        self.vocab: dict[str, int] = {**specials, **{chr(b): b + offset for b in range(BYTE_COUNT)}}
        self.vocab_r: dict[int, str] = {i: token for token, i in self.vocab.items()}

    def tokenize(self, sequence: str) -> list[Token]:
        """One token per UTF-8 byte, offsets in bytes."""
        data = sequence.encode("utf-8", "surrogatepass")
        return [Token(byte + self.offset, chr(byte), (start, start + 1)) for start, byte in enumerate(data)]

    def to_dict(self) -> dict[str, Any]:
        """Refused: no format holds tokens that are the bytes as Latin-1 characters."""
        raise UnsupportedConversion("model: transformers' byte tokenizer (one token chr(b) per UTF-8 byte, id "
                                    "b + offset) has no form in tokenizer.json, .model, .tiktoken, GGUF or tekken.json")
