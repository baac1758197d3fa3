"""The decode of transformers' VitsTokenizer with add_blank: every second token (the characters between the blanks).

transformers keeps the tokens at odd positions of the list it decodes (after skipping special tokens, when asked)
whenever it holds more than one token, and joins them. No tokenizer.json decoder drops tokens by position:
`to_dict` raises UnsupportedConversion.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import UnsupportedConversion
from . import Decoder


@dataclass
class BlankCharacters(Decoder):
    """Tokens 1, 3, 5, ... of a list of more than one token, joined; a single token as it is."""

    TYPE: ClassVar[str] = ""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """The one text of the characters between the blanks."""
        return ["".join(tokens[1::2] if len(tokens) > 1 else tokens)]

    def to_dict(self) -> dict[str, Any]:
        """Refused: no decoder of tokenizer.json keeps every second token."""
        raise UnsupportedConversion("decoder: VITS's decode (every second token, the blanks between characters "
                                    "dropped) has no form in tokenizer.json")
