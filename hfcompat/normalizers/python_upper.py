"""Python's str.upper(), as transformers' Wav2Vec2CTCTokenizer applies it (do_lower_case upper-cases the text).

Python upper-cases each character with Unicode's full case mapping and no context, so one character may become
several ("ß" -> "SS", "ﬁ" -> "FI"). tokenizer.json has no upper-casing normalizer: `to_dict` raises
UnsupportedConversion.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..errors import UnsupportedConversion
from ..pipeline.normalized import NormalizedString
from .base import Normalizer


class PythonUpper(Normalizer):
    """Each character upper-cased as str.upper() does it."""

    TYPE: ClassVar[str] = ""

    def normalize(self, ns: NormalizedString) -> None:
        """Upper-case in place, aligning each character's expansion to it."""
        text = ns.normalized
        upper = text.upper()
        if len(upper) == len(text):
            ns.map_chars(upper)
        else:
            ns.expand_chars([char.upper() for char in text])

    def to_dict(self) -> dict[str, Any]:
        """Refused: no normalizer of tokenizer.json upper-cases."""
        raise UnsupportedConversion("normalizer: Python's str.upper() (transformers' Wav2Vec2CTCTokenizer with "
                                    "do_lower_case) has no form in tokenizer.json")
