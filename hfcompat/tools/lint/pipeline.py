"""Lint checks of the pipeline around the model: added and special tokens, split patterns, the
normalizer, what a SentencePiece model's tokenizer.json form cannot say, and a GGUF that names
no pre-tokenizer."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Callable

import regex

from ...errors import UnsupportedConversion
from ...formats.detect import detect_format
from ...formats.gguf.read import gguf_source
from ...formats.repeated_keys import keep_last, repeated_keys
from ...formats.sentencepiece.read import sentencepiece_source
from ...formats.tokenizer_json import check_json_expressible
from ...models.unigram import Unigram
from ...pipeline.bytelevel import chars_to_bytes
from ...pipeline.oniguruma import OnigurumaError, differences
from ...tokenizer import Tokenizer
from .base import Finding, as_dict, finding, is_byte_level, leaf_types, leaves, vocab_pairs

# Probe strings of the idempotence check: spaces, compatibility forms, combining marks, case,
# scripts and controls that normalizers treat specially.
PROBES = (
    "Hello  World", " leading and trailing ", "a\tb\nc\r\nd", "Ünïcödé café", "e\u0301\u0301",
    "\ufb01x ｶﾞ ①②", "Ⅻ ½ ²", "STRASSE Straße ΣΑΣ İstanbul", "\u212b\u2126\u00c5",
    "\u1100\u1161\u11a8", "你好，世界。", "こんにちは ｺﾝﾆﾁﾊ", "a\u00a0b\u3000c\u200bd",
    "\u2581already\u2581spaced", "x\u0000y\ufffdz", "🤗👩\u200d💻",
    "\u0627\u0644\u0639\u0631\u0628\u064a\u0629", "  ", "",
)


def shadowed_tokens(tokenizer: Tokenizer) -> list[Finding]:
    """Vocabulary tokens whose text holds an added token that the matcher takes first.

    The added-token matcher scans leftmost-longest without overlaps, so wherever a token's text
    occurs some match overlaps it (none is ever rejected when the pass has no single-word token):
    the model never sees that text whole.
    """
    surface = _surface_function(tokenizer)
    contents = _matched_contents(tokenizer) if surface is not None else {}
    if not contents:
        return []
    finder = regex.compile("|".join(map(regex.escape, sorted(contents, key=len, reverse=True))))
    tokens, ids = vocab_pairs(tokenizer.model)
    added_ids = set(tokenizer.added_vocabulary.id_to_added)
    shadowed, details = [], []
    for token, token_id in zip(tokens, ids):
        text = surface(token)
        if token_id in added_ids or text is None or finder.search(text) is None:
            continue
        holders = [content for text_form, (added_id, content) in contents.items()
                   if text_form in text and added_id != token_id]
        if holders:
            shadowed.append((token, token_id))
            details.append(f"{token!r} holds the added token {holders[0]!r}")
    return finding("shadowed-token", "warning", f"{len(shadowed)} vocabulary tokens hold the text of an added token",
                   "the added token is matched before the model runs, so the pipeline never emits them",
                   shadowed, details=details)


def _matched_contents(tokenizer: Tokenizer) -> dict[str, tuple[int, str]]:
    """Added tokens that are always matched where their text occurs: the text they match, in the
    surface form of `_surface_function`, -> (id, content).

    A pass holding a single-word token is left out (a rejected match hides others), and so are
    raw-text tokens when a normalizer runs (the normalized text may spell them where the raw text
    does not), and special tokens when they are not matched (encode_special_tokens, tiktoken's
    per-call sets).
    """
    vocabulary = tokenizer.added_vocabulary
    byte_level = is_byte_level(tokenizer)
    byte_level_forms = "ByteLevel" in leaf_types(tokenizer.normalizer)  # normalized forms in byte chars
    specials_off = vocabulary.encode_special_tokens or tokenizer.tiktoken is not None
    single_word = {token.normalized for token in vocabulary.id_to_added.values() if token.single_word}
    contents: dict[str, tuple[int, str]] = {}
    for token_id, token in vocabulary.id_to_added.items():
        if token.normalized in single_word or (token.special and specials_off):
            continue
        if not token.normalized and tokenizer.normalizer is not None:
            continue
        text = vocabulary.normalized_form.get(token_id, token.content) if token.normalized else token.content
        data = chars_to_bytes(text) if token.normalized and byte_level_forms else text.encode()
        if text and data is not None:
            contents[data.decode("latin-1") if byte_level else text] = (token_id, token.content)
    return contents


def _surface_function(tokenizer: Tokenizer) -> Callable[[str], str | None] | None:
    """How to read a vocabulary token as the normalized text it surely stands for (byte-level
    tokens as latin-1 text of their bytes, less a leading space that `add_prefix_space` may have
    put there; decorations removed), or None where that text depends on the token's place
    (Metaspace adds its "▁" itself)."""
    if is_byte_level(tokenizer):
        added_space = any(leaf.get("type") == "ByteLevel" and leaf.get("add_prefix_space")
                          for leaf in leaves(as_dict(tokenizer.pre_tokenizer)))
        return partial(_byte_surface, added_space)
    if "Metaspace" in leaf_types(tokenizer.pre_tokenizer):
        return None
    model = tokenizer.model
    prefix = getattr(model, "continuing_subword_prefix", None) or ""
    suffix = getattr(model, "end_of_word_suffix", None) or ""

    def undecorated(token: str) -> str:
        """The token without its continuing-subword prefix and end-of-word suffix."""
        if prefix and token.startswith(prefix):
            token = token[len(prefix):]
        return token[:-len(suffix)] if suffix and token.endswith(suffix) else token

    return undecorated


def _byte_surface(added_space: bool, token: str) -> str | None:
    """A byte-level token's bytes as latin-1 text (a leading space dropped when the pre-tokenizer
    may have added it), or None when it is not made of byte chars."""
    data = chars_to_bytes(token)
    if data is None:
        return None
    return data[1:].decode("latin-1") if added_space and data.startswith(b" ") else data.decode("latin-1")


def special_tokens(tokenizer: Tokenizer) -> list[Finding]:
    """What the post-processor inserts must be in the vocabulary, with that id, and special."""
    missing, mismatched, plain = [], [], []
    vocabulary = tokenizer.added_vocabulary
    for token, token_id in _inserted_tokens(tokenizer):
        known = tokenizer.token_to_id(token)
        if known is None:
            missing.append((token, token_id))
        elif known != token_id:
            mismatched.append((token, token_id))
        elif not vocabulary.is_special(token):
            plain.append((token, token_id))
    return [
        *finding("special-token-missing", "error", "the post-processor inserts tokens the vocabulary does not have",
                 "their ids decode to nothing or to another token", missing),
        *finding("special-token-id-mismatch", "error",
                 "the post-processor inserts ids that the vocabulary gives to other tokens",
                 "the model sees an id that means something else than the token named", mismatched,
                 details=[f"{t!r}: inserted as {i}, vocabulary id {tokenizer.token_to_id(t)}"
                          for t, i in mismatched]),
        *finding("special-token-not-special", "warning",
                 "the post-processor inserts tokens that are not marked special",
                 "decode(skip_special_tokens=True) keeps them, and text spelling them is not treated as a control "
                 "token", plain),
        *_unknown_token(tokenizer)]


def _inserted_tokens(tokenizer: Tokenizer) -> list[tuple[str, int]]:
    """The (token, id) pairs the post-processor inserts (TemplateProcessing, Bert, Roberta)."""
    pairs: list[tuple[str, int]] = []
    for component in leaves(as_dict(tokenizer.post_processor)):
        for name in ("cls", "sep"):
            if isinstance(component.get(name), list):
                pairs.append((component[name][0], component[name][1]))
        for special in (component.get("special_tokens") or {}).values():
            pairs += zip(special.get("tokens", []), special.get("ids", []))
    return list(dict.fromkeys(pairs))


def _unknown_token(tokenizer: Tokenizer) -> list[Finding]:
    """The unknown token a BPE, WordPiece or WordLevel model names must be in its vocabulary."""
    model = tokenizer.model
    unk = getattr(model, "unk_token", None)
    if unk is None or isinstance(model, Unigram) or model.token_to_id(unk) is not None:
        return []
    return finding("unk-token-missing", "error", f"the unknown token {unk!r} is not in the vocabulary",
                   "the first char (or word) outside the vocabulary makes encode fail", count=1)


def added_token_ids(path: Path, tokenizer: Tokenizer, format: str | None = None) -> list[Finding]:
    """A tokenizer.json's written added-token ids against the ids `tokenizers` assigns on load."""
    if detect_format(path, format) != "tokenizer.json":
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return []
    entries = data.get("added_tokens") if isinstance(data, dict) and "model" in data else None
    wrong = [(entry["content"], entry["id"]) for entry in entries or []
             if isinstance(entry, dict) and entry.get("content")
             and tokenizer.token_to_id(entry["content"]) not in (None, entry.get("id"))]
    return finding("added-token-id-mismatch", "error", "added tokens are written with ids they do not get",
                   "tokenizers ignores the written ids and numbers added tokens itself, so readers that trust "
                   "the file disagree with it", wrong,
                   details=[f"{t!r}: written {i}, loaded {tokenizer.token_to_id(t)}" for t, i in wrong])


def repeated_json_keys(path: Path, format: str | None = None) -> list[Finding]:
    """Keys a tokenizer.json repeats in one object where tokenizers keeps the last value."""
    if detect_format(path, format) != "tokenizer.json":
        return []
    try:
        places = repeated_keys(json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=keep_last))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return []
    return finding("repeated-json-key", "warning", f"{len(places)} keys are repeated in one object",
                   "tokenizers (and hfcompat) keep the last value there; other JSON readers may keep the first "
                   "or refuse the file", count=len(places), details=places)


def regex_patterns(tokenizer: Tokenizer) -> list[Finding]:
    """Split and Replace patterns that Oniguruma and the `regex` module read differently."""
    findings = []
    components = [("pre_tokenizer", leaf) for leaf in leaves(as_dict(tokenizer.pre_tokenizer))]
    components += [("normalizer", leaf) for leaf in leaves(as_dict(tokenizer.normalizer))]
    for owner, component in components:
        pattern = component.get("pattern")
        if not isinstance(pattern, dict) or "Regex" not in pattern:
            continue
        try:
            found = differences(pattern["Regex"])
        except OnigurumaError:
            continue
        findings += finding("regex-engine-difference", "warning",
                            f"the {owner}'s {component['type']} pattern {pattern['Regex']!r} means something else "
                            "outside Oniguruma",
                            "tokenizers runs it in Oniguruma; a port or a tiktoken-minded author reading it in "
                            "another engine (Python regex, fancy-regex) splits text differently",
                            count=len(found), details=found)
    return findings


def normalizer_idempotence(tokenizer: Tokenizer) -> list[Finding]:
    """Probe strings whose normalized form changes when normalized again."""
    normalizer = tokenizer.normalizer
    if normalizer is None:
        return []
    changed = []
    for probe in PROBES:
        once = normalizer.normalize_str(probe)
        twice = normalizer.normalize_str(once)
        if once != twice:
            changed.append(f"{probe!r} -> {once!r} -> {twice!r}")
    return finding("normalizer-not-idempotent", "info",
                   f"the normalizer is not idempotent on {len(changed)} of {len(PROBES)} probe strings",
                   "text that was normalized before (stored, or decoded and re-encoded) encodes differently",
                   count=len(changed), details=changed)


def sentencepiece_conversion(tokenizer: Tokenizer) -> list[Finding]:
    """A SentencePiece model that tokenizer.json cannot run exactly."""
    if sentencepiece_source(tokenizer) is None:
        return []
    try:
        check_json_expressible(tokenizer)
    except UnsupportedConversion as error:
        return finding("sentencepiece-json-inexact", "warning",
                       "this SentencePiece model has no exact tokenizer.json form",
                       "a converted tokenizer.json (transformers' fast tokenizer) encodes some text differently "
                       "from sentencepiece", count=1, details=[str(error)])
    return []


def gguf_pre_name(tokenizer: Tokenizer) -> list[Finding]:
    """A gpt2 GGUF without a `tokenizer.ggml.pre` name, read (as llama.cpp reads it) with the default splits."""
    source = gguf_source(tokenizer)
    if source is None or source.model != "gpt2" or source.pre:
        return []
    return finding("gguf-pre-missing", "warning", "this GGUF names no pre-tokenizer (tokenizer.ggml.pre)",
                   "llama.cpp splits its text with its 'default' regexes, and hfcompat with it, which need not "
                   "be the ones the tokenizer was made with (llama.cpp warns that generation quality will be "
                   "degraded)", count=1)
