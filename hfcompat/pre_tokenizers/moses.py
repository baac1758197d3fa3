"""Moses tokenization as transformers' Moses classes run it (XLM, Flaubert, FSMT, BioGpt), on sacremoses.

Each text between added tokens goes through, in this order, the steps a class turns on: Flaubert's quote
and NFC rewrite, lowercasing, Moses' punctuation normalization (the fullwidth/CJK punctuation table,
sacremoses' MosesPunctNormalizer, removal of control and format characters), sacremoses' MosesTokenizer
(with escaping and aggressive dash splits as the class asks), and XLM's lowercasing with accents removed.
The words it returns are the pre-tokens; each covers its whole text (transformers gives no offsets).

sacremoses (the optional extra `moses`) is the component transformers itself calls for these steps. No
tokenizer.json holds them: `to_dict` raises UnsupportedConversion.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, ClassVar

from ..errors import UnsupportedConversion, import_optional
from ..pipeline.normalized import NormalizedString, PreTokenizedString
from .base import PreTokenizer

# Moses' replace-unicode-punctuation table, applied one after the other (a pattern ending in \s* takes the
# spaces after it too).
UNICODE_PUNCTUATION: tuple[tuple[str, str], ...] = (
    ("，", ","), (r"。\s*", ". "), ("、", ","), ("”", '"'), ("“", '"'), ("∶", ":"), ("：", ":"), ("？", "?"),
    ("《", '"'), ("》", '"'), ("）", ")"), ("！", "!"), ("（", "("), ("；", ";"), ("１", "1"), ("」", '"'),
    ("「", '"'), ("０", "0"), ("３", "3"), ("２", "2"), ("５", "5"), ("６", "6"), ("９", "9"), ("７", "7"),
    ("８", "8"), ("４", "4"), (r"．\s*", ". "), ("～", "~"), ("’", "'"), ("…", "..."), ("━", "-"), ("〈", "<"),
    ("〉", ">"), ("【", "["), ("】", "]"), ("％", "%"),
)
PURPOSE = "transformers' Moses-tokenizing classes (XLMTokenizer, FlaubertTokenizer, FSMTTokenizer, BioGptTokenizer)"


def sacremoses() -> ModuleType:
    """The sacremoses module, or MissingDependency saying to install hfcompat[moses]."""
    return import_optional("sacremoses", "moses", PURPOSE)


def replace_unicode_punctuation(text: str) -> str:
    """Moses' replace-unicode-punctuation: fullwidth and CJK punctuation as ASCII."""
    for pattern, replacement in UNICODE_PUNCTUATION:
        text = re.sub(pattern, replacement, text) if pattern.endswith(r"\s*") else text.replace(pattern, replacement)
    return text


def remove_non_printing(text: str) -> str:
    """Moses' remove-non-printing-char: every character of a C* category dropped."""
    return "".join(char for char in text if not unicodedata.category(char).startswith("C"))


def lowercase_and_remove_accents(words: list[str]) -> list[str]:
    """XLM's step on the Moses words: lowercased, NFD, combining marks (Mn) dropped, split again on " "."""
    text = unicodedata.normalize("NFD", " ".join(words).lower())
    return "".join(char for char in text if unicodedata.category(char) != "Mn").lower().split(" ")


def flaubert_quotes_nfc(text: str) -> str:
    """Flaubert's preprocessing: `` and '' as ", then NFC."""
    return unicodedata.normalize("NFC", text.replace("``", '"').replace("''", '"'))


@dataclass
class MosesPreTokenizer(PreTokenizer):
    """The Moses words of each split, after the steps the class turns on (see the module docstring)."""

    lang: str = "en"
    escape: bool = False
    aggressive_dash_splits: bool = False
    normalize_punctuation: bool = True
    lowercase: bool = False
    quotes_nfc: bool = False
    lowercase_remove_accents: bool = False
    _normalizer: Any = field(init=False, repr=False, compare=False)
    _tokenizer: Any = field(init=False, repr=False, compare=False)
    TYPE: ClassVar[str] = ""

    def __post_init__(self) -> None:
        module = sacremoses()
        self._normalizer = module.MosesPunctNormalizer(lang=self.lang)
        self._tokenizer = module.MosesTokenizer(lang=self.lang)

    def words(self, text: str) -> list[str]:
        """The non-empty words transformers' _tokenize hands to BPE for one text."""
        if self.quotes_nfc:
            text = flaubert_quotes_nfc(text)
        if self.lowercase:
            text = text.lower()
        if self.normalize_punctuation:
            text = remove_non_printing(self._normalizer.normalize(replace_unicode_punctuation(text)))
        words = self._tokenizer.tokenize(text, aggressive_dash_splits=self.aggressive_dash_splits,
                                         return_str=False, escape=self.escape)
        if self.lowercase_remove_accents:
            words = lowercase_and_remove_accents(words)
        return [word for word in words if word]

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Replace each split by its Moses words, each aligned to the whole split."""
        pts.split(lambda _, ns: self._word_strings(ns))

    def _word_strings(self, ns: NormalizedString) -> list[NormalizedString]:
        """The words of one split as normalized strings spanning all of its original text."""
        whole = (0, len(ns.original))
        return [NormalizedString(ns.original, word, [whole] * len(word), ns.original_shift)
                for word in self.words(ns.normalized)]

    def to_dict(self) -> dict[str, Any]:
        """Refused: tokenizer.json has no Moses pre-tokenizer."""
        steps = "punctuation normalization, MosesTokenizer" if self.normalize_punctuation else "MosesTokenizer"
        raise UnsupportedConversion(f"pre_tokenizer: Moses tokenization (sacremoses, lang {self.lang!r}: {steps}) has "
                                    "no form in tokenizer.json")
