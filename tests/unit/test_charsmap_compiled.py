"""The compiled walk of a charsmap's keys (hfcompat/normalizers/_charsmap.pyx) against the
pure-Python reference (`_key_chars`), on built charsmaps of random rules and on nmt_nfkc."""

from __future__ import annotations

from dataclasses import astuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hfcompat import _backend
from hfcompat.normalizers.charsmap import _UTF8_WIDTHS, CharsMap, _key_chars
from hfcompat.normalizers.charsmap_builder import build_charsmap
from hfcompat.normalizers.normalization_rules import precompiled_charsmap

_charsmap = pytest.importorskip("hfcompat.normalizers._charsmap", reason="the compiled core is not built")

# Chars of one to four UTF-8 bytes, so keys begin and continue with every width.
CHARS = st.characters(blacklist_categories=("Cs",), blacklist_characters="\0") | st.sampled_from("aé日𝔸")
RULES = st.dictionaries(st.text(CHARS, min_size=1, max_size=4), st.text(CHARS, max_size=3), min_size=1, max_size=40)


def reference(charsmap: CharsMap) -> tuple:
    """What the pure-Python walk finds, as a tuple."""
    with _backend.use(_backend.PYTHON):
        return astuple(_key_chars(charsmap))


def assert_same_walk(charsmap: CharsMap) -> None:
    """The compiled walk finds what the reference finds, and `_key_chars` gives it on the compiled backend."""
    expected = reference(charsmap)
    assert _charsmap.key_chars(charsmap._units, charsmap._root, _UTF8_WIDTHS) == expected
    with _backend.use(_backend.COMPILED):
        assert astuple(_key_chars(charsmap)) == expected


@settings(max_examples=150, deadline=None)
@given(RULES)
def test_key_chars_equal_the_reference(rules: dict[str, str]) -> None:
    """Charsmaps built from random rules."""
    assert_same_walk(CharsMap.from_bytes(build_charsmap(rules)))


def test_nmt_nfkc_key_chars_equal_the_reference() -> None:
    """SentencePiece's default normalization rules (about 44k trie units)."""
    assert_same_walk(CharsMap.from_bytes(precompiled_charsmap("nmt_nfkc")))


def test_the_empty_charsmap() -> None:
    """No trie at all: no chars, no key."""
    assert_same_walk(CharsMap.from_bytes(b""))


def test_a_key_deeper_than_the_c_walk_is_left_to_the_reference() -> None:
    """A key longer than MAX_DEPTH bytes: the compiled walk declines, `_key_chars` still answers."""
    charsmap = CharsMap.from_bytes(build_charsmap({"a" * (_charsmap.MAX_DEPTH + 5): "b", "é": "e"}))
    assert _charsmap.key_chars(charsmap._units, charsmap._root, _UTF8_WIDTHS) is None
    expected = reference(charsmap)
    with _backend.use(_backend.COMPILED):
        assert astuple(_key_chars(charsmap)) == expected
    assert expected[3] == _charsmap.MAX_DEPTH + 5
