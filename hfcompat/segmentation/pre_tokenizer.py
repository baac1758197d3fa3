"""ChineseWordSegmentation: a pre-tokenizer that cuts each segment into the words of a Segmenter."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..errors import UnsupportedConversion
from ..normalized import NormalizedString, PreTokenizedString
from ..pre_tokenizers import PreTokenizer
from .segmenter import Segmenter


@dataclass
class ChineseWordSegmentation(PreTokenizer):
    """Split every segment into words (whitespace words dropped unless `keep_whitespace`).

    tokenizer.json has no such component, so `to_dict` refuses: save the tokenizer
    with the transformers tokenizer class instead.
    """

    segmenter: Segmenter = field(default_factory=Segmenter)
    keep_whitespace: bool = False
    TYPE: ClassVar[str] = "ChineseWordSegmentation"

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Cut every untokenized split into its words."""
        pts.split(lambda _, ns: self._words(ns))

    def _words(self, ns: NormalizedString) -> list[NormalizedString]:
        """The slices of one segment, one per word."""
        pieces = []
        start = 0
        for word in self.segmenter.cut(ns.normalized):
            end = start + len(word)
            if self.keep_whitespace or not word.isspace():
                pieces.append(ns.slice(start, end))
            start = end
        return pieces

    def to_dict(self) -> dict[str, Any]:
        """Refuse: tokenizer.json cannot hold a dictionary segmenter."""
        raise UnsupportedConversion(
            "pre-tokenizer ChineseWordSegmentation cannot be written to tokenizer.json: the format has no "
            "word-segmentation component (its dictionary and HMM would be lost); save it with "
            "the transformers tokenizer class (save_pretrained) instead")
