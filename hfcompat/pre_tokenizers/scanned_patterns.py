r"""The split patterns that the compiled core scans without a regex engine.

GPT-2's, r50k's and cl100k's (tiktoken), Llama 3's and Qwen2's patterns all have one shape: a
contraction, a run of letters, of digits or of other chars, then whitespace. BERT's pre-tokenizer
keeps the runs of chars that are neither whitespace nor punctuation and each punctuation char,
and drops the whitespace. A `ScanRule` says which variant a pattern is; `Scanner` walks a text
by that rule (`_scan.pyx` is its compiled twin), and the pattern itself, run by `regex`, stays
the reference: a pattern not listed here, and every pattern on the pure-Python backend, runs as
a regex (faster there than a walk in Python; `reference_scanner` gives the walk, for comparing
it with the compiled one).

What a scan reads of each char (a letter `\p{L}`, a number `\p{N}`, whitespace `\s`, which
contraction letter it folds to under `(?i)`, BERT's punctuation) is asked of the same regex
engine and dialect as the pattern's, a block of 256 chars at a time when the scan first meets
one, on the chars as `onig_view` shows them. So the scan and the regex cannot disagree on a class.
"""

from __future__ import annotations

import codecs
import struct
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from typing import Any, Callable

import regex

from .. import _backend
from ..pipeline.oniguruma import compile_pattern, onig_view
from .tiktoken_pattern import CL100K_PATTERN, R50K_PATTERN, to_oniguruma, to_python

_backend.load("scan")  # the compiled twin, when it was built

ONIGURUMA = "oniguruma"  # a tokenizer.json pattern (hfcompat runs Oniguruma's meaning with `regex`)
TIKTOKEN = "tiktoken"  # a tiktoken pattern (fancy-regex's meaning)
BERT = "bert"  # BertPreTokenizer's pattern (the `regex` module's VERSION1, on `onig_view`)

GPT2_PATTERN = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"
LLAMA3_PATTERN = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
                  r"|\s*[\r\n]+|\s+(?!\S)|\s+")
QWEN2_PATTERN = LLAMA3_PATTERN.replace(r"\p{N}{1,3}", r"\p{N}")

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
# BERT's punctuation (a VERSION1 class): ASCII punctuation or Unicode P* as the
# unicode_categories crate has it.
BERT_PUNCTUATION = r"[[\p{P}!-/:-@\[-`{-~\u166d\U000111c9]--[" + _PUNCTUATION_ADDED_LATER + "]]"
# BertPreTokenizer's whitespace removal then punctuation isolation, in one pass: its matches.
BERT_PATTERN = rf"[^\s{BERT_PUNCTUATION}]+|{BERT_PUNCTUATION}"

# The class bits of a char (`block_classes`); the contraction letters are numbered from 1.
LETTER, NUMBER, SPACE = 1, 2, 4
PUNCTUATION = 0x80  # BERT's
CLASSES = LETTER | NUMBER | SPACE
FOLD_SHIFT = 3
CONTRACTION_LETTERS = "sdmtlvre"
ONE_LETTER_ENDINGS = {"s", "d", "m", "t"}  # the contractions after the apostrophe
TWO_LETTER_ENDINGS = {"ll", "ve", "re"}
LINE_ENDS = "\r\n"


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
    # BERT's `[^\s P]+|P` (P: its punctuation) instead of the shape: whitespace is no piece, so
    # the pieces do not tile the text.
    bert: bool = False


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
    (BERT, BERT_PATTERN): ScanRule(prefixed=False, folded=False, bert=True),
}


class Scanner:
    """One ScanRule walked over a text: `split` and `findall` give what the rule's regex gives
    (the twin of `_scan.Scanner`, with its constructor and methods).

    `classify(block)` gives the class bits (LETTER, NUMBER, SPACE and the folded contraction
    letter) of the 256 chars of a block, asked once per block; the literal chars the rules name
    (the blank, the apostrophe, the line ends, the contraction letters as written) are read
    from the text itself.
    """

    def __init__(self, classify: Callable[[int], bytes], prefixed: bool, folded: bool, digits: int,
                 whitespace_to_end: bool, bert: bool = False):
        self.classify = classify
        self.prefixed = prefixed
        self.folded = folded
        self.digits = digits
        self.to_end = whitespace_to_end
        self.bert = bert
        self._blocks: dict[int, bytes] = {}

    def split(self, text: str) -> tuple[list[str], list[int]]:
        """(pieces, their start chars): the pattern's matches (which tile the text, but for BERT's)."""
        spans = self._spans(text)
        return [text[start:end] for start, end in spans], [start for start, _ in spans]

    def findall(self, text: str) -> list[str]:
        """The pattern's matches, as `regex`'s findall gives them."""
        return self.split(text)[0]

    def utf8_ends(self, text: str) -> bytes:
        """Where each piece ends in the UTF-8 bytes of `text`, packed as Py_ssize_t (what
        `MergeTable.encode_utf8_spans` reads)."""
        return self.utf8_ends_batch([text])[0]

    def utf8_ends_batch(self, texts: list[str]) -> tuple[bytes, bytes]:
        """`utf8_ends` of texts laid end to end (their UTF-8 bytes joined), and how many pieces
        each text has, both packed as Py_ssize_t."""
        ends: list[int] = []
        counts: list[int] = []
        size = 0
        for text in texts:
            sizes = [0, *accumulate(len(char.encode("utf-8", "surrogatepass")) for char in text)]
            spans = self._spans(text)
            ends += [size + sizes[end] for _, end in spans]
            counts.append(len(spans))
            size += sizes[-1]
        return _packed(ends), _packed(counts)

    def byte_pieces(self, text: str, alphabet: str) -> list[str]:
        """The pieces, each as the chars of its UTF-8 bytes in `alphabet` (256 chars, byte
        order): what ByteLevel's mapping makes of every piece."""
        if len(alphabet) != 256:
            raise ValueError("a byte alphabet has 256 chars")
        if max(alphabet) > "\uffff":
            raise ValueError("byte chars are in the BMP")
        pieces = self.findall(text)
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as error:  # a lone surrogate: named alone, as the walk meets it
            raise UnicodeEncodeError("utf-8", text, error.start, error.start + 1, "surrogates not allowed") from None
        return [codecs.charmap_decode(piece.encode("utf-8"), "strict", alphabet)[0] for piece in pieces]

    def _spans(self, text: str) -> list[tuple[int, int]]:
        """Where every piece of `text` starts and ends (every char starts or continues one; BERT's
        whitespace runs are then dropped)."""
        classes = [self._classes(char) for char in text]
        spans = []
        start = 0
        while start < len(text):
            end = _bert_end(classes, start) if self.bert else self._piece_end(text, classes, start)
            if not (self.bert and classes[start] & (SPACE | PUNCTUATION) == SPACE):
                spans.append((start, end))
            start = end
        return spans

    def _classes(self, char: str) -> int:
        """The class bits of a char, its block asked of `classify` the first time."""
        code = ord(char)
        block = self._blocks.get(code >> 8)
        if block is None:
            block = self.classify(code >> 8)
            if len(block) != 256:
                raise ValueError("a block's classes are 256 bytes")
            self._blocks[code >> 8] = block
        return block[code & 255]

    def _piece_end(self, text: str, classes: list[int], i: int) -> int:
        """The end of the piece that starts at i: a contraction, else the rule's runs."""
        end = self._contraction_end(text, classes, i)
        if end > i:
            return end
        return self._prefixed_end(text, classes, i) if self.prefixed else self._gpt2_end(text, classes, i)

    def _contraction_end(self, text: str, classes: list[int], i: int) -> int:
        """The end of `'s|'t|'re|'ve|'m|'ll|'d` at i, or i."""
        if text[i] != "'" or i + 1 >= len(text):
            return i
        first = self._contraction_letter(text, classes, i + 1)
        if first in ONE_LETTER_ENDINGS:
            return i + 2
        if i + 2 < len(text) and first + self._contraction_letter(text, classes, i + 2) in TWO_LETTER_ENDINGS:
            return i + 3
        return i

    def _contraction_letter(self, text: str, classes: list[int], i: int) -> str:
        """The contraction letter char i is (folded under (?i), else only as written), or ""."""
        if not self.folded:
            return text[i] if text[i] in CONTRACTION_LETTERS else ""
        number = classes[i] >> FOLD_SHIFT & 15
        return CONTRACTION_LETTERS[number - 1] if number else ""

    def _gpt2_end(self, text: str, classes: list[int], i: int) -> int:
        r"""GPT-2's: ` ?\p{L}+`, ` ?\p{N}+`, ` ?[^\s\p{L}\p{N}]+`, then whitespace."""
        run_start = i + 1 if text[i] == " " and i + 1 < len(text) else i
        run = classes[run_start] & CLASSES
        if run == SPACE:  # no run after the blank: the blank is whitespace
            return self._whitespace_end(text, classes, i)
        end = run_start + 1
        while end < len(text) and classes[end] & CLASSES == run:
            end += 1
        return end

    def _prefixed_end(self, text: str, classes: list[int], i: int) -> int:
        r"""cl100k's: `[^\r\n\p{L}\p{N}]?\p{L}+`, `\p{N}{1,digits}`,
        ` ?[^\s\p{L}\p{N}]+[\r\n]*`, then whitespace."""
        n = len(text)
        kind = classes[i]
        if kind & LETTER or (not kind & (LETTER | NUMBER) and text[i] not in LINE_ENDS
                             and i + 1 < n and classes[i + 1] & LETTER):
            return _run_end(classes, i + 1, LETTER)
        if kind & NUMBER:
            end = i + 1
            while end < n and classes[end] & NUMBER and (self.digits == 0 or end - i < self.digits):
                end += 1
            return end
        other = i + 1 if text[i] == " " and i + 1 < n and not classes[i + 1] & CLASSES else i
        if classes[other] & CLASSES:
            return self._whitespace_end(text, classes, i)
        end = other + 1
        while end < n and not classes[end] & CLASSES:
            end += 1
        while end < n and text[end] in LINE_ENDS:
            end += 1
        return end

    def _whitespace_end(self, text: str, classes: list[int], i: int) -> int:
        r"""The end of the whitespace piece at i: `\s++$`, cl100k's `\s*[\r\n]+`,
        `\s+(?!\S)`, then one char."""
        run_end = _run_end(classes, i + 1, SPACE)
        if run_end == len(text) and self.to_end:
            return run_end
        if self.prefixed:
            for last in range(run_end - 1, i - 1, -1):
                if text[last] in LINE_ENDS:
                    return last + 1
        if run_end == len(text):
            return run_end
        return run_end - 1 if run_end - i >= 2 else i + 1


def _bert_end(classes: list[int], i: int) -> int:
    r"""BERT's: one punctuation char, a run of whitespace, or a run of the other chars."""
    if classes[i] & PUNCTUATION:
        return i + 1
    if classes[i] & SPACE:
        return _run_end(classes, i + 1, SPACE)
    end = i + 1
    while end < len(classes) and not classes[end] & (SPACE | PUNCTUATION):
        end += 1
    return end


def _run_end(classes: list[int], i: int, bit: int) -> int:
    """The first position from i whose char lacks `bit`."""
    while i < len(classes) and classes[i] & bit:
        i += 1
    return i


def _packed(values: list[int]) -> bytes:
    """`values` as consecutive Py_ssize_t."""
    return struct.pack(f"{len(values)}n", *values)


def is_scanned(pattern: str, dialect: str) -> bool:
    """Whether `pattern` (in `dialect`) is one of the RULES: its matches tile every text."""
    return (dialect, pattern) in RULES


def scanner(pattern: str, dialect: str) -> Any:
    """The compiled scanner of a listed pattern, with `split(text)` -> (pieces, starts) and
    `findall(text)` -> pieces; None for another pattern, and on the pure-Python backend, where
    the pattern's regex finds the pieces faster than `Scanner`'s walk in Python would."""
    if _backend.scan is None:
        return None
    kind = _backend.scan.Scanner
    found = _SCANNERS.get((kind, dialect, pattern))
    if found is None and (dialect, pattern) in RULES:
        found = _new_scanner(kind, RULES[dialect, pattern], dialect, pattern)
    return found


def reference_scanner(pattern: str, dialect: str) -> Scanner | None:
    """The `Scanner` (the walk in Python, the compiled scanner's twin) of a listed pattern;
    None for another pattern."""
    found: Scanner | None = _SCANNERS.get((Scanner, dialect, pattern))
    if found is None and (dialect, pattern) in RULES:
        found = _new_scanner(Scanner, RULES[dialect, pattern], dialect, pattern)
    return found


# The scanners made so far, by class and listed pattern (their class blocks fill in as texts need them).
_SCANNERS: dict[tuple[type, str, str], Any] = {}


def _new_scanner(kind: type, rule: ScanRule, dialect: str, pattern: str) -> Any:
    """A scanner of class `kind` (`Scanner` or its compiled twin) of `rule`, whose classes are
    the dialect's, kept in _SCANNERS."""
    classes = _dialect_classes(dialect)
    found = _SCANNERS[kind, dialect, pattern] = kind(lambda block: block_classes(block, classes), rule.prefixed,
                                                     rule.folded, rule.digits, rule.whitespace_to_end, rule.bert)
    return found


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
    letter under (?i), its number in the fold bits; BERT's: whitespace and its punctuation."""
    if dialect == BERT:
        return ((SPACE, regex.compile(r"\s+", regex.VERSION1)),
                (PUNCTUATION, regex.compile(BERT_PUNCTUATION + "+", regex.VERSION1)))
    compile_: Callable[[str], Any] = compile_pattern if dialect == ONIGURUMA else (
        lambda pattern: regex.compile(to_python(pattern)))
    classes = [(LETTER, compile_(r"\p{L}+")), (NUMBER, compile_(r"\p{N}+")), (SPACE, compile_(r"\s+"))]
    classes += [(number << FOLD_SHIFT, compile_(f"(?i:{letter})"))
                for number, letter in enumerate(CONTRACTION_LETTERS, 1)]
    return tuple(classes)
