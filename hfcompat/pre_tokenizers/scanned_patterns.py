r"""The split patterns that the compiled core scans without a regex engine.

GPT-2's, r50k's and cl100k's (tiktoken), Llama 3's and Qwen2's patterns all have one shape: a
contraction, a run of letters, of digits or of other chars, then whitespace. A `ScanRule` says
which variant a pattern is; `_scan.pyx` (the compiled twin) walks a text by that rule, and the
pattern itself, run by `regex`, stays the reference: a pattern not listed here, and every
pattern on the pure-Python backend, runs as a regex.

What a scan reads of each char (a letter `\p{L}`, a number `\p{N}`, whitespace `\s`, and which
contraction letter it folds to under `(?i)`) is asked of the same regex engine and dialect as
the pattern's, a block of 256 chars at a time when the scan first meets one, on the chars as
`onig_view` shows them. So the scan and the regex cannot disagree on a class.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

import regex

from .. import _backend
from ..pipeline.oniguruma import compile_pattern, onig_view
from .tiktoken_pattern import CL100K_PATTERN, R50K_PATTERN, to_oniguruma, to_python

try:
    from . import _scan
except ImportError:  # not built: the patterns run as regexes
    pass
else:
    _backend.register("scan", _scan)

ONIGURUMA = "oniguruma"  # a tokenizer.json pattern (hfcompat runs Oniguruma's meaning with `regex`)
TIKTOKEN = "tiktoken"  # a tiktoken pattern (fancy-regex's meaning)

GPT2_PATTERN = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"
LLAMA3_PATTERN = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
                  r"|\s*[\r\n]+|\s+(?!\S)|\s+")
QWEN2_PATTERN = LLAMA3_PATTERN.replace(r"\p{N}{1,3}", r"\p{N}")

# The class bits of a char (`block_classes`); the contraction letters are numbered from 1.
LETTER, NUMBER, SPACE = 1, 2, 4
FOLD_SHIFT = 3
CONTRACTION_LETTERS = "sdmtlvre"


@dataclass(frozen=True)
class ScanRule:
    r"""A variant of the shape.

    GPT-2's (`prefixed` false): `'s|'t|'re|'ve|'m|'ll|'d`, then ` ?\p{L}+`, ` ?\p{N}+`,
    ` ?[^\s\p{L}\p{N}]+`, `\s+(?!\S)`, `\s+`. cl100k's (`prefixed`): the contractions, then
    `[^\r\n\p{L}\p{N}]?\p{L}+`, `\p{N}{1,digits}`, ` ?[^\s\p{L}\p{N}]+[\r\n]*`, `\s*[\r\n]+`,
    `\s+(?!\S)`, `\s+`. Possessive or not, `\s*[\r\n]` or `\s*[\r\n]+`, `\s` or `\s+` last:
    the matches are the same, and they tile the text.
    """

    prefixed: bool
    folded: bool  # the contractions are matched under (?i)
    digits: int = 0  # the most digits in a piece; 0: no limit
    whitespace_to_end: bool = False  # `\s++$` first: a whitespace run that ends the text is one piece


_GPT2 = ScanRule(prefixed=False, folded=False)
_R50K = ScanRule(prefixed=False, folded=False, whitespace_to_end=True)
_CL100K = ScanRule(prefixed=True, folded=True, digits=3, whitespace_to_end=True)
RULES: dict[tuple[str, str], ScanRule] = {
    (ONIGURUMA, GPT2_PATTERN): _GPT2,
    (TIKTOKEN, R50K_PATTERN): _R50K,
    (ONIGURUMA, to_oniguruma(R50K_PATTERN)): _R50K,
    (TIKTOKEN, CL100K_PATTERN): _CL100K,
    (ONIGURUMA, to_oniguruma(CL100K_PATTERN)): _CL100K,
    (ONIGURUMA, LLAMA3_PATTERN): ScanRule(prefixed=True, folded=True, digits=3),
    (ONIGURUMA, QWEN2_PATTERN): ScanRule(prefixed=True, folded=True, digits=1),
}


def is_scanned(pattern: str, dialect: str) -> bool:
    """Whether `pattern` (in `dialect`) is one of the RULES: its matches tile every text."""
    return (dialect, pattern) in RULES


def scanner(pattern: str, dialect: str) -> Any:
    """The compiled scanner of a listed pattern, with `split(text)` -> (pieces, starts) and
    `findall(text)` -> pieces; None on the pure-Python backend or for another pattern."""
    if _backend.scan is None:
        return None
    found = _SCANNERS.get((dialect, pattern))
    if found is None and (dialect, pattern) in RULES:
        found = _SCANNERS[dialect, pattern] = _new_scanner(RULES[dialect, pattern], dialect)
    return found


# The scanners made so far (one per listed pattern; their class blocks fill in as texts need them).
_SCANNERS: dict[tuple[str, str], Any] = {}


def _new_scanner(rule: ScanRule, dialect: str) -> Any:
    """A compiled scanner of `rule` whose classes are the dialect's."""
    classes = _dialect_classes(dialect)
    return _backend.scan.Scanner(lambda block: block_classes(block, classes), rule.prefixed, rule.folded,
                                 rule.digits, rule.whitespace_to_end)


def block_classes(block: int, classes: tuple[tuple[int, Any], ...]) -> bytes:
    """The class bits of the 256 chars of `block` (code points block * 256 ...), as the
    dialect's regex engine reads them on the chars `onig_view` shows."""
    start = block * 256
    view = onig_view("".join(map(chr, range(start, start + 256))))
    bits = bytearray(256)
    for bit, pattern in classes:
        for match in pattern.finditer(view):
            for i in range(*match.span()):
                bits[i] |= bit
    return bytes(bits)


@lru_cache(maxsize=None)
def _dialect_classes(dialect: str) -> tuple[tuple[int, Any], ...]:
    """(bits, compiled class pattern) of the dialect: the three classes, then each contraction
    letter under (?i), its number in the fold bits."""
    compile_: Callable[[str], Any] = compile_pattern if dialect == ONIGURUMA else (
        lambda pattern: regex.compile(to_python(pattern)))
    classes = [(LETTER, compile_(r"\p{L}+")), (NUMBER, compile_(r"\p{N}+")), (SPACE, compile_(r"\s+"))]
    classes += [(number << FOLD_SHIFT, compile_(f"(?i:{letter})"))
                for number, letter in enumerate(CONTRACTION_LETTERS, 1)]
    return tuple(classes)
