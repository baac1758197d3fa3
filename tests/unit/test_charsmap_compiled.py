"""The compiled walks of a charsmap (hfcompat/normalizers/_charsmap.pyx) against the pure-Python
reference (`_key_chars`, `longest_rule_rewrites`, `CharsMap.char_rules` on the pure backend), on built charsmaps of random rules and on
SentencePiece's own rule sets."""

from __future__ import annotations

from dataclasses import astuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hfcompat import _backend
from hfcompat.errors import FormatError
from hfcompat.normalizers.charsmap import (_UTF8_WIDTHS, CharsMap, _key_chars, longest_rule_rewrites,
                                          sentencepiece_normalize)
from hfcompat.normalizers.charsmap_builder import build_charsmap
from hfcompat.normalizers.normalization_rules import precompiled_charsmap
from hfcompat.pipeline.normalized import NormalizedString

_charsmap = pytest.importorskip("hfcompat.normalizers._charsmap", reason="the compiled core is not built")

# Chars of one to four UTF-8 bytes, so keys begin and continue with every width.
CHARS = st.characters(blacklist_categories=("Cs",), blacklist_characters="\0") | st.sampled_from("aé日𝔸")
RULES = st.dictionaries(st.text(CHARS, min_size=1, max_size=4), st.text(CHARS, max_size=3), min_size=1, max_size=40)


def reference(charsmap: CharsMap) -> tuple:
    """What the pure-Python walk finds, as a tuple."""
    with _backend.use(_backend.PYTHON):
        return astuple(_key_chars(charsmap))


def assert_same_walk(charsmap: CharsMap) -> None:
    """The compiled walks find what the reference finds (the key chars, and the keys of one char
    or less), and `_key_chars` gives it on the compiled backend."""
    expected = reference(charsmap)
    assert _charsmap.key_chars(charsmap._units, charsmap._root, _UTF8_WIDTHS) == expected
    with _backend.use(_backend.COMPILED):
        assert astuple(_key_chars(charsmap)) == expected
    with _backend.use(_backend.PYTHON):
        char_keys = charsmap._char_keys()
    assert sorted(_charsmap.char_keys(charsmap._units, charsmap._root, _UTF8_WIDTHS)) == sorted(char_keys)


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


def compiled_rewriter(charsmap: CharsMap) -> _charsmap.Rewriter:
    """The map's compiled rewriter (the one the compiled backend uses)."""
    with _backend.use(_backend.COMPILED):
        return charsmap.rewriter()


def assert_same_rewrites(charsmap: CharsMap, text: str) -> None:
    """SentencePiece's longest-key rewrites of `text`: the compiled walk gives the reference's,
    and `normalized` the text they make."""
    with _backend.use(_backend.PYTHON):
        expected = longest_rule_rewrites(charsmap, text)
    assert compiled_rewriter(charsmap).rewrites(text) == expected
    rewritten, done = "", 0
    for start, chars, replacement in expected:
        rewritten += text[done:start] + replacement
        done = start + chars
    assert compiled_rewriter(charsmap).normalized(text) == rewritten + text[done:]
    with _backend.use(_backend.COMPILED):
        assert longest_rule_rewrites(charsmap, text) == expected
    assert_same_expansion(charsmap, text, expected)


def assert_same_expansion(charsmap: CharsMap, text: str, rewrites: list[tuple[int, int, str]]) -> None:
    """The compiled expansion: the rewritten text and each char's source (None where every
    rewrite is one char for one), and the aligned normalizer that uses it, as the reference."""
    sources, done = [], 0
    for start, chars, replacement in rewrites:
        sources += [*range(done, start), *[start] * len(replacement)]
        done = start + chars
    sources += range(done, len(text))
    expansion = compiled_rewriter(charsmap).expansion(text)
    if not rewrites:
        assert expansion is None
    else:
        one_for_one = all(chars == 1 and len(replacement) == 1 for _, chars, replacement in rewrites)
        assert expansion == (compiled_rewriter(charsmap).normalized(text), None if one_for_one else sources)
    aligned = {}
    for backend in (_backend.PYTHON, _backend.COMPILED):
        with _backend.use(backend):
            ns = NormalizedString(text)
            sentencepiece_normalize(charsmap, ns)
            aligned[backend] = (ns.normalized, ns.alignments)
    assert aligned[_backend.COMPILED] == aligned[_backend.PYTHON]


@settings(max_examples=150, deadline=None)
@given(rules=RULES, texts=st.lists(st.text(CHARS | st.sampled_from("\0\ud800"), max_size=12), max_size=4),
       draw=st.data())
def test_rewrites_equal_the_reference(rules: dict[str, str], texts: list[str], draw: st.DataObject) -> None:
    """Random rules, on random texts and on texts made of their keys (lone surrogates and NULs too)."""
    charsmap = CharsMap.from_bytes(build_charsmap(rules))
    keys = draw.draw(st.lists(st.sampled_from(sorted(rules)), max_size=6))
    for text in [*texts, "".join(keys), "x".join(keys)]:
        assert_same_rewrites(charsmap, text)


@pytest.mark.parametrize("name", ["nmt_nfkc", "nfkc_cf"])
@settings(max_examples=100, deadline=None)
@given(text=st.text(max_size=30) | st.sampled_from(["ｱｲｳ　ＡＢＣ①", "ﾊﾟﾋﾟ", "Å\u030a", "…‥"]))
def test_rewrites_of_sentencepiece_rules_equal_the_reference(name: str, text: str) -> None:
    """SentencePiece's rule sets, on random Unicode and on text they rewrite."""
    assert_same_rewrites(CharsMap.from_bytes(precompiled_charsmap(name)), text)


def assert_same_char_rules(charsmap: CharsMap, codes: list[int]) -> None:
    """The shortest and the longest rule of each char alone: the compiled walk finds the
    reference's (`shortest_match` / `longest_match` per char)."""
    for shortest in (True, False):
        with _backend.use(_backend.PYTHON):
            expected = charsmap.char_rules(codes, shortest)
        search = charsmap.shortest_match if shortest else charsmap.longest_match
        assert expected == {code: search(chr(code).encode("utf-8", "surrogatepass"))[0] for code in codes
                            if search(chr(code).encode("utf-8", "surrogatepass")) is not None}
        assert compiled_rewriter(charsmap).char_rules(codes, shortest) == expected
        with _backend.use(_backend.COMPILED):
            assert charsmap.char_rules(codes, shortest) == expected


@settings(max_examples=150, deadline=None)
@given(rules=RULES, others=st.lists(CHARS | st.sampled_from("\0\ud800"), max_size=8))
def test_char_rules_equal_the_reference(rules: dict[str, str], others: list[str]) -> None:
    """Random rules, on the first char of each key (keys of one char and longer ones) and on
    random chars."""
    codes = sorted({ord(key[0]) for key in rules} | set(map(ord, others)))
    assert_same_char_rules(CharsMap.from_bytes(build_charsmap(rules)), codes)


@pytest.mark.parametrize("name", ["nmt_nfkc", "nfkc_cf"])
def test_char_rules_of_sentencepiece_rules_equal_the_reference(name: str) -> None:
    """SentencePiece's rule sets, on every char of the Basic Multilingual Plane."""
    assert_same_char_rules(CharsMap.from_bytes(precompiled_charsmap(name)), list(range(0x10000)))


def test_char_rules_name_a_rule_past_the_pool() -> None:
    """A rule whose replacement lies past the pool (a blob the reader refuses, built here
    without its checks): the compiled walk raises the reference's FormatError."""
    units = [0] * 256
    units[0] = 1 << 10
    units[0x60] = (1 << 10) | (1 << 8) | 0x61  # root -> 'a', a leaf, its value at unit 0x61
    units[0x61] = 0x80000000 | 50
    charsmap = CharsMap(b"", units, b"x\0")
    for backend in (_backend.PYTHON, _backend.COMPILED):
        with _backend.use(backend), pytest.raises(FormatError, match="past the 2-byte pool"):
            charsmap.char_rules([ord("a")], shortest=True)
