"""Truncation of transformers' Python classes (PythonBackend.truncate_sequences): hfcompat.load(dir) with
enable_truncation against AutoTokenizer(text, pair, truncation=..., max_length=...) on every strategy, side and
length, singles and pairs, with and without special tokens.

transformers removes the tokens over max_length at once: longest_first takes the difference from the longer
sequence and halves the rest, the odd token from the second (tokenizers takes it from the shorter one, the first on
a tie); only_first and only_second cut their sequence down to nothing rather than raise. A pair whose second text
is empty is left out: transformers encodes the first text alone there.
"""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

import hfcompat
from tests.conftest import shared_dir

from .auto_harness import auto_tokenizer

pytestmark = pytest.mark.conformance

TEXTS = ["a", "Hello world", "This is a much longer sentence here.", "mid length text"]
STRATEGIES = ("longest_first", "only_first", "only_second")
LENGTHS = (2, 3, 5, 8, 11, 12, 15)


def class_directory(root: Path, name: str) -> Path:
    """A directory of a Python class: ByT5 (no file) or BertGeneration over ALBERT's SentencePiece model."""
    directory = root / name
    directory.mkdir()
    if name == "BertGenerationTokenizer":
        shutil.copy(shared_dir() / "refs" / "albert" / "spiece.model", directory / "spiece.model")
    (directory / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": name}), encoding="utf-8")
    return directory


def outcome(call: Any) -> list[int] | str:
    """The ids a call returns, or the name of the error it raises."""
    try:
        return call()
    except Exception as error:  # both libraries' errors are compared by kind only where ids are expected
        return type(error).__name__


@pytest.mark.parametrize("name", ["ByT5Tokenizer", "BertGenerationTokenizer"])
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_python_class_truncates_as_transformers(tmp_path: Path, backend: str, name: str, strategy: str) -> None:
    """Every side, length, single and pair (special tokens on and off): the ids AutoTokenizer gives."""
    directory = class_directory(tmp_path, name)
    auto, ours = auto_tokenizer(directory), hfcompat.load(directory)
    differing = []
    for side, max_length in itertools.product(("right", "left"), LENGTHS):
        auto.truncation_side = side
        ours.enable_truncation(max_length, strategy=strategy, direction=side)
        for first, second, special in itertools.product(TEXTS, [*TEXTS, None], (True, False)):
            expected = outcome(lambda: auto(first, second, truncation=strategy, max_length=max_length,
                                            add_special_tokens=special)["input_ids"])
            actual = outcome(lambda: ours.encode(first, second, add_special_tokens=special).ids)
            if expected != actual:
                differing.append((side, max_length, first, second, special, expected, actual))
    assert differing == [], f"{len(differing)} differ, e.g. {differing[:3]}"


def test_the_odd_token_goes_where_transformers_puts_it(tmp_path: Path) -> None:
    """Two equally long sequences and an odd budget: transformers keeps the odd token in the first, tokenizers
    (and hfcompat for a tokenizers-backed class) in the second."""
    directory = class_directory(tmp_path, "ByT5Tokenizer")
    ours = hfcompat.load(directory)
    ours.enable_truncation(7, strategy="longest_first")
    encoding = ours.encode("abcdef", "uvwxyz", add_special_tokens=False)
    assert encoding.ids == auto_tokenizer(directory)("abcdef", "uvwxyz", truncation="longest_first", max_length=7,
                                                     add_special_tokens=False)["input_ids"]
    assert encoding.ids == [ord(char) + 3 for char in "abcd" + "uvw"]  # ByT5: byte b is id b + 3
