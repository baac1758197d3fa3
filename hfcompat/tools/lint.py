"""`hfcompat.lint`: what is wrong or risky in a tokenizer that still loads.

Each check is exact: it reports only what it proves, and skips a tokenizer it cannot judge
exactly (a check that does not apply to a model kind returns nothing). The checks:

- `unreachable-token` / `merge-unreachable`: BPE vocabulary tokens that the merge loop cannot
  build from their own string (the authoritative test: run the model's merges on the token's
  initial symbols and see whether that one token comes back; a token made inside a word never
  had a merge cross its edges, so it comes back alone too). With `ignore_merges` such a token is
  still produced when a whole pre-token equals it, so it is reported as information.
- `unreachable-byte`: byte tokens that no UTF-8 text holds (bytes C0, C1, F5..FF, or a byte
  sequence no valid UTF-8 contains), and byte-fallback tokens `<0xHH>` of bytes that only chars
  inside the vocabulary have.
- `shadowed-token`: vocabulary tokens whose text holds an added token, which the added-token
  matcher always takes first, so the model never sees that text whole.
- `special-token-missing`, `special-token-id-mismatch`, `special-token-not-special`,
  `unk-token-missing`: what the post-processor inserts, and the model's unknown token.
- `byte-level-gap`, `byte-fallback-gap`: byte symbols missing from a byte-level or byte-fallback
  vocabulary.
- `regex-engine-difference`: Split / Replace patterns that Oniguruma (what `tokenizers` runs) and
  the `regex` module read differently (`hfcompat.pipeline.oniguruma.differences`).
- `normalizer-not-idempotent`: normalize(normalize(x)) != normalize(x) on a probe string.
- `duplicate-ids`, `duplicate-tokens`, `id-gaps`: the id space.
- `added-token-id-mismatch`: a tokenizer.json whose added tokens say other ids than the ones
  `tokenizers` gives them on load (it ignores the written ids).
- `sentencepiece-json-inexact`: a SentencePiece model whose tokenizer.json conversion cannot be
  exact (the reasons `hfcompat.convert` refuses with).

A GGUF's `tokenizer.ggml.pre` name is not checked against its tokens: the file ties the name to
nothing else, and what a vocabulary "looks like" would be a guess.
"""

from __future__ import annotations

import codecs
import json
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

import regex

from ..errors import UnsupportedConversion
from ..formats.load import load
from ..formats.tokenizer_json import check_json_expressible
from ..models.bpe import BPE
from ..models.unigram import Unigram
from ..pipeline.bytelevel import BYTE_TO_CHAR, chars_to_bytes
from ..pipeline.oniguruma import OnigurumaError, differences
from ..tokenizer import Tokenizer

SEVERITIES = ("error", "warning", "info")
SAMPLE = 10  # tokens or ids shown per finding
DETAILS = 5  # details shown per finding
# Bytes that occur in UTF-8 text; C0, C1 and F5..FF never do.
UTF8_BYTES = frozenset(range(0xC0)) | frozenset(range(0xC2, 0xF5))
# Lead bytes that accept any continuation byte next, with 0, 1 or 2 continuation bytes already
# read: what may stand before a token that starts inside a char.
_LEADS = (b"", b"\xc2", b"\xe1", b"\xe1\x80", b"\xf1", b"\xf1\x80", b"\xf1\x80\x80")
# Probe strings of the idempotence check: spaces, compatibility forms, combining marks, case,
# scripts and controls that normalizers treat specially.
PROBES = (
    "Hello  World", " leading and trailing ", "a\tb\nc\r\nd", "Ünïcödé café", "e\u0301\u0301",
    "\ufb01x ｶﾞ ①②", "Ⅻ ½ ²", "STRASSE Straße ΣΑΣ İstanbul", "\u212b\u2126\u00c5", "\u1100\u1161\u11a8",
    "你好，世界。", "こんにちは ｺﾝﾆﾁﾊ", "a\u00a0b\u3000c\u200bd", "\u2581already\u2581spaced", "x\u0000y\ufffdz",
    "🤗👩\u200d💻", "\u0627\u0644\u0639\u0631\u0628\u064a\u0629", "  ", "",
)


@dataclass
class Finding:
    """One problem: a stable code, its severity, what was found and why it matters."""

    code: str
    severity: str  # "error", "warning" or "info"
    message: str  # what was found, one sentence
    why: str  # why it matters, one sentence
    count: int = 0  # how many tokens, ids or cases
    tokens: list[str] = field(default_factory=list)  # a sample
    ids: list[int] = field(default_factory=list)  # the ids of the sample tokens, or a sample of ids
    details: list[str] = field(default_factory=list)  # patterns, probes, reasons

    def to_dict(self) -> dict[str, Any]:
        """Plain data (for --json)."""
        return asdict(self)

    def __str__(self) -> str:
        lines = [f"{self.severity}: {self.code}: {self.message}", f"    why: {self.why}"]
        if self.tokens:
            ids = [f"={i}" for i in self.ids] if len(self.ids) == len(self.tokens) else [""] * len(self.tokens)
            shown = ", ".join(f"{token!r}{i}" for token, i in zip(self.tokens, ids))
            lines.append(f"    tokens: {shown}" + (" ..." if self.count > len(self.tokens) else ""))
        elif self.ids:
            lines.append(f"    ids: {', '.join(map(str, self.ids))}" + (" ..." if self.count > len(self.ids) else ""))
        lines += [f"    {detail}" for detail in self.details]
        return "\n".join(lines)


def _finding(code: str, severity: str, message: str, why: str, pairs: list[tuple[str, int]] | None = None,
             count: int | None = None, details: Iterable[str] = ()) -> list[Finding]:
    """The finding, with a sample of its (token, id) pairs and of its details, in a list; an
    empty list when it counts nothing."""
    pairs = pairs or []
    count = len(pairs) if count is None else count
    if not count:
        return []
    return [Finding(code, severity, message, why, count, [token for token, _ in pairs[:SAMPLE]],
                    [i for _, i in pairs[:SAMPLE]], list(details)[:DETAILS])]


def lint(tokenizer_or_path: Tokenizer | str | Path, **load_options: Any) -> list[Finding]:
    """The findings on a tokenizer (or the file `hfcompat.load` reads), errors first."""
    tokenizer = tokenizer_or_path if isinstance(tokenizer_or_path, Tokenizer) else load(tokenizer_or_path,
                                                                                         **load_options)
    findings = [finding for check in CHECKS for finding in check(tokenizer)]
    if not isinstance(tokenizer_or_path, Tokenizer):
        findings += added_token_ids(Path(tokenizer_or_path), tokenizer)
    return sorted(findings, key=lambda finding: SEVERITIES.index(finding.severity))


def has_errors(findings: Iterable[Finding]) -> bool:
    """True when a finding has error severity (the CLI's exit code 1)."""
    return any(finding.severity == "error" for finding in findings)


def report(findings: list[Finding], name: str) -> str:
    """The human-readable report: one block per finding and a count line."""
    counts = {severity: sum(f.severity == severity for f in findings) for severity in SEVERITIES}
    summary = ", ".join(f"{n} {severity}{'s' if n != 1 else ''}" for severity, n in counts.items())
    return "\n".join([f"{name}: {summary}", *map(str, findings)])


# ----- reachability -------------------------------------------------------------------------


def unreachable_tokens(tokenizer: Tokenizer) -> list[Finding]:
    """BPE tokens the merge loop cannot build from their own initial symbols."""
    unreachable = merge_unreachable(tokenizer)
    if isinstance(tokenizer.model, BPE) and tokenizer.model.ignore_merges:
        return _finding(
            "merge-unreachable", "info",
            f"{len(unreachable)} tokens are not built by the merges from their own string (ignore_merges is on)",
            "they are produced only when a whole pre-token equals them; a runtime or conversion that "
            "runs the merges never produces them", unreachable)
    return _finding(
        "unreachable-token", "warning", f"{len(unreachable)} vocabulary tokens cannot be produced by the merges",
        "no text encodes to them, so their ids and embedding rows are dead weight", unreachable)


def merge_unreachable(tokenizer: Tokenizer) -> list[tuple[str, int]]:
    """Every (token, id) of a BPE vocabulary that the merges do not build from the token's own
    initial symbols, by id; added tokens, unk and byte-fallback tokens are produced otherwise and
    left out. Empty for other models."""
    model = tokenizer.model
    if not isinstance(model, BPE):
        return []
    elsewhere = _produced_elsewhere(tokenizer)
    prefix, suffix = model.continuing_subword_prefix or "", model.end_of_word_suffix or ""
    unreachable = [(token, token_id) for token, token_id in model.vocab.items()
                   if token_id not in elsewhere
                   and not any(model.merge_pieces(pieces) == [token_id] for pieces in _readings(token, prefix, suffix))]
    return sorted(unreachable, key=lambda pair: pair[1])


def _produced_elsewhere(tokenizer: Tokenizer) -> set[int]:
    """Ids produced otherwise than by merging: added tokens, unk, byte fallback, and the
    non-NORMAL pieces of a SentencePiece model (judged by `unreachable_bytes` or not at all)."""
    model = tokenizer.model
    ids = set(tokenizer.added_vocabulary.id_to_added)
    if model.unk_token is not None and model.unk_token in model.vocab:
        ids.add(model.vocab[model.unk_token])
    if model.byte_fallback:
        ids |= {i for i in (model.vocab.get(f"<0x{b:02X}>") for b in range(256)) if i is not None}
    source = getattr(tokenizer, "sentencepiece_source", None)
    if source is not None:
        ids |= {i for i, piece in enumerate(source.proto.pieces) if piece.type != 1}  # 1: NORMAL
    return ids


def _readings(token: str, prefix: str, suffix: str) -> list[list[str]]:
    """The initial symbols `token` can come from: at a word's start or inside it (prefix), at its
    end or not (suffix), one symbol per char."""
    starts = [(token, False)]
    if prefix and token.startswith(prefix) and len(token) > len(prefix):
        starts.append((token[len(prefix):], True))
    readings = []
    for core, inside in starts:
        ends = [(core, False)]
        if suffix and core.endswith(suffix) and len(core) > len(suffix):
            ends.append((core[:-len(suffix)], True))
        for chars, at_end in ends:
            pieces = [prefix + char if prefix and (i or inside) else char for i, char in enumerate(chars)]
            if at_end:
                pieces[-1] += suffix
            readings.append(pieces)
    return readings


def unreachable_bytes(tokenizer: Tokenizer) -> list[Finding]:
    """Byte-level tokens no UTF-8 text holds, and byte-fallback tokens no unknown char needs."""
    model = tokenizer.model
    found: list[tuple[str, int]] = []
    if isinstance(model, BPE) and _is_byte_level(tokenizer):
        found += [(token, i) for token, i in model.vocab.items()
                  if (data := chars_to_bytes(token)) is not None and not _inside_utf8(data)]
    if isinstance(model, (BPE, Unigram)) and getattr(model, "byte_fallback", False):
        needed = _fallback_bytes(set(_vocab_pairs(model)[0]))
        found += [(f"<0x{b:02X}>", i) for b in range(256) if b not in needed
                  and (i := tokenizer.token_to_id(f"<0x{b:02X}>")) is not None]
    return _finding("unreachable-byte", "info", f"{len(found)} byte tokens can never be produced from text",
                     "text is valid UTF-8, so these byte sequences never occur (or every char that has the "
                     "byte is a token of its own); they only pad the vocabulary", sorted(found, key=lambda p: p[1]))


def _inside_utf8(data: bytes) -> bool:
    """True when `data` occurs in some valid UTF-8 text (it may start or end inside a char)."""
    for lead in _LEADS:
        try:
            codecs.getincrementaldecoder("utf-8")().decode(lead + data, final=False)
            return True
        except UnicodeDecodeError:
            continue
    return False


def _fallback_bytes(vocab: set[str]) -> set[int]:
    """The bytes byte fallback emits: those of the chars (any code point but surrogates) that
    are not tokens themselves."""
    needed = {b for b in range(0x80) if chr(b) not in vocab}
    wanted = UTF8_BYTES - set(range(0x80))
    for code in range(0x80, 0x110000):
        if 0xD800 <= code < 0xE000:
            continue
        char = chr(code)
        if char not in vocab:
            needed.update(char.encode())
            if wanted <= needed:
                break
    return needed


# ----- added and special tokens -------------------------------------------------------------


def shadowed_tokens(tokenizer: Tokenizer) -> list[Finding]:
    """Vocabulary tokens whose text holds an added token that the matcher takes first."""
    surface = _surface_function(tokenizer)
    if surface is None:
        return []
    contents = _matched_contents(tokenizer)
    if not contents:
        return []
    finder = regex.compile("|".join(map(regex.escape, sorted(contents, key=len, reverse=True))))
    tokens, ids = _vocab_pairs(tokenizer.model)
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
    return _finding("shadowed-token", "warning",
                     f"{len(shadowed)} vocabulary tokens hold the text of an added token",
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
    byte_level = _is_byte_level(tokenizer)
    specials_off = vocabulary.encode_special_tokens or tokenizer.tiktoken is not None
    single_word = {token.normalized for token in vocabulary.id_to_added.values() if token.single_word}
    contents: dict[str, tuple[int, str]] = {}
    for token_id, token in vocabulary.id_to_added.items():
        if token.normalized in single_word or (token.special and specials_off):
            continue
        if not token.normalized and tokenizer.normalizer is not None:
            continue
        text = vocabulary.normalized_form.get(token_id, token.content) if token.normalized else token.content
        if text:
            contents[text.encode().decode("latin-1") if byte_level else text] = (token_id, token.content)
    return contents


def _surface_function(tokenizer: Tokenizer) -> Callable[[str], str | None] | None:
    """How to read a vocabulary token as the normalized text it stands for (byte-level tokens as
    latin-1 text of their bytes; decorations removed), or None where the text a token stands for
    depends on its place (Metaspace adds its "▁" itself)."""
    if _is_byte_level(tokenizer):
        return lambda token: data.decode("latin-1") if (data := chars_to_bytes(token)) is not None else None
    if "Metaspace" in _component_types(tokenizer.pre_tokenizer):
        return None
    model = tokenizer.model
    prefix = getattr(model, "continuing_subword_prefix", None) or ""
    suffix = getattr(model, "end_of_word_suffix", None) or ""

    def undecorated(token: str) -> str:
        if prefix and token.startswith(prefix):
            token = token[len(prefix):]
        return token[:-len(suffix)] if suffix and token.endswith(suffix) else token

    return undecorated


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
        *_finding("special-token-missing", "error", "the post-processor inserts tokens the vocabulary does not have",
                  "their ids decode to nothing or to another token", missing),
        *_finding("special-token-id-mismatch", "error",
                  "the post-processor inserts ids that the vocabulary gives to other tokens",
                  "the model sees an id that means something else than the token named", mismatched,
                  details=[f"{t!r}: inserted as {i}, vocabulary id {tokenizer.token_to_id(t)}" for t, i in mismatched]),
        *_finding("special-token-not-special", "warning", "the post-processor inserts tokens that are not marked special",
                  "decode(skip_special_tokens=True) keeps them, and text spelling them is not treated as a control "
                  "token", plain),
        *_unknown_token(tokenizer)]


def _inserted_tokens(tokenizer: Tokenizer) -> list[tuple[str, int]]:
    """The (token, id) pairs the post-processor inserts (TemplateProcessing, Bert, Roberta)."""
    data = tokenizer.post_processor.to_dict() if tokenizer.post_processor is not None else None
    pairs: list[tuple[str, int]] = []
    for component in _components(data):
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
    return _finding("unk-token-missing", "error", f"the unknown token {unk!r} is not in the vocabulary",
                     "the first char (or word) outside the vocabulary makes encode fail", count=1)


def added_token_ids(path: Path, tokenizer: Tokenizer) -> list[Finding]:
    """A tokenizer.json's written added-token ids against the ids `tokenizers` assigns on load."""
    if not path.is_file() or path.suffix != ".json":
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return []
    entries = data.get("added_tokens") if isinstance(data, dict) and "model" in data else None
    wrong = [(entry["content"], entry["id"]) for entry in entries or []
             if isinstance(entry, dict) and entry.get("content")
             and tokenizer.token_to_id(entry["content"]) not in (None, entry.get("id"))]
    return _finding("added-token-id-mismatch", "error", "added tokens are written with ids they do not get",
                     "tokenizers ignores the written ids and numbers added tokens itself, so readers that "
                     "trust the file disagree with it", wrong,
                     details=[f"{t!r}: written {i}, loaded {tokenizer.token_to_id(t)}" for t, i in wrong])


# ----- vocabulary coverage and ids ----------------------------------------------------------


def byte_coverage(tokenizer: Tokenizer) -> list[Finding]:
    """A byte-level vocabulary needs the 256 byte chars; byte fallback needs <0x00>..<0xFF>."""
    model = tokenizer.model
    findings = []
    if isinstance(model, BPE) and _is_byte_level(tokenizer):
        missing = [b for b in range(256) if BYTE_TO_CHAR[b] not in model.vocab]
        findings += _byte_gap("byte-level-gap", "byte-level BPE", missing, lambda b: BYTE_TO_CHAR[b])
    if getattr(model, "byte_fallback", False):
        missing = [b for b in range(256) if tokenizer.token_to_id(f"<0x{b:02X}>") is None]
        findings += _byte_gap("byte-fallback-gap", "byte fallback", missing, lambda b: f"<0x{b:02X}>")
    return findings


def _byte_gap(code: str, kind: str, missing: list[int], token: Callable[[int], str]) -> list[Finding]:
    """The finding for missing byte symbols: an error when UTF-8 text can hold one of them."""
    if not missing:
        return []
    harmful = [b for b in missing if b in UTF8_BYTES]
    severity, why = ("error", "text holding such a byte is encoded as unk or dropped") if harmful else (
        "info", "only bytes that UTF-8 text never holds are missing")
    return [Finding(code, severity, f"{len(missing)} of the 256 byte symbols of {kind} are missing", why,
                    len(missing), [token(b) for b in missing[:SAMPLE]],
                    details=[f"missing bytes: {' '.join(f'{b:02X}' for b in missing)}"])]


def id_space(tokenizer: Tokenizer) -> list[Finding]:
    """Ids shared by several tokens, tokens listed twice, and ids nothing uses."""
    tokens, ids = _vocab_pairs(tokenizer.model)
    by_id: dict[int, list[str]] = defaultdict(list)
    for token, token_id in zip(tokens, ids):
        by_id[token_id].append(token)
    shared = [(token, i) for i, names in sorted(by_id.items()) if len(names) > 1 for token in names]
    seen: dict[str, int] = {}
    repeated = [(token, i) for token, i in zip(tokens, ids) if seen.setdefault(token, i) != i]
    used = set(ids) | set(tokenizer.added_vocabulary.id_to_added)
    gaps = sorted(set(range(max(used) + 1)) - used) if used else []
    return [
        *_finding("duplicate-ids", "error", "several vocabulary tokens share an id",
                  "encode gives them one id and decode returns only one of them", shared),
        *_finding("duplicate-tokens", "warning", "vocabulary tokens are listed more than once",
                  "only one of their ids is ever produced", repeated),
        *_finding("id-gaps", "info", f"{len(gaps)} ids below {max(used, default=0)} belong to no token",
                  "the id space is larger than the vocabulary: the embedding rows of these ids are never used, "
                  "and formats that need contiguous ids (GGUF) refuse it", count=len(gaps),
                  details=[f"ids {_ranges(gaps)}"])]


def _ranges(numbers: list[int]) -> str:
    """Sorted numbers as '3, 7-9, 12' (at most SAMPLE runs)."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and runs[-1][1] == n - 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    shown = [str(a) if a == b else f"{a}-{b}" for a, b in runs[:SAMPLE]]
    return ", ".join(shown) + (" ..." if len(runs) > SAMPLE else "")


def _vocab_pairs(model: Any) -> tuple[list[str], list[int]]:
    """The model's vocabulary as parallel lists of tokens and ids (duplicates kept)."""
    vocab = model.vocab
    if isinstance(vocab, dict):
        return list(vocab), list(vocab.values())
    return [entry[0] for entry in vocab], list(range(len(vocab)))


# ----- pipeline components ------------------------------------------------------------------


def regex_patterns(tokenizer: Tokenizer) -> list[Finding]:
    """Split and Replace patterns that Oniguruma and the `regex` module read differently."""
    findings = []
    for owner, component in [("pre_tokenizer", c) for c in _components(_to_dict(tokenizer.pre_tokenizer))] + \
            [("normalizer", c) for c in _components(_to_dict(tokenizer.normalizer))]:
        pattern = (component.get("pattern") or {}).get("Regex") if isinstance(component.get("pattern"), dict) else None
        if pattern is None:
            continue
        try:
            found = differences(pattern)
        except OnigurumaError:
            continue
        findings += _finding(
            "regex-engine-difference", "warning",
            f"the {owner}'s {component['type']} pattern {pattern!r} means something else outside Oniguruma",
            "tokenizers runs it in Oniguruma; a port or a tiktoken-minded author reading it in another "
            "engine (Python regex, fancy-regex) splits text differently", count=len(found), details=found)
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
    return _finding("normalizer-not-idempotent", "info",
                     f"the normalizer is not idempotent on {len(changed)} of {len(PROBES)} probe strings",
                     "text that was normalized before (stored, or decoded and re-encoded) encodes differently",
                     count=len(changed), details=changed)


def sentencepiece_conversion(tokenizer: Tokenizer) -> list[Finding]:
    """A SentencePiece model that tokenizer.json cannot run exactly."""
    if getattr(tokenizer, "sentencepiece_source", None) is None:
        return []
    try:
        check_json_expressible(tokenizer)
    except UnsupportedConversion as error:
        return _finding("sentencepiece-json-inexact", "warning",
                         "this SentencePiece model has no exact tokenizer.json form",
                         "a converted tokenizer.json (transformers' fast tokenizer) encodes some text "
                         "differently from sentencepiece", count=1, details=[str(error)])
    return []


def _to_dict(component: Any) -> Any:
    """A component's tokenizer.json form, or None (absent, or not expressible)."""
    if component is None:
        return None
    try:
        return component.to_dict()
    except (UnsupportedConversion, AttributeError, NotImplementedError):
        return None


def _components(data: Any) -> list[dict]:
    """The leaf components of a component's tokenizer.json form (Sequences flattened)."""
    if not isinstance(data, dict):
        return []
    inner = data.get("pretokenizers") or data.get("normalizers") or data.get("processors") or data.get("decoders")
    if isinstance(inner, list):
        return [leaf for item in inner for leaf in _components(item)]
    return [data]


def _component_types(component: Any) -> set[str]:
    """The types of a component's leaves."""
    return {leaf.get("type") for leaf in _components(_to_dict(component))}


def _is_byte_level(tokenizer: Tokenizer) -> bool:
    """True when the model sees byte-level text (a ByteLevel pre-tokenizer or normalizer)."""
    return "ByteLevel" in _component_types(tokenizer.pre_tokenizer) | _component_types(tokenizer.normalizer)


CHECKS: tuple[Callable[[Tokenizer], list[Finding]], ...] = (
    special_tokens, byte_coverage, id_space, unreachable_tokens, unreachable_bytes, shadowed_tokens,
    regex_patterns, normalizer_idempotence, sentencepiece_conversion,
)
