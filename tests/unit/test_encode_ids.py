"""`Tokenizer.encode_ids`: the ids of `encode` without the Encoding, on every path it may take.

Where the pipeline has string forms all the way (no added token in the text, a model with an
ids path, a pre-tokenizer whose pieces are words, no truncation or padding) the ids come from
them; everywhere else `encode` runs. Both must give `encode(text).ids`, on both backends, and
the ids of the library that owns the file (sentencepiece for a .model, tokenizers otherwise).
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest
import sentencepiece
import tokenizers
from hypothesis import given, settings
from hypothesis import strategies as st

import hfcompat
from hfcompat import processors
from hfcompat.pipeline.added_vocabulary import AddedToken

from conftest import shared_file

FILES = ["refs/llama2/tokenizer.model", "refs/albert/spiece.model", "refs/t5/tokenizer.json",
         "refs/gpt2/tokenizer.json", "refs/roberta-base/tokenizer.json", "refs/bert-base-uncased/vocab.txt"]
TEXTS = ["Hello  world, ｈｅｌｌｏ", "", " ", "日本語の テキスト", "naïve café 🤗 x", "a\r\nb\tc  ",
         "[CLS] hi <s> </s> [MASK]", "  leading and trailing  "]


Oracle = Callable[[str, bool], list[int]]


def official(relative: str) -> Oracle:
    """The owning library's ids of a text (with or without its special tokens): sentencepiece's
    `encode` (a .model has no template unless asked), tokenizers' `encode` (a BERT vocab.txt
    through BertWordPieceTokenizer, as hfcompat loads it)."""
    path = str(shared_file(relative))
    if relative.endswith(".model"):
        processor = sentencepiece.SentencePieceProcessor(model_file=path)
        return lambda text, add_special_tokens: processor.encode(text)
    return tokenizers_ids(tokenizers.BertWordPieceTokenizer(path, lowercase=True)
                          if relative.endswith("vocab.txt") else tokenizers.Tokenizer.from_file(path))


def tokenizers_ids(reference: tokenizers.Tokenizer) -> Oracle:
    """tokenizers' ids of a text, truncation and padding off."""
    reference.no_truncation()
    reference.no_padding()
    return lambda text, add_special_tokens: reference.encode(text, add_special_tokens=add_special_tokens).ids


@pytest.fixture(scope="module", params=FILES)
def pair(request: pytest.FixtureRequest) -> tuple[hfcompat.Tokenizer, Oracle]:
    """A real tokenizer, truncation and padding off, and the owning library's ids."""
    loaded = hfcompat.load(shared_file(request.param))
    loaded.no_truncation()
    loaded.no_padding()
    return loaded, official(request.param)


@pytest.mark.parametrize("add_special_tokens", [True, False])
def test_equals_encode(pair: tuple[hfcompat.Tokenizer, Oracle], backend: str, add_special_tokens: bool) -> None:
    """The named texts, specials in the text among them: the ids `encode` gives, and the
    owning library's."""
    tokenizer, oracle = pair
    for text in TEXTS:
        expected = tokenizer.encode(text, add_special_tokens=add_special_tokens).ids
        assert tokenizer.encode_ids(text, add_special_tokens=add_special_tokens) == expected, text
        assert expected == oracle(text, add_special_tokens), text


@settings(max_examples=100, deadline=None)
@given(text=st.text(st.characters(blacklist_categories=("Cs",)), max_size=30))
def test_random_text_equals_encode(pair: tuple[hfcompat.Tokenizer, Oracle], text: str) -> None:
    """Random Unicode: the ids `encode` gives, and the owning library's."""
    tokenizer, oracle = pair
    assert tokenizer.encode_ids(text) == tokenizer.encode(text).ids == oracle(text, True)


def saved_as_json(tokenizer: hfcompat.Tokenizer, directory: Path) -> tokenizers.Tokenizer:
    """tokenizers running the tokenizer.json hfcompat writes of `tokenizer` (Llama-2's converts
    exactly)."""
    tokenizer.save(str(directory / "tokenizer.json"))
    return tokenizers.Tokenizer.from_file(str(directory / "tokenizer.json"))


def test_added_tokens_truncation_and_padding(backend: str, tmp_path: Path) -> None:
    """An added token in the text, truncation and padding all go through `encode`, and give its
    ids, and tokenizers' on the same pipeline."""
    tokenizer = hfcompat.load(shared_file("refs/llama2/tokenizer.model"))
    tokenizer.add_special_tokens([AddedToken("<extra>", special=True)])
    text = "some text <extra> and more text"
    assert tokenizer._text_encoder().plain_ids(text) is None
    assert tokenizer.encode_ids(text) == tokenizer.encode(text).ids
    assert tokenizer.encode_ids(text) == saved_as_json(tokenizer, tmp_path).encode(text).ids
    assert tokenizer.encode_ids(text).count(tokenizer.token_to_id("<extra>")) == 1
    tokenizer.enable_truncation(4)
    assert tokenizer.encode_ids(text) == tokenizer.encode(text).ids
    assert tokenizer.encode_ids(text) == saved_as_json(tokenizer, tmp_path).encode(text).ids
    assert len(tokenizer.encode_ids(text)) == 4
    tokenizer.no_truncation()
    tokenizer.enable_padding(length=40, pad_id=0)
    assert tokenizer.encode_ids(text) == tokenizer.encode(text).ids
    assert tokenizer.encode_ids(text) == saved_as_json(tokenizer, tmp_path).encode(text).ids
    assert len(tokenizer.encode_ids(text)) == 40


@pytest.mark.parametrize("processor", [
    processors.TemplateProcessing(single="<s> $A </s> </s>", pair="$A $B",
                                  special_tokens=[("<s>", 1), ("</s>", 2)]),
    processors.BertProcessing(sep=("</s>", 2), cls=("<s>", 1)),
    processors.RobertaProcessing(sep=("</s>", 2), cls=("<s>", 1)),
    processors.ByteLevel(),
    processors.Sequence([processors.ByteLevel(), processors.BertProcessing(sep=("</s>", 2), cls=("<s>", 1))]),
])
@pytest.mark.parametrize("add_special_tokens", [True, False])
def test_post_processors_lay_out_the_ids(processor: processors.PostProcessor, add_special_tokens: bool,
                                        tmp_path: Path) -> None:
    """Each post-processor's ids around a single sequence, as `encode` lays them out, and as
    tokenizers does on the same pipeline."""
    tokenizer = hfcompat.load(shared_file("refs/llama2/tokenizer.model"))
    tokenizer.post_processor = processor
    oracle = tokenizers_ids(saved_as_json(tokenizer, tmp_path))
    for text in ["Hello world", "", "x"]:
        expected = tokenizer.encode(text, add_special_tokens=add_special_tokens).ids
        assert tokenizer.encode_ids(text, add_special_tokens=add_special_tokens) == expected, text
        assert expected == oracle(text, add_special_tokens), text


def test_not_a_string() -> None:
    """A non-string text is a TypeError, as in `encode`."""
    tokenizer = hfcompat.load(shared_file("refs/llama2/tokenizer.model"))
    with pytest.raises(TypeError):
        tokenizer.encode_ids(["a", "b"])  # type: ignore[arg-type]


@pytest.mark.parametrize("relative", FILES)
def test_the_string_path_runs(relative: str) -> None:
    """A .model (no pre-tokenizer), T5 (pieces prefixed by "▁"), GPT-2 and RoBERTa (byte-level
    pieces) and BERT (words) give a plain text's ids without the Encoding path."""
    tokenizer = hfcompat.load(shared_file(relative))
    tokenizer.no_truncation()
    assert tokenizer._text_encoder().plain_ids("Hello world, 日本") is not None


def test_an_unknown_word_is_the_unknown_token() -> None:
    """A word WordPiece cannot spell, or one too long, is its unknown token, as in `encode`."""
    tokenizer = hfcompat.load(shared_file("refs/bert-base-uncased/vocab.txt"))
    oracle = official("refs/bert-base-uncased/vocab.txt")
    for text in ["Hello \u0f3a\u0f3b world", "a " + "x" * 120 + " b"]:
        assert tokenizer._text_encoder().plain_ids(text) is not None
        assert tokenizer.encode_ids(text) == tokenizer.encode(text).ids == oracle(text, True)
        assert tokenizer.token_to_id("[UNK]") in tokenizer.encode_ids(text)
