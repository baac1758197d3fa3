"""BertNormalizer: clean the text, space out CJK ideographs, strip accents, lowercase."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, ClassVar

import regex

from ..pipeline.fields import as_bool
from ..pipeline.normalized import CHAR_CACHE_LIMIT, NormalizedString, newer_than_hf
from .base import Normalizer, _bool_field, _drop_chars
from .unicode import _MAYBE_BERT_DROPPED, _MAYBE_NONSPACING_MARK, is_bert_control, is_nonspacing_mark


# BERT's "Chinese characters": the CJK ideograph blocks (not Hangul, Hiragana or Katakana).
_CHINESE_RANGES = (
    (0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F), (0x2B920, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F),
)
_CHINESE_SPLIT = regex.compile(
    "([" + "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in _CHINESE_RANGES) + "])")


_WHITESPACE = regex.compile(r"\p{White_Space}")  # Rust's char::is_whitespace

# ASCII: the controls BERT's cleaning drops (all but tab, newline, CR) and the ones it turns to ' '.
_ASCII_DROPPED = regex.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]").search
_ASCII_SPACES = regex.compile(r"[\t\n\r]")


@dataclass
class BertNormalizer(Normalizer):
    """BERT: drop controls and unify whitespace, space out CJK, strip accents, lowercase."""

    clean_text: bool = True
    handle_chinese_chars: bool = True
    strip_accents: bool | None = None  # None: strip accents exactly when lowercasing
    lowercase: bool = True
    TYPE: ClassVar[str] = "BertNormalizer"

    def normalize(self, ns: NormalizedString) -> None:
        """The four steps in HF's order; ASCII text takes a 1:1 shortcut."""
        if ns.normalized.isascii() and self._normalize_ascii(ns):
            return
        if self.clean_text:
            _clean_text(ns)
        if self.handle_chinese_chars:
            _space_chinese_chars(ns)
        if self.strip_accents if self.strip_accents is not None else self.lowercase:
            _strip_accents(ns)
        if self.lowercase:
            ns.lowercase()

    def _normalize_ascii(self, ns: NormalizedString) -> bool:
        """All four steps on ASCII text when nothing is dropped (NFD and CJK are no-ops there)."""
        text = ns.normalized
        if self.clean_text and not text.isprintable():  # ASCII: a char in U+0000..U+001F, U+007F
            if _ASCII_DROPPED(text):
                return False
            text = _ASCII_SPACES.sub(" ", text)
        ns.map_chars(text.lower() if self.lowercase else text)
        return True

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"type": self.TYPE, "clean_text": self.clean_text,
                "handle_chinese_chars": self.handle_chinese_chars,
                "strip_accents": self.strip_accents, "lowercase": self.lowercase}

    @classmethod
    def from_dict(cls, data: dict) -> "BertNormalizer":
        """Read the tokenizer.json form; strip_accents may be null or absent, the rest not."""
        strip_accents = data.get("strip_accents")
        if strip_accents is not None:
            strip_accents = as_bool(strip_accents, "strip_accents")
        return cls(clean_text=_bool_field(data, "clean_text"),
                   handle_chinese_chars=_bool_field(data, "handle_chinese_chars"),
                   strip_accents=strip_accents,
                   lowercase=_bool_field(data, "lowercase"))


def _clean_text(ns: NormalizedString) -> None:
    """Drop NUL, U+FFFD and controls, then turn every whitespace into a plain space."""
    _drop_chars(ns, _MAYBE_BERT_DROPPED, lambda c: c == "\ufffd" or is_bert_control(c))
    if _WHITESPACE.search(ns.normalized):
        ns.map_chars(_WHITESPACE.sub(" ", ns.normalized))


class _Decomposed(dict):
    """char -> (its NFD, that NFD without its nonspacing marks), computed on first use and kept
    (up to CHAR_CACHE_LIMIT chars): `map(DECOMPOSED.__getitem__, text)` looks a text up in C."""

    def __missing__(self, char: str) -> tuple[str, str]:
        """Decompose a char not seen before."""
        nfd = unicodedata.normalize("NFD", char)
        pair = (nfd, "".join(c for c in nfd if not is_nonspacing_mark(c)))
        if len(self) < CHAR_CACHE_LIMIT:
            self[char] = pair
        return pair


_DECOMPOSED = _Decomposed()


def _strip_accents(ns: NormalizedString) -> None:
    """BERT's accent stripping: NFD, then drop the nonspacing marks."""
    text = ns.normalized
    if text.isascii():
        return
    if unicodedata.is_normalized("NFD", text):
        _drop_chars(ns, _MAYBE_NONSPACING_MARK, is_nonspacing_mark)
        return
    pairs = list(map(_DECOMPOSED.__getitem__, text))
    if "".join(map(itemgetter(0), pairs)) != unicodedata.normalize("NFD", text) or newer_than_hf("NFD", text):
        # Marks reorder across chars, or a char HF's older tables do not decompose: decompose
        # the whole text as HF does, then filter.
        ns.nfd()
        _drop_chars(ns, _MAYBE_NONSPACING_MARK, is_nonspacing_mark)
        return
    # Each char's output keeps its span, as when HF decomposes and filters in two steps.
    ns.expand_chars(list(map(itemgetter(1), pairs)))


def chinese_char_runs(text: str) -> list[str]:
    """`text` cut around each CJK ideograph (tokenizers' ranges): [run, ideograph, run, ..., run]."""
    return _CHINESE_SPLIT.split(text)


def _space_chinese_chars(ns: NormalizedString) -> None:
    """Surround every CJK ideograph with spaces that share its span."""
    parts = _CHINESE_SPLIT.split(ns.normalized)  # [run, ideograph, run, ..., run]
    if len(parts) > 1:
        counts = b"\x03".join([b"\x01" * len(run) for run in parts[::2]])
        ns.expand_counts(" ".join(parts), counts)
