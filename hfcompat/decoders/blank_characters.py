"""The decode of transformers' VitsTokenizer: with add_blank, every second token (the characters between the blanks).

transformers keeps the tokens at odd positions of the list it decodes (after skipping special tokens, when asked)
whenever it holds more than one token, and joins them. No tokenizer.json decoder drops tokens by position:
`to_dict` raises UnsupportedConversion.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import UnsupportedConversion
from .base import Decoder, clean_up_tokenization


@dataclass
class BlankCharacters(Decoder):
    """With `blanks`, tokens 1, 3, 5, ... of a list of more than one token (a single token as it is), else every
    token, joined; then with `clean_up` (clean_up_tokenization_spaces) transformers' clean-up of spaces before
    punctuation."""

    blanks: bool = True
    clean_up: bool = False
    TYPE: ClassVar[str] = ""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """The one text of the characters between the blanks."""
        text = "".join(tokens[1::2] if self.blanks and len(tokens) > 1 else tokens)
        return [clean_up_tokenization(text) if self.clean_up else text]

    def to_dict(self) -> dict[str, Any]:
        """Refused: no decoder of tokenizer.json keeps every second token."""
        raise UnsupportedConversion("decoder: VITS's decode (every second token, the blanks between characters "
                                    "dropped) has no form in tokenizer.json")
