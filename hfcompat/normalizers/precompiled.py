"""Precompiled: SentencePiece's precompiled charsmap (charsmap.py) as a normalizer."""

from __future__ import annotations

import base64
import binascii
from typing import Any, ClassVar

from ..errors import FormatError
from ..pipeline.fields import as_str, field_value
from ..pipeline.normalized import NormalizedString
from .base import Normalizer
from .charsmap import CharsMap, precompiled_normalize, sentencepiece_normalize, sentencepiece_normalized


class Precompiled(Normalizer):
    """SentencePiece's precompiled charsmap, applied the way HF applies it (see charsmap.py).

    With `longest_match`, it is applied the way SentencePiece itself does (the longest rule at
    each position), leaving the `protected` strings (a model's user-defined symbols) as they
    are where they begin. tokenizer.json can say neither: the JSON form is the same either way.
    """

    TYPE: ClassVar[str] = "Precompiled"

    def __init__(self, charsmap: CharsMap, longest_match: bool = False, protected: tuple[str, ...] = ()):
        self.charsmap = charsmap
        self.longest_match = longest_match
        self.protected = protected

    def normalize(self, ns: NormalizedString) -> None:
        """Replace grapheme clusters (or chars) by their charsmap rules."""
        if self.longest_match:
            sentencepiece_normalize(self.charsmap, ns, self.protected)
        else:
            precompiled_normalize(self.charsmap, ns)

    def normalize_str(self, text: str) -> str:
        """The normalized string; SentencePiece's way needs no alignments to compute it."""
        if self.longest_match:
            return sentencepiece_normalized(self.charsmap, text, self.protected)
        return super().normalize_str(text)

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form: the blob in standard base64."""
        return {"type": self.TYPE,
                "precompiled_charsmap": base64.b64encode(self.charsmap.to_bytes()).decode("ascii")}

    @classmethod
    def from_dict(cls, data: dict) -> "Precompiled":
        """Read the base64 blob; an empty or unparsable one is refused, as HF does."""
        encoded = as_str(field_value(data, "precompiled_charsmap"), "precompiled_charsmap")
        try:
            blob = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            raise FormatError("not valid base64", field="precompiled_charsmap") from None
        if not blob:
            raise FormatError("Cannot parse precompiled_charsmap: it is empty",
                              field="precompiled_charsmap")
        return cls(CharsMap.from_bytes(blob))
