"""hfcompat.collector: a load pauses the cyclic collector and leaves it as it found it."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

import hfcompat
from hfcompat.collector import LONG_TEXT, paused_for, paused_while_loading
from hfcompat.errors import FormatError

SMALL = ('{"version": "1.0", "added_tokens": [], "normalizer": null, "pre_tokenizer": null, '
         '"post_processor": null, "decoder": null, "model": {"type": "WordLevel", '
         '"vocab": {"a": 0, "[UNK]": 1}, "unk_token": "[UNK]"}}')


def test_the_collector_is_off_during_a_load_and_on_after() -> None:
    """Inside, the collector is off; after, on again, also when the load fails."""
    assert gc.isenabled()
    with paused_while_loading():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ValueError), paused_while_loading():
        raise ValueError("a reader failed")
    assert gc.isenabled()


def test_a_load_inside_a_load_leaves_it_to_the_outer_one() -> None:
    """The inner load does not turn the collector on under the outer one."""
    with paused_while_loading():
        with paused_while_loading():
            pass
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_caller_who_turned_it_off_finds_it_off(tmp_path: Path) -> None:
    """A load, good or bad, keeps the caller's choice."""
    path = tmp_path / "tokenizer.json"
    path.write_text(SMALL, encoding="utf-8")
    gc.disable()
    try:
        assert hfcompat.load(path).encode("a").ids == [0]
        assert not gc.isenabled()
    finally:
        gc.enable()
    path.write_text(SMALL.replace('"a": 0', '"a": "zero"'), encoding="utf-8")
    with pytest.raises(FormatError):
        hfcompat.load(path)
    assert gc.isenabled()
    assert hfcompat.Tokenizer.from_str(SMALL).encode("a").ids == [0]
    assert gc.isenabled()


def test_a_long_text_pauses_the_collector_and_a_short_one_does_not() -> None:
    """paused_for pauses it for texts over LONG_TEXT chars in all, and says so; not when the
    caller turned it off, and not for short texts (nor for what is not text)."""
    assert not paused_for("short", None, 12345) and gc.isenabled()
    try:
        assert paused_for("x" * LONG_TEXT, "y") and not gc.isenabled()
    finally:
        gc.enable()
    gc.disable()
    try:
        assert not paused_for("x" * (LONG_TEXT + 1))
    finally:
        gc.enable()


def test_encoding_a_long_text_leaves_the_collector_on(tmp_path: Path) -> None:
    """The collector is on after a long text is encoded, and after such an encode fails."""
    path = tmp_path / "tokenizer.json"
    path.write_text(SMALL, encoding="utf-8")
    tokenizer = hfcompat.load(path)
    long_text = "a" * (LONG_TEXT + 1)
    assert len(tokenizer.encode(long_text).ids) == 1 and gc.isenabled()
    with pytest.raises(TypeError):
        tokenizer.encode(long_text, 12345)
    assert gc.isenabled()
