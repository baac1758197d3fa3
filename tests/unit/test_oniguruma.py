"""hfcompat.pipeline.oniguruma against the Oniguruma inside tokenizers 0.23.3 (Split and Replace).

Every pattern runs through `compile_pattern` and the match iteration of hfcompat.pipeline.normalized,
and is compared with what tokenizers finds: the non-empty matches (a Split that keeps only
them) and all matches, empty ones included (a Replace with a marker char).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

import pytest
import regex
from hypothesis import given
from hypothesis import strategies as st
from tokenizers import Regex, normalizers, pre_tokenizers

from hfcompat.pipeline.normalized import NormalizedString, find_matches
from hfcompat.pipeline.oniguruma import OnigurumaError, compile_pattern

MARK = "\ue000"  # never in the test texts

GPT2 = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"
R50K = r"'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"
CL100K = (r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++"
          r"[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s")
O200K = "|".join([
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    r"\p{N}{1,3}", r" ?[^\s\p{L}\p{N}]+[\r\n/]*", r"\s*[\r\n]+", r"\s+(?!\S)", r"\s+",
])
# transformers' TikTokenConverter default (also Llama 3's pattern).
TRANSFORMERS = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+"
                r"[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
QWEN2 = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
         r"|\s*[\r\n]+|\s+(?!\S)|\s+")
# DeepSeek-V3-style splits (CJK runs, punctuation glued to letters) and CLIP's pattern.
DEEPSEEK = (r"[!\"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+"
            r"| ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+|[一-龥぀-ゟ゠-ヿ]+")
CLIP = (r"<\|startoftext\|>|<\|endoftext\|>|'s|'t|'re|'ve|'m|'ll|'d|[\p{L}]+|[\p{N}]"
        r"|[^\s\p{L}\p{N}]+")
REAL_PATTERNS = {"gpt2": GPT2, "r50k": R50K, "cl100k": CL100K, "o200k": O200K,
                 "transformers": TRANSFORMERS, "qwen2": QWEN2, "deepseek": DEEPSEEK,
                 "clip": CLIP, "falcon_digits": "[0-9][0-9][0-9]"}


# --------------------------------------------------------------------------- oracle and subject


@lru_cache(maxsize=None)
def hf_split(pattern: str) -> pre_tokenizers.Split:
    """A Split that keeps exactly the non-empty matches of `pattern`."""
    return pre_tokenizers.Split(Regex(pattern), "removed", invert=True)


@lru_cache(maxsize=None)
def hf_replace(pattern: str) -> normalizers.Replace:
    """A Replace that marks every match, empty ones included."""
    return normalizers.Replace(Regex(pattern), MARK)


def hf_matches(pattern: str, text: str) -> list[tuple[int, int]]:
    """Oniguruma's non-empty matches, as tokenizers finds them."""
    return [span for _, span in hf_split(pattern).pre_tokenize_str(text)]


def our_matches(pattern: str, text: str) -> list[tuple[int, int]]:
    """hfcompat's non-empty matches."""
    return [(s, e) for s, e, hit in find_matches(compile_pattern(pattern), text) if hit and e > s]


def our_replace(pattern: str, text: str) -> str:
    """hfcompat's text with every match replaced by the marker."""
    ns = NormalizedString(text)
    ns.replace(compile_pattern(pattern), MARK)
    return ns.normalized


def assert_same(pattern: str, text: str) -> None:
    """Same non-empty matches and same matches overall (Replace) as tokenizers."""
    assert our_matches(pattern, text) == hf_matches(pattern, text), (pattern, text)
    assert our_replace(pattern, text) == hf_replace(pattern).normalize_str(text), (pattern, text)


# --------------------------------------------------------------------------- hand cases

HAND_CASES = [
    # {n,m}+ is a greedy repeat of the interval; {n}? is optional; nested repeats nest.
    (r"\p{N}{1,3}+", "1234567 12 Ⅻ111 ²½"), (r"\d{2}+", "12345"), ("a{2}+", "aaaaa"),
    ("a{2}?", "aaaaa"), ("a{2,3}?", "aaaaa"), ("a{2,}+", "aaaaa"), ("a{,2}+", "aaaaa"),
    ("a{,2}", "aaaaa"), ("a{2}{2}", "aaaaa"), ("a**", "aaa"), ("a*{2}", "aaa"), ("a+?", "aaa"),
    ("a?+", "aaa"), ("a++a", "aaa"), ("a{1,2}?b", "aab"), ("a{3,2}", "aa aaa"), ("a{0}", "a"),
    ("x{", "x{"), ("x{,}", "x{,}"), ("x{a}", "x{a}"), ("x{1,2,3}", "x{1,2,3}"),
    # Anchors: ^ and $ work on lines, ^ never at the very end; \Z before a final newline.
    ("$", "a\nb\n"), ("^", "a\nb\n"), ("^a", "a\na"), ("a$", "a\na\n"), (r"\s+$", "a  \nb \n "),
    (r"\s++$", "a  \n  b  "), (r"\Z", "a\n\n"), (r"a\Z", "a\na\n"), (r"\z", "a\n"), (r"\A", "a\n"),
    (r"\Aa|b\z", "aab\nb"), ("^$", "\n\na\n"), ("$\n^", "a\nb"),
    # The dot stops at "\n" unless (?m), Ruby's dotall.
    (".", "a\nb\r"), ("(?m).", "a\nb"), ("(?m:a.)b|.", "a\nb a\n"), ("(?-m).", "a\n"),
    # Escapes.
    (r"\h+", "0aG_ fF9"), (r"\H", "0aG_ "), (r"\w+", "a_\u0301\u200d1²x½ ab\u0903c"),
    (r"\W", "a\u200c\u200d²"), (r"\d+", "12٣٤ ²"), (r"\D", "1a٣"), (r"\s", "\x1c\x85\xa0\u200b\u3000 \t"),
    (r"\S+", "a\x1cb c"), (r"x\b", "x\u200d x² x"), (r"\bx", "x \u200dx ²x"), (r"\B", "ab c"),
    (r"\R", "a\r\nb\x0bc\x85d\u2028e\n\rf"), (r"\N", "a\nb"), (r"\O", "a\nb"), (r"a\Kb", "ab ab"),
    (r"\x41\u0042\x{43}\103\o{104}", "ABCD"), (r"\x4", "\x04"), (r"\xfg", "\x0fg"),
    (r"\x{1F600}", "\U0001F600"), (r"\cA", "\x01"), (r"\e\a\v\f", "\x1b\x07\x0b\x0c"),
    (r"[\b]", "\x08b"), (r"\q\j\m\E\Q\l\U\T\i\I", "qjmEQlUTiI"), (r"\pL", "pL"), (r"\-\.", "-."),
    (r"\X", "e\u0301\U0001F468\u200d\U0001F469 \r\n"), (r"(a)\1", "aa"), (r"(?<n>a)\k<n>", "aa"),
    (r"(?<n>a)\g<n>", "aa"),
    # Properties.
    (r"\p{^L}+", "a1b"), (r"\P{^L}+", "a1b"), (r"\p{Letter}+", "a1"), (r"\p{ l }", "a1"),
    (r"\p{In_Basic_Latin}+", "aé"), (r"\p{XDigit}+", "0aG٣"), (r"\p{Word}+", "a²\u200d"),
    (r"\p{Han}+\p{Hiragana}+\p{Katakana}+", "日本ひらカタ"), (r"\p{Lu}\p{Ll}", "Aa aA"),
    # Classes.
    (r"[[:punct:]]+", "!$+<Ⓐ🅰a"), (r"[[:word:]]+", "a²\u200d"), (r"[[:^alpha:]]", "a1"),
    (r"[[:digit:][:xdigit:]]+", "9aG٣"), ("[]a]", "]a"), ("[^]a]", "]ab"), ("[a-]", "a-"),
    ("[-a]", "a-"), ("[a&&]", "a&"), ("[^a&&]", "a&"), ("[[a-z]&&[^aeiou]]+", "abecid"), ("[a-z&&b]", "ab"),
    (r"[\w]+", "a²\u200d_"), (r"[\W]+", "a²\u200d_"), (r"[^\w]", "a²"), (r"[\p{Word}]", "²a"),
    (r"[^\s\p{L}\p{N}]+", "a!? 1-"), (r"[\w&&\D]+", "ab12c"),
    ("[a-c--]", "b-"), ("[--a]", "-a,"), (r"[\w-]", "a-"), ("[a-z-0]", "-0"), ("[!--]", ",-!"),
    ("[a-&&b]", "a-b"),
    ("[a||b]+", "a|b"), ("[a~~b]+", "a~b"), (r"[\[\]]", "[]"),
    # Options: (?i) in the middle of a group covers the rest of it, alternatives included.
    ("a(?i)b|c", "aB ac aC C c"), ("(a(?i)b|c)d", "aBd acd aCd Cd cd"), ("(?i:a)b|c", "ab AB c"),
    ("(?i)(?-i:a)b", "aB Ab"), ("(?x) a b # c", "ab"), ("(?x)[ a]", " a"), ("(?#c)a", "a"),
    (r"(?W)\w+", "é ab"), (r"(?D)\d", "1٣"), (r"(?S)\s", " \xa0"),
    # Case folding: full folds, "i" versus U+0130/U+0131, properties do not fold outside classes.
    ("(?i)ss", "ss ß SS ẞ sS ßs sss"), ("(?i)ß", "ss ß SS ẞ"), ("(?i)st", "st ﬆ ﬅ"),
    ("(?i)ﬀ", "ﬀ ff FF"), ("(?i)i", "iIİı"), ("(?i)I", "iIİı"), ("(?i)İ", "İ i̇ İ i"),
    ("(?i)ı", "ıIi"), ("(?i)[a-z]+", "aZİı"), ("(?i)[^a-z]", "İıaZ"), ("(?i)[h-j]", "hIİı"),
    ("(?i)k", "kK\u212a"), ("(?i)s", "sSſ"), ("(?i)[ß]", "ss ß"), (r"(?i)\p{Lu}", "aA"),
    (r"(?i)\w", "aİ"), ("(?i:'s|'t|'re|'ve|'m|'ll|'d)", "'S 'ſ 'T 'Re 'VE 'M 'LL 'D"),
    # Lookarounds and empty matches (the onig crate's iteration).
    ("(?<=ab|c)d", "abd cd"), ("(?<=a+)b", "aab"), ("x*", "xab"), ("|a", "aa"), ("a??", "aa"),
    ("a*?", "aab"), ("a|(?=b)|b", "ab"), (r"\d*", "a1bbb2"), ("(?=b)|b", "abcb"),
    ("a|(?=c)", "abc"), ("(?<=a)|b", "abab"), (r"\b", "test string"), ("(?=a)|a", "aa"),
    ("", "abc"), ("(?:)", "ab"), ("a|", "ba"),
]


@pytest.mark.parametrize("pattern, text", HAND_CASES)
def test_hand_cases(pattern: str, text: str) -> None:
    """Each difference between Oniguruma and the `regex` module, on a small text."""
    assert_same(pattern, text)


def test_cl100k_verbatim_swallows_digit_runs() -> None:
    """`\\p{N}{1,3}+` copied from tiktoken is one pre-token per digit run in Oniguruma."""
    pieces = pre_tokenizers.Split(Regex(CL100K), "isolated").pre_tokenize_str("1234567 x")
    assert pieces[0] == ("1234567", (0, 7))
    assert our_matches(CL100K, "1234567 x")[0] == (0, 7)


INVALID = ["(", ")", "*a", "a|*b", "(*a)", "^*", "a{100001}", "[a", "\\", "a\\", "(?s)a",
           "(?a)b", "[a-\\d]", "[\\d-z]", r"\p{Foo}", r"\p{Script=Han}", r"\p{Age=6.0}",
           "[b-a]", r"[\p{L}--]", "[a--]", r"[\w-a]"]
# Valid Oniguruma with no `regex` equivalent: refused rather than run differently.
UNSUPPORTED = ["(?~abc)", "(a)(?(1)b|c)", r"\y", r"\Y", r"\M-a"]


@pytest.mark.parametrize("pattern", INVALID)
def test_invalid_patterns(pattern: str) -> None:
    """What Oniguruma refuses is refused."""
    with pytest.raises(Exception):
        Regex(pattern)
    with pytest.raises(OnigurumaError):
        compile_pattern(pattern)


@pytest.mark.parametrize("pattern", UNSUPPORTED)
def test_unsupported_patterns(pattern: str) -> None:
    """Features without an equivalent raise OnigurumaError."""
    Regex(pattern)
    with pytest.raises(OnigurumaError):
        compile_pattern(pattern)


def test_compiled_patterns_are_cached() -> None:
    """The same pattern text gives the same compiled object."""
    assert compile_pattern(GPT2) is compile_pattern(GPT2)


# --------------------------------------------------------------------------- real patterns


@pytest.mark.parametrize("name", sorted(REAL_PATTERNS))
def test_real_patterns_on_corpora(name: str, mixed) -> None:
    """Tokenizer patterns in use, on corpus lines and the multilingual fixture."""
    pattern = REAL_PATTERNS[name]
    split = pre_tokenizers.Split(Regex(pattern), "isolated")
    for text in mixed(60):
        assert our_matches(pattern, text) == hf_matches(pattern, text), text
        pieces = [(text[s:e], (s, e)) for s, e, _ in find_matches(compile_pattern(pattern), text)
                  if e > s]
        assert pieces == split.pre_tokenize_str(text), text


# Characters that stress the patterns: case folding, newlines, spaces of every kind, marks.
TRICKY = ("aAzZ09'sStTdDmMlLvVrReE \t\r\n\x0b\x0c\x1c\x85\xa0\u180e\u200b\u2028\u2029\u3000\ufeff"
          "ſ\u212aİıǅß²½Ⅻ٣\u0301\u0903\u200c\u200d😀中文ひカー!?.,-_/\\()[]{}$^*+|")


def assigned_chars() -> st.SearchStrategy[str]:
    """Any char assigned in Python's Unicode (older than both engines'), or a fixed unassigned one.

    Characters assigned after Oniguruma's Unicode 16 are known to the `regex` module only.
    """
    return st.characters(exclude_categories=("Cs",)).filter(
        lambda c: unicodedata.category(c) != "Cn") | st.sampled_from("\u0378\uffff\U0010ffff")


RANDOM_TEXT = st.text(st.sampled_from(TRICKY) | assigned_chars(), max_size=40)


@given(text=RANDOM_TEXT, name=st.sampled_from(sorted(REAL_PATTERNS)))
def test_real_patterns_on_random_text(text: str, name: str) -> None:
    """The same patterns on random text."""
    assert_same(REAL_PATTERNS[name], text)


@given(text=RANDOM_TEXT, case=st.sampled_from(HAND_CASES))
def test_hand_patterns_on_random_text(text: str, case: tuple[str, str]) -> None:
    """The hand-case patterns on random text."""
    assert_same(case[0], text)


# --------------------------------------------------------------------------- whole Unicode


@lru_cache(maxsize=None)
def all_chars() -> str:
    """Every code point but the surrogates, in order."""
    return "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000)


def onig_members(cls: str) -> set[str]:
    """The chars Oniguruma's one-char class matches (found as runs: far fewer pieces)."""
    pieces = hf_split(f"(?:{cls})+").pre_tokenize_str(all_chars())
    return set("".join(piece for piece, _ in pieces))


def our_members(cls: str) -> set[str]:
    """The chars hfcompat's translation of the class matches."""
    return set("".join(compile_pattern(f"(?:{cls})+").findall(all_chars())))


@lru_cache(maxsize=None)
def newer_than_oniguruma() -> frozenset[str]:
    """Chars the `regex` module has assigned but Oniguruma's Unicode tables have not."""
    onig_unassigned = onig_members(r"\p{Cn}")
    regex_unassigned = set("".join(regex.findall(r"\p{Cn}+", all_chars())))
    return frozenset(onig_unassigned - regex_unassigned)


WHOLE_UNICODE_CLASSES = [
    r"\w", r"\W", r"\d", r"\D", r"\s", r"\S", r"\h", r"\H", r"\p{L}", r"\p{N}", r"\p{P}",
    r"\p{Lu}", r"\p{M}", r"\p{Han}", r"\p{Word}", r"\p{XDigit}", r"\p{Alnum}", r"\p{Punct}",
    r"[[:punct:]]", r"[[:word:]]", r"[[:alnum:]]", r"[[:digit:]]", r"[[:alpha:]]",
    r"[[:space:]]", r"[[:xdigit:]]", r"[^\s\p{L}\p{N}]", r"[^\r\n\p{L}\p{N}]", r"(?i)[a-z]",
    r"[\w]", r"[\W]", r"[\d]", r"[\s]", r"[\h]", r"[\p{L}]", r"[\p{Word}]", r"[\p{N}\p{P}]",
]


@pytest.mark.slow
@pytest.mark.parametrize("cls", WHOLE_UNICODE_CLASSES)
def test_classes_over_all_code_points(cls: str) -> None:
    """Class membership on every code point Oniguruma and `regex` both know."""
    newer = newer_than_oniguruma()
    assert our_members(cls) - newer == onig_members(cls) - newer


@lru_cache(maxsize=None)
def cased_text() -> str:
    """Every char that has a case mapping or folding, plus a few that fold to several chars."""
    chars = [c for c in all_chars() if c.lower() != c or c.upper() != c or c.casefold() != c]
    return " ".join(chars) + " ss st ff fi ffi i\u0307 I\u0307"


@pytest.mark.slow
@pytest.mark.parametrize("letter", sorted(set("abcdefghijklmnopqrstuvwxyzßſ\u212aİıσΣςǅµΐﬀ")))
def test_ignorecase_over_cased_chars(letter: str) -> None:
    """(?i) on one letter matches the same chars as Oniguruma's case folding."""
    pattern = f"(?i){letter}"
    text = cased_text()
    assert our_matches(pattern, text) == hf_matches(pattern, text)
