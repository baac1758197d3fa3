"""The older files of a transformers directory, merged into its tokenizer_config.json as transformers 5.x does.

When tokenizer_config.json has no `added_tokens_decoder` (written by transformers before 4.34, or absent),
`from_pretrained` reads, in this order:
- special_tokens_map.json: each key overrides the config's (a dict becomes a special AddedToken with its
  flags); its `extra_special_tokens` list extends the config's; its `additional_special_tokens` is used only
  when the config names no extra special tokens at all;
- added_tokens.json (token -> id): each token is added, special (not normalized) when a role or an extra
  special token names it, else normalized; TokenizersBackend gives it the vocabulary's id or the next free
  one (a Python tokenizer keeps the file's id: pretrained.py warns where hfcompat cannot);
- tokenizer.json's `added_tokens`, with their flags, replacing an entry of added_tokens.json with the same id.
The result is the `added_tokens_decoder` those files amount to. A config with an `added_tokens_decoder`
(even empty) makes transformers ignore all three files. `declared_token` is how a role or extra token the
config gives as an AddedToken dict is added when it is new: with its own flags.
"""

from __future__ import annotations

from typing import Any

from .classes import token_text

DECODER = "added_tokens_decoder"
EXTRA = "extra_special_tokens"
ADDITIONAL = "additional_special_tokens"
FLAGS = ("single_word", "lstrip", "rstrip", "normalized", "special")


def with_legacy_files(config: dict[str, Any], special_tokens_map: dict[str, Any] | None,
                      added_tokens: dict[str, Any] | None, file_added_tokens: list[Any] | None,
                      roles: tuple[str, ...]) -> dict[str, Any]:
    """The config transformers ends up with after reading the legacy files (the config itself when it has
    an added_tokens_decoder)."""
    if DECODER in config:
        return config
    special_tokens_map = special_tokens_map or {}
    merged = with_special_tokens_map(config, special_tokens_map)
    decoder = added_tokens_entries(added_tokens or {}, declared_special_texts(merged, roles))
    # Set aside until here: transformers does not count these as special when reading added_tokens.json.
    if ADDITIONAL in special_tokens_map and extras_key(merged) is None:
        merged[ADDITIONAL] = special_tokens_map[ADDITIONAL]
    for entry in file_added_tokens or []:
        if isinstance(entry, dict) and isinstance(entry.get("id"), int):
            decoder[entry["id"]] = {key: value for key, value in entry.items() if key != "id"}
    if decoder:
        merged[DECODER] = {str(index): entry for index, entry in sorted(decoder.items())}
    return merged


def extras_key(config: dict[str, Any]) -> str | None:
    """The config key transformers takes its extra special tokens from (an empty extra_special_tokens yields
    to additional_special_tokens), or None when it names none."""
    if config.get(EXTRA) or (EXTRA in config and ADDITIONAL not in config):
        return EXTRA
    return ADDITIONAL if ADDITIONAL in config else None


def with_special_tokens_map(config: dict[str, Any], special_tokens_map: dict[str, Any]) -> dict[str, Any]:
    """The config with special_tokens_map.json's entries laid over it (but its additional_special_tokens)."""
    merged = dict(config)
    for key, value in special_tokens_map.items():
        if key == EXTRA and isinstance(value, list):
            target = extras_key(merged) or EXTRA
            existing = list(merged.get(target) or [])
            merged[target] = existing + [t for t in map(_special_entry, value) if t not in existing]
        elif key not in (EXTRA, ADDITIONAL):
            merged[key] = _special_entry(value)
    return merged


def _special_entry(value: Any) -> Any:
    """A special_tokens_map.json value: a dict becomes a special AddedToken dict, anything else stays."""
    if not isinstance(value, dict):
        return value
    return {"__type": "AddedToken", **{k: v for k, v in value.items() if k != "special"}, "special": True}


def declared_special_texts(config: dict[str, Any], roles: tuple[str, ...]) -> set[str]:
    """The tokens the config itself names as roles or extra special tokens (not a class's defaults)."""
    texts = {token_text(config[key]) for key in roles if config.get(key)}
    key = extras_key(config)
    extras = config.get(key) if key is not None else None
    if isinstance(extras, list):
        texts.update(token_text(token) for token in extras)
    return {text for text in texts if text}


def added_tokens_entries(added_tokens: dict[str, Any], special: set[str]) -> dict[int, dict[str, Any]]:
    """added_tokens.json as id -> AddedToken dict, as transformers reads it."""
    entries = {}
    for content, index in added_tokens.items():
        if isinstance(index, int) and isinstance(content, str):
            is_special = content in special
            entries[index] = {"content": content, "single_word": False, "lstrip": False, "rstrip": False,
                              "normalized": not is_special, "special": is_special}
    return entries


def declared_token(value: Any, content: str, special: bool, lstrip: bool) -> dict[str, Any]:
    """The AddedToken dict a role or extra token is added with when it is new: the config's own flags when
    it gives an AddedToken dict (a role is always special; `normalized` defaults to not special as in
    tokenizers), else plain special with the class's `lstrip`."""
    if not isinstance(value, dict) or value.get("content") != content:
        return {"content": content, "lstrip": lstrip, "normalized": False, "special": True}
    flags = {key: value[key] for key in FLAGS if isinstance(value.get(key), bool)}
    flags.setdefault("normalized", not flags.get("special", False))
    if special:
        flags["special"] = True
    return {"content": content, **flags}
