"""The cached-piece path of `Tokenizer.encode` and the readable pipeline, each against tokenizers.

A text without added tokens goes through `TextEncoder.text_columns` when the pre-tokenizer can
give its pieces alone (its `piece_route`) (GPT-2, BERT, T5, RoBERTa here); the rest takes the readable pipeline.
Every case encodes the same inputs with a tokenizer that takes the fast path and with one made
to skip it, and compares both with the oracle, so neither path can hide behind the other.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from tokenizers import pre_tokenizers as tk_pre

from hfcompat import pre_tokenizers
from hfcompat.pre_tokenizers import PieceForm
from hfcompat.pipeline.bytelevel import bytes_to_chars

from .harness import REFS, build_oracle, compare, load_subject, oracle_ref
from .test_hypothesis import texts as random_texts

pytestmark = pytest.mark.conformance

NAMES = ["gpt2", "roberta-base", "bert-base-uncased", "bert-base-chinese", "t5"]
EDGE_TEXTS = [
    "", " ", "   ", "  leading and trailing  ", "Hello, how are  you?", "the the the the",
    "Hello <|endoftext|> world<|endoftext|>", "[CLS] one [SEP] two [MASK]three [UNK]",
    "</s> a <pad> b <unk>", "<s>x</s>", "<mask>", "héllo wörld ñandú Ⅻ ½", "Straße ΣΑΣ ǅ İstanbul",
    "日本語のテキスト、です。", "中文文本，测试。ＡＢＣ１２３", "emoji 👍🏽 and 👨‍👩‍👧 ZWJ",
    "e\u0301 combining \u0951 marks", "tab\tand\nnewline\r\nend", "a\u00a0b\u3000c\u2003d",
    "a▁b ▁ ▁▁x", "don't we'll I'M", "x" * 300, "日本" * 150, "2012 8868 12345678",
    "\x00control\x7f\u200bzero", "ｈａｌｆ ｶﾀｶﾅ",
]


def _readable_only(tokenizer: Any) -> Any:
    """The tokenizer with its cached-piece path switched off (every text takes the pipeline)."""
    tokenizer._text_encoder().text_columns = lambda ns: None
    return tokenizer


def _inputs(corpora: Any, multilingual: list[str]) -> list[str]:
    """Edge texts, a few lines of each corpus, and the multilingual fixture."""
    lines = []
    for corpus in ("botchan", "wagahaiwa", "pku_test"):
        lines += corpora(corpus, 10)
    return EDGE_TEXTS + lines + multilingual


@pytest.mark.parametrize("name", NAMES)
def test_both_paths_match_tokenizers(shared: Path, corpora, multilingual, name: str) -> None:
    """Fast and readable paths agree with the oracle on every input, alone and in pairs."""
    texts = _inputs(corpora, multilingual)
    fast = load_subject(shared, REFS[name])
    fast.no_truncation()
    readable = _readable_only(load_subject(shared, REFS[name]))
    readable.no_truncation()
    oracle = build_oracle(shared, REFS[name])
    oracle.no_truncation()
    compare(oracle, fast, texts, pairs=True, label=f"{name} fast path")
    compare(oracle, readable, texts, pairs=True, label=f"{name} readable path")
    assert fast._text_encoder().piece_cache, "the fast path never ran"
    assert not readable._text_encoder().piece_cache, "the readable-only tokenizer took the fast path"


@pytest.mark.parametrize("name", NAMES)
def test_both_paths_truncate_like_tokenizers(shared: Path, corpora, name: str) -> None:
    """With truncation and a stride (overflowing windows), on single texts and pairs."""
    texts = EDGE_TEXTS + corpora("botchan", 6) + corpora("pku_test", 6)
    oracle = build_oracle(shared, REFS[name])
    oracle.enable_truncation(max_length=16, stride=2)
    for tokenizer, label in ((load_subject(shared, REFS[name]), "fast path"),
                             (_readable_only(load_subject(shared, REFS[name])), "readable path")):
        tokenizer.enable_truncation(max_length=16, stride=2)
        compare(oracle, tokenizer, texts, pairs=True, label=f"{name} {label}, truncated")


@pytest.fixture(scope="module")
def readable_refs(shared: Path) -> dict[str, Any]:
    """One readable-only tokenizer per reference, loaded once for the hypothesis test."""
    return {name: _readable_only(load_subject(shared, REFS[name])) for name in NAMES}


@pytest.mark.parametrize("name", ["gpt2", "bert-base-uncased", "t5"])
@given(first=random_texts, second=random_texts)
def test_readable_path_on_random_text(shared: Path, readable_refs: dict[str, Any], name: str,
                                      first: str, second: str) -> None:
    """Random Unicode through the readable pipeline (test_hypothesis covers the fast path)."""
    compare(oracle_ref(shared, name), readable_refs[name], [first, second], pairs=True, label=name)


PIECE_FORMS = [
    (pre_tokenizers.BertPreTokenizer(), tk_pre.BertPreTokenizer(), "text"),
    (pre_tokenizers.Whitespace(), tk_pre.Whitespace(), "text"),
    (pre_tokenizers.WhitespaceSplit(), tk_pre.WhitespaceSplit(), "text"),
    (pre_tokenizers.ByteLevel(add_prefix_space=False), tk_pre.ByteLevel(add_prefix_space=False), "bytes"),
]


@pytest.mark.parametrize("ours, theirs, form", PIECE_FORMS, ids=lambda p: type(p).__name__)
@given(text=random_texts)
def test_a_piece_alone_is_the_one_word_its_form_says(ours: Any, theirs: Any, form: str, text: str) -> None:
    """What `TextEncoder.text_columns` assumes of a piece it tokenizes directly: tokenizers' pre-tokenizer
    makes of the piece alone one split, the piece itself or its byte-level chars, spanning it."""
    assert ours.piece_route().form is PieceForm(form)
    for piece in ours.word_pieces(text)[0]:
        word = bytes_to_chars(piece.encode("utf-8", "surrogatepass")) if form == "bytes" else piece
        assert theirs.pre_tokenize_str(piece) == [(word, (0, len(piece)))]


@pytest.mark.parametrize("ours, theirs", [
    (pre_tokenizers.Sequence([pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Punctuation()]),
     tk_pre.Sequence([tk_pre.WhitespaceSplit(), tk_pre.Punctuation()])),
    (pre_tokenizers.ByteLevel(add_prefix_space=True), tk_pre.ByteLevel(add_prefix_space=True)),
], ids=["whitespace-then-punctuation", "bytelevel-prefix-space"])
def test_no_form_where_a_piece_alone_is_not_one_word(ours: Any, theirs: Any) -> None:
    """Where tokenizers makes a piece alone into other splits, no one-word form is claimed."""
    route = ours.piece_route()
    assert route is None or route.form is PieceForm.SPLITS
    assert theirs.pre_tokenize_str("a,b") != [("a,b", (0, 3))]
