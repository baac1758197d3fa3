"""Which writing system each character of a text belongs to, for per-script measures.

The classes and their rules, applied to each character in this order:

- every non-space character of a *code line* (see `is_code_line`) is `code`;
- whitespace and punctuation (`\\s`, `\\p{Z}`, `\\p{P}`) are `NEUTRAL`: they are not counted as
  characters of any script, and a token's share goes to the other characters it covers;
- combining marks (`\\p{M}`) and the zero-width joiner take the class of the character before;
- `digits` (`\\p{Nd}`), `emoji` (`\\p{Extended_Pictographic}`, skin-tone modifiers, regional
  indicators), then the scripts `latin`, `han`, `kana` (Hiragana, Katakana and the prolonged
  sound mark U+30FC), `hangul`, `arabic`, `devanagari`, `cyrillic`;
- anything else is `other`.
"""

from __future__ import annotations

import regex

NEUTRAL = "space_punct"
CODE = "code"
SCRIPTS = ("latin", "han", "kana", "hangul", "arabic", "devanagari", "cyrillic", "digits", CODE, "emoji")
ALL_CLASSES = (*SCRIPTS, "other", NEUTRAL)

_NEUTRAL = regex.compile(r"[\s\p{Z}\p{P}]")
_JOINING = regex.compile(r"[\p{M}\u200d]")
_CLASSES = [
    ("digits", regex.compile(r"\p{Nd}")),
    ("emoji", regex.compile(r"[\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}]")),
    ("latin", regex.compile(r"\p{Script=Latin}")),
    ("han", regex.compile(r"\p{Script=Han}")),
    ("kana", regex.compile(r"[\p{Script=Hiragana}\p{Script=Katakana}\u30fc]")),
    ("hangul", regex.compile(r"\p{Script=Hangul}")),
    ("arabic", regex.compile(r"\p{Script=Arabic}")),
    ("devanagari", regex.compile(r"\p{Script=Devanagari}")),
    ("cyrillic", regex.compile(r"\p{Script=Cyrillic}")),
]

# Symbols that are common in source code and rare in prose (parentheses are in both).
CODE_SYMBOLS = frozenset("{}[]<>;=*/\\|&^%$#@~`_+")
CODE_KEYWORDS = frozenset(
    "def class import from return if elif else for while fn let const var function public "
    "private static package func struct #include #define".split())
MIN_CODE_SYMBOLS = 3
MIN_CODE_SYMBOL_SHARE = 0.1


def is_code_line(line: str) -> bool:
    """True for a line that looks like source code.

    Either at least 3 of its non-space characters, and at least 10% of them, are code symbols
    (`{}[]<>;=*/\\|&^%$#@~`_+`), or it starts with a keyword (`def`, `if`, `#include`, ...)
    and ends with `:`, `{`, `}`, `;` or `)`.
    """
    stripped = line.strip()
    if not stripped:
        return False
    visible = [char for char in stripped if not char.isspace()]
    symbols = sum(char in CODE_SYMBOLS for char in visible)
    if symbols >= MIN_CODE_SYMBOLS and symbols >= MIN_CODE_SYMBOL_SHARE * len(visible):
        return True
    first_word = stripped.split(None, 1)[0].split("(", 1)[0]
    return first_word in CODE_KEYWORDS and stripped[-1] in ":{};)"


def char_class(char: str) -> str:
    """The class of one character outside code (NEUTRAL for spaces and punctuation)."""
    if _NEUTRAL.match(char):
        return NEUTRAL
    for name, pattern in _CLASSES:
        if pattern.match(char):
            return name
    return "other"


def char_classes(text: str) -> list[str]:
    """The class of each character of `text`, taken line by line (code lines are `code`)."""
    classes: list[str] = []
    for line in text.splitlines(keepends=True):
        code = is_code_line(line)
        previous = "other"
        for char in line:
            if code:
                name = NEUTRAL if char.isspace() else CODE
            elif _JOINING.match(char):
                name = previous
            else:
                name = char_class(char)
            classes.append(name)
            previous = name
    return classes


def words(classes: list[str]) -> list[tuple[int, int, str]]:
    """Maximal runs of one non-neutral class: (start, end, class). "abc123" holds two words."""
    runs: list[tuple[int, int, str]] = []
    start = 0
    for index in range(1, len(classes) + 1):
        if index == len(classes) or classes[index] != classes[start]:
            if classes[start] != NEUTRAL:
                runs.append((start, index, classes[start]))
            start = index
    return runs
