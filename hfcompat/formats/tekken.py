"""Mistral's tekken.json: a tiktoken encoding with special tokens in front of it.

The file holds `config` (the tiktoken `pattern`, `num_vocab_tokens`, `default_vocab_size`,
`default_num_special_tokens`, `version`), `vocab` (entries `{rank, token_bytes (base64),
token_str}` in rank order) and, from version v7 on, `special_tokens` (`{rank, token_str,
is_control}`). As mistral-common builds it: the special tokens take ids 0 .. n-1 (a file without
the list has the twenty of `DEPRECATED_SPECIAL_TOKENS`, then `<SPECIAL_i>` fillers up to n), and
only the first `default_vocab_size - n` vocab entries are live, rank r becoming id r + n.

Read, it is the pipeline of a rank file (tiktoken's pattern, byte-level BPE with the derived
merges) whose special tokens follow mistral-common's Tekkenizer: text that spells a special
token is plain text unless `allowed_special` names it, and decoding drops special tokens unless
`skip_special_tokens=False`. A control token is a special added token, any other an added token
that is not special. `add_bos` / `add_eos` add `<s>` / `</s>` as `Tekkenizer.encode(s, bos, eos)`.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import processors
from ..errors import FormatError, UnsupportedConversion
from ..files import atomic_write_text
from ..specials import TiktokenSpecials
from ..tokenizer import Tokenizer
from .tiktoken.ranks import TiktokenSpec, check_merges, dump_ranks, tiktoken_parts, tiktoken_tokenizer

VERSIONS = ("v1", "v2", "v3", "v7", "v11", "v13", "v15")
# The special tokens mistral-common gives a file of version v7 or older that lists none.
DEPRECATED_SPECIAL_TOKENS = (
    "<unk>", "<s>", "</s>", "[INST]", "[/INST]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]",
    "[TOOL_RESULTS]", "[/TOOL_RESULTS]", "[TOOL_CALLS]", "[IMG]", "<pad>", "[IMG_BREAK]",
    "[IMG_END]", "[PREFIX]", "[MIDDLE]", "[SUFFIX]", "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]",
    "[TOOL_CONTENT]",
)
FILLER = "<SPECIAL_{}>"
NEW_FILE_VERSION = "v7"  # written for a tokenizer that was not read from a tekken.json
VOCAB_KEYS = {"rank", "token_bytes", "token_str"}  # exactly these, as mistral-common asserts
CONFIG_KEYS = ("pattern", "num_vocab_tokens", "default_vocab_size", "default_num_special_tokens", "version")


@dataclass(frozen=True)
class SpecialToken:
    """One entry of `special_tokens`: its id, its text, and whether it is a control token."""

    rank: int
    token_str: str
    is_control: bool = True


@dataclass
class TekkenSource:
    """What a tokenizer read from a tekken.json keeps to write the file back as it was: the
    config, the vocab entries past the live ones, and the other top-level keys (image, audio)."""

    config: dict[str, Any]
    dead_vocab: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)


# ----- reading ------------------------------------------------------------------------------

def read_tekken(path: str | Path, *, add_bos: bool = False, add_eos: bool = False) -> Tokenizer:
    """Load a tekken.json as the Tokenizer that encodes and decodes as mistral-common's Tekkenizer."""
    path = Path(path)
    try:
        data = path.read_bytes()
        document = json.loads(data)
    except OSError as error:
        raise FormatError(f"cannot read: {error.strerror}", path=str(path)) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise FormatError(f"not valid JSON: {error}", path=str(path)) from None
    return tekken_tokenizer(document, str(path), hashlib.sha256(data).hexdigest(), add_bos=add_bos,
                            add_eos=add_eos)


def tekken_tokenizer(document: Any, where: str | None = None, digest: str | None = None, *,
                     add_bos: bool = False, add_eos: bool = False) -> Tokenizer:
    """The Tokenizer of a parsed tekken.json (`digest` lets the derived merges be cached)."""
    if not isinstance(document, dict):
        raise FormatError("expected a JSON object", path=where)
    config = _config(document.get("config"), where)
    specials = _special_tokens(document, config, where)
    count = config["default_num_special_tokens"]
    live = config["default_vocab_size"] - count
    vocab = document.get("vocab")
    if not isinstance(vocab, list):
        raise FormatError("expected a list of {rank, token_bytes, token_str}", path=where, field="vocab")
    if len(vocab) < live:
        raise FormatError(f"{len(vocab)} entries, fewer than default_vocab_size - "
                          f"default_num_special_tokens = {live}", path=where, field="vocab")
    ranks = _live_ranks(vocab[:live], count, where)
    spec = TiktokenSpec(None, config["pattern"], {token.token_str: token.rank for token in specials})
    plain = {token.token_str for token in specials if not token.is_control}
    tokenizer = tiktoken_tokenizer(ranks, spec, where, digest=f"tekken-{digest}-{live}" if digest else None,
                                   plain=plain)
    tokenizer.specials = TiktokenSpecials(None, config["pattern"], dict(spec.special_tokens),
                                          disallowed_default=(), skips_specials=True)
    tokenizer.post_processor = _bos_eos(spec.special_tokens, add_bos, add_eos)
    extra = {key: value for key, value in document.items() if key not in ("config", "vocab", "special_tokens")}
    tokenizer.source = TekkenSource(dict(document["config"]), vocab[live:], extra)
    return tokenizer


def _config(config: Any, where: str | None) -> dict[str, Any]:
    """The config object, its fields checked."""
    if not isinstance(config, dict):
        raise FormatError("expected an object", path=where, field="config")
    for key in CONFIG_KEYS:
        if key not in config:
            raise FormatError(f"missing key {key!r}", path=where, field=f"config.{key}")
    if not isinstance(config["pattern"], str):
        raise FormatError("expected a string", path=where, field="config.pattern")
    if config["version"] not in VERSIONS:
        raise FormatError(f"unknown version {config['version']!r} (known: {', '.join(VERSIONS)})",
                          path=where, field="config.version")
    for key in CONFIG_KEYS[1:4]:
        value = config[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise FormatError(f"expected a non-negative integer, got {value!r}", path=where,
                              field=f"config.{key}")
    if config["default_vocab_size"] < config["default_num_special_tokens"] + 256:
        raise FormatError("default_vocab_size leaves fewer than the 256 byte tokens after the "
                          "special tokens (mistral-common loads it and panics on text holding a byte it lacks)",
                          path=where, field="config.default_vocab_size")
    return config


def _special_tokens(document: dict, config: dict[str, Any], where: str | None) -> list[SpecialToken]:
    """The n special tokens with ids 0 .. n-1: the listed ones (or the deprecated defaults), then fillers."""
    count = config["default_num_special_tokens"]
    listed = document.get("special_tokens")
    if listed is None:
        if VERSIONS.index(config["version"]) > VERSIONS.index("v7"):
            raise FormatError(f"a version {config['version']} file must list its special tokens",
                              path=where, field="special_tokens")
        tokens = [SpecialToken(rank, text) for rank, text in enumerate(DEPRECATED_SPECIAL_TOKENS)]
    else:
        tokens = _listed_special_tokens(listed, where)
    if len(tokens) > count:
        raise FormatError(f"{len(tokens)} special tokens, more than default_num_special_tokens = {count}",
                          path=where, field="special_tokens")
    tokens += [SpecialToken(rank, FILLER.format(rank)) for rank in range(len(tokens), count)]
    if len({token.token_str for token in tokens}) != len(tokens):
        raise FormatError("a special token appears twice", path=where, field="special_tokens")
    return tokens


def _listed_special_tokens(listed: Any, where: str | None) -> list[SpecialToken]:
    """The `special_tokens` list, each entry checked: ranks 0, 1, 2, ... in order."""
    if not isinstance(listed, list):
        raise FormatError("expected a list", path=where, field="special_tokens")
    tokens = []
    for index, entry in enumerate(listed):
        name = f"special_tokens[{index}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("token_str"), str) \
                or not isinstance(entry.get("is_control", True), bool):
            raise FormatError("expected {rank, token_str, is_control}", path=where, field=name)
        if entry.get("rank") != index:
            raise FormatError(f"rank {entry.get('rank')!r} where {index} is expected (mistral-common loads it and "
                              "gives a special token the id of another)", path=where,
                              field=f"{name}.rank")
        tokens.append(SpecialToken(index, entry["token_str"], entry.get("is_control", True)))
    return tokens


def _live_ranks(entries: list[Any], shift: int, where: str | None) -> dict[bytes, int]:
    """Token bytes -> id (rank + shift) of the live vocab entries, checked as mistral-common checks them."""
    ranks: dict[bytes, int] = {}
    for index, entry in enumerate(entries):
        name = f"vocab[{index}]"
        if not isinstance(entry, dict) or entry.get("rank") != index or set(entry) != VOCAB_KEYS:
            raise FormatError(f"expected {{rank: {index}, token_bytes, token_str}} and no other key", path=where,
                              field=name)
        try:
            token = base64.b64decode(entry.get("token_bytes"), validate=True)
        except (TypeError, ValueError, binascii.Error):
            raise FormatError(f"token_bytes {entry.get('token_bytes')!r} is not base64", path=where,
                              field=f"{name}.token_bytes") from None
        if index < 256 and token != bytes([index]):
            raise FormatError(f"rank {index} must be the byte 0x{index:02X}, got {token!r}", path=where,
                              field=f"{name}.token_bytes")
        if token in ranks:
            raise FormatError(f"the bytes {token!r} appear twice (ranks {ranks[token] - shift} and {index})",
                              path=where, field=f"{name}.token_bytes")
        ranks[token] = index + shift
    return ranks


def _bos_eos(specials: dict[str, int], add_bos: bool, add_eos: bool) -> Any:
    """A template adding <s> and </s> as asked, or None."""
    for content, wanted in (("<s>", add_bos), ("</s>", add_eos)):
        if wanted and content not in specials:
            raise FormatError(f"add_bos/add_eos need {content!r} among the special tokens",
                              field="special_tokens")
    template = processors.bos_eos_template(("<s>", specials["<s>"]) if add_bos else None,
                                           ("</s>", specials["</s>"]) if add_eos else None)
    return None if template is None else processors.from_dict(template)


# ----- writing ------------------------------------------------------------------------------

def write_tekken(tokenizer: Tokenizer, path: str | Path) -> None:
    """Write `tokenizer` as a tekken.json, or raise UnsupportedConversion and write nothing."""
    atomic_write_text(Path(path), json.dumps(tekken_document(tokenizer), ensure_ascii=False) + "\n")


def tekken_document(tokenizer: Tokenizer) -> dict[str, Any]:
    """The tekken.json object of a byte-level BPE tokenizer whose added tokens take ids 0 .. n-1
    and whose vocabulary follows them."""
    ranks, spec = tiktoken_parts(tokenizer, allow_plain=True)
    count = len(spec.special_tokens)
    if sorted(spec.special_tokens.values()) != list(range(count)):
        raise UnsupportedConversion(f"added tokens: tekken.json gives the special tokens the ids 0 .. "
                                    f"n-1; these have {sorted(spec.special_tokens.values())[:8]} ...")
    if sorted(ranks.values()) != list(range(count, count + len(ranks))):
        raise UnsupportedConversion("model: tekken.json needs the vocabulary's ids to follow the special "
                                    "tokens without a gap")
    by_rank = sorted(ranks, key=ranks.__getitem__)
    misplaced = next((rank for rank, token in enumerate(by_rank[:256]) if token != bytes([rank])), None)
    if misplaced is not None:
        raise UnsupportedConversion(f"model: tekken.json needs the 256 single bytes in order as its first ranks "
                                    f"(mistral-common reads no other file); rank {misplaced} is "
                                    f"{by_rank[misplaced]!r}")
    check_merges(tokenizer.model, ranks, hashlib.sha256(dump_ranks(ranks)).hexdigest())
    source = tokenizer.source if isinstance(tokenizer.source, TekkenSource) else TekkenSource({})
    config = {**source.config, "pattern": spec.pattern, "default_vocab_size": count + len(ranks),
              "default_num_special_tokens": count, "version": source.config.get("version", NEW_FILE_VERSION)}
    vocab = [{"rank": rank - count, "token_bytes": base64.b64encode(token).decode("ascii"),
              "token_str": _token_str(token)} for token, rank in sorted(ranks.items(), key=lambda item: item[1])]
    vocab += source.dead_vocab if _continues(vocab, source.dead_vocab) else []
    config["num_vocab_tokens"] = len(vocab)
    document: dict[str, Any] = {"config": {key: config[key] for key in (*CONFIG_KEYS, *config) if key in config}}
    document["vocab"] = vocab
    added = tokenizer.added_vocabulary
    document["special_tokens"] = [
        {"rank": token_id, "token_str": content, "is_control": added.is_special(content)}
        for content, token_id in sorted(spec.special_tokens.items(), key=lambda item: item[1])]
    document.update(source.extra)
    return document


def _token_str(token: bytes) -> str | None:
    """The entry's text: the token as UTF-8, or None when it is not valid UTF-8 (as mistral-common writes)."""
    try:
        return token.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _continues(vocab: list[dict[str, Any]], dead: list[dict[str, Any]]) -> bool:
    """True when the kept dead entries go on from the live ones (their ranks follow)."""
    return bool(dead) and isinstance(dead[0], dict) and dead[0].get("rank") == len(vocab)
