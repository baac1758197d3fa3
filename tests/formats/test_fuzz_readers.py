"""Fuzzing every reader with damaged copies of real small files (cut from ../shared/refs).

Each example mutates one file: bytes (truncate, flip, insert, delete, duplicate a run), JSON
(drop or duplicate a field, a value of the wrong type, huge numbers, deep nesting), lines
(drop, duplicate, garble), a ModelProto's pieces and specs, or a GGUF's keys. The only allowed
outcomes: hfcompat refuses with a documented error (FormatError ...); or it loads, and then the
owner library loads the same bytes too (hfcompat is never laxer) and encodes the probe texts to
the same ids. Any other exception, or a load that takes more than a few seconds, is a bug.
Examples are derandomized, so a run is repeatable; HFCOMPAT_FUZZ_EXAMPLES=300 tries ten times more.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from owner_outcomes import KINDS, SHARED, check_outcome, write_files

pytestmark = pytest.mark.conformance

EXAMPLES = int(os.environ.get("HFCOMPAT_FUZZ_EXAMPLES", "30"))  # per reader
WRONG_VALUES = [None, True, False, 0, -1, 2**31, 2**32, 2**64, -2**63, 1.5, 1e308, "", "x", "\x00",
                [], {}, [[[[[]]]]], {"type": "Foo"}, ["a", "b"], [["a", 1.0]]]
JSON_KINDS = {"gpt2.json", "t5.json", "bert.json", "wordlevel.json", "tekken.json"}
LINE_FILES = {"cut.tiktoken", "vocab.txt", "merges.txt"}


@st.composite
def byte_mutation(draw: st.DrawFn, data: bytes) -> bytes:
    """Truncate, flip bits, insert, delete or duplicate a run of bytes."""
    op = draw(st.sampled_from(["truncate", "flip", "insert", "delete", "duplicate"]))
    start = draw(st.integers(0, len(data)))
    if op == "truncate":
        return data[:start]
    end = min(len(data), start + draw(st.integers(1, 64)))
    if op == "flip":
        mask = draw(st.integers(1, 255))
        return data[:start] + bytes(b ^ mask for b in data[start:end]) + data[end:]
    if op == "insert":
        return data[:start] + draw(st.binary(min_size=1, max_size=16)) + data[start:]
    if op == "delete":
        return data[:start] + data[end:]
    return data[:end] + data[start:end] + data[end:]


@st.composite
def json_mutation(draw: st.DrawFn, data: bytes) -> bytes:
    """Drop, duplicate or replace a value somewhere in the JSON tree, or nest it deeply."""
    document = json.loads(data)
    parent, key = _pick(draw, document)
    if parent is None:
        return json.dumps(draw(st.sampled_from(WRONG_VALUES))).encode()
    op = draw(st.sampled_from(["delete", "replace", "duplicate", "nest", "number"]))
    if op == "delete":
        del parent[key]
    elif op == "replace":
        parent[key] = draw(st.sampled_from(WRONG_VALUES))
    elif op == "duplicate" and isinstance(parent, list):
        parent.insert(key, json.loads(json.dumps(parent[key])))
    elif op == "duplicate":
        parent[f"{key}_"] = parent[key]
    elif op == "number":
        parent[key] = draw(st.one_of(st.integers(-2**70, 2**70), st.floats(allow_nan=False, allow_infinity=False)))
    else:
        depth = draw(st.sampled_from([2, 60, 64, 130, 5000]))
        return _nested_dump(document, parent, key, depth)
    return json.dumps(document, ensure_ascii=False).encode("utf-8")


def _pick(draw: st.DrawFn, document: Any) -> tuple[Any, Any]:
    """A (container, key) somewhere in the document, a few levels down; (None, None) for the top."""
    parent, key, node = None, None, document
    for _ in range(draw(st.integers(1, 4))):
        if isinstance(node, dict) and node:
            child = draw(st.sampled_from(sorted(node)))
        elif isinstance(node, list) and node:
            child = draw(st.integers(0, len(node) - 1))
        else:
            break
        parent, key, node = node, child, node[child]
    return parent, key


def _nested_dump(document: Any, parent: Any, key: Any, depth: int) -> bytes:
    """The document with parent[key] wrapped in `depth` arrays (written as text: json.dumps recurses)."""
    marker = "\u2603nested\u2603"
    inner = parent[key]
    parent[key] = marker
    text = json.dumps(document, ensure_ascii=False)
    return text.replace(json.dumps(marker, ensure_ascii=False), "[" * depth + json.dumps(inner) + "]" * depth,
                        1).encode()


@st.composite
def line_mutation(draw: st.DrawFn, data: bytes) -> bytes:
    """Drop, duplicate, swap or garble lines of a line-based file."""
    lines = data.split(b"\n")
    index = draw(st.integers(0, max(0, len(lines) - 1)))
    op = draw(st.sampled_from(["drop", "duplicate", "swap", "garble", "number", "blank"]))
    if op == "drop":
        del lines[index]
    elif op == "duplicate":
        lines.insert(draw(st.integers(0, len(lines))), lines[index])
    elif op == "swap":
        other = draw(st.integers(0, max(0, len(lines) - 1)))
        lines[index], lines[other] = lines[other], lines[index]
    elif op == "garble":
        lines[index] = draw(st.binary(max_size=24))
    elif op == "number":
        head = lines[index].split(b" ")[0]
        lines[index] = head + b" " + str(draw(st.integers(-2**65, 2**65))).encode()
    else:
        lines.insert(index, b"   \t")
    return b"\n".join(lines)


@st.composite
def proto_mutation(draw: st.DrawFn, data: bytes) -> bytes:
    """Change a piece, drop or repeat pieces, or flip the trainer and normalizer specs."""
    from hfcompat.formats.sentencepiece import schema as spm

    proto = spm.ModelProto()
    proto.ParseFromString(data)
    index = draw(st.integers(0, len(proto.pieces) - 1))
    op = draw(st.sampled_from(["type", "piece", "score", "drop", "repeat", "byte_fallback", "model_type",
                               "charsmap", "dummy_prefix"]))
    piece = proto.pieces[index]
    if op == "type":
        piece.type = draw(st.integers(1, 6))
    elif op == "piece":
        piece.piece = draw(st.text(max_size=4))
    elif op == "score":
        piece.score = draw(st.sampled_from([math.nan, math.inf, -math.inf, 1e30, -1e30, 0.0]))
    elif op == "drop":
        del proto.pieces[index:index + draw(st.integers(1, 300))]
    elif op == "repeat":
        proto.pieces.append(proto.pieces[index])
    elif op == "byte_fallback":
        proto.trainer_spec.byte_fallback = not proto.trainer_spec.byte_fallback
    elif op == "model_type":
        proto.trainer_spec.model_type = draw(st.sampled_from([1, 2, 3, 4]))
    elif op == "charsmap":
        charsmap = proto.normalizer_spec.precompiled_charsmap
        proto.normalizer_spec.precompiled_charsmap = charsmap[:draw(st.integers(0, len(charsmap)))]
    else:
        proto.normalizer_spec.add_dummy_prefix = not proto.normalizer_spec.add_dummy_prefix
    return proto.SerializeToString()


@st.composite
def gguf_mutation(draw: st.DrawFn, data: bytes) -> bytes:
    """Drop a tokenizer key, cut or extend an array, or store a value of another type."""
    from owner_outcomes import gguf_fields, write_gguf

    fields = gguf_fields(data)
    names = sorted(name for name in fields if name.startswith("tokenizer."))
    name = draw(st.sampled_from(names))
    value, kind, sub_type = fields[name]
    op = draw(st.sampled_from(["drop", "cut", "extend", "retype", "number"]))
    if op == "drop" or (op in ("cut", "extend") and not isinstance(value, list)):
        del fields[name]
    elif op == "cut":
        fields[name] = (value[:draw(st.integers(0, len(value)))], kind, sub_type)
    elif op == "extend":
        fields[name] = (value + value[:draw(st.integers(1, 5))], kind, sub_type)
    elif op == "retype":
        fields[name] = _retyped(draw, value)
    else:
        fields[name] = (draw(st.integers(-2**31, 2**31 - 1)), *_gguf_types("INT32"))
    return write_gguf(fields)


def _gguf_types(kind: str, sub_type: str | None = None) -> tuple[Any, Any]:
    """GGUFValueType members by name."""
    import gguf

    return gguf.GGUFValueType[kind], gguf.GGUFValueType[sub_type] if sub_type else None


def _retyped(draw: st.DrawFn, value: Any) -> tuple[Any, Any, Any]:
    """The value stored with another GGUF type."""
    items = value if isinstance(value, list) else [value]
    choice = draw(st.sampled_from(["INT32", "FLOAT32", "STRING", "UINT8", "BOOL"]))
    convert = {"INT32": lambda v: len(v) if isinstance(v, str) else int(v) % 2**31,
               "FLOAT32": lambda v: float(len(v)) if isinstance(v, str) else float(v),
               "STRING": str, "UINT8": lambda v: (len(v) if isinstance(v, str) else int(v)) % 256,
               "BOOL": bool}[choice]
    converted = [convert(v) for v in items]
    if isinstance(value, list):
        return (converted, *_gguf_types("ARRAY", choice))
    return (converted[0], *_gguf_types(choice))


def mutation_for(kind_name: str, file_name: str, data: bytes) -> st.SearchStrategy[bytes]:
    """The mutations that fit one file of one kind (bytes always among them)."""
    options = [byte_mutation(data)]
    if kind_name in JSON_KINDS or file_name == "vocab.json":
        options.append(json_mutation(data))
    if file_name in LINE_FILES:
        options.append(line_mutation(data))
    if kind_name.endswith(".model"):
        options.append(proto_mutation(data))
    if kind_name.endswith(".gguf"):
        options.append(gguf_mutation(data))
    return st.one_of(options)


class Damaged(dict):
    """A kind's files, one of them damaged; shown by its sizes and a digest (not its bytes)."""

    def __repr__(self) -> str:
        import hashlib

        return ", ".join(f"{name}: {len(data)} B sha256 {hashlib.sha256(data).hexdigest()[:12]}"
                         for name, data in self.items())


@st.composite
def damaged_files(draw: st.DrawFn, kind_name: str) -> Damaged:
    """The kind's files with one of them mutated."""
    files = KINDS[kind_name].files()
    name = draw(st.sampled_from(list(files)))
    return Damaged({**files, name: draw(mutation_for(kind_name, name, files[name]))})


def _keep(kind_name: str, files: Damaged) -> None:
    """Save a failing example's files under $HFCOMPAT_FUZZ_KEEP/<kind>-<digest>/, when it is set."""
    keep = os.environ.get("HFCOMPAT_FUZZ_KEEP")
    if keep:
        directory = Path(keep) / f"{kind_name}-{abs(hash(repr(files))):x}"
        directory.mkdir(parents=True, exist_ok=True)
        write_files(directory, files)


def _fuzz(kind_name: str) -> None:
    """Run the fuzz loop of one kind."""
    if not SHARED.exists():
        pytest.skip("../shared is absent")
    import tempfile

    KINDS[kind_name].files()  # cut the file once, outside the timed examples

    @settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example])
    @given(damaged_files(kind_name))
    def run(files: Damaged) -> None:
        with tempfile.TemporaryDirectory() as directory:
            try:
                check_outcome(kind_name, files, Path(directory))
            except BaseException:
                _keep(kind_name, files)
                raise

    run()


@pytest.mark.parametrize("kind_name", sorted(KINDS))
def test_damaged_files_are_refused_or_read_as_the_owner_reads_them(kind_name: str) -> None:
    """Fuzz one reader."""
    _fuzz(kind_name)
