"""Each reader is as strict as the library that owns its format: for every broken file below,
the owner library and hfcompat agree (both refuse it, or both load it and encode the probe texts
to the same ids), or hfcompat refuses a file that the owner loads as a different tokenizer
(STRICTER, listed in the README's "How strict the readers are").

`python tests/formats/test_strict_readers.py` prints the table of outcomes.
"""

from __future__ import annotations

import json
import re
import struct
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

import hfcompat
from hfcompat.errors import FormatError
from hfcompat.tools.lint import lint

from conftest import corpus_sample
from owner_outcomes import (KINDS, PROBES, SHARED, Kind, b64, gguf_fields, our_outcome, owner_outcome, write_files,
                            write_gguf)

pytestmark = pytest.mark.conformance

Files = dict[str, bytes]
BOTH_REFUSE, BOTH_LOAD, STRICTER = "both refuse", "both load", "hfcompat stricter"


def json_edit(edit: Callable[[Any], Any]) -> Callable[[Files], Files]:
    """A mutation of the first file's JSON: `edit` changes it in place (or returns a replacement)."""
    def mutate(files: Files) -> Files:
        name = next(iter(files))
        data = json.loads(files[name])
        result = edit(data)
        return {**files, name: json.dumps(data if result is None else result, ensure_ascii=False).encode()}
    return mutate


def text_edit(edit: Callable[[str], str], name: str | None = None) -> Callable[[Files], Files]:
    """A mutation of one file's text (the first file by default)."""
    def mutate(files: Files) -> Files:
        target = name or next(iter(files))
        return {**files, target: edit(files[target].decode("utf-8")).encode("utf-8")}
    return mutate


def raw_edit(edit: Callable[[bytes], bytes]) -> Callable[[Files], Files]:
    """A mutation of the first file's bytes."""
    def mutate(files: Files) -> Files:
        name = next(iter(files))
        return {**files, name: edit(files[name])}
    return mutate


def proto_edit(edit: Callable[[Any], None]) -> Callable[[Files], Files]:
    """A mutation of a SentencePiece ModelProto."""
    from hfcompat.formats.sentencepiece import schema as spm

    def mutate(files: Files) -> Files:
        name = next(iter(files))
        proto = spm.ModelProto()
        proto.ParseFromString(files[name])
        edit(proto)
        return {name: proto.SerializeToString()}
    return mutate


def gguf_edit(edit: Callable[[dict], None]) -> Callable[[Files], Files]:
    """A mutation of a GGUF's metadata, written back with gguf's writer."""
    def mutate(files: Files) -> Files:
        name = next(iter(files))
        fields = gguf_fields(files[name])
        edit(fields)
        return {name: write_gguf(fields)}
    return mutate


def setter(*keys: Any, value: Any) -> Callable[[Any], None]:
    """An edit setting data[k1][k2]... = value."""
    def edit(data: Any) -> None:
        for key in keys[:-1]:
            data = data[key]
        data[keys[-1]] = value
    return edit


def deleter(*keys: Any) -> Callable[[Any], None]:
    """An edit deleting data[k1][k2]...."""
    def edit(data: Any) -> None:
        for key in keys[:-1]:
            data = data[key]
        del data[keys[-1]]
    return edit


def nest(depth: int) -> Callable[[Files], Files]:
    """A mutation making the normalizer `depth` Sequences deep (written as text: too deep for json.dumps)."""
    inner = '{"type": "Sequence", "normalizers": [' * depth + '{"type": "Lowercase"}' + "]}" * depth
    return text_edit(lambda text: text.replace('"normalizer": null', f'"normalizer": {inner}', 1))


def add_vocab(token: str, token_id: Any) -> Callable[[Any], None]:
    """An edit adding one entry to a tokenizer.json model's vocab map."""
    return lambda data: data["model"]["vocab"].__setitem__(token, token_id)


def _duplicate_id(data: Any) -> None:
    """Give a second token the id of "a"."""
    data["model"]["vocab"]["zq-extra"] = data["model"]["vocab"]["a"]


def _gguf_set(key: str, value: Any, kind: Any = None, sub_type: Any = None) -> Callable[[dict], None]:
    """A GGUF edit replacing one key (keeping its types unless given)."""
    def edit(fields: dict) -> None:
        _, old_kind, old_sub = fields.get(key, (None, kind, sub_type))
        fields[key] = (value, kind or old_kind, sub_type or old_sub)
    return edit


def _gguf_map(key: str, change: Callable[[list], list]) -> Callable[[dict], None]:
    """A GGUF edit changing one array key's values."""
    def edit(fields: dict) -> None:
        value, kind, sub_type = fields[key]
        fields[key] = (change(list(value)), kind, sub_type)
    return edit


def _cyclic_charsmap() -> bytes:
    """A charsmap whose one rule maps "a" to "b" and whose trie loops back on itself after "a",
    so every run of a's is a key (sentencepiece walks it as far as the text goes; a full walk of
    its keys never ends): 256 units, the root's children at base 1, "a" at 1 ^ 0x61 = 96."""
    units = [0] * 256
    units[0] = 1 << 10  # root: children at base 1
    units[96] = (97 << 10) | (1 << 8) | 0x61  # "a", with a rule; its children (and value) at 96 ^ 97 = 1
    units[1] = 0x80000000  # the value: the replacement at pool byte 0
    return struct.pack("<I", len(units) * 4) + struct.pack(f"<{len(units)}I", *units) + b"b\0"


def _swap_ranks(text: str, token: bytes) -> str:
    """A rank file with `token` and the last-ranked token trading ranks: the tokens built on
    `token` then rank before it (tiktoken still builds them, joining by rank)."""
    lines = text.splitlines()
    index = next(i for i, line in enumerate(lines) if line.split()[0] == b64(token))
    (mine, rank), (last, last_rank) = lines[index].split(), lines[-1].split()
    lines[index], lines[-1] = f"{mine} {last_rank}", f"{last} {rank}"
    return "\n".join(lines) + "\n"


def _tensor_count(count: int) -> Callable[[bytes], bytes]:
    """A GGUF header that announces `count` tensors."""
    return lambda data: data[:8] + struct.pack("<Q", count) + data[16:]


def _with_tensors(edit: Callable[[bytes], bytes]) -> Callable[[Files], Files]:
    """A GGUF rewritten with two small tensors (a model file, not vocab-only), then `edit`ed."""
    def mutate(files: Files) -> Files:
        import numpy

        name = next(iter(files))
        tensors = {"a.weight": numpy.arange(6, dtype=numpy.float32).reshape(2, 3),
                   "b.weight": numpy.ones(100, dtype=numpy.float16)}
        return {name: edit(write_gguf(gguf_fields(files[name]), tensors))}
    return mutate


def _gguf_types(kind: str, sub_type: str | None = None) -> tuple[Any, Any]:
    """GGUFValueType members by name."""
    import gguf

    return gguf.GGUFValueType[kind], gguf.GGUFValueType[sub_type] if sub_type else None


def _gguf_retype(key: str, sub_type: str, convert: Callable[[Any], Any]) -> Callable[[dict], None]:
    """A GGUF edit storing an array key with another item type."""
    def edit(fields: dict) -> None:
        value, kind, _ = fields[key]
        fields[key] = ([convert(v) for v in value], kind, _gguf_types("ARRAY", sub_type)[1])
    return edit


def _replace_line(number: int, line: str) -> Callable[[str], str]:
    """A text edit replacing one line (0-based)."""
    def edit(text: str) -> str:
        lines = text.split("\n")
        lines[number] = line
        return "\n".join(lines)
    return edit


def _piece(proto: Any, index: int) -> Any:
    """proto.pieces[index]."""
    return proto.pieces[index]


def _set_piece(index: int, **values: Any) -> Callable[[Any], None]:
    """A ModelProto edit setting fields of one piece."""
    def edit(proto: Any) -> None:
        for key, value in values.items():
            setattr(proto.pieces[index], key, value)
    return edit


def _field(number: int, payload: bytes) -> bytes:
    """One length-delimited protobuf field (payload under 128 bytes)."""
    return bytes([number << 3 | 2, len(payload)]) + payload


def tekken_listed(edit: Callable[[Any], None]) -> Callable[[Any], None]:
    """A tekken.json edit that first lists the special tokens (as a v7 file does), then applies `edit`."""
    from hfcompat.formats.tekken import DEPRECATED_SPECIAL_TOKENS, FILLER

    def listed(data: Any) -> None:
        count = data["config"]["default_num_special_tokens"]
        names = [*DEPRECATED_SPECIAL_TOKENS, *(FILLER.format(i) for i in range(len(DEPRECATED_SPECIAL_TOKENS), count))]
        data["special_tokens"] = [{"rank": i, "token_str": name, "is_control": True} for i, name in enumerate(names)]
        data["config"]["version"] = "v7"
        edit(data)
    return listed


def _break_a_rule(proto: Any) -> None:
    """Point the charsmap's first rule (value unit) past the end of its pool."""
    charsmap = bytearray(proto.normalizer_spec.precompiled_charsmap)
    units = struct.unpack_from("<I", charsmap)[0] // 4
    first = next(i for i in range(units) if struct.unpack_from("<I", charsmap, 4 + 4 * i)[0] >> 31)
    struct.pack_into("<I", charsmap, 4 + 4 * first, 0xFFFFFFFF)
    proto.normalizer_spec.precompiled_charsmap = bytes(charsmap)


def _tekken_vocab(index: int, **values: Any) -> Callable[[Any], None]:
    """A tekken.json edit setting fields of one vocab entry."""
    return lambda data: data["vocab"][index].update(values)


# Token types llama.cpp reads as UNDEFINED (any value outside 1..6): a normal token for encoding.
UNDEFINED_TYPE_EDITS = {
    "token_type 0": _gguf_map("tokenizer.ggml.token_type", lambda v: [0] + v[1:]),
    "token_type 7": _gguf_map("tokenizer.ggml.token_type", lambda v: v[:9] + [7] + v[10:-1] + [-3]),
}
# GGUF edits llama.cpp reads as the file before them (llama-vocab.cpp), with the lint finding
# that reports each and its count.
AS_BEFORE_IN_LLAMA_CPP = {
    "token_type 0": (UNDEFINED_TYPE_EDITS["token_type 0"], "undefined-token-type", 1),
    "token_type 7": (UNDEFINED_TYPE_EDITS["token_type 7"], "undefined-token-type", 2),
    "a score too many": (_gguf_map("tokenizer.ggml.scores", lambda v: v + [0.5]), "gguf-surplus-values", 1),
    "types and scores too many": (lambda fields: [_gguf_map(key, lambda v: v + v[:3])(fields) for key in
                                                 ("tokenizer.ggml.scores", "tokenizer.ggml.token_type")],
                                  "gguf-surplus-values", 2),
    # llama.cpp keeps its own bos (1 for llama, as this file's) and unk (0)
    "bos id past the tokens": (_gguf_set("tokenizer.ggml.bos_token_id", 10**6), "gguf-special-id-outside", 1),
    "bos and unk ids past the tokens": (lambda fields: [_gguf_set(f"tokenizer.ggml.{name}_token_id", 1500)(fields)
                                                         for name in ("bos", "unknown")],
                                         "gguf-special-id-outside", 2),
}
AS_BEFORE_IN_LLAMA_CPP_GPT2 = {  # merges of strings no merge forms, with or without a space
    "dead merges": (_gguf_map("tokenizer.ggml.merges", lambda v: v + ["zq q", "q zqx", "zq", " zq", "Ġ "]),
                    "gguf-dead-merges", 5),
}

# (kind, case, mutation, expected)
CASES: list[tuple[str, str, Callable[[Files], Files], str]] = [
    # tokenizer.json, any model
    ("gpt2.json", "a vocab id written -0", raw_edit(lambda data: data.replace(b'"!": 0,', b'"!": -0,', 1)),
     BOTH_REFUSE),
    ("gpt2.json", "unknown model type", json_edit(setter("model", "type", value="Foo")), BOTH_REFUSE),
    ("gpt2.json", "unknown normalizer type", json_edit(setter("normalizer", value={"type": "Foo"})), BOTH_REFUSE),
    ("gpt2.json", "unknown pre-tokenizer type", json_edit(setter("pre_tokenizer", value={"type": "Foo"})),
     BOTH_REFUSE),
    ("gpt2.json", "unknown decoder type", json_edit(setter("decoder", value={"type": "Foo"})), BOTH_REFUSE),
    ("gpt2.json", "unknown post-processor type", json_edit(setter("post_processor", value={"type": "Foo"})),
     BOTH_REFUSE),
    ("gpt2.json", "version 2.0", json_edit(setter("version", value="2.0")), BOTH_REFUSE),
    ("gpt2.json", "no model", json_edit(deleter("model")), BOTH_REFUSE),
    ("gpt2.json", "top level is a list", json_edit(lambda data: [data]), BOTH_REFUSE),
    ("gpt2.json", "empty file", raw_edit(lambda data: b""), BOTH_REFUSE),
    ("gpt2.json", "cut in half", raw_edit(lambda data: data[:len(data) // 2]), BOTH_REFUSE),
    ("gpt2.json", "not UTF-8", raw_edit(lambda data: data.replace(b'"a"', b'"\xff"', 1)), BOTH_REFUSE),
    ("gpt2.json", "unknown top-level key", json_edit(setter("extra", value=1)), BOTH_REFUSE),
    ("gpt2.json", "version null", json_edit(setter("version", value=None)), BOTH_REFUSE),
    ("gpt2.json", "no version", json_edit(deleter("version")), BOTH_LOAD),
    ("gpt2.json", "unknown model field", json_edit(setter("model", "extra", value=1)), BOTH_LOAD),
    ("gpt2.json", "normalizer 62 Sequences deep (127 levels)", nest(62), BOTH_LOAD),
    ("gpt2.json", "normalizer 63 Sequences deep (129 levels)", nest(63), BOTH_REFUSE),
        ("gpt2.json", "normalizer 100,000 Sequences deep", nest(100_000), BOTH_REFUSE),
    ("gpt2.json", "ByteLevel without add_prefix_space", json_edit(deleter("pre_tokenizer", "add_prefix_space")),
     BOTH_REFUSE),
    ("gpt2.json", "truncation strategy Foo", json_edit(setter("truncation", value={
        "direction": "Right", "max_length": 5, "strategy": "Foo", "stride": 0})), BOTH_REFUSE),
    ("gpt2.json", "padding strategy Foo", json_edit(setter("padding", value={
        "strategy": "Foo", "direction": "Right", "pad_to_multiple_of": None, "pad_id": 0, "pad_type_id": 0,
        "pad_token": "!"})), BOTH_REFUSE),
    # BPE
    ("gpt2.json", "merge of a token not in the vocab", json_edit(lambda d: d["model"]["merges"].append(["zq", "q"])),
     BOTH_REFUSE),
    ("gpt2.json", "merge whose result is not in the vocab",
     json_edit(lambda d: d["model"]["merges"].append(["a", "a"])), BOTH_REFUSE),
    ("gpt2.json", "merge string of three parts", json_edit(setter("model", "merges", value=["a b c"])), BOTH_REFUSE),
    ("gpt2.json", "merges mixing strings and pairs",
     json_edit(lambda d: d["model"]["merges"].append("i n")), BOTH_REFUSE),
    ("gpt2.json", "merges is an object", json_edit(setter("model", "merges", value={})), BOTH_REFUSE),
    ("gpt2.json", "vocab is a list", json_edit(setter("model", "vocab", value=[])), BOTH_REFUSE),
    ("gpt2.json", "two tokens with one id", json_edit(_duplicate_id), STRICTER),
    ("gpt2.json", "negative id", json_edit(add_vocab("zq-extra", -1)), BOTH_REFUSE),
    ("gpt2.json", "id 2**32", json_edit(add_vocab("zq-extra", 2**32)), BOTH_REFUSE),
    ("gpt2.json", "id is a string", json_edit(add_vocab("zq-extra", "7")), BOTH_REFUSE),
    ("gpt2.json", "id 1.5", json_edit(add_vocab("zq-extra", 1.5)), BOTH_REFUSE),
    ("gpt2.json", "a gap in the ids", json_edit(add_vocab("zq-extra", 5000)), BOTH_LOAD),
    ("gpt2.json", "dropout 2", json_edit(setter("model", "dropout", value=2)), BOTH_REFUSE),
    ("gpt2.json", "unk_token is a number", json_edit(setter("model", "unk_token", value=5)), BOTH_REFUSE),
    ("gpt2.json", "fuse_unk is a string", json_edit(setter("model", "fuse_unk", value="yes")), BOTH_REFUSE),
    ("gpt2.json", "no merges", json_edit(deleter("model", "merges")), BOTH_REFUSE),
    # added tokens
    ("gpt2.json", "added token without content", json_edit(deleter("added_tokens", 0, "content")), BOTH_REFUSE),
    ("gpt2.json", "added token content is a number", json_edit(setter("added_tokens", 0, "content", value=5)),
     BOTH_REFUSE),
    ("gpt2.json", "added token id is a string", json_edit(setter("added_tokens", 0, "id", value="x")), BOTH_REFUSE),
    ("gpt2.json", "added token id is negative", json_edit(setter("added_tokens", 0, "id", value=-1)), BOTH_REFUSE),
    ("gpt2.json", "added token special is a string", json_edit(setter("added_tokens", 0, "special", value="yes")),
     BOTH_REFUSE),
    ("gpt2.json", "added tokens is an object", json_edit(setter("added_tokens", value={})), BOTH_REFUSE),
    ("gpt2.json", "added token without special", json_edit(deleter("added_tokens", 0, "special")), BOTH_REFUSE),
    ("gpt2.json", "added token id 1.0", json_edit(setter("added_tokens", 0, "id", value=1.0)), BOTH_REFUSE),
    ("gpt2.json", "added token with an unknown field", json_edit(setter("added_tokens", 0, "extra", value=1)),
     BOTH_LOAD),
    ("gpt2.json", "added tokens null", json_edit(setter("added_tokens", value=None)), BOTH_REFUSE),
    ("gpt2.json", "added token repeated", json_edit(lambda d: d["added_tokens"].append(dict(d["added_tokens"][0]))),
     BOTH_LOAD),
    ("gpt2.json", "added token with empty content", json_edit(setter("added_tokens", 0, "content", value="")),
     BOTH_LOAD),
    # Unigram
    ("t5.json", "unk_id past the vocab", json_edit(setter("model", "unk_id", value=5000)), BOTH_REFUSE),
    ("t5.json", "unk_id negative", json_edit(setter("model", "unk_id", value=-1)), BOTH_REFUSE),
    ("t5.json", "unk_id is a string", json_edit(setter("model", "unk_id", value="2")), BOTH_REFUSE),
    ("t5.json", "score is a string", json_edit(setter("model", "vocab", 10, 1, value="x")), BOTH_REFUSE),
    ("t5.json", "entry without its score", json_edit(setter("model", "vocab", 10, value=["abc"])), BOTH_REFUSE),
    ("t5.json", "a piece twice", json_edit(lambda d: d["model"]["vocab"].append(list(d["model"]["vocab"][10]))),
     BOTH_LOAD),
    ("t5.json", "charsmap not base64", json_edit(setter("normalizer", "precompiled_charsmap", value="!!")),
     BOTH_REFUSE),
    ("t5.json", "charsmap cut short", json_edit(lambda d: d["normalizer"].__setitem__(
        "precompiled_charsmap", d["normalizer"]["precompiled_charsmap"][:40])), BOTH_REFUSE),
    ("t5.json", "score NaN", text_edit(lambda text: re.sub(r'(\["▁", )[-0-9.e]+', r"\1NaN", text, count=1)), BOTH_REFUSE),
    # WordPiece and WordLevel
    ("bert.json", "unk token not in the vocab", json_edit(setter("model", "unk_token", value="[NOPE]")), BOTH_LOAD),
    ("bert.json", "max_input_chars_per_word negative",
     json_edit(setter("model", "max_input_chars_per_word", value=-1)), BOTH_REFUSE),
    ("bert.json", "no continuing_subword_prefix", json_edit(deleter("model", "continuing_subword_prefix")),
     BOTH_REFUSE),
    ("bert.json", "BertProcessing sep is a string", json_edit(setter("post_processor", "sep", value="[SEP]")),
     BOTH_REFUSE),
    ("wordlevel.json", "no unk_token", json_edit(deleter("model", "unk_token")), BOTH_REFUSE),
    ("wordlevel.json", "unk token not in the vocab", json_edit(setter("model", "unk_token", value="[NOPE]")),
     BOTH_LOAD),
    # tiktoken rank files
    ("r50k.tiktoken", "a rank twice", text_edit(_replace_line(300, b64(b"zq") + " 5")), BOTH_REFUSE),
    ("r50k.tiktoken", "a token twice", text_edit(_replace_line(300, b64(b"a") + " 300")), BOTH_LOAD),
    ("r50k.tiktoken", "a token twice, its last rank another's",
     text_edit(lambda text: text + b64(b"a") + " 5\n"), BOTH_REFUSE),
    ("r50k.tiktoken", "bad base64", text_edit(_replace_line(300, "a*b 300")), BOTH_REFUSE),
    ("r50k.tiktoken", "rank not an integer", text_edit(_replace_line(300, b64(b"zq") + " 3x")), BOTH_REFUSE),
    ("r50k.tiktoken", "rank negative", text_edit(_replace_line(300, b64(b"zq") + " -300")), BOTH_REFUSE),
    ("r50k.tiktoken", "a token ranked before one of its parts",
     text_edit(lambda text: _swap_ranks(text, b" s")), BOTH_LOAD),
    ("r50k.tiktoken", "three fields", text_edit(_replace_line(300, b64(b"zq") + " 300 1")), BOTH_REFUSE),
    ("r50k.tiktoken", "one field", text_edit(_replace_line(300, b64(b"zq"))), BOTH_REFUSE),
    ("r50k.tiktoken", "a blank line", text_edit(_replace_line(300, "")), BOTH_LOAD),
    ("r50k.tiktoken", "a gap in the ranks", text_edit(_replace_line(300, b64(b"zq") + " 5000")), BOTH_LOAD),
    ("r50k.tiktoken", "rank 2**64", text_edit(_replace_line(300, b64(b"zq") + f" {2**64}")), BOTH_REFUSE),
    ("r50k.tiktoken", "a byte missing", text_edit(_replace_line(20, b64(b"zq") + " 20")), STRICTER),
    ("r50k.tiktoken", "empty file", raw_edit(lambda data: b""), BOTH_REFUSE),
    # SentencePiece
    ("llama.model", "two unknown pieces", proto_edit(_set_piece(5, type=2)), BOTH_REFUSE),
    ("llama.model", "no unknown piece (byte fallback)", proto_edit(_set_piece(0, type=1)), BOTH_LOAD),
    ("albert.model", "no unknown piece (no byte fallback)", proto_edit(_set_piece(1, type=1)), BOTH_REFUSE),
    ("llama.model", "a piece twice", proto_edit(_set_piece(600, piece="▁t")), BOTH_REFUSE),
    ("llama.model", "an empty piece", proto_edit(_set_piece(600, piece="")), BOTH_REFUSE),
    ("llama.model", "a piece of type 9", raw_edit(lambda data: data + _field(1, _field(1, b"zqzq") + b"\x18\x09")),
     BOTH_LOAD),
    ("llama.model", "a byte piece missing", proto_edit(lambda p: p.pieces.__delitem__(100)), BOTH_REFUSE),
    ("llama.model", "byte pieces without byte_fallback",
     proto_edit(lambda p: setattr(p.trainer_spec, "byte_fallback", False)), BOTH_REFUSE),
    ("llama.model", "model type 9", raw_edit(lambda data: data + _field(2, b"\x18\x09")), BOTH_LOAD),
    ("llama.model", "cut in half", raw_edit(lambda data: data[:len(data) // 2]), BOTH_REFUSE),
    ("llama.model", "a piece holding a char that is no piece", proto_edit(_set_piece(600, piece="▁①")), BOTH_LOAD),
    ("albert.model", "charsmap cut short",
     proto_edit(lambda p: setattr(p.normalizer_spec, "precompiled_charsmap", p.normalizer_spec.precompiled_charsmap[:40])),
     BOTH_REFUSE),
    ("albert.model", "charsmap shorter than its trie size",
     proto_edit(lambda p: setattr(p.normalizer_spec, "precompiled_charsmap", b"\xff\xff\x00\x00abc")), BOTH_REFUSE),
    ("albert.model", "a rule pointing past the pool", proto_edit(_break_a_rule), BOTH_REFUSE),
    ("albert.model", "score NaN", proto_edit(_set_piece(600, score=float("nan"))), BOTH_REFUSE),
    ("albert.model", "a charsmap trie with a cycle (a+ -> b)",
     proto_edit(lambda p: setattr(p.normalizer_spec, "precompiled_charsmap", _cyclic_charsmap())), BOTH_LOAD),
    # tekken.json
    ("tekken.json", "a token twice", json_edit(_tekken_vocab(300, token_bytes=b64(b"a"))), BOTH_REFUSE),
    ("tekken.json", "bad base64", json_edit(_tekken_vocab(300, token_bytes="a*b")), BOTH_REFUSE),
    ("tekken.json", "ranks out of order", json_edit(_tekken_vocab(300, rank=301)), BOTH_REFUSE),
    ("tekken.json", "default_vocab_size past the vocab",
     json_edit(lambda d: d["config"].__setitem__("default_vocab_size", 10**6)), BOTH_REFUSE),
    ("tekken.json", "unknown version", json_edit(setter("config", "version", value="v99")), BOTH_REFUSE),
    ("tekken.json", "pattern not a regex", json_edit(setter("config", "pattern", value="(")), BOTH_REFUSE),
    ("tekken.json", "a digit escape in a class", json_edit(setter("config", "pattern", value=r"[\r\4n]+|.")),
     BOTH_REFUSE),
    ("tekken.json", "an octal escape", json_edit(setter("config", "pattern", value=r"a\07|.")), BOTH_REFUSE),
    ("tekken.json", "a one-letter class that is no category",
     json_edit(setter("config", "pattern", value=r"[\pyLo}]+|.")), BOTH_REFUSE),
    ("tekken.json", "a one-letter category in lower case", json_edit(setter("config", "pattern", value=r"\pl+|.")),
     BOTH_LOAD),
    ("tekken.json", "a backreference", json_edit(setter("config", "pattern", value=r"(a)\1|.")), BOTH_LOAD),
    ("tekken.json", "no config", json_edit(deleter("config")), BOTH_REFUSE),
    ("tekken.json", "special token rank out of order",
     json_edit(tekken_listed(setter("special_tokens", 3, "rank", value=7))), STRICTER),
    ("tekken.json", "listed special tokens", json_edit(tekken_listed(lambda d: None)), BOTH_LOAD),
    ("tekken.json", "a special token twice",
     json_edit(tekken_listed(setter("special_tokens", 3, "token_str", value="<s>"))), BOTH_REFUSE),
    ("tekken.json", "a byte rank replaced", json_edit(_tekken_vocab(20, token_bytes=b64(b"zq"))), BOTH_REFUSE),
    # GGUF
    ("llama.gguf", "token_type 0", gguf_edit(UNDEFINED_TYPE_EDITS["token_type 0"]), BOTH_LOAD),
    ("llama.gguf", "token_type 7", gguf_edit(UNDEFINED_TYPE_EDITS["token_type 7"]), BOTH_LOAD),
    ("llama.gguf", "one score missing", gguf_edit(_gguf_map("tokenizer.ggml.scores", lambda v: v[:-1])), STRICTER),
    ("llama.gguf", "a score too many", gguf_edit(AS_BEFORE_IN_LLAMA_CPP["a score too many"][0]), BOTH_LOAD),
    ("llama.gguf", "token_type as floats",
     gguf_edit(_gguf_retype("tokenizer.ggml.token_type", "FLOAT32", float)), STRICTER),
    ("llama.gguf", "tokens as integers",
     gguf_edit(_gguf_retype("tokenizer.ggml.tokens", "INT32", len)), STRICTER),
    ("llama.gguf", "bos id past the tokens", gguf_edit(AS_BEFORE_IN_LLAMA_CPP["bos id past the tokens"][0]), BOTH_LOAD),
    ("llama.gguf", "unknown tokenizer model", gguf_edit(_gguf_set("tokenizer.ggml.model", "rwkv9")), STRICTER),
    ("llama.gguf", "a token twice", gguf_edit(_gguf_map("tokenizer.ggml.tokens", lambda v: v[:600] + [v[601]] + v[601:])),
     STRICTER),
    ("llama.gguf", "cut in half", raw_edit(lambda data: data[:len(data) // 2]), BOTH_REFUSE),
    ("llama.gguf", "a tensor count with no tensor infos", raw_edit(_tensor_count(1)), BOTH_REFUSE),
    ("llama.gguf", "an architecture name that is not UTF-8",
     raw_edit(lambda data: data.replace(b"\x05\x00\x00\x00\x00\x00\x00\x00llama", b"\x05\x00\x00\x00\x00\x00\x00\x00\x94\x93\x9e\x8ca", 1)),
     BOTH_REFUSE),
    ("llama.gguf", "with tensors", _with_tensors(lambda data: data), BOTH_LOAD),
    ("llama.gguf", "a tensor's data cut", _with_tensors(lambda data: data[:-40]), BOTH_REFUSE),
    ("gpt2.gguf", "merge of a token not in the vocab",
     gguf_edit(_gguf_map("tokenizer.ggml.merges", lambda v: v + ["zq q"])), BOTH_LOAD),
    ("gpt2.gguf", "a merge llama.cpp applies, making no token",
     gguf_edit(_gguf_map("tokenizer.ggml.merges", lambda v: v + ["q Ġ"])), STRICTER),
    ("gpt2.gguf", "no merges", gguf_edit(lambda fields: fields.pop("tokenizer.ggml.merges")), STRICTER),
    ("gpt2.gguf", "unknown pre-tokenizer", gguf_edit(_gguf_set("tokenizer.ggml.pre", "nope")), STRICTER),
    ("gpt2.gguf", "no pre-tokenizer", gguf_edit(lambda fields: fields.pop("tokenizer.ggml.pre")), BOTH_LOAD),
    # vocab.txt, vocab.json + merges.txt
    ("vocab.txt", "a token twice", text_edit(_replace_line(2000, "the")), BOTH_LOAD),
    ("vocab.txt", "no [UNK]", text_edit(lambda text: text.replace("[UNK]\n", "[UNQ]\n")), STRICTER),
    ("vocab.txt", "empty file", raw_edit(lambda data: b""), BOTH_REFUSE),
    ("vocab.txt", "not UTF-8", raw_edit(lambda data: data.replace(b"\nthe\n", b"\nth\xff\n", 1)), BOTH_REFUSE),
    ("vocab.json", "id is a string", json_edit(lambda d: d.__setitem__("zq", "7")), BOTH_LOAD),
    ("vocab.json", "two tokens with one id", json_edit(lambda d: d.__setitem__("zq", d["a"])), STRICTER),
    ("vocab.json", "merge of a token not in the vocab",
     text_edit(lambda text: text + "zq q\n", name="merges.txt"), BOTH_REFUSE),
    ("vocab.json", "merge line of one token", text_edit(lambda text: text + "zq\n", name="merges.txt"), BOTH_REFUSE),
    ("vocab.json", "not an object", json_edit(lambda d: [1, 2]), BOTH_REFUSE),
    ("vocab.json", "an id written -0", raw_edit(lambda data: data.replace(b'"!": 0,', b'"!": -0,', 1)), BOTH_REFUSE),
]


def outcomes(kind: Kind, mutate: Callable[[Files], Files], directory: Path) -> tuple[Any, Any]:
    """(the owner's outcome, hfcompat's outcome) on the mutated files."""
    path = write_files(directory, mutate(kind.files()))
    return owner_outcome(kind, path), our_outcome(kind, path)


def agrees(expected: str, owner: Any, ours: Any) -> bool:
    """Whether the two outcomes are what `expected` says."""
    if expected == BOTH_REFUSE:
        return owner[0] == ours[0] == "refused"
    if expected == STRICTER:
        return owner[0] == "loaded" and ours[0] == "refused"
    if owner[0] != "loaded" or ours[0] != "loaded":
        return False
    return all(a == b for a, b in zip(owner[1], ours[1]) if a is not None)


@pytest.mark.parametrize("kind_name, case, mutate, expected", CASES, ids=[f"{k}: {c}" for k, c, _, _ in CASES])
def test_owner_and_hfcompat_agree(kind_name: str, case: str, mutate: Callable[[Files], Files], expected: str,
                                  tmp_path: Path) -> None:
    """Both refuse, both load and encode alike, or hfcompat refuses a file the owner misreads."""
    if not SHARED.exists():
        pytest.skip("../shared is absent")
    owner, ours = outcomes(KINDS[kind_name], mutate, tmp_path)
    assert agrees(expected, owner, ours), f"{case}: expected {expected}; owner {owner[0]}: {owner[1]!s:.300}; " \
                                          f"hfcompat {ours[0]}: {ours[1]!s:.300}"
    if ours[0] == "refused":
        assert str(tmp_path) in ours[1], f"the error names no file: {ours[1]}"


def test_a_gguf_count_past_the_end_is_refused_before_reading(tmp_path: Path) -> None:
    """A GGUF array count larger than the file makes gguf's reader loop until memory runs out
    (MemoryError on a 30 kB file); hfcompat refuses it first, naming file, count and offset."""
    if not SHARED.exists():
        pytest.skip("../shared is absent")
    data = bytearray(KINDS["llama.gguf"].files()["llama.gguf"])
    key = data.index(b"tokenizer.ggml.scores") + len(b"tokenizer.ggml.scores")
    struct.pack_into("<Q", data, key + 8, 2**62)  # after the value type and the item type
    path = tmp_path / "huge.gguf"
    path.write_bytes(bytes(data))
    with pytest.raises(FormatError, match=r"huge\.gguf"):
        hfcompat.load(path)


@pytest.mark.parametrize("case", sorted([*AS_BEFORE_IN_LLAMA_CPP, *AS_BEFORE_IN_LLAMA_CPP_GPT2]))
def test_gguf_edits_llama_cpp_ignores_encode_as_before(case: str, tmp_path: Path) -> None:
    """A token type outside 1..6 is llama.cpp's UNDEFINED, which its SPM, BPE and WPM tokenizers
    match as a NORMAL token (llama-vocab.cpp looks tokens up by text alone); values past the
    tokens' count are never read, a merge of strings no merge forms never applies, a special id
    outside the vocabulary leaves llama.cpp's own in place. The ids (special tokens added) are
    those of the file before the edit; `lint` reports it."""
    edit, code, count = {**AS_BEFORE_IN_LLAMA_CPP, **AS_BEFORE_IN_LLAMA_CPP_GPT2}[case]
    kind = KINDS["gpt2.gguf" if case in AS_BEFORE_IN_LLAMA_CPP_GPT2 else "llama.gguf"]
    (tmp_path / "edited").mkdir()
    (tmp_path / "original").mkdir()
    edited = write_files(tmp_path / "edited", gguf_edit(edit)(kind.files()))
    original = write_files(tmp_path / "original", kind.files())
    texts = [*PROBES, *corpus_sample("botchan", 40), *corpus_sample("pku_test", 40)]
    ours, before = hfcompat.load(edited), hfcompat.load(original)
    assert [ours.encode_ids(text) for text in texts] == [before.encode_ids(text) for text in texts]
    if kind.name == "llama.gguf":  # it adds bos: the special ids count
        assert ours.encode_ids("x") == before.encode_ids("x") != before.encode_ids("x", add_special_tokens=False)
    found = [f for f in lint(edited) if f.code == code]
    assert found and found[0].count == count


def test_undefined_gguf_token_type_in_a_t5_file_is_refused(tmp_path: Path) -> None:
    """llama.cpp's Unigram (UGM) never matches an UNDEFINED piece, which a Unigram model cannot
    follow: a t5 file with one is refused, naming the key and what llama.cpp does."""
    def t5_with_undefined(fields: dict) -> None:
        _gguf_set("tokenizer.ggml.model", "t5")(fields)
        UNDEFINED_TYPE_EDITS["token_type 0"](fields)

    path = write_files(tmp_path, gguf_edit(t5_with_undefined)(KINDS["llama.gguf"].files()))
    with pytest.raises(FormatError, match="UNDEFINED") as raised:
        hfcompat.load(path)
    assert raised.value.field == "tokenizer.ggml.token_type"


def _without_unknown(as_unigram: bool) -> Callable[[Any], None]:
    """A ModelProto edit: the UNKNOWN piece made NORMAL (and the model made Unigram if asked)."""
    def edit(proto: Any) -> None:
        proto.pieces[0].type = 1
        if as_unigram:
            proto.trainer_spec.model_type = 1
    return edit


@pytest.mark.parametrize("as_unigram", [False, True], ids=["BPE", "Unigram"])
def test_a_byte_fallback_model_without_unknown_piece_runs_as_sentencepiece(as_unigram: bool, tmp_path: Path) -> None:
    """sentencepiece loads a byte-fallback model without an UNKNOWN piece (unk_id -1: every unknown
    char is spelled in bytes); hfcompat loads it too, BPE or Unigram, and gives the same ids and
    decoded text (`lint` reports it)."""
    import sentencepiece

    path = write_files(tmp_path, proto_edit(_without_unknown(as_unigram))(KINDS["llama.model"].files()))
    owner = sentencepiece.SentencePieceProcessor(model_file=str(path))
    ours = hfcompat.load(path)
    texts = [*PROBES, "x ① y", "🙂🙂 ①②", *corpus_sample("botchan", 40), *corpus_sample("wagahaiwa", 40),
             *corpus_sample("pku_test", 40)]
    assert owner.unk_id() == -1
    assert [ours.encode_ids(text) for text in texts] == [owner.encode(text) for text in texts]
    assert [ours.decode(owner.encode(text)) for text in texts] == [owner.decode(owner.encode(text)) for text in texts]
    assert "unknown-piece-missing" in {found.code for found in lint(ours)}


def table() -> str:
    """The Markdown table of every case's two outcomes."""
    import tempfile

    rows = ["| file | broken how | owner library | hfcompat |", "|---|---|---|---|"]
    for kind_name, case, mutate, _ in CASES:
        with tempfile.TemporaryDirectory() as directory:
            try:
                owner, ours = outcomes(KINDS[kind_name], mutate, Path(directory))
            except Exception as error:  # noqa: BLE001 - a bug, shown in the table
                owner, ours = ("?", ""), ("crashed", f"{type(error).__name__}: {error}")
        rows.append(f"| {kind_name} | {case} | {_cell(owner, directory)} | {_cell(ours, directory)} |")
    return "\n".join(rows)


def _cell(outcome: Any, directory: str) -> str:
    """One outcome in a table cell."""
    if outcome[0] == "loaded":
        return "loads"
    if outcome[0] != "refused":
        return f"{outcome[0]} {outcome[1][:110]}"
    message = outcome[1].replace(directory + "/", "").replace("|", "\\|").replace("\n", " ")
    return f"refuses: {message[:110]}"


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    print(table())
