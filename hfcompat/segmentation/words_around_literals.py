"""A pre-tokenizer that cuts literal strings out whole and the text between them into a Segmenter's words.

transformers' CpmAntTokenizer cuts its space and line tokens ("</_>", "</n>") out of the text as special tokens
although they are no added tokens (their ids are gone), then cuts the rest with rjieba, whitespace words kept.
No file format holds this, so `to_dict` raises UnsupportedConversion.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import regex

from ..errors import UnsupportedConversion
from ..pipeline.normalized import NormalizedString, PreTokenizedString
from ..pre_tokenizers import PreTokenizer
from .segmenter import Segmenter


@dataclass
class WordsAroundLiterals(PreTokenizer):
    """Each of `literals` one split, every other word of the segmenter one split (whitespace included)."""

    segmenter: Segmenter
    literals: tuple[str, ...] = ()
    TYPE: ClassVar[str] = "WordsAroundLiterals"

    def __post_init__(self) -> None:
        """The literals' pattern, longest first."""
        ordered = sorted(filter(None, self.literals), key=len, reverse=True)
        self._literal = regex.compile("|".join(map(regex.escape, ordered))) if ordered else None

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Cut every untokenized split."""
        pts.split(lambda _, ns: self._splits(ns))

    def _splits(self, ns: NormalizedString) -> list[NormalizedString]:
        """The literals' slices and the words' slices of one segment, in order."""
        text = ns.normalized
        pieces = []
        start = 0
        for match in self._literal.finditer(text) if self._literal else ():
            pieces += self._words(ns, start, match.start())
            pieces.append(ns.slice(match.start(), match.end()))
            start = match.end()
        return pieces + self._words(ns, start, len(text))

    def _words(self, ns: NormalizedString, start: int, end: int) -> list[NormalizedString]:
        """The slices of the segmenter's words in text[start:end]."""
        pieces = []
        for word in self.segmenter.cut(ns.normalized[start:end]):
            pieces.append(ns.slice(start, start + len(word)))
            start += len(word)
        return pieces

    def to_dict(self) -> dict[str, Any]:
        """Refused: tokenizer.json has no word-segmentation component."""
        raise UnsupportedConversion("pre_tokenizer: CpmAnt's jieba segmentation (with its space and line tokens cut "
                                    "out first) has no form in tokenizer.json")
