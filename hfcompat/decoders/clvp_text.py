"""The decode of transformers' ClvpTokenizer: the tokens joined and read back as GPT-2's byte-level characters
(pipeline/bytelevel.py), decoded as UTF-8 with the class's `errors` mode; with clean_up_tokenization_spaces,
its own clean-up then: "[SPACE]" and "[STOP]" become spaces (each only when the vocabulary or the added
tokens hold it), the unknown token's text is removed, and three spaces, then two, become one.

A character outside the byte-level alphabet (in an added token) makes transformers fail (KeyError); hfcompat
raises TokenizationError there. No tokenizer.json decoder does this: `to_dict` raises UnsupportedConversion.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import TokenizationError, UnsupportedConversion
from ..pipeline.bytelevel import CHAR_TO_BYTE
from .base import Decoder


@dataclass
class ClvpText(Decoder):
    """Byte-level text with `errors` for invalid UTF-8; with `clean_up`, `spaced` tokens as spaces and `unk`
    removed."""

    errors: str = "replace"
    clean_up: bool = False
    spaced: tuple[str, ...] = ()
    unk: str = ""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """The one text of all the tokens."""
        joined = "".join(tokens)
        outside = next((char for char in joined if char not in CHAR_TO_BYTE), None)
        if outside is not None:
            raise TokenizationError(f"{outside!r} is not a byte-level character: transformers' ClvpTokenizer "
                                    "cannot decode it (KeyError)")
        text = bytes(CHAR_TO_BYTE[char] for char in joined).decode("utf-8", self.errors)
        return [self.cleaned_up(text) if self.clean_up else text]

    def cleaned_up(self, text: str) -> str:
        """The class's clean_up_tokenization."""
        for token in self.spaced:
            text = text.replace(token, " ")
        return text.replace(self.unk, "").replace("   ", " ").replace("  ", " ")

    def to_dict(self) -> dict[str, Any]:
        """Refused: no tokenizer.json decoder turns "[SPACE]" into a space or removes the unknown token."""
        raise UnsupportedConversion("decoder: ClvpTokenizer's decode (byte-level text, then its clean-up of "
                                    "[SPACE], [STOP] and the unknown token) has no form in tokenizer.json")
