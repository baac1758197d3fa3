"""The pipelines of the GGUF `pre` names (formats/gguf/pre_tokenizers.json) against `tokenizers`:
each one's pre-tokenizer, as hfcompat builds it from the table, splits hand-picked traps and
random text as the one `tokenizers` builds from the same JSON, on both backends; every regex
compiles in Oniguruma; the writer names each pipeline with the first name that has it."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, ContextManager, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hfcompat import _backend
from hfcompat import pre_tokenizers as ours
from hfcompat.formats.gguf.read import NORMAL, PRE_TOKENIZERS, TABLE, GGUFTokenizerData, pipeline_from_gguf
from hfcompat.formats.gguf.write import pre_name

tokenizers = pytest.importorskip("tokenizers")

PIPELINES: dict[str, dict[str, Any]] = TABLE["pipelines"]
BACKENDS = [_backend.COMPILED, _backend.PYTHON]
# Contractions (and the case-folded "'ſ"), digit runs in several scripts, CJK and kana, mixed
# scripts and case, runs of spaces, tabs and newlines, emoji with joiners, combining marks, the
# non-ASCII spaces llama.cpp reads otherwise, and the chameleon and bloom delimiters.
TRAPS = [
    "I'm sure you've heard they'll say I'd done it", "'S 'ſ 'T 'LL 'Re 'VE 'D'M", "don't 'tis o'clock",
    "1234567 ²½ Ⅻ111 ١٢٣٤٥ ४२ 𝟙𝟚", "a  12", "x 1234abc", "1,000,000.50 and 42nd", "3.14159265358979",
    "中文，标点。カタカナーひらがな한국어ㄱㄴㄅ", "日本語の文章です。", "Straße İstanbul ǅungle ﬁ ΣΑΣ σας",
    "HelloWorld camelCase ABCdef aBC", "हिन्दी বাংলা ไทย ລາວ", "русский текст", "   leading", "end with spaces   ",
    "  \n\n  x", "a\r\nb\rc", "\t\tTabs\t", "a\n\n\nb", "\n", " ", "😀 🥰 👨\u200d👩 🇯🇵", "e\u0301 ab\u0903c x\u200dy",
    "word\u0301s ma\u0308dchen", "a\u00a0b\u3000c\u200bd\u0085e", "\u2028\u2029x \u2028ㄱ", "$4.50 (approx.) — «quotes» ‘x’",
    "def f(x):\n    return x**2  # comment\n", "https://example.com/a/b?c=d&e=f", "<sentinel:12> IMGIMGABZ",
    "hello...world!?… 。，、।۔،", "Ⅻ Ⅳ ⓵ ① 𝟙", "'s's'S", "`~^|<=>+$", "ª º µ ǅ ǈ ᾈ",
]
# A small alphabet of the characters the traps are made of, so random text hits the same cases.
ALPHABET = sorted(set("".join(TRAPS)))


@lru_cache(maxsize=None)
def theirs(name: str) -> Any:
    """`tokenizers`' pre-tokenizer of a table entry (from its JSON, through a tokenizer.json)."""
    pipeline = {"version": "1.0", "truncation": None, "padding": None, "added_tokens": [], "normalizer": None,
                "pre_tokenizer": PIPELINES[name]["pre_tokenizer"], "post_processor": None, "decoder": None,
                "model": {"type": "WordLevel", "vocab": {}, "unk_token": "[UNK]"}}
    return tokenizers.Tokenizer.from_str(json.dumps(pipeline)).pre_tokenizer


def mine(name: str) -> Any:
    """hfcompat's pre-tokenizer of a table entry."""
    return ours.from_dict(PIPELINES[name]["pre_tokenizer"])


def on(backend: str) -> ContextManager:
    """Run on `backend`, or skip when it is not there (as the `backend` fixture, which a
    hypothesis test cannot take)."""
    if backend not in _backend.available():
        pytest.skip("the compiled core is not built in this installation")
    if backend == _backend.COMPILED and _backend.pure_python_forced():
        pytest.skip(f"{_backend.PURE_PYTHON_VARIABLE} is set: nothing compiled runs")
    return _backend.use(backend)


def regexes(component: dict) -> Iterator[str]:
    """Every Split regex of a pre-tokenizer."""
    for step in component.get("pretokenizers", [component]):
        if step["type"] == "Split" and "Regex" in step["pattern"]:
            yield step["pattern"]["Regex"]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(PIPELINES))
def test_traps_split_as_tokenizers_splits_them(name: str, backend: str) -> None:
    """Pieces and offsets of every trap are `tokenizers`' for the same entry."""
    with on(backend):
        pre_tokenizer = mine(name)
        for text in TRAPS:
            assert pre_tokenizer.pre_tokenize_str(text) == theirs(name).pre_tokenize_str(text), text


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(PIPELINES))
@settings(max_examples=25, deadline=None)
@given(text=st.text(st.one_of(st.sampled_from(ALPHABET), st.characters(exclude_categories=("Cs",))), max_size=40))
def test_random_text_splits_as_tokenizers_splits_it(name: str, backend: str, text: str) -> None:
    """Random Unicode, half of it from the traps' characters: the same pieces and offsets."""
    with on(backend):
        assert mine(name).pre_tokenize_str(text) == theirs(name).pre_tokenize_str(text)


def test_every_regex_compiles_in_oniguruma() -> None:
    """Each Split regex of the table is one Oniguruma (tokenizers' engine) and hfcompat accept."""
    for entry in PIPELINES.values():
        for pattern in regexes(entry["pre_tokenizer"]):
            tokenizers.Regex(pattern)
            ours.Split(pattern, "isolated")


def test_names_are_unique_and_described() -> None:
    """A name (or alias) has one pipeline, and every entry says which llama.cpp types it stands for."""
    names = [alias for name, entry in PIPELINES.items() for alias in (name, *entry.get("aliases", ()))]
    assert len(names) == len(set(names)) == len(PRE_TOKENIZERS)
    assert all(entry["llama_cpp"] for entry in PIPELINES.values())


def byte_level_data(pre: str) -> GGUFTokenizerData:
    """A gpt2 tokenizer named `pre` with "a", "b" and the 256 <0xXX> tokens (a name whose BPE runs on the text's
    own characters needs them; only the pipeline matters here)."""
    tokens = ["a", "b", *(f"<0x{byte:02X}>" for byte in range(256))]
    return GGUFTokenizerData("gpt2", pre, tokens, [NORMAL] * len(tokens), merges=[])


@pytest.mark.parametrize("name", sorted(PRE_TOKENIZERS))
def test_the_writer_names_each_pipeline(name: str) -> None:
    """The pipeline read for a name is written with the first name in the table that has it."""
    pipeline = pipeline_from_gguf(byte_level_data(name))
    written = pre_name(pipeline)
    first = next(other for other in PIPELINES if pipeline_from_gguf(byte_level_data(other)) == pipeline)
    assert written == first
    assert pipeline_from_gguf(byte_level_data(written)) == pipeline
