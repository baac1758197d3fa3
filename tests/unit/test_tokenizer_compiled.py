"""The compiled assembly of an Encoding from cached pieces (hfcompat/pipeline/_pieces.pyx) and the models'
compiled columns against the pure-Python reference: fresh tokenizers on both backends, on random
text and on the corpora, give the same ids, tokens, offsets and word ids; on the corpora, the
same as the official library's too."""

from __future__ import annotations

import pickle
from typing import Any, Callable

import pytest
import sentencepiece
import tokenizers
from hypothesis import given, settings
from hypothesis import strategies as st

import hfcompat
from hfcompat import _backend

from conftest import shared_file

pytest.importorskip("hfcompat.pipeline._pieces", reason="the compiled core is not built")

FILES = ["refs/gpt2/tokenizer.json", "refs/llama2/tokenizer.model", "refs/t5/tokenizer.json",
         "refs/albert/spiece.model", "refs/bert-base-uncased/vocab.txt", "refs/roberta-base/tokenizer.json"]
TEXTS = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40) | st.sampled_from(
    ["Hello  world,  ｈｅｌｌｏ", "日本語の テキスト", "naïve café 🤗 x", "  leading and trailing  ",
     "a▁word ▁marked▁ ▁", "▁"])  # T5's mark inside a piece: the compiled entry declines it


def columns(tokenizer: Any, text: str) -> tuple:
    """What an Encoding says of `text`: ids, tokens, offsets, word ids; and `encode_ids`, which
    must give the same ids without the Encoding."""
    encoding = tokenizer.encode(text)
    assert tokenizer.encode_ids(text) == encoding.ids, text
    return encoding.ids, encoding.tokens, encoding.offsets, encoding.word_ids


@pytest.fixture(scope="module", params=FILES)
def twins(request: pytest.FixtureRequest) -> tuple[Any, Any]:
    """The same file loaded twice: one tokenizer for each backend (their caches stay apart)."""
    path = shared_file(request.param)
    return hfcompat.load(path), hfcompat.load(path)


@settings(max_examples=150, deadline=None)
@given(texts=st.lists(TEXTS, min_size=1, max_size=4))
def test_encodings_equal_the_reference(twins: tuple[Any, Any], texts: list[str]) -> None:
    """Random text (repeated, so cached pieces are met too): both backends give the same Encoding."""
    compiled, python = twins
    for text in [*texts, *texts]:
        with _backend.use(_backend.COMPILED):
            found = columns(compiled, text)
        with _backend.use(_backend.PYTHON):
            assert found == columns(python, text), text


def official(relative: str) -> Callable[[str], tuple]:
    """What the library that owns the file says of a line: tokenizers' ids, tokens and offsets
    (tokenizer.json, vocab.txt), sentencepiece's ids and pieces (.model)."""
    path = str(shared_file(relative))
    if relative.endswith(".model"):
        processor = sentencepiece.SentencePieceProcessor(model_file=path)
        return lambda line: (processor.encode(line), processor.encode(line, out_type=str))
    if relative.endswith("vocab.txt"):
        reference = tokenizers.BertWordPieceTokenizer(path, lowercase=True)
    else:
        reference = tokenizers.Tokenizer.from_file(path)
        reference.no_truncation()
        reference.no_padding()
    return lambda line: (lambda e: (e.ids, e.tokens, e.offsets))(reference.encode(line))


@pytest.mark.parametrize("relative", FILES)
def test_corpus_lines_equal_the_reference(relative: str, corpora: Any) -> None:
    """Lines of English, Chinese and Japanese prose: both backends give the same Encodings, and
    the same as the official library's."""
    compiled, python = hfcompat.load(shared_file(relative)), hfcompat.load(shared_file(relative))
    for tokenizer in (compiled, python):
        if tokenizer.truncation is not None:
            tokenizer.no_truncation()
    lines = corpora("botchan", 150) + corpora("pku_test", 150) + corpora("wagahaiwa", 150)
    with _backend.use(_backend.COMPILED):
        found = [columns(compiled, line) for line in lines]
    with _backend.use(_backend.PYTHON):
        assert found == [columns(python, line) for line in lines]
    expected = official(relative)
    narrow = (lambda c: (c[0], c[1])) if relative.endswith(".model") else (lambda c: (c[0], c[1], c[2]))
    assert [narrow(c) for c in found] == [expected(line) for line in lines]


@pytest.mark.parametrize("relative", [*FILES, "refs/tiktoken/cl100k_base.tiktoken"])
def test_a_tokenizer_pickles_with_its_compiled_tables(relative: str) -> None:
    """Loaded and used on the compiled backend, a tokenizer holds C objects (merge table,
    Viterbi, matcher, charsmap rewriter); it still pickles (Dask sends tokenizers to workers so),
    and the copy encodes alike, building its own."""
    with _backend.use(_backend.COMPILED):
        tokenizer = hfcompat.load(shared_file(relative))
        expected = columns(tokenizer, "Hello world, naïve 你好 ｈｅｌｌｏ")
        copy = pickle.loads(pickle.dumps(tokenizer))
        assert columns(copy, "Hello world, naïve 你好 ｈｅｌｌｏ") == expected
