"""transformers' RoFormer pre-tokenizer: jieba words, kept whole when "in the vocabulary", else cut per ideograph.

RoFormerTokenizer cuts each segment with rjieba (jieba-rs, no HMM: Segmenter "dag" over jieba's dictionary
with jieba-rs's Han runs). A word for which `word in vocab` holds is one split; any other word is spaced
around its CJK ideographs (tokenizers' BertNormalizer) and split on Python whitespace, each piece one split
(so a whitespace word gives none). What `vocab` is depends on how the class was loaded: the vocabulary dict
(from tokenizer.json), or, from vocab.txt alone, the path string of that file, so that "in" is a substring
test (transformers passes the file name where the dict is meant). No file format holds this, so `to_dict`
raises UnsupportedConversion.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Container

from ..errors import UnsupportedConversion
from ..normalizers.bert import chinese_char_runs
from ..pipeline.normalized import NormalizedString, PreTokenizedString
from ..pre_tokenizers import PreTokenizer
from .segmenter import Segmenter


@dataclass
class VocabularyWords(PreTokenizer):
    """Split every segment into the segmenter's words, those outside `vocab` further into ideographs and runs."""

    segmenter: Segmenter
    vocab: Container[str]
    TYPE: ClassVar[str] = "VocabularyWords"

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Cut every untokenized split."""
        pts.split(lambda _, ns: self._splits(ns))

    def _splits(self, ns: NormalizedString) -> list[NormalizedString]:
        """The slices of one segment."""
        pieces = []
        start = 0
        for word in self.segmenter.cut(ns.normalized):
            if word in self.vocab:
                pieces.append(ns.slice(start, start + len(word)))
            else:
                offset = start
                for piece in " ".join(chinese_char_runs(word)).split():
                    pieces.append(ns.slice(offset, offset + len(piece)))
                    offset += len(piece)
            start += len(word)
        return pieces

    def to_dict(self) -> dict[str, Any]:
        """Refused: tokenizer.json has no word-segmentation component."""
        raise UnsupportedConversion("pre_tokenizer: RoFormer's jieba segmentation over its vocabulary has no form in "
                                    "tokenizer.json (transformers itself saves BertPreTokenizer in its place)")
