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


@dataclass
class BertPreTokenizer(SplitWise):
    """Split on whitespace (removed), then isolate each punctuation char."""

    TYPE: ClassVar[str] = "BertPreTokenizer"

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Keep the runs of non-space non-punctuation chars and each punctuation char."""
        pts.split(lambda _, ns: _matches(ns, _BERT_RE, _bert_ascii_spans))

    def piece_route(self) -> PieceRoute:
        """A piece is a word or one punctuation char, as it is: each the same on its own."""
        return PieceRoute(PieceForm.TEXT, _bert_pieces)


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
