"""Replace (a literal or an Oniguruma regex by a literal) and Prepend (a prefix per segment)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

import regex

from ..errors import FormatError
from ..pipeline.fields import as_str, field_value
from ..pipeline.normalized import NormalizedString, replace_matches
from ..pipeline.oniguruma import compile_pattern
from .base import Normalizer

# SentencePiece's remove_extra_whitespaces as a pattern (replaced by ""): the leading and trailing
# runs of spaces, and each space another space follows. Replace removes them without the regex.
EXTRA_SPACES = r"\A +| +\z| (?= )"
_SPACE_RUNS = re.compile("  +")


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
        if self._removes_extra_spaces():
            ns.replace_spans(extra_space_spans(text), "")
            return
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
        if self._removes_extra_spaces():  # the string form of extra_space_spans, in C calls
            return " ".join(filter(None, text.split(" "))) if "  " in text else text.strip(" ")
        if not self.is_regex and self.pattern:
            return text.replace(self.pattern, self.content)
        return replace_matches(self._compiled, text, self.content)

    def _removes_extra_spaces(self) -> bool:
        """True for SentencePiece's remove_extra_whitespaces (EXTRA_SPACES replaced by "")."""
        return self.is_regex and self.pattern == EXTRA_SPACES and not self.content

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


def extra_space_spans(text: str) -> list[tuple[int, int]]:
    """The chars EXTRA_SPACES matches, as spans: the leading and trailing runs of spaces, and
    each inner run but its last space (adjacent matches joined: removing them is the same)."""
    length = len(text)
    first = length - len(text.lstrip(" "))
    if first == length:
        return [(0, length)] if length else []
    last = len(text.rstrip(" "))
    spans = [(0, first)] if first else []
    spans += [(match.start(), match.end() - 1) for match in _SPACE_RUNS.finditer(text, first, last)]
    if last < length:
        spans.append((last, length))
    return spans


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
