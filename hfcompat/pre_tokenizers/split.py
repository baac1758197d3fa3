"""Split (on a literal or an Oniguruma regex) and CharDelimiterSplit (on one char)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar

from ..errors import FormatError
from ..pipeline.fields import as_bool, as_char, as_choice, as_str, field_value
from ..pipeline.normalized import PreTokenizedString
from ..pipeline.oniguruma import OnigurumaError, compile_pattern
from .base import BEHAVIOR_TO_JSON, PieceForm, PieceRoute, SplitWise, _behavior, _capturing, _check_behavior, _literal_pattern, \
    _split_pieces
from .scanned_patterns import ONIGURUMA, is_scanned, scanner


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
        self._splitter = _capturing(self._compiled) if self._tiles() else None  # the pure path of word_pieces

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Split every segment on the pattern's matches (or, inverted, on what lies between)."""
        pts.split(lambda _, ns: ns.split(self._compiled, self.behavior, self.invert))

    def piece_route(self) -> PieceRoute | None:
        """For a pattern whose matches tile every text (Llama 3's, cl100k's: see scanned_patterns),
        each isolated: a piece is one match, its own text, scanned in C or found by the regex."""
        if not self._tiles():
            return None
        compiled = scanner(self.pattern, ONIGURUMA)
        find = compiled.split if compiled is not None else partial(_split_pieces, splitter=self._splitter)
        return PieceRoute(PieceForm.TEXT, find, scanner=compiled)

    def _tiles(self) -> bool:
        """Whether the matches tile every text and each is a split of its own: isolated, or kept
        alone by removing what lies between them (there is nothing between them)."""
        kept_alone = (self.behavior, self.invert) in (("isolated", False), ("removed", True))
        return self.is_regex and kept_alone and is_scanned(self.pattern, ONIGURUMA)

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
