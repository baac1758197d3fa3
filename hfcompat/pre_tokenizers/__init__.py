"""Pre-tokenizers: cut each normalized segment into the pieces the model tokenizes.

The folder also holds the translation of tiktoken's (fancy-regex) patterns to Python `regex`
(tiktoken_pattern.py).

Each class follows HF `tokenizers` 0.23.3 exactly (pieces, offsets, JSON form):
`pre_tokenize(pts)` splits a PreTokenizedString in place, `pre_tokenize_str(text)` returns
`[(piece, (start, end))]` with char offsets into `text` like the Python binding, `to_dict()`
gives the tokenizer.json object, and the module-level `from_dict` reads one back.

The character classes are HF's: Rust's `char::is_whitespace` (White_Space) and
`char::is_numeric` (N*), the `unicode_categories` crate's punctuation (an older Unicode than
the `regex` module's), Rust `regex`'s `\\w` and `\\s` for Whitespace, Oniguruma for Split and
the GPT-2 pattern, and sentencepiece's script table (Unicode 9) for UnicodeScripts.
"""

from __future__ import annotations

import bisect
import codecs
import itertools
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any, Callable, ClassVar

import regex

from ..errors import FormatError
from ..pipeline.bytelevel import BYTE_CHARS, bytes_to_chars
from ..pipeline.fields import (USIZE_MAX, as_bool, as_char, as_choice, as_str, as_uint, component_list,
                               field_value, optional_field, require_object)
from ..pipeline.normalized import (BEHAVIORS, UTF8_STARTS, NormalizedString, PreTokenizedString, Span,
                                   unit_spans)
from ..pipeline.oniguruma import OnigurumaError, compile_pattern, onig_view

__all__ = [
    "PreTokenizer", "BertPreTokenizer", "ByteLevel", "Whitespace", "WhitespaceSplit", "Metaspace",
    "Split", "Digits", "Punctuation", "CharDelimiterSplit", "UnicodeScripts", "FixedLength",
    "Sequence", "from_dict", "BEHAVIOR_TO_JSON", "BEHAVIOR_FROM_JSON", "GPT2_PATTERN",
]

# The pieces of a text (a pre-tokenizer's fast form): their strings and start chars.
Pieces = tuple[list[str], list[int]]
# The split behaviours as tokenizer.json spells them.
BEHAVIOR_TO_JSON = {"removed": "Removed", "isolated": "Isolated",
                    "merged_with_previous": "MergedWithPrevious",
                    "merged_with_next": "MergedWithNext", "contiguous": "Contiguous"}
BEHAVIOR_FROM_JSON = {v: k for k, v in BEHAVIOR_TO_JSON.items()}
PREPEND_SCHEMES = ("always", "first", "never")

# The pattern of HF's ByteLevel pre-tokenizer (run by Oniguruma).
GPT2_PATTERN = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"

# Punctuation the `regex` module knows but the `unicode_categories` crate (an old Unicode,
# 8.0 by what it lacks) does not; U+166D and U+111C9 were punctuation then and are not now.
_PUNCTUATION_ADDED_LATER = (
    "\u061d\u09fd\u0a76\u0c77\u0c84\u1b4e\u1b4f\u1b7d-\u1b7f\u2e43-\u2e4f\u2e52-\u2e5d"
    "\u2e60-\u2e63\U00010d6e\U00010ead\U00010ed0\U00010f55-\U00010f59\U00010f86-\U00010f89"
    "\U000113d4\U000113d5\U000113d7\U000113d8\U0001144b-\U0001144f\U0001145a\U0001145b"
    "\U0001145d\U00011660-\U0001166c\U000116b9\U0001183b\U00011944-\U00011946\U000119e2"
    "\U00011a3f-\U00011a46\U00011a9a-\U00011a9c\U00011a9e-\U00011aa2\U00011b00-\U00011b09"
    "\U00011be1\U00011c41-\U00011c45\U00011c70\U00011c71\U00011ef7\U00011ef8"
    "\U00011f43-\U00011f4f\U00011fff\U00012ff1\U00012ff2\U00016d6d-\U00016d6f"
    "\U00016e97-\U00016e9a\U00016fe2\U0001e5ff\U0001e95e\U0001e95f"
)
# Bert's punctuation: ASCII punctuation or Unicode P* (as the unicode_categories crate has it).
_PUNCTUATION = (r"[[\p{P}!-/:-@\[-`{-~\u166d\U000111c9]--[" + _PUNCTUATION_ADDED_LATER + "]]")
_PUNCTUATION_RE = regex.compile(_PUNCTUATION, regex.VERSION1)
# Whitespace removal then punctuation isolation, in one pass: the pieces are its matches.
_BERT_RE = regex.compile(rf"[^\s{_PUNCTUATION}]+|{_PUNCTUATION}", regex.VERSION1)
_BERT_ASCII_RE = regex.compile(r"[^\s!-/:-@\[-`{-~]+|[!-/:-@\[-`{-~]")
# \s is White_Space (Rust's char::is_whitespace); \p{N} is Rust's char::is_numeric.
_NON_WHITESPACE_RE = regex.compile(r"\S+")
_NUMERIC_RE = regex.compile(r"\p{N}")
# HF's Whitespace pre-tokenizer keeps the matches of this Rust-regex pattern.
_WORDS_RE = regex.compile(r"\w+|[^\w\s]+")


class PreTokenizer:
    """Base class: subclasses implement `pre_tokenize` and `to_dict`."""

    TYPE: ClassVar[str] = ""

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Split every untokenized split of `pts` in place."""
        raise NotImplementedError

    def pre_tokenize_str(self, text: str) -> list[tuple[str, Span]]:
        """The pieces of `text` with their char offsets, as the Python binding returns them."""
        pts = PreTokenizedString(text)
        self.pre_tokenize(pts)
        return pts.get_splits()

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json object (types without options)."""
        return {"type": self.TYPE}

    def is_context_free(self) -> bool:
        """Whether each split is cut and changed by its own text alone, not by where it lies."""
        return False

    def word_pieces(self, text: str) -> Pieces | None:
        """The pieces of a segment and where each starts, for the tokenizer's per-piece cache.

        Given only when each piece, pre-tokenized on its own, comes out as it does inside the
        segment (so its tokens can be cached by its text); None otherwise.
        """
        return None

    def piece_form(self) -> str | None:
        """What one of `word_pieces`' pieces, pre-tokenized alone, gives the model: "text" (one
        split, the piece itself), "bytes" (one split, its byte-level chars) or None (other splits)."""
        return None

    def words(self, text: str) -> list[str] | None:
        """The splits `pre_tokenize` makes of a whole normalized text, as plain strings (what
        trainers count); None when only `pre_tokenize` can tell."""
        form = self.piece_form()
        pieces = self.word_pieces(text) if form is not None else None
        if pieces is None:
            return None
        if form == "text":
            return pieces[0]
        return [bytes_to_chars(piece.encode()) for piece in pieces[0]]


class SplitWise(PreTokenizer):
    """Base of the pre-tokenizers that treat each split by its text alone."""

    def is_context_free(self) -> bool:
        """Always: nothing depends on where a split lies."""
        return True


def _check_behavior(behavior: str) -> str:
    """`behavior` itself if it names a split behaviour (snake_case, as in HF's Python API)."""
    if behavior not in BEHAVIORS:
        raise ValueError(f"unknown split behavior {behavior!r} (expected one of {BEHAVIORS})")
    return behavior


# ----- whitespace and punctuation ----------------------------------------------------------

@dataclass
class BertPreTokenizer(SplitWise):
    """Split on whitespace (removed), then isolate each punctuation char."""

    TYPE: ClassVar[str] = "BertPreTokenizer"

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Keep the runs of non-space non-punctuation chars and each punctuation char."""
        pts.split(lambda _, ns: _matches(ns, _BERT_RE, _bert_ascii_spans))

    def word_pieces(self, text: str) -> Pieces:
        """The pieces: a word or one punctuation char, each the same on its own."""
        return _split_pieces(text, _BERT_ASCII_SPLITTER if text.isascii() else _BERT_SPLITTER)

    def piece_form(self) -> str:
        """A piece is one word as it is."""
        return "text"


def _bert_ascii_spans(text: str) -> list[Span] | None:
    """Bert's pieces of an ASCII text by a pattern with ASCII classes only (a quarter faster)."""
    if not text.isascii():
        return None
    return [m.span() for m in _BERT_ASCII_RE.finditer(text)]


@dataclass
class Whitespace(SplitWise):
    """Keep the runs of word chars and the runs of other non-space chars (`\\w+|[^\\w\\s]+`)."""

    TYPE: ClassVar[str] = "Whitespace"

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Split every segment into word runs and symbol runs, dropping whitespace."""
        pts.split(lambda _, ns: _matches(ns, _WORDS_RE))

    def word_pieces(self, text: str) -> Pieces:
        """The pieces: a word run or a symbol run, each the same on its own."""
        return _split_pieces(text, _WORDS_SPLITTER)

    def piece_form(self) -> str:
        """A piece is one word as it is."""
        return "text"


@dataclass
class WhitespaceSplit(SplitWise):
    """Split on whitespace (White_Space, as Rust's `char::is_whitespace`), removing it."""

    TYPE: ClassVar[str] = "WhitespaceSplit"

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Split every segment on whitespace runs."""
        pts.split(lambda _, ns: _matches(ns, _NON_WHITESPACE_RE))

    def word_pieces(self, text: str) -> Pieces:
        """The pieces: the runs of non-whitespace chars."""
        return _split_pieces(text, _NON_WHITESPACE_SPLITTER)

    def piece_form(self) -> str:
        """A piece is one word as it is."""
        return "text"


def _matches(ns: NormalizedString, pattern: "regex.Pattern[str]",
             fast_spans: Callable[[str], list[Span] | None] | None = None) -> list[NormalizedString]:
    """The pieces of `ns` that `pattern` matches (it never matches the empty string).

    `fast_spans` may compute the same spans faster for some texts (it returns None otherwise).
    """
    if not ns.is_identity():
        return ns.split(pattern, "removed", invert=True)
    text = ns.normalized
    spans = fast_spans(text) if fast_spans is not None else None
    if spans is None:
        spans = [m.span() for m in pattern.finditer(onig_view(text))]
    original, shift = ns.original, ns.original_shift
    if original == text:
        return [NormalizedString(text[s:e], None, None, shift + s) for s, e in spans]
    return [NormalizedString(original[s:e], text[s:e], None, shift + s) for s, e in spans]


def _capturing(pattern: "regex.Pattern[str]") -> "regex.Pattern[str]":
    """`pattern` as one capturing group, so that its `split` returns the matches too."""
    return regex.compile(f"({pattern.pattern})", pattern.flags)


def _split_pieces(text: str, splitter: "regex.Pattern[str]") -> Pieces:
    """The matches of a `_capturing` pattern in `text` (Oniguruma's classes) and their starts.

    `split` alternates the text between matches with the matches, so the running total of
    the part lengths gives every start, with no Python code per match.
    """
    view = onig_view(text)
    parts = splitter.split(view)
    pieces = parts[1::2]
    starts = list(accumulate(map(len, parts)))[0::2][:len(pieces)]
    if view is not text:
        pieces = [text[start:start + len(piece)] for start, piece in zip(starts, pieces)]
    return pieces, starts


_BERT_SPLITTER = _capturing(_BERT_RE)
_BERT_ASCII_SPLITTER = _capturing(_BERT_ASCII_RE)
_WORDS_SPLITTER = _capturing(_WORDS_RE)
_NON_WHITESPACE_SPLITTER = _capturing(_NON_WHITESPACE_RE)


@dataclass
class Punctuation(SplitWise):
    """Split on Bert's punctuation chars with the given behaviour (default isolated)."""

    behavior: str = "isolated"
    TYPE: ClassVar[str] = "Punctuation"

    def __post_init__(self) -> None:
        _check_behavior(self.behavior)

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Split every segment on each punctuation char."""
        pts.split(lambda _, ns: ns.split(_PUNCTUATION_RE, self.behavior))

    def to_dict(self) -> dict[str, Any]:
        """{"type": "Punctuation", "behavior": ...}."""
        return {"type": self.TYPE, "behavior": BEHAVIOR_TO_JSON[self.behavior]}

    @classmethod
    def from_dict(cls, data: dict) -> "Punctuation":
        """Read the JSON form (behavior defaults to Isolated)."""
        return cls(_behavior(data.get("behavior", "Isolated")))


@dataclass
class Digits(SplitWise):
    """Split off numeric chars (N*): each one alone, or the runs of them."""

    individual_digits: bool = False
    TYPE: ClassVar[str] = "Digits"

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Isolate each numeric char, or keep runs of them together."""
        behavior = "isolated" if self.individual_digits else "contiguous"
        pts.split(lambda _, ns: ns.split(_NUMERIC_RE, behavior))

    def to_dict(self) -> dict[str, Any]:
        """{"type": "Digits", "individual_digits": ...}."""
        return {"type": self.TYPE, "individual_digits": self.individual_digits}

    @classmethod
    def from_dict(cls, data: dict) -> "Digits":
        """Read the JSON form (individual_digits is mandatory)."""
        return cls(as_bool(field_value(data, "individual_digits"), "individual_digits"))


@dataclass
class CharDelimiterSplit(SplitWise):
    """Split on one delimiter char, removing it."""

    delimiter: str
    TYPE: ClassVar[str] = "CharDelimiterSplit"

    def __post_init__(self) -> None:
        if len(self.delimiter) != 1:
            raise ValueError(f"the delimiter must be one char, got {self.delimiter!r}")
        self._pattern = _literal_pattern(self.delimiter)

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Split every segment on the delimiter."""
        pts.split(lambda _, ns: ns.split(self._pattern, "removed"))

    def to_dict(self) -> dict[str, Any]:
        """{"type": "CharDelimiterSplit", "delimiter": ...}."""
        return {"type": self.TYPE, "delimiter": self.delimiter}

    @classmethod
    def from_dict(cls, data: dict) -> "CharDelimiterSplit":
        """Read the JSON form (delimiter is mandatory and one char)."""
        return cls(as_char(field_value(data, "delimiter"), "delimiter"))


# ----- patterns ----------------------------------------------------------------------------

@dataclass
class Split(SplitWise):
    """Split on a literal string or an Oniguruma regex, with a behaviour and optional invert."""

    pattern: str
    behavior: str
    invert: bool = False
    is_regex: bool = False
    TYPE: ClassVar[str] = "Split"

    def __post_init__(self) -> None:
        _check_behavior(self.behavior)
        if self.is_regex:
            self._compiled = compile_pattern(self.pattern)
        else:
            self._compiled = _literal_pattern(self.pattern)

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Split every segment on the pattern's matches (or, inverted, on what lies between)."""
        pts.split(lambda _, ns: ns.split(self._compiled, self.behavior, self.invert))

    def to_dict(self) -> dict[str, Any]:
        """{"type": "Split", "pattern": {"String"|"Regex": ...}, "behavior", "invert"}."""
        kind = "Regex" if self.is_regex else "String"
        return {"type": self.TYPE, "pattern": {kind: self.pattern},
                "behavior": BEHAVIOR_TO_JSON[self.behavior], "invert": self.invert}

    @classmethod
    def from_dict(cls, data: dict) -> "Split":
        """Read the JSON form (pattern, behavior and invert are mandatory)."""
        pattern = field_value(data, "pattern")
        if not isinstance(pattern, dict) or len(pattern) != 1:
            raise FormatError(f'expected {{"String": ...}} or {{"Regex": ...}}, got {pattern!r}',
                              field="pattern")
        (kind, value), = pattern.items()
        kind = as_choice(kind, "pattern", ("String", "Regex"))
        value = as_str(value, f"pattern.{kind}")
        behavior = _behavior(field_value(data, "behavior"))
        invert = as_bool(field_value(data, "invert"), "invert")
        try:
            return cls(value, behavior, invert, is_regex=kind == "Regex")
        except OnigurumaError as error:
            raise FormatError(str(error), field="pattern.Regex") from None


def _literal_pattern(text: str) -> "regex.Pattern[str]":
    """A pattern matching `text` literally; the empty string matches everywhere, as in HF."""
    return regex.compile(regex.escape(text))


@dataclass
class Metaspace(PreTokenizer):
    """Spaces become `replacement`, which is prepended per `prepend_scheme`; then split on it."""

    replacement: str = "\u2581"
    prepend_scheme: str = "always"
    split: bool = True
    TYPE: ClassVar[str] = "Metaspace"

    def __post_init__(self) -> None:
        """Check the values HF would refuse."""
        as_char(self.replacement, "replacement")
        as_choice(self.prepend_scheme, "prepend_scheme", PREPEND_SCHEMES)
        self._pattern = _literal_pattern(self.replacement)

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Replace, prepend and split every segment."""
        pts.split(self._split_one)

    def is_context_free(self) -> bool:
        """Unless the scheme is "first", which prepends only at the start of the input."""
        return self.prepend_scheme != "first"

    def _split_one(self, _: int, ns: NormalizedString) -> list[NormalizedString]:
        """One segment: "first" prepends only to a segment that starts the original text."""
        if self.split and ns.is_identity() and len(ns.normalized) == len(ns.original):
            return self._split_identity(ns)
        if " " in ns.normalized:
            ns.replace(" ", self.replacement)
        if self._prepends(ns.normalized, ns.offsets_original()[0]):
            ns.prepend(self.replacement)
        if self.split:
            return ns.split(self._pattern, "merged_with_next")
        return [ns]

    def words(self, text: str) -> list[str] | None:
        """The splits of a whole text; not with "first", which depends on where the normalized
        text begins in the original."""
        if self.prepend_scheme == "first":
            return None
        replaced = text.replace(" ", self.replacement)
        if self._prepends(replaced, 0):
            replaced = self.replacement + replaced
        if not self.split:
            return [replaced] if replaced else []
        mark = self.replacement
        parts = replaced.split(mark)
        return [part for part in parts[:1] if part] + [mark + part for part in parts[1:]]

    def _prepends(self, text: str, original_start: int) -> bool:
        """Whether the replacement goes in front of this (already replaced) segment."""
        if not text or text.startswith(self.replacement):
            return False
        return self.prepend_scheme == "always" or (
            self.prepend_scheme == "first" and original_start == 0)

    def _split_identity(self, ns: NormalizedString) -> list[NormalizedString]:
        """`_split_one` for an unaligned segment, building the pieces directly (the hot path).

        With one-char matches, merged_with_next cuts right before every replacement char.
        """
        original, shift, mark = ns.original, ns.original_shift, self.replacement
        if " " not in ns.normalized and mark not in ns.normalized:  # one word (after a split)
            if self._prepends(ns.normalized, shift):
                return [_prefixed_piece(original, mark + ns.normalized, shift)]
            return [ns]
        replaced = ns.normalized.replace(" ", mark)
        prefixed = self._prepends(replaced, shift)
        pieces = []
        end = -1 if prefixed else 0
        for i, part in enumerate((mark + replaced if prefixed else replaced).split(mark)):
            piece = mark + part if i else part
            if not piece:
                continue
            start, end = end, end + len(piece)
            if start < 0:
                pieces.append(_prefixed_piece(original, piece, shift))
            else:
                pieces.append(NormalizedString(original[start:end], piece, None, shift + start))
        return pieces

    def to_dict(self) -> dict[str, Any]:
        """{"type": "Metaspace", "replacement": ..., "prepend_scheme": ..., "split": ...}."""
        return {"type": self.TYPE, "replacement": self.replacement,
                "prepend_scheme": self.prepend_scheme, "split": self.split}

    @classmethod
    def from_dict(cls, data: dict) -> "Metaspace":
        """Read the JSON form, including the legacy `add_prefix_space` and `str_rep`."""
        replacement = as_char(field_value(data, "replacement"), "replacement")
        scheme = as_choice(field_value(data, "prepend_scheme", "always"), "prepend_scheme",
                           PREPEND_SCHEMES)
        split = optional_field(data, "split", as_bool)
        optional_field(data, "str_rep", as_str)  # an old copy of `replacement`, checked and dropped
        if optional_field(data, "add_prefix_space", as_bool) is False and scheme != "never":
            raise FormatError("add_prefix_space does not match declared prepend_scheme",
                              field="add_prefix_space")
        return cls(replacement, scheme, split is not False)


def _prefixed_piece(original: str, piece: str, shift: int) -> NormalizedString:
    """The first piece of an unaligned segment after one char was prepended (HF's `prepend`).

    The prepended char stands for the segment's first char, like the char after it.
    """
    size = len(piece)
    alignments = [(0, 1)] + unit_spans(size)[:size - 1]
    return NormalizedString(original[:max(size - 1, 1)], piece, alignments, shift)


# ----- byte level --------------------------------------------------------------------------

_GPT2_RE = compile_pattern(GPT2_PATTERN)
_GPT2_SPLITTER = _capturing(_GPT2_RE)


@dataclass
class ByteLevel(SplitWise):
    """GPT-2's byte-level split: a prefix space, the GPT-2 regex, then one char per byte.

    Every split gets the prefix space when `add_prefix_space` (also after added tokens); each
    byte char of a multi-byte char keeps that char's original span. `trim_offsets` only matters
    to the ByteLevel post-processor; it is kept here for the JSON form.
    """

    add_prefix_space: bool = True
    trim_offsets: bool = True
    use_regex: bool = True
    TYPE: ClassVar[str] = "ByteLevel"

    @staticmethod
    def alphabet() -> list[str]:
        """The 256 byte chars, in byte order."""
        return list(BYTE_CHARS)

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Prefix, split and map every segment to byte-level chars."""
        if not (self.add_prefix_space or self.use_regex or _has_empty_split(pts)):
            pts.normalize(to_byte_level)  # nothing to cut or drop: map the segments in place
            return
        pts.split(self._split_one)

    def word_pieces(self, text: str) -> Pieces | None:
        """The GPT-2 regex matches; not with a prefix space, which only the first one gets."""
        if self.add_prefix_space or not self.use_regex:
            return None
        return _split_pieces(text, _GPT2_SPLITTER)

    def piece_form(self) -> str | None:
        """A piece of `word_pieces` is one GPT-2 regex match: one word, in byte-level chars."""
        return None if self.add_prefix_space or not self.use_regex else "bytes"

    def _split_one(self, _: int, ns: NormalizedString) -> list[NormalizedString]:
        """Prefix a space if there is none, isolate the GPT-2 regex matches, map the bytes."""
        if ns.is_identity() and self.use_regex:
            return self._split_identity(ns)
        if self.add_prefix_space and not ns.normalized.startswith(" "):
            ns.prepend(" ")
        pieces = ns.split(_GPT2_RE, "isolated") if self.use_regex else [ns]
        for piece in pieces:
            to_byte_level(piece)
        return pieces

    def _split_identity(self, ns: NormalizedString) -> list[NormalizedString]:
        """`_split_one` for an unaligned segment, building the pieces directly (the hot path).

        The GPT-2 regex matches at every position, so its matches tile the text and their
        lengths give the offsets. An ASCII text is mapped to byte chars in one call.
        """
        text, original, shift = ns.normalized, ns.original, ns.original_shift
        prefixed = self.add_prefix_space and text != "" and not text.startswith(" ")
        source = " " + text if prefixed else text
        lag = 1 if prefixed else 0  # source index minus text index
        if source.isascii():
            mapped = codecs.charmap_decode(source.encode(), "strict", BYTE_CHARS)[0]
        else:
            mapped, spans = "", unit_spans(len(source))
        pieces = []
        end = 0
        view = source if mapped else onig_view(source)
        for match in _GPT2_RE.findall(view):
            start, end = end, end + len(match)
            if view is not source:
                match = source[start:end]
            if prefixed and start == 0:
                piece = _prefixed_piece(original, mapped[:end] if mapped else match, shift)
                if not mapped:
                    to_byte_level(piece)
            elif mapped:
                piece = NormalizedString(original[start - lag:end - lag], mapped[start:end], None,
                                         shift + start - lag)
            else:
                # to_byte_level, inlined: this runs for every piece of non-ASCII text.
                data = match.encode()
                chars = codecs.charmap_decode(data, "strict", BYTE_CHARS)[0]
                alignments = None
                if len(data) != len(match):
                    sources = itertools.accumulate(data.translate(UTF8_STARTS), initial=-1)
                    next(sources)
                    alignments = list(map(spans.__getitem__, sources))
                piece = NormalizedString(original[start - lag:end - lag], chars, alignments,
                                         shift + start - lag)
            pieces.append(piece)
        return pieces

    def to_dict(self) -> dict[str, Any]:
        """{"type": "ByteLevel", "add_prefix_space", "trim_offsets", "use_regex"}."""
        return {"type": self.TYPE, "add_prefix_space": self.add_prefix_space,
                "trim_offsets": self.trim_offsets, "use_regex": self.use_regex}

    @classmethod
    def from_dict(cls, data: dict) -> "ByteLevel":
        """Read the JSON form (add_prefix_space and trim_offsets are mandatory)."""
        return cls(as_bool(field_value(data, "add_prefix_space"), "add_prefix_space"),
                   as_bool(field_value(data, "trim_offsets"), "trim_offsets"),
                   as_bool(data.get("use_regex", True), "use_regex"))


def _has_empty_split(pts: PreTokenizedString) -> bool:
    """True if a split is empty (splitting would drop it)."""
    return any(not split.normalized.normalized for split in pts.splits)


def to_byte_level(ns: NormalizedString) -> None:
    """Replace each char by the byte-level chars of its UTF-8 bytes, all aligned to it."""
    text = ns.normalized
    data = text.encode()
    mapped = codecs.charmap_decode(data, "strict", BYTE_CHARS)[0]
    if len(data) == len(text):
        ns.map_chars(mapped)
        return
    # The index of the char each byte belongs to: a running count of char-starting bytes.
    sources = itertools.accumulate(data.translate(UTF8_STARTS), initial=-1)
    next(sources)
    ns.expand_from(mapped, sources)


# ----- scripts and fixed length ------------------------------------------------------------

# The scripts of sentencepiece's table (Unicode 9.0), by their Unicode names. Hiragana and
# Katakana count as Han; they come first so that the lookup tries them early.
_SCRIPT_NAMES = (
    "Han Hiragana Katakana Latin Common Inherited Cyrillic Greek Arabic Hangul Hebrew Thai "
    "Devanagari Adlam Ahom Anatolian_Hieroglyphs Armenian Avestan Balinese Bamum Bassa_Vah "
    "Batak Bengali Bhaiksuki Bopomofo Brahmi Braille Buginese Buhid Canadian_Aboriginal Carian "
    "Caucasian_Albanian Chakma Cham Cherokee Coptic Cuneiform Cypriot Deseret Duployan "
    "Egyptian_Hieroglyphs Elbasan Ethiopic Georgian Glagolitic Gothic Grantha Gujarati Gurmukhi "
    "Hanunoo Hatran Imperial_Aramaic Inscriptional_Pahlavi Inscriptional_Parthian Javanese "
    "Kaithi Kannada Kayah_Li Kharoshthi Khmer Khojki Khudawadi Lao Lepcha Limbu Linear_A "
    "Linear_B Lisu Lycian Lydian Mahajani Malayalam Mandaic Manichaean Marchen Meetei_Mayek "
    "Mende_Kikakui Meroitic_Cursive Meroitic_Hieroglyphs Miao Modi Mongolian Mro Multani "
    "Myanmar Nabataean New_Tai_Lue Newa Nko Ogham Ol_Chiki Old_Hungarian Old_Italic "
    "Old_North_Arabian Old_Permic Old_Persian Old_South_Arabian Old_Turkic Oriya Osage Osmanya "
    "Pahawh_Hmong Palmyrene Pau_Cin_Hau Phags_Pa Phoenician Psalter_Pahlavi Rejang Runic "
    "Samaritan Saurashtra Sharada Shavian Siddham SignWriting Sinhala Sora_Sompeng Sundanese "
    "Syloti_Nagri Syriac Tagalog Tagbanwa Tai_Le Tai_Tham Tai_Viet Takri Tamil Tangut Telugu "
    "Thaana Tibetan Tifinagh Tirhuta Ugaritic Vai Warang_Citi Yi"
).split()
_SCRIPT_RE = regex.compile("|".join(rf"(\p{{Script={name}}})" for name in _SCRIPT_NAMES))
_HAN = 1  # the group number of Han in _SCRIPT_RE
_ANY = 0  # spaces and chars the table does not know: they join the run before them
# Code points assigned after the table was made (the `regex` module knows them; HF does not).
_ASSIGNED_LATER = (
    "0558 0560 0588 058B-058C 05C8-05C9 05EF 061D 07FD-07FF 0860-089F 08B5 08BE-08D3 09FC-09FE "
    "0A76 0AFA-0AFF 0B53-0B55 0C04 0C3C 0C5C-0C5D 0C77 0C84 0CDC-0CDD 0CF3-0D00 0D04 0D3B-0D3C "
    "0D81 0E86 0E89 0E8C 0E8E-0E93 0E98 0EA0 0EA8-0EA9 0EAC 0EBA 0ECE 170D 1715-171F 180F 1878 "
    "1ABF-1AF0 1B4C-1B4F 1B7D-1B7F 1C89-1CBF 1CF7 1CFA 1DF6-1DFA 208F 209D-209F 20BF-20C4 23FF "
    "2427-2429 2B96-2B97 2BBA-2BBC 2BC9 2BD2-2BEB 2BF0-2BFF 2C2F 2C5F 2E45-2E63 2FFC-2FFF "
    "312E-312F 31BB-31BF 31E4-31EF 32FF 4DB6-4DBF 9FD6-9FFF A7AF A7B8-A7F6 A82C A8FE-A8FF "
    "AB66-AB6D FBC2-FBD2 FD40-FD4F FD90-FD91 FDC8-FDCF FDFE-FDFF 1019C 1032D-1032F 10570-105F3 "
    "10780-107BF 10940-10959 10A34-10A35 10A48 10D00-10D8F 10E80-10FF6 11070-11075 110C2-110CD "
    "11144-11147 111CE-111CF 1123F-11241 1133B 11380-113E2 1145A 1145E-11461 116B8-116B9 "
    "116D0-116E3 1171A 11740-1183B 11900-11ABF 11B00-11BF9 11D00-11FFF 1246F 12475-1247F "
    "12550-12FF2 1342F-143FA 16100-16139 16A70-16AC9 16D40-16ED3 16F45-16F4F 16F7F-16F87 "
    "16FE1-16FF6 187ED-187FF 18AF3-1AFFE 1B002-1B2FB 1CC00-1CFC3 1D127-1D128 1D1E9-1D1FF "
    "1D250-1D2F3 1D372-1D378 1D6A6 1DB00-1DFFF 1E030-1E7FE 1E94B 1EC71-1ED3D 1F10D-1F10F 1F12F "
    "1F16C-1F16F 1F1AD-1F1AE 1F260-1F265 1F6D3-1F6DF 1F6F7-1F6FC 1F774-1F77F 1F7D5-1F7FF "
    "1F8B0-1F90F 1F91F 1F928-1F92F 1F931-1F932 1F93F 1F94C-1F94F 1F95F-1F97F 1F992-1F9BF "
    "1F9C1-1FBFA 2A6D7-2A6DF 2B735-2B73F 2B81E 2CEA2-2EE5D 30000-3FC3F"
)
# Chars whose script changed since: the table's answer, as a name from _SCRIPT_NAMES.
_SCRIPT_CHANGED = {"\u0953": "Devanagari", "\u0954": "Devanagari", "\u0589": "Common",
                   "\u061c": "Common"}


def _parse_ranges(text: str) -> tuple[list[int], list[int]]:
    """Starts and ends of "HEX" / "HEX-HEX" ranges."""
    starts, ends = [], []
    for item in text.split():
        low, _, high = item.partition("-")
        starts.append(int(low, 16))
        ends.append(int(high or low, 16))
    return starts, ends


_LATER_STARTS, _LATER_ENDS = _parse_ranges(_ASSIGNED_LATER)
_SCRIPT_CACHE: dict[str, int] = {}


def script_of(char: str) -> int:
    """The script of `char` as UnicodeScripts compares them (an id; 0 means "Any")."""
    script = _SCRIPT_CACHE.get(char)
    if script is None:
        script = _SCRIPT_CACHE[char] = _lookup_script(char)
    return script


def _lookup_script(char: str) -> int:
    """Look up a char's script id: Hiragana, Katakana and U+30FC count as Han, " " as Any."""
    if char == " ":
        return _ANY
    if char in _SCRIPT_CHANGED:
        return _SCRIPT_NAMES.index(_SCRIPT_CHANGED[char]) + 1
    code = ord(char)
    i = bisect.bisect_right(_LATER_STARTS, code) - 1
    if i >= 0 and code <= _LATER_ENDS[i]:
        return _ANY
    if code == 0x30FC:
        return _HAN
    match = _SCRIPT_RE.match(char)
    if match is None:
        return _ANY
    return _HAN if match.lastindex <= 3 else match.lastindex


@dataclass
class UnicodeScripts(SplitWise):
    """Cut wherever the script changes; spaces and unknown chars join the run before them.

    Chars of "Any" script before the first real script are dropped (a leading space is lost).
    """

    TYPE: ClassVar[str] = "UnicodeScripts"

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Cut every segment at its script changes."""
        pts.split(lambda _, ns: [ns.slice(s, e) for s, e in _script_runs(ns.normalized)])


def _script_runs(text: str) -> list[Span]:
    """The runs of one script, each extended over the "Any" chars that follow it."""
    cuts = []
    last = None
    for i, char in enumerate(text):
        script = script_of(char)
        if script == _ANY:
            continue
        if script != last:
            cuts.append(i)
        last = script
    cuts.append(len(text))
    return list(zip(cuts, cuts[1:]))


@dataclass
class FixedLength(SplitWise):
    """Chunks of `length` chars."""

    length: int = 5
    TYPE: ClassVar[str] = "FixedLength"

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Cut every segment into chunks."""
        pts.split(lambda _, ns: self._chunks(ns))

    def _chunks(self, ns: NormalizedString) -> list[NormalizedString]:
        """The chunks of one segment (HF panics on length 0 with a non-empty segment)."""
        size = len(ns.normalized)
        if size and self.length == 0:
            raise ValueError("chunk size must be non-zero")
        return [ns.slice(i, min(i + self.length, size)) for i in range(0, size, self.length or 1)]

    def to_dict(self) -> dict[str, Any]:
        """{"type": "FixedLength", "length": ...}."""
        return {"type": self.TYPE, "length": self.length}

    @classmethod
    def from_dict(cls, data: dict) -> "FixedLength":
        """Read the JSON form (length defaults to 5)."""
        return cls(as_uint(data.get("length", 5), "length", USIZE_MAX))


@dataclass
class Sequence(PreTokenizer):
    """Several pre-tokenizers, applied in order."""

    pretokenizers: list[PreTokenizer] = field(default_factory=list)
    TYPE: ClassVar[str] = "Sequence"

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Run each pre-tokenizer in turn."""
        for pre_tokenizer in self.pretokenizers:
            pre_tokenizer.pre_tokenize(pts)

    def is_context_free(self) -> bool:
        """When every step is."""
        return all(p.is_context_free() for p in self.pretokenizers)

    def word_pieces(self, text: str) -> Pieces | None:
        """The first step's pieces, when the later steps treat each piece by its text alone."""
        if not self.pretokenizers or not all(p.is_context_free() for p in self.pretokenizers[1:]):
            return None
        return self.pretokenizers[0].word_pieces(text)

    def piece_form(self) -> str | None:
        """The one step's form; later steps may split a piece further."""
        return self.pretokenizers[0].piece_form() if len(self.pretokenizers) == 1 else None

    def to_dict(self) -> dict[str, Any]:
        """{"type": "Sequence", "pretokenizers": [...]}."""
        return {"type": self.TYPE, "pretokenizers": [p.to_dict() for p in self.pretokenizers]}

    @classmethod
    def from_dict(cls, data: dict) -> "Sequence":
        """Read the JSON form (pretokenizers is mandatory)."""
        return cls(component_list(data, "pretokenizers", from_dict))


# ----- reading tokenizer.json --------------------------------------------------------------

def _behavior(value: Any) -> str:
    """A behaviour from its JSON name ("Isolated"; serde also reads {"Isolated": null})."""
    if isinstance(value, dict) and len(value) == 1 and next(iter(value.values())) is None:
        value = next(iter(value))
    return BEHAVIOR_FROM_JSON[as_choice(value, "behavior", tuple(BEHAVIOR_FROM_JSON))]


_SIMPLE: dict[str, Callable[[], PreTokenizer]] = {
    "BertPreTokenizer": BertPreTokenizer, "Whitespace": Whitespace,
    "WhitespaceSplit": WhitespaceSplit, "UnicodeScripts": UnicodeScripts,
}
_READERS: dict[str, Callable[[dict], PreTokenizer]] = {
    "ByteLevel": ByteLevel.from_dict, "Metaspace": Metaspace.from_dict, "Split": Split.from_dict,
    "Digits": Digits.from_dict, "Punctuation": Punctuation.from_dict,
    "CharDelimiterSplit": CharDelimiterSplit.from_dict, "FixedLength": FixedLength.from_dict,
    "Sequence": Sequence.from_dict,
}


def from_dict(data: Any) -> PreTokenizer:
    """Build a pre-tokenizer from its tokenizer.json object, dispatching on "type"."""
    data = require_object(data, "a pre-tokenizer")
    kind = field_value(data, "type")
    if not isinstance(kind, str):
        raise FormatError(f"expected a type name, got {kind!r}", field="type")
    if kind in _SIMPLE:
        return _SIMPLE[kind]()
    if kind not in _READERS:
        raise FormatError(f"unknown pre-tokenizer type {kind!r}", field="type")
    return _READERS[kind](data)

