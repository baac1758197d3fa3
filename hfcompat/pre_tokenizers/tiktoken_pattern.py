r"""tiktoken's split patterns in the three regex dialects hfcompat meets.

tiktoken compiles its pattern with Rust fancy-regex; `tokenizers` compiles a Split pattern with
Oniguruma; hfcompat's fast path runs the `regex` module. The dialects differ in two places that
tiktoken's patterns use:

- `X{n,m}+` is possessive in fancy-regex and in `regex`, but in Oniguruma it repeats
  `X{n,m}` greedily. Oniguruma spells the possessive interval as the atomic group `(?>X{n,m})`.
- `$` is the end of the text in fancy-regex; in Oniguruma it is the end of any line (`\z` is the
  end of the text) and in `regex` it also matches before a final newline (`\Z` does not).

`?+`, `*+` and `++` are possessive in all three. The rewrite walks the pattern once, keeping
the atoms of the current group apart so that a quantifier knows what it applies to.
"""

from __future__ import annotations

import re
from typing import Callable

__all__ = ["CL100K_PATTERN", "O200K_PATTERN", "R50K_PATTERN", "from_oniguruma", "to_ascii_python", "to_oniguruma",
           "to_python"]

# The patterns of OpenAI's encodings, as tiktoken spells them (formats/tiktoken names the encodings).
R50K_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
CL100K_PATTERN = (r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+|"""
                  r""" ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""")
O200K_PATTERN = "|".join([
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""\p{N}{1,3}""",
    r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
    r"""\s*[\r\n]+""",
    r"""\s+(?!\S)""",
    r"""\s+""",
])

# What the classes tiktoken's patterns use hold among ASCII characters (White_Space for \s).
_ASCII_MEMBERS = {
    r"\p{L}": "A-Za-z", r"\p{N}": "0-9", r"\p{Lu}": "A-Z", r"\p{Ll}": "a-z", r"\p{Lt}": "",
    r"\p{Lm}": "", r"\p{Lo}": "", r"\p{M}": "", r"\s": "\\t\\n\\v\\f\\r ", r"\d": "0-9",
}
_ASCII_NEGATED = {r"\P" + key[2:]: value for key, value in _ASCII_MEMBERS.items() if key.startswith(r"\p")}
_ASCII_NEGATED[r"\S"] = _ASCII_MEMBERS[r"\s"]
_ASCII_NEGATED[r"\D"] = _ASCII_MEMBERS[r"\d"]

# (atom, interval) -> the text of a possessive interval in the target dialect.
IntervalRewrite = Callable[[str, str], str]


def to_python(pattern: str) -> str:
    """A tiktoken pattern as a `regex` module pattern with the same matches."""
    return _rewrite(_braced_categories(pattern), end_of_text=r"\Z",
                    possessive_interval=lambda atom, rep: f"{atom}{rep}+")


def to_oniguruma(pattern: str) -> str:
    """A tiktoken pattern as an Oniguruma pattern (for tokenizer.json) with the same matches."""
    return _rewrite(_braced_categories(pattern), end_of_text=r"\z",
                    possessive_interval=lambda atom, rep: f"(?>{atom}{rep})")


def _braced_categories(pattern: str) -> str:
    """`\\pl` and the like as `\\p{L}`: fancy-regex reads a one-letter class as that general
    category in either case, `regex` reads `\\pl` otherwise and Oniguruma wants braces."""
    return _ONE_LETTER_CLASS.sub(lambda m: f"\\{m[1]}{{{m[2].upper()}}}" if m[1] else m[0], pattern)


_ONE_LETTER_CLASS = re.compile(r"\\(?:([pP])([CLMNPSZclmnpsz])|.)", re.DOTALL)


def from_oniguruma(pattern: str) -> str:
    """An Oniguruma pattern (from tokenizer.json) as a tiktoken pattern with the same matches."""
    return _rewrite(pattern, end_of_text="(?m:$)", possessive_interval=lambda atom, rep: f"(?:{atom}{rep})+")


def to_ascii_python(pattern: str) -> str | None:
    """The pattern for ASCII-only text, for the stdlib `re` (3x faster than `regex` there).

    Each Unicode class becomes its ASCII members, so on ASCII text it matches what the
    original matches. None when the pattern uses a class not listed (no ASCII fast path).
    """
    out = []
    depth = 0
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            end = _escape_end(pattern, i)
            escape = pattern[i:end]
            if escape in _ASCII_MEMBERS or escape in _ASCII_NEGATED:
                negated = escape in _ASCII_NEGATED
                members = (_ASCII_NEGATED if negated else _ASCII_MEMBERS)[escape]
                if depth and negated:
                    return None  # a negated class inside brackets has no simple ASCII form
                if depth:
                    out.append(members)
                elif members or negated:
                    out.append(f"[{'^' if negated else ''}{members}]")
                else:
                    out.append("(?!)")
            elif escape[1:2] in ("p", "P", "w", "W", "b", "B", "X", "R"):
                return None
            else:
                out.append(escape)
            i = end
            continue
        if char == "[":
            depth += 1
        elif char == "]" and depth:
            depth -= 1
        elif char == "$" and not depth:
            char = r"\Z"
        out.append(char)
        i += 1
    return "".join(out)


def _rewrite(pattern: str, *, end_of_text: str, possessive_interval: IntervalRewrite) -> str:
    """Rewrite `$` and `X{n,m}+` (the one place the dialects disagree) in `pattern`."""
    levels: list[list[str]] = [[]]  # the pieces of each open group; atoms can take a quantifier
    i, n = 0, len(pattern)
    while i < n:
        char = pattern[i]
        pieces = levels[-1]
        if char == "\\":
            end = _escape_end(pattern, i)
            pieces.append(pattern[i:end])
            i = end
        elif char == "[":
            end = _class_end(pattern, i)
            pieces.append(pattern[i:end])
            i = end
        elif char == "(":
            levels.append([_group_opening(pattern, i)])
            i += len(levels[-1][0])
        elif char == ")":
            group = "".join(levels.pop()) + ")"
            levels[-1].append(group)
            i += 1
        elif char in "*+?" and pieces:
            end = i + 1 + (pattern[i + 1:i + 2] in ("+", "?"))
            pieces[-1] += pattern[i:end]
            i = end
        elif char == "{" and pieces and _interval_end(pattern, i):
            end = _interval_end(pattern, i)
            interval = pattern[i:end]
            if pattern[end:end + 1] == "+":
                pieces[-1] = possessive_interval(pieces[-1], interval)
                end += 1
            elif pattern[end:end + 1] == "?":
                pieces[-1] += interval + "?"
                end += 1
            else:
                pieces[-1] += interval
            i = end
        elif char == "$":
            pieces.append(end_of_text)
            i += 1
        elif char == "|":
            pieces.append("|")
            pieces.append("")  # nothing after "|" can be quantified
            i += 1
        else:
            pieces.append(char)
            i += 1
    return "".join(levels[0])


def _escape_end(pattern: str, start: int) -> int:
    """End of the escape at `start` (`\\p{..}`, `\\x{..}` and the like included)."""
    end = start + 2
    if pattern[start + 1:start + 2] in ("p", "P", "x", "u") and pattern[end:end + 1] == "{":
        close = pattern.find("}", end)
        return close + 1 if close != -1 else len(pattern)
    return end


def _class_end(pattern: str, start: int) -> int:
    """End of the bracket class at `start` (nested classes and escapes included)."""
    depth = 0
    i = start
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            i = _escape_end(pattern, i)
            continue
        if char == "[":
            depth += 1
            if pattern[i + 1:i + 2] == "^":
                i += 1
            if pattern[i + 1:i + 2] == "]":  # a "]" first in a class is a member
                i += 1
        elif char == "]":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(pattern)


def _group_opening(pattern: str, start: int) -> str:
    """The opening of the group at `start`: "(", "(?:", "(?i:", "(?>", "(?!", "(?<=" ..."""
    if pattern[start + 1:start + 2] != "?":
        return "("
    i = start + 2
    while i < len(pattern) and pattern[i] not in ":)=!>":
        if pattern[i] == "<" and pattern[i + 1:i + 2] in ("=", "!"):
            return pattern[start:i + 2]
        i += 1
    return pattern[start:i + 1]


def _interval_end(pattern: str, start: int) -> int:
    """End of the interval `{n}`, `{n,}`, `{,m}` or `{n,m}` at `start`, or 0 if it is a literal brace."""
    close = pattern.find("}", start)
    if close == -1:
        return 0
    body = pattern[start + 1:close]
    parts = body.split(",")
    if len(parts) > 2 or not any(parts) or not all(part.isdigit() or part == "" for part in parts):
        return 0
    if len(parts) == 1 and not parts[0]:
        return 0
    return close + 1
