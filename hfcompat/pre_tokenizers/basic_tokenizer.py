"""transformers' BasicTokenizer split: on Python's whitespace (str.split), then each punctuation char alone.

Punctuation is BasicTokenizer's: the non-alphanumeric ASCII symbols and every category P* char of Python's
`unicodedata` (tokenizers' BertPreTokenizer has older tables and Rust's whitespace). Optionally each word is then
NFKC-normalized and cut into single characters, as BertJapaneseTokenizer's character subword tokenizer does.
No tokenizer.json pre-tokenizer does either exactly: `to_dict` raises UnsupportedConversion.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import UnsupportedConversion
from ..normalizers.basic_tokenizer import python_normal_form
from ..pipeline.normalized import NormalizedString, PreTokenizedString
from .base import SplitWise

ASCII_PUNCTUATION = frozenset(chr(code) for first, last in ((33, 47), (58, 64), (91, 96), (123, 126))
                              for code in range(first, last + 1))


def is_punctuation(char: str) -> bool:
    """BasicTokenizer's punctuation: an ASCII symbol or a category P* char."""
    return char in ASCII_PUNCTUATION or unicodedata.category(char)[0] == "P"


def basic_words(ns: NormalizedString) -> list[NormalizedString]:
    """The words of BasicTokenizer: whitespace removed, each punctuation char on its own."""
    return [piece for word in ns.split(str.isspace, "removed") for piece in word.split(is_punctuation, "isolated")]


def nfkc_characters(ns: NormalizedString) -> list[NormalizedString]:
    """A word in NFKC (Python's tables), one piece per character (a space it yields too)."""
    python_normal_form(ns, "NFKC")
    return ns.split(lambda _: True, "isolated")


@dataclass
class BasicTokenizerSplit(SplitWise):
    """BasicTokenizer's words; with `characters`, each word in NFKC cut into characters (BertJapanese's
    subword_tokenizer_type "character")."""

    characters: bool = False
    TYPE: ClassVar[str] = "BasicTokenizer"

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Split every split into its words (then characters)."""
        pts.split(lambda _, ns: basic_words(ns))
        if self.characters:
            pts.split(lambda _, ns: nfkc_characters(ns))

    def to_dict(self) -> dict[str, Any]:
        """Refused: no tokenizer.json pre-tokenizer splits with Python's whitespace and punctuation."""
        raise UnsupportedConversion("pre_tokenizer: transformers' BasicTokenizer split (Python's whitespace and "
                                    "punctuation tables) has no exact form in tokenizer.json")
