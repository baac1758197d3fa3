"""Random Unicode through transformers directories: hfcompat and AutoTokenizer agree on each text.

Three directories: one hfcompat wrote (save_pretrained of RoBERTa), and two whose class rebuilds
the pipeline (BertTokenizer over a vocab.txt, T5Tokenizer over a tokenizer.json) read by
hfcompat.formats.load. Texts come from the conformance suite's strategy (whitespace kinds, marks,
digits, special-token look-alikes, the fixture's characters).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given

import hfcompat
from tests.conformance.test_hypothesis import texts
from tests.conftest import shared_dir

from .auto_harness import CALL, auto_tokenizer, outcome
from .directories import json_directory, slow_directory

pytestmark = pytest.mark.conformance


@pytest.fixture(scope="module")
def directories(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Any, Any]]:
    """name -> (AutoTokenizer, hfcompat tokenizer) on the same directory."""
    refs = shared_dir() / "refs"
    root = tmp_path_factory.mktemp("auto")
    saved = root / "roberta"
    hfcompat.load(refs / "roberta-base" / "tokenizer.json").save_pretrained(saved)
    built = {"roberta-saved": saved, "bert-slow": slow_directory(refs, "bert-cased", root / "bert"),
             "t5-class": json_directory(refs, "t5", root / "t5")}
    return {name: (auto_tokenizer(path), hfcompat.load(path)) for name, path in built.items()}


def auto_fields(auto: Any, text: str) -> tuple[list[int], list[tuple[int, int]]]:
    """transformers' ids and offsets of one text, with special tokens."""
    result = auto(text, **CALL)
    return list(result["input_ids"]), [tuple(o) for o in result["offset_mapping"]]


def our_fields(ours: Any, text: str) -> tuple[list[int], list[tuple[int, int]]]:
    """hfcompat's ids and offsets of one text, with special tokens."""
    encoding = ours.encode(text)
    return list(encoding.ids), [tuple(o) for o in encoding.offsets]


@pytest.mark.parametrize("name", ["roberta-saved", "bert-slow", "t5-class"])
@given(text=texts)
def test_random_text(directories: dict[str, tuple[Any, Any]], name: str, text: str) -> None:
    """ids, offsets and decode(ids) agree with AutoTokenizer on the same directory."""
    auto, ours = directories[name]
    expected = outcome(auto_fields, auto, text)
    assert outcome(our_fields, ours, text) == expected
    if expected[0] == "raises":
        return
    ids = expected[0]
    for skip in (False, True):
        assert ours.decode(ids, skip_special_tokens=skip) == auto.decode(ids, skip_special_tokens=skip)
