"""Comparison helpers for the conformance suite: hfcompat against `tokenizers`, field by field.

The oracle side goes through `encode_batch` (fast, TOKENIZERS_PARALLELISM=false) unless it pads
to the longest of a batch; the side under test goes through `encode` one input at a time, so a
failure names its input. `compare_batch` checks the batch API itself.

Setting HFCOMPAT_CONFORMANCE_SUBJECT=oracle replaces hfcompat by `tokenizers` itself. That mode
only proves the harness and the oracles agree with themselves (and times the suite); it is never
evidence of parity.
"""

from __future__ import annotations

import importlib
import json
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Iterable, Sequence

import pytest
import tokenizers
from tokenizers.implementations import BertWordPieceTokenizer

import hfcompat

FIELDS = ("ids", "tokens", "offsets", "type_ids", "attention_mask", "special_tokens_mask", "word_ids")
REPORT_LIMIT = 5  # differing inputs shown in a report
FIELDS_PER_INPUT = 3  # differing fields shown per input
OVERFLOW_ENDS = 8  # overflowing parts compared at each end of the list
TEXT_PREVIEW = 160

# ---------------------------------------------------------------- what is under test


def oracle_component(section: str, d: dict) -> Any:
    """tokenizers' normalizer or pre-tokenizer for a JSON dict, read through a minimal tokenizer.json."""
    skeleton = {"version": "1.0", "model": {"type": "WordLevel", "vocab": {"x": 0}, "unk_token": "x"}}
    skeleton[section] = d
    return getattr(tokenizers.Tokenizer.from_str(json.dumps(skeleton)), section)


def _oracle_load(path: str | os.PathLike, lowercase: bool = True) -> tokenizers.Tokenizer:
    """hfcompat.load's contract served by the oracle builders (self-check mode)."""
    path = Path(path)
    if path.is_dir():
        path = path / "tokenizer.json"
    if path.name == "vocab.txt":
        return bert_vocab_oracle(path, lowercase)
    if path.name == "vocab.json":
        return gpt2_vocab_oracle(path.parent / "tokenizer.json")
    return tokenizers.Tokenizer.from_file(str(path))


ORACLE_SUBJECT = SimpleNamespace(
    load=_oracle_load,
    Tokenizer=tokenizers.Tokenizer,
    normalizers=SimpleNamespace(from_dict=lambda d: oracle_component("normalizer", d)),
    pre_tokenizers=SimpleNamespace(from_dict=lambda d: oracle_component("pre_tokenizer", d)),
)


def subject() -> Any:
    """The library under test: hfcompat, or tokenizers itself in self-check mode."""
    if os.environ.get("HFCOMPAT_CONFORMANCE_SUBJECT") == "oracle":
        return ORACLE_SUBJECT
    import hfcompat  # here, so that a broken hfcompat fails tests one by one, not collection

    return hfcompat


def subject_module(name: str) -> Any:
    """A component module of the library under test: "normalizers" or "pre_tokenizers"."""
    if os.environ.get("HFCOMPAT_CONFORMANCE_SUBJECT") == "oracle":
        return getattr(ORACLE_SUBJECT, name)
    return importlib.import_module(f"hfcompat.{name}")


# ---------------------------------------------------------------- reference tokenizers


@dataclass(frozen=True)
class RefSpec:
    """One real tokenizer of ../shared/refs and how the official stack loads it."""

    name: str
    path: str  # relative to ../shared/refs
    kind: str  # "json" | "bert-vocab" | "gpt2-vocab"
    lowercase: bool = True


JSON_REFS = [
    RefSpec(name, f"{name}/tokenizer.json", "json")
    for name in ("gpt2", "roberta-base", "clip", "t5", "phi-2", "phi-3-mini", "falcon", "whisper-large-v3")
]
VOCAB_REFS = [
    RefSpec("bert-base-uncased", "bert-base-uncased/vocab.txt", "bert-vocab", lowercase=True),
    RefSpec("bert-base-cased", "bert-base-cased/vocab.txt", "bert-vocab", lowercase=False),
    # The hub config of bert-base-chinese says do_lower_case=False, but a bare vocab.txt gets
    # BertTokenizer's default (lowercase): this entry is the one that covers load()'s default.
    RefSpec("bert-base-chinese", "bert-base-chinese/vocab.txt", "bert-vocab", lowercase=True),
    RefSpec(
        "bert-base-multilingual-cased", "bert-base-multilingual-cased/vocab.txt", "bert-vocab", lowercase=False
    ),
    RefSpec("gpt2-vocab-json", "gpt2/vocab.json", "gpt2-vocab"),
]
REFS = {spec.name: spec for spec in JSON_REFS + VOCAB_REFS}


def bert_vocab_oracle(vocab: Path, lowercase: bool) -> tokenizers.Tokenizer:
    """The pipeline transformers' BertTokenizer builds for a vocab.txt.

    BertNormalizer(clean_text=True, handle_chinese_chars=True, strip_accents=None, lowercase),
    BertPreTokenizer, WordPiece("[UNK]", "##"), [CLS] $A [SEP] / [CLS] $A [SEP] $B:1 [SEP]:1, the
    five specials as special added tokens, WordPiece decoder: BertWordPieceTokenizer's defaults.
    """
    return BertWordPieceTokenizer.from_file(str(vocab), lowercase=lowercase)._tokenizer


def gpt2_vocab_oracle(tokenizer_json: Path) -> tokenizers.Tokenizer:
    """GPT2TokenizerFast for vocab.json + merges.txt: transformers' own conversion of those files.

    refs/gpt2/tokenizer.json is that conversion; its saved truncation (max_length 50) is a
    leftover of whoever saved it, not part of what transformers builds from the vocab files.
    """
    tok = tokenizers.Tokenizer.from_file(str(tokenizer_json))
    tok.no_truncation()
    tok.no_padding()
    return tok


def ref_file(shared: Path, spec: RefSpec) -> Path:
    """Absolute path of a reference file."""
    return shared / "refs" / spec.path


def build_oracle(shared: Path, spec: RefSpec) -> tokenizers.Tokenizer:
    """A fresh oracle tokenizer for a reference file."""
    path = ref_file(shared, spec)
    if spec.kind == "bert-vocab":
        return bert_vocab_oracle(path, spec.lowercase)
    if spec.kind == "gpt2-vocab":
        return gpt2_vocab_oracle(path.parent / "tokenizer.json")
    return tokenizers.Tokenizer.from_file(str(path))


def load_subject(shared: Path, spec: RefSpec) -> Any:
    """A fresh tokenizer of the library under test for a reference file."""
    path = ref_file(shared, spec)
    if spec.kind == "bert-vocab" and not spec.lowercase:
        return subject().load(path, lowercase=False)
    return subject().load(path)


@lru_cache(maxsize=None)
def oracle_ref(shared: Path, name: str) -> tokenizers.Tokenizer:
    """Cached oracle for a reference (never mutate it: tests share it)."""
    return build_oracle(shared, REFS[name])


@lru_cache(maxsize=None)
def subject_ref(shared: Path, name: str) -> Any:
    """Cached tokenizer under test for a reference (never mutate it: tests share it)."""
    return load_subject(shared, REFS[name])


# ---------------------------------------------------------------- comparing encodings


@dataclass
class Mismatch:
    """One field of one input that differs between the oracle and the subject."""

    input: Any
    what: str
    expected: Any
    actual: Any


@dataclass
class Tally:
    """Mismatches found so far, and how many checks ran."""

    label: str
    checks: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)

    def check(self, input_: Any, what: str, expected: Any, actual: Any) -> None:
        """Count one comparison and record it when the values differ."""
        self.checks += 1
        if expected != actual:
            self.mismatches.append(Mismatch(input_, what, expected, actual))


def make_inputs(texts: Sequence[str], pairs: bool) -> list[Any]:
    """The texts, plus (when pairs) consecutive texts paired up: (t0, t1), (t2, t3), ..."""
    inputs: list[Any] = list(texts)
    if pairs:
        inputs.extend(zip(texts[0::2], texts[1::2]))
    return inputs


def field_value(encoding: Any, name: str) -> list:
    """A field of an Encoding as a plain list (offsets as tuples), whichever library made it."""
    value = getattr(encoding, name)
    if name == "offsets":
        return [tuple(o) for o in value]
    return list(value)


def pads_to_batch(tok: Any) -> bool:
    """True when the tokenizer pads a batch to its longest member (so batches differ from singles)."""
    padding = tok.padding
    return padding is not None and padding.get("length") is None


def oracle_encode_all(tok: tokenizers.Tokenizer, inputs: list[Any], add_special_tokens: bool) -> list[Any]:
    """Oracle encodings of every input, as `encode` gives them; a rejected input maps to its exception."""
    if pads_to_batch(tok):
        return [_call(tok.encode, *_args(item), add_special_tokens=add_special_tokens) for item in inputs]
    try:
        return tok.encode_batch(inputs, add_special_tokens=add_special_tokens)
    except Exception:  # one bad input fails the whole batch: redo them one by one
        return [_call(tok.encode, *_args(item), add_special_tokens=add_special_tokens) for item in inputs]


def _args(item: Any) -> tuple:
    """encode's positional arguments for a text or a pair."""
    return tuple(item) if isinstance(item, tuple) else (item,)


def _call(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """fn(*args, **kwargs), or the exception it raised."""
    try:
        return fn(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - the exception is the value compared
        return exc


def compare_errors(tally: Tally, item: Any, expected: Any, actual: Any) -> bool:
    """Check the raise/no-raise agreement; True when there is nothing further to compare."""
    expected_error = isinstance(expected, Exception)
    actual_error = isinstance(actual, Exception)
    if not expected_error and not actual_error:
        return False
    if expected_error and actual_error:
        agrees = str(expected) in str(actual)  # hfcompat may add context around HF's message
        tally.check(item, "error message", str(expected), str(expected) if agrees else str(actual))
    else:
        tally.check(item, "raises", _describe(expected), _describe(actual))
    return True


def _describe(value: Any) -> str:
    """Short description of an encoding-or-exception, for the report."""
    if isinstance(value, Exception):
        return f"raises {type(value).__name__}: {value}"
    return f"returns {len(value.ids)} tokens"


def compare_encodings(tally: Tally, item: Any, expected: Any, actual: Any, prefix: str = "") -> None:
    """Compare every field of two encodings, then their overflowing parts, recursively."""
    for name in FIELDS:
        tally.check(item, prefix + name, field_value(expected, name), field_value(actual, name))
    expected_over = list(expected.overflowing)
    actual_over = list(actual.overflowing)
    tally.check(item, prefix + "len(overflowing)", len(expected_over), len(actual_over))
    # A long pair overflows into n1 x n2 parts; the ends show any ordering or window error.
    count = min(len(expected_over), len(actual_over))
    shown = sorted(set(range(min(count, OVERFLOW_ENDS))) | set(range(max(0, count - OVERFLOW_ENDS), count)))
    for i in shown:
        compare_encodings(tally, item, expected_over[i], actual_over[i], prefix=f"{prefix}overflowing[{i}].")


def compare_decodes(tally: Tally, oracle: Any, ours: Any, items: list[Any], ids: list[list[int]]) -> None:
    """decode(ids) with skip_special_tokens True and False: the oracle's ids through both sides."""
    for skip in (True, False):
        expected = _call(oracle.decode_batch, ids, skip_special_tokens=skip)
        if isinstance(expected, Exception):
            expected = [_call(oracle.decode, one, skip_special_tokens=skip) for one in ids]
        for item, one, want in zip(items, ids, expected):
            got = _call(ours.decode, one, skip_special_tokens=skip)
            tally.check(item, f"decode(skip_special_tokens={skip})", _plain(want), _plain(got))


def _status(value: Any) -> str:
    """"ok", or the exception a batch call raised."""
    return _plain(value) if isinstance(value, Exception) else "ok"


def _plain(value: Any) -> Any:
    """Exceptions compare by type name and message, everything else as is."""
    if isinstance(value, Exception):
        return f"raises {value}"
    return value


def compare(
    oracle: Any,
    ours: Any,
    texts: Iterable[str],
    *,
    pairs: bool = False,
    add_special_tokens: Sequence[bool] = (True, False),
    decode: bool = True,
    label: str = "",
) -> None:
    """Fail with a readable report unless `ours` encodes and decodes every input like `oracle`."""
    tally = collect(oracle, ours, list(texts), pairs=pairs, add_special_tokens=add_special_tokens, decode=decode)
    tally.label = label
    if tally.mismatches:
        pytest.fail(render(tally), pytrace=False)


def collect(
    oracle: Any,
    ours: Any,
    texts: list[str],
    *,
    pairs: bool = False,
    add_special_tokens: Sequence[bool] = (True, False),
    decode: bool = True,
) -> Tally:
    """Run every comparison of `compare` and return the tally instead of failing."""
    tally = Tally("")
    inputs = make_inputs(texts, pairs)
    for flag in add_special_tokens:
        expected_all = oracle_encode_all(oracle, inputs, flag)
        decodable: list[tuple[Any, list[int]]] = []
        for item, expected in zip(inputs, expected_all):
            shown = (f"add_special_tokens={flag}", item)
            actual = _call(ours.encode, *_args(item), add_special_tokens=flag)
            if compare_errors(tally, shown, expected, actual):
                continue
            compare_encodings(tally, shown, expected, actual)
            if isinstance(item, str) and isinstance(ours, hfcompat.Tokenizer) and ours.tiktoken is None:
                tally.check(shown, "encode_ids", list(expected.ids),
                            _plain(_call(ours.encode_ids, item, add_special_tokens=flag)))
            decodable.append((shown, list(expected.ids)))
        if decode and decodable:
            shown_items, ids = zip(*decodable)
            compare_decodes(tally, oracle, ours, list(shown_items), list(ids))
    return tally


def compare_batch(
    oracle: Any,
    ours: Any,
    texts: Sequence[str],
    *,
    pairs: bool = False,
    add_special_tokens: bool = True,
    label: str = "",
) -> None:
    """encode_batch and decode_batch of both sides agree (padding to the batch's longest, too)."""
    tally = Tally(label)
    inputs = make_inputs(texts, pairs)
    shown = [(f"encode_batch, add_special_tokens={add_special_tokens}", item) for item in inputs]
    expected = _call(oracle.encode_batch, inputs, add_special_tokens=add_special_tokens)
    actual = _call(ours.encode_batch, inputs, add_special_tokens=add_special_tokens)
    if isinstance(expected, Exception) or isinstance(actual, Exception):
        tally.check(("encode_batch", label), "raises", _status(expected), _status(actual))
    else:
        tally.check(("encode_batch", label), "len(batch)", len(expected), len(actual))
        for item, e, a in zip(shown, expected, actual):
            compare_encodings(tally, item, e, a)
        ids = [list(e.ids) for e in expected]
        for skip in (True, False):
            want = oracle.decode_batch(ids, skip_special_tokens=skip)
            got = _call(ours.decode_batch, ids, skip_special_tokens=skip)
            if isinstance(got, Exception):
                tally.check(("decode_batch", label), f"decode_batch(skip_special_tokens={skip})", want, _plain(got))
                continue
            for item, w, g in zip(shown, want, got):
                tally.check(item, f"decode_batch(skip_special_tokens={skip})", w, g)
    if tally.mismatches:
        pytest.fail(render(tally), pytrace=False)


# ---------------------------------------------------------------- reporting


def render(tally: Tally) -> str:
    """A report of the first differing inputs: each differing field, around its first difference."""
    by_input: dict[str, list[Mismatch]] = {}
    by_field: dict[str, int] = {}
    for m in tally.mismatches:
        by_input.setdefault(repr(m.input), []).append(m)
        by_field[m.what] = by_field.get(m.what, 0) + 1
    head = f"{tally.label}: " if tally.label else ""
    lines = [
        f"{head}{len(tally.mismatches)} of {tally.checks} checks differ, on {len(by_input)} inputs; "
        + ", ".join(f"{k} x{v}" for k, v in sorted(by_field.items(), key=lambda kv: -kv[1]))
    ]
    for found in list(by_input.values())[:REPORT_LIMIT]:
        lines.append("")
        lines.append(f"input: {preview(found[0].input)}")
        for m in found[:FIELDS_PER_INPUT]:
            expected, actual = around_first_difference(m.expected, m.actual)
            lines.append(f"  {m.what}")
            lines.append(f"    tokenizers: {expected}")
            lines.append(f"    hfcompat:   {actual}")
        if len(found) > FIELDS_PER_INPUT:
            lines.append(f"  ... and {', '.join(m.what for m in found[FIELDS_PER_INPUT:])}")
    if len(by_input) > REPORT_LIMIT:
        lines.append(f"\n... and {len(by_input) - REPORT_LIMIT} more inputs")
    return "\n".join(lines)


def preview(value: Any) -> str:
    """repr of an input, cut to a readable length."""
    text = repr(value)
    if len(text) > TEXT_PREVIEW:
        text = text[: TEXT_PREVIEW - 20] + " ... " + text[-15:]
    return text


def around_first_difference(expected: Any, actual: Any, before: int = 3, after: int = 6) -> tuple[str, str]:
    """For two lists, the slices around their first differing index; other values as repr."""
    if not (isinstance(expected, list) and isinstance(actual, list)):
        return preview_value(expected), preview_value(actual)
    first = next(
        (i for i, (e, a) in enumerate(zip(expected, actual)) if e != a),
        min(len(expected), len(actual)),
    )
    start = max(0, first - before)
    stop = first + after

    def cut(values: list) -> str:
        body = repr(values[start:stop])
        more = f" ... ({len(values)} items)" if stop < len(values) else f" ({len(values)} items)"
        return f"[{start}:] {body}{more}"

    return cut(expected), cut(actual)


def preview_value(value: Any) -> str:
    """repr of a value, cut to a readable length."""
    text = repr(value)
    return text if len(text) <= 400 else text[:380] + " ... " + text[-15:]


# ---------------------------------------------------------------- comparing tokenizer.json


def json_differences(expected: Any, actual: Any, where: str = "$") -> list[str]:
    """Paths at which two parsed JSON documents differ (dict key order and formatting ignored)."""
    if isinstance(expected, (dict, list)) and len(expected) > 1000 and expected == actual:
        return []  # a vocab or merge list: one C-level comparison instead of a walk
    if isinstance(expected, dict) and isinstance(actual, dict):
        found = []
        for key in list(expected) + [k for k in actual if k not in expected]:
            if key not in actual:
                found.append(f"{where}.{key}: missing in hfcompat (tokenizers: {preview_value(expected[key])})")
            elif key not in expected:
                found.append(f"{where}.{key}: extra in hfcompat ({preview_value(actual[key])})")
            else:
                found.extend(json_differences(expected[key], actual[key], f"{where}.{key}"))
        return found
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return [f"{where}: {len(expected)} items in tokenizers, {len(actual)} in hfcompat"]
        found = []
        for i, (e, a) in enumerate(zip(expected, actual)):
            found.extend(json_differences(e, a, f"{where}[{i}]"))
            if len(found) > 20:
                break
        return found
    if expected != actual or isinstance(expected, bool) != isinstance(actual, bool):
        return [f"{where}: tokenizers {preview_value(expected)}, hfcompat {preview_value(actual)}"]
    return []


def assert_same_json(expected_text: str, actual_text: str, label: str = "") -> None:
    """Fail with the differing JSON paths unless both texts parse to the same document."""
    differences = json_differences(json.loads(expected_text), json.loads(actual_text))
    if differences:
        shown = "\n".join(differences[:12])
        pytest.fail(f"{label}: tokenizer.json differs at {len(differences)} places\n{shown}", pytrace=False)
