"""Strings that remember where each character came from.

`NormalizedString` is text under normalization: every normalized char keeps the span of
original chars it stands for, so token offsets can be reported on the original text exactly as
HuggingFace `tokenizers` reports them. `PreTokenizedString` is the list of splits a
pre-tokenizer cuts it into, each later tokenized by the model.

Offsets here are code-point offsets. HF keeps byte offsets and converts at the end; since every
alignment covers whole characters, the two agree. Alignments are stored lazily: `None` means the
identity (char i of `normalized` stands for char i of `original`), which every length-preserving
1:1 edit keeps, so plain ASCII text never pays for a list of spans.
"""

from __future__ import annotations

import unicodedata
from itertools import accumulate, chain, repeat
from typing import Any, Callable, Iterable, Iterator, NamedTuple, Union

import regex

from .oniguruma import find_spans

Span = tuple[int, int]
# A pattern to split or replace on: a literal, a compiled regex, or a per-char predicate.
Pattern = Union[str, "regex.Pattern[str]", Callable[[str], bool]]
BEHAVIORS = ("removed", "isolated", "merged_with_previous", "merged_with_next", "contiguous")


class NormalizedString:
    """A normalized string aligned to the original it came from."""

    __slots__ = ("original", "normalized", "_alignments", "original_shift")

    def __init__(self, original: str, normalized: str | None = None,
                 alignments: list[Span] | None = None, original_shift: int = 0):
        self.original = original
        self.normalized = original if normalized is None else normalized
        self._alignments = alignments
        self.original_shift = original_shift

    def __repr__(self) -> str:
        return f"NormalizedString(original={self.original!r}, normalized={self.normalized!r})"

    def __len__(self) -> int:
        return len(self.normalized)

    @property
    def alignments(self) -> list[Span]:
        """The original span of each normalized char (materialized on demand)."""
        if self._alignments is None:
            size = len(self.normalized)
            self._alignments = unit_spans(size)[:size]  # the shared (i, i + 1) tuples, not new ones
        return self._alignments

    def is_identity(self) -> bool:
        """True while char i of the normalized text still stands for original char i."""
        return self._alignments is None

    def offsets_original(self) -> Span:
        """The span this string covers in the full original input."""
        return self.original_shift, self.original_shift + len(self.original)

    # ----- offset conversion -------------------------------------------------------------

    def normalized_to_original(self, start: int, end: int) -> Span:
        """Original span (relative to this string's original) of a normalized char range."""
        if start == end:
            return start, end
        if self._alignments is None:
            return start, end
        return self._alignments[start][0], self._alignments[end - 1][1]

    def original_to_normalized(self, start: int, end: int) -> Span | None:
        """Normalized char range covering the original range `start:end` (HF's rules)."""
        if start == end:
            return start, end
        if start > end:
            return None
        if not self.original and (start, end) == (0, 0):
            return 0, len(self.normalized)
        if self._alignments is None:
            return start, min(end, len(self.normalized))
        first = last = None
        for i, (a_start, a_end) in enumerate(self._alignments):
            if end < a_end:
                break
            if first is None and start <= a_start and a_start != a_end:
                first = i
            last = i + 1
        if first is not None and last is not None:
            return first, last
        if first is not None:
            return first, first
        if last is not None:
            return last, last
        return None

    def slice(self, start: int, end: int) -> "NormalizedString":
        """The part of this string between normalized chars `start` and `end`."""
        o_start, o_end = self.normalized_to_original(start, end)
        if self._alignments is None:
            alignments = None
        else:
            alignments = [(a - o_start, b - o_start) for a, b in self._alignments[start:end]]
        return NormalizedString(self.original[o_start:o_end], self.normalized[start:end],
                                alignments, self.original_shift + o_start)

    def spans_to_original(self, spans: list[Span]) -> list[Span]:
        """Absolute original spans (in the whole input) of normalized char spans."""
        shift = self.original_shift
        alignments = self._alignments
        if alignments is None:
            return [(shift + s, shift + e) for s, e in spans]
        return [(shift + alignments[s][0], shift + alignments[e - 1][1]) if s != e
                else (shift + s, shift + e) for s, e in spans]

    # ----- the one general edit ----------------------------------------------------------

    def transform_range(self, start: int, end: int, dest: Iterable[tuple[str, int]],
                        initial_offset: int = 0) -> None:
        """Replace normalized chars `start:end` by `dest`, a stream of (char, change).

        change 0: the char replaces the next old char; 1: the char is inserted and shares the
        span of the old char before it; -n: it replaces the next old char and the n after it are
        removed. `initial_offset` old chars are removed before the first new one.
        """
        old = self.alignments
        consumed = start + initial_offset
        chars: list[str] = []
        spans: list[Span] = []
        for char, change in dest:
            if change > 0:
                span = old[consumed - 1] if consumed >= 1 else (0, 0)
            else:
                span = old[consumed]
                consumed += 1 - change
            chars.append(char)
            spans.append(span)
        self.normalized = self.normalized[:start] + "".join(chars) + self.normalized[end:]
        self._alignments = old[:start] + spans + old[end:]

    def transform(self, dest: Iterable[tuple[str, int]], initial_offset: int = 0) -> None:
        """Apply `transform_range` to the whole string."""
        self.transform_range(0, len(self.normalized), dest, initial_offset)

    # ----- edits built on it, with fast paths where the edit is 1:1 ----------------------

    def map_chars(self, mapped: str) -> None:
        """Replace the text by `mapped`, one char for one char (alignments unchanged)."""
        assert len(mapped) == len(self.normalized)
        self.normalized = mapped

    def map(self, fn: Callable[[str], str]) -> None:
        """Replace each char by fn(char), a single char."""
        self.map_chars("".join(fn(c) for c in self.normalized))

    def filter(self, keep: Callable[[str], bool]) -> None:
        """Drop the chars for which `keep` is false."""
        text = self.normalized
        kept = [i for i, c in enumerate(text) if keep(c)]
        if len(kept) == len(text):
            return
        old = self.alignments
        self.normalized = "".join(text[i] for i in kept)
        self._alignments = [old[i] for i in kept]

    def keep_indices(self, kept: list[int]) -> None:
        """Keep only the chars at the ascending indices `kept`."""
        if len(kept) == len(self.normalized):
            return
        self._alignments = list(map(self.alignments.__getitem__, kept))
        self.normalized = "".join(map(self.normalized.__getitem__, kept))

    def expand_chars(self, pieces: list[str]) -> None:
        """Replace char i by the string pieces[i]; every char of it takes char i's span."""
        if set(map(len, pieces)) <= {1}:
            self.map_chars("".join(pieces))
            return
        self.expand_counts("".join(pieces), map(len, pieces))

    def expand_counts(self, text: str, counts: Iterable[int]) -> None:
        """Replace the text by `text`, in which old char i became the next counts[i] chars.

        Each of those chars takes char i's span; a count of 0 removes char i.
        """
        self._alignments = list(chain.from_iterable(map(repeat, self.alignments, counts)))  # one C loop
        self.normalized = text

    def expand_from(self, expanded: str, sources: Iterable[int]) -> None:
        """Replace the text by `expanded`, whose char j stands for old char `sources[j]`.

        The sources ascend; e.g. a byte-level string names, for each byte, the char it is part
        of. The new alignments are built by C-level maps (this runs on every non-ASCII piece).
        """
        if self._alignments is None:
            table = unit_spans(len(self.normalized))
            self._alignments = list(map(table.__getitem__, sources))
        else:
            self._alignments = list(map(self._alignments.__getitem__, sources))
        self.normalized = expanded

    def prepend(self, text: str) -> None:
        """Put `text` before a non-empty string; it takes the span of the first char."""
        if not self.normalized or not text:
            return
        first = self.alignments[0]
        self.normalized = text + self.normalized
        self._alignments = [first] * len(text) + self._alignments

    def append(self, text: str) -> None:
        """Put `text` after the string; it takes the span of the last char (or (0, 0))."""
        if not text:
            return
        last = self.alignments[-1] if self.normalized else (0, 0)
        self.normalized += text
        self._alignments = self.alignments + [last] * len(text)

    def lowercase(self) -> None:
        """Lowercase like Rust's char::to_lowercase (no final-sigma context rule)."""
        text = self.normalized
        if text.isascii():
            self.map_chars(text.lower())
            return
        lowered = _lower(text)
        if len(lowered) == len(text) and "Σ" not in text:
            self.map_chars(lowered)
            return
        self.expand_chars([_lower_char(c) for c in text])

    def nfd(self) -> None:
        """Canonical decomposition."""
        self._unicode_normalize("NFD")

    def nfkd(self) -> None:
        """Compatibility decomposition."""
        self._unicode_normalize("NFKD")

    def nfc(self) -> None:
        """Canonical decomposition then composition."""
        self._unicode_normalize("NFC")

    def nfkc(self) -> None:
        """Compatibility decomposition then canonical composition."""
        self._unicode_normalize("NFKC")

    def _unicode_normalize(self, form: str) -> None:
        """Apply a Unicode normalization form, aligning each output char like HF does; chars
        whose decomposition is newer than HF's Unicode tables stay as they are (see _HF_UNKNOWN)."""
        text = self.normalized
        if text.isascii() or unicodedata.is_normalized(form, text):
            return
        unknown = _HF_UNKNOWN[form]
        if unknown.search(text) and not _PLACEHOLDERS.search(text):
            self.normalized = text.translate(_TO_PLACEHOLDER)  # one char for one: alignments hold
            self._unicode_normalize(form)
            self.normalized = self.normalized.translate(_FROM_PLACEHOLDER)
            return
        pieces = _normalize_chars(form, text)
        if "".join(pieces) == unicodedata.normalize(form, text):
            # Nothing moved or composed across chars: each char's output keeps its span.
            self.expand_chars(pieces)
            return
        compatible = form in ("NFKD", "NFKC")
        stream = _decompose(text, compatible)
        if form in ("NFC", "NFKC"):
            stream = _recompose(stream)
        self.transform(stream)

    def strip(self, left: bool = True, right: bool = True) -> None:
        """Remove leading and/or trailing whitespace (Rust's White_Space)."""
        text = self.normalized
        start, end = 0, len(text)
        if left:
            while start < end and is_whitespace(text[start]):
                start += 1
        if right:
            while end > start and is_whitespace(text[end - 1]):
                end -= 1
        if (start, end) == (0, len(text)):
            return
        if self._alignments is not None:
            self._alignments = self._alignments[start:end]
        elif start:
            self._alignments = unit_spans(end)[start:end]
        self.normalized = text[start:end]

    def replace(self, pattern: Pattern, content: str) -> None:
        """Replace every match of `pattern` by the literal `content` (HF's alignment rules)."""
        self.replace_spans([(s, e) for s, e, hit in find_matches(pattern, self.normalized) if hit], content)

    def replace_spans(self, matches: list[Span], content: str) -> None:
        """Replace the chars of each (start, end) match, ascending and apart, by the literal
        `content`; its chars take the span of the match's last char (HF's alignment rules)."""
        text = self.normalized
        if not matches:
            return
        if self._alignments is None and len(content) == 1 and all(e - s == 1 for s, e in matches):
            pieces, last = [], 0
            for s, e in matches:
                pieces.append(text[last:s])
                pieces.append(content)
                last = e
            pieces.append(text[last:])
            self.map_chars("".join(pieces))
            return
        old = self.alignments
        chars: list[str] = []
        spans: list[Span] = []
        last = 0
        for s, e in matches:
            chars.append(text[last:s])
            spans.extend(old[last:s])
            span = old[e - 1] if e >= 1 else (0, 0)
            chars.append(content)
            spans.extend([span] * len(content))
            last = e
        chars.append(text[last:])
        spans.extend(old[last:])
        self.normalized = "".join(chars)
        self._alignments = spans

    def split(self, pattern: Pattern, behavior: str, invert: bool = False) -> list["NormalizedString"]:
        """Cut the string at the matches of `pattern`, treating the matches by `behavior`."""
        pieces = find_matches(pattern, self.normalized)
        if invert:
            pieces = [(s, e, not hit) for s, e, hit in pieces]
        return [self.slice(s, e) for s, e in apply_behavior(pieces, behavior) if e > s]


# ----- helpers shared by normalizers and pre-tokenizers -----------------------------------

_WHITESPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


_UNIT_SPANS: list[Span] = []


def unit_spans(size: int) -> list[Span]:
    """A shared list whose item i is (i, i + 1), at least `size` long (no tuples rebuilt)."""
    if len(_UNIT_SPANS) < size:
        end = max(size, 2 * len(_UNIT_SPANS), 1024)
        _UNIT_SPANS.extend((i, i + 1) for i in range(len(_UNIT_SPANS), end))
    return _UNIT_SPANS


def is_whitespace(char: str) -> bool:
    """Rust's char::is_whitespace (White_Space); unlike str.isspace, U+001C..U+001F are not."""
    return char in _WHITESPACE


# Lowercase letters of Unicode 16-17 that Rust's std knows and Python 3.11's Unicode 14 does
# not: (first, last, lowercase of first), read off tokenizers' Lowercase over every code point.
_NEWER_LOWERCASE_RANGES = (
    (0x1C89, 0x1C89, 0x1C8A), (0xA7CB, 0xA7CB, 0x0264), (0xA7CC, 0xA7CC, 0xA7CD),
    (0xA7CE, 0xA7CE, 0xA7CF), (0xA7D2, 0xA7D2, 0xA7D3), (0xA7D4, 0xA7D4, 0xA7D5),
    (0xA7DA, 0xA7DA, 0xA7DB), (0xA7DC, 0xA7DC, 0x019B), (0x10D50, 0x10D65, 0x10D70),
    (0x16EA0, 0x16EB8, 0x16EBB),
)
# Applied after str.lower(); a no-op on a Python that already knows these letters.
_NEWER_LOWERCASE = {code: first_lower + code - first
                    for first, last, first_lower in _NEWER_LOWERCASE_RANGES
                    for code in range(first, last + 1)}
_LOWER_CACHE: dict[str, str] = {}


def _lower(text: str) -> str:
    """str.lower() plus the letters Python's Unicode tables do not know yet."""
    return text.lower().translate(_NEWER_LOWERCASE)


def _lower_char(char: str) -> str:
    """Lowercase one char without context, as Rust does."""
    lowered = _LOWER_CACHE.get(char)
    if lowered is None:
        lowered = _LOWER_CACHE[char] = _lower(char)
    return lowered


def _decompose(text: str, compatible: bool) -> Iterator[tuple[str, int]]:
    """Full decomposition with canonical reordering, each char tagged with its change."""
    form = "NFKD" if compatible else "NFD"
    pending: list[tuple[int, str, int]] = []
    for char in text:
        for i, part in enumerate(unicodedata.normalize(form, char)):
            ccc = _combining(part)
            if ccc == 0 and pending:
                pending.sort(key=lambda item: item[0])
                for _, c, change in pending:
                    yield c, change
                pending = []
            pending.append((ccc, part, 0 if i == 0 else 1))
    pending.sort(key=lambda item: item[0])
    for _, c, change in pending:
        yield c, change


# Chars that Python's Unicode decomposes (or, U+11930, composes) and HF's normalizer, on older
# tables, leaves as they are: Unicode 12.1-16 additions, measured against tokenizers over every
# code point (a char Python does not know yet is unchanged on both sides anyway). While a form
# runs they stand in as private-use chars, which no form touches.
_NEWER_COMPATIBLE = "\u32ff\ua7f2-\ua7f4\uab69\U00010780-\U000107ba\U0001e030-\U0001e06d\U0001f16c\U0001fbf0-\U0001fbf9"
_NEWER_CANONICAL = "\U00011938"
_HF_UNKNOWN = {
    "NFD": regex.compile(f"[{_NEWER_CANONICAL}]"),
    "NFC": regex.compile(f"[{_NEWER_CANONICAL}\\U00011930]"),
    "NFKD": regex.compile(f"[{_NEWER_COMPATIBLE}{_NEWER_CANONICAL}]"),
    "NFKC": regex.compile(f"[{_NEWER_COMPATIBLE}{_NEWER_CANONICAL}\\U00011930]"),
}
def newer_than_hf(form: str, text: str) -> bool:
    """Whether `text` holds a char that Python's Unicode tables change in `form` and HF's leave
    as it is (then only NormalizedString's own normalization gives HF's result)."""
    return _HF_UNKNOWN[form].search(text) is not None


# Chars with a nonzero canonical combining class in Python's tables and none in HF's (Unicode 9.0):
# HF never reorders them.
_NEWER_COMBINING = frozenset(chr(code) for first, last in (
    (0x07FD, 0x07FD), (0x0898, 0x089F), (0x08CA, 0x08D3), (0x09FE, 0x09FE), (0x0C3C, 0x0C3C),
    (0x0D3B, 0x0D3C), (0x0EBA, 0x0EBA), (0x1715, 0x1715), (0x1ABF, 0x1ACE), (0x1DF6, 0x1DFA),
    (0xA82C, 0xA82C), (0x10D24, 0x10D27), (0x10EAB, 0x10EAC), (0x10F46, 0x10F50), (0x10F82, 0x10F85),
    (0x11070, 0x11070), (0x1133B, 0x1133B), (0x1145E, 0x1145E), (0x11839, 0x1183A), (0x1193D, 0x1193E),
    (0x11943, 0x11943), (0x119E0, 0x119E0), (0x11A34, 0x11A34), (0x11A47, 0x11A47), (0x11A99, 0x11A99),
    (0x11D42, 0x11D42), (0x11D44, 0x11D45), (0x11D97, 0x11D97), (0x16FF0, 0x16FF1), (0x1E130, 0x1E136),
    (0x1E2AE, 0x1E2AE), (0x1E2EC, 0x1E2EF)) for code in range(first, last + 1))


def _combining(char: str) -> int:
    """The canonical combining class as HF's tables give it."""
    return 0 if char in _NEWER_COMBINING else unicodedata.combining(char)


_PLACEHOLDER_BASE = 0x100000  # plane 16, private use
_UNKNOWN_CODES = [0x32FF, *range(0xA7F2, 0xA7F5), 0xAB69, *range(0x10780, 0x107BB), *range(0x1E030, 0x1E06E),
                  0x1F16C, *range(0x1FBF0, 0x1FBFA), 0x11938, 0x11930]
_TO_PLACEHOLDER = {code: _PLACEHOLDER_BASE + i for i, code in enumerate(_UNKNOWN_CODES)}
_FROM_PLACEHOLDER = {placeholder: code for code, placeholder in _TO_PLACEHOLDER.items()}
_PLACEHOLDERS = regex.compile(f"[{chr(_PLACEHOLDER_BASE)}-{chr(_PLACEHOLDER_BASE + len(_UNKNOWN_CODES) - 1)}]")

_FORM_CACHES: dict[str, dict[str, str]] = {"NFC": {}, "NFD": {}, "NFKC": {}, "NFKD": {}}
CHAR_CACHE_LIMIT = 1 << 16  # distinct chars remembered per per-char cache


def _normalize_chars(form: str, text: str) -> list[str]:
    """Each char of `text` normalized on its own (cached per char)."""
    cache = _FORM_CACHES[form]
    pieces = list(map(cache.get, text))
    if None in pieces:
        for i, piece in enumerate(pieces):
            if piece is None:
                char = text[i]
                pieces[i] = unicodedata.normalize(form, char)
                if len(cache) < CHAR_CACHE_LIMIT:
                    cache[char] = pieces[i]
    return pieces


_COMPOSE_CACHE: dict[tuple[str, str], str | None] = {}


def _compose(first: str, second: str) -> str | None:
    """The primary composite of two chars, if there is one."""
    key = (first, second)
    if key not in _COMPOSE_CACHE:
        composed = unicodedata.normalize("NFC", first + second)
        _COMPOSE_CACHE[key] = composed if len(composed) == 1 else None
    return _COMPOSE_CACHE[key]


def _recompose(stream: Iterable[tuple[str, int]]) -> Iterator[tuple[str, int]]:
    """Canonical composition of a decomposed stream; a composed char sums the changes."""
    composee: tuple[str, int] | None = None
    blocked: list[tuple[str, int]] = []
    last_ccc: int | None = None
    for char, change in stream:
        ccc = _combining(char)
        if composee is None:
            if ccc != 0:
                yield char, change
                continue
            composee = (char, change)
            continue
        if last_ccc is None or last_ccc < ccc:
            composed = _compose(composee[0], char)
            if composed is not None:
                composee = (composed, composee[1] + change - 1)
                continue
        if ccc == 0:
            yield composee
            yield from blocked
            blocked = []
            composee = (char, change)
            last_ccc = None
            continue
        blocked.append((char, change))
        last_ccc = ccc
    if composee is not None:
        yield composee
    yield from blocked


def find_matches(pattern: Pattern, text: str) -> list[tuple[int, int, bool]]:
    """Cut `text` into (start, end, is_match) pieces covering all of it."""
    if not text:
        return [(0, 0, False)]
    if isinstance(pattern, str):
        if not pattern:
            return [(0, len(text), False)]
        pattern = regex.compile(regex.escape(pattern))
    if isinstance(pattern, regex.Pattern):
        spans: Iterable[Span] = find_spans(pattern, text)
    else:
        spans = ((i, i + 1) for i, c in enumerate(text) if pattern(c))
    pieces: list[tuple[int, int, bool]] = []
    previous = 0
    for start, end in spans:
        if previous != start:
            pieces.append((previous, start, False))
        pieces.append((start, end, True))
        previous = end
    if previous != len(text):
        pieces.append((previous, len(text), False))
    return pieces


def replace_matches(pattern: Pattern, text: str, content: str) -> str:
    """`text` with every match of `pattern` replaced by `content`, as NormalizedString.replace does."""
    if not isinstance(pattern, regex.Pattern) or not text:
        return "".join(content if hit else text[start:end] for start, end, hit in find_matches(pattern, text))
    return replaced(text, find_spans(pattern, text), content)


def replaced(text: str, spans: Iterable[Span], content: str) -> str:
    """`text` with the chars of each (start, end) span, ascending and apart, replaced by `content`."""
    pieces: list[str] = []
    done = 0
    for start, end in spans:
        pieces += (text[done:start], content)
        done = end
    return "".join(pieces) + text[done:] if pieces else text


def apply_behavior(pieces: list[tuple[int, int, bool]], behavior: str) -> list[Span]:
    """Turn match pieces into the spans to keep, by HF's split behaviours."""
    if behavior == "isolated":
        return [(s, e) for s, e, _ in pieces]
    if behavior == "removed":
        return [(s, e) for s, e, hit in pieces if not hit]
    spans: list[list[int]] = []
    previous_hit = False
    if behavior == "contiguous":
        for s, e, hit in pieces:
            if spans and hit == previous_hit:
                spans[-1][1] = e
            else:
                spans.append([s, e])
            previous_hit = hit
    elif behavior == "merged_with_previous":
        for s, e, hit in pieces:
            if spans and hit and not previous_hit:
                spans[-1][1] = e
            else:
                spans.append([s, e])
            previous_hit = hit
    elif behavior == "merged_with_next":
        for s, e, hit in reversed(pieces):
            if spans and hit and not previous_hit:
                spans[-1][0] = s
            else:
                spans.append([s, e])
            previous_hit = hit
        spans.reverse()
    else:
        raise ValueError(f"unknown split behavior {behavior!r} (expected one of {BEHAVIORS})")
    return [(s, e) for s, e in spans]


# ----- pre-tokenized strings ------------------------------------------------------------

class Token(NamedTuple):
    """One token of a pre-token: `offsets` are UTF-8 byte offsets within that pre-token."""

    id: int
    value: str
    offsets: tuple[int, int]


class Split:
    """One piece of a pre-tokenized string, and its tokens once the model has run."""

    __slots__ = ("normalized", "tokens")

    def __init__(self, normalized: NormalizedString, tokens: list[Token] | None = None):
        self.normalized = normalized
        self.tokens = tokens


class PreTokenizedString:
    """The splits of one input, cut by the pre-tokenizer and then tokenized by the model."""

    __slots__ = ("original", "splits")

    def __init__(self, source: NormalizedString | str | list[Split]):
        if isinstance(source, str):
            source = NormalizedString(source)
        if isinstance(source, NormalizedString):
            self.original = source.original
            self.splits = [Split(source)]
        else:
            self.original = ""
            self.splits = source

    def split(self, fn: Callable[[int, NormalizedString], Iterable[NormalizedString]]) -> None:
        """Replace each untokenized split by the non-empty pieces `fn` cuts it into."""
        new: list[Split] = []
        for i, split in enumerate(self.splits):
            if split.tokens is not None:
                new.append(split)
                continue
            new.extend(Split(piece) for piece in fn(i, split.normalized) if piece.normalized)
        self.splits = new

    def normalize(self, fn: Callable[[NormalizedString], None]) -> None:
        """Run `fn` on every split that has no tokens yet."""
        for split in self.splits:
            if split.tokens is None:
                fn(split.normalized)

    def tokenize(self, fn: Callable[[str], list[Any]]) -> None:
        """Give every untokenized split the tokens `fn` makes of its text."""
        for split in self.splits:
            if split.tokens is None:
                split.tokens = fn(split.normalized.normalized)

    def get_splits(self, offset_referential: str = "original") -> list[tuple[str, Span]]:
        """The splits with their spans in the original (or in the normalized) text."""
        result = []
        position = 0
        for split in self.splits:
            ns = split.normalized
            if offset_referential == "original":
                span = ns.offsets_original()
            else:
                span = (position, position + len(ns.normalized))
                position = span[1]
            result.append((ns.normalized, span))
        return result

    def token_spans(self, split: Split) -> list[Span]:
        """Original char spans of a split's tokens (the model reports UTF-8 byte offsets)."""
        text = split.normalized.normalized
        return split.normalized.spans_to_original(
            char_spans(text, [token[2] for token in split.tokens]))


def char_spans(text: str, byte_spans: list[Span]) -> list[Span]:
    """Char spans of byte spans within `text`; a span that cuts a char covers all of it."""
    if text.isascii():
        return byte_spans
    char_at = _byte_to_char_index(text)
    spans = []
    for start, end in byte_spans:
        if start == end:
            position = char_at[start] if start < len(char_at) else len(text)
            spans.append((position, position))
        else:
            spans.append((char_at[start], char_at[end - 1] + 1))
    return spans


def unaligned_offsets(original: str, start: int, end: int) -> Span:
    """HF's offsets of a token whose byte span runs past its split (no alignment covers it): the
    span as it is, unshifted, read as byte offsets of the whole input and turned into chars there
    (a byte inside a char stands for that char; a span starting past the input stays bytes)."""
    char_at = _byte_to_char_index(original)
    if start >= len(char_at):
        return start, end
    if end < len(char_at):
        return char_at[start], char_at[end]
    last = char_at[end - 1] if end - 1 < len(char_at) else char_at[start] + 1
    return char_at[start], last + 1


# 1 for a byte that starts a UTF-8 char, 0 for a continuation byte.
UTF8_STARTS = bytes(0 if 0x80 <= byte < 0xC0 else 1 for byte in range(256))


def _byte_to_char_index(text: str) -> list[int]:
    """For each UTF-8 byte of `text`, the index of the char it belongs to."""
    starts = text.encode("utf-8", "surrogatepass").translate(UTF8_STARTS)
    return list(accumulate(starts, initial=-1))[1:]
