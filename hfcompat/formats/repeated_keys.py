"""A key repeated in one object of a tokenizer.json: where `tokenizers` refuses it, where it keeps the last.

`tokenizers` (0.23) reads most objects keeping the last value of a repeated key, but serde's derived
readers of some refuse it ("duplicate field"). Found by loading a document with one key repeated,
for every key of every object kind (tests/formats/test_repeated_json_keys.py checks each against
`tokenizers`). It refuses a repeated key:

- anywhere in `truncation`, `padding` and an added token;
- a model's `type`, and the `type` of a Precompiled normalizer that is the whole normalizer (in a
  Sequence it keeps the last);
- in a post-processor: every key of a ByteLevel or Sequence one, `sep` and `cls` of a Bert or
  Roberta one, `single`, `pair` and `special_tokens` of a TemplateProcessing one, and every key
  of a template piece or of a special token's entry.

Everywhere else (the top level, the other keys of a model, its vocab, normalizers, pre-tokenizers,
decoders) the last value counts.
"""

from __future__ import annotations

from typing import Any

from ..errors import FormatError

EVERY_KEY = None  # in a rule: any repeated key is refused
TEMPLATE_KEYS = frozenset({"single", "pair", "special_tokens"})
SEP_CLS = frozenset({"sep", "cls"})


class RepeatedKeys(dict):
    """A JSON object read keeping the last value of each key, remembering the keys it saw twice."""

    repeated: tuple[str, ...] = ()


def keep_last(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """json's object_pairs_hook: the object as a dict (the last value of a key counts), a
    RepeatedKeys when a key is repeated."""
    data = dict(pairs)
    if len(data) == len(pairs):
        return data
    seen: set[str] = set()
    marked = RepeatedKeys(data)
    marked.repeated = tuple(dict.fromkeys(key for key, _ in pairs if key in seen or seen.add(key)))
    return marked


def check_repeated_keys(data: Any) -> None:
    """Refuse a key repeated where `tokenizers` refuses it (see the module's note)."""
    if not isinstance(data, dict):
        return
    for name in ("truncation", "padding"):
        _refuse(data.get(name), EVERY_KEY, name, deep=True)
    added = data.get("added_tokens")
    for index, token in enumerate(added if isinstance(added, list) else []):
        _refuse(token, EVERY_KEY, f"added_tokens[{index}]", deep=True)
    _refuse(data.get("model"), frozenset({"type"}), "model")
    normalizer = data.get("normalizer")
    if isinstance(normalizer, dict) and normalizer.get("type") == "Precompiled":
        _refuse(normalizer, frozenset({"type"}), "normalizer")
    _check_processor(data.get("post_processor"), "post_processor")


def _check_processor(processor: Any, field: str) -> None:
    """The post-processor's rules, into a Sequence's processors."""
    if not isinstance(processor, dict):
        return
    kind = processor.get("type")
    if kind in ("ByteLevel", "Sequence"):
        _refuse(processor, EVERY_KEY, field)
        inner = processor.get("processors")
        for index, item in enumerate(inner if kind == "Sequence" and isinstance(inner, list) else []):
            _check_processor(item, f"{field}.processors[{index}]")
    elif kind in ("BertProcessing", "RobertaProcessing"):
        _refuse(processor, SEP_CLS, field)
    elif kind == "TemplateProcessing":
        _refuse(processor, TEMPLATE_KEYS, field)
        for name in ("single", "pair"):
            pieces = processor.get(name)
            for index, piece in enumerate(pieces if isinstance(pieces, list) else []):
                _refuse(piece, EVERY_KEY, f"{field}.{name}[{index}]", deep=True)
        tokens = processor.get("special_tokens")
        for name, entry in (tokens.items() if isinstance(tokens, dict) else ()):
            _refuse(entry, EVERY_KEY, f"{field}.special_tokens[{name!r}]", deep=True)


def _refuse(value: Any, keys: frozenset[str] | None, field: str, deep: bool = False) -> None:
    """Raise if `value` (and, with `deep`, anything inside it) repeats one of `keys` (any key when None)."""
    if isinstance(value, RepeatedKeys):
        refused = [key for key in value.repeated if keys is EVERY_KEY or key in keys]
        if refused:
            raise FormatError(f"key {refused[0]!r} appears twice in one object, which tokenizers refuses here "
                              "(\"duplicate field\"; strict=False keeps the last)", field=field)
    if deep:
        inner = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
        for item in inner:
            _refuse(item, keys, field, deep=True)


def repeated_keys(data: Any, path: str = "") -> list[str]:
    """Every place (path and key) where an object of a document read with `keep_last` repeats a key."""
    found = [f"{path or '(top level)'}: {key!r}" for key in getattr(data, "repeated", ())]
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, (dict, list)):
                found += repeated_keys(value, f"{path}.{key}" if path else str(key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            if isinstance(value, (dict, list)):
                found += repeated_keys(value, f"{path}[{index}]")
    return found
