"""The tiktoken pattern in three regex dialects: what each rewrite does, checked by the engines themselves."""

from __future__ import annotations

import re

import pytest
import regex
from hypothesis import given
from hypothesis import strategies as st
from tokenizers import Regex
from tokenizers.pre_tokenizers import Split

from hfcompat import pre_tokenizers
from hfcompat.formats.tiktoken.encodings import CL100K_PATTERN, O200K_PATTERN, R50K_PATTERN
from hfcompat.pre_tokenizers.tiktoken_pattern import from_oniguruma, to_ascii_python, to_oniguruma, to_python

PATTERNS = {"r50k": R50K_PATTERN, "cl100k": CL100K_PATTERN, "o200k": O200K_PATTERN}
TEXTS = ["12345678", "2012", "8868", "1234567", "Ⅻ111", "x  \n\n  y", "end  ", "a\n", "He's 'LL ſ's",
         "tab\t\tx", "\u00a0\u3000z", "中文，汉字。", "😀 emoji", "snake_case = 42;\n"]


@pytest.mark.parametrize("pattern, expected", [
    (r"\p{N}{1,3}+", r"(?>\p{N}{1,3})"),
    (r"a{2}+b", r"(?>a{2})b"),
    (r"(?:ab){1,2}+", r"(?>(?:ab){1,2})"),
    (r"[a{1,2}+]", r"[a{1,2}+]"),  # inside a class nothing is a quantifier
    (r"\s++$", r"\s++\z"),
    (r"[$]\$", r"[$]\$"),
    (r"x{,2}+", r"(?>x{,2})"),
    (r"x{a}+", r"x{a}+"),  # a literal brace, then a possessive-free "+" on "}"
    (r"a{1,3}?", r"a{1,3}?"),
])
def test_to_oniguruma_rewrites(pattern: str, expected: str) -> None:
    """Only possessive intervals and `$` change."""
    assert to_oniguruma(pattern) == expected


@pytest.mark.parametrize("name", list(PATTERNS))
def test_rewritten_pattern_splits_like_regex_module(name: str) -> None:
    """tokenizers on the Oniguruma form = the `regex` module on the tiktoken form (fancy-regex semantics)."""
    pattern = PATTERNS[name]
    theirs = Split(Regex(to_oniguruma(pattern)), behavior="isolated")
    python = regex.compile(to_python(pattern))
    for text in TEXTS:
        assert [piece for piece, _ in theirs.pre_tokenize_str(text)] == python.findall(text), text


@pytest.mark.parametrize("name", list(PATTERNS))
def test_hfcompat_split_on_rewritten_pattern(name: str) -> None:
    """hfcompat's own Split (its Oniguruma translation) on the rewritten pattern agrees with tokenizers."""
    pattern = to_oniguruma(PATTERNS[name])
    ours = pre_tokenizers.Split(pattern, "isolated", is_regex=True)
    theirs = Split(Regex(pattern), behavior="isolated")
    for text in TEXTS:
        assert [p for p, _ in ours.pre_tokenize_str(text)] == [p for p, _ in theirs.pre_tokenize_str(text)]


@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=40))
def test_ascii_form_matches_on_ascii_text(text: str) -> None:
    """On ASCII text the stdlib-re form finds the same pieces as the full pattern."""
    for pattern in PATTERNS.values():
        assert re.findall(to_ascii_python(pattern), text) == regex.findall(to_python(pattern), text)


def test_ascii_form_refuses_unknown_classes() -> None:
    """A class without a listed ASCII form means no ASCII fast path."""
    assert to_ascii_python(r"\p{Greek}+|\w+") is None
    assert to_ascii_python(r"[^\S\n]") is None


@pytest.mark.parametrize("name", list(PATTERNS))
def test_from_oniguruma_inverts(name: str) -> None:
    """Back from tokenizer.json, the pattern means in fancy-regex terms what it meant before."""
    pattern = PATTERNS[name]
    back = from_oniguruma(to_oniguruma(pattern))
    assert regex.compile(to_python(back)).findall("\n".join(TEXTS)) == regex.compile(to_python(pattern)).findall("\n".join(TEXTS))
    assert from_oniguruma(r"\d{1,3}+") == r"(?:\d{1,3})+"
