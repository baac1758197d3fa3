"""BertPreTokenizer, Whitespace, WhitespaceSplit, Punctuation, Digits: splits on char classes."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar

import regex

from ..pipeline.fields import as_bool, field_value
from ..pipeline.normalized import PreTokenizedString, Span
from .base import (BEHAVIOR_TO_JSON, PieceForm, PieceRoute, Pieces, SplitWise, _behavior, _capturing, _check_behavior, _matches,
                   _split_pieces)
from .scanned_patterns import BERT, BERT_PATTERN, BERT_PUNCTUATION, scanner

_PUNCTUATION_RE = regex.compile(BERT_PUNCTUATION, regex.VERSION1)
# Whitespace removal then punctuation isolation, in one pass: the pieces are its matches.
_BERT_RE = regex.compile(BERT_PATTERN, regex.VERSION1)
_BERT_ASCII_RE = regex.compile(r"[^\s!-/:-@\[-`{-~]+|[!-/:-@\[-`{-~]")
# \s is White_Space (Rust's char::is_whitespace); \p{N} is Rust's char::is_numeric.
_NON_WHITESPACE_RE = regex.compile(r"\S+")
_NUMERIC_RE = regex.compile(r"\p{N}")
# HF's Whitespace pre-tokenizer keeps the matches of this Rust-regex pattern.
_WORDS_RE = regex.compile(r"\w+|[^\w\s]+")


@dataclass
class BertPreTokenizer(SplitWise):
    """Split on whitespace (removed), then isolate each punctuation char."""

    TYPE: ClassVar[str] = "BertPreTokenizer"

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Keep the runs of non-space non-punctuation chars and each punctuation char."""
        pts.split(lambda _, ns: _matches(ns, _BERT_RE, _bert_ascii_spans))

    def piece_route(self) -> PieceRoute:
        """A piece is a word or one punctuation char, as it is: each the same on its own. The
        compiled scan finds them when it is built, else the pattern."""
        scan = scanner(BERT_PATTERN, BERT)
        return PieceRoute(PieceForm.TEXT, _bert_pieces if scan is None else scan.split)


def _bert_pieces(text: str) -> Pieces:
    """Bert's pieces of a text, by the pattern with ASCII classes when the text is ASCII."""
    return _split_pieces(text, _BERT_ASCII_SPLITTER if text.isascii() else _BERT_SPLITTER)


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

    def piece_route(self) -> PieceRoute:
        """A piece is a word run or a symbol run, as it is: each the same on its own."""
        return PieceRoute(PieceForm.TEXT, partial(_split_pieces, splitter=_WORDS_SPLITTER))


@dataclass
class WhitespaceSplit(SplitWise):
    """Split on whitespace (White_Space, as Rust's `char::is_whitespace`), removing it."""

    TYPE: ClassVar[str] = "WhitespaceSplit"

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Split every segment on whitespace runs."""
        pts.split(lambda _, ns: _matches(ns, _NON_WHITESPACE_RE))

    def piece_route(self) -> PieceRoute:
        """A piece is a run of non-whitespace chars, as it is."""
        return PieceRoute(PieceForm.TEXT, partial(_split_pieces, splitter=_NON_WHITESPACE_SPLITTER))


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
