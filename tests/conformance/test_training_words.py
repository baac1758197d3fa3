"""The words the trainers count, against the official libraries' own normalizing and splitting.

hfcompat counts words from plain strings when it can (no alignments kept), so each model
name's pipeline is checked here on real and random text: the bpe, bytelevel_bpe, wordpiece
and wordlevel setups against `tokenizers` running the same tokenizer.json, the unigram setup
against sentencepiece's own normalizer (nmt_nfkc, dummy prefix, extra spaces removed, "▁"
for spaces), whose output sentencepiece's trainer splits before each "▁".
"""

from __future__ import annotations

import json
import re
from functools import lru_cache

import pytest
import sentencepiece as spm
import tokenizers
from hypothesis import given, settings
from hypothesis import strategies as st

from hfcompat import pre_tokenizers as ours_pre
from hfcompat.tokenizer import Tokenizer
from hfcompat.tools.train import pipeline
from hfcompat.trainers import count_words, words_of

from conftest import fixture_texts, mixed_sample

pytestmark = pytest.mark.conformance

HF_SETUPS = ["bpe", "bytelevel_bpe", "wordpiece", "wordlevel"]
HAND_CASES = [
    "", " ", "  Hello\u3000 ｗｏｒｌｄ\t!  ", "ﬁ ①  x\u200by", "日本語のテキスト、１２３。", "ｶﾞｷﾞ ﾊﾟ",
    "\u1100\u1161\u11a8 \u00aa\u0301 a\u0301\u0301", "▁already▁marked ▁", "tab\tand\r\nnewline\n",
    "Ǆ ǅ İstanbul ΣΑΣ ß", "emoji 👩\u200d👩\u200d👧 and ＡＢＣ，．", "\x00\x01 control\x7f chars\u0085",
]
# Random text drawn mostly from chars the normalizers rewrite or the splitters cut on.
TRICKY = ("  \t\n\r\u3000\u00a0\u200b▁ｶﾞﾟﾊｱ\u3099\u309a\u1100\u1161\u11a8\u0301\u0308ﬁ①，．"
          "０９Ａｚ日本語のテキスト한국어aZ09!?.,'-ß\u0130\u03a3\U0001f469\u200d")
RANDOM_TEXT = st.text(st.one_of(st.sampled_from(TRICKY), st.characters(exclude_categories=("Cs",))),
                      max_size=40)
# sentencepiece's nmt_nfkc table comes from a newer Unicode than Python's (unicodedata 14.0 on
# Python 3.11), from which hfcompat builds its own: a char unassigned here may have a rule there
# (U+1CCD6, Unicode 16, -> "A"), as normalization_rules.py says. The comparison with
# sentencepiece draws the chars Python's Unicode assigns.
ASSIGNED_TEXT = st.text(st.one_of(st.sampled_from(TRICKY), st.characters(exclude_categories=("Cs", "Cn"))),
                        max_size=40)


@lru_cache(maxsize=None)
def setups(model: str) -> tuple[Tokenizer, tokenizers.Tokenizer]:
    """hfcompat's untrained pipeline of a model name, and `tokenizers` reading its JSON."""
    ours = pipeline(model)
    return ours, tokenizers.Tokenizer.from_str(ours.to_str())


def tokenizers_words(oracle: tokenizers.Tokenizer, text: str) -> list[str]:
    """The pieces `tokenizers` pre-tokenizes a text's normalized form into."""
    normalized = oracle.normalizer.normalize_str(text) if oracle.normalizer is not None else text
    return [piece for piece, _ in oracle.pre_tokenizer.pre_tokenize_str(normalized)]


@lru_cache(maxsize=None)
def sentencepiece_normalizer() -> spm.SentencePieceNormalizer:
    """sentencepiece's normalizer as its trainer runs it by default."""
    return spm.SentencePieceNormalizer(rule_name="nmt_nfkc", add_dummy_prefix=True,
                                       escape_whitespaces=True, remove_extra_whitespaces=True)


def sentencepiece_words(text: str) -> list[str]:
    """The words sentencepiece's trainer counts: the normalized text cut before each "▁"."""
    normalized = sentencepiece_normalizer().normalize(text)
    return [word for word in re.split("(?=▁)", normalized) if word]


def real_texts() -> list[str]:
    """Corpus lines of every script, the multilingual fixtures and the hand cases."""
    return mixed_sample(100) + fixture_texts() + HAND_CASES


@pytest.mark.parametrize("model", HF_SETUPS)
def test_words_match_tokenizers(model: str) -> None:
    ours, oracle = setups(model)
    texts = real_texts()
    assert [text for text in texts if words_of(ours, text) != tokenizers_words(oracle, text)] == []


def test_unigram_words_match_sentencepiece() -> None:
    ours = pipeline("unigram")
    texts = real_texts()
    assert [text for text in texts if words_of(ours, text) != sentencepiece_words(text)] == []


@settings(max_examples=150, deadline=None)
@given(text=RANDOM_TEXT)
def test_words_on_random_text(text: str) -> None:
    for model in HF_SETUPS:
        ours, oracle = setups(model)
        assert words_of(ours, text) == tokenizers_words(oracle, text), model


@settings(max_examples=150, deadline=None)
@given(text=ASSIGNED_TEXT)
def test_unigram_words_on_random_text(text: str) -> None:
    assert words_of(pipeline("unigram"), text) == sentencepiece_words(text)


# Pre-tokenizers that split a plain string (PreTokenizer.words), as tokenizer.json objects.
PLAIN_SPLITTERS = [
    {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": True},
    {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "never", "split": True},
    {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": False},
    {"type": "Metaspace", "replacement": "_", "prepend_scheme": "never", "split": False},
    {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True},
    {"type": "BertPreTokenizer"}, {"type": "Whitespace"}, {"type": "WhitespaceSplit"},
    {"type": "Sequence", "pretokenizers": [{"type": "WhitespaceSplit"}]},
]


@settings(max_examples=60, deadline=None)
@given(text=RANDOM_TEXT)
def test_plain_string_splits_match_tokenizers(text: str) -> None:
    """Each plain-string split (the counting fast path) equals tokenizers' pre_tokenize_str."""
    for spec in PLAIN_SPLITTERS:
        words = ours_pre.from_dict(spec).words(text)
        assert words is not None, spec
        oracle = tokenizers.Tokenizer.from_str(json.dumps({
            "version": "1.0", "pre_tokenizer": spec,
            "model": {"type": "WordLevel", "vocab": {"[UNK]": 0}, "unk_token": "[UNK]"}}))
        assert [word for word in words if word] == \
            [piece for piece, _ in oracle.pre_tokenizer.pre_tokenize_str(text)], spec


def test_context_dependent_splitters_say_so() -> None:
    """A pre-tokenizer whose splits depend on where the text lies gives no plain-string split."""
    assert ours_pre.Metaspace(prepend_scheme="first").words("a b") is None
    assert ours_pre.ByteLevel(add_prefix_space=True).words("a b") is None
    assert ours_pre.Split(pattern=" ", behavior="removed").words("a b") is None


def test_added_tokens_are_counted_whole_like_tokenizers() -> None:
    """A text holding an added token takes the aligned path: the token is one word, as in
    `tokenizers`' training (a WordLevel vocabulary shows every word counted, by count)."""
    texts = ["a [MASK] b", "Hello, [MASK]!", "[MASK][MASK] and more [MASK]"]
    ours = Tokenizer.from_str(setups("wordpiece")[0].to_str())
    ours.add_special_tokens(["[MASK]"])
    oracle = tokenizers.Tokenizer.from_str(ours.to_str())
    oracle.model = tokenizers.models.WordLevel({}, unk_token="[UNK]")
    oracle.train_from_iterator(texts, tokenizers.trainers.WordLevelTrainer(vocab_size=100, show_progress=False))
    counts = count_words(ours, texts, show_progress=False)
    assert counts["[MASK]"] == 5
    ranked = sorted(counts, key=lambda word: (-counts[word], word))
    assert ranked == sorted(oracle.get_vocab(with_added_tokens=False), key=oracle.token_to_id)
