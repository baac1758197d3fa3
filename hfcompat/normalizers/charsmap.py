"""SentencePiece's precompiled charsmap, and HF's `Precompiled` normalizer built on it.

A SentencePiece model carries its normalization rules as one blob (`normalizer_spec.
precompiled_charsmap`, base64-encoded in tokenizer.json's "Precompiled" normalizer):

    u32 LE size T | T bytes: a Darts-clone double-array trie | pool of NUL-terminated UTF-8

The trie maps UTF-8 keys to byte offsets in the pool, where each replacement runs to the next
NUL. An empty blob means identity. `CharsMap` answers prefix queries on it; SentencePiece's own
normalizer takes the longest match, HF's `Precompiled` a stranger rule (see
`precompiled_normalize`).
"""

from __future__ import annotations

import re
import struct
import sys
from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import repeat
from typing import Any, Callable, Iterable

import regex

from .. import _backend
from ..errors import FormatError
from ..pipeline.normalized import NormalizedString

_backend.load("charsmap")  # the compiled twin, when it was built

FIELD = "precompiled_charsmap"

# Unit layout of a Darts-clone double array (32-bit units).
_LEAF_BIT = 1 << 8
_VALUE_MASK = 0x7FFFFFFF
_VALUE_BIT = 0x80000000
_LABEL_MASK = 0x800000FF

# HF's Precompiled replaces a whole grapheme cluster only when it is shorter than this (bytes).
_CLUSTER_BYTES_LIMIT = 6
_CACHE_LIMIT = 1 << 16

_CLUSTER = regex.compile(r"\X")
# Where `regex`'s \X joins chars that Rust's unicode-segmentation (in tokenizers 0.23.3) keeps
# apart; `_clusters` splits there.
# 1. `regex` applies GB9c (Indic conjuncts) to any char before a linker, not only to a
#    consonant: "a" + virama + consonant stays together. A real conjunct is 9+ bytes, as are all
#    its pieces but lone consonants, so splitting every such join changes nothing for them
#    (clusters of 6+ bytes go char by char anyway).
# 2. Marks newer than the Unicode data of HF's segmenter are unassigned there, so they do not
#    join the char before them (but a Prepend char joins anything). Found by probing every
#    char `regex` calls Extend or SpacingMark after "A" and "ª" (tests check the list).
_NEWER_MARKS = ("\u05c8\u05c9\u0b53\u0b54\u1ade\u1adf\u1aec-\u1af0"
                "\U00010ecb-\U00010ecf\U00010ef0-\U00010ef9\U00011df0\U0001d127\U0001d128"
                "\U0001d250-\U0001d252\U0001d25b\U0001d25c\U0001d25f\U0001d280\U0001d281")
_HF_CLUSTER_SPLIT = regex.compile(
    r"(?<=[\p{InCB=Linker}\p{InCB=Extend}])(?=\p{InCB=Consonant})"
    rf"|(?<!\p{{GCB=Prepend}})(?=[{_NEWER_MARKS}])"
)
# Chars that can join the char before or after them into one grapheme cluster. A text without
# any of these, astral chars or CR LF is made of one-char clusters.
_JOINER_CLASS = (r"\p{GCB=Extend}\p{GCB=ZWJ}\p{GCB=SpacingMark}\p{GCB=Prepend}"
                 r"\p{GCB=L}\p{GCB=V}\p{GCB=T}\p{GCB=Regional_Indicator}")

Match = tuple[str, int]
# What HF's stream makes of a window: its new text, and the changes of the untouched char
# before it (if any) then of each new char; None when the window maps char for char.
_WindowResult = tuple[str, "tuple[int, ...] | None"]
# Window start, end, then its result.
_Edit = tuple[int, int, str, "tuple[int, ...] | None"]
# The changes of a window whose removals HF charges to no char (see `_window_result`);
# compared by identity.
_UNCHARGED: tuple[int, ...] = (0,)


def _offset(unit: int) -> int:
    """The XOR offset a unit leads to (Darts-clone packs it in 21 bits with an 8-bit shift)."""
    return (unit >> 10) << ((unit & 0x200) >> 6)


def _check_trie(units: list[int], pool: bytes) -> None:
    """Check every unit as sentencepiece validates the trie on load: a value unit (top bit set)
    holds a rule that starts a char inside the pool, any other unit points inside the units (a
    walk would meet a bad one on some text: better refused on load than while encoding)."""
    size = len(units)
    for index, unit in enumerate(units):
        if unit & _VALUE_BIT:
            _check_rule(unit & _VALUE_MASK, pool)
            continue
        child = index ^ _offset(unit)
        if child >= size:
            raise _fail(f"trie unit {index} points at unit {child}, past the {size} units")
        if unit & _LEAF_BIT and not units[child] & _VALUE_BIT:
            raise _fail(f"trie unit {index} has a rule, but unit {child} holds no value")


def _check_rule(offset: int, pool: bytes) -> None:
    """A rule's replacement starts inside the pool, at the start of a char."""
    if offset >= len(pool):
        raise _fail(f"rule points at byte {offset} past the {len(pool)}-byte pool")
    if 0x80 <= pool[offset] < 0xC0:
        raise _fail(f"rule at pool byte {offset} does not start a UTF-8 char")


def _fail(message: str) -> FormatError:
    """A FormatError about the charsmap blob."""
    return FormatError(message, field=FIELD)


def _walks() -> Any:
    """The module whose walks of a charsmap run on the backend in use: the compiled `_charsmap`,
    or this one (its twins `key_chars`, `char_keys` and `Rewriter`)."""
    return _backend.charsmap or sys.modules[__name__]


def _edges(units: list[int]) -> dict[int, list[tuple[int, int]]]:
    """Node base -> [(byte, child unit index)] for every edge of the trie.

    A unit labelled b at index i is the child by byte b of the node whose children start
    at i ^ b: inverting that once finds the edges without probing 255 bytes per node.
    """
    children: dict[int, list[tuple[int, int]]] = {}
    for index, unit in enumerate(units):
        label = unit & _LABEL_MASK
        if 0 < label < 256:
            children.setdefault(index ^ label, []).append((label, index))
    return children


def _prefix_walk(units: list[int], root: int, replacement: Callable[[int], str], data: bytes, start: int,
                 first_only: bool) -> list[Match]:
    """Common-prefix search of data[start:]: (replacement, bytes consumed) per rule found, the
    replacement read by `replacement` from the leaf unit's index.

    The walk stops at a NUL byte (no key holds one) and where the trie has no edge; an
    index past the array, which only a malformed blob produces, also ends it.
    """
    size = len(units)
    if not size:
        return []
    found: list[Match] = []
    pos = root
    for i in range(start, len(data)):
        byte = data[i]
        if not byte:
            break
        pos ^= byte
        if pos >= size:
            break
        unit = units[pos]
        if unit & _LABEL_MASK != byte:
            break
        pos ^= _offset(unit)
        if unit & _LEAF_BIT:
            found.append((replacement(pos), i + 1 - start))
            if first_only:
                break
    return found


class _CharTable(dict):
    """ord(char) -> what HF's Precompiled makes of that char alone (itself if no rule applies).

    Filled on first use: a dict lookup is the cost of a char seen before.
    """

    def __init__(self, charsmap: "CharsMap"):
        super().__init__()
        self.charsmap = charsmap

    def __missing__(self, code: int) -> str:
        char = chr(code)
        match = self.charsmap.shortest_match(char.encode("utf-8", "surrogatepass"))
        replacement = char if match is None else match[0]
        self[code] = replacement
        return replacement

    def fill(self, codes: Iterable[int]) -> None:
        """Look up many chars at once (in C on the compiled backend)."""
        codes = [code for code in codes if code not in self]
        found = self.charsmap.char_rules(codes, shortest=True)
        self.update((code, found.get(code, chr(code))) for code in codes)


@dataclass(frozen=True)
class _Scanner:
    """Patterns that find where a text may need work, so untouched text costs no Python loop.

    "Simple" chars have a one-char rule and cannot join a neighbour's cluster: a text with no
    other scanned char only needs them mapped in place.
    """

    complex: "re.Pattern[str]"  # a char that may join a cluster or has a rule not 1:1
    simple: "re.Pattern[str]"  # runs of simple chars
    simple_map: dict[int, str]  # ord -> replacement of each simple char, for str.translate
    attention: "re.Pattern[str]"  # runs of every scanned char
    joiners: "re.Pattern[str]"  # a char that may join a cluster


class CharsMap:
    """A parsed precompiled charsmap: prefix search over its normalization rules."""

    __slots__ = ("_blob", "_units", "_pool", "_root", "_replacements", "_chars", "_clusters",
                 "_scanner", "_windows", "_rewriters", "_rule_scanner")

    def __init__(self, blob: bytes, units: list[int], pool: bytes):
        self._blob = blob
        self._units = units
        self._pool = pool
        self._root = _offset(units[0]) if units else 0
        self._replacements: dict[int, str] = {}
        self._chars = _CharTable(self)
        self._clusters: dict[str, str | None] = {}
        self._scanner: _Scanner | None = None
        self._windows: dict[tuple[str, bool], _WindowResult] = {}
        self._rewriters: dict[str, Any] = {}  # backend name -> this map's rewriter on that backend
        self._rule_scanner: _LongestRuleScanner | None = None  # sentencepiece_scanner's, kept here

    @classmethod
    def from_bytes(cls, blob: bytes) -> "CharsMap":
        """Parse a charsmap blob; raise FormatError if it is malformed."""
        blob = bytes(blob)
        if not blob:
            return cls(blob, [], b"")
        if len(blob) < 4:
            raise _fail(f"blob of {len(blob)} bytes is too short for its 4-byte trie size")
        (trie_size,) = struct.unpack_from("<I", blob)
        if trie_size == 0:
            raise _fail("trie size is 0 but the blob is not empty")
        if trie_size % 4:
            raise _fail(f"trie size {trie_size} is not a multiple of 4 (32-bit units)")
        if trie_size > len(blob) - 4:
            raise _fail(f"trie size {trie_size} exceeds the {len(blob) - 4} bytes after the header")
        units = list(struct.unpack_from(f"<{trie_size // 4}I", blob, 4))
        pool = blob[4 + trie_size:]
        try:
            pool.decode("utf-8")
        except UnicodeDecodeError as error:
            raise _fail(f"replacement pool is not valid UTF-8 (byte {error.start})") from None
        if units:
            _check_trie(units, pool)
        return cls(blob, units, pool)

    def __getstate__(self) -> tuple[None, dict[str, Any]]:
        """Pickled without its rewriters (the compiled one is a C object): a copy builds its own."""
        return None, {**{name: getattr(self, name) for name in self.__slots__}, "_rewriters": {},
                      "_rule_scanner": None}

    def to_bytes(self) -> bytes:
        """The blob this map was read from."""
        return self._blob

    @property
    def is_identity(self) -> bool:
        """True for the empty blob, which has no rules."""
        return not self._units

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CharsMap) and other._blob == self._blob

    def __hash__(self) -> int:
        return hash(self._blob)

    def __repr__(self) -> str:
        return f"CharsMap({len(self._blob)} bytes, {len(self._units)} units)"

    def rewriter(self) -> Any:
        """This map's `Rewriter` of the backend in use (the compiled `_charsmap.Rewriter` or its
        twin below), built once per backend."""
        try:
            return self._rewriters[_backend.backend]
        except KeyError:
            kind = _walks().Rewriter
            rewriter = self._rewriters[_backend.backend] = kind(self._units, self._root, self._leaf_replacement,
                                                                self._pool)
            return rewriter

    # ----- prefix search ------------------------------------------------------------------

    def _walk(self, data: bytes, start: int, first_only: bool) -> list[Match]:
        """Common-prefix search of data[start:] (see `_prefix_walk`)."""
        return _prefix_walk(self._units, self._root, self._leaf_replacement, data, start, first_only)

    def _leaf_replacement(self, pos: int) -> str:
        """The replacement held by the leaf unit at `pos`."""
        if pos >= len(self._units):
            raise _fail(f"trie leaf at unit {pos} lies past the {len(self._units)} units")
        return self._replacement(self._units[pos] & _VALUE_MASK)

    def _replacement(self, offset: int) -> str:
        """The NUL-terminated replacement at byte `offset` of the pool."""
        text = self._replacements.get(offset)
        if text is None:
            pool = self._pool
            if offset > len(pool):
                raise _fail(f"rule points at byte {offset} past the {len(pool)}-byte pool")
            end = pool.find(b"\0", offset)
            try:
                text = pool[offset:len(pool) if end < 0 else end].decode("utf-8")
            except UnicodeDecodeError:
                raise _fail(f"rule at pool byte {offset} does not start a UTF-8 char") from None
            self._replacements[offset] = text
        return text

    def prefix_matches(self, data: bytes, start: int = 0) -> list[Match]:
        """Every rule whose key is a prefix of data[start:], shortest first."""
        return self._walk(data, start, first_only=False)

    def shortest_match(self, data: bytes, start: int = 0) -> Match | None:
        """The rule with the shortest key that prefixes data[start:] (HF's choice), or None."""
        found = self._walk(data, start, first_only=True)
        return found[0] if found else None

    def longest_match(self, data: bytes, start: int = 0) -> Match | None:
        """The rule with the longest key that prefixes data[start:] (SentencePiece's), or None."""
        found = self._walk(data, start, first_only=False)
        return found[-1] if found else None

    def char_rules(self, codes: Iterable[int], shortest: bool) -> dict[int, str]:
        """code point -> the replacement of the shortest (HF's) or longest (SentencePiece's) rule
        whose key prefixes that char alone, for each of `codes` no rule misses."""
        return self.rewriter().char_rules(codes, shortest)

    def continues(self, data: bytes) -> bool:
        """True when some key is longer than `data` and begins with it."""
        units = self._units
        size = len(units)
        pos = self._root
        for byte in data:
            pos ^= byte
            if not byte or pos >= size or units[pos] & _LABEL_MASK != byte:
                return False
            pos ^= _offset(units[pos])
        return any(pos ^ label < size and units[pos ^ label] & _LABEL_MASK == label for label in range(1, 256))

    def _char_keys(self) -> list[bytes]:
        """Every key no longer than one UTF-8 char of 1 to 3 bytes, partial chars included (the
        reference's where the compiled walk declines)."""
        found = _walks().char_keys(self._units, self._root, _UTF8_WIDTHS)
        return found if found is not None else char_keys(self._units, self._root, _UTF8_WIDTHS)

    # ----- HF's lookups, cached -----------------------------------------------------------

    def char_replacement(self, char: str) -> str:
        """What HF's Precompiled makes of `char` on its own (itself when no rule applies)."""
        return self._chars[ord(char)]

    def cluster_replacement(self, cluster: str) -> str | None:
        """The shortest rule prefixing a multi-char cluster under 6 bytes, else None."""
        clusters = self._clusters
        if cluster in clusters:
            return clusters[cluster]
        key = cluster.encode("utf-8", "surrogatepass")
        match = self.shortest_match(key) if len(key) < _CLUSTER_BYTES_LIMIT else None
        if len(clusters) >= _CACHE_LIMIT:
            clusters.clear()
        replacement = clusters[cluster] = None if match is None else match[0]
        return replacement

    def _scan_patterns(self) -> _Scanner:
        """The patterns `precompiled_normalize` scans with (built on first use)."""
        if self._scanner is None:
            ruled = _ruled_codepoints(self._char_keys())
            joiners = _joiner_codepoints()
            simple_map = {}
            self._chars.fill(ruled - joiners)
            for code in ruled - joiners:
                replacement = self._chars[code]
                if len(replacement) == 1:
                    simple_map[code] = replacement
            self._scanner = _Scanner(
                complex=_bmp_class_pattern(ruled.difference(simple_map) | joiners, "|\r\n"),
                simple=_bmp_class_pattern(simple_map, "+"),
                simple_map=simple_map,
                attention=_bmp_class_pattern(ruled | joiners | {0x0D}, "+"),
                joiners=_bmp_class_pattern(joiners | {0x0D}, ""),
            )
        return self._scanner


# ----- the chars a text must be scanned for -------------------------------------------------

def _utf8_width(lead: int) -> int:
    """Length of the UTF-8 sequence a byte starts (0 if it cannot start one)."""
    if lead < 0x80:
        return 1
    if 0xC2 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    if 0xF0 <= lead <= 0xF4:
        return 4
    return 0


# The UTF-8 length each byte starts (0: none), for the compiled walk (`_charsmap.key_chars`).
_UTF8_WIDTHS = bytes(map(_utf8_width, range(256)))


def _ruled_codepoints(keys: Iterable[bytes]) -> set[int]:
    """BMP code points that one of these keys (one char or part of one) prefixes."""
    ruled: set[int] = set()
    for key in keys:
        width = _utf8_width(key[0])
        if width in (0, 4):
            continue
        if len(key) == width:
            try:
                ruled.add(ord(key.decode("utf-8")))
            except UnicodeDecodeError:
                pass
            continue
        # A key ending inside a char applies to every char whose encoding starts with it: the
        # code points whose high bits the key spells, of this width, surrogates left out.
        if any(not 0x80 <= byte < 0xC0 for byte in key[1:]):
            continue
        bits = key[0] & (0x1F if width == 2 else 0x0F)
        for byte in key[1:]:
            bits = bits << 6 | byte & 0x3F
        rest = 6 * (width - len(key))
        lowest = 0x80 if width == 2 else 0x800
        ruled.update(code for code in range(max(bits << rest, lowest), (bits + 1) << rest)
                     if not 0xD800 <= code < 0xE000)
    return ruled


@lru_cache(maxsize=None)
def _joiner_codepoints() -> frozenset[int]:
    """BMP code points that may join a neighbour into one grapheme cluster (CR apart)."""
    pattern = regex.compile(f"[{_JOINER_CLASS}]")
    bmp = "".join(chr(code) for code in range(0x10000) if not 0xD800 <= code < 0xE000)
    return frozenset(ord(m.group()) for m in pattern.finditer(bmp))


def _bmp_class_pattern(codepoints: Iterable[int], suffix: str) -> "re.Pattern[str]":
    """A pattern for one of these BMP code points or any astral char, then `suffix`.

    This uses `re`, not `regex`: for a class of literal BMP ranges plus one astral range, `re`
    compiles a 64K bitmap and scans ~100x faster. No Unicode property is involved.
    """
    return re.compile(f"{_bmp_class(codepoints)}{suffix}")


def _bmp_class(codepoints: Iterable[int]) -> str:
    """An `re` class of these BMP code points and every astral char."""
    ranges: list[list[int]] = []
    for code in sorted(codepoints):
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    parts = [re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"
             for a, b in ranges]
    return f"[{''.join(parts)}\\U00010000-\\U0010ffff]"


# ----- HF's Precompiled normalizer ------------------------------------------------------------

def precompiled_normalize(charsmap: CharsMap, ns: NormalizedString) -> None:
    """Apply HF's `Precompiled` normalizer to `ns` in place, with HF's alignments.

    Per extended grapheme cluster: a cluster under 6 UTF-8 bytes that some rule prefixes is
    replaced whole by the shortest such rule (even when the rule's key covers only part of it);
    otherwise each char is replaced by its own rule or kept. HF feeds the result to `transform`
    as (char, change) pairs built by `_replace`. Untouched chars pass as (char, 0), keeping their
    alignment, so only windows around the chars that may change are rebuilt here.
    """
    text = ns.normalized
    if not text or charsmap.is_identity:
        return
    scanner = charsmap._scan_patterns()
    if scanner.complex.search(text) is None:
        table = scanner.simple_map
        mapped = scanner.simple.sub(lambda match: match.group().translate(table), text)
        if mapped != text:
            ns.map_chars(mapped)
        return
    edits: list[_Edit] = []
    for start, end in _windows(scanner.attention, text):
        new, changes = _window_result(charsmap, scanner, text[start:end], start > 0)
        if changes is _UNCHARGED:
            _transform_whole(charsmap, ns)
            return
        edits.append((start, end, new, changes))
    if all(changes is None for _, _, _, changes in edits):
        _map_one_to_one(ns, edits)
        return
    for start, end, new, changes in reversed(edits):
        if changes is None:
            ns.transform_range(start, end, zip(new, repeat(0)))
        elif start:
            ns.transform_range(start - 1, end, zip(text[start - 1] + new, changes))
        else:
            ns.transform_range(0, end, zip(new, changes))


def _windows(attention: "re.Pattern[str]", text: str) -> list[tuple[int, int]]:
    """Spans that hold every char that may change, each bounded by cluster boundaries.

    A run of scanned chars is widened by one char on each side: two unscanned chars in a row
    always have a cluster boundary between them. Windows are kept apart by at least one
    untouched char, which stands before each window as HF's "previous pair".
    """
    windows: list[list[int]] = []
    size = len(text)
    for match in attention.finditer(text):
        start, end = max(match.start() - 1, 0), min(match.end() + 1, size)
        if windows and start <= windows[-1][1]:
            windows[-1][1] = end
        else:
            windows.append([start, end])
    return [(start, end) for start, end in windows]


def _window_result(charsmap: CharsMap, scanner: _Scanner, piece: str,
                   has_context: bool) -> _WindowResult:
    """What HF's stream makes of a window's text, cached (windows repeat a lot).

    `has_context`: an untouched char stands before the window; its change leads `changes`.
    Without one, removals at the very start of the text may go uncharged (HF then shifts every
    later char onto the removed ones): `changes` is then `_UNCHARGED`.
    """
    cache = charsmap._windows
    key = (piece, has_context)
    result = cache.get(key)
    if result is not None:
        return result
    clusters: Iterable[str] = _clusters(piece) if scanner.joiners.search(piece) else piece
    # The untouched char before the window only matters through its change: "" stands for it.
    chars, changes = ([""], [0]) if has_context else ([], [])
    _extend_transformations(charsmap, clusters, chars, changes)
    new = "".join(chars)
    if not has_context and sum(1 - change for change in changes if change <= 0) != len(piece):
        result = (new, _UNCHARGED)
    elif len(new) == len(piece) and not any(changes):
        result = (new, None)
    else:
        result = (new, tuple(changes))
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = result
    return result


def _map_one_to_one(ns: NormalizedString, edits: list[_Edit]) -> None:
    """Apply edits that replace char for char (alignments, identity included, unchanged)."""
    text = ns.normalized
    pieces: list[str] = []
    last = 0
    for start, end, new, _ in edits:
        pieces.append(text[last:start])
        pieces.append(new)
        last = end
    pieces.append(text[last:])
    mapped = "".join(pieces)
    if mapped != text:
        ns.map_chars(mapped)


def _transform_whole(charsmap: CharsMap, ns: NormalizedString) -> None:
    """HF's Precompiled as written: one stream over every cluster of the text."""
    chars: list[str] = []
    changes: list[int] = []
    _extend_transformations(charsmap, _clusters(ns.normalized), chars, changes)
    ns.transform(zip(chars, changes))


def _clusters(text: str) -> list[str]:
    """Extended grapheme clusters as Rust's unicode-segmentation cuts them."""
    clusters = _CLUSTER.findall(text)
    if _HF_CLUSTER_SPLIT.search(text) is None:
        return clusters
    return [part for cluster in clusters for part in _HF_CLUSTER_SPLIT.split(cluster) if part]


def _extend_transformations(charsmap: CharsMap, clusters: Iterable[str], chars: list[str],
                            changes: list[int]) -> None:
    """Append the (chars, changes) HF's Precompiled builds for these clusters."""
    table = charsmap._chars
    for cluster in clusters:
        if len(cluster) > 1:
            whole = charsmap.cluster_replacement(cluster)
            if whole is not None:
                _replace(chars, changes, len(cluster), whole)
                continue
        for char in cluster:
            replacement = table[ord(char)]
            if replacement == char:
                chars.append(char)
                changes.append(0)
            else:
                _replace(chars, changes, 1, replacement)


def _replace(chars: list[str], changes: list[int], old_count: int, new: str) -> None:
    """Append `new` standing for `old_count` old chars, as HF's Precompiled does.

    Extra new chars are marked inserted (1); missing ones are charged to the last pair already
    in the stream, even one from an earlier cluster, and to none at all when the stream is
    still empty (then later chars shift onto the removed ones, as in HF).
    """
    diff = len(new) - old_count
    chars.extend(new)
    if diff > 0:
        changes.extend([0] * (len(new) - diff))
        changes.extend([1] * diff)
        return
    changes.extend([0] * len(new))
    if diff < 0 and changes:
        changes[-1] += diff


# ----- SentencePiece's own normalizer ---------------------------------------------------------

@dataclass
class _KeyChars:
    """Which chars a rule's key may start with, and what may follow them, from a full walk."""

    alone: set[int]  # chars that are a whole key
    leading: set[int]  # first chars of keys longer than one char
    second: set[int]  # second chars of those keys
    longest: int  # bytes of the longest key


# A key's first two chars take at most this many bytes; below them only the key's length matters.
_TWO_CHARS_BYTES = 8
# The length of the longest key of a trie with a cycle (a window as long as any text).
UNBOUNDED = sys.maxsize


def _key_chars(charsmap: CharsMap) -> _KeyChars:
    """`key_chars` of the charsmap's trie (the reference's where the compiled walk declines)."""
    arguments = (charsmap._units, charsmap._root, _UTF8_WIDTHS)
    return _KeyChars(*(_walks().key_chars(*arguments) or key_chars(*arguments)))


def key_chars(units: list[int], root: int, widths: bytes) -> tuple[set[int], set[int], set[int], int]:
    """Walk every key of the trie and sort its first two chars (chars of 1 to 4 bytes): the
    chars that are a whole key, the first and second chars of longer keys, and the bytes of
    the longest key. `widths` holds the UTF-8 length each byte starts (0: none)."""
    children = _edges(units)
    alone: set[int] = set()
    leading: set[int] = set()
    second: set[int] = set()
    longest = 0
    stack = [(b"", root, 0)]  # key so far, node, byte length of its first char
    deeper: list[tuple[int, int]] = []  # (node, key bytes so far) past the first two chars
    while stack:
        key, base, first = stack.pop()
        for label, index in children.get(base, ()):
            child = key + bytes((label,))
            longest = max(longest, len(child))
            width = first or widths[child[0]]
            unit = units[index]
            if width and len(child) == width and unit & _LEAF_BIT:
                _add_char(alone, child)
            if width and len(child) > width and len(child) == width + widths[child[width]]:
                _add_char(leading, child[:width])
                _add_char(second, child[width:])
            if len(child) < _TWO_CHARS_BYTES:
                stack.append((child, index ^ _offset(unit), width))
            else:
                deeper.append((index ^ _offset(unit), len(child)))
    heights = _heights(children, units, [node for node, _ in deeper])
    for node, depth in deeper:
        longest = max(longest, depth + heights[node])
    return alone, leading, second, longest


def char_keys(units: list[int], root: int, widths: bytes) -> list[bytes]:
    """Every key no longer than one UTF-8 char of 1 to 3 bytes, partial chars included."""
    children = _edges(units)
    keys: list[bytes] = []
    stack = [(b"", root)]
    while stack:
        key, base = stack.pop()
        for label, index in children.get(base, ()):
            child_key = key + bytes((label,))
            width = widths[child_key[0]]
            if width == 0 or width == 4:
                continue
            unit = units[index]
            if unit & _LEAF_BIT:
                keys.append(child_key)
            if len(child_key) < width:
                stack.append((child_key, index ^ _offset(unit)))
    return keys


def _heights(children: dict[int, list[tuple[int, int]]], units: list[int], nodes: list[int]) -> dict[int, int]:
    """How many more bytes a key can run below each of `nodes`; UNBOUNDED below a cycle (a
    damaged trie that sentencepiece still loads, walking it only as far as a text goes)."""
    heights: dict[int, int] = {}
    on_path: set[int] = set()
    for top in nodes:
        stack = [(top, False)]
        while stack:
            node, done = stack.pop()
            if done:
                on_path.discard(node)
                below = [heights[index ^ _offset(units[index])] for _, index in children.get(node, ())]
                heights[node] = min(UNBOUNDED, 1 + max(below)) if below else 0
                continue
            if node in heights:
                continue
            if node in on_path:  # a cycle: keys as long as any text
                heights[node] = UNBOUNDED
                continue
            on_path.add(node)
            stack.append((node, True))
            stack.extend((index ^ _offset(units[index]), False) for _, index in children.get(node, ()))
    return heights


def _add_char(chars: set[int], key: bytes) -> None:
    """Add the char `key` spells (nothing if it is not one valid char)."""
    try:
        text = key.decode("utf-8")
    except UnicodeDecodeError:
        return
    if len(text) == 1:
        chars.add(ord(text))


@dataclass(frozen=True)
class _LongestRuleScanner:
    """Where SentencePiece's rules of one charsmap may apply, and shortcuts past the search.

    A rule applies at a char that is a key on its own, or that begins a longer key and is
    followed by a char that is the second char of some key; so a text with no char of either
    of those two kinds has no such place (a set test, far quicker than the pattern's search),
    and in a text with no second char every rule that applies is a one-char key.
    """

    places: "re.Pattern[str]"  # matches each char where a rule may apply
    rule_chars: frozenset[str]  # the one-char keys and the second chars
    second_chars: frozenset[str]
    one_char_rules: dict[int, str]  # a str.translate table: each one-char key -> its replacement
    longest: int  # bytes of the longest key
    # bytes.translate's (table, deleted bytes) of the ASCII one-char rules, when each gives one
    # ASCII char or none and no key goes on past an ASCII char: an ASCII text then needs no more
    ascii_rules: tuple[bytes, bytes] | None


def _sentencepiece_scanner(charsmap: CharsMap) -> _LongestRuleScanner:
    """The _LongestRuleScanner of a charsmap, kept on it (the shared cache below compares whole
    blobs, 10 us per text for a freshly loaded copy of a map)."""
    if charsmap._rule_scanner is None:
        charsmap._rule_scanner = _shared_sentencepiece_scanner(charsmap)
    return charsmap._rule_scanner


@lru_cache(maxsize=8)
def _shared_sentencepiece_scanner(charsmap: CharsMap) -> _LongestRuleScanner:
    """The _LongestRuleScanner of a charsmap, built once for equal maps."""
    keys = _key_chars(charsmap)
    places = f"{_bmp_class(keys.alone)}|{_bmp_class(keys.leading)}(?={_bmp_class(keys.second)})"
    one_char_rules = charsmap.char_rules(keys.alone, shortest=False)
    return _LongestRuleScanner(re.compile(places), frozenset(map(chr, keys.alone | keys.second)),
                               frozenset(map(chr, keys.second)), one_char_rules, keys.longest,
                               _ascii_rules(one_char_rules, keys.second))


def _ascii_rules(one_char_rules: dict[int, str], second: set[int]) -> tuple[bytes, bytes] | None:
    """The one-char rules of ASCII chars as bytes.translate's (table, deleted bytes); None when
    one gives more than one char or a non-ASCII one, or an ASCII char is the second char of a key."""
    if any(code < 0x80 for code in second):
        return None
    table = bytearray(range(256))
    deleted = bytearray()
    for code, replacement in one_char_rules.items():
        if code >= 0x80:
            continue
        if replacement == "":
            deleted.append(code)
        elif len(replacement) == 1 and replacement.isascii():
            table[code] = ord(replacement)
        else:
            return None
    return bytes(table), bytes(deleted)


def rules_may_touch(charsmap: CharsMap, text: str) -> bool:
    """True when some rule's key begins at a char of `text` and either ends inside it or runs on
    past its end: only then can leaving `text` as it is (SentencePiece does so for user-defined
    symbols) change what the charsmap makes of it."""
    for index in range(len(text)):
        tail = text[index:].encode("utf-8", "surrogatepass")
        if charsmap.prefix_matches(tail) or charsmap.continues(tail):
            return True
    return False


def sentencepiece_normalize(charsmap: CharsMap, ns: NormalizedString, protected: tuple[str, ...] = ()) -> None:
    """Apply the charsmap as SentencePiece does, in place (see `longest_rule_rewrites`); the
    chars a rule puts in share the span of the chars it covers."""
    text = ns.normalized
    if not text or charsmap.is_identity:
        return
    if protected:
        expanded = _expansion(text, longest_rule_rewrites(charsmap, text, protected))
    elif _sentencepiece_scanner(charsmap).rule_chars.isdisjoint(text):
        return
    else:
        expanded = charsmap.rewriter().expansion(text)
    if expanded is None:
        return
    new, sources = expanded
    if sources is None:
        ns.map_chars(new)
    else:
        ns.expand_from(new, sources)


def sentencepiece_normalized(charsmap: CharsMap, text: str, protected: tuple[str, ...] = ()) -> str:
    """`text` with the charsmap applied as SentencePiece applies it (no alignments kept)."""
    if not text or charsmap.is_identity:
        return text
    if protected:
        return _rewritten(text, longest_rule_rewrites(charsmap, text, protected))
    scanner = _sentencepiece_scanner(charsmap)
    if scanner.ascii_rules is not None and text.isascii():
        return text.encode("ascii").translate(*scanner.ascii_rules).decode("ascii")
    return charsmap.rewriter().normalized(text)


def _rewritten(text: str, rewrites: list[tuple[int, int, str]]) -> str:
    """`text` with these rewrites (start, chars covered, replacement) applied."""
    pieces: list[str] = []
    done = 0
    for start, chars, replacement in rewrites:
        pieces += (text[done:start], replacement)
        done = start + chars
    return "".join(pieces) + text[done:] if pieces else text


def _expansion(text: str, rewrites: list[tuple[int, int, str]]) -> tuple[str, list[int] | None] | None:
    """`text` with these rewrites applied and, for each of its chars, the index of the char of
    `text` it stands for (a replacement's chars stand for the first char they replace), or None
    in place of that list when every rewrite puts one char for one; None for no rewrite."""
    if not rewrites:
        return None
    if all(chars == 1 and len(replacement) == 1 for _, chars, replacement in rewrites):
        return _rewritten(text, rewrites), None
    pieces: list[str] = []
    sources: list[int] = []
    done = 0
    for start, chars, replacement in rewrites:
        pieces += (text[done:start], replacement)
        sources += range(done, start)
        sources += [start] * len(replacement)
        done = start + chars
    pieces.append(text[done:])
    sources += range(done, len(text))
    return "".join(pieces), sources


WINDOW_CACHE = 100_000  # windows remembered by one longest_rule_rewrites call before it starts over


def longest_rule_rewrites(charsmap: CharsMap, text: str,
                          protected: tuple[str, ...] = ()) -> list[tuple[int, int, str]]:
    """Where SentencePiece's normalizer rewrites `text`: (start, chars covered, replacement).

    From each position, the rule with the longest key (in bytes, ending on a char boundary)
    replaces the chars it covers; a position no rule prefixes keeps its char. A `protected`
    string (SentencePiece's user-defined symbols) that begins at a position reached this way
    is kept as it is, the longest one first.
    """
    if not text or charsmap.is_identity:
        return []
    symbol_starts = _protected_starts(protected, text)
    if not symbol_starts:
        return charsmap.rewriter().rewrites(text)
    return _rewrites(_sentencepiece_scanner(charsmap), charsmap.prefix_matches, text, symbol_starts)


def _rewrites(scanner: _LongestRuleScanner, prefix_matches: Callable[[bytes], list[Match]], text: str,
              symbol_starts: dict[int, str]) -> list[tuple[int, int, str]]:
    """`longest_rule_rewrites` of a charsmap known by its scanner and its `prefix_matches`,
    the protected strings found at `symbol_starts`."""
    if not symbol_starts and scanner.rule_chars.isdisjoint(text):
        return []
    longest = scanner.longest
    rewrites = []
    done = 0
    found_in: dict[str, tuple[str, int] | None] = {}  # window -> its rule: a long text repeats windows
    for start in sorted(symbol_starts.keys() | {match.start() for match in scanner.places.finditer(text)}):
        if start < done:
            continue
        symbol = symbol_starts.get(start)
        if symbol is not None:
            done = start + len(symbol)
            continue
        window = text[start:start + longest]
        if window not in found_in:
            if len(found_in) > WINDOW_CACHE:
                found_in.clear()
            found_in[window] = _longest_on_boundary(prefix_matches, window)
        found = found_in[window]
        if found is None:
            done = start + 1
            continue
        replacement, chars = found
        rewrites.append((start, chars, replacement))
        done = start + chars
    return rewrites


def _protected_starts(protected: tuple[str, ...], text: str) -> dict[int, str]:
    """Each position of `text` where a protected string begins -> the longest one there."""
    if not protected:
        return {}
    return {match.start(): match.group(1) for match in _protected_pattern(protected).finditer(text)}


@lru_cache(maxsize=8)
def _protected_pattern(protected: tuple[str, ...]) -> "re.Pattern[str]":
    """A zero-width pattern capturing the longest protected string at every position."""
    alternatives = "|".join(map(re.escape, sorted(protected, key=len, reverse=True)))
    return re.compile(f"(?=({alternatives}))")


def _longest_on_boundary(prefix_matches: Callable[[bytes], list[Match]], window: str) -> tuple[str, int] | None:
    """The longest rule prefixing `window` whose key ends between chars: (replacement, chars),
    found among what `prefix_matches` (a charsmap's) gives."""
    data = window.encode("utf-8", "surrogatepass")
    ends = {0: 0}
    position = 0
    for count, char in enumerate(window, 1):
        position += len(char.encode("utf-8", "surrogatepass"))
        ends[position] = count
    for replacement, length in reversed(prefix_matches(data)):
        if length in ends:
            return replacement, ends[length]
    return None


class Rewriter:
    """SentencePiece's longest-key walk over each text (`longest_rule_rewrites` without
    protected strings) and the per-char rule lookups of a charsmap's units: the reference twin
    of `_charsmap.Rewriter`, with the same methods. It walks the trie only from the chars where
    the map's `_LongestRuleScanner` says a rule may apply."""

    def __init__(self, units: list[int], root: int, replacement: Callable[[int], str], pool: bytes):
        """A charsmap's units and the root node; `replacement` gives the text a leaf unit
        stands for (raising FormatError where the blob is damaged), read from `pool`."""
        self.units = units
        self.pool = pool
        self._prefix_matches = partial(_prefix_walk, units, root, replacement, start=0, first_only=False)
        self._first_match = partial(_prefix_walk, units, root, replacement, start=0, first_only=True)
        self._scanner: _LongestRuleScanner | None = None

    def char_rules(self, codes: Iterable[int], shortest: bool) -> dict[int, str]:
        """code point -> the replacement of the shortest (HF's Precompiled) or the longest
        (SentencePiece) key that prefixes the char's UTF-8 alone, for each of `codes`; a char
        no key prefixes is left out."""
        search = self._first_match if shortest else self._prefix_matches
        found = {}
        for code in codes:
            matches = search(chr(code).encode("utf-8", "surrogatepass"))
            if matches:
                found[code] = matches[-1][0]
        return found

    def normalized(self, text: str) -> str:
        """`text` with every rewrite of `rewrites` applied (SentencePiece's normalized string)."""
        if not self.units:
            return text
        scanner = self._rule_scanner()
        if scanner.second_chars.isdisjoint(text):  # every rule that applies is a one-char key
            return text.translate(scanner.one_char_rules) if not scanner.rule_chars.isdisjoint(text) else text
        return _rewritten(text, self.rewrites(text))

    def expansion(self, text: str) -> tuple[str, list[int] | None] | None:
        """`text` rewritten (as `normalized` gives it) and the source of each of its chars, as
        `_expansion` gives them; None when nothing is rewritten."""
        return _expansion(text, self.rewrites(text))

    def rewrites(self, text: str) -> list[tuple[int, int, str]]:
        """Where SentencePiece's normalizer rewrites `text`: (start, chars covered, replacement)."""
        if not self.units:
            return []
        return _rewrites(self._rule_scanner(), self._prefix_matches, text, {})

    def _rule_scanner(self) -> _LongestRuleScanner:
        """The scanner of the charsmap these units and pool make (the one equal maps share)."""
        if self._scanner is None:
            blob = struct.pack(f"<I{len(self.units)}I", 4 * len(self.units), *self.units) + self.pool
            self._scanner = _sentencepiece_scanner(CharsMap(blob, self.units, self.pool))
        return self._scanner


def charsmap_rules(charsmap: CharsMap) -> dict[str, str]:
    """Every rule of a charsmap, {source: replacement} (keys that are not UTF-8 left out)."""
    units = charsmap._units
    children = _edges(units)
    rules: dict[str, str] = {}
    stack = [(b"", charsmap._root)]
    while stack:
        key, base = stack.pop()
        for label, index in children.get(base, ()):
            child = key + bytes((label,))
            unit = units[index]
            child_base = index ^ _offset(unit)
            if unit & _LEAF_BIT:
                try:
                    rules[child.decode("utf-8")] = charsmap._leaf_replacement(child_base)
                except UnicodeDecodeError:
                    pass
            stack.append((child, child_base))
    return rules
