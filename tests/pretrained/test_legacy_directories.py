"""Older transformers directories: hfcompat.load(dir) against AutoTokenizer where the files are the legacy ones.

Hub directories written before transformers 4.34 hold special_tokens_map.json (roles, additional special
tokens, AddedToken dicts with their flags) and added_tokens.json (token -> id) beside a tokenizer_config.json
without `added_tokens_decoder`, or no tokenizer_config.json at all (config.json's model_type names the class).
Each directory is built here from ../shared/refs files; both libraries load it and must agree on corpus lines
and on texts holding every added and special token: ids, offsets, type ids, tokens, decode with
skip_special_tokens both ways, pairs, truncation and a padded batch (auto_harness.compare_auto).
"""

from __future__ import annotations

import json
import shutil
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

import hfcompat
from hfcompat.formats.transformers.legacy_files import with_legacy_files
from hfcompat.formats.transformers.pretrained import SPECIAL_ROLES
from tests.conformance.test_hypothesis import texts
from tests.conftest import shared_file

from .auto_harness import Tally, auto_tokenizer, compare_auto
from .test_class_table import corpus_texts

pytestmark = pytest.mark.conformance


def added(content: str, **flags: bool) -> dict[str, Any]:
    """An AddedToken dict as tokenizer_config.json writes it (special, not normalized, unless told)."""
    return {"__type": "AddedToken", "content": content, "lstrip": False, "rstrip": False, "single_word": False,
            "normalized": False, "special": True, **flags}


def mapped(content: str, **flags: bool) -> dict[str, Any]:
    """An AddedToken dict as older special_tokens_map.json files hold it (no __type, no special)."""
    return {"content": content, "lstrip": False, "rstrip": False, "single_word": False, "normalized": False,
            **flags}


BERT = {"vocab.txt": "bert-base-uncased/vocab.txt"}
GPT2 = {"vocab.json": "gpt2/vocab.json", "merges.txt": "gpt2/merges.txt"}
ROBERTA = {"tokenizer.json": "roberta-base/tokenizer.json"}
# Llama-2's vocabulary as HF BPE, with Phi-3's added tokens from 32000 (<|endoftext|>, ...).
LLAMA = {"tokenizer.json": "phi-3-mini/tokenizer.json"}
# name -> (../shared/refs files, JSON files written beside them).
DIRECTORIES: dict[str, tuple[dict[str, str], dict[str, Any]]] = {
    # (d) no tokenizer_config.json: config.json's model type names the class.
    "bert-model-type-only": (BERT, {"config.json": {"model_type": "bert"}}),
    "roberta-json-model-type-only": (ROBERTA, {"config.json": {"model_type": "roberta"}}),
    # CLIPTokenizer rebuilds the file's pipeline (read as it is, 32 of 37 texts differed).
    "clip-json-model-type-only": ({"tokenizer.json": "clip/tokenizer.json"}, {"config.json": {"model_type": "clip"}}),
    # (a)+(b) with config.json only: a new token, one already in the vocabulary; the map's additional token is
    # not special when added_tokens.json is read (transformers counts only extra_special_tokens there).
    "bert-model-type-map-added": (BERT, {
        "config.json": {"model_type": "bert"},
        "special_tokens_map.json": {"additional_special_tokens": ["<new>"]},
        "added_tokens.json": {"<new>": 30522, "hello": 7592}}),
    # (a)+(b) beside a config without added_tokens_decoder: the map's role dict (lstrip) wins over the config's
    # string; ids of added_tokens.json beyond the next free one are not kept.
    "bert-config-map-added": (BERT, {
        "tokenizer_config.json": {"tokenizer_class": "BertTokenizer", "mask_token": "[MASK]", "do_lower_case": True},
        "special_tokens_map.json": {"mask_token": mapped("[MASK]", lstrip=True, rstrip=True),
                                    "pad_token": "[PAD]", "additional_special_tokens": ["<new>"]},
        "added_tokens.json": {"<new>": 30522, "<other>": 30530}}),
    "gpt2-slow-files-added": (GPT2, {
        "config.json": {"model_type": "gpt2"},
        "special_tokens_map.json": {"pad_token": mapped("<pad>", rstrip=True),
                                    "extra_special_tokens": [mapped("<sep>", lstrip=True)]},
        "added_tokens.json": {"<pad>": 50257, "<sep>": 50258, "<tool>": 50300, " hello": 23748}}),
    # (b)+(c) tokenizer.json alone beside the legacy files (TokenizersBackend): tokenizer.json's own entry for
    # <mask> replaces added_tokens.json's; the map's mask dict does not change a token already added.
    "roberta-json-map": (ROBERTA, {
        "special_tokens_map.json": {"mask_token": mapped("<mask>"), "additional_special_tokens": ["<new>", "<mask>"]}}),
    "roberta-json-added": (ROBERTA, {"added_tokens.json": {"<new>": 50265, "<mask>": 50264, "hello": 42891}}),
    "roberta-class-map-added": (ROBERTA, {
        "tokenizer_config.json": {"tokenizer_class": "RobertaTokenizer", "additional_special_tokens": ["<x>"]},
        "special_tokens_map.json": {"additional_special_tokens": ["<ignored>"], "extra_special_tokens": ["<y>"],
                                    "unk_token": "<y>"},
        "added_tokens.json": {"<x>": 50265, "<y>": 50266, "<ignored>": 50267}}),
    # A config with added_tokens_decoder makes transformers ignore the legacy files.
    "roberta-decoder-wins": (ROBERTA, {
        "tokenizer_config.json": {"tokenizer_class": "RobertaTokenizer", "added_tokens_decoder": {
            str(index): added(content, lstrip=content == "<mask>")
            for index, content in enumerate(("<s>", "<pad>", "</s>", "<unk>"))} | {"50264": added("<mask>", lstrip=True)}},
        "special_tokens_map.json": {"additional_special_tokens": ["<new>"]},
        "added_tokens.json": {"<other>": 50265}}),
    # (e) role tokens as AddedToken dicts in tokenizer_config.json: their flags hold for a new token, not for one
    # already added (roberta's <pad>); a named token is special whatever its dict says.
    "roberta-config-role-flags": (ROBERTA, {
        "tokenizer_config.json": {"tokenizer_class": "RobertaTokenizer", "pad_token": added("<pad>", rstrip=True),
                                  "sep_token": added("<sep>", rstrip=True, special=False),
                                  "additional_special_tokens": [added("<new>", lstrip=True, rstrip=True),
                                                                added("word", single_word=True, special=False)]}}),
    "bert-config-role-flags": (BERT, {
        "tokenizer_config.json": {"tokenizer_class": "BertTokenizer", "mask_token": added("[MASK]", lstrip=True, rstrip=True),
                                  "pad_token": added("<new>", rstrip=True, normalized=True, special=False)}}),
    # A Llama directory as hub repos of 2023 held it: a config without added_tokens_decoder, the map with
    # AddedToken dicts, and a pad token in added_tokens.json under an id tokenizer.json gives to another token
    # (tokenizer.json's wins; <pad> comes next, as the map's pad role).
    "llama-legacy": (LLAMA, {
        "tokenizer_config.json": {"tokenizer_class": "LlamaTokenizer", "legacy": False, "add_bos_token": True,
                                  "bos_token": {"__type": "AddedToken", "content": "<s>", "lstrip": False,
                                                "normalized": False, "rstrip": False, "single_word": False},
                                  "eos_token": "</s>", "unk_token": "<unk>"},
        "special_tokens_map.json": {"bos_token": mapped("<s>"), "eos_token": mapped("</s>"),
                                    "unk_token": mapped("<unk>"), "pad_token": "<pad>"},
        "added_tokens.json": {"<pad>": 32000}}),
    # A Python tokenizer (ByT5, built by rule) with the legacy files: ids in sequence, as hfcompat gives them.
    "byt5-legacy": ({}, {
        "tokenizer_config.json": {"tokenizer_class": "ByT5Tokenizer", "extra_ids": 0},
        "special_tokens_map.json": {"additional_special_tokens": ["<y>"], "eos_token": mapped("</s>", rstrip=True)},
        "added_tokens.json": {"<new>": 259, "<x>": 260}}),
}


def build_directory(root: Path, name: str, without: tuple[str, ...] = ()) -> Path:
    """The directory `name` of DIRECTORIES under root (leaving out the files named in `without`)."""
    refs, written = DIRECTORIES[name]
    return write_directory(root / name, refs, {k: v for k, v in written.items() if k not in without})


def write_directory(directory: Path, refs: dict[str, str], written: dict[str, Any]) -> Path:
    """A directory of ../shared/refs files and JSON files."""
    directory.mkdir()
    for target, source in refs.items():
        shutil.copyfile(shared_file(f"refs/{source}"), directory / target)
    for target, content in written.items():
        (directory / target).write_text(json.dumps(content), encoding="utf-8")
    return directory


@pytest.fixture(scope="module")
def directories(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Any]]:
    """name -> (directory, AutoTokenizer of it)."""
    root = tmp_path_factory.mktemp("legacy")
    built = {name: build_directory(root, name) for name in DIRECTORIES}
    return {name: (path, auto_tokenizer(path)) for name, path in built.items()}


def token_texts(auto: Any) -> list[str]:
    """Texts holding each added and special token, with spaces on either side and none."""
    tokens = list(dict.fromkeys([t.content for t in auto.added_tokens_decoder.values()] + auto.all_special_tokens))
    words = [t for t in tokens if t and t.strip()]
    return [f"Hello {t}world{t} x  {t} " for t in words] + [f"a  {t}  b{t}c" for t in words] + \
        ["".join(words), " ".join(words), "hello world HELLO hello, <mask> [MASK] <new> word words"]


def load_quietly(directory: Path) -> tuple[Any, list[str]]:
    """hfcompat.load(directory) and the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ours = hfcompat.load(directory)
    return ours, [str(w.message) for w in caught]


@pytest.mark.filterwarnings("ignore:This sequence already has")
@pytest.mark.parametrize("name", sorted(DIRECTORIES))
def test_legacy_directory_matches_auto(directories: dict, backend: str, name: str) -> None:
    """Corpus lines and texts holding the tokens: every field AutoTokenizer gives, tokens and both decodes."""
    directory, auto = directories[name]
    ours, _ = load_quietly(directory)
    texts = corpus_texts() + token_texts(auto)
    if auto.is_fast:
        tally = compare_auto(auto, ours, texts, name)
    else:  # a Python tokenizer has no offsets: ids, both decodes and pairs
        tally = Tally(name)
        for text in texts:
            ids = auto(text)["input_ids"]
            tally.check(f"ids of {text!r}", ids, ours.encode(text).ids)
            for skip in (False, True):
                tally.check(f"decode skip={skip} of {text!r}", auto.decode(ids, skip_special_tokens=skip),
                            ours.decode(ids, skip_special_tokens=skip))
        for pair in zip(texts[:5], texts[-5:]):
            result = auto(*pair, return_token_type_ids=True)
            encoding = ours.encode(*pair)
            tally.check(f"pair {pair!r}", (result["input_ids"], result["token_type_ids"]),
                        (encoding.ids, encoding.type_ids))
    for text in texts:
        ids = auto(text)["input_ids"]
        tally.check(f"tokens of {text!r}", auto.convert_ids_to_tokens(ids), [ours.id_to_token(i) for i in ids])
    tally.assert_clean()


@pytest.fixture(scope="module")
def loaded(directories: dict) -> dict[str, tuple[Any, Any]]:
    """name -> (AutoTokenizer, hfcompat tokenizer) for the directories the random texts run on."""
    return {name: (directories[name][1], load_quietly(directories[name][0])[0])
            for name in ("bert-config-map-added", "roberta-json-added", "gpt2-slow-files-added")}


@settings(max_examples=60, deadline=None)
@given(text=texts)
def test_random_text_around_added_tokens(loaded: dict, text: str) -> None:
    """Random Unicode with added and special tokens inside: ids and both decodes agree."""
    for name, (auto, ours) in loaded.items():
        words = [t.content for t in auto.added_tokens_decoder.values()]
        mixed = f"{text}{words[-1]}{text[::-1]} {words[0]}  {text}"
        ids = auto(mixed)["input_ids"]
        assert ours.encode(mixed).ids == ids, name
        for skip in (False, True):
            assert ours.decode(ids, skip_special_tokens=skip) == auto.decode(ids, skip_special_tokens=skip), name


@pytest.mark.parametrize("name", sorted(DIRECTORIES))
def test_added_tokens_and_roles_match_auto(directories: dict, name: str) -> None:
    """The added tokens (id, content, flags) and the named special tokens are AutoTokenizer's (a Python tokenizer
    finds its special tokens by role, not by the flag: that one is not compared there)."""
    directory, auto = directories[name]
    ours, _ = load_quietly(directory)
    fields = ("content", "lstrip", "rstrip", "single_word", "normalized") + (("special",) if auto.is_fast else ())
    expected = {i: tuple(getattr(t, f) for f in fields) for i, t in auto.added_tokens_decoder.items()}
    actual = {i: tuple(getattr(t, f) for f in fields) for i, t in ours.get_added_tokens_decoder().items()}
    assert actual == expected
    assert {role: token for role, token in ours.named_special_tokens.items() if token in ours.get_vocab()} == \
        {role: token for role, token in auto.special_tokens_map.items() if role in SPECIAL_ROLES}


LEGACY = ("special_tokens_map.json", "added_tokens.json")


@pytest.mark.parametrize("name", [name for name, (_, written) in DIRECTORIES.items() if set(LEGACY) & set(written)])
def test_legacy_files_change_auto(directories: dict, tmp_path: Path, name: str) -> None:
    """Without its legacy files AutoTokenizer encodes the token texts differently (so the comparisons above
    can fail), except beside an added_tokens_decoder, which makes transformers ignore them."""
    _, auto = directories[name]
    bare = auto_tokenizer(build_directory(tmp_path, name, without=LEGACY))
    texts = token_texts(auto)
    same = [auto(t)["input_ids"] for t in texts] == [bare(t)["input_ids"] for t in texts]
    assert same == (name == "roberta-decoder-wins")


def test_python_tokenizer_keeps_ids_hfcompat_warns(tmp_path: Path) -> None:
    """A Python tokenizer keeps added_tokens.json's ids, holes and all; hfcompat gives the next free id and
    says so."""
    directory = write_directory(tmp_path / "byt5-holes", {}, {
        "tokenizer_config.json": {"tokenizer_class": "ByT5Tokenizer", "extra_ids": 0},
        "added_tokens.json": {"<new>": 400}})
    auto = auto_tokenizer(directory)
    ours, messages = load_quietly(directory)
    assert auto.convert_tokens_to_ids("<new>") == 400
    assert ours.token_to_id("<new>") == 259
    assert any("keeps the ids" in message and "'<new>': 400 there, 259 here" in message for message in messages)


def test_dict_role_without_type_fails_auto_but_loads(tmp_path: Path) -> None:
    """A role given as a dict without __type: transformers refuses it (TypeError); hfcompat, never stricter,
    takes its content and flags."""
    directory = build_directory(tmp_path, "roberta-json-model-type-only")
    config = {"tokenizer_class": "RobertaTokenizer", "pad_token": {"content": "<pad>", "rstrip": True}}
    (directory / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    with pytest.raises(TypeError):
        auto_tokenizer(directory)
    ours, _ = load_quietly(directory)
    assert ours.token_to_id("<pad>") == 1


def test_only_slow_files_and_a_map_load_where_auto_cannot(tmp_path: Path) -> None:
    """vocab.txt + special_tokens_map.json, no config: AutoTokenizer finds no class and fails; hfcompat builds
    BERT's pipeline with the map's tokens."""
    directory = write_directory(tmp_path / "bert-map-only", BERT,
                                {"special_tokens_map.json": {"additional_special_tokens": ["<new>"]}})
    with pytest.raises(Exception):  # noqa: B017 - transformers' own error (a ValueError today)
        auto_tokenizer(directory)
    ours, _ = load_quietly(directory)
    assert ours.encode("hello <new>").tokens == ["[CLS]", "hello", "<new>", "[SEP]"]


@pytest.mark.parametrize("config, expected", [
    ({}, {"additional_special_tokens": ["<a>"]}),
    ({"additional_special_tokens": ["<c>"]}, {"additional_special_tokens": ["<c>", "<b>"]}),
    ({"extra_special_tokens": [], "additional_special_tokens": ["<c>"]},
     {"extra_special_tokens": [], "additional_special_tokens": ["<c>", "<b>"]}),
])
def test_extra_special_tokens_of_the_map(config: dict, expected: dict) -> None:
    """The map's extra_special_tokens extend the config's extras (an empty extra list yields to the additional
    list, as transformers renames it); its additional_special_tokens count only when the config names none."""
    special_map = {"additional_special_tokens": ["<a>"], "extra_special_tokens": ["<b>"]} if config else \
        {"additional_special_tokens": ["<a>"]}
    merged = with_legacy_files(config, special_map, None, None, SPECIAL_ROLES)
    assert {k: v for k, v in merged.items() if k.endswith("special_tokens")} == expected
