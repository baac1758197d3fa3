"""The decode of transformers' subword-nmt classes (models/subword_nmt.py): the tokens joined with spaces,
every "@@ " removed (a subword joins the next), the ends stripped, and with `clean_up` (the config's
clean_up_tokenization_spaces) transformers' clean-up of spaces before punctuation. No tokenizer.json decoder joins tokens
with spaces before its other steps, so `to_dict` raises UnsupportedConversion.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import UnsupportedConversion
from .base import Decoder, clean_up_tokenization

CONTINUED = "@@ "


@dataclass
class SubwordNmtDecoder(Decoder):
    """" ".join(tokens) without "@@ ", stripped (Python's str.strip), cleaned up with `clean_up`."""

    clean_up: bool = False

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """The one text of all the tokens."""
        text = " ".join(tokens).replace(CONTINUED, "").strip()
        return [clean_up_tokenization(text) if self.clean_up else text]

    def to_dict(self) -> dict[str, Any]:
        """Refused: tokenizer.json's decoders cannot join the tokens with spaces first."""
        raise UnsupportedConversion("decoder: subword-nmt decode (tokens joined with spaces, '@@ ' removed, "
                                    "stripped) has no form in tokenizer.json")
