"""CTC: repeated tokens collapsed, the pad token dropped, the word delimiter as a space (HF's CTC decoder)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, ClassVar

from ..pipeline.fields import as_bool, as_str, field_value
from .base import Decoder, wordpiece_cleanup


@dataclass
class CTC(Decoder):
    """CTC: collapse repeats, drop padding, turn the word delimiter into a space."""

    pad_token: str = "<pad>"
    word_delimiter_token: str = "|"
    cleanup: bool = True
    TYPE: ClassVar[str] = "CTC"

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """Dedup consecutive tokens, then clean each one; empty results are dropped."""
        out = []
        for token, _ in itertools.groupby(tokens):
            token = token.replace(self.pad_token, "")
            if self.cleanup:
                token = wordpiece_cleanup(token).replace(self.word_delimiter_token, " ")
            if token:
                out.append(token)
        return out

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"type": self.TYPE, "pad_token": self.pad_token,
                "word_delimiter_token": self.word_delimiter_token, "cleanup": self.cleanup}

    @classmethod
    def from_dict(cls, data: dict) -> "CTC":
        """Read the tokenizer.json form (all fields are mandatory)."""
        return cls(pad_token=as_str(field_value(data, "pad_token"), "pad_token"),
                   word_delimiter_token=as_str(field_value(data, "word_delimiter_token"),
                                               "word_delimiter_token"),
                   cleanup=as_bool(field_value(data, "cleanup"), "cleanup"))
