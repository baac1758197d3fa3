"""Normalizers: edit a NormalizedString in place, exactly as HF `tokenizers` 0.23.3 does.

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
end lists where their Unicode versions differ from Python's `unicodedata`.
"""

from __future__ import annotations

import base64
import binascii
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar

import regex

from ..errors import FormatError
from ..pipeline.bytelevel import BYTE_TO_CHAR, bytes_to_chars
from ..pipeline.fields import as_bool, as_str, component_list, field_value, require_object
from ..pipeline.normalized import CHAR_CACHE_LIMIT, NormalizedString, replace_matches
from ..pipeline.oniguruma import compile_pattern
from .charsmap import CharsMap, precompiled_normalize, sentencepiece_normalize, sentencepiece_normalized


class Normalizer:
    """Base of all normalizers."""

    TYPE: ClassVar[str] = ""

    def normalize(self, ns: NormalizedString) -> None:
        """Normalize `ns` in place."""
        raise NotImplementedError

    def normalize_str(self, text: str) -> str:
        """The normalized form of a plain string."""
        ns = NormalizedString(text)
        self.normalize(ns)
        return ns.normalized

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form of this normalizer."""
        return {"type": self.TYPE}

    @classmethod
    def from_dict(cls, data: dict) -> "Normalizer":
        """Read the tokenizer.json form (field-less normalizers ignore any other key)."""
        return cls()


# --------------------------------------------------------------------------- char predicates

# BERT's "Chinese characters": the CJK ideograph blocks (not Hangul, Hiragana or Katakana).
_CHINESE_RANGES = (
    (0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F), (0x2B920, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F),
)
_CHINESE_SPLIT = regex.compile(
    "([" + "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in _CHINESE_RANGES) + "])")


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
_WHITESPACE = regex.compile(r"\p{White_Space}")  # Rust's char::is_whitespace

# ASCII: the controls BERT's cleaning drops (all but tab, newline, CR) and the ones it turns to ' '.
_ASCII_DROPPED = regex.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]").search
_ASCII_SPACES = regex.compile(r"[\t\n\r]")


# --------------------------------------------------------------------------- normalizers


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


_DECOMPOSED: dict[str, tuple[str, str]] = {}


def _decomposed(char: str) -> tuple[str, str]:
    """The NFD of `char`, and that NFD without its nonspacing marks (cached)."""
    pair = _DECOMPOSED.get(char)
    if pair is None:
        nfd = unicodedata.normalize("NFD", char)
        pair = (nfd, "".join(c for c in nfd if not is_nonspacing_mark(c)))
        if len(_DECOMPOSED) < CHAR_CACHE_LIMIT:
            _DECOMPOSED[char] = pair
    return pair


def _strip_accents(ns: NormalizedString) -> None:
    """BERT's accent stripping: NFD, then drop the nonspacing marks."""
    text = ns.normalized
    if text.isascii():
        return
    if unicodedata.is_normalized("NFD", text):
        _drop_chars(ns, _MAYBE_NONSPACING_MARK, is_nonspacing_mark)
        return
    pairs = [_DECOMPOSED.get(c) or _decomposed(c) for c in text]
    if "".join(nfd for nfd, _ in pairs) != unicodedata.normalize("NFD", text):
        # Marks reorder across chars: decompose the whole text, then filter.
        ns.nfd()
        _drop_chars(ns, _MAYBE_NONSPACING_MARK, is_nonspacing_mark)
        return
    # Each char's output keeps its span, as when HF decomposes and filters in two steps.
    ns.expand_chars([stripped for _, stripped in pairs])


def _space_chinese_chars(ns: NormalizedString) -> None:
    """Surround every CJK ideograph with spaces that share its span."""
    parts = _CHINESE_SPLIT.split(ns.normalized)  # [run, ideograph, run, ..., run]
    if len(parts) > 1:
        counts = b"\x03".join([b"\x01" * len(run) for run in parts[::2]])
        ns.expand_counts(" ".join(parts), counts)


def _drop_chars(ns: NormalizedString, candidates: "regex.Pattern[str]",
                drop: Callable[[str], bool]) -> None:
    """Remove the chars for which `drop` is true; `candidates` finds (a superset of) them fast."""
    text = ns.normalized
    counts = None
    pieces = []
    last = 0
    for match in candidates.finditer(text):
        position = match.start()
        if drop(match.group()):
            if counts is None:
                counts = bytearray(b"\x01") * len(text)
            counts[position] = 0
            pieces.append(text[last:position])
            last = position + 1
    if counts is not None:
        pieces.append(text[last:])
        ns.expand_counts("".join(pieces), counts)


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


@dataclass
class Strip(Normalizer):
    """Trim whitespace on the left and/or the right."""

    strip_left: bool = True
    strip_right: bool = True
    TYPE: ClassVar[str] = "Strip"

    def normalize(self, ns: NormalizedString) -> None:
        """Strip in place."""
        ns.strip(self.strip_left, self.strip_right)

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"type": self.TYPE, "strip_left": self.strip_left, "strip_right": self.strip_right}

    @classmethod
    def from_dict(cls, data: dict) -> "Strip":
        """Read the tokenizer.json form (both fields are mandatory)."""
        return cls(strip_left=_bool_field(data, "strip_left"),
                   strip_right=_bool_field(data, "strip_right"))


@dataclass
class StripAccents(Normalizer):
    """Remove every combining mark (Mn, Mc, Me); nothing is decomposed first."""

    TYPE: ClassVar[str] = "StripAccents"

    def normalize(self, ns: NormalizedString) -> None:
        """Drop the marks in place."""
        if not ns.normalized.isascii():
            _drop_chars(ns, _MAYBE_COMBINING_MARK, is_combining_mark)


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


@dataclass
class Replace(Normalizer):
    """Replace every match of a literal or an Oniguruma regex by a literal."""

    pattern: str
    content: str
    is_regex: bool = False  # False: `pattern` is a literal ({"String": ...}); True: {"Regex": ...}
    TYPE: ClassVar[str] = "Replace"
    _compiled: Any = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        """Compile the pattern now, so a bad one fails at load time."""
        if self.is_regex:
            self._compiled = _compile_regex(self.pattern)
        else:
            # HF escapes the literal into a regex, so an empty literal matches between all chars.
            self._compiled = regex.compile(regex.escape(self.pattern))

    def normalize(self, ns: NormalizedString) -> None:
        """Replace in place."""
        text = ns.normalized
        if not self.is_regex and self.pattern:
            if self.pattern not in text:
                return
            if len(self.pattern) == 1 and len(self.content) == 1:
                # One char for one char: each new char keeps the span of the char it replaces.
                ns.map_chars(text.replace(self.pattern, self.content))
                return
        ns.replace(self._compiled, self.content)

    def normalize_str(self, text: str) -> str:
        """The replaced string."""
        if not self.is_regex and self.pattern:
            return text.replace(self.pattern, self.content)
        return replace_matches(self._compiled, text, self.content)

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        kind = "Regex" if self.is_regex else "String"
        return {"type": self.TYPE, "pattern": {kind: self.pattern}, "content": self.content}

    @classmethod
    def from_dict(cls, data: dict) -> "Replace":
        """Read the tokenizer.json form: pattern {"String": s} or {"Regex": r}, and content."""
        pattern = field_value(data, "pattern")
        if not isinstance(pattern, dict) or len(pattern) != 1:
            raise FormatError(f'expected an object {{"String": ...}} or {{"Regex": ...}}, '
                              f"got {pattern!r}", field="pattern")
        (kind, value), = pattern.items()
        if kind not in ("String", "Regex"):
            raise FormatError(f"unknown variant {kind!r}, expected `String` or `Regex`",
                              field="pattern")
        value = as_str(value, f"pattern.{kind}")
        content = as_str(field_value(data, "content"), "content")
        return cls(pattern=value, content=content, is_regex=kind == "Regex")


def _compile_regex(pattern: str) -> "regex.Pattern[str]":
    """Compile an HF Regex pattern (Oniguruma syntax); a bad one names the field."""
    try:
        return compile_pattern(pattern)
    except (regex.error, ValueError) as exc:
        raise FormatError(f"invalid regex {pattern!r}: {exc}", field="pattern.Regex") from None


@dataclass
class Prepend(Normalizer):
    """Put a string in front of every non-empty segment."""

    prepend: str
    TYPE: ClassVar[str] = "Prepend"

    def normalize(self, ns: NormalizedString) -> None:
        """Prepend in place (an empty segment stays empty)."""
        if self.prepend:
            ns.prepend(self.prepend)
        elif ns.normalized:
            # HF re-inserts the first char after the (empty) prefix, so it loses its span.
            ns.transform_range(0, 1, [(ns.normalized[0], 1)])

    def normalize_str(self, text: str) -> str:
        """The prefixed string (an empty one stays empty)."""
        return self.prepend + text if text else text

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"type": self.TYPE, "prepend": self.prepend}

    @classmethod
    def from_dict(cls, data: dict) -> "Prepend":
        """Read the tokenizer.json form (prepend is mandatory)."""
        return cls(prepend=as_str(field_value(data, "prepend"), "prepend"))


# The number of UTF-8 bytes of the char a byte starts (0 for continuation bytes).
_UTF8_WIDTHS = bytes(0 if 0x80 <= b < 0xC0 else 1 if b < 0x80 else 2 if b < 0xE0 else
                     3 if b < 0xF0 else 4 for b in range(256))
_ASCII_BYTE_LEVEL = {b: BYTE_TO_CHAR[b] for b in range(0x80)}
_BYTE_LEVEL_SPACE = BYTE_TO_CHAR[0x20]


@dataclass
class ByteLevel(Normalizer):
    """Each UTF-8 byte becomes its byte-level char; all of a char's bytes share its span."""

    TYPE: ClassVar[str] = "ByteLevel"

    def normalize(self, ns: NormalizedString) -> None:
        """Map in place."""
        text = ns.normalized
        if text.isascii():
            if text.isprintable():  # only the space is not its own byte-level char
                ns.map_chars(text.replace(" ", _BYTE_LEVEL_SPACE))
            else:
                ns.map_chars(text.translate(_ASCII_BYTE_LEVEL))
            return
        data = text.encode("utf-8")
        widths = data.translate(_UTF8_WIDTHS).replace(b"\x00", b"")
        ns.expand_counts(bytes_to_chars(data), widths)


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


class Precompiled(Normalizer):
    """SentencePiece's precompiled charsmap, applied the way HF applies it (see charsmap.py).

    With `longest_match`, it is applied the way SentencePiece itself does (the longest rule at
    each position), leaving the `protected` strings (a model's user-defined symbols) as they
    are where they begin. tokenizer.json can say neither: the JSON form is the same either way.
    """

    TYPE: ClassVar[str] = "Precompiled"

    def __init__(self, charsmap: CharsMap, longest_match: bool = False, protected: tuple[str, ...] = ()):
        self.charsmap = charsmap
        self.longest_match = longest_match
        self.protected = protected

    def normalize(self, ns: NormalizedString) -> None:
        """Replace grapheme clusters (or chars) by their charsmap rules."""
        if self.longest_match:
            sentencepiece_normalize(self.charsmap, ns, self.protected)
        else:
            precompiled_normalize(self.charsmap, ns)

    def normalize_str(self, text: str) -> str:
        """The normalized string; SentencePiece's way needs no alignments to compute it."""
        if self.longest_match:
            return sentencepiece_normalized(self.charsmap, text, self.protected)
        return super().normalize_str(text)

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form: the blob in standard base64."""
        return {"type": self.TYPE,
                "precompiled_charsmap": base64.b64encode(self.charsmap.to_bytes()).decode("ascii")}

    @classmethod
    def from_dict(cls, data: dict) -> "Precompiled":
        """Read the base64 blob; an empty or unparsable one is refused, as HF does."""
        encoded = as_str(field_value(data, "precompiled_charsmap"), "precompiled_charsmap")
        try:
            blob = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            raise FormatError("not valid base64", field="precompiled_charsmap") from None
        if not blob:
            raise FormatError("Cannot parse precompiled_charsmap: it is empty",
                              field="precompiled_charsmap")
        return cls(CharsMap.from_bytes(blob))


# --------------------------------------------------------------------------- reading


def _bool_field(data: dict, name: str) -> bool:
    """A mandatory boolean field."""
    return as_bool(field_value(data, name), name)


# The "type" tags HF reads directly ("Bert" is its tag for BertNormalizer).
NORMALIZER_TYPES: dict[str, type[Normalizer]] = {
    "Bert": BertNormalizer, "Strip": Strip, "StripAccents": StripAccents, "NFC": NFC, "NFD": NFD,
    "NFKC": NFKC, "NFKD": NFKD, "Sequence": Sequence, "Lowercase": Lowercase, "Nmt": Nmt,
    "Precompiled": Precompiled, "Replace": Replace, "Prepend": Prepend, "ByteLevel": ByteLevel,
}
# What HF tries, in order, for an object whose "type" is not a known tag. The field-less
# normalizers are absent: untagged, they would need a "type" naming them, which is a known tag.
_UNTAGGED_ORDER: tuple[type[Normalizer], ...] = (BertNormalizer, Strip, Sequence, Replace, Prepend)


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
    cls = NORMALIZER_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is not None:
        return cls.from_dict(data)
    errors: dict[type[Normalizer], FormatError] = {}
    for candidate in _UNTAGGED_ORDER:
        try:
            return candidate.from_dict(data)
        except FormatError as exc:
            errors[candidate] = exc
    if kind == BertNormalizer.TYPE:
        raise errors[BertNormalizer]
    known = ", ".join(["BertNormalizer", *(t for t in NORMALIZER_TYPES if t != "Bert")])
    if "type" not in data:
        raise FormatError(f"missing normalizer type (one of {known}), and the fields match none",
                          field="type")
    raise FormatError(f"unknown normalizer type {kind!r} (expected one of {known})", field="type")


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
