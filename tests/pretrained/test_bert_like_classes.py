"""transformers classes around BERT's WordPiece that read files of their own, and MistralCommonBackend:
hfcompat.load(dir) against AutoTokenizer on directories built here.

MistralCommonBackend runs mistral-common on tekken.json (the real files mistral-common ships); it has no
.tokens() and its convert_ids_to_tokens decodes each id alone, so hfcompat's side is the decode of each id.
Compared per text: ids, tokens, decode with skip_special_tokens both ways; pairs (where the class takes them):
ids and type ids.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

import hfcompat
from tests.conformance.test_hypothesis import texts

from .auto_harness import auto_tokenizer
from .test_class_table import corpus_texts

pytestmark = pytest.mark.conformance

mistral_common = pytest.importorskip("mistral_common", reason="mistral-common is not installed (test extra)")
TEKKEN_FILES = sorted((Path(mistral_common.__file__).parent / "data").glob("tekken_*.json"))


def write_directory(directory: Path, files: dict[str, str | Path]) -> Path:
    """A directory holding these files: text, or a file to copy (a symlink: the files are large)."""
    directory.mkdir(parents=True)
    for name, content in files.items():
        if isinstance(content, Path):
            (directory / name).symlink_to(content)
        else:
            (directory / name).write_text(content, encoding="utf-8")
    return directory


def loaded_quietly(directory: Path) -> tuple[Any, list[str]]:
    """hfcompat.load(directory) and the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tokenizer = hfcompat.load(directory)
    return tokenizer, [str(w.message) for w in caught]


def agree(expected: tuple, actual: tuple) -> bool:
    """True when both libraries' fields are equal."""
    return expected == actual


# ---------------------------------------------------------------- MistralCommonBackend


def mistral_directories(root: Path, tekken: Path) -> dict[str, Path]:
    """A directory naming MistralCommonBackend, and one of the hub's layout: LlamaTokenizerFast in
    tokenizer_config.json, model_type mistral in config.json (AutoTokenizer then prefers tekken.json)."""
    named = write_directory(root / "named", {"tekken.json": tekken,
                                             "tokenizer_config.json": json.dumps({"tokenizer_class": "MistralCommonBackend"})})
    hub = write_directory(root / "hub", {"tekken.json": tekken, "config.json": json.dumps({"model_type": "mistral"}),
                                         "tokenizer_config.json": json.dumps({"tokenizer_class": "LlamaTokenizerFast"})})
    return {"named": named, "hub": hub}


@pytest.fixture(scope="module")
def mistral(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], tuple[Any, Any, list[str]]]:
    """(tekken file, directory kind) -> (AutoTokenizer, hfcompat tokenizer, hfcompat's warnings)."""
    if not TEKKEN_FILES:
        pytest.skip("mistral-common ships no tekken_*.json here")
    loaded = {}
    for tekken in TEKKEN_FILES:
        for kind, path in mistral_directories(tmp_path_factory.mktemp(tekken.stem), tekken).items():
            loaded[tekken.stem, kind] = (auto_tokenizer(path), *loaded_quietly(path))
    return loaded


MISTRAL_KEYS = [(tekken.stem, kind) for tekken in TEKKEN_FILES for kind in ("named", "hub")]


def mistral_fields(auto: Any, ours: Any, text: str) -> tuple[tuple, tuple]:
    """(ids, tokens, decode, decode skipping specials) of both libraries."""
    ids = auto(text)["input_ids"]
    encoding = ours.encode(text)
    return ((ids, auto.convert_ids_to_tokens(ids), auto.decode(ids), auto.decode(ids, skip_special_tokens=True)),
            (encoding.ids, [ours.decode([i], skip_special_tokens=False) for i in encoding.ids],
             ours.decode(ids, skip_special_tokens=False), ours.decode(ids, skip_special_tokens=True)))


@pytest.mark.parametrize("key", MISTRAL_KEYS)
def test_mistral_common_matches_auto(mistral: dict, backend: str, key: tuple[str, str]) -> None:
    """Corpus lines and lines spelling the special tokens (plain text for mistral-common): <s> before each,
    the same tokens and both decodes."""
    auto, ours, _ = mistral[key]
    assert type(auto).__name__ == "MistralCommonBackend"
    lines = corpus_texts() + [f"Hello {token}world{token} x  {token} " for token in auto.all_special_tokens[:12]] + \
        ["[INST] hi [/INST]</s>", "x lang:en <s>", "", " \n\t é\u3000\U0001f600"]
    differing = [text for text in lines if not agree(*mistral_fields(auto, ours, text))]
    assert differing == [], f"{key}: {len(differing)}/{len(lines)} differ: {differing[:3]}"


@pytest.mark.parametrize("key", MISTRAL_KEYS[:1])
def test_mistral_common_decodes_runs_apart(mistral: dict, backend: str, key: tuple[str, str]) -> None:
    """Special tokens split the bytes around them: mistral-common decodes each run alone, so a character cut by
    a special token is two U+FFFD even when the special is dropped."""
    auto, ours, _ = mistral[key]
    cut = [1000 + 0xE6, 1000 + 0x97, 1, 1000 + 0xA5, 3, 1000 + 0xC3, 1000 + 0xA9]
    for skip in (False, True):
        assert ours.decode(cut, skip_special_tokens=skip) == auto.decode(cut, skip_special_tokens=skip)
    assert ours.decode(cut, skip_special_tokens=True) == "\ufffd\ufffdé"


@pytest.mark.parametrize("key", MISTRAL_KEYS[:1])
@settings(max_examples=40, deadline=None)
@given(text=texts)
def test_mistral_common_random_text(mistral: dict, key: tuple[str, str], text: str) -> None:
    """Random Unicode: ids, tokens and both decodes agree."""
    auto, ours, _ = mistral[key]
    expected, actual = mistral_fields(auto, ours, text)
    assert actual == expected


def test_mistral_common_rules_are_announced_and_real(mistral: dict) -> None:
    """The warnings name what the wrapper does that hfcompat does not, and AutoTokenizer really does it: a pair is
    refused, and "lang:xx" at the start of a decode skipping specials is removed."""
    auto, ours, messages = mistral[MISTRAL_KEYS[0]]
    assert len(messages) == 2 and all("MistralCommonBackend" in m for m in messages)
    assert "pair" in messages[0] and "lang:xx" in messages[1]
    with pytest.raises(ValueError, match="text_pair"):
        auto("a", "b")
    ids = auto("lang:en hello")["input_ids"]
    assert auto.decode(ids, skip_special_tokens=True) == " hello" != ours.decode(ids, skip_special_tokens=True)
