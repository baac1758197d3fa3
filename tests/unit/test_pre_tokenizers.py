"""hfcompat.pre_tokenizers against tokenizers 0.23.3: pieces, offsets, alignments, JSON forms."""

from __future__ import annotations

import json
import unicodedata
from functools import lru_cache
from typing import Any, Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tokenizers import PreTokenizedString as HFPreTokenizedString
from tokenizers import Regex, Token, Tokenizer, models
from tokenizers import pre_tokenizers as hf

from hfcompat import pre_tokenizers as ours
from hfcompat.errors import FormatError
from hfcompat.models import Token as OurToken
from hfcompat.pipeline.normalized import NormalizedString, PreTokenizedString
from test_oniguruma import newer_than_oniguruma  # chars whose Unicode version differs

GPT2 = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"
CL100K = (r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++"
          r"[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s")
LLAMA3 = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+"
          r"[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
CLIP = (r"<\|startoftext\|>|<\|endoftext\|>|'s|'t|'re|'ve|'m|'ll|'d|[\p{L}]+|[\p{N}]"
        r"|[^\s\p{L}\p{N}]+")
BEHAVIORS = ["removed", "isolated", "merged_with_previous", "merged_with_next", "contiguous"]


# --------------------------------------------------------------------------- the cases


def sequence(*parts: tuple[Any, Any]) -> tuple[Any, Any]:
    """A Sequence on both sides from (ours, hf) pairs."""
    return (ours.Sequence([p[0] for p in parts]), hf.Sequence([p[1] for p in parts]))


def split(pattern: str, behavior: str, invert: bool = False, is_regex: bool = True) -> tuple[Any, Any]:
    """A Split on both sides."""
    theirs = hf.Split(Regex(pattern) if is_regex else pattern, behavior, invert=invert)
    return ours.Split(pattern, behavior, invert, is_regex=is_regex), theirs


def build_cases() -> dict[str, tuple[Any, Any]]:
    """Every pre-tokenizer type and option, as (ours, hf) pairs."""
    cases: dict[str, tuple[Any, Any]] = {
        "bert": (ours.BertPreTokenizer(), hf.BertPreTokenizer()),
        "whitespace": (ours.Whitespace(), hf.Whitespace()),
        "whitespace_split": (ours.WhitespaceSplit(), hf.WhitespaceSplit()),
        "unicode_scripts": (ours.UnicodeScripts(), hf.UnicodeScripts()),
        "digits": (ours.Digits(), hf.Digits()),
        "digits_individual": (ours.Digits(True), hf.Digits(True)),
        "fixed_length": (ours.FixedLength(), hf.FixedLength()),
        "fixed_length_1": (ours.FixedLength(1), hf.FixedLength(1)),
        "fixed_length_3": (ours.FixedLength(3), hf.FixedLength(3)),
    }
    for prefix in (True, False):
        for use_regex in (True, False):
            cases[f"byte_level_{prefix}_{use_regex}"] = (
                ours.ByteLevel(add_prefix_space=prefix, use_regex=use_regex),
                hf.ByteLevel(add_prefix_space=prefix, use_regex=use_regex))
    for replacement in ("\u2581", "_"):
        for scheme in ("always", "first", "never"):
            for do_split in (True, False):
                cases[f"metaspace_{ord(replacement)}_{scheme}_{do_split}"] = (
                    ours.Metaspace(replacement, scheme, do_split),
                    hf.Metaspace(replacement, scheme, do_split))
    for behavior in BEHAVIORS:
        cases[f"punctuation_{behavior}"] = (ours.Punctuation(behavior), hf.Punctuation(behavior))
        for invert in (False, True):
            cases[f"split_dash_{behavior}_{invert}"] = split("-", behavior, invert, is_regex=False)
            cases[f"split_space_{behavior}_{invert}"] = split(r"\s+", behavior, invert)
            cases[f"split_cl100k_{behavior}_{invert}"] = split(CL100K, behavior, invert)
        cases[f"split_empty_{behavior}"] = split("", behavior, is_regex=False)
        cases[f"split_star_{behavior}"] = split("x*", behavior)
        cases[f"split_lines_{behavior}"] = split("$", behavior)
        cases[f"split_ab_{behavior}"] = split("ab", behavior, is_regex=False)
    cases["split_gpt2"] = split(GPT2, "isolated")
    cases["split_llama3"] = split(LLAMA3, "isolated")
    cases["split_digits3"] = split(r"\p{N}{1,3}+", "isolated")
    for delimiter in ("-", " ", "a", "\u2581"):
        cases[f"char_delimiter_{ord(delimiter)}"] = (ours.CharDelimiterSplit(delimiter),
                                                     hf.CharDelimiterSplit(delimiter))
    cases["seq_t5"] = sequence(cases["whitespace_split"], cases["metaspace_9601_always_True"])
    cases["seq_first"] = sequence(cases["whitespace_split"], cases["metaspace_9601_first_True"])
    cases["seq_falcon"] = sequence(cases["punctuation_contiguous"], cases["byte_level_False_True"],
                                   cases["digits"], split("[0-9][0-9][0-9]", "isolated"))
    cases["seq_clip"] = sequence(split(CLIP, "removed", True), cases["byte_level_False_True"])
    cases["seq_llama3"] = sequence(cases["split_llama3"], cases["byte_level_False_False"])
    cases["seq_scripts_digits"] = sequence(cases["unicode_scripts"], cases["digits_individual"],
                                           cases["punctuation_removed"])
    cases["seq_empty"] = (ours.Sequence([]), hf.Sequence([]))
    return cases


CASES = build_cases()

# The FORMATS.md examples and other small traps.
HAND_TEXTS = [
    "", " ", "  ", "\n", "a", "Hello, how are  you?", "the-final--countdown", "Hello  world",
    " abc", "  a  b ", "abcДЖ 123日本カタカナー", "e\u0301", "ab\u0903c", "x\u200dy",
    "a\u00a0b\u3000c\u200bd\u001ce", "\u1680\u2028\u2029\u0085x", "hi<s>there", "1234567 ²½ Ⅻ111",
    "I'm sure you've heard they'll say I'd done it", "'S 'ſ 'T", "  \n\n  x", "a\r\nb\rc",
    "Straße İstanbul ǅ ﬁ", "😀 🥰 👨\u200d👩 日本語", "▁a ▁ b▁", "x--y__z", "\t\tTabs\t",
    "$4.50 (approx.) — «quotes» ‘x’", "中文，标点。", "٣٤٥ ४२", "a" * 30, "ab ab abab",
    "\u061d\u2e43\u166d\U000111c9!", "\U0001F923\U0001F970 ok", "\u0953\u0589\u061c\u30fc",
]


def hf_pieces(pre_tokenizer: Any, text: str) -> list[tuple[str, tuple[int, int]]]:
    """What tokenizers' pre_tokenize_str returns."""
    return pre_tokenizer.pre_tokenize_str(text)


def assert_same(name: str, text: str) -> None:
    """Our pieces and offsets are tokenizers' on `text`."""
    mine, theirs = CASES[name]
    assert mine.pre_tokenize_str(text) == hf_pieces(theirs, text), (name, text)


@pytest.mark.parametrize("name", sorted(CASES))
def test_hand_texts(name: str) -> None:
    """Every type and option on the small traps."""
    for text in HAND_TEXTS:
        assert_same(name, text)


def test_formats_examples() -> None:
    """The documented examples, checked against tokenizers as well."""
    text = "Hello, how are  you?"
    assert ours.BertPreTokenizer().pre_tokenize_str(text) == [
        ("Hello", (0, 5)), (",", (5, 6)), ("how", (7, 10)), ("are", (11, 14)), ("you", (16, 19)),
        ("?", (19, 20))]
    assert ours.ByteLevel(add_prefix_space=False).pre_tokenize_str(text) == [
        ("Hello", (0, 5)), (",", (5, 6)), ("Ġhow", (6, 10)), ("Ġare", (10, 14)), ("Ġ", (14, 15)),
        ("Ġyou", (15, 19)), ("?", (19, 20))]
    t5 = ours.Sequence([ours.WhitespaceSplit(), ours.Metaspace()])
    assert t5.pre_tokenize_str(text) == [("▁Hello,", (0, 6)), ("▁how", (7, 10)), ("▁are", (11, 14)),
                                         ("▁you?", (16, 20))]
    dash = {"removed": ["the", "final", "countdown"],
            "isolated": ["the", "-", "final", "-", "-", "countdown"],
            "merged_with_previous": ["the-", "final-", "-", "countdown"],
            "merged_with_next": ["the", "-final", "-", "-countdown"],
            "contiguous": ["the", "-", "final", "--", "countdown"]}
    for behavior, expected in dash.items():
        pieces = ours.Split("-", behavior).pre_tokenize_str("the-final--countdown")
        assert [p for p, _ in pieces] == expected
        assert pieces == hf.Split("-", behavior).pre_tokenize_str("the-final--countdown")
    assert ours.UnicodeScripts().pre_tokenize_str(" abc") == [("abc", (1, 4))]
    assert [p for p, _ in ours.UnicodeScripts().pre_tokenize_str("abcДЖ 123日本カタカナー")] == [
        "abc", "ДЖ ", "123", "日本カタカナー"]
    assert [p for p, _ in ours.Metaspace().pre_tokenize_str("Hello  world")] == [
        "▁Hello", "▁", "▁world"]
    assert [p for p, _ in ours.Whitespace().pre_tokenize_str("e\u0301 ab\u0903c x\u200dy")] == [
        "e\u0301", "ab\u0903c", "x\u200dy"]
    assert [p for p, _ in ours.WhitespaceSplit().pre_tokenize_str("a\u00a0b\u3000c\u200bd\u001ce")] == [
        "a", "b", "c\u200bd\u001ce"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_corpus_lines(name: str, mixed) -> None:
    """Every type and option on corpus lines (English, Japanese, Chinese, lyrics) and fixtures."""
    for text in mixed(40):
        assert_same(name, text)


@pytest.mark.parametrize("name", ["byte_level_False_True", "bert", "metaspace_9601_always_True",
                                  "whitespace", "whitespace_split", "unicode_scripts", "seq_t5"])
def test_hot_pre_tokenizers_on_more_lines(name: str, corpora) -> None:
    """The pre-tokenizers real models use, on many more lines of each corpus."""
    for corpus in ("botchan", "wagahaiwa", "pku_test", "taylorswift"):
        for text in corpora(corpus, 400):
            assert_same(name, text)


def assigned_chars() -> st.SearchStrategy[str]:
    """Any char assigned in Python's Unicode, or a fixed unassigned one.

    Python's tables are older than tokenizers', and tokenizers' older than the `regex`
    module's: chars assigned after Unicode 16 are letters for `regex` but unknown to HF.
    """
    return st.characters(exclude_categories=("Cs",)).filter(
        lambda c: unicodedata.category(c) != "Cn") | st.sampled_from("\u0378\uffff\U0010ffff")


TRICKY = ("aZ09 _-'sStT \t\r\n\x0b\x1c\x85\xa0\u200b\u2028\u3000\u2581ſİß²½Ⅻ٣\u0301\u0903"
          "\u200d😀中ひカー!?.,()$^+<=>~`|\u166d\u061d")
RANDOM_TEXT = st.text(st.sampled_from(TRICKY) | assigned_chars(), max_size=30)


@given(text=RANDOM_TEXT, name=st.sampled_from(sorted(CASES)))
def test_random_text(text: str, name: str) -> None:
    """Every case on random Unicode."""
    assert_same(name, text)


# --------------------------------------------------------------------------- whole Unicode


@lru_cache(maxsize=None)
def known_chars() -> list[str]:
    """Every code point both tokenizers (Unicode 16) and `regex` classify: all but surrogates
    and the chars assigned after Unicode 16 (`regex` knows them, HF's tables do not)."""
    newer = newer_than_oniguruma()
    return [chr(c) for c in range(0x110000)
            if not 0xD800 <= c < 0xE000 and chr(c) not in newer]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["bert", "whitespace", "whitespace_split", "digits_individual",
                                  "punctuation_isolated", "unicode_scripts"])
def test_every_code_point(name: str) -> None:
    """Every code point, each followed by "a " so that none merges with the next."""
    assert_same(name, "".join(c + "a " for c in known_chars()))


@pytest.mark.slow
def test_script_classes() -> None:
    """UnicodeScripts puts every assigned char in the same script class as tokenizers.

    Each char stands between two chars of its own class (no cut if HF agrees), between two
    Greek and two Latin letters (no cut only for "Any"), and the first char of every class
    meets the first char of every other one (a cut each time).
    """
    mine, theirs = CASES["unicode_scripts"]
    assigned = [c for c in known_chars() if unicodedata.category(c) not in ("Cn", "Co")]
    firsts: dict[int, str] = {}
    for char in assigned:
        firsts.setdefault(ours.script_of(char), char)
    own = "".join(firsts.get(ours.script_of(c), "a") + c + firsts.get(ours.script_of(c), "a") + " "
                  for c in assigned)
    others = "".join(f"a{c}a\u03b1{c}\u03b1 " for c in assigned)
    pairs = "".join(x + y + " " for x in firsts.values() for y in firsts.values())
    for text in (own, others, pairs):
        assert mine.pre_tokenize_str(text) == theirs.pre_tokenize_str(text)


# --------------------------------------------------------------------------- alignments


def char_tokens(text: str) -> list[tuple[str, tuple[int, int]]]:
    """One token per char, with UTF-8 byte offsets."""
    tokens, position = [], 0
    for char in text:
        size = len(char.encode())
        tokens.append((char, (position, position + size)))
        position += size
    return tokens


def ascii_upper(char: str) -> str:
    """Uppercase ASCII letters only (one char for one char)."""
    return char.upper() if char.isascii() else char


# Normalizations that change the alignments or the text, as (hfcompat, tokenizers) steps.
NORMALIZERS: dict[str, tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {
    "nfkd": (lambda ns: ns.nfkd(), lambda ns: ns.nfkd()),
    "nfkc": (lambda ns: ns.nfkc(), lambda ns: ns.nfkc()),
    "lowercase": (lambda ns: ns.lowercase(), lambda ns: ns.lowercase()),
    "strip": (lambda ns: ns.strip(), lambda ns: ns.strip()),
    "rstrip_upper": (lambda ns: (ns.strip(left=False), ns.map(ascii_upper)),
                     lambda ns: (ns.rstrip(), ns.map(ascii_upper))),
    "none": (lambda ns: None, lambda ns: None),
}


def hf_char_offsets(name: str, normalize: str, text: str) -> tuple[list, list]:
    """tokenizers: normalize, pre-tokenize, one token per char; the splits and token offsets."""
    pts = HFPreTokenizedString(text)
    pts.normalize(NORMALIZERS[normalize][1])
    CASES[name][1].pre_tokenize(pts)
    splits = [(s, o) for s, o, _ in pts.get_splits()]
    pts.tokenize(lambda s: [Token(0, c, o) for c, o in char_tokens(str(s))])
    return splits, pts.to_encoding().offsets


def our_char_offsets(name: str, normalize: str, text: str) -> tuple[list, list]:
    """hfcompat: the same steps."""
    pts = PreTokenizedString(text)
    pts.normalize(NORMALIZERS[normalize][0])
    CASES[name][0].pre_tokenize(pts)
    splits = pts.get_splits()
    for split in pts.splits:  # each piece knows the original text it stands for
        start, end = split.normalized.offsets_original()
        assert split.normalized.original == text[start:end]
    pts.tokenize(lambda s: [OurToken(0, c, o) for c, o in char_tokens(s)])
    return splits, [span for split in pts.splits for span in pts.token_spans(split)]


ALIGNMENT_TEXTS = ["ﬁ ½ é x", "Straße İ ΣΑΣ ǅ", "Hello, how are  you?", "  ﬃ  ①② x", "日本 ｶﾀｶﾅ ＡＢ", "a ", "ab  ",
                   "e\u0301\u0301 a", "", " ", "x"]


@pytest.mark.parametrize("normalize", sorted(NORMALIZERS))
@pytest.mark.parametrize("name", sorted(CASES))
def test_alignments_after_normalizers(name: str, normalize: str) -> None:
    """Pieces and every char's original span after a normalizer changed the alignments."""
    for text in ALIGNMENT_TEXTS:
        assert our_char_offsets(name, normalize, text) == hf_char_offsets(name, normalize, text), text


@pytest.mark.parametrize("name", ["byte_level_True_True", "byte_level_False_True", "bert",
                                  "metaspace_9601_first_True", "whitespace", "seq_t5"])
def test_alignments_on_corpus_lines(name: str, mixed) -> None:
    """Every char's original span on real text (the fast paths build alignments themselves)."""
    for text in mixed(15):
        assert our_char_offsets(name, "none", text) == hf_char_offsets(name, "none", text), text


@given(text=RANDOM_TEXT, name=st.sampled_from(sorted(CASES)),
       normalize=st.sampled_from(sorted(NORMALIZERS)))
def test_alignments_on_random_text(text: str, name: str, normalize: str) -> None:
    """Pieces and char spans on random Unicode after a normalizer."""
    assert our_char_offsets(name, normalize, text) == hf_char_offsets(name, normalize, text)


def test_segments_after_added_tokens() -> None:
    """A segment that does not start the text: prefix space again; "first" does not prepend."""
    for name in ("byte_level_True_True", "metaspace_9601_first_True", "metaspace_9601_always_True",
                 "unicode_scripts"):
        pts = PreTokenizedString("hi there")
        pts.split(lambda _, ns: [ns.slice(0, 2), ns.slice(3, 8)])
        CASES[name][0].pre_tokenize(pts)
        theirs = HFPreTokenizedString("hi there")
        theirs.split(lambda _, ns: [ns[0:2], ns[3:8]])
        CASES[name][1].pre_tokenize(theirs)
        assert pts.get_splits() == [(s, o) for s, o, _ in theirs.get_splits()], name


# --------------------------------------------------------------------------- JSON


def hf_json(pre_tokenizer: Any) -> dict:
    """The "pre_tokenizer" object tokenizers writes."""
    tokenizer = Tokenizer(models.WordLevel({"a": 0}, unk_token="a"))
    tokenizer.pre_tokenizer = pre_tokenizer
    return json.loads(tokenizer.to_str())["pre_tokenizer"]


def hf_load(data: Any) -> Any:
    """tokenizers' reading of a "pre_tokenizer" object: the object, or the exception."""
    wrapper = {"version": "1.0", "model": {"type": "WordLevel", "vocab": {"a": 0}, "unk_token": "a"},
               "pre_tokenizer": data}
    return Tokenizer.from_str(json.dumps(wrapper)).pre_tokenizer


@pytest.mark.parametrize("name", sorted(CASES))
def test_to_dict_and_back(name: str) -> None:
    """to_dict is tokenizers' JSON; from_dict of it pre-tokenizes the same."""
    mine, theirs = CASES[name]
    data = hf_json(theirs)
    assert mine.to_dict() == data
    again = ours.from_dict(data)
    assert again.to_dict() == data
    for text in HAND_TEXTS[:20]:
        assert again.pre_tokenize_str(text) == theirs.pre_tokenize_str(text)


ACCEPTED = [
    {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": False},
    {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "extra": 1},
    {"type": "Metaspace", "replacement": "▁"},
    {"type": "Metaspace", "replacement": "▁", "add_prefix_space": True},
    {"type": "Metaspace", "replacement": "▁", "add_prefix_space": True, "prepend_scheme": "first"},
    {"type": "Metaspace", "replacement": "▁", "add_prefix_space": False, "prepend_scheme": "never"},
    {"type": "Metaspace", "replacement": "▁", "add_prefix_space": None},
    {"type": "Metaspace", "replacement": "▁", "split": None, "str_rep": "x"},
    {"type": "Metaspace", "replacement": "😀"},
    {"type": "Punctuation"}, {"type": "Punctuation", "behavior": "Contiguous"},
    {"type": "Punctuation", "behavior": {"Isolated": None}},
    {"type": "FixedLength"}, {"type": "FixedLength", "length": 0},
    {"type": "FixedLength", "length": 2**64 - 1},
    {"type": "Sequence", "pretokenizers": []},
    {"type": "Sequence", "pretokenizers": [{"type": "Sequence", "pretokenizers": [
        {"type": "Digits", "individual_digits": True}]}]},
    {"type": "BertPreTokenizer", "x": 1}, {"type": "UnicodeScripts"},
    {"type": "CharDelimiterSplit", "delimiter": "x"},
    {"type": "Split", "pattern": {"String": ""}, "behavior": "Removed", "invert": True},
]


@pytest.mark.parametrize("data", ACCEPTED, ids=lambda d: json.dumps(d, ensure_ascii=False))
def test_accepted_json(data: dict) -> None:
    """Forms tokenizers accepts (defaults, legacy fields) read the same and write the same."""
    assert ours.from_dict(data).to_dict() == hf_json(hf_load(data))


REJECTED = [
    ({"type": "ByteLevel"}, "add_prefix_space"),
    ({"type": "ByteLevel", "add_prefix_space": True}, "trim_offsets"),
    ({"type": "ByteLevel", "add_prefix_space": 1, "trim_offsets": False}, "add_prefix_space"),
    ({"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": False, "use_regex": None},
     "use_regex"),
    ({"type": "Metaspace"}, "replacement"),
    ({"type": "Metaspace", "replacement": "▁", "add_prefix_space": False}, "add_prefix_space"),
    ({"type": "Metaspace", "replacement": "ab"}, "replacement"),
    ({"type": "Metaspace", "replacement": ""}, "replacement"),
    ({"type": "Metaspace", "replacement": "▁", "prepend_scheme": "sometimes"}, "prepend_scheme"),
    ({"type": "Metaspace", "replacement": "▁", "prepend_scheme": None}, "prepend_scheme"),
    ({"type": "Split"}, "pattern"),
    ({"type": "Split", "pattern": {"String": "a"}, "behavior": "Isolated"}, "invert"),
    ({"type": "Split", "pattern": {"String": "a"}, "invert": False}, "behavior"),
    ({"type": "Split", "pattern": {"Regex": "("}, "behavior": "Isolated", "invert": False},
     "pattern.Regex"),
    ({"type": "Split", "pattern": "a", "behavior": "Isolated", "invert": False}, "pattern"),
    ({"type": "Split", "pattern": {"String": "a"}, "behavior": "isolated", "invert": False},
     "behavior"),
    ({"type": "Split", "pattern": {"String": "a", "Regex": "b"}, "behavior": "Isolated",
      "invert": False}, "pattern"),
    ({"type": "Split", "pattern": {"String": 1}, "behavior": "Isolated", "invert": False},
     "pattern.String"),
    ({"type": "Digits"}, "individual_digits"),
    ({"type": "Digits", "individual_digits": None}, "individual_digits"),
    ({"type": "Punctuation", "behavior": "Foo"}, "behavior"),
    ({"type": "Punctuation", "behavior": None}, "behavior"),
    ({"type": "CharDelimiterSplit"}, "delimiter"),
    ({"type": "CharDelimiterSplit", "delimiter": "xy"}, "delimiter"),
    ({"type": "CharDelimiterSplit", "delimiter": None}, "delimiter"),
    ({"type": "Delimiter", "delimiter": "x"}, "type"),
    ({"type": "FixedLength", "length": -1}, "length"),
    ({"type": "FixedLength", "length": 2.0}, "length"),
    ({"type": "FixedLength", "length": None}, "length"),
    ({"type": "Sequence"}, "pretokenizers"),
    ({"type": "Sequence", "pretokenizers": None}, "pretokenizers"),
    ({"type": "Sequence", "pretokenizers": [{"type": "Foo"}]}, "pretokenizers[0].type"),
    ({"type": "Sequence", "pretokenizers": [{"type": "Digits"}]},
     "pretokenizers[0].individual_digits"),
    ({"type": "Foo"}, "type"), ({}, "type"), ({"add_prefix_space": True, "trim_offsets": True}, "type"),
    ({"type": 3}, "type"),
]


@pytest.mark.parametrize("data, field", REJECTED, ids=lambda d: json.dumps(d, ensure_ascii=False))
def test_rejected_json(data: dict, field: str) -> None:
    """What tokenizers refuses raises FormatError naming the field."""
    with pytest.raises(Exception):
        hf_load(data)
    with pytest.raises(FormatError) as error:
        ours.from_dict(data)
    assert error.value.field == field


@pytest.mark.parametrize("data", [[], "ByteLevel", 3])
def test_rejected_non_objects(data: Any) -> None:
    """A pre-tokenizer must be a JSON object."""
    with pytest.raises(Exception):
        hf_load(data)
    with pytest.raises(FormatError):
        ours.from_dict(data)


def test_fixed_length_zero() -> None:
    """Length 0 fails on non-empty text as tokenizers does (a panic there), and passes on ""."""
    assert ours.FixedLength(0).pre_tokenize_str("") == hf.FixedLength(0).pre_tokenize_str("") == []
    with pytest.raises(ValueError):
        ours.FixedLength(0).pre_tokenize_str("abc")


def test_byte_level_alphabet() -> None:
    """The 256 byte chars, as tokenizers lists them."""
    assert sorted(ours.ByteLevel.alphabet()) == sorted(hf.ByteLevel.alphabet())
    assert len(set(ours.ByteLevel.alphabet())) == 256


def test_behavior_names() -> None:
    """The JSON names of the split behaviours, as tokenizers writes them."""
    for behavior, name in ours.BEHAVIOR_TO_JSON.items():
        assert hf_json(hf.Punctuation(behavior))["behavior"] == name
        assert ours.BEHAVIOR_FROM_JSON[name] == behavior


def test_bad_arguments() -> None:
    """Constructor arguments are checked like tokenizers' Python API checks them."""
    for build in (lambda: ours.Punctuation("Isolated"), lambda: ours.Split("-", "split"),
                  lambda: ours.Metaspace("ab"), lambda: ours.Metaspace(prepend_scheme="once"),
                  lambda: ours.CharDelimiterSplit("")):
        with pytest.raises(ValueError):
            build()


def test_pre_tokenize_keeps_tokenized_splits() -> None:
    """Splits that already have tokens (added tokens) are left alone."""
    pts = PreTokenizedString("hi <s> there")
    pts.split(lambda _, ns: [ns.slice(0, 3), ns.slice(3, 6), ns.slice(6, 12)])
    pts.splits[1].tokens = []
    ours.ByteLevel().pre_tokenize(pts)
    assert [s for s, _ in pts.get_splits()] == ["Ġhi", "Ġ", "<s>", "Ġthere"]
    assert isinstance(pts.splits[2].normalized, NormalizedString)


def test_a_word_split_then_prefixed_has_the_prefixed_piece_route() -> None:
    """T5's WhitespaceSplit + Metaspace("always") gives each word piece one prefixed split; other
    orders and schemes do not say so (their pieces go through the whole pre-tokenizer)."""
    t5 = ours.Sequence([ours.WhitespaceSplit(), ours.Metaspace("▁", "always")])
    route = t5.piece_route()
    assert (route.form, route.mark) == (ours.PieceForm.PREFIXED, "▁")
    assert route.find("a  b\tc") == (["a", "b", "c"], [0, 3, 5]) == t5.word_pieces("a  b\tc")
    for other in (ours.Sequence([ours.WhitespaceSplit(), ours.Metaspace("▁", "first")]),
                  ours.Sequence([ours.Metaspace(), ours.WhitespaceSplit()]),
                  ours.Sequence([ours.WhitespaceSplit(), ours.Metaspace(), ours.WhitespaceSplit()])):
        route = other.piece_route()
        assert route is None or route.form is ours.PieceForm.SPLITS
