"""transformers' BasicTokenizer text steps, with Python's own Unicode tables (not the Rust crates' older ones).

The Python tokenizers built on BERT's basic tokenization (ProphetNetTokenizer, RoCBertTokenizer,
BertJapaneseTokenizer, ...) clean the text (drop NUL, U+FFFD and every category C* char but tab, newline and CR;
turn those and Zs into a space), space out CJK ideographs, apply NFC, then lowercase with str.lower (Greek
capital sigma becomes final sigma at a word's end) and strip accents (NFD, then drop the Mn chars), all with
`unicodedata` as the running Python has it. tokenizers' BertNormalizer differs in each of these on some text.
No tokenizer.json normalizer does this: `to_dict` raises UnsupportedConversion.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import UnsupportedConversion
from ..pipeline.normalized import NormalizedString
from .base import Normalizer

# BasicTokenizer's CJK ideograph ranges (from U+2B820, where tokenizers' table starts at U+2B920).
CHINESE_RANGES = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F), (0x2B740, 0x2B81F),
                  (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F))
CAPITAL_SIGMA = "\u03a3"


def is_control(char: str) -> bool:
    """BasicTokenizer's control char: any category C* but tab, newline and carriage return."""
    return char not in "\t\n\r" and unicodedata.category(char)[0] == "C"


def is_whitespace(char: str) -> bool:
    """BasicTokenizer's whitespace: space, tab, newline, carriage return or category Zs."""
    return char in " \t\n\r" or unicodedata.category(char) == "Zs"


def is_chinese_char(char: str) -> bool:
    """A CJK ideograph, as BasicTokenizer's ranges have it."""
    code = ord(char)
    return any(first <= code <= last for first, last in CHINESE_RANGES)


def replace_each_char(ns: NormalizedString, pieces: list[str]) -> None:
    """Char i becomes pieces[i]; each char of it keeps char i's span."""
    sources = [index for index, piece in enumerate(pieces) for _ in piece]
    ns.expand_from("".join(pieces), sources)


def python_normal_form(ns: NormalizedString, form: str) -> None:
    """unicodedata.normalize(form) of the text; a run that changes across chars (composition, reordering) takes
    the span of its first char for every char of its result (normalization never crosses whitespace)."""
    text = ns.normalized
    if text.isascii() or unicodedata.is_normalized(form, text):
        return
    chars: list[str] = []
    sources: list[int] = []
    start = 0
    for end in [i for i, c in enumerate(text) if c.isspace()] + [len(text)]:
        run = text[start:end]
        pieces = [unicodedata.normalize(form, c) for c in run]
        if "".join(pieces) == unicodedata.normalize(form, run):
            for offset, piece in enumerate(pieces):
                chars.append(piece)
                sources += [start + offset] * len(piece)
        elif run:
            normalized = unicodedata.normalize(form, run)
            chars.append(normalized)
            sources += [start] * len(normalized)
        if end < len(text):
            chars.append(text[end])
            sources.append(end)
        start = end + 1
    ns.expand_from("".join(chars), sources)


def python_lowercase(ns: NormalizedString) -> None:
    """str.lower() of the text, each char's result keeping its span (sigma's form from the whole text's)."""
    text = ns.normalized
    lowered = text.lower()
    if len(lowered) == len(text):
        ns.map_chars(lowered)
        return
    pieces, position = [], 0
    for char in text:
        piece = lowered[position] if char == CAPITAL_SIGMA else char.lower()
        pieces.append(piece)
        position += len(piece)
    replace_each_char(ns, pieces)


@dataclass
class BasicTokenizerNormalizer(Normalizer):
    """Clean, space out CJK ideographs (handle_chinese_chars), NFC, lowercase, strip accents (None: when
    lowercasing), as transformers' BasicTokenizer does before it splits the text."""

    lowercase: bool = True
    strip_accents: bool | None = None
    handle_chinese_chars: bool = True
    TYPE: ClassVar[str] = "BasicTokenizer"

    def normalize(self, ns: NormalizedString) -> None:
        """The steps in BasicTokenizer's order."""
        ns.filter(lambda c: c != "\x00" and c != "\ufffd" and not is_control(c))
        ns.map_chars("".join(" " if is_whitespace(c) else c for c in ns.normalized))
        if self.handle_chinese_chars and any(map(is_chinese_char, ns.normalized)):
            replace_each_char(ns, [f" {c} " if is_chinese_char(c) else c for c in ns.normalized])
        python_normal_form(ns, "NFC")
        if self.lowercase:
            python_lowercase(ns)
        if self.strip_accents if self.strip_accents is not None else self.lowercase:
            python_normal_form(ns, "NFD")
            ns.filter(lambda c: unicodedata.category(c) != "Mn")

    def to_dict(self) -> dict[str, Any]:
        """Refused: tokenizers' BertNormalizer uses older Unicode tables, no NFC and no final sigma."""
        raise UnsupportedConversion("normalizer: transformers' BasicTokenizer (Python's Unicode tables, NFC, "
                                    "str.lower) has no exact form in tokenizer.json")
