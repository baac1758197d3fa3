"""The decode of transformers' CpmTokenizer: the tokens joined, every space removed, ▂ and ▃ as space and newline.

The class joins all the tokens kept (added ones too), turns "▁" into spaces and strips the ends (its
convert_tokens_to_string), then removes every space and maps "▂" to a space and "▃" to a newline (CPM's
training text wrote them so). Clean-up of tokenization spaces only removes spaces, which this removes anyway.
No file format holds the stripping of other whitespace at the ends, so `to_dict` raises UnsupportedConversion.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import UnsupportedConversion
from . import Decoder

UNDERLINE = "\u2581"
SPACE_MARK = "\u2582"
NEWLINE_MARK = "\u2583"


@dataclass
class CpmText(Decoder):
    """All the tokens as one text, spaces removed, ▂ and ▃ turned into space and newline."""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """The one text of all the tokens."""
        text = "".join(tokens).replace(UNDERLINE, " ").strip().replace(" ", "")
        return [text.replace(SPACE_MARK, " ").replace(NEWLINE_MARK, "\n")]

    def to_dict(self) -> dict[str, Any]:
        """Refused: tokenizer.json's decoders cannot strip every kind of whitespace at the text's ends."""
        raise UnsupportedConversion("decoder: CpmTokenizer's decode (tokens joined, ends stripped of whitespace, every "
                                    "space removed, ▂/▃ to space/newline) has no form in tokenizer.json")
