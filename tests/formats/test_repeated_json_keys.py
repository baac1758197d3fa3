"""A key repeated in one object of a tokenizer.json: hfcompat refuses it where `tokenizers` refuses
it, and elsewhere keeps the last value as `tokenizers` does (hfcompat/formats/repeated_keys.py).

Every key of every object of small real files, and of one carrying a component of each kind, is
repeated in turn; `tokenizers` and hfcompat must both refuse the document or both load it and
encode alike.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

import pytest

from hfcompat.errors import FormatError
from hfcompat.formats.tokenizer_json import tokenizer_from_json
from hfcompat.tools.lint import lint

from conftest import corpus_sample
from owner_outcomes import PROBES, SHARED, bert_json, gpt2_json, t5_json, wordlevel_json

tokenizers = pytest.importorskip("tokenizers")

Path_ = tuple[Any, ...]
BYTE_LEVEL = {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True}
TEMPLATE = {"type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": "<|endoftext|>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
            "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}],
            "special_tokens": {"<|endoftext|>": {"id": "<|endoftext|>", "ids": [50256], "tokens": ["<|endoftext|>"]}}}
# Components put into the cut GPT-2 file, one document each: (section, component)
COMPONENTS: list[tuple[str, Any]] = [
    ("normalizer", {"type": "Sequence", "normalizers": [
        {"type": "NFC"}, {"type": "Replace", "pattern": {"String": "a"}, "content": "b"}, {"type": "Prepend", "prepend": "x"},
        {"type": "Strip", "strip_left": True, "strip_right": False},
        {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True, "strip_accents": None,
         "lowercase": True}]}),
    ("pre_tokenizer", {"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": "\\s+"}, "behavior": "Isolated", "invert": False},
        {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": True},
        {"type": "Digits", "individual_digits": True}, {"type": "Punctuation", "behavior": "Isolated"},
        {"type": "CharDelimiterSplit", "delimiter": "x"}]}),
    ("post_processor", TEMPLATE),
    ("post_processor", {"type": "Sequence", "processors": [BYTE_LEVEL, TEMPLATE]}),
    ("post_processor", {"type": "RobertaProcessing", "sep": ["<|endoftext|>", 50256], "cls": ["<|endoftext|>", 50256],
                        "trim_offsets": True, "add_prefix_space": True}),
    ("post_processor", {"type": "BertProcessing", "sep": ["<|endoftext|>", 50256], "cls": ["<|endoftext|>", 50256]}),
    ("decoder", {"type": "Sequence", "decoders": [
        {"type": "Replace", "pattern": {"String": "▁"}, "content": " "}, {"type": "ByteFallback"}, {"type": "Fuse"},
        {"type": "Strip", "content": " ", "start": 1, "stop": 0}, {"type": "WordPiece", "prefix": "##", "cleanup": True},
        {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": True}]}),
    ("truncation", {"direction": "Right", "max_length": 5, "strategy": "LongestFirst", "stride": 0}),
    ("padding", {"strategy": {"Fixed": 8}, "direction": "Right", "pad_to_multiple_of": None, "pad_id": 0,
                 "pad_type_id": 0, "pad_token": "!"}),
]


@lru_cache(maxsize=None)
def documents() -> dict[str, Any]:
    """The base documents: small real files, and the cut GPT-2 file with each component above."""
    docs = {name: json.loads(load()) for name, load in
            (("gpt2", gpt2_json), ("t5", t5_json), ("bert", bert_json), ("wordlevel", wordlevel_json))}
    t5 = docs["t5"]
    docs["t5 typed Unigram"] = {**t5, "model": {"type": "Unigram", **t5["model"]}}
    docs["t5 Precompiled in a Sequence"] = {**t5, "normalizer": {"type": "Sequence", "normalizers": [t5["normalizer"]]}}
    for index, (section, component) in enumerate(COMPONENTS):
        docs[f"gpt2 + {section} {index}"] = {**docs["gpt2"], section: component}
    return docs


def object_paths(value: Any, path: Path_ = ()) -> Iterator[Path_]:
    """The path of every non-empty object (a vocab's entries not descended into, lists' first two items)."""
    if isinstance(value, dict):
        if value:
            yield path
        if path[-1:] != ("vocab",):
            for key, item in value.items():
                yield from object_paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:2]):
            yield from object_paths(item, (*path, index))


def with_repeat(value: Any, target: Path_, position: int, path: Path_ = ()) -> str:
    """`value` as JSON text, the key at `position` of the object at `target` written twice."""
    if isinstance(value, dict):
        items = [json.dumps(key, ensure_ascii=False) + ":" + with_repeat(item, target, position, (*path, key))
                 for key, item in value.items()]
        if path == target:
            items.insert(position + 1, items[position])
        return "{" + ",".join(items) + "}"
    if isinstance(value, list):
        return "[" + ",".join(with_repeat(item, target, position, (*path, i)) for i, item in enumerate(value)) + "]"
    return json.dumps(value, ensure_ascii=False)


def at(value: Any, path: Path_) -> Any:
    """The item at `path`."""
    for key in path:
        value = value[key]
    return value


def cases() -> list[tuple[str, Path_, int]]:
    """(document, object path, key position) for every key of every object (one vocab key)."""
    if not SHARED.exists():
        return []
    found = []
    for name, doc in documents().items():
        for path in object_paths(doc):
            keys = list(at(doc, path))
            found += [(name, path, position) for position in range(1 if path[-1:] == ("vocab",) else len(keys))]
    return found


def outcome_of(load: Any, text: str, texts: list[str]) -> tuple[str, Any]:
    """("refused", message) or ("loaded", ids of each text)."""
    try:
        tokenizer = load(text)
    except Exception as error:  # noqa: BLE001 - tokenizers raises plain Exceptions
        return "refused", str(error)
    return "loaded", [tokenizer.encode(t).ids for t in texts]


def test_repeats_are_probed() -> None:
    """The matrix covers both outcomes (hundreds of keys)."""
    if not SHARED.exists():
        pytest.skip("../shared is absent")
    assert len(cases()) > 300


@pytest.mark.parametrize("name, path, position", cases(),
                         ids=[f"{n} {'.'.join(map(str, p)) or 'top'} #{i}" for n, p, i in cases()])
def test_a_repeated_key_is_read_as_tokenizers_reads_it(name: str, path: Path_, position: int) -> None:
    """Both refuse the document, or both load it and encode alike."""
    text = with_repeat(documents()[name], path, position)
    texts = [*PROBES, *corpus_sample("botchan", 5)]
    owner = outcome_of(tokenizers.Tokenizer.from_str, text, texts)
    ours = outcome_of(tokenizer_from_json, text, texts)
    assert owner[0] == ours[0], f"tokenizers {owner[0]}, hfcompat {ours[0]}: {ours[1]!s:.200}"
    if ours[0] == "loaded":
        assert ours[1] == owner[1]


@pytest.mark.parametrize("edit, probe", [
    (('"normalizer": null', '"normalizer": {"type": "Prepend", "prepend": "A", "prepend": "B"}'), "x"),
    (('"normalizer": null', '"normalizer": {"type": "Lowercase"}, "normalizer": null'), "ABC"),
    (('"vocab": {"!": 0,', '"vocab": {"!": 0, "!": 5000,'), "!!"),
    (('"add_prefix_space": false', '"add_prefix_space": true, "add_prefix_space": false'), "a b"),
])
def test_the_last_value_counts(edit: tuple[str, str], probe: str, tmp_path: Path) -> None:
    """Where tokenizers keeps a repeated key, the last value counts, in both; `lint` reports it."""
    if not SHARED.exists():
        pytest.skip("../shared is absent")
    text = json.dumps(documents()["gpt2"], ensure_ascii=False)
    assert edit[0] in text
    text = text.replace(*edit, 1)
    owner, ours = tokenizers.Tokenizer.from_str(text), tokenizer_from_json(text)
    assert ours.encode(probe).ids == owner.encode(probe).ids
    assert ours.token_to_id("!") == owner.token_to_id("!")
    path = tmp_path / "tokenizer.json"
    path.write_text(text, encoding="utf-8")
    assert [f.count for f in lint(path) if f.code == "repeated-json-key"] == [1]


def test_a_refused_repeat_names_the_object() -> None:
    """A repeat tokenizers refuses is a FormatError naming the object; strict=False keeps the last."""
    if not SHARED.exists():
        pytest.skip("../shared is absent")
    text = with_repeat(documents()["gpt2"], ("added_tokens", 0), 0)
    with pytest.raises(FormatError, match="duplicate field") as raised:
        tokenizer_from_json(text)
    assert raised.value.field == "added_tokens[0]"
    assert tokenizer_from_json(text, strict=False).token_to_id("<|endoftext|>") is not None
