"""DESIGN.md documented examples 1 and 2, exactly, and equal to what tokenizers itself gives."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest
from tokenizers import normalizers as N
from tokenizers import pre_tokenizers as P

from .harness import oracle_component, subject_module

pytestmark = pytest.mark.conformance

NORMALIZER_INPUT = "Héllò hôw are ü?"
NORMALIZER_OUTPUT = "hello how are u?"

PRE_TOKENIZER_INPUT = "Hello, how are  you?"  # two spaces before "you"
PRE_TOKENIZED = {
    "bert": [("Hello", (0, 5)), (",", (5, 6)), ("how", (7, 10)), ("are", (11, 14)), ("you", (16, 19)),
             ("?", (19, 20))],
    "gpt2": [("Hello", (0, 5)), (",", (5, 6)), ("Ġhow", (6, 10)), ("Ġare", (10, 14)), ("Ġ", (14, 15)),
             ("Ġyou", (15, 19)), ("?", (19, 20))],
    "t5": [("▁Hello,", (0, 6)), ("▁how", (7, 10)), ("▁are", (11, 14)), ("▁you?", (16, 20))],
}


def state(component: Any) -> dict:
    """The JSON dict tokenizers writes for a component."""
    return json.loads(component.__getstate__())


def ref_section(name: str, section: str) -> Callable[[Path], dict]:
    """A loader of one section of a reference tokenizer.json (needs ../shared)."""
    return lambda shared: json.loads((shared / "refs" / name / "tokenizer.json").read_text(encoding="utf-8"))[section]


# (documented example, how its pre-tokenizer is obtained): built in tokenizers, or read from a real file.
PRE_TOKENIZER_SOURCES = {
    "bert-built": ("bert", lambda shared: state(P.BertPreTokenizer())),
    "gpt2-built": ("gpt2", lambda shared: state(P.ByteLevel(add_prefix_space=False))),
    "gpt2-ref": ("gpt2", ref_section("gpt2", "pre_tokenizer")),
    "t5-built": ("t5", lambda shared: state(P.Sequence([P.WhitespaceSplit(), P.Metaspace(replacement="▁")]))),
    "t5-ref": ("t5", ref_section("t5", "pre_tokenizer")),
}


def pieces(result: list) -> list[tuple[str, tuple[int, int]]]:
    """pre_tokenize_str output as plain (str, (int, int)) tuples."""
    return [(text, (int(start), int(end))) for text, (start, end) in result]


def test_bert_normalizer_example() -> None:
    """Example 1: BERT's normalizer lowercases and strips the accents."""
    oracle = N.BertNormalizer()
    assert oracle.normalize_str(NORMALIZER_INPUT) == NORMALIZER_OUTPUT
    ours = subject_module("normalizers").from_dict(state(oracle))
    assert ours.normalize_str(NORMALIZER_INPUT) == NORMALIZER_OUTPUT


@pytest.mark.parametrize("source", list(PRE_TOKENIZER_SOURCES))
def test_pre_tokenizer_example(request: pytest.FixtureRequest, source: str) -> None:
    """Example 2: the documented pieces and offsets, from tokenizers and from hfcompat."""
    expected_name, load = PRE_TOKENIZER_SOURCES[source]
    shared = request.getfixturevalue("shared") if source.endswith("-ref") else None
    data = load(shared)
    expected = PRE_TOKENIZED[expected_name]
    oracle = oracle_component("pre_tokenizer", data)
    assert pieces(oracle.pre_tokenize_str(PRE_TOKENIZER_INPUT)) == expected
    ours = subject_module("pre_tokenizers").from_dict(data)
    assert pieces(ours.pre_tokenize_str(PRE_TOKENIZER_INPUT)) == expected



def test_sentencepiece_byte_fallback_example(tmp_path: Path) -> None:
    """Example 10: a byte_fallback model holds <0x00>..<0xFF>; an unseen char encodes as its UTF-8 bytes."""
    import io

    import sentencepiece as spm_lib

    import hfcompat

    lines = ["This is the Hugging Face Course.", "This chapter is about tokenization.",
             "This section shows several tokenizer algorithms."] * 20
    buffer = io.BytesIO()
    spm_lib.SentencePieceTrainer.train(sentence_iterator=iter(lines), model_writer=buffer, vocab_size=300,
                                       hard_vocab_limit=False, byte_fallback=True, num_threads=1, minloglevel=2)
    path = tmp_path / "byte_fallback.model"
    path.write_bytes(buffer.getvalue())
    sp = spm_lib.SentencePieceProcessor(model_file=str(path))
    ours = hfcompat.load(path)
    byte_pieces = [f"<0x{byte:02X}>" for byte in range(256)]
    assert all(ours.token_to_id(piece) == sp.piece_to_id(piece) != sp.unk_id() for piece in byte_pieces)
    text = "This 你"
    pieces = sp.encode(text, out_type=str)
    assert pieces[-3:] == ["<0xE4>", "<0xBD>", "<0xA0>"]
    assert ours.encode(text).tokens == pieces
    assert ours.encode(text).ids == sp.encode(text)
    assert sp.unk_id() not in sp.encode(text)
    assert ours.decode(sp.encode(text)) == sp.decode(sp.encode(text)) == text
