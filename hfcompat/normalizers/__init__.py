"""Normalizers: edit a NormalizedString in place, exactly as HF `tokenizers` 0.23.3 does.

One module per family, as in HF's crate: the Normalizer base class and the helpers the
normalizers share (base.py); NFC, NFD, NFKC, NFKD, Lowercase, Nmt and the Unicode character
predicates (unicode.py); BertNormalizer (bert.py); Strip and StripAccents (strip.py); Replace
and Prepend (replace.py); ByteLevel (byte_level.py); Precompiled (precompiled.py). Sequence,
`flatten` and `from_dict` are here.

The folder also holds SentencePiece's normalizer machinery: the precompiled charsmap and its
longest-match walk (charsmap.py), its builder (charsmap_builder.py) and the named rule sets
sentencepiece builds it from (normalization_rules.py).

Every normalizer has `normalize(ns)` (in place, keeping the alignments to the original),
`normalize_str(text)` and `to_dict()`; `from_dict(d)` reads the tokenizer.json "normalizer"
object with HF's rules: a known "type" selects the normalizer and its mandatory fields; an object
without a known "type" is tried, in HF's order, as each normalizer that can be read untagged
(BertNormalizer, Strip, Sequence, Replace, Prepend). "BertNormalizer" is itself not a known
"type" to HF (its tag is "Bert"), so it is always read that way.

The character predicates follow the Rust crates HF uses; the "Unicode versions" section at the
end of unicode.py lists where their Unicode versions differ from Python's `unicodedata`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from .._lazy import lazy_names
from ..errors import FormatError
from ..pipeline.fields import component_list, require_object
from ..pipeline.normalized import NormalizedString
from .base import Normalizer

if TYPE_CHECKING:
    from .bert import BertNormalizer
    from .charsmap import charsmap_rules, sentencepiece_normalized
    from .byte_level import ByteLevel
    from .precompiled import Precompiled
    from .replace import Prepend, Replace
    from .strip import Strip, StripAccents
    from .unicode import NFC, NFD, NFKC, NFKD, Lowercase, Nmt, is_bert_control, is_combining_mark, is_nonspacing_mark

# Each normalizer's module, imported when the normalizer is first used (a GPT-2 load needs none).
__getattr__ = lazy_names(__name__, {
    "BertNormalizer": "bert", "ByteLevel": "byte_level", "Precompiled": "precompiled", "Prepend": "replace",
    "Replace": "replace", "Strip": "strip", "StripAccents": "strip", "NFC": "unicode", "NFD": "unicode",
    "NFKC": "unicode", "NFKD": "unicode", "Lowercase": "unicode", "Nmt": "unicode", "is_bert_control": "unicode",
    "is_combining_mark": "unicode", "is_nonspacing_mark": "unicode", "sentencepiece_normalized": "charsmap",
    "charsmap_rules": "charsmap"})

__all__ = [
    "Normalizer", "BertNormalizer", "NFC", "NFD", "NFKC", "NFKD", "Lowercase", "Strip", "StripAccents",
    "Nmt", "Replace", "Prepend", "ByteLevel", "Precompiled", "Sequence", "NORMALIZER_TYPES", "flatten",
    "from_dict", "is_bert_control", "is_nonspacing_mark", "is_combining_mark", "sentencepiece_normalized",
    "charsmap_rules",
]


@dataclass
class Sequence(Normalizer):
    """Run normalizers one after the other."""

    normalizers: list[Normalizer] = field(default_factory=list)
    TYPE: ClassVar[str] = "Sequence"

    def normalize(self, ns: NormalizedString) -> None:
        """Run each normalizer in order."""
        for normalizer in self.normalizers:
            normalizer.normalize(ns)

    def normalize_str(self, text: str) -> str:
        """Each normalizer's string form in order."""
        for normalizer in self.normalizers:
            text = normalizer.normalize_str(text)
        return text

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"type": self.TYPE, "normalizers": [n.to_dict() for n in self.normalizers]}

    @classmethod
    def from_dict(cls, data: dict) -> "Sequence":
        """Read the tokenizer.json form (normalizers is mandatory)."""
        return cls(component_list(data, "normalizers", from_dict))


# --------------------------------------------------------------------------- reading


# The "type" tags HF reads directly, each with its class's name ("Bert" is HF's tag for BertNormalizer).
NORMALIZER_TYPES: dict[str, str] = {
    "Bert": "BertNormalizer", "Strip": "Strip", "StripAccents": "StripAccents", "NFC": "NFC", "NFD": "NFD",
    "NFKC": "NFKC", "NFKD": "NFKD", "Sequence": "Sequence", "Lowercase": "Lowercase", "Nmt": "Nmt",
    "Precompiled": "Precompiled", "Replace": "Replace", "Prepend": "Prepend", "ByteLevel": "ByteLevel",
}
# What HF tries, in order, for an object whose "type" is not a known tag. The field-less
# normalizers are absent: untagged, they would need a "type" naming them, which is a known tag.
_UNTAGGED_ORDER = ("BertNormalizer", "Strip", "Sequence", "Replace", "Prepend")


def normalizer_class(name: str) -> type[Normalizer]:
    """The normalizer class of this name, its module imported on first use."""
    found: type[Normalizer] = Sequence if name == "Sequence" else __getattr__(name)
    return found


def flatten(normalizer: Any) -> list[Any]:
    """The normalizers of a (possibly Sequence) normalizer, flattened."""
    if normalizer is None:
        return []
    inner = getattr(normalizer, "normalizers", None)
    if inner is None:
        return [normalizer]
    return [leaf for item in inner for leaf in flatten(item)]


def from_dict(data: Any) -> Normalizer:
    """Build a normalizer from its tokenizer.json form."""
    data = require_object(data, "a normalizer")
    kind = data.get("type")
    name = NORMALIZER_TYPES.get(kind) if isinstance(kind, str) else None
    if name is not None:
        return normalizer_class(name).from_dict(data)
    errors: dict[str, FormatError] = {}
    for candidate in _UNTAGGED_ORDER:
        try:
            return normalizer_class(candidate).from_dict(data)
        except FormatError as exc:
            errors[candidate] = exc
    if kind == normalizer_class("BertNormalizer").TYPE:
        raise errors["BertNormalizer"]
    known = ", ".join(["BertNormalizer", *(t for t in NORMALIZER_TYPES if t != "Bert")])
    if "type" not in data:
        raise FormatError(f"missing normalizer type (one of {known}), and the fields match none",
                          field="type")
    raise FormatError(f"unknown normalizer type {kind!r} (expected one of {known})", field="type")
