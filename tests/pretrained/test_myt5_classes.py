"""transformers' MyT5Tokenizer: hfcompat.load(dir) against AutoTokenizer on directories of the byte_maps.json it
reads, made here.

The maps are small but do what MyT5's do: the decompose map splits kana with a voicing mark into the kana and
the combining mark (が -> か + ゙) and "é" into "e" + U+0301; the merge map joins frequent byte runs (の, 。,
"the ", the combining marks) into one byte no UTF-8 text holds, joins か + ゙ back, and has rules sharing a
prefix (longest match) and two rules writing the same output (the later one wins when decode reverses them).
Directories: the made-up one, transformers' own save_pretrained of it (extra_special_tokens, extra_ids 0), and
one with other roles, extra_ids and clean-up. transformers runs MyT5 as a Python tokenizer (no .tokens()), so token
strings come from convert_ids_to_tokens. Compared per text: ids, tokens, decode with skip_special_tokens both
ways; pairs: ids and type ids.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

import hfcompat
from hfcompat.errors import FormatError, TokenizationError, UnsupportedConversion
from hfcompat.formats.transformers import classes, own_files
from hfcompat.formats.transformers.myt5 import CLASSES
from tests.conformance.test_hypothesis import texts
from tests.conftest import corpus_sample, fixture_lines

from .auto_harness import auto_tokenizer
from .test_byte_classes import both_loaded, differences, expected_and_actual

pytestmark = [pytest.mark.conformance, pytest.mark.filterwarnings("ignore:This sequence already has")]


def hex_of(text: str) -> str:
    """The text's UTF-8 bytes as byte_maps.json writes them ("e3 81 8c")."""
    return " ".join(f"{byte:02x}" for byte in text.encode("utf-8"))


DECOMPOSE = {hex_of("が"): hex_of("か") + " e3 82 99", hex_of("ざ"): hex_of("さ") + " e3 82 99",
             hex_of("で"): hex_of("て") + " e3 82 99", hex_of("é"): "65 cc 81", hex_of("ü"): "75 cc 88"}
MERGE = {hex_of("の"): "f5", hex_of("。"): "f6", hex_of("the "): "f7", "e3 82 99": "f8", "cc 81": "f9",
         hex_of("か") + " e3 82 99": "fa", hex_of("か"): "fb", "cc 88": "f9", hex_of("ab"): "7a"}
BYTE_MAPS = {"decompose_map": DECOMPOSE, "merge_map": MERGE}
# Made-up directories: kind -> tokenizer_config.json options.
MADE: dict[str, dict[str, Any]] = {
    "myt5": {},
    "myt5-roles": {"eos_token": "<eos>", "pad_token": "[PAD]", "extra_ids": 3, "clean_up_tokenization_spaces": True},
}
ALL_KINDS = [*MADE, "myt5-saved"]


def write_directory(path: Path, config: dict[str, Any], maps: Any = None) -> Path:
    """byte_maps.json (BYTE_MAPS unless given) and a tokenizer_config.json naming MyT5Tokenizer."""
    path.mkdir()
    (path / "byte_maps.json").write_text(json.dumps(BYTE_MAPS if maps is None else maps), encoding="utf-8")
    (path / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": "MyT5Tokenizer", **config}),
                                                encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def directories(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every directory compared, by kind."""
    root = tmp_path_factory.mktemp("myt5")
    found = {kind: write_directory(root / kind, config) for kind, config in MADE.items()}
    auto_tokenizer(found["myt5"]).save_pretrained(str(root / "myt5-saved"))
    return {**found, "myt5-saved": root / "myt5-saved"}


@pytest.fixture(scope="module")
def loaded(directories: dict[str, Path]) -> dict[str, tuple[Any, Any]]:
    """kind -> (AutoTokenizer, hfcompat tokenizer) of the same directory."""
    return both_loaded(directories)


def lines_for(auto: Any) -> list[str]:
    """Corpus lines (English, Japanese, Chinese), the fixture, texts the maps rewrite, and lines holding each
    special token."""
    try:
        corpus = corpus_sample("botchan", 10) + corpus_sample("wagahaiwa", 10) + corpus_sample("pku_test", 5)
    except pytest.skip.Exception:
        corpus = []
    specials = [token for token in auto.all_special_tokens if token][:6]
    rewritten = ["がざでか゛か\u3099が。の the café Müller aab zz", "the the theの。。\u0301e\u0301 ü\u0308",
                 "でした。 abab z ab\u3099 か", "It 's ok , he said . Isn 't it ? n 't"]
    return corpus + list(fixture_lines()) + rewritten + \
        [f"Hello {token}world{token} x  {token} " for token in specials] + \
        [f"{specials[0]}が{specials[-1]}", f"か{specials[1]}\u3099 é\n", "\n", " ", ""]


def test_the_class_is_built_and_checked() -> None:
    """MyT5Tokenizer is registered, no longer NOT_BUILT, and has its directories here."""
    assert set(CLASSES) <= set(own_files.OWN_FILES_CLASSES)
    assert not set(CLASSES) & set(classes.NOT_BUILT)


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_class_matches_auto(loaded: dict, backend: str, kind: str) -> None:
    """Corpus lines, rewritten texts, lines holding each special token, and pairs agree."""
    auto, ours = loaded[kind]
    lines = lines_for(auto)
    pairs = list(zip(lines[:4], lines[-8:-4]))
    differing = differences(auto, ours, lines, pairs)
    assert differing == [], f"{kind}: {len(differing)}/{len(lines) + len(pairs)} differ: {differing[:3]}"


def test_the_maps_rewrite_and_decode_reverses_them(loaded: dict) -> None:
    """が becomes the one merged token of か + ゙, "the " one token, and decode gives the text back (the later of
    two merge rules sharing an output undoes it: U+0308's bytes, where U+0301's went in)."""
    auto, ours = loaded["myt5"]
    text = "がthe の\u0301"
    ids = ours.encode(text, add_special_tokens=False).ids
    assert ids == auto(text, add_special_tokens=False)["input_ids"] == [0xFA + 3, 0xF7 + 3, 0xF5 + 3, 0xF9 + 3]
    assert ours.decode(ids) == auto.decode(ids) == "がthe の\u0308"


def test_loading_warns_of_nothing(directories: dict) -> None:
    """A MyT5 directory, clean-up on or off, loads without a warning."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        hfcompat.load(directories["myt5"])
        hfcompat.load(directories["myt5-roles"])
    assert [str(w.message) for w in caught] == []


@settings(max_examples=80, deadline=None)
@given(text=texts)
def test_random_text(loaded: dict, text: str) -> None:
    """Random Unicode: ids, tokens and both decodes agree."""
    expected, actual = expected_and_actual(*loaded["myt5"], text)
    assert actual == expected


def test_saving_as_tokenizer_json_is_refused(loaded: dict, tmp_path: Path) -> None:
    """No tokenizer.json holds the byte rewriting: saving names the component instead of writing a file."""
    with pytest.raises(UnsupportedConversion, match="^(model|decoder|post_processor): "):
        loaded["myt5"][1].save(tmp_path / "tokenizer.json")
    assert not (tmp_path / "tokenizer.json").exists()


def test_a_rule_writing_no_byte_token_fails_as_in_transformers(tmp_path: Path) -> None:
    """A merge output that is not two hex digits has no id in transformers (None, which its encode refuses);
    hfcompat raises TokenizationError there and encodes the other texts alike."""
    path = write_directory(tmp_path / "odd", {}, {"decompose_map": {}, "merge_map": {"61": "abc"}})
    auto, ours = auto_tokenizer(path), hfcompat.load(path)
    assert auto("bc")["input_ids"] == ours.encode("bc").ids
    with pytest.raises(Exception):
        auto("a")
    with pytest.raises(TokenizationError, match="'abc'"):
        ours.encode("a")


@pytest.mark.parametrize(("content", "message"), [
    (None, "byte_maps.json: the class reads this file and it is missing"),
    ("{", "byte_maps.json: not valid JSON"),
    ('{"decompose_map": {}}', "byte_maps.json: expected 'merge_map'"),
])
def test_damaged_byte_maps_are_refused_as_transformers_refuses_them(tmp_path: Path, content: str | None,
                                                                   message: str) -> None:
    """A missing or damaged byte_maps.json: AutoTokenizer fails to load the directory, hfcompat raises a
    FormatError naming the file and what is wrong."""
    path = write_directory(tmp_path / "damaged", {})
    if content is None:
        (path / "byte_maps.json").unlink()
    else:
        (path / "byte_maps.json").write_text(content, encoding="utf-8")
    with pytest.raises(Exception):
        auto_tokenizer(path)
    with pytest.raises(FormatError, match=message):
        hfcompat.load(path)
