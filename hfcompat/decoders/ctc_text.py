"""The decode of transformers' Wav2Vec2CTCTokenizer and Wav2Vec2PhonemeCTCTokenizer (connectionist temporal
classification output to text).

transformers drops the special tokens first (when asked; never the word delimiter), then collapses each run of
equal tokens into one, drops the pad token (CTC's blank), turns the word delimiter into `replacement` (a space;
the phoneme class drops it), joins the rest (the phoneme class with spaces), strips whitespace at both ends
(str.strip) and lowercases it with do_lower_case.
This differs from tokenizers' CTC decoder (which replaces inside tokens, cleans up spaces before punctuation and
strips nothing), so tokenizer.json cannot hold it: `to_dict` raises UnsupportedConversion.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import UnsupportedConversion
from .base import Decoder, clean_up_tokenization


@dataclass
class CTCText(Decoder):
    """Repeats collapsed, pad dropped, delimiter to `replacement` (dropped when None), joined with `separator`,
    stripped, optionally lowercased, then with `clean_up` (clean_up_tokenization_spaces) transformers' clean-up of
    spaces before punctuation."""

    pad_token: str | None = "<pad>"
    word_delimiter_token: str | None = "|"
    replacement: str | None = " "
    lowercase: bool = False
    separator: str = ""
    clean_up: bool = False
    TYPE: ClassVar[str] = ""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """The one text of all the tokens."""
        chars = [self.replacement if token == self.word_delimiter_token else token
                 for token, _ in itertools.groupby(tokens) if token != self.pad_token]
        text = self.separator.join(char for char in chars if char is not None).strip()
        text = text.lower() if self.lowercase else text
        return [clean_up_tokenization(text) if self.clean_up else text]

    def to_dict(self) -> dict[str, Any]:
        """Refused: tokenizers' CTC decoder does not strip, lowercase or leave punctuation spacing alone."""
        raise UnsupportedConversion("decoder: transformers' Wav2Vec2 CTC decode (repeats collapsed, pad "
                                    "dropped, delimiter to a space, text stripped and lowercased) has no form in "
                                    "tokenizer.json")
