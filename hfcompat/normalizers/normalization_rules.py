"""sentencepiece's named normalization rules (nfkc, nmt_nfkc, nfkc_cf, nmt_nfkc_cf), built here.

sentencepiece ships these as precompiled charsmaps compiled with ICU; hfcompat builds the same
rules from Python's `unicodedata` (Unicode 14.0 on Python 3.11), as sentencepiece's builder
does: the NFKC of every code point, plus every sequence of chars that NFKD-decomposes like a
char whose NFKC composes it (e.g. "e" + U+0301 -> "é"), then rules that shorter rules already
give are dropped. nmt_nfkc adds the NMT rules (controls removed, whitespace variants to " ",
fullwidth tilde kept); the _cf variants add simple case folding. Chars whose normalization
changed between Unicode versions normalize differently from sentencepiece's tables.
"""

from __future__ import annotations

import hashlib
import unicodedata
from functools import lru_cache
from itertools import product
from pathlib import Path

from ..files import atomic_write_bytes, cache_dir
from . import charsmap_builder
from .charsmap_builder import build_charsmap

NAMES = ("nfkc", "nmt_nfkc", "nfkc_cf", "nmt_nfkc_cf")
CHECK_BYTES = 32  # the sha256 after a cached charsmap
MAX_UNICODE = 0x10FFFF

# NMT: chars taken as whitespace, and control chars removed (U+200D ZWJ is kept).
NMT_SPACES = (0x0009, 0x000A, 0x000C, 0x000D, 0x1680, 0x200B, 0x200E, 0x200F, 0x2028, 0x2029,
              0x2581, 0xFEFF, 0xFFFD, 0x200C)
NMT_REMOVED = (*range(0x0001, 0x0009), 0x000B, *range(0x000E, 0x0020), 0x007F, 0x008F, 0x009F)
NMT_KEPT = 0xFF5E  # FULLWIDTH TILDE: Japanese uses it apart from "~"

_BUILT: dict[bytes, str] = {}


def _is_unicode_char(code: int) -> bool:
    """Neither a surrogate nor a noncharacter (the code points sentencepiece's builder visits)."""
    return not (0xD800 <= code <= 0xDFFF or 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE)


@lru_cache(maxsize=1)
def nfkc_rules() -> dict[str, str]:
    """sentencepiece's NFKC map: single chars, then the sequences NFKC composes."""
    rules: dict[str, str] = {}
    originals: dict[str, list[str]] = {}  # a one-char NFKD -> the chars decomposing to it
    decomposed: set[str] = set()
    for code in range(1, MAX_UNICODE + 1):
        if not _is_unicode_char(code):
            continue
        char = chr(code)
        nfkc = unicodedata.normalize("NFKC", char)
        if nfkc != char:
            rules[char] = nfkc
        nfkd = unicodedata.normalize("NFKD", char)
        if len(nfkd) == 1:
            originals.setdefault(nfkd, []).append(char)
        else:
            decomposed.add(nfkd)
    for nfkd in sorted(decomposed):
        nfkc = unicodedata.normalize("NFKC", nfkd)
        if nfkc == nfkd:
            continue
        for chars in product(*(originals[char] for char in nfkd)):
            source = "".join(chars)
            if source != nfkc:
                rules[source] = nfkc
    return remove_redundant(rules)


def _apply(rules: dict[str, str], text: str, longest: int) -> str:
    """`text` normalized by the rules with keys of at most `longest` chars (longest match)."""
    out: list[str] = []
    i = 0
    while i < len(text):
        for size in range(min(longest, len(text) - i), 0, -1):
            target = rules.get(text[i:i + size])
            if target is not None:
                out.append(target)
                i += size
                break
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def remove_redundant(rules: dict[str, str]) -> dict[str, str]:
    """Drop each multi-char rule that the shorter rules already give."""
    kept = {source: target for source, target in rules.items() if len(source) == 1}
    for size in range(2, max(map(len, rules), default=1) + 1):
        for source, target in rules.items():
            if len(source) == size and _apply(kept, source, size - 1) != target:
                kept[source] = target
    return kept


def nmt_rules(rules: dict[str, str]) -> dict[str, str]:
    """The rules with the NMT ones merged in."""
    merged = dict(rules)
    merged.update({chr(code): " " for code in NMT_SPACES})
    merged.update({chr(code): "" for code in NMT_REMOVED})
    merged.pop(chr(NMT_KEPT), None)
    return remove_redundant(merged)


def simple_case_fold(char: str) -> str:
    """Unicode simple case folding of one char (Python offers the full folding only)."""
    folded = char.casefold()
    if len(folded) == 1:
        return folded
    lowered = char.lower()
    return lowered if len(lowered) == 1 else char


def case_fold_rules(rules: dict[str, str]) -> dict[str, str]:
    """Fold the rules' outputs, and add a rule for each other char that folds."""
    folded = {source: "".join(map(simple_case_fold, target)) for source, target in rules.items()}
    for code in range(1, MAX_UNICODE + 1):
        char = chr(code)
        if _is_unicode_char(code) and char not in folded:
            target = simple_case_fold(char)
            if target != char:
                folded[char] = target
    return remove_redundant(folded)


@lru_cache(maxsize=None)
def named_rules(name: str) -> dict[str, str]:
    """The rules of one of NAMES."""
    if name == "nfkc":
        return nfkc_rules()
    if name == "nmt_nfkc":
        return nmt_rules(nfkc_rules())
    if name == "nfkc_cf":
        return case_fold_rules(nfkc_rules())
    if name == "nmt_nfkc_cf":
        return case_fold_rules(named_rules("nmt_nfkc"))
    raise ValueError(f"unknown normalization rule {name!r}: expected one of {', '.join(NAMES)}")


@lru_cache(maxsize=None)
def precompiled_charsmap(name: str) -> bytes:
    """The precompiled charsmap of a named rule set (built once, then read from the cache directory)."""
    if name not in NAMES:
        named_rules(name)  # raises the ValueError naming the known rules
    blob = _cached_charsmap(name)
    _BUILT[blob] = name
    return blob


def _cached_charsmap(name: str) -> bytes:
    """build_charsmap(named_rules(name)), remembered in hfcompat's cache directory (building takes
    seconds) under a digest of what it is built from: the Unicode version and the builders'
    source, followed by its sha256 (a file that fails the check is built again). A cache that
    cannot be read or written is ignored."""
    digest = hashlib.sha256(unicodedata.unidata_version.encode())
    for module in (__file__, charsmap_builder.__file__):
        digest.update(Path(module).read_bytes())
    path = cache_dir() / f"charsmap-{name}-{digest.hexdigest()[:16]}.bin"
    try:
        stored = path.read_bytes()
        blob, check = stored[:-CHECK_BYTES], stored[-CHECK_BYTES:]
        if blob and hashlib.sha256(blob).digest() == check:
            return blob
    except OSError:
        pass
    blob = build_charsmap(named_rules(name))  # no file yet, or a damaged one: build it again
    try:
        atomic_write_bytes(path, blob + hashlib.sha256(blob).digest())
    except OSError:
        pass
    return blob


def charsmap_name(blob: bytes) -> str:
    """The rule name a charsmap was built for here, else "custom" ("identity" when empty)."""
    if not blob:
        return "identity"
    return _BUILT.get(bytes(blob), "custom")
