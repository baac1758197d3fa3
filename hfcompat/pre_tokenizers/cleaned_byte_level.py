"""The words transformers' ClvpTokenizer hands to its byte-level BPE: each piece of text between added tokens
cleaned first (`clean`, normalizers/english_cleaners.py for CLVP), cut with GPT-2's pattern (the `regex`
module, as the class runs it), and each word written as GPT-2's byte-level characters (pipeline/bytelevel.py).
Each word covers its whole piece (the cleaning moves the text; transformers gives no offsets). No
tokenizer.json holds the cleaning: `to_dict` raises UnsupportedConversion.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar

import regex

from ..errors import UnsupportedConversion
from ..pipeline.bytelevel import bytes_to_chars
from ..pipeline.normalized import PreTokenizedString
from .base import PreTokenizer, words_spanning_split

# GPT-2's word pattern, as transformers' Python byte-level classes write it (case-sensitive contractions).
GPT2_WORDS = regex.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")


@dataclass
class CleanedByteLevel(PreTokenizer):
    """The byte-level GPT-2 words of each split once `clean` rewrote it."""

    clean: Callable[[str], str]
    TYPE: ClassVar[str] = ""

    def words(self, text: str) -> list[str]:
        """The byte-level words of one piece of text."""
        return [bytes_to_chars(word.encode("utf-8")) for word in GPT2_WORDS.findall(self.clean(text))]

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Replace each split by its words, each aligned to the whole split."""
        pts.split(lambda _, ns: words_spanning_split(ns, self.words(ns.normalized)))

    def to_dict(self) -> dict[str, Any]:
        """Refused: tokenizer.json has no text cleaning of this kind."""
        raise UnsupportedConversion(f"pre_tokenizer: the text cleaning {getattr(self.clean, '__name__', 'step')} "
                                    "before GPT-2's byte-level words has no form in tokenizer.json")
