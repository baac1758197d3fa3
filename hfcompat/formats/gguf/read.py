"""GGUF files (llama.cpp) read as the Hugging Face tokenizer they were converted from.

A GGUF keeps its tokenizer in metadata keys (`tokenizer.ggml.model`, `.pre`, `.tokens`,
`.token_type`, `.scores`, `.merges`, the special ids, `add_bos_token` ...); metadata.py reads
them without touching the tensors (and without the `gguf` package, which only writing needs). Each tokenizer model becomes
the tokenizer.json pipeline that transformers' converters give the original:

- `gpt2`: byte-level BPE; the pre-tokenizer (and normalizer) of the `pre` name, looked up in
  pre_tokenizers.json (an unknown name is an error naming it, unless `pattern=` gives the split;
  a missing or empty name is llama.cpp's `default`, with a warning as llama.cpp gives);
- `llama`: SentencePiece BPE with byte fallback as `LlamaTokenizerFast` runs it ("▁" prepended,
  spaces as "▁"), merges in the order transformers extracts them from the scores when the file
  has none;
- `bert`: WordPiece with BERT's normalizer; llama.cpp stores a word-start token as "▁word" and a
  continuation as "word", which is turned back into "word" and "##word";
- `t5`: Unigram with the precompiled charsmap, as `T5TokenizerFast` runs it;
- `gemma4`: BPE on "▁"-escaped text with `<0xXX>` byte fallback, as Gemma's tokenizer.json has
  it: llama.cpp reads it as a `gpt2` file whose `pre` is "gemma4", and so does hfcompat;
- `rwkv`: RWKV's world tokenizer (greedy longest match over byte strings), which tokenizer.json
  cannot hold: hfcompat's own model (models/rwkv.py) behind the same pipeline sections. The file
  stores each token's bytes escaped (`\\n`, `\\xe4`, ...), as Python's repr of bytes writes them;
- `plamo2`: PLaMo-2's cheapest segmentation by scores with `<0xXX>` byte fallback, also a model of
  hfcompat's own (models/plamo2.py).

- `whitespace`: BPE over each whitespace-separated word's chars with <0xXX> byte fallback
  (WhitespaceSplit and a BPE model in tokenizer.json);
- `hybriddna`: byte-level BPE like `gpt2` when the file lacks the <dna>, </dna> and <oov> tokens
  (llama.cpp then runs plain BPE); with them, DNA k-mers no pipeline holds: an error.

The other names llama.cpp knows are errors saying why: `none` / `no_vocab` (a model without a
tokenizer) and `test` (llama.cpp's synthetic test vocabulary).

CONTROL tokens become special added tokens, USER_DEFINED ones plain added tokens. The bos / eos
tokens are added as the file's flags say; where a gpt2 file does not say, as llama.cpp adds them
for its `pre` name (the bos token for Llama 3's names, tekken and chameleon). A token type
outside 1..6 is what llama.cpp calls UNDEFINED: it encodes as a NORMAL token there, so it stays a
plain vocabulary token (`lint` reports it); a t5 file with one is refused (llama.cpp's Unigram
never matches it).
"""

from __future__ import annotations

import base64
import dataclasses
import json
import math
import warnings
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import Any, Callable

from ... import processors
from ...errors import FormatError, import_optional
from ...models.bpe import BPE
from ...models.plamo2 import Plamo2
from ...models.rwkv import RWKV
from ...models.unigram import Unigram
from ...models.wordpiece import WordPiece
from ...tokenizer import Tokenizer
from ..tokenizer_json import tokenizer_around, tokenizer_from_dict
from .metadata import NotUTF8, read_metadata

NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = range(1, 7)
MODELS = ("llama", "gpt2", "bert", "t5", "gemma4", "rwkv", "plamo2", "whitespace", "hybriddna")
# Names llama.cpp reads that hfcompat does not, and why.
REFUSED_MODELS = {
    "none": "the model has no tokenizer (llama.cpp reads it as a vocab-less model)",
    "no_vocab": "the model has no tokenizer (llama.cpp reads it as a vocab-less model)",
    "test": "llama.cpp's synthetic test vocabulary (ids from the text's bytes), not a tokenizer",
}
KEY = "tokenizer.ggml."
SPECIAL_ID_KEYS = ("bos", "eos", "unknown", "seperator", "padding", "cls", "mask")
# llama.cpp's own special ids per tokenizer model (llama-vocab.cpp), which an id outside the
# vocabulary leaves in place; it reads no cls key. The chatglm family's pre names have no bos.
LLAMA_CPP_DEFAULT_IDS: dict[str, dict[str, int]] = {
    "llama": {"bos": 1, "eos": 2, "unknown": 0},
    "bert": {"bos": 101, "unknown": 100, "seperator": 102, "padding": 0, "mask": 103},
    "gpt2": {"bos": 11, "eos": 11},
    "t5": {"eos": 1, "unknown": 2, "padding": 0},
    "whitespace": {"bos": 11, "eos": 11},
    "hybriddna": {"bos": 11, "eos": 11},
    "plamo2": {"bos": 1, "eos": 2, "unknown": 0, "padding": 3},
    "gemma4": {},
    "rwkv": {},
}
NO_DEFAULT_BOS_PRES = ("chatglm-bpe", "glm4", "glm5")
FLAG_KEYS = ("add_bos_token", "add_eos_token", "add_space_prefix", "remove_extra_whitespaces", "normalizer.lowercase")
DNA_TOKENS = ("<dna>", "</dna>", "<oov>")  # with all three, llama.cpp cuts DNA between the tags into k-mers
SPACE = "\u2581"
DEFAULT_PRE = "default"  # what llama.cpp reads a gpt2 file's missing or empty `pre` as
BYTE_LEVEL_DECODER = {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True}
BACKSLASH = 0x5C
RWKV_ESCAPES = {ord("t"): 0x09, ord("n"): 0x0A, ord("r"): 0x0D}  # the escaped letters that are not themselves
TABLE = json.loads((Path(__file__).with_name("pre_tokenizers.json")).read_text(encoding="utf-8"))


def pre_tokenizer_names() -> dict[str, dict[str, Any]]:
    """Every known `pre` name (aliases included) -> its pipeline entry."""
    names = {}
    for name, entry in TABLE["pipelines"].items():
        for alias in (name, *entry.get("aliases", ())):
            names[alias] = entry
    return names


PRE_TOKENIZERS = pre_tokenizer_names()


def require_gguf() -> Any:
    """The `gguf` module (llama.cpp's writer, the extra hfcompat[gguf]), imported on first use:
    it brings numpy and more, which `import hfcompat` should not pay for."""
    return import_optional("gguf", "gguf", "Writing a GGUF file")


CHAT_TEMPLATE_KEY = "tokenizer.chat_template"


@dataclass
class GGUFTokenizerData:
    """The tokenizer keys of a GGUF file, as plain values."""

    model: str
    pre: str | None
    tokens: list[str]
    types: list[int]
    scores: list[float] | None = None
    merges: list[str] | None = None
    special_ids: dict[str, int] = field(default_factory=dict)
    flags: dict[str, bool] = field(default_factory=dict)
    charsmap: bytes | None = None
    # `tokenizer.chat_template`, or a dict when the file also names templates (`tokenizer.chat_template.<name>`):
    # "default" -> the unnamed one, name -> each named one, as transformers keeps several templates.
    chat_template: str | dict[str, str] | None = None


# ----- the file --------------------------------------------------------------------------------

def read_gguf_data(path: str | Path) -> GGUFTokenizerData:
    """The tokenizer keys of a GGUF file (its metadata only), checked."""
    where = str(path)
    fields = read_metadata(path)

    def value(name: str, kinds: type | tuple[type, ...], required: bool = False) -> Any:
        contents = fields.get(name)
        if contents is None:
            if required:
                raise FormatError("missing key", path=where, field=name)
            return None
        if isinstance(contents, NotUTF8):
            raise FormatError("a string that is not UTF-8", path=where, field=name)
        if not isinstance(contents, kinds) or isinstance(contents, bool) and bool not in _tuple(kinds):
            raise FormatError(f"expected {_kind_names(kinds)}, got {type(contents).__name__}", path=where,
                              field=name)
        return contents

    value("general.architecture", str)  # llama.cpp picks the architecture by this name: text, if given
    model = value(KEY + "model", str, required=True)
    if model in REFUSED_MODELS:
        raise FormatError(f"tokenizer model {model!r}: {REFUSED_MODELS[model]}", path=where, field=KEY + "model")
    if model not in MODELS:
        raise FormatError(f"tokenizer model {model!r} is not one hfcompat reads (known: {', '.join(MODELS)})",
                          path=where, field=KEY + "model")
    tokens = value(KEY + "tokens", list, required=True)
    if not all(isinstance(token, str) for token in tokens):
        raise FormatError("expected strings (UTF-8)", path=where, field=KEY + "tokens")
    types = _per_token(value(KEY + "token_type", list) or [NORMAL] * len(tokens), len(tokens), int,
                       KEY + "token_type", where)
    undefined = next((t for t in types if not NORMAL <= t <= BYTE), None)
    if undefined is not None and model == "t5":
        raise FormatError(f"token type {undefined} is out of range (1..6): llama.cpp reads it as UNDEFINED and never "
                          "matches such a piece in a t5 vocabulary, which a Unigram model cannot follow", path=where,
                          field=KEY + "token_type")
    scores = value(KEY + "scores", list)
    if scores is not None:
        scores = _per_token(scores, len(tokens), (int, float), KEY + "scores", where)
    merges = value(KEY + "merges", list)
    if merges is not None and not all(isinstance(m, str) for m in merges):
        raise FormatError('expected "left right" strings', path=where, field=KEY + "merges")
    pre = value(KEY + "pre", str)
    special_ids = {}
    for name in SPECIAL_ID_KEYS:
        token_id = value(f"{KEY}{name}_token_id", int)
        if token_id is not None and not 0 <= token_id < len(tokens):
            token_id = llama_cpp_default_id(model, pre, name)  # llama.cpp warns and keeps it (`lint` reports it)
        if token_id is not None and token_id < len(tokens):
            special_ids[name] = token_id
    flags = {name: flag for name in FLAG_KEYS if (flag := value(KEY + name, bool)) is not None}
    charsmap = value(KEY + "precompiled_charsmap", list)
    return GGUFTokenizerData(
        model, pre, tokens, list(types), scores, merges, special_ids, flags,
        bytes(b & 0xFF for b in charsmap) if charsmap is not None else None,
        chat_templates(fields, value))


def chat_templates(fields: dict[str, Any], value: Callable[..., Any]) -> str | dict[str, str] | None:
    """The file's chat template: a string, or a dict with the named templates (the unnamed one as "default")."""
    default = value(CHAT_TEMPLATE_KEY, str)
    named = {key[len(CHAT_TEMPLATE_KEY) + 1:]: value(key, str) for key in fields
             if key.startswith(CHAT_TEMPLATE_KEY + ".")}
    if not named:
        return default
    return {**({"default": default} if default is not None else {}), **named}


def llama_cpp_default_id(model: str, pre: str | None, name: str) -> int | None:
    """The id llama.cpp gives a special token of this tokenizer model before it reads the file's
    key, and keeps when the key's id is outside the vocabulary (None: no such token)."""
    if name == "bos" and pre in NO_DEFAULT_BOS_PRES:
        return None
    return LLAMA_CPP_DEFAULT_IDS[model].get(name)


def _tuple(kinds: type | tuple[type, ...]) -> tuple[type, ...]:
    """`kinds` as a tuple."""
    return kinds if isinstance(kinds, tuple) else (kinds,)


def _kind_names(kinds: type | tuple[type, ...]) -> str:
    """A readable 'int or float'."""
    return " or ".join(kind.__name__ for kind in _tuple(kinds))


def _per_token(values: list, length: int, kinds: type | tuple[type, ...], name: str, where: str) -> list:
    """A per-token list's first `length` values, each of the right kind; more values than tokens
    are ignored, as llama.cpp reads one per token (`lint` reports them)."""
    if len(values) < length:
        raise FormatError(f"{len(values)} values for {length} tokens (llama.cpp refuses fewer values than tokens)",
                          path=where, field=name)
    if not all(isinstance(v, kinds) and not isinstance(v, bool) for v in values):
        raise FormatError(f"expected {_kind_names(kinds)} values", path=where, field=name)
    return values[:length]


# ----- the tokenizer -------------------------------------------------------------------------

def gguf_source(tokenizer: Tokenizer) -> GGUFTokenizerData | None:
    """The GGUF keys a tokenizer was read from (None when it was not read from a GGUF)."""
    return tokenizer.source if isinstance(tokenizer.source, GGUFTokenizerData) else None


def read_gguf(path: str | Path, *, pattern: str | None = None) -> Tokenizer:
    """Load the tokenizer of a GGUF file (vocab-only or a whole model: its tensors are not read).

    `pattern` (a regex) replaces the pre-tokenizer of a `gpt2` file whose `pre` name is unknown.
    """
    data = read_gguf_data(path)
    if data.model == "gpt2" and not data.pre and pattern is None:
        warnings.warn(f"{path}: no {KEY}pre; read, as llama.cpp reads it, with llama.cpp's '{DEFAULT_PRE}' "
                      "pre-tokenizer, which need not be the one the tokenizer was made with (llama.cpp warns "
                      "that generation quality will be degraded)", UserWarning, stacklevel=2)
    try:
        pipeline = _pipeline(data, str(path), pattern)
        model = pipeline["model"]
        tokenizer = tokenizer_from_dict(pipeline) if isinstance(model, dict) else tokenizer_around(model, pipeline)
    except FormatError as error:
        raise FormatError(error.message, path=str(path), field=_gguf_key(error.field)) from None
    tokenizer.chat_template = data.chat_template
    tokenizer.source = data
    return tokenizer


# The model's fields (as the built model or its tokenizer.json form names them) -> the GGUF keys
# they come from, in the same order.
MODEL_FIELDS = {"merges": KEY + "merges", "vocab": KEY + "tokens", "unk_id": KEY + "unknown_token_id"}


def _gguf_key(field: str | None) -> str | None:
    """The GGUF key behind a field of the pipeline built from it."""
    if field is None:
        return None
    name = field.removeprefix("model.")
    for prefix, key in MODEL_FIELDS.items():
        if name == prefix or name.startswith((prefix + "[", prefix + ".")):
            return key + name[len(prefix):]
    return field


def pipeline_from_gguf(data: GGUFTokenizerData, where: str | None = None, pattern: str | None = None) -> dict:
    """The tokenizer.json pipeline of a GGUF's tokenizer keys (for `rwkv` and `plamo2`, its `model`
    is the built model: tokenizer.json has no form for it)."""
    pipeline = _pipeline(data, where, pattern)
    model = pipeline["model"]
    return pipeline if isinstance(model, (dict, RWKV, Plamo2)) else {**pipeline, "model": model.to_dict()}


def _pipeline(data: GGUFTokenizerData, where: str | None, pattern: str | None) -> dict:
    """The sections of `pipeline_from_gguf`, its BPE model built directly (no tokenizer.json form of
    its merges is made and read back)."""
    build = {"gpt2": _byte_level_bpe, "llama": _sentencepiece_bpe, "bert": _wordpiece, "t5": _unigram,
             "gemma4": _gemma4_bpe, "rwkv": _rwkv, "plamo2": _plamo2, "whitespace": _whitespace_bpe,
             "hybriddna": _hybriddna}[data.model]
    pipeline = build(data, where, pattern)
    pipeline["added_tokens"] = added_tokens(data)
    pipeline.setdefault("post_processor", _bos_eos(data))
    return pipeline


def added_tokens(data: GGUFTokenizerData) -> list[dict[str, Any]]:
    """CONTROL tokens as special added tokens, USER_DEFINED ones as plain added tokens."""
    return [{"id": i, "content": token, "single_word": False, "lstrip": False, "rstrip": False,
             "normalized": False, "special": kind == CONTROL}
            for i, (token, kind) in enumerate(zip(data.tokens, data.types)) if kind in (CONTROL, USER_DEFINED)]


def flag_defaults(data: GGUFTokenizerData) -> dict[str, bool]:
    """The flags llama.cpp sets for a file that does not give them: a gpt2 `pre` name's add_bos_token."""
    if data.model != "gpt2":
        return {}
    entry = PRE_TOKENIZERS.get(data.pre or DEFAULT_PRE, {})
    return {flag: entry[flag] for flag in FLAG_KEYS if flag in entry}


def _bos_eos(data: GGUFTokenizerData) -> dict | None:
    """A template adding the bos / eos tokens the file asks for (add_bos_token, add_eos_token, or
    llama.cpp's default for its `pre` name)."""
    flags = {**flag_defaults(data), **data.flags}

    def token(flag: str, key: str) -> tuple[str, int] | None:
        token_id = data.special_ids.get(key)
        return (data.tokens[token_id], token_id) if flags.get(flag) and token_id is not None else None

    return processors.bos_eos_template(token("add_bos_token", "bos"), token("add_eos_token", "eos"))


def _byte_level_bpe(data: GGUFTokenizerData, where: str | None, pattern: str | None) -> dict:
    """gpt2: byte-level BPE with the pipeline of its `pre` name (or a Split of `pattern`); a name
    whose BPE works on the text's own characters (gemma4) gives its decoder and byte fallback."""
    if pattern is not None:
        entry = {"pre_tokenizer": {"type": "Sequence", "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False},
            {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False}]}}
    else:
        entry = PRE_TOKENIZERS.get(data.pre or DEFAULT_PRE)
        if entry is None:
            raise FormatError(f"pre-tokenizer {data.pre!r} is not one whose pipeline hfcompat knows (known: "
                              f"{', '.join(sorted(PRE_TOKENIZERS))}); pass pattern= with its split regex",
                              path=where, field=KEY + "pre")
    if data.merges is None:
        raise FormatError(f"a {data.model} tokenizer needs its merges", path=where, field=KEY + "merges")
    vocab = _vocab(data, where)
    byte_fallback = entry.get("byte_fallback", False)
    if byte_fallback and not _has_byte_tokens(vocab, where):
        raise FormatError(f"pre-tokenizer {data.pre!r} runs BPE on the text's own characters, and without <0xXX> "
                          "byte tokens llama.cpp drops an unknown character after merging, which tokenizers' BPE "
                          "does before (its neighbours then merge)", path=where, field=KEY + "tokens")
    unknown = data.special_ids.get("unknown") if byte_fallback else None
    if entry.get("add_bos_token") == "always":  # llama.cpp adds the bos token whatever the file says
        data = dataclasses.replace(data, flags={**data.flags, "add_bos_token": True})
    return {
        "post_processor": _bos_eos(data),
        "normalizer": entry.get("normalizer"),
        "pre_tokenizer": entry["pre_tokenizer"],
        "decoder": entry.get("decoder", BYTE_LEVEL_DECODER),
        "model": BPE(vocab, _applicable_merges(data, vocab, where),
                     unk_token=None if unknown is None else data.tokens[unknown], fuse_unk=byte_fallback,
                     byte_fallback=byte_fallback, ignore_merges=entry.get("ignore_merges", False)),
    }


def _gemma4_bpe(data: GGUFTokenizerData, where: str | None, pattern: str | None) -> dict:
    """gemma4: llama.cpp ignores the file's `pre` and runs the "gemma4" pre-tokenizer."""
    return _byte_level_bpe(dataclasses.replace(data, pre="gemma4"), where, None)


def _hybriddna(data: GGUFTokenizerData, where: str | None, pattern: str | None) -> dict:
    """hybriddna: plain byte-level BPE, as llama.cpp runs it when the DNA tokens are missing."""
    if all(token in data.tokens for token in DNA_TOKENS):
        raise FormatError("tokenizer model 'hybriddna': DNA between <dna> tags is cut into 6-mers beside BPE, "
                          "which no tokenizer.json pipeline holds", path=where, field=KEY + "model")
    return _byte_level_bpe(data, where, pattern)


def _whitespace_bpe(data: GGUFTokenizerData, where: str | None, pattern: str | None) -> dict:
    """whitespace: BPE over the chars of each word between (Unicode) whitespace, unknown chars as
    their <0xXX> tokens (or dropped when the vocabulary has none), lowercased first when the file
    says so (normalizer.lowercase), as llama.cpp's `whitespace` session runs it with the
    pre-tokenizer "whitespace" its converter writes."""
    if data.pre != "whitespace":
        raise FormatError(f"a whitespace tokenizer with pre-tokenizer {data.pre!r}: hfcompat reads the "
                          "\"whitespace\" one its converter writes", path=where, field=KEY + "pre")
    if data.merges is None:
        raise FormatError("a whitespace tokenizer needs its merges", path=where, field=KEY + "merges")
    vocab = _vocab(data, where)
    byte_fallback = _has_byte_tokens(vocab, where)
    # llama.cpp's case table maps each char to one char; it differs from Unicode's full mapping
    # (Rust's, which tokenizers' Lowercase uses) only at U+0130, which it maps to a plain "i"
    lowercase = {"type": "Sequence", "normalizers": [
        {"type": "Replace", "pattern": {"String": "\u0130"}, "content": "i"}, {"type": "Lowercase"}]}
    return {
        "normalizer": lowercase if data.flags.get("normalizer.lowercase") else None,
        "pre_tokenizer": {"type": "WhitespaceSplit"},
        "decoder": {"type": "Sequence", "decoders": [{"type": "ByteFallback"}, {"type": "Fuse"}]},
        "model": BPE(vocab, _applicable_merges(data, vocab, where), byte_fallback=byte_fallback),
    }


def _has_byte_tokens(vocab: dict[str, int], where: str | None) -> bool:
    """True when the vocabulary holds all 256 <0xXX> tokens, False when none (llama.cpp then drops an unknown
    character); a FormatError for some: llama.cpp keeps the bytes it finds, tokenizers falls back to none."""
    byte_tokens = sum(f"<0x{byte:02X}>" in vocab for byte in range(256))
    if 0 < byte_tokens < 256:
        raise FormatError(f"{byte_tokens} of the 256 <0xXX> byte tokens: byte fallback is exact with all or "
                          "none", path=where, field=KEY + "tokens")
    return byte_tokens == 256


def merge_pair(merge: str) -> tuple[str, str]:
    """A merge string split as llama.cpp splits it: at the first space after its first char
    (without one, two empty parts: a merge that never applies)."""
    cut = merge.find(" ", 1)
    return (merge[:cut], merge[cut + 1:]) if cut != -1 else ("", "")


def dead_merges(merges: list[str], vocab: dict[str, int]) -> list[int]:
    """The indices of the merges llama.cpp can never apply that tokenizers' BPE would refuse (a
    part or the result is no token): a part is neither one char nor the result of a merge that
    applies. llama.cpp merges strings, from the single chars of a word up."""
    return _dead_pairs(list(map(merge_pair, merges)), vocab)


def _dead_pairs(pairs: list[tuple[str, str]], vocab: dict[str, int]) -> list[int]:
    """`dead_merges` of merges already split into pairs. In order first (in a trained file almost
    every part is one char or made by an earlier merge); then each merge left waits on a count of
    its parts not made yet, and applies when the last is made."""
    formed: set[str] = set()
    pending = []
    for index, (left, right) in enumerate(pairs):
        if (len(left) == 1 or left in formed) and (len(right) == 1 or right in formed):
            formed.add(left + right)
        else:
            pending.append(index)
    waiting_on: dict[int, int] = {}  # a pending merge -> how many of its distinct parts are not made yet
    users: dict[str, list[int]] = {}  # such a part -> the merges that wait on it
    for index in pending:
        parts = {part for part in pairs[index] if len(part) != 1 and part not in formed}
        waiting_on[index] = len(parts)
        for part in parts:
            users.setdefault(part, []).append(index)
    ready = [index for index in pending if not waiting_on[index]]
    while ready:
        joined = "".join(pairs[ready.pop()])
        if joined not in formed:
            formed.add(joined)
            for index in users.get(joined, ()):
                waiting_on[index] -= 1
                if not waiting_on[index]:
                    ready.append(index)
    return [index for index in pending if waiting_on[index]
            and not (pairs[index][0] in vocab and pairs[index][1] in vocab and "".join(pairs[index]) in vocab)]


def _applicable_merges(data: GGUFTokenizerData, vocab: dict[str, int], where: str | None) -> list[tuple[str, str]]:
    """The merges as (left, right), less those llama.cpp never applies and tokenizers would refuse
    (`lint` reports them); one it applies with a part or result that is no token is an error."""
    pairs = list(map(merge_pair, data.merges or ()))
    dead = set(_dead_pairs(pairs, vocab))
    kept = [pair for index, pair in enumerate(pairs) if index not in dead] if dead else pairs
    if vocab.keys() >= {*map(itemgetter(0), kept), *map(itemgetter(1), kept), *map("".join, kept)}:
        return kept
    for index, (left, right) in enumerate(pairs):
        missing = next((token for token in (left, right, left + right) if token not in vocab), None)
        if missing is not None and index not in dead:
            raise FormatError(f"merge {left!r} {right!r} needs {missing!r}, which is no token (llama.cpp joins it "
                              "anyway and spells what no token holds in single bytes; tokenizers refuses it)",
                              path=where, field=f"{KEY}merges[{index}]")
    return kept


def _sentencepiece_bpe(data: GGUFTokenizerData, where: str | None, pattern: str | None) -> dict:
    """llama: SentencePiece BPE as LlamaTokenizerFast's tokenizer.json has it."""
    if data.scores is None and data.merges is None:
        raise FormatError("a llama tokenizer needs scores or merges", path=where, field=KEY + "scores")
    prefix = data.flags.get("add_space_prefix", True)
    replace = {"type": "Replace", "pattern": {"String": " "}, "content": SPACE}
    normalizer = {"type": "Sequence", "normalizers": [{"type": "Prepend", "prepend": SPACE}, replace]} \
        if prefix else replace
    decoders = [{"type": "Replace", "pattern": {"String": SPACE}, "content": " "}, {"type": "ByteFallback"},
                {"type": "Fuse"}]
    if prefix:
        decoders.append({"type": "Strip", "content": " ", "start": 1, "stop": 0})
    unknown = data.special_ids.get("unknown")
    merges = [tuple(m.split(" ", 1)) for m in data.merges] if data.merges is not None else \
        extracted_merges(data.tokens, data.scores)
    if any(len(pair) != 2 for pair in merges):
        index = next(i for i, pair in enumerate(merges) if len(pair) != 2)
        raise FormatError(f"merge {merges[index][0]!r} is not two tokens separated by a space",
                          path=where, field=f"{KEY}merges[{index}]")
    return {
        "normalizer": normalizer, "pre_tokenizer": None,
        "decoder": {"type": "Sequence", "decoders": decoders},
        "model": BPE(_vocab(data, where), merges, unk_token=None if unknown is None else data.tokens[unknown],
                     fuse_unk=True, byte_fallback=BYTE in data.types),
    }


def extracted_merges(pieces: list[str], scores: list[float]) -> list[tuple[str, str]]:
    """The merges transformers' SentencePiece converter extracts from pieces and scores: every
    split of a piece into two pieces, by the merged piece's score (best first, ties in piece
    order), a piece's splits by the ids of their parts."""
    ids = {piece: i for i, piece in enumerate(pieces)}
    found = []
    for piece, score in zip(pieces, scores):
        local = []
        for cut in range(1, len(piece)):
            left = piece[:cut]
            if left in ids:
                right = piece[cut:]
                if right in ids:
                    local.append((ids[left], ids[right], left, right))
        if local:
            local.sort()
            found += [(score, left, right) for *_, left, right in local]
    found.sort(key=itemgetter(0), reverse=True)  # stable: equal scores keep the pieces' order
    return [(left, right) for _, left, right in found]


def _wordpiece(data: GGUFTokenizerData, where: str | None, pattern: str | None) -> dict:
    """bert: WordPiece with BERT's normalizer, pre-tokenizer and template."""
    unknown = data.special_ids.get("unknown")
    if unknown is None:
        raise FormatError("a bert tokenizer needs its unknown token", path=where, field=KEY + "unknown_token_id")
    tokens = [wordpiece_token(token, kind) for token, kind in zip(data.tokens, data.types)]
    pipeline = {
        "normalizer": {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
                       "strip_accents": None, "lowercase": True},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
        "model": WordPiece(_vocab(data, where, tokens), unk_token=tokens[unknown]),
    }
    cls, sep = data.special_ids.get("cls"), data.special_ids.get("seperator")
    if cls is not None and sep is not None:
        pipeline["post_processor"] = {"type": "BertProcessing", "sep": [tokens[sep], sep], "cls": [tokens[cls], cls]}
    return pipeline


def wordpiece_token(token: str, kind: int) -> str:
    """A WordPiece token from llama.cpp's form: "▁word" starts a word, "word" continues one."""
    if kind in (CONTROL, USER_DEFINED, UNKNOWN):
        return token
    return token[1:] if token.startswith(SPACE) else "##" + token


def _unigram(data: GGUFTokenizerData, where: str | None, pattern: str | None) -> dict:
    """t5: Unigram behind the precompiled charsmap, as T5TokenizerFast's tokenizer.json has it."""
    if data.scores is None:
        raise FormatError("a t5 tokenizer needs scores", path=where, field=KEY + "scores")
    prepend = "always" if data.flags.get("add_space_prefix", True) else "never"
    metaspace = {"type": "Metaspace", "replacement": SPACE, "prepend_scheme": prepend, "split": True}
    scores = _finite_scores(data.scores, where)
    return {
        "normalizer": {"type": "Precompiled", "precompiled_charsmap": _base64(data.charsmap)} if data.charsmap
        else None,
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [{"type": "WhitespaceSplit"}, metaspace]},
        "decoder": dict(metaspace),
        "model": Unigram(list(zip(data.tokens, scores)), unk_id=data.special_ids.get("unknown"),
                         byte_fallback=BYTE in data.types),
    }


def _finite_scores(scores: list[int | float], where: str | None) -> list[float]:
    """The scores as floats; one that is NaN, infinite or beyond a float is an error naming it (a
    Unigram path sums them: the tokenizer.json form of the model refuses them too)."""
    floats = []
    for index, score in enumerate(scores):
        try:
            value = float(score)
        except OverflowError:
            value = math.inf
        if not math.isfinite(value):
            raise FormatError(f"score {score!r} is not a finite number", path=where, field=f"{KEY}scores[{index}]")
        floats.append(value)
    return floats


def _rwkv(data: GGUFTokenizerData, where: str | None, pattern: str | None) -> dict:
    """rwkv: greedy longest match over the tokens' bytes, decoded as byte-level text."""
    unknown = data.special_ids.get("unknown")
    return {"normalizer": None, "pre_tokenizer": None, "decoder": dict(BYTE_LEVEL_DECODER),
            "model": RWKV([unescaped_rwkv_token(token) for token in data.tokens], unknown)}


def _plamo2(data: GGUFTokenizerData, where: str | None, pattern: str | None) -> dict:
    """plamo2: the cheapest segmentation by scores (0 when the file has none), bytes as <0xXX>."""
    byte_ids = [0] * 256
    for token_id, (token, kind) in enumerate(zip(data.tokens, data.types)):
        if kind == BYTE and len(token) == 6 and token.startswith("<0x") and token.endswith(">") and \
                all(digit in "0123456789abcdefABCDEF" for digit in token[3:5]):
            byte_ids[int(token[3:5], 16)] = token_id
    missing = [f"<0x{byte:02X}>" for byte, token_id in enumerate(byte_ids) if token_id == 0]
    if missing:  # llama.cpp refuses the file (and takes a byte token of id 0 for a missing one)
        raise FormatError(f"a plamo2 tokenizer needs a BYTE token for every byte (id > 0); missing {missing[0]}"
                          f"{f' and {len(missing) - 1} more' if len(missing) > 1 else ''}",
                          path=where, field=KEY + "token_type")
    scores = data.scores if data.scores is not None else [0.0] * len(data.tokens)
    return {"normalizer": None, "pre_tokenizer": None,
            "decoder": {"type": "Sequence", "decoders": [{"type": "ByteFallback"}, {"type": "Fuse"}]},
            "model": Plamo2(data.tokens, scores, byte_ids,
                            frozenset(i for i, kind in enumerate(data.types) if kind == BYTE))}


def unescaped_rwkv_token(text: str) -> bytes:
    """The bytes of a token as llama.cpp's converter stores RWKV tokens (Python's repr of bytes
    without b'...'), read as llama.cpp reads them: backslash escapes \\t \\n \\r and \\xHH (lower-case
    hex), any other escaped char as itself, every other char as its UTF-8 bytes."""
    out = bytearray()
    data = text.encode("utf-8")
    position = 0
    while position < len(data):
        byte = data[position]
        position += 1
        if byte != BACKSLASH:
            out.append(byte)
        elif position < len(data):  # a lone backslash at the end adds nothing
            escaped = data[position]
            position += 1
            if escaped != ord("x"):
                out.append(RWKV_ESCAPES.get(escaped, escaped))
                continue
            digits = data[position:position + 2]
            position += len(digits)
            if len(digits) == 2:  # a cut \\x escape at the end adds nothing either
                out.append(sum((digit - 87 if digit >= 0x61 else digit - 48) << shift
                               for digit, shift in zip(digits, (4, 0))) & 0xFF)
    return bytes(out)


def _base64(data: bytes) -> str:
    """Base64 text, as tokenizer.json holds the charsmap."""
    return base64.b64encode(data).decode("ascii")


def _vocab(data: GGUFTokenizerData, where: str | None, tokens: list[str] | None = None) -> dict[str, int]:
    """token -> id; a token that appears twice is an error naming it."""
    tokens = data.tokens if tokens is None else tokens
    vocab = {token: i for i, token in enumerate(tokens)}
    if len(vocab) != len(tokens):
        seen: set[str] = set()
        twice = next(t for t in tokens if t in seen or seen.add(t))
        raise FormatError(f"token {twice!r} appears twice (llama.cpp aborts: its token map is then shorter than "
                          "its token list)", path=where, field=KEY + "tokens")
    return vocab
