r"""Oniguruma patterns, as HF `tokenizers` compiles them, run by the `regex` module.

`tokenizers` compiles the patterns of `Split` and `Replace` with Oniguruma (Ruby syntax, the
onig crate's defaults). The `regex` module reads most of that syntax the same way but not all
of it, so `compile_pattern` scans the pattern (escapes, classes, groups, quantifiers) and writes
a `regex` pattern (VERSION1 syntax) with Oniguruma's meaning:

- `X{n,m}+` repeats `X{n,m}` greedily (`(?:X{n,m})+`); it is not possessive. `X{n}?` is
  `(?:X{n})?`; `X{n,m}?` is lazy; `{,m}` is `{0,m}`; `{n,m}` with n > m is `{m,n}`; nested
  repeats (`a**`, `a{2}{3}`) nest.
- `^` and `$` always work on lines; `^` never matches at the very end of the text. `\Z` also
  matches before a final newline, `\z` only at the end. `.` stops at "\n" unless `(?m)`, which
  is Ruby's dotall.
- An inline option `(?i)` in the middle of a group covers the rest of the group, alternatives
  included: `a(?i)b|c` is `a(?i:b|c)`.
- `\h` is a hex digit. Word chars lack U+200C/U+200D; outside brackets `\w` and `\p{Word}`
  also take "²³¹¼½¾", and so do `\b`/`\B`. `[[:punct:]]` is P and S; `\p{XDigit}` is ASCII.
- Under `(?i)`, property escapes outside a class do not fold, "i" never matches U+0130 nor "I"
  U+0131, and multi-char folds ("ss" ~ "ß") apply.

`differences` lists the constructs of a pattern that the `regex` module, given the pattern as
it is, would read another way (the translator notes each as it rewrites it).

Oniguruma's Unicode tables are version 16.0 and the `regex` module's are newer: `onig_view`
hides the characters assigned since then behind one that both leave unassigned, so classes
treat them as Oniguruma does. Not reproduced: under `(?i)` a property class inside brackets
follows the `regex` module's folding.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Iterator

import regex

__all__ = ["OnigurumaError", "compile_pattern", "differences", "find_spans", "onig_view", "translate"]


class OnigurumaError(ValueError):
    """The pattern is not valid Oniguruma syntax (or uses a feature with no equivalent here)."""


# Oniguruma's word chars lack U+200C/U+200D; outside a class \w also has "²³¹¼½¾".
_WORD_IN_CLASS = r"[\w--[\u200c\u200d]]"
_WORD = r"[[\w\xb2\xb3\xb9\xbc-\xbe]--[\u200c\u200d]]"
_ASCII_WORD = r"[0-9A-Za-z_]"
_HEX = r"[0-9A-Fa-f]"
_POSIX = {
    "alnum": r"\p{Alnum}", "alpha": r"\p{Alpha}", "ascii": r"\p{ASCII}", "blank": r"\p{Blank}",
    "cntrl": r"\p{Cntrl}", "digit": r"\p{Nd}", "graph": r"\p{Graph}", "lower": r"\p{Lower}",
    "print": r"\p{Print}", "punct": r"[\p{P}\p{S}]", "space": r"\p{Space}",
    "upper": r"\p{Upper}", "xdigit": _HEX, "word": _WORD_IN_CLASS,
}
_POSIX_ASCII = {
    "alnum": r"[0-9A-Za-z]", "alpha": r"[A-Za-z]", "ascii": r"[\x00-\x7f]", "blank": r"[\t ]",
    "cntrl": r"[\x00-\x1f\x7f]", "digit": r"[0-9]", "graph": r"[!-~]", "lower": r"[a-z]",
    "print": r"[ -~]", "punct": r"[!-/:-@\[-`{-~]", "space": r"[\t-\r ]", "upper": r"[A-Z]",
    "xdigit": _HEX, "word": _ASCII_WORD,
}
_NOTHING = r"^\x00-\U0010ffff"  # the members of a class that matches nothing
_LINE_BREAK = r"(?>\r\n|[\n\x0b\x0c\r\x85\u2028\u2029])"
_SIMPLE_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f", "v": "\v", "a": "\a", "e": "\x1b"}
_MAX_REPEAT = 100000
# Characters around which the `regex` module folds case differently from Oniguruma.
_DOTTED_I = "iI\u0130\u0131"


@lru_cache(maxsize=None)
def _multi_folds() -> tuple[str, frozenset[str]]:
    """The chars whose full case folding has several chars ("ß" -> "ss"; all in the BMP), and
    those foldings."""
    found = []
    for start in [*range(0x80, 0xD800, 256), *range(0xE000, 0x10000, 256)]:
        block = "".join(map(chr, range(start, min(start + 256, 0xD800 if start < 0xD800 else 0x10000))))
        if len(block.casefold()) != len(block):  # no char folds to none, so the block holds one
            found += [char for char in block if len(char.casefold()) > 1]
    chars = "".join(found)
    return chars, frozenset(c.casefold() for c in chars)


@lru_cache(maxsize=None)
def compile_pattern(pattern: str) -> "regex.Pattern[str]":
    """Compile an Oniguruma pattern into a `regex` pattern that matches the same way."""
    text, flags = translate(pattern)
    try:
        return regex.compile(text, flags)
    except regex.error as exc:
        raise OnigurumaError(f"invalid pattern {pattern!r}: {exc}") from None


def differences(pattern: str) -> list[str]:
    """What the `regex` module, given `pattern` unchanged, reads another way than Oniguruma: one
    line per construct and place (a port that runs tokenizer.json patterns in `regex` splits
    differently there)."""
    translator = _Translator(pattern)
    translator.run()
    return translator.differences


def translate(pattern: str) -> tuple[str, int]:
    """The `regex` pattern and flags equivalent to an Oniguruma pattern."""
    translator = _Translator(pattern)
    body = translator.run()
    if translator.needs_full_case_folding:
        # Only a global IGNORECASE folds "ß" to "ss"; the case-sensitive parts opt out of it.
        return f"(?-i:{body})", regex.VERSION1 | regex.IGNORECASE | regex.FULLCASE
    return body, regex.VERSION1


@dataclass(frozen=True)
class _Flags:
    """The Oniguruma options in force at one point of the pattern."""

    ignorecase: bool = False
    dotall: bool = False
    extended: bool = False
    ascii_word: bool = False
    ascii_digit: bool = False
    ascii_space: bool = False
    ascii_posix: bool = False


_OPTION_FIELDS = {"i": "ignorecase", "m": "dotall", "x": "extended", "W": "ascii_word",
                  "D": "ascii_digit", "S": "ascii_space", "P": "ascii_posix"}


@dataclass
class _Atom:
    """One translated piece of a sequence and whether a quantifier may follow it."""

    text: str
    quantifiable: bool = True
    quantified: bool = False
    interval: bool = False  # its last quantifier is `{n,m}`


class _Translator:
    """A recursive-descent scanner over an Oniguruma pattern that writes `regex` syntax."""

    def __init__(self, pattern: str):
        self.pattern = pattern
        self.pos = 0
        self.needs_full_case_folding = False
        self.differences: list[str] = []  # constructs the `regex` module reads another way

    def differ(self, construct: str, oniguruma: str, other: str, back: int = 0) -> None:
        """Note a construct at the current position (less `back`) that the `regex` module reads
        another way."""
        self.differences.append(f"{construct} at position {self.pos - back}: Oniguruma reads {oniguruma}, "
                                f"the regex module {other}")

    # ----- driver and small helpers ---------------------------------------------------------

    def run(self) -> str:
        """Translate the whole pattern."""
        body = self.alternation(_Flags())
        if self.pos < len(self.pattern):
            raise self.error("unmatched close parenthesis")
        return body

    def error(self, message: str) -> OnigurumaError:
        """An error about the pattern at the current position."""
        return OnigurumaError(f"{message} at position {self.pos} in {self.pattern!r}")

    def peek(self, offset: int = 0) -> str:
        """The char `offset` ahead, or "" past the end."""
        i = self.pos + offset
        return self.pattern[i] if i < len(self.pattern) else ""

    def take(self) -> str:
        """Consume and return the next char."""
        if self.pos >= len(self.pattern):
            raise self.error("unexpected end of pattern")
        char = self.pattern[self.pos]
        self.pos += 1
        return char

    def accept(self, text: str) -> bool:
        """Consume `text` if it comes next."""
        if self.pattern.startswith(text, self.pos):
            self.pos += len(text)
            return True
        return False

    def read_until(self, end: str) -> str:
        """Consume up to and including `end`; return what came before it."""
        stop = self.pattern.find(end, self.pos)
        if stop < 0:
            raise self.error(f"missing {end!r}")
        text = self.pattern[self.pos:stop]
        self.pos = stop + len(end)
        return text

    # ----- alternation, sequence, quantifiers -----------------------------------------------

    def alternation(self, flags: _Flags) -> str:
        """Branches separated by "|", up to ")" or the end."""
        branches = [self.sequence(flags)]
        while self.accept("|"):
            branches.append(self.sequence(flags))
        return "|".join(branches)

    def sequence(self, flags: _Flags) -> str:
        """Atoms and their quantifiers, up to "|", ")" or the end."""
        atoms: list[_Atom] = []
        while True:
            if flags.extended:
                self.skip_extended_space()
            char = self.peek()
            if char in ("", "|", ")"):
                break
            if char in "*+?" or (char == "{" and self.interval_ahead()):
                self.quantify(atoms)
                continue
            if self.pattern.startswith("(?", self.pos) and self.option_group_ahead():
                new_flags = self.read_options(flags)
                if self.accept(")"):
                    # `(?i)` covers the rest of the enclosing group, alternatives included.
                    rest = self.alternation(new_flags)
                    atoms.append(_Atom(self.scoped(rest, flags, new_flags), quantifiable=False))
                    break
                self.take()  # the ":" of `(?i:...)`
                inner = self.alternation(new_flags)
                self.expect_close()
                atoms.append(_Atom(self.scoped(inner, flags, new_flags)))
                continue
            atoms.append(self.atom(flags))
        return "".join(atom.text for atom in atoms)

    def quantify(self, atoms: list[_Atom]) -> None:
        """Apply the quantifier at the current position to the last atom."""
        if not atoms:
            raise self.error("target of repeat operator is not specified")
        atom = atoms[-1]
        if not atom.quantifiable:
            raise self.error("target of repeat operator is invalid")
        if atom.interval and self.peek() == "+":
            self.differ("`{n,m}+`", "a greedy repeat of the interval, (?:X{n,m})+", "a possessive X{n,m}")
        elif atom.interval and self.peek() == "?":
            self.differ("`{n}?`", "an optional X{n}, (?:X{n})?", "a lazy X{n}, i.e. exactly X{n}")
        char = self.take()
        if char == "{":
            low, high = self.read_interval()
            quantifier = f"{{{low}}}" if low == high else f"{{{low},{'' if high is None else high}}}"
            if low != high and self.accept("?"):
                quantifier += "?"
        else:
            quantifier = char
            if self.peek() in ("?", "+"):
                quantifier += self.take()
        target = f"(?:{atom.text})" if atom.quantified else atom.text
        atoms[-1] = _Atom(target + quantifier, quantified=True, interval=char == "{")

    def interval_ahead(self) -> bool:
        """True if a valid `{n}`, `{n,}`, `{,m}` or `{n,m}` starts here (else "{" is literal)."""
        return regex.match(r"\{(?:\d+(?:,\d*)?|,\d+)\}", self.pattern[self.pos:]) is not None

    def read_interval(self) -> tuple[int, int | None]:
        """Consume the interval after "{"; return its bounds (None: no upper bound)."""
        low_text, comma, high_text = self.read_until("}").partition(",")
        low = int(low_text) if low_text else 0
        high: int | None = (int(high_text) if high_text else None) if comma else low
        if low > _MAX_REPEAT or (high is not None and high > _MAX_REPEAT):
            raise self.error("too big number for repeat range")
        if high is not None and low > high:
            low, high = high, low
        return low, high

    # ----- atoms ---------------------------------------------------------------------------

    def atom(self, flags: _Flags) -> _Atom:
        """One atom: a group, a class, an escape, an anchor or a literal char."""
        char = self.take()
        if char == "(":
            return self.group(flags)
        if char == "[":
            return _Atom(self.bracket_class(flags))
        if char == "\\":
            return self.escape(flags)
        if char == ".":
            return _Atom(r"(?s:.)" if flags.dotall else r"[^\n]")
        if char in "^$":
            self.differ(f"`{char}`", "a line anchor (at every newline)", "a text anchor (without MULTILINE)", 1)
        if char == "^":
            return _Atom(r"(?:\A|(?<=\n)(?!\Z))", quantifiable=False)
        if char == "$":
            return _Atom(r"(?=\n|\Z)", quantifiable=False)
        return _Atom(self.literal(char, flags))

    def literal(self, char: str, flags: _Flags) -> str:
        """A literal char, with Oniguruma's case folding around dotted and dotless i."""
        if flags.ignorecase:
            if char in _DOTTED_I:
                return {"i": "(?-i:[iI])", "I": "(?-i:[iI])", "\u0130": "(?-i:\u0130|[iI]\u0307)",
                        "\u0131": "(?-i:\u0131)"}[char]
            chars, targets = _multi_folds()
            if char in chars or char.casefold() in targets or self.folds_across(char, targets):
                self.needs_full_case_folding = True
        return _escape(char)

    def folds_across(self, char: str, targets: frozenset[str]) -> bool:
        """True if `char` and the next pattern char are part of a multi-char fold ("s" + "s")."""
        pair = (char + self.peek()).casefold()
        return any(pair in target for target in targets)

    def group(self, flags: _Flags) -> _Atom:
        """The rest of a group after "(" (option groups are handled by `sequence`)."""
        if not self.accept("?"):
            if self.peek() == "*":
                raise self.error("callouts are not supported")
            inner = self.alternation(flags)
            self.expect_close()
            return _Atom(f"({inner})")
        if self.accept("#"):
            self.read_until(")")
            return _Atom("", quantifiable=False)
        for opener, quantifiable in ((":", True), ("=", False), ("!", False), ("<=", False),
                                     ("<!", False), (">", True)):
            if self.accept(opener):
                inner = self.alternation(flags)
                self.expect_close()
                return _Atom(f"(?{opener}{inner})", quantifiable=quantifiable)
        if self.peek() in ("<", "'") or self.pattern.startswith("P<", self.pos):
            self.accept("P")
            closer = ">" if self.take() == "<" else "'"
            name = self.read_until(closer)
            if not regex.fullmatch(r"[A-Za-z_]\w*", name):
                raise self.error(f"invalid group name {name!r}")
            inner = self.alternation(flags)
            self.expect_close()
            return _Atom(f"(?P<{name}>{inner})")
        if self.peek() in ("~", "("):
            raise self.error("absent and conditional groups are not supported")
        raise self.error("undefined group option")

    def expect_close(self) -> None:
        """Consume the ")" that ends a group."""
        if not self.accept(")"):
            raise self.error("end pattern with unmatched parenthesis")

    def option_group_ahead(self) -> bool:
        """True if `(?imx-imx)` or `(?imx-imx:` starts here."""
        return regex.match(r"\(\?(?:[imxWDSP]|y\{[gw]\})*(?:-(?:[imxWDSP])*)?[:)]",
                           self.pattern[self.pos:]) is not None

    def read_options(self, flags: _Flags) -> _Flags:
        """Consume `(?imx-imx` and return the flags it sets."""
        self.pos += 2
        enable = True
        changes: dict[str, bool] = {}
        while self.peek() not in (":", ")"):
            char = self.take()
            if char == "-":
                enable = False
            elif char == "y":
                self.read_until("}")  # grapheme-cluster mode: \X here is always extended
            else:
                if char == "m" and enable:
                    self.differ("`(?m)`", "dot-matches-newline", "multi-line anchors", 1)
                changes[_OPTION_FIELDS[char]] = enable
        return replace(flags, **changes)

    def scoped(self, body: str, outer: _Flags, inner: _Flags) -> str:
        """`body` wrapped so that the `regex` module applies `inner`'s case folding."""
        if outer.ignorecase == inner.ignorecase:
            return f"(?:{body})"
        return f"(?{'i' if inner.ignorecase else '-i'}:{body})"

    def skip_extended_space(self) -> None:
        """Skip the whitespace and #-comments that extended mode ignores."""
        while True:
            char = self.peek()
            if char and char in " \t\n\x0b\x0c\r":
                self.pos += 1
            elif char == "#":
                end = self.pattern.find("\n", self.pos)
                self.pos = len(self.pattern) if end < 0 else end + 1
            else:
                return

    # ----- escapes -------------------------------------------------------------------------

    def escape(self, flags: _Flags) -> _Atom:
        """An escape outside a class."""
        if self.pos >= len(self.pattern):
            raise self.error("end pattern at escape")
        char = self.peek()
        anchor = {"A": r"\A", "z": r"\Z", "Z": r"(?=\n?\Z)", "G": r"\G", "K": r"\K"}.get(char)
        if char == "Z":
            self.differ("`\\Z`", "the end or before a final newline", "the very end only")
        if anchor is not None:
            self.pos += 1
            return _Atom(anchor, quantifiable=False)
        if char in "bB":
            if not flags.ascii_word:
                self.differ(f"`\\{char}`", "word chars without U+200C/U+200D, with ²³¹¼½¾",
                            "word chars with U+200C/U+200D, without ²³¹¼½¾")
            self.pos += 1
            word = _ASCII_WORD if flags.ascii_word else _WORD
            boundary = f"(?:(?<={word})(?!{word})|(?<!{word})(?={word}))"
            if char == "B":
                boundary = f"(?!{boundary})"
            return _Atom(boundary, quantifiable=False)
        if char in "yY":
            raise self.error(f"\\{char} (grapheme boundary) is not supported")
        if char == "R":
            self.pos += 1
            return _Atom(_LINE_BREAK)
        if char == "X":
            self.pos += 1
            return _Atom(r"\X")
        if char == "N":
            self.pos += 1
            return _Atom(r"[^\n]")
        if char == "O":
            self.pos += 1
            return _Atom(r"(?s:.)")
        if char in "123456789":
            return _Atom(self.backreference())
        if char == "k" and self.peek(1) in ("<", "'"):
            self.pos += 2
            name = self.read_until(">" if self.pattern[self.pos - 1] == "<" else "'")
            return _Atom(f"(?:\\g<{name}>)" if name.isdigit() else f"(?P={name})")
        if char == "g" and self.peek(1) in ("<", "'"):
            self.pos += 2
            name = self.read_until(">" if self.pattern[self.pos - 1] == "<" else "'")
            if name == "0":
                return _Atom("(?R)")
            return _Atom(f"(?{name})" if name.isdigit() else f"(?&{name})")
        shorthand = self.shorthand_class(flags)
        if shorthand is not None:
            if flags.ignorecase:
                shorthand = f"(?-i:{shorthand})"
            return _Atom(shorthand)
        return _Atom(self.literal(self.escaped_char(), flags))

    def backreference(self) -> str:
        """`\\n`: a backreference, or an octal char when n has several digits and no such group."""
        digits = regex.match(r"\d+", self.pattern[self.pos:]).group()
        octal = regex.match(r"[0-7]{1,3}", digits)
        if len(digits) > 1 and int(digits) > self.group_count() and octal:
            self.pos += octal.end()
            return self.literal(chr(int(octal.group(), 8)), _Flags())
        self.pos += len(digits)
        return f"(?:\\g<{int(digits)}>)"

    def group_count(self) -> int:
        """How many capture groups the pattern has (an over-count is harmless here)."""
        return len(regex.findall(r"\((?!\?)|\(\?(?:P?<(?![=!])|')", self.pattern))

    def shorthand_class(self, flags: _Flags, in_class: bool = False) -> str | None:
        """Consume a class escape (\\w \\d \\s \\h \\p{..} and negations), or return None."""
        char = self.peek()
        if char in "wW" and not flags.ascii_word:
            self.differ(f"`\\{char}`", "word chars without U+200C/U+200D" + ("" if in_class else ", with ²³¹¼½¾"),
                        "word chars with U+200C/U+200D" + ("" if in_class else ", without ²³¹¼½¾"))
        if char in "wW":
            text = _ASCII_WORD if flags.ascii_word else _WORD_IN_CLASS if in_class else _WORD
        elif char in "dD":
            text = r"[0-9]" if flags.ascii_digit else r"\d"
        elif char in "sS":
            text = r"[\t-\r ]" if flags.ascii_space else r"\s"
        elif char in "hH":
            self.differ(f"`\\{char}`", "a hex digit", "horizontal whitespace")
            text = _HEX
        elif char in "pP" and self.peek(1) == "{":
            self.pos += 2
            name = self.read_until("}")
            negated = char == "P"
            if name.startswith("^"):
                negated, name = not negated, name[1:]
            return _negate(self.property(name, in_class), negated)
        else:
            return None
        self.pos += 1
        return _negate(text, char.isupper())

    def property(self, name: str, in_class: bool) -> str:
        """The `regex` class for an Oniguruma property name."""
        compact = regex.sub(r"[\s_-]", "", name)
        key = compact.lower()
        if key == "word":
            return _WORD_IN_CLASS if in_class else _WORD
        if key == "xdigit":
            return _HEX
        if "=" in key or ":" in key:
            raise self.error(f"invalid character property name {{{name}}}")
        if key.startswith("in"):
            candidate = rf"\p{{Block={compact[2:]}}}"
            if _is_valid(candidate):
                return candidate
        candidate = rf"\p{{{compact}}}"
        if not _is_valid(candidate):
            raise self.error(f"invalid character property name {{{name}}}")
        return candidate

    def escaped_char(self) -> str:
        """The char an escape such as \\n, \\x41, \\u00e9, \\101 or \\. stands for."""
        char = self.take()
        if char in _SIMPLE_ESCAPES:
            return _SIMPLE_ESCAPES[char]
        if char == "x":
            if self.accept("{"):
                return _char(int(self.read_until("}"), 16), self)
            digits = regex.match(r"[0-9A-Fa-f]{0,2}", self.pattern[self.pos:]).group()
            self.pos += len(digits)
            return chr(int(digits or "0", 16))
        if char == "u" and regex.match(r"[0-9A-Fa-f]{4}", self.pattern[self.pos:]):
            self.pos += 4
            return _char(int(self.pattern[self.pos - 4:self.pos], 16), self)
        if char == "o" and self.accept("{"):
            return _char(int(self.read_until("}"), 8), self)
        if char == "0":
            digits = regex.match(r"[0-7]{0,2}", self.pattern[self.pos:]).group()
            self.pos += len(digits)
            return chr(int(digits or "0", 8))
        if char == "c" or (char == "C" and self.accept("-")):
            return _control(self.take())
        if char == "M" and self.peek() == "-":
            raise self.error("meta escapes are not supported")
        return char

    # ----- bracket classes -----------------------------------------------------------------

    def bracket_class(self, flags: _Flags) -> str:
        """A `[...]` class after its "[", folded like Oniguruma when ignoring case."""
        negated, members = self.class_body(flags)
        text = _class_text(members, negated)
        if not flags.ignorecase:
            return text
        positive = regex.compile(_class_text(members, False), regex.VERSION1)
        if any(positive.fullmatch(c) for c in _multi_folds()[0]):
            self.needs_full_case_folding = True
        return _fix_dotted_i(text, positive, negated)

    def class_body(self, flags: _Flags) -> tuple[bool, str]:
        """Whether the class is negated, and its members (`&&` intersections included)."""
        negated = self.accept("^")
        operands = [self.class_items(flags, first=True)]
        while self.accept("&&"):
            operands.append(self.class_items(flags, first=False))
        if not self.accept("]"):
            raise self.error("premature end of char-class")
        if len(operands) == 1:
            return negated, operands[0]
        return negated, "&&".join(f"[{operand or _NOTHING}]" for operand in operands)

    def class_items(self, flags: _Flags, first: bool) -> str:
        """Class members up to "]" or "&&"; a "]" right after "[" or "[^" is literal."""
        items: list[str] = []
        at_start = first
        while True:
            char = self.peek()
            if char == "":
                raise self.error("premature end of char-class")
            if (char == "]" and not at_start) or self.pattern.startswith("&&", self.pos):
                return "".join(items)
            at_start = False
            if char == "[":
                items.append(self.nested_class(flags))
                continue
            low, shorthand = self.class_member(flags)
            if not self.range_ahead():
                items.append(shorthand if low is None else _escape(low))
                continue
            if low is None:
                raise self.error("unmatched range specifier in char-class")
            self.pos += 1
            high, shorthand = self.class_member(flags)
            if high is None:
                raise self.error("char-class value at end of range")
            if ord(high) < ord(low):
                raise self.error("empty range in char class")
            items.append(f"{_escape(low)}-{_escape(high)}")

    def range_ahead(self) -> bool:
        """True if a "-" here makes a range (it is literal before "]" and "&&")."""
        return (self.peek() == "-" and self.peek(1) not in ("]", "")
                and not self.pattern.startswith("&&", self.pos + 1))

    def nested_class(self, flags: _Flags) -> str:
        """A POSIX bracket `[:name:]` or a nested class."""
        posix = regex.match(r"\[:(\^?)([a-z]+):\]", self.pattern[self.pos:])
        if posix:
            table = _POSIX_ASCII if flags.ascii_posix else _POSIX
            if posix.group(2) not in table:
                raise self.error(f"invalid POSIX bracket type {posix.group(2)!r}")
            self.pos += posix.end()
            return _negate(table[posix.group(2)], bool(posix.group(1)))
        self.pos += 1
        negated, members = self.class_body(flags)
        return _class_text(members, negated)

    def class_member(self, flags: _Flags) -> tuple[str | None, str]:
        """One member: (char, "") for a char, (None, class) for an escape like \\w."""
        char = self.take()
        if char != "\\":
            return char, ""
        shorthand = self.shorthand_class(flags, in_class=True)
        if shorthand is not None:
            return None, shorthand
        if self.accept("b"):
            return "\b", ""
        return self.escaped_char(), ""


def _class_text(members: str, negated: bool) -> str:
    """A VERSION1 class of `members`."""
    return f"[{'^' if negated else ''}{members}]"


def _escape(char: str) -> str:
    """A char written so that it is literal both in and out of a VERSION1 class."""
    if char.isascii():
        if char.isalnum() or char == "_":
            return char
        return f"\\x{ord(char):02x}"
    return char


def _char(code: int, translator: _Translator) -> str:
    """The char with code point `code`, or an error if there is none."""
    if code > 0x10FFFF or 0xD800 <= code < 0xE000:
        raise translator.error("invalid code point value")
    return chr(code)


def _control(char: str) -> str:
    """The control char `\\cX` stands for."""
    return "\x7f" if char == "?" else chr(ord(char) & 0x1F)


def _negate(text: str, negated: bool) -> str:
    """The complement of the class `text` when `negated`."""
    if not negated:
        return text
    if text.startswith("\\p{"):
        return "\\P{" + text[3:]
    return f"[^{text}]"


def _fix_dotted_i(text: str, positive: "regex.Pattern[str]", negated: bool) -> str:
    """A case-insensitive class with Oniguruma's answer for i, I, U+0130 and U+0131.

    Oniguruma folds "i" with "I" only; U+0130 and U+0131 fold with nothing (as single chars).
    The `regex` module folds them together, so those four chars are decided here.
    """
    hits = {c for c in _DOTTED_I if positive.fullmatch(c)}
    if not hits and not negated:
        return text
    if hits & {"i", "I"}:
        hits |= {"i", "I"}
    matched = "".join(c for c in _DOTTED_I if (c in hits) != negated)
    forced = f"|(?-i:[{matched}])" if matched else ""
    return f"(?:(?!(?-i:[{_DOTTED_I}])){text}{forced})"


@lru_cache(maxsize=None)
def _is_valid(text: str) -> bool:
    """True if the `regex` module accepts this class."""
    try:
        regex.compile(text, regex.VERSION1)
    except regex.error:
        return False
    return True


def find_spans(compiled: "regex.Pattern[str]", text: str) -> Iterator[tuple[int, int]]:
    """Match spans as the onig crate's find_iter yields them.

    After an empty match the next search starts one char later (`regex` would retry the same
    position for a non-empty match), and an empty match that ends where the previous match
    ended is dropped. Between empty matches `regex`'s own iteration agrees, so it runs in C.
    """
    text = onig_view(text)
    position, last_end = 0, -1
    while position <= len(text):
        for match in compiled.finditer(text, position):
            start, end = match.span()
            if start != end:
                last_end = end
                yield start, end
                continue
            position = end + 1
            if end != last_end:
                last_end = end
                yield start, end
            break
        else:
            return


# Code points the `regex` module has assigned but Oniguruma's Unicode 16 tables have not, as
# (first, last) pairs: every code point was run through tokenizers' Split on \p{Cn}.
NEWER_THAN_ONIGURUMA = (
    (0x00558, 0x00558), (0x0058B, 0x0058C), (0x005C8, 0x005C9), (0x0088F, 0x0088F),
    (0x00B53, 0x00B54), (0x00C5C, 0x00C5C), (0x00CDC, 0x00CDC), (0x01ACF, 0x01AF0),
    (0x0208F, 0x0208F), (0x0209D, 0x0209F), (0x020C1, 0x020C4), (0x02B96, 0x02B96),
    (0x02E60, 0x02E63), (0x0A7CE, 0x0A7CF), (0x0A7D2, 0x0A7D2), (0x0A7D4, 0x0A7D4),
    (0x0A7DD, 0x0A7DD), (0x0A7E2, 0x0A7E2), (0x0A7F1, 0x0A7F1), (0x0AB6C, 0x0AB6D),
    (0x0FBC3, 0x0FBD2), (0x0FD90, 0x0FD91), (0x0FDC8, 0x0FDCE), (0x107BB, 0x107BF),
    (0x10940, 0x10959), (0x10EC5, 0x10EC7), (0x10EC9, 0x10EEE), (0x10EF0, 0x10EFB),
    (0x11B0A, 0x11B0A), (0x11B60, 0x11B67), (0x11DB0, 0x11DDB), (0x11DE0, 0x11DE9),
    (0x11DF0, 0x11DF1), (0x1246F, 0x1246F), (0x12475, 0x1247F), (0x12550, 0x12686),
    (0x16EA0, 0x16EB8), (0x16EBB, 0x16ED3), (0x16FF2, 0x16FF6), (0x187F8, 0x187FF),
    (0x18CD6, 0x18CDA), (0x18D09, 0x18D20), (0x18D80, 0x18DF2), (0x18E00, 0x19191),
    (0x191A0, 0x191D2), (0x1B123, 0x1B128), (0x1B168, 0x1B168), (0x1CCFA, 0x1CCFC),
    (0x1CEBA, 0x1CED0), (0x1CED2, 0x1CED4), (0x1CEDD, 0x1CEFD), (0x1D127, 0x1D128),
    (0x1D1EB, 0x1D1FF), (0x1D250, 0x1D281), (0x1D6A6, 0x1D6A6), (0x1DB00, 0x1DB1C),
    (0x1DF1F, 0x1DF24), (0x1DF2B, 0x1DF81), (0x1DF90, 0x1DF96), (0x1DFCD, 0x1DFFF),
    (0x1E6C0, 0x1E6DE), (0x1E6E0, 0x1E6F5), (0x1E6FE, 0x1E6FF), (0x1F1AE, 0x1F1AE),
    (0x1F6D8, 0x1F6D9), (0x1F777, 0x1F77A), (0x1F7DA, 0x1F7DB), (0x1F7F1, 0x1F7FF),
    (0x1F8D0, 0x1F8D8), (0x1FA54, 0x1FA57), (0x1FA8A, 0x1FA8E), (0x1FAC8, 0x1FAC8),
    (0x1FACC, 0x1FACD), (0x1FADD, 0x1FADD), (0x1FAEA, 0x1FAEB), (0x1FAEF, 0x1FAEF),
    (0x1FAF9, 0x1FAFA), (0x1FBFA, 0x1FBFA), (0x2B73A, 0x2B73F), (0x2B81E, 0x2B81E),
    (0x2CEA2, 0x2CEAD), (0x323B0, 0x33479), (0x3D000, 0x3FC3F),
)
# Plain code-point ranges, no Unicode properties: the stdlib `re` scans such a class far
# faster than `regex` does.
_NEWER = re.compile("[" + "".join(
    f"\\U{a:08x}-\\U{b:08x}" for a, b in NEWER_THAN_ONIGURUMA) + "]")
# The class's BMP ranges plus every astral char: a quick first test (a class with astral
# ranges is slow to scan, and most text is BMP).
_MAYBE_NEWER = re.compile("[" + "".join(
    f"\\u{a:04x}-\\u{b:04x}" for a, b in NEWER_THAN_ONIGURUMA if b <= 0xFFFF)
    + "\U00010000-\U0010ffff]")
# Unassigned in every Unicode version so far: a stand-in for the characters Oniguruma lacks.
_UNASSIGNED = "\u0378"


def onig_view(text: str) -> str:
    """`text` as Oniguruma's classes see it: chars it does not know yet become unassigned ones.

    Char positions are unchanged, so match spans on the view are spans on `text`.
    """
    if text.isascii():
        return text
    maybe = _MAYBE_NEWER.search(text)
    if maybe is None or _NEWER.search(text, maybe.start()) is None:
        return text
    return _NEWER.sub(_UNASSIGNED, text)
