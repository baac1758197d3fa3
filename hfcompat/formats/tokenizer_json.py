"""HuggingFace tokenizer.json: read it into a Tokenizer and write a Tokenizer back."""

from __future__ import annotations

import json
import re
from itertools import chain, compress
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from .. import decoders, models, normalizers, pre_tokenizers, processors, segmentation
from ..collector import paused_while_loading
from ..errors import FormatError, UnsupportedConversion
from ..files import atomic_write_text
from ..models import model_from_dict
from ..pipeline.fields import as_bool, as_str, as_uint, field_value
from ..pipeline.added_vocabulary import AddedToken
from ..pipeline.padding import PaddingParams
from ..pipeline.truncation import TruncationParams
from ..tokenizer import Tokenizer
from ..pipeline.json_numbers import serde_json_f64, serde_json_int
from .lost_state import TOKENIZER_JSON, lost_in, refuse_or_warn
from .repeated_keys import check_repeated_keys, keep_last

if TYPE_CHECKING:
    from ..segmentation.pre_tokenizer import SideFiles

VERSION = "1.0"
TOP_LEVEL_KEYS = ("version", "truncation", "padding", "added_tokens", "normalizer", "pre_tokenizer",
                  "post_processor", "decoder", "model")
# serde_json's recursion limit: HF's reader refuses the 128th container nested in another.
MAX_DEPTH = 127
ADDED_TOKEN_FLAGS = ("single_word", "lstrip", "rstrip", "normalized", "special")
_COMPONENTS: dict[str, Callable[[Any], Any]] = {
    "normalizer": normalizers.from_dict,
    "pre_tokenizer": pre_tokenizers.from_dict,
    "post_processor": processors.from_dict,
    "decoder": decoders.from_dict,
}


def read_tokenizer_json(path: str | Path, strict: bool = True) -> Tokenizer:
    """Read a tokenizer.json file; any problem is a FormatError naming the file.

    `strict=False` loads what only hfcompat refuses: a vocab id shared by two tokens (`tokenizers`
    loads it, and which of the two an id decodes to then depends on its hash order); and a key
    repeated in one object even where tokenizers refuses it (elsewhere the last one counts, as in
    tokenizers: repeated_keys.py).
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FormatError("no such file", path=str(path)) from None
    except UnicodeDecodeError as error:
        raise FormatError(f"not UTF-8 text ({error.reason} at byte {error.start})",
                          path=str(path)) from None
    try:
        return tokenizer_from_json(text, strict)
    except FormatError as error:
        raise error.at(path=str(path)) from None


def tokenizer_from_json(text: str, strict: bool = True) -> Tokenizer:
    """Build a Tokenizer from tokenizer.json text, refusing what HF's reader refuses."""
    with paused_while_loading():
        return _tokenizer_from_json(text, strict)


def _tokenizer_from_json(text: str, strict: bool) -> Tokenizer:
    """`tokenizer_from_json`, the collector paused."""
    if not text.strip():
        raise FormatError("the file is empty; expected a tokenizer.json object")
    try:
        data = json.loads(text, parse_float=serde_json_f64, parse_constant=_refuse_constant,
                          parse_int=serde_json_int if _has_negative_zero(text) else None,
                          object_pairs_hook=keep_last if strict else None)
    except json.JSONDecodeError as error:
        raise FormatError(f"not valid JSON: {error.msg} at line {error.lineno} "
                          f"column {error.colno}") from None
    except RecursionError:
        raise FormatError(f"JSON nested deeper than {MAX_DEPTH} levels (tokenizers' recursion limit)") from None
    if strict:
        check_repeated_keys(data)
    check_file_form(data, strict)
    tokenizer = tokenizer_from_dict(data)
    build_compiled(tokenizer)
    return tokenizer


def build_compiled(tokenizer: Tokenizer) -> None:
    """Build the model's compiled tables as part of loading, not on the first text (tokenizers,
    sentencepiece and tiktoken build theirs when they load)."""
    build = getattr(tokenizer.model, "build_compiled", None)
    if build is not None:
        build()


def _has_negative_zero(text: str) -> bool:
    """Whether the integer literal `-0` (a float to serde_json, so no id) may stand in `text`:
    only such a text pays for the parse_int hook. ("-0" inside a string is a false alarm.)"""
    return any(_NEGATIVE_ZERO.match(text, match.start()) for match in _MINUS_ZERO.finditer(text))


_MINUS_ZERO = re.compile(r"-0")
_NEGATIVE_ZERO = re.compile(r"-0(?![0-9.eE])")


def check_file_form(data: Any, strict: bool = True) -> None:
    """What HF's reader refuses in a file beyond its components: nesting past serde_json's limit,
    unknown top-level keys, added tokens without all their fields or with an id that is no u32;
    and, when `strict`, a model vocab id given to two tokens."""
    _check_depth(data)
    if not isinstance(data, dict):
        return  # tokenizer_from_dict says what is wrong
    for key in data:
        if key not in TOP_LEVEL_KEYS:
            raise FormatError(f"unknown key {key!r} (tokenizers refuses keys other than "
                              f"{', '.join(TOP_LEVEL_KEYS)})", field=key)
    if "version" in data:
        as_str(data["version"], "version")
    entries = data.get("added_tokens", [])
    if not isinstance(entries, list):
        raise FormatError(f"expected a list, got {type(entries).__name__}", field="added_tokens")
    for index, entry in enumerate(entries):
        try:
            _check_added_token_entry(entry)
        except FormatError as error:
            raise error.at(field=f"added_tokens[{index}]") from None
    vocab = data["model"].get("vocab") if isinstance(data.get("model"), dict) else None
    if strict and isinstance(vocab, dict):
        check_unique_ids(vocab, "model.vocab")


def _check_depth(data: Any) -> None:
    """Refuse JSON nested deeper than MAX_DEPTH containers (the top-level object is the first).

    Level by level, with C iterators: a 128k-token vocab and its 280k merge pairs are 400k
    values to look at, and a Python loop over them cost a third of a second."""
    level, containers = 1, [data] if type(data) in _CONTAINERS else []
    while containers:
        if level > MAX_DEPTH:
            raise FormatError(f"JSON nested deeper than {MAX_DEPTH} levels (tokenizers' recursion limit)")
        values = list(chain.from_iterable(c.values() if type(c) is dict else c for c in containers))
        level, containers = level + 1, list(compress(values, map(_CONTAINERS.__contains__, map(type, values))))


_CONTAINERS = frozenset((dict, list))


def _check_added_token_entry(entry: Any) -> None:
    """An added_tokens entry as HF reads it: every field present, `id` a u32."""
    if not isinstance(entry, dict):
        raise FormatError(f"expected an object, got {type(entry).__name__}")
    as_uint(field_value(entry, "id"), "id")
    as_str(field_value(entry, "content"), "content")
    for name in ADDED_TOKEN_FLAGS:
        as_bool(field_value(entry, name), name)


def check_unique_ids(vocab: dict[str, Any], field: str) -> None:
    """Refuse a vocab that gives one id to two tokens (only one of them could decode)."""
    try:
        if len(set(vocab.values())) == len(vocab):
            return  # the usual case, found without a Python loop
    except TypeError:
        pass  # an id that is a list or an object: the loop skips it, the model's reader names it
    seen: dict[Any, str] = {}
    for token, token_id in vocab.items():
        if not isinstance(token_id, int) or isinstance(token_id, bool):
            continue  # the model's reader says what is wrong with it
        if token_id in seen:
            raise FormatError(f"id {token_id} is given to both {seen[token_id]!r} and {token!r} (tokenizers "
                              "loads it and decodes the id to either; strict=False loads it so)", field=field)
        seen[token_id] = token


def _refuse_constant(name: str) -> float:
    """NaN and Infinity are not JSON; HF's reader refuses them too."""
    raise FormatError(f"{name} is not a valid JSON number")


def tokenizer_from_dict(data: Any, extensions: SideFiles | None = None) -> Tokenizer:
    """Build a Tokenizer from the parsed tokenizer.json object.

    `extensions` (hfcompat_tokenizer.json of a remote-code directory only) also accepts
    hfcompat's own components, reading the files they name from it.
    """
    if not isinstance(data, dict):
        raise FormatError(f"expected a JSON object at the top level, got {type(data).__name__}")
    if "version" in data and data["version"] != VERSION:
        raise FormatError(f"unknown tokenizer version {data['version']!r} (expected {VERSION!r})",
                          field="version")
    if "model" not in data:
        raise FormatError("missing the required `model`", field="model")
    return tokenizer_around(model_from_dict(data["model"]), data, extensions)


def tokenizer_around(model: Any, data: dict, extensions: SideFiles | None = None) -> Tokenizer:
    """A Tokenizer of `model` (a built model, perhaps one tokenizer.json cannot hold) and the other
    sections of the tokenizer.json object `data`."""
    builders = {**_COMPONENTS, **_extension_builders(extensions)}
    parts = {name: _section(name, build, data.get(name)) for name, build in builders.items()}
    truncation = _section("truncation", TruncationParams.from_dict, data.get("truncation"))
    padding = _section("padding", PaddingParams.from_dict, data.get("padding"))
    tokenizer = Tokenizer(model, truncation=truncation, padding=padding, **parts)
    tokenizer.add_tokens(_added_tokens(data.get("added_tokens")))
    return tokenizer


def _extension_builders(extensions: SideFiles | None) -> dict[str, Callable[[Any], Any]]:
    """The component readers that replace the plain ones when extensions are allowed."""
    if extensions is None:
        return {}
    return {"pre_tokenizer": lambda data: segmentation.pre_tokenizer_from_extension_dict(data, extensions)}


def _section(name: str, build: Callable[[Any], Any], value: Any) -> Any:
    """Build one top-level section (a pipeline component, truncation, padding), or None."""
    if value is None:
        return None
    try:
        return build(value)
    except FormatError as error:
        if error.field and error.field.split(".")[0] == name:
            raise
        raise error.at(field=name) from None


def _added_tokens(entries: Any) -> list[AddedToken]:
    """The added tokens in file order (their ids are re-assigned on load, as HF does)."""
    if entries is None:
        return []
    if not isinstance(entries, list):
        raise FormatError("expected a list", field="added_tokens")
    tokens = []
    for i, entry in enumerate(entries):
        try:
            tokens.append(AddedToken.from_dict(entry))
        except FormatError as error:
            raise FormatError(error.message, field=f"added_tokens[{i}]") from None
    return tokens


def tokenizer_to_dict(tokenizer: Tokenizer, extensions: SideFiles | None = None,
                      with_model: bool = True) -> dict[str, Any]:
    """The tokenizer.json object of a Tokenizer, keys in HF's order (`model` None without `with_model`).

    `extensions` (hfcompat_tokenizer.json of a remote-code directory only) allows hfcompat's own
    components, whose data files it collects; without it they raise UnsupportedConversion.
    """
    def dump(component: Any) -> Any:
        return None if component is None else component.to_dict()

    def dump_pre_tokenizer(component: Any) -> Any:
        if component is None or extensions is None:
            return dump(component)
        return segmentation.pre_tokenizer_to_extension_dict(component, extensions)

    return {
        "version": VERSION,
        "truncation": dump(tokenizer.truncation),
        "padding": dump(tokenizer.padding),
        "added_tokens": tokenizer.added_vocabulary.to_list(),
        "normalizer": dump(tokenizer.normalizer),
        "pre_tokenizer": dump_pre_tokenizer(tokenizer.pre_tokenizer),
        "post_processor": dump(tokenizer.post_processor),
        "decoder": dump(tokenizer.decoder),
        "model": tokenizer.model.to_dict() if with_model else None,
    }


def tokenizer_to_json(tokenizer: Tokenizer, pretty: bool = False, extensions: SideFiles | None = None,
                      exact: bool = True) -> str:
    """tokenizer.json text: compact like HF's to_str(), or indented like its save().

    A tokenizer whose behaviour tokenizer.json cannot hold raises UnsupportedConversion; with
    `exact=False` the nearest tokenizer.json is returned, with an InexactConversion warning.
    """
    check_json_expressible(tokenizer, exact)
    data = tokenizer_to_dict(tokenizer, extensions)
    if pretty:
        return json.dumps(data, ensure_ascii=False, indent=2)
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def write_tokenizer_json(tokenizer: Tokenizer, path: str | Path, pretty: bool = True, exact: bool = True) -> None:
    """Write tokenizer.json atomically: a failed write leaves no partial file (see `tokenizer_to_json`)."""
    atomic_write_text(Path(path), tokenizer_to_json(tokenizer, pretty=pretty, exact=exact))


def _holds_surrogate(text: str) -> bool:
    """Whether `text` holds a lone surrogate (which no JSON file, UTF-8, can hold)."""
    return not text.isascii() and any("\ud800" <= char <= "\udfff" for char in text)


def check_json_expressible(tokenizer: Tokenizer, exact: bool = True) -> None:
    """Raise UnsupportedConversion where a tokenizer does what tokenizer.json cannot say (most of it
    read from a .model); with `exact=False` only where no JSON file can hold it, warning otherwise."""
    model = tokenizer.model
    not_utf8 = sorted(token for token in model.get_vocab() if _holds_surrogate(token))
    if not_utf8:
        raise UnsupportedConversion(f"model: the pieces {not_utf8[:5]!r} are not UTF-8 (their bytes stand as lone "
                                    "surrogates), which a JSON file cannot hold")
    decoder = {} if tokenizer.decoder is None else tokenizer.decoder.to_dict()
    if _holds_surrogate(json.dumps(decoder, ensure_ascii=False)):
        raise UnsupportedConversion(
            "decoder: SentencePiece writes a \"▁\" spelled in byte pieces as it is and turns the pieces' own into "
            "spaces, which tokenizer.json's decoders cannot tell apart (hfcompat marks the pieces' own with a "
            "surrogate, which JSON cannot hold)")
    refuse_or_warn(json_losses(tokenizer), exact)


def json_losses(tokenizer: Tokenizer) -> list[str]:
    """What a tokenizer.json of `tokenizer` would run differently, each naming the component.

    A user-defined symbol that the charsmap cannot touch passes; one where a rule begins (even one
    running on into the next char, a combining mark after it) is a difference.
    """
    model = tokenizer.model
    lost = []
    singles = sorted(piece for i in getattr(model, "reserved_ids", ()) if len(piece := model.id_to_token(i)) == 1)
    if singles:
        lost.append(
            f"model: SentencePiece's Unigram never matches the one-char control/unused pieces {singles!r} in "
            "text (it reads such a char as unknown), which tokenizer.json's Unigram cannot express (it would "
            "match them)")
    if isinstance(model, models.WordLevel) and model.byte_fallback:
        lost.append(
            "model: SentencePiece's WORD model spells an unknown word in byte pieces, which tokenizer.json's "
            "WordLevel cannot express (it gives the unknown token)")
    if isinstance(model, models.WordLevel) and model.word_mark is not None:
        lost.append(
            "model: SentencePiece gives a run of unknown words of its WORD model one unknown id, which "
            "tokenizer.json's WordLevel cannot express (it gives one unknown token per word)")
    stand_ins = sorted(getattr(model, "stand_ins", {}))
    if stand_ins:
        lost.append(
            f"model: SentencePiece's BPE merges through the chars {stand_ins!r}, which are no piece, and spells "
            "them in bytes (or unk) only where no merge joined them; tokenizer.json's BPE cannot merge a char "
            "outside its vocab")
    unused = getattr(model, "unused_ids", frozenset())
    if unused:
        pieces = [model.id_to_token(i) for i in sorted(unused)]
        lost.append(
            f"model: SentencePiece's BPE splits the UNUSED pieces {pieces!r} it merges back into their "
            "parts, which tokenizer.json's BPE cannot express (it would emit them)")
    return lost + lost_in(tokenizer, TOKENIZER_JSON)
