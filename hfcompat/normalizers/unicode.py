"""Unicode normal forms (NFC, NFD, NFKC, NFKD), Lowercase and Nmt, and the character predicates.

The predicates follow the Rust crates HF uses; the "Unicode versions" section at the end lists
where their Unicode versions differ from Python's `unicodedata`.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import ClassVar

import regex

from ..pipeline.normalized import NormalizedString
from .base import Normalizer, _drop_chars


# --------------------------------------------------------------------------- char predicates


def is_bert_control(char: str) -> bool:
    """BERT's "control": Cc, Cf or Co as of Unicode 8.0, except tab, newline and CR.

    Unassigned (Cn) chars are kept, like HF's `unicode_categories` crate does.
    """
    if char in "\t\n\r":
        return False
    category = unicodedata.category(char)
    if category == "Cf":
        return char not in _CF_AFTER_UNICODE_8
    return category == "Cc" or category == "Co"


def is_nonspacing_mark(char: str) -> bool:
    """General category Mn as of Unicode 8.0, the marks BERT's accent stripping removes."""
    if unicodedata.category(char) == "Mn":
        return char not in _MN_AFTER_UNICODE_8
    return char in _MN_ONLY_IN_UNICODE_8


def is_combining_mark(char: str) -> bool:
    """General category M* (Mn, Mc, Me) as of Unicode 9.0, the marks StripAccents removes."""
    if unicodedata.category(char)[0] == "M":
        return char not in _MARKS_AFTER_UNICODE_9
    return char in _MARKS_ONLY_IN_UNICODE_9


# Supersets of the chars each predicate above accepts, found at C speed with `regex` (whose
# Unicode tables are at least as new as the old crates'; the listed category changes are added).
_MAYBE_BERT_DROPPED = regex.compile(r"[\p{Cc}\p{Cf}\p{Co}\ufffd]")
_MAYBE_NONSPACING_MARK = regex.compile(r"[\p{Mn}\u1734\U0001171E]")
_MAYBE_COMBINING_MARK = regex.compile(r"[\p{M}\u1CF2\u1CF3]")


# --------------------------------------------------------------------------- normalizers


@dataclass
class NFC(Normalizer):
    """Canonical decomposition then composition."""

    TYPE: ClassVar[str] = "NFC"

    def normalize(self, ns: NormalizedString) -> None:
        """Apply NFC, aligned as HF's `unicode-normalization-alignments` does."""
        ns.nfc()


@dataclass
class NFD(Normalizer):
    """Canonical decomposition."""

    TYPE: ClassVar[str] = "NFD"

    def normalize(self, ns: NormalizedString) -> None:
        """Apply NFD, aligned as HF's `unicode-normalization-alignments` does."""
        ns.nfd()


@dataclass
class NFKC(Normalizer):
    """Compatibility decomposition then canonical composition."""

    TYPE: ClassVar[str] = "NFKC"

    def normalize(self, ns: NormalizedString) -> None:
        """Apply NFKC, aligned as HF's `unicode-normalization-alignments` does."""
        ns.nfkc()


@dataclass
class NFKD(Normalizer):
    """Compatibility decomposition."""

    TYPE: ClassVar[str] = "NFKD"

    def normalize(self, ns: NormalizedString) -> None:
        """Apply NFKD, aligned as HF's `unicode-normalization-alignments` does."""
        ns.nfkd()


@dataclass
class Lowercase(Normalizer):
    """Lowercase each char without context, as Rust's `to_lowercase`."""

    TYPE: ClassVar[str] = "Lowercase"

    def normalize(self, ns: NormalizedString) -> None:
        """Lowercase in place."""
        ns.lowercase()


# Nmt: the chars it drops, and the ones it turns into a plain space.
_NMT_DROPPED = regex.compile(r"[\x01-\x08\x0b\x0e-\x1f\x7f\x8f\x9f]")
_NMT_SPACES = regex.compile(r"[\t\n\x0c\r\u1680\u200b-\u200f\u2028\u2029\u2581\ufeff\ufffd]")


@dataclass
class Nmt(Normalizer):
    """The NMT cleanup: drop ASCII/C1 controls, turn assorted spaces and marks into ' '."""

    TYPE: ClassVar[str] = "Nmt"

    def normalize(self, ns: NormalizedString) -> None:
        """Drop, then map, in place."""
        if ns.normalized.isascii() and ns.normalized.isprintable():
            return
        _drop_chars(ns, _NMT_DROPPED, lambda c: True)
        if _NMT_SPACES.search(ns.normalized):
            ns.map_chars(_NMT_SPACES.sub(" ", ns.normalized))


# --------------------------------------------------------------------------- Unicode versions
#
# HF takes general categories from two old crates: `unicode_categories` 0.1.1 (Unicode 8.0: BERT's
# controls and Mn) and `unicode-normalization-alignments` (Unicode 9.0: StripAccents' marks).
# Python's `unicodedata` is newer, so the chars assigned since then, and the few whose category
# changed, are listed here (through Unicode 17.0, so any Python up to that version agrees). The
# lists were checked on every code point against tokenizers 0.23.3.


def _code_points(ranges: str) -> frozenset[str]:
    """The chars of a list like "07FD 0898-089F" (hex code points and inclusive ranges)."""
    chars = set()
    for item in ranges.split():
        first, _, last = item.partition("-")
        chars.update(chr(c) for c in range(int(first, 16), int(last or first, 16) + 1))
    return frozenset(chars)


_CF_AFTER_UNICODE_8 = _code_points("0890-0891 08E2 110CD 13430-1343F")
_MN_AFTER_UNICODE_8 = _code_points(
    "05C8-05C9 07FD 0897-089F 08CA-08E1 09FE 0AFA-0AFF 0B53-0B55 0C04 0C3C 0D00 0D3B-0D3C 0D81"
    " 0EBA 0ECE 180F 1885-1886 1ABF-1AF0 1DF6-1DFB A82C A8C5 A8FF A9BD 10D24-10D27 10D69-10D6D"
    " 10EAB-10EAC 10ECB-10ECF 10EF0-10EFF 10F46-10F50 10F82-10F85 11070 11073-11074 110C2 111C9"
    " 111CF 1123E 11241 1133B 113BB-113C0 113CE 113D0 113D2 113E1-113E2 11438-1143F 11442-11444"
    " 11446 1145E 1182F-11837 11839-1183A 1193B-1193C 1193E 11943 119D4-119D7 119DA-119DB 119E0"
    " 11A01-11A0A 11A33-11A38 11A3B-11A3E 11A47 11A51-11A56 11A59-11A5B 11A8A-11A96 11A98-11A99"
    " 11B60 11B62-11B64 11B66 11C30-11C36 11C38-11C3D 11C3F 11C92-11CA7 11CAA-11CB0 11CB2-11CB3"
    " 11CB5-11CB6 11D31-11D36 11D3A 11D3C-11D3D 11D3F-11D45 11D47 11D90-11D91 11D95 11D97 11DF0"
    " 11EF3-11EF4 11F00-11F01 11F36-11F3A 11F40 11F42 11F5A 13440 13447-13455 1611E-16129"
    " 1612D-1612F 16F4F 16FE4 1CF00-1CF2D 1CF30-1CF46 1D127-1D128 1D25B-1D25C 1E000-1E006"
    " 1E008-1E018 1E01B-1E021 1E023-1E024 1E026-1E02A 1E08F 1E130-1E136 1E2AE 1E2EC-1E2EF"
    " 1E4EC-1E4EF 1E5EE-1E5EF 1E6E3 1E6E6 1E6EE-1E6EF 1E6F5 1E944-1E94A"
)
_MN_ONLY_IN_UNICODE_8 = _code_points("1734 1171E")  # Mn then, Mc now
_MARKS_AFTER_UNICODE_9 = _code_points(
    "05C8-05C9 07FD 0897-089F 08CA-08D3 09FE 0AFA-0AFF 0B53-0B55 0C04 0C3C 0CF3 0D00 0D3B-0D3C"
    " 0D81 0EBA 0ECE 1715 180F 1ABF-1AF0 1CF7 1DF6-1DFA A82C A8FF 10D24-10D27 10D69-10D6D"
    " 10EAB-10EAC 10ECB-10ECF 10EF0-10EFF 10F46-10F50 10F82-10F85 11070 11073-11074 110C2"
    " 11145-11146 111C9 111CE-111CF 11241 1133B 113B8-113C0 113C2 113C5 113C7-113CA 113CC-113D0"
    " 113D2 113E1-113E2 1145E 1182C-1183A 11930-11935 11937-11938 1193B-1193E 11940 11942-11943"
    " 119D1-119D7 119DA-119E0 119E4 11A01-11A0A 11A33-11A39 11A3B-11A3E 11A47 11A51-11A5B"
    " 11A8A-11A99 11B60-11B67 11D31-11D36 11D3A 11D3C-11D3D 11D3F-11D45 11D47 11D8A-11D8E"
    " 11D90-11D91 11D93-11D97 11DF0 11EF3-11EF6 11F00-11F01 11F03 11F34-11F3A 11F3E-11F42 11F5A"
    " 13440 13447-13455 1611E-1612F 16F4F 16F7F-16F87 16FE4 16FF0-16FF1 1CF00-1CF2D 1CF30-1CF46"
    " 1D127-1D128 1D250-1D252 1D25B-1D25C 1D25F 1D280-1D281 1E08F 1E130-1E136 1E2AE 1E2EC-1E2EF"
    " 1E4EC-1E4EF 1E5EE-1E5EF 1E6E3 1E6E6 1E6EE-1E6EF 1E6F5"
)
_MARKS_ONLY_IN_UNICODE_9 = _code_points("1CF2-1CF3")  # Mc then, Lo now
