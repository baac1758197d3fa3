"""DESIGN.md documented examples 1, 2, 5, 6 and 7, exactly, and equal to what tokenizers or tiktoken gives."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tiktoken_files import encodings, hfcompat_cache, rank_file, tiktoken_offline  # noqa: F401  (fixtures)
from tokenizers import normalizers as N
from tokenizers import pre_tokenizers as P

import hfcompat
from hfcompat.tiktoken_mode import recover_text

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



# ----- examples 5, 6 and 7: tiktoken's cl100k_base --------------------------------------------

CL100K_EXAMPLES = {"你是谁, my name": [57668, 21043, 39013, 223, 11, 856, 836], "hello world": [15339, 1917]}
IM_TOKENS = {"<|im_start|>": 100264, "<|im_end|>": 100265, "<|im_sep|>": 100266}
CHAT_NEWLINES = ("<|im_start|>system\nYou are a helpful assistant<|im_end|>\n<|im_start|>user\n你是谁<|im_end|>\n"
                 "<|im_start|>assistant\n")
CHAT_NEWLINES_IDS = [100264, 9125, 198, 2675, 527, 264, 11190, 18328, 100265, 198, 100264, 882, 198, 57668, 21043,
                     39013, 223, 100265, 198, 100264, 78191, 198]
CHAT_SEP = ("<|im_start|>system<|im_sep|>You are a helpful assistant<|im_end|><|im_start|>user<|im_sep|>你是谁"
            "<|im_end|><|im_start|>assistant<|im_sep|>")
CHAT_SEP_IDS = [100264, 9125, 100266, 2675, 527, 264, 11190, 18328, 100265, 100264, 882, 100266, 57668, 21043,
                39013, 223, 100265, 100264, 78191, 100266]


@pytest.mark.parametrize("text", list(CL100K_EXAMPLES))
def test_cl100k_example(encodings, text: str) -> None:
    """Example 5: the documented ids, from tiktoken and from hfcompat."""
    ours, theirs = encodings("cl100k_base")
    assert theirs.encode(text) == CL100K_EXAMPLES[text]
    assert ours.encode(text).ids == ours.encode_ordinary(text) == CL100K_EXAMPLES[text]


def test_cl100k_one_char_spans_two_tokens(encodings) -> None:
    """Example 5: token 39013 alone is not valid UTF-8 (谁 is 39013 + 223)."""
    ours, theirs = encodings("cl100k_base")
    assert ours.decode_single_token_bytes(39013) == theirs.decode_single_token_bytes(39013)
    with pytest.raises(UnicodeDecodeError):
        ours.decode_single_token_bytes(39013).decode("utf-8")
    with pytest.raises(UnicodeDecodeError):
        ours.decode([39013], errors="strict")
    assert ours.decode([39013, 223]) == "谁"


@pytest.mark.parametrize("text, expected", [(CHAT_NEWLINES, CHAT_NEWLINES_IDS), (CHAT_SEP, CHAT_SEP_IDS)])
def test_cl100k_im_chat(tiktoken_offline, hfcompat_cache, text: str, expected: list[int]) -> None:
    """Example 6: cl100k_base extended with the three chat tokens, as in tiktoken."""
    path = rank_file("cl100k_base")
    base = tiktoken_offline.get_encoding("cl100k_base")
    im = tiktoken_offline.Encoding("cl100k_im", pat_str=base._pat_str, mergeable_ranks=base._mergeable_ranks,
                                   special_tokens={**base._special_tokens, **IM_TOKENS})
    assert im.encode(text, allowed_special="all") == expected
    ours = hfcompat.load(path, encoding="cl100k_base", special_tokens=IM_TOKENS)
    assert ours.encode(text, allowed_special="all").ids == expected
    assert ours.encode_ids(text, allowed_special="all") == expected
    assert ours.decode(expected) == text


RECOVER_CASES = {
    b"\xe4\xbd\xa0\xe6\x98\xe8\xb0\x81": "你谁",  # 是 lost its last byte
    b"\xe8\xb0": "",
    b"ab\xffcd": "abcd",
    b"\xf0\x9f\x98\x80\x80\x80x": "😀x",
    b"\xc3\xa9\xa9\xe2\x82\xac": "é€",
}


@pytest.mark.parametrize("data", list(RECOVER_CASES))
def test_recover_keeps_the_most_characters(data: bytes) -> None:
    """Example 7: the dynamic program keeps every character that can be whole."""
    assert recover_text(data) == RECOVER_CASES[data]


def _most_chars(data: bytes) -> int:
    """Brute force: the most disjoint one-character pieces of `data` (scanning forward)."""
    best = [0] * (len(data) + 1)
    for start in range(len(data) - 1, -1, -1):
        best[start] = best[start + 1]
        for width in range(1, 5):
            piece = data[start:start + width]
            if len(piece) == width:
                try:
                    if len(piece.decode("utf-8")) == 1:
                        best[start] = max(best[start], 1 + best[start + width])
                except UnicodeDecodeError:
                    pass
    return best[0]


@given(st.binary(max_size=24) | st.text(max_size=8).map(lambda t: t.encode("utf-8", "surrogatepass")[1:]))
def test_recover_is_optimal(data: bytes) -> None:
    """Example 7: as many characters as the best choice of pieces, and those decode cleanly."""
    recovered = recover_text(data)
    assert len(recovered) == _most_chars(data)
    assert recovered == data.decode("utf-8", "ignore")
