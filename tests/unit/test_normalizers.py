"""hfcompat.normalizers against tokenizers 0.23.3: normalized text, alignments and JSON forms.

The alignments are compared through offsets: the oracle is a Tokenizer made of the normalizer's
JSON, FixedLength(1) and a WordLevel model whose unk covers everything, so each token is one
normalized char and its offsets are the original span that char stands for.

Python's `unicodedata` (Unicode 14.0 on Python 3.11) is newer than the crates HF normalizes with
(`unicode-normalization-alignments`, Unicode 9.0) and older than Rust's std (lowercase, Unicode 17).
The code points where that alone makes the results differ are listed below; the exhaustive tests
prove the lists exact (every listed char differs, every other code point agrees), the other tests
leave those chars out.
"""

from __future__ import annotations

import json
import unicodedata
from functools import lru_cache
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tokenizers import Tokenizer

from hfcompat import normalizers
from hfcompat.errors import FormatError
from hfcompat.normalizers.replace import EXTRA_SPACES
from hfcompat.pipeline.normalized import NormalizedString, find_matches


# --------------------------------------------------------------------------- Unicode versions


def code_points(ranges: str) -> frozenset[str]:
    """The chars of a list like "07FD 0898-089F"."""
    chars = set()
    for item in ranges.split():
        first, _, last = item.partition("-")
        chars.update(chr(c) for c in range(int(first, 16), int(last or first, 16) + 1))
    return frozenset(chars)


UNICODE_14 = unicodedata.unidata_version == "14.0.0"
# Unassigned in Unicode 14.0, lowercased by Rust's std (Unicode 16.0 and 17.0 letters):
# hfcompat carries their mappings, so they must match.
LOWERCASE_NEWER = code_points(
    "1C89 A7CB-A7CC A7CE A7D2 A7D4 A7DA A7DC 10D50-10D65 16EA0-16EB8")
# Decompositions added after Unicode 9.0: canonical, then compatibility only.
CANONICAL_NEWER = code_points("11938")
COMPATIBILITY_NEWER = code_points(
    "32FF A7F2-A7F4 AB69 10781-10785 10787-107B0 107B2-107BA 1F16C 1FBF0-1FBF9")
# Nonzero canonical combining class in Unicode 14.0, unknown to Unicode 9.0 (so never reordered).
COMBINING_CLASS_NEWER = code_points(
    "07FD 0898-089F 08CA-08D3 09FE 0C3C 0D3B-0D3C 0EBA 1715 1ABF-1ACE 1DF6-1DFA A82C 10D24-10D27"
    " 10EAB-10EAC 10F46-10F50 10F82-10F85 11070 1133B 1145E 11839-1183A 1193D-1193E 11943 119E0"
    " 11A34 11A47 11A99 11D42 11D44-11D45 11D97 16FF0-16FF1 1E130-1E136 1E2AE 1E2EC-1E2EF")
# The one composition added after Unicode 9.0 that Python 3.11 knows: U+11935 U+11930 -> U+11938.
COMPOSITION_NEWER = code_points("11930 11935")
UNICODE_FORM_NEWER = (CANONICAL_NEWER | COMPATIBILITY_NEWER | COMBINING_CLASS_NEWER
                      | COMPOSITION_NEWER)
# hfcompat gives these chars the results of HF's (Unicode 9.0) tables, so random text need leave
# none of them out; on a Python with other Unicode tables the lists are not the whole story.
VERSION_CHARS = frozenset() if UNICODE_14 else UNICODE_FORM_NEWER

ALL_CODE_POINTS = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF)


def without_version_chars(text: str) -> str:
    """`text` without the chars whose results differ only by Unicode version."""
    return "".join(c for c in text if c not in VERSION_CHARS)


# --------------------------------------------------------------------------- oracle helpers


def dumps(value: Any) -> str:
    """Compact JSON, as serde_json writes it."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@lru_cache(maxsize=None)
def hf_tokenizer(spec_json: str) -> Tokenizer:
    """The oracle pipeline: the normalizer, one token per normalized char, every token unknown."""
    wrapper = {
        "version": "1.0",
        "normalizer": json.loads(spec_json),
        "pre_tokenizer": {"type": "FixedLength", "length": 1},
        "model": {"type": "WordLevel", "vocab": {"[UNK]": 0}, "unk_token": "[UNK]"},
    }
    return Tokenizer.from_str(json.dumps(wrapper))


def hf_result(spec: dict, text: str) -> tuple[str, list[tuple[int, int]]]:
    """The official normalized text and the original span of each normalized char."""
    tokenizer = hf_tokenizer(dumps(spec))
    return tokenizer.normalizer.normalize_str(text), tokenizer.encode(text).offsets


@lru_cache(maxsize=None)
def our_normalizer(spec_json: str) -> normalizers.Normalizer:
    """hfcompat's normalizer read from the same JSON."""
    return normalizers.from_dict(json.loads(spec_json))


def our_result(spec: dict, text: str) -> tuple[str, list[tuple[int, int]]]:
    """hfcompat's normalized text and the original span of each normalized char."""
    ns = NormalizedString(text)
    our_normalizer(dumps(spec)).normalize(ns)
    return ns.normalized, ns.spans_to_original([(i, i + 1) for i in range(len(ns.normalized))])


def assert_same(spec: dict, text: str) -> None:
    """Text and alignments equal the official ones; normalize_str agrees with normalize."""
    expected = hf_result(spec, text)
    assert our_result(spec, text) == expected, (spec, text)
    assert our_normalizer(dumps(spec)).normalize_str(text) == expected[0]


def bert(clean_text: bool = True, handle_chinese_chars: bool = True,
         strip_accents: bool | None = None, lowercase: bool = True) -> dict:
    """A BertNormalizer spec."""
    return {"type": "BertNormalizer", "clean_text": clean_text,
            "handle_chinese_chars": handle_chinese_chars, "strip_accents": strip_accents,
            "lowercase": lowercase}


def replace(pattern: str, content: str, is_regex: bool = False) -> dict:
    """A Replace spec."""
    return {"type": "Replace", "pattern": {"Regex" if is_regex else "String": pattern},
            "content": content}


BERT_SPECS = [bert(c, h, s, lc) for c in (True, False) for h in (True, False)
              for s in (None, True, False) for lc in (True, False)]
SIMPLE_SPECS = [
    {"type": "NFC"}, {"type": "NFD"}, {"type": "NFKC"}, {"type": "NFKD"},
    {"type": "Lowercase"}, {"type": "StripAccents"}, {"type": "Nmt"}, {"type": "ByteLevel"},
    {"type": "Strip", "strip_left": True, "strip_right": True},
    {"type": "Strip", "strip_left": True, "strip_right": False},
    {"type": "Strip", "strip_left": False, "strip_right": True},
    {"type": "Strip", "strip_left": False, "strip_right": False},
    {"type": "Prepend", "prepend": "\u2581"}, {"type": "Prepend", "prepend": "<<"},
    {"type": "Prepend", "prepend": ""},
    replace(" ", "\u2581"), replace("''", '"'), replace("aa", "b"), replace("", "+"),
    replace("e", ""), replace("the", "THE THE"),
    replace(" {2,}", " ", True), replace(r"\s+", "", True), replace("x*", "-", True),
    replace("[A-Za-z]+", "L", True), replace("[aeiou]", "\u0301", True), replace(".", "..", True),
    # Line anchors: Oniguruma's meaning, not Python's.
    replace("^", ">", True), replace("$", "<", True), replace("(?m)^ *", "", True),
]
SEQUENCE_SPECS = [
    {"type": "Sequence", "normalizers": []},
    {"type": "Sequence", "normalizers": [{"type": "NFD"}, {"type": "StripAccents"},
                                         {"type": "Lowercase"}]},
    {"type": "Sequence", "normalizers": [{"type": "Nmt"}, {"type": "NFKC"},
                                         replace(" {2,}", " ", True)]},
    {"type": "Sequence", "normalizers": [{"type": "Prepend", "prepend": "\u2581"},
                                         replace(" ", "\u2581")]},
    {"type": "Sequence", "normalizers": [{"type": "NFKC"}, {"type": "Lowercase"},
                                         {"type": "Strip", "strip_left": True,
                                          "strip_right": True}, {"type": "ByteLevel"}]},
    {"type": "Sequence", "normalizers": [bert(), {"type": "Sequence", "normalizers": [
        {"type": "NFC"}, replace("##", "#")]}]},
]
ALL_SPECS = BERT_SPECS + SIMPLE_SPECS + SEQUENCE_SPECS


def spec_id(spec: dict) -> str:
    """A short readable test id."""
    return dumps(spec).replace('"type":', "")[:90]


# --------------------------------------------------------------------------- hand cases

HAND_CASES = [
    "", " ", "   ", "a", "Héllò hôw are ü?", "HELLO World", "ΟΔΥΣΣΕΥΣ Σ σς", "İstanbul",
    "a\u200bb", "a\ue000b", "a\x85b", "a\u2028b", "a\u2029b", "\u3000x\u3000", "a\x00b\ufffdc",
    "tab\tnl\ncr\rvt\x0bff\x0cfs\x1c", "\x7f\x80\x9f\xa0", "\u0903\u20dd e\u0903 e\u20dd",
    "e\u0301", "e\u0304\u0304\u0304o", "é", "abc", "aaaaa", "xxaxx", "  lead", "trail  ",
    "  both  ", "\u2581already", "我们去北京", "中文English混合", "𠀀𪛖 \U0002b820", "\uf900\ufa6d",
    "ｶﾞ ｱｲｳ ﬁ ① ㎒ ＡＢＣ", "\u1e9b\u0323", "a\u0301\u0301\u0301", "\u0344", "q\u0307\u0323",
    "각 한국어", "👍🏽 👩‍💻 🇯🇵", "''quoted''", "the theme", "line one\nline two\n",
    "\u1cf2\u1734\U0001171e\u0890", "Me llamó ậ… ำน\u0e49ำ3ลำ", "a  b   c",
]


@pytest.mark.parametrize("spec", ALL_SPECS, ids=spec_id)
def test_hand_cases(spec: dict) -> None:
    """Every normalizer on the hand-written cases."""
    for text in HAND_CASES:
        assert_same(spec, text)


@pytest.mark.parametrize("spec", ALL_SPECS, ids=spec_id)
def test_fixture_texts(spec: dict, multilingual: list[str]) -> None:
    """Every normalizer on the project's multilingual fixture (lines and multi-line blocks)."""
    for text in multilingual:
        assert_same(spec, without_version_chars(text))


@pytest.mark.parametrize("corpus", ["botchan", "wagahaiwa", "pku_test"])
@pytest.mark.parametrize("spec", ALL_SPECS, ids=spec_id)
def test_corpora(spec: dict, corpus: str, corpora) -> None:
    """Every normalizer on lines of the English, Japanese and Chinese corpora."""
    for text in corpora(corpus, 40):
        assert_same(spec, text)


@pytest.mark.parametrize("text,expected", [
    ("a\u200bb", "ab"), ("a\ue000b", "ab"), ("a\x85b", "ab"), ("a\u2028b", "a b"),
    ("a\u0378b", "a\u0378b"),  # unassigned (Cn) is kept
    ("e\u0903 e\u20dd e\u0301", "e\u0903 e\u20dd e"),  # Mc and Me kept, Mn stripped
    ("我们", " 我  们 "), ("Héllò hôw are ü?", "hello how are u?"),
])
def test_bert_documented(text: str, expected: str) -> None:
    """The BERT behaviours FORMATS.md documents, checked against the oracle too."""
    assert normalizers.BertNormalizer().normalize_str(text) == expected
    assert_same(bert(), text)


@pytest.mark.parametrize("spec,text,expected", [
    ({"type": "StripAccents"}, "e\u0301 é", "e é"),
    ({"type": "StripAccents"}, "e\u0903\u20dd", "e"),
    (replace("x*", "-", True), "abc", "-a-b-c-"),
    (replace("aa", "b"), "aaaaa", "bba"),
    (replace("", "b"), "abc", "babbbcb"),
    ({"type": "Prepend", "prepend": "\u2581"}, "", ""),
    ({"type": "Prepend", "prepend": "\u2581"}, "hi", "\u2581hi"),
    ({"type": "Nmt"}, "a\x01\u200bb\x7f\u2581c", "a b c"),
    ({"type": "ByteLevel"}, "a é", "aĠÃ©"),
])
def test_documented_cases(spec: dict, text: str, expected: str) -> None:
    """Documented results, checked against the oracle as well."""
    assert our_normalizer(dumps(spec)).normalize_str(text) == expected
    assert_same(spec, text)


def test_identity_alignments_kept_for_ascii() -> None:
    """1:1 edits of ASCII text keep the lazy identity alignments (the fast path)."""
    for normalizer in (normalizers.BertNormalizer(), normalizers.Lowercase(),
                       normalizers.ByteLevel(), normalizers.NFKC(), normalizers.Nmt(),
                       normalizers.StripAccents(), normalizers.Replace(" ", "_")):
        ns = NormalizedString("Hello, World!\tTabs and  spaces.")
        normalizer.normalize(ns)
        assert ns.is_identity(), normalizer


# --------------------------------------------------------------------------- random text

ALPHABET = st.characters(exclude_categories=("Cs",)).filter(lambda c: c not in VERSION_CHARS)
INTERESTING = st.sampled_from(
    list("aAeEiIsSΣσςİ \t\n\r\x0b\x0c\x1c\x00\x7f\x85\xa0\u1680\u2000\u200b\u2028\u3000"
         "\ufeff\ufffd\ue000\u0301\u0308\u0323\u0334\u0345\u0903\u20dd\u1cf2\u3099\uff9e"
         "我中\uf900\U00020000\U0002b820ｶﾞﬁ①ẛé각ᄀ\u1161\u11a8\u2581'x"
         "\U00011938\U00011930"))  # Unicode 13's composition that HF's tables lack
TEXT = st.text(st.one_of(ALPHABET, INTERESTING), max_size=40)


@pytest.mark.parametrize("spec", ALL_SPECS, ids=spec_id)
@given(text=TEXT)
def test_random_unicode(spec: dict, text: str) -> None:
    """Every normalizer on random Unicode: marks, CJK, controls, whitespace variants."""
    assert_same(spec, text)


# Starters, marks of many combining classes, jamo and compatibility chars: dense reordering and
# composition, where the per-char shortcuts must hand over to the full algorithm.
MARKS_TEXT = st.text(st.sampled_from(list(
    "aeoAEOsᄀ\u1161\u11a8각가はかｶﾞﾞﬁẛǅΩ\u0300\u0301\u0307\u0316\u0323\u0334\u0345\u05b0\u0591"
    "\u093c\u094d\u0e38\u3099\u309a\u1dce\u302a\u0f71\u0f72\u0f80\u0344\u0f73\u0903\u20dd\u0338")),
    max_size=24)
MARKS_SPECS = [{"type": "NFC"}, {"type": "NFD"}, {"type": "NFKC"}, {"type": "NFKD"},
               {"type": "StripAccents"}, bert(), bert(True, True, True, False),
               SEQUENCE_SPECS[1], SEQUENCE_SPECS[2]]


@pytest.mark.parametrize("spec", MARKS_SPECS, ids=spec_id)
@given(text=MARKS_TEXT)
def test_random_marks(spec: dict, text: str) -> None:
    """The Unicode forms and accent stripping on random runs of marks."""
    assert_same(spec, text)


# --------------------------------------------------------------------------- every code point

# Probes whose results are per char (or whose interactions both sides share) over all of Unicode.
EXHAUSTIVE_SPECS = [
    bert(True, False, False, False), bert(False, True, False, False),
    bert(False, False, True, False), bert(), {"type": "StripAccents"}, {"type": "Lowercase"},
    {"type": "NFD"}, {"type": "NFKD"}, {"type": "NFC"}, {"type": "NFKC"}, {"type": "Nmt"},
    {"type": "ByteLevel"}, {"type": "Strip", "strip_left": True, "strip_right": True},
]


@pytest.mark.skipif(not UNICODE_14, reason="the version lists are for Python's Unicode 14.0")
@pytest.mark.parametrize("spec", EXHAUSTIVE_SPECS, ids=spec_id)
def test_every_code_point(spec: dict) -> None:
    """All code points but the listed ones, in blocks of 512, give the official text."""
    text = without_version_chars(ALL_CODE_POINTS)
    hf = hf_tokenizer(dumps(spec)).normalizer
    ours = our_normalizer(dumps(spec))
    for start in range(0, len(text), 512):
        block = text[start:start + 512]
        expected = hf.normalize_str(block)
        if ours.normalize_str(block) != expected:
            wrong = [f"U+{ord(c):04X}" for c in block
                     if ours.normalize_str(c) != hf.normalize_str(c)]
            pytest.fail(f"{spec}: block at U+{ord(block[0]):04X} differs; single chars: {wrong}")


def _differs(spec: dict, text: str) -> bool:
    """True when hfcompat and the oracle give a different text."""
    return (our_normalizer(dumps(spec)).normalize_str(text)
            != hf_tokenizer(dumps(spec)).normalizer.normalize_str(text))


@pytest.mark.skipif(not UNICODE_14, reason="the version lists are for Python's Unicode 14.0")
def test_version_lists_are_exact() -> None:
    """Every char whose decomposition, composition or combining class is newer than HF's tables
    normalizes as HF's tables say (Python's would differ), and the newer lowercase letters match."""
    lower, nfd, nfkd, nfc = ({"type": "Lowercase"}, {"type": "NFD"}, {"type": "NFKD"},
                             {"type": "NFC"})
    assert not any(_differs(lower, c) for c in LOWERCASE_NEWER)
    assert all(unicodedata.normalize("NFD", c) != c for c in CANONICAL_NEWER)  # Python's tables differ
    assert not any(_differs(nfd, c) or _differs(nfkd, c) for c in CANONICAL_NEWER | COMPATIBILITY_NEWER)
    assert all(unicodedata.combining(c) for c in COMBINING_CLASS_NEWER)
    assert not any(_differs(nfd, c + "\u0334") or _differs(nfc, "a" + c + "\u0301") for c in COMBINING_CLASS_NEWER)
    assert not _differs(nfc, "\U00011935\U00011930")
    assert not any(_differs(lower, c) for c in UNICODE_FORM_NEWER)


# --------------------------------------------------------------------------- JSON forms


def hf_serialized(spec: dict) -> dict:
    """The oracle's own serialization of the normalizer it read from `spec`."""
    return json.loads(hf_tokenizer(dumps(spec)).to_str())["normalizer"]


@pytest.mark.parametrize("spec", ALL_SPECS, ids=spec_id)
def test_to_dict_matches_tokenizers(spec: dict) -> None:
    """to_dict writes exactly what tokenizers writes for the same normalizer."""
    assert normalizers.from_dict(spec).to_dict() == hf_serialized(spec)


LEGACY_FORMS = [
    {"type": "Bert", "clean_text": True, "handle_chinese_chars": False, "strip_accents": True,
     "lowercase": False},
    {"clean_text": False, "handle_chinese_chars": True, "strip_accents": None, "lowercase": True},
    {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
     "lowercase": True},  # strip_accents absent reads as null
    {"type": "Whatever", "clean_text": True, "handle_chinese_chars": True,
     "strip_accents": False, "lowercase": True},
    {"strip_left": True, "strip_right": False},
    {"type": None, "strip_left": False, "strip_right": True},
    {"type": "BertNormalizer", "strip_left": True, "strip_right": True},
    {"normalizers": [{"type": "NFC"}, {"prepend": "x"}]},
    {"pattern": {"Regex": "a+"}, "content": "b"},
    {"prepend": "\u2581"},
    {"prepend": "a", "strip_left": True, "strip_right": False},
    {"type": "Prepend", "prepend": "a", "strip_left": True, "strip_right": False},
    {"type": "NFC", "extra": 1}, {"type": "ByteLevel", "add_prefix_space": True},
    {"type": "Strip", "strip_left": True, "strip_right": True, "other": [1]},
]


@pytest.mark.parametrize("spec", LEGACY_FORMS, ids=spec_id)
def test_legacy_forms(spec: dict) -> None:
    """Variant JSON that tokenizers accepts reads as the same normalizer."""
    assert normalizers.from_dict(spec).to_dict() == hf_serialized(spec)


def hf_rejects(spec: Any) -> bool:
    """True when tokenizers refuses to read a tokenizer.json with this normalizer."""
    try:
        hf_tokenizer(dumps(spec))
    except BaseException as exc:  # a Rust panic surfaces as pyo3's PanicException
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise
        return True
    return False


@pytest.mark.parametrize("spec,field", [
    ({}, "type"),
    ({"type": "Foo"}, "type"),
    ({"type": "nfc"}, "type"),
    ([], None),
    ("NFC", None),
    ({"type": "BertNormalizer", "handle_chinese_chars": True, "strip_accents": None,
      "lowercase": True}, "clean_text"),
    ({"type": "BertNormalizer", "clean_text": 1, "handle_chinese_chars": True,
      "strip_accents": None, "lowercase": True}, "clean_text"),
    ({"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
      "strip_accents": "yes", "lowercase": True}, "strip_accents"),
    ({"type": "Bert", "strip_left": True, "strip_right": False}, "clean_text"),
    ({"type": "Strip", "strip_left": True}, "strip_right"),
    ({"type": "Strip", "strip_left": None, "strip_right": True}, "strip_left"),
    ({"type": "Sequence"}, "normalizers"),
    ({"type": "Sequence", "normalizers": None}, "normalizers"),
    ({"type": "Sequence", "normalizers": [{}]}, "normalizers[0].type"),
    ({"type": "Sequence", "normalizers": [{"type": "NFC"}, {"type": "Strip"}]},
     "normalizers[1].strip_left"),
    ({"type": "Replace", "pattern": "a", "content": "b"}, "pattern"),
    ({"type": "Replace", "pattern": {"Str": "a"}, "content": "b"}, "pattern"),
    ({"type": "Replace", "pattern": {"String": "a", "Regex": "b"}, "content": "b"}, "pattern"),
    ({"type": "Replace", "pattern": {"Regex": 3}, "content": "b"}, "pattern.Regex"),
    ({"type": "Replace", "pattern": {"Regex": "(a"}, "content": "b"}, "pattern.Regex"),
    ({"type": "Replace", "pattern": {"String": "a"}}, "content"),
    ({"type": "Replace", "pattern": {"String": "a"}, "content": None}, "content"),
    ({"type": "Prepend"}, "prepend"),
    ({"type": "Prepend", "prepend": 1}, "prepend"),
    ({"type": "Precompiled", "precompiled_charsmap": ""}, "precompiled_charsmap"),
    ({"type": "Precompiled"}, "precompiled_charsmap"),
    ({"precompiled_charsmap": "AAAA"}, "type"),
], ids=lambda value: spec_id(value) if isinstance(value, dict) else str(value))
def test_malformed(spec: Any, field: str | None) -> None:
    """What tokenizers refuses, hfcompat refuses with a FormatError naming the field."""
    assert hf_rejects(spec)
    with pytest.raises(FormatError) as info:
        normalizers.from_dict(spec)
    assert info.value.field == field


def test_precompiled_t5_matches_tokenizers(shared) -> None:
    """T5's real Precompiled normalizer: text, per-char offsets and JSON form equal the oracle's."""
    spec = json.loads((shared / "refs" / "t5" / "tokenizer.json").read_text())["normalizer"]
    ours = normalizers.from_dict(spec)
    assert ours.to_dict() == hf_serialized(spec)
    texts = ["ｶﾞ ﬁx Ⅻ ①", "a\u0301\u0301 e\u0301", "  tabs\tand\u3000spaces  ", "각 한국어", "½ ²"]
    for text in texts:
        expected_text, expected_offsets = hf_result(spec, text)
        ns = NormalizedString(text)
        ours.normalize(ns)
        spans = ns.spans_to_original([(i, i + 1) for i in range(len(ns.normalized))])
        assert (ns.normalized, spans) == (expected_text, expected_offsets), text


def test_precompiled_field_in_tokenizer_json() -> None:
    """Read through tokenizer.json, the error names normalizer.precompiled_charsmap."""
    pytest.importorskip("hfcompat.pre_tokenizers", reason="tokenizer_json needs pre_tokenizers")
    from hfcompat.formats.tokenizer_json import tokenizer_from_dict

    data = {"version": "1.0", "normalizer": {"type": "Precompiled", "precompiled_charsmap": ""},
            "model": {"type": "WordLevel", "vocab": {"[UNK]": 0}, "unk_token": "[UNK]"}}
    with pytest.raises(FormatError) as info:
        tokenizer_from_dict(data)
    assert info.value.field == "normalizer.precompiled_charsmap"


@pytest.mark.parametrize("spec", ALL_SPECS, ids=spec_id)
def test_round_trip(spec: dict) -> None:
    """to_dict then from_dict gives an equal normalizer."""
    normalizer = normalizers.from_dict(spec)
    assert normalizers.from_dict(normalizer.to_dict()) == normalizer


@pytest.mark.skipif(not UNICODE_14, reason="hfcompat's lists of newer chars are for Python's Unicode 14.0")
@pytest.mark.parametrize("form", ["NFC", "NFD", "NFKC", "NFKD"])
def test_every_code_point_as_tokenizers_normalizes_it(form: str) -> None:
    """Each char alone (between newlines, so nothing composes across) normalizes as in
    `tokenizers`, whose Unicode tables are older than Python's: a char decomposed only in the
    newer tables (U+32FF, U+A7F2, U+10781, U+11938, ...) stays as it is, as it does there."""
    tokenizers = pytest.importorskip("tokenizers")
    ours, theirs = getattr(normalizers, form)(), getattr(tokenizers.normalizers, form)()
    codes = [code for code in range(0x110000) if not 0xD800 <= code < 0xE000]
    for start in range(0, len(codes), 50_000):
        text = "\n".join(map(chr, codes[start:start + 50_000]))
        assert ours.normalize_str(text) == theirs.normalize_str(text), (form, hex(codes[start]))
    pair = "\U00011935\U00011930"  # composes to U+11938 in Python's tables only
    assert ours.normalize_str(pair) == theirs.normalize_str(pair)


@given(st.text(st.sampled_from(" ab\t\u3000"), max_size=14))
def test_extra_spaces_without_the_regex(text: str) -> None:
    """SentencePiece's remove_extra_whitespaces, removed without its regex (string and aligned
    forms), gives what the regex's matches give."""
    replace = normalizers.Replace(EXTRA_SPACES, "", is_regex=True)
    kept = [(start, end) for start, end, hit in find_matches(replace._compiled, text) if not hit]
    assert replace.normalize_str(text) == "".join(text[start:end] for start, end in kept)
    expected = NormalizedString(text)
    expected.replace(replace._compiled, "")
    found = NormalizedString(text)
    replace.normalize(found)
    assert (found.normalized, found.alignments) == (expected.normalized, expected.alignments)
