"""transformers' CanineTokenizer: each character of the text is one token, its id its code point.

Every code point (0 to U+10FFFF) is in the vocabulary; the tokens of U+0000 and U+E000 to U+E004
are the names CANINE gives them ("[PAD]", "[CLS]", "[SEP]", "[BOS]", "[MASK]", "[RESERVED]"), every
other token is its character. The class reads no file. No file format holds this model (a
tokenizer.json vocabulary of 1,114,112 entries would be a WordLevel without a way to split
characters), so `to_dict` raises UnsupportedConversion.
"""

from __future__ import annotations

from typing import Any

from ..errors import UnsupportedConversion
from .base import Model, Token

CODE_POINTS = 0x110000
NAMED: dict[int, str] = {0: "[PAD]", 0xE000: "[CLS]", 0xE001: "[SEP]", 0xE002: "[BOS]", 0xE003: "[MASK]",
                         0xE004: "[RESERVED]"}


class CodePoints(Model):
    """Character c -> id ord(c), token its character (or its CANINE name)."""

    def tokenize(self, sequence: str) -> list[Token]:
        """One token per character, offsets in UTF-8 bytes."""
        tokens = []
        start = 0
        for char in sequence:
            end = start + len(char.encode("utf-8", "surrogatepass"))
            tokens.append(Token(ord(char), NAMED.get(ord(char), char), (start, end)))
            start = end
        return tokens

    def token_to_id(self, token: str) -> int | None:
        """A character's code point, or None for any longer string."""
        return ord(token) if len(token) == 1 else None

    def id_to_token(self, token_id: int) -> str | None:
        """The character (or CANINE's name) of a code point, or None outside Unicode."""
        if not 0 <= token_id < CODE_POINTS:
            return None
        return NAMED.get(token_id, chr(token_id))

    def get_vocab(self) -> dict[str, int]:
        """Every character -> its code point (1,114,112 entries)."""
        return {chr(code): code for code in range(CODE_POINTS)}

    def get_vocab_size(self) -> int:
        """The number of code points."""
        return CODE_POINTS

    def to_dict(self) -> dict[str, Any]:
        """Refused: no format holds a vocabulary of every code point split per character."""
        raise UnsupportedConversion("model: CANINE's code points (one token per character, id its code point) have "
                                    "no form in tokenizer.json, .model, .tiktoken, GGUF or tekken.json")
