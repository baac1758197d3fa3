"""hfcompat against transformers.AutoTokenizer: ids, attention mask, type ids, offsets, decoded text.

The same requests go to both sides: singles, pairs and batches, with and without special tokens,
with truncation and with padding; hfcompat's own saved truncation/padding is switched off for the
plain requests, as transformers does for a call that asks for neither.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
transformers = pytest.importorskip("transformers", reason="transformers is not installed (test extra)")

REPORT_LIMIT = 5
TRUNCATE_TO = 12


def auto_tokenizer(directory: Path, **options: Any) -> Any:
    """transformers.AutoTokenizer.from_pretrained on a local directory, offline."""
    return transformers.AutoTokenizer.from_pretrained(str(directory), local_files_only=True, **options)


@dataclass
class Tally:
    """Counts of compared requests and the first differences."""

    label: str
    compared: int = 0
    differences: list[str] = field(default_factory=list)

    def check(self, what: str, expected: Any, actual: Any) -> None:
        """Count one comparison; remember it when the values differ."""
        self.compared += 1
        if expected != actual:
            self.differences.append(f"{what}:\n    transformers {expected!r}\n    hfcompat     {actual!r}")

    def assert_clean(self) -> None:
        """Fail with the first differences."""
        if self.differences:
            shown = "\n  ".join(d[:700] for d in self.differences[:REPORT_LIMIT])
            pytest.fail(f"{self.label}: {len(self.differences)}/{self.compared} differ\n  {shown}")


def _auto_fields(result: Any, index: int | None = None) -> dict[str, Any]:
    """input_ids, attention_mask, token_type_ids and offsets of one transformers result."""
    def get(name: str) -> Any:
        value = result.get(name)
        if value is None:
            return None
        return value if index is None else value[index]

    offsets = get("offset_mapping")
    return {"ids": list(get("input_ids")), "attention_mask": list(get("attention_mask")),
            "type_ids": None if get("token_type_ids") is None else list(get("token_type_ids")),
            "offsets": [tuple(o) for o in offsets]}


def _our_fields(encoding: Any, with_type_ids: bool) -> dict[str, Any]:
    """The same fields of an hfcompat Encoding."""
    return {"ids": list(encoding.ids), "attention_mask": list(encoding.attention_mask),
            "type_ids": list(encoding.type_ids) if with_type_ids else None,
            "offsets": [tuple(o) for o in encoding.offsets]}


CALL = {"return_offsets_mapping": True, "return_attention_mask": True, "return_token_type_ids": True}


def compare_auto(auto: Any, ours: Any, texts: Sequence[str], label: str) -> Tally:
    """Singles, pairs, decodes, truncation and a padded batch; returns the tally (not asserted)."""
    tally = Tally(label)
    ours.no_truncation()
    ours.no_padding()
    pairs = list(zip(texts, texts[1:]))
    for special in (True, False):
        for text in texts:
            _compare_one(tally, auto, ours, (text,), special)
        for pair in pairs[: len(pairs) // 2]:
            _compare_one(tally, auto, ours, pair, special)
    _compare_truncated(tally, auto, ours, texts, pairs)
    _compare_padded_batch(tally, auto, ours, texts)
    return tally


def outcome(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """fn(...), or ("raises", message) when it raises: both sides must fail alike."""
    try:
        return fn(*args, **kwargs)
    except Exception as error:  # noqa: BLE001 - an error is a result to compare
        return ("raises", str(error))


def _compare_one(tally: Tally, auto: Any, ours: Any, item: tuple, special: bool) -> None:
    """One single or pair: every field, then both decodes of the ids."""
    expected = outcome(lambda: _auto_fields(auto(*item, add_special_tokens=special, **CALL)))
    actual = outcome(lambda: _our_fields(ours.encode(*item, add_special_tokens=special), True))
    tally.check(f"encode{item!r} special={special}", expected, actual)
    if isinstance(expected, tuple):
        return
    for skip in (False, True):
        tally.check(f"decode({expected['ids']}, skip_special_tokens={skip}) of {item!r}",
                    auto.decode(expected["ids"], skip_special_tokens=skip),
                    ours.decode(expected["ids"], skip_special_tokens=skip))


def _compare_truncated(tally: Tally, auto: Any, ours: Any, texts: Sequence[str], pairs: list) -> None:
    """truncation=True, max_length=TRUNCATE_TO (longest_first, right) on singles and pairs."""
    ours.enable_truncation(TRUNCATE_TO)
    try:
        for item in [(t,) for t in texts[:20]] + pairs[:20]:
            expected = outcome(lambda: _auto_fields(auto(*item, truncation=True, max_length=TRUNCATE_TO,
                                                         **CALL)))
            actual = outcome(lambda: _our_fields(ours.encode(*item), True))
            tally.check(f"truncated encode{item!r}", expected, actual)
    finally:
        ours.no_truncation()


def _compare_padded_batch(tally: Tally, auto: Any, ours: Any, texts: Sequence[str]) -> None:
    """A batch padded to its longest member with the tokenizer's pad token (or its eos/unk)."""
    pad = auto.pad_token or auto.eos_token or auto.unk_token
    if pad is None:
        return
    if auto.pad_token is None:
        auto.pad_token = pad
    batch = list(texts[:16])
    expected = outcome(auto, batch, padding=True, **CALL)
    ours.enable_padding(direction=auto.padding_side, pad_id=auto.pad_token_id, pad_token=pad)
    try:
        encodings = outcome(ours.encode_batch, batch)
    finally:
        ours.no_padding()
    if isinstance(expected, tuple) or isinstance(encodings, tuple):
        tally.check(f"padded batch {batch!r}", expected, encodings)
        return
    for index, text in enumerate(batch):
        tally.check(f"padded batch [{index}] {text!r}", _auto_fields(expected, index),
                    _our_fields(encodings[index], True))
