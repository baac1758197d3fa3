"""Lint checks of the vocabulary: tokens no text can produce, byte coverage, and the id space.

A BPE token is reachable by merging when the merges, run on its own initial symbols, give it
back whole. That test is exact: inside any word, the symbols that end up as one token never had
a merge cross its edges, so they merged exactly as the token's string alone merges.
"""

from __future__ import annotations

import codecs
from collections import defaultdict
from pathlib import Path
from typing import Callable

from ...formats.gguf.metadata import read_metadata
from ...formats.gguf.read import dead_merges, gguf_source
from ...formats.sentencepiece import schema as spm
from ...formats.sentencepiece.read import sentencepiece_source
from ...formats.tiktoken.ranks import repeated_tokens
from ...models.bpe import BPE
from ...pipeline.bytelevel import BYTE_TO_CHAR, bytes_to_chars, chars_to_bytes
from ...tokenizer import Tokenizer
from .base import SAMPLE, UTF8_BYTES, Finding, finding, is_byte_level, vocab_pairs

GGUF_KEY = "tokenizer.ggml."
GGUF_PER_TOKEN_KEYS = (GGUF_KEY + "token_type", GGUF_KEY + "scores")
NORMAL, UNKNOWN = 1, 2  # SentencePiece's types of the pieces its model merges, and of its unknown piece
# Lead bytes that accept any continuation byte next, with 0, 1 or 2 continuation bytes already
# read: what may stand before a token that starts inside a char.
LEADS = (b"", b"\xc2", b"\xe1", b"\xe1\x80", b"\xf1", b"\xf1\x80", b"\xf1\x80\x80")


def unreachable_tokens(tokenizer: Tokenizer) -> list[Finding]:
    """BPE tokens the merge loop cannot build from their own initial symbols."""
    unreachable = merge_unreachable(tokenizer)
    if isinstance(tokenizer.model, BPE) and tokenizer.model.ignore_merges:
        return finding("merge-unreachable", "info",
                       f"{len(unreachable)} tokens are not built by the merges from their own string "
                       "(ignore_merges is on)",
                       "they are produced only when a whole pre-token equals them; a runtime or conversion that "
                       "runs the merges never produces them", unreachable)
    return finding("unreachable-token", "warning",
                   f"{len(unreachable)} vocabulary tokens cannot be produced by the merges",
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
    non-NORMAL pieces of a SentencePiece model (bytes are judged by `unreachable_bytes`)."""
    model = tokenizer.model
    ids = set(tokenizer.added_vocabulary.id_to_added)
    if model.unk_token is not None and model.unk_token in model.vocab:
        ids.add(model.vocab[model.unk_token])
    if model.byte_fallback:
        ids |= {i for i in (model.vocab.get(f"<0x{b:02X}>") for b in range(256)) if i is not None}
    source = sentencepiece_source(tokenizer)
    if source is not None:
        ids |= {i for i, piece in enumerate(source.proto.pieces) if piece.type != NORMAL}
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


def merges_before_parts(tokenizer: Tokenizer) -> list[Finding]:
    """The merges of a rank file (tiktoken, tekken) listed before the merge that builds one of
    their parts: tokens ranked before one of their halves."""
    model = tokenizer.model
    if tokenizer.tiktoken is None or not isinstance(model, BPE):
        return []  # SentencePiece orders merges by score, which often puts a piece before a part
    merges = model.merges
    built_at: dict[str, int] = {}
    for index, (left, right) in enumerate(merges):
        built_at.setdefault(left + right, index)
    early = [(left + right, model.vocab[left + right]) for index, (left, right) in enumerate(merges)
             if max(built_at.get(left, -1), built_at.get(right, -1)) > index]
    return finding("merge-before-part", "warning",
                   f"{len(early)} merges come before the merge that builds one of their parts (tokens ranked "
                   "before a half)",
                   "each applies as soon as its later part exists (tiktoken and tokenizers both do so), but the "
                   "ids no longer give the order of merging: a tool that rebuilds merges from lower-ranked "
                   "parts only encodes these tokens otherwise", sorted(early, key=lambda pair: pair[1]))


def repeated_rank_lines(path: Path, tokenizer: Tokenizer) -> list[Finding]:
    """Tokens a tiktoken rank file lists more than once (tiktoken keeps each one's last rank)."""
    if tokenizer.tiktoken is None or not path.is_file() or path.suffix == ".json":
        return []
    repeated = repeated_tokens(path.read_bytes())
    return finding("repeated-rank-token", "warning", f"{len(repeated)} tokens are listed more than once in the rank file",
                   "tiktoken (and hfcompat) keep each one's last rank; the earlier ranks belong to no token",
                   [(bytes_to_chars(token), ranks[-1]) for token, ranks in repeated.items()],
                   details=[f"{token!r}: ranks {', '.join(map(str, ranks))}" for token, ranks in repeated.items()])


def undefined_token_types(tokenizer: Tokenizer) -> list[Finding]:
    """GGUF tokens whose type is outside 1..6 (llama.cpp's UNDEFINED)."""
    source = gguf_source(tokenizer)
    if source is None:
        return []
    odd = [(token, i) for i, (token, kind) in enumerate(zip(source.tokens, source.types)) if not 1 <= kind <= 6]
    return finding("undefined-token-type", "warning", f"{len(odd)} GGUF tokens have a token type outside 1..6",
                   "llama.cpp reads them as UNDEFINED: they encode as normal tokens, but its detokenizer drops "
                   "them, while hfcompat and a converted tokenizer.json decode their text", odd,
                   details=[f"{token!r}: type {source.types[i]}" for token, i in odd])


def missing_unknown_piece(tokenizer: Tokenizer) -> list[Finding]:
    """A SentencePiece model without an UNKNOWN piece (sentencepiece loads it when it has byte fallback)."""
    source = sentencepiece_source(tokenizer)
    if source is None or any(piece.type == UNKNOWN for piece in source.proto.pieces):
        return []
    return finding("unknown-piece-missing", "warning", "the SentencePiece model has no UNKNOWN piece",
                   "sentencepiece and hfcompat spell every unknown char in bytes, but its unk_id() is -1, which "
                   "tools that expect an unknown id refuse", count=1)


def long_char_model_pieces(tokenizer: Tokenizer) -> list[Finding]:
    """Pieces of several chars in a SentencePiece CHAR model, which sentencepiece never gives."""
    source = sentencepiece_source(tokenizer)
    if source is None or source.proto.trainer_spec.model_type != spm.CHAR:
        return []
    long = [(piece.piece, i) for i, piece in enumerate(source.proto.pieces)
            if piece.type == NORMAL and len(piece.piece) > 1]
    return finding("char-model-long-piece", "warning", f"{len(long)} pieces of a CHAR model have several chars",
                   "sentencepiece's CHAR model looks up one char at a time and never gives them (nor does "
                   "hfcompat); they only decode", long)


def pieces_not_utf8(tokenizer: Tokenizer) -> list[Finding]:
    """SentencePiece pieces whose bytes are not UTF-8 (sentencepiece loads them; no text matches them)."""
    source = sentencepiece_source(tokenizer)
    if source is None:
        return []
    odd = [(repr(piece.piece), i) for i, piece in enumerate(source.proto.pieces) if isinstance(piece.piece, bytes)]
    return finding("piece-not-utf8", "warning", f"{len(odd)} pieces of the SentencePiece model are not UTF-8",
                   "no text encodes to them (in sentencepiece nor hfcompat); sentencepiece's Python decode of "
                   "their ids raises UnicodeDecodeError, hfcompat's gives their bytes as lone surrogates "
                   "(surrogateescape), and no tokenizer.json can hold them", odd)


def bpe_chars_not_pieces(tokenizer: Tokenizer) -> list[Finding]:
    """Chars of a SentencePiece BPE model's pieces that are no piece (sentencepiece merges through them)."""
    source = sentencepiece_source(tokenizer)
    chars = getattr(tokenizer.model, "stand_ins", {})
    if source is None or not chars:
        return []
    return finding("bpe-char-not-a-piece", "warning", f"{len(chars)} chars of BPE pieces are no piece",
                   "sentencepiece (and hfcompat) merge through such a char, and spell it in bytes or unk where no "
                   "merge joins it; a trained model has every char of its pieces (this one was cut or edited), "
                   "and no tokenizer.json can run it", count=len(chars), details=[repr(c) for c in sorted(chars)])


def dead_gguf_merges(tokenizer: Tokenizer) -> list[Finding]:
    """GGUF merges that llama.cpp never applies and tokenizers would refuse (a part is no token)."""
    source = gguf_source(tokenizer)
    if source is None or source.model != "gpt2" or source.merges is None:
        return []
    dead = dead_merges(source.merges, {token: i for i, token in enumerate(source.tokens)})
    return finding("gguf-dead-merges", "warning", f"{len(dead)} merges name a string that is no token and that no "
                   "merge forms", "llama.cpp never applies them and hfcompat leaves them out; tokenizers refuses a "
                   "tokenizer.json holding them", count=len(dead),
                   details=[f"merges[{index}]: {source.merges[index]!r}" for index in dead])


def ignored_gguf_values(path: Path, tokenizer: Tokenizer) -> list[Finding]:
    """GGUF values llama.cpp reads past: per-token arrays (token types, scores) with more values
    than tokens, and special ids outside the vocabulary."""
    source = gguf_source(tokenizer)
    if source is None or not path.is_file():
        return []
    fields, count = read_metadata(path), len(source.tokens)
    surplus = [f"{key}: {len(values)} values for {count} tokens" for key in GGUF_PER_TOKEN_KEYS
               if isinstance(values := fields.get(key), list) and len(values) > count]
    outside = [f"{key} = {value}, kept as {source.special_ids.get(key[len(GGUF_KEY):-len('_token_id')])}"
               for key, value in fields.items() if key.startswith(GGUF_KEY) and key.endswith("_token_id")
               and isinstance(value, int) and not 0 <= value < count]
    return [
        *finding("gguf-surplus-values", "warning", f"{len(surplus)} per-token arrays hold more values than tokens",
                 "llama.cpp and hfcompat read one value per token and ignore the rest; a tool that takes the "
                 "arrays whole may refuse the file", count=len(surplus), details=surplus),
        *finding("gguf-special-id-outside", "warning", f"{len(outside)} special token ids are outside the vocabulary",
                 "llama.cpp warns and keeps its own id for that token (hfcompat likewise); other readers refuse "
                 "the file or take another token", count=len(outside), details=outside)]


def unreachable_bytes(tokenizer: Tokenizer) -> list[Finding]:
    """Byte-level tokens no UTF-8 text holds, and byte-fallback tokens no unknown char needs."""
    model = tokenizer.model
    found: list[tuple[str, int]] = []
    if isinstance(model, BPE) and is_byte_level(tokenizer):
        found += [(token, i) for token, i in model.vocab.items()
                  if (data := chars_to_bytes(token)) is not None and not _inside_utf8(data)]
    if _fallback_judged(tokenizer):
        needed = _fallback_bytes(set(model.vocab))
        found += [(token, i) for b in range(256) if b not in needed
                  and (i := model.vocab.get(token := f"<0x{b:02X}>")) is not None
                  and model.merge_pieces(list(token)) != [i]]
    return finding("unreachable-byte", "info", f"{len(found)} byte tokens can never be produced from text",
                   "text is valid UTF-8, so these byte sequences never occur (or every char that has the byte is a "
                   "token of its own); they only pad the vocabulary", sorted(found, key=lambda pair: pair[1]))


def _fallback_judged(tokenizer: Tokenizer) -> bool:
    """True for a byte-fallback BPE, whose `<0xHH>` tokens only byte fallback emits (unless merges
    build them, which is tested too). Unigram is left out: tokenizers' Unigram also matches
    `<0xHH>` spelled out in the text."""
    return isinstance(tokenizer.model, BPE) and tokenizer.model.byte_fallback


def _inside_utf8(data: bytes) -> bool:
    """True when `data` occurs in some valid UTF-8 text (it may start or end inside a char)."""
    for lead in LEADS:
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


def byte_coverage(tokenizer: Tokenizer) -> list[Finding]:
    """A byte-level vocabulary needs the 256 byte chars; byte fallback needs <0x00>..<0xFF>."""
    model = tokenizer.model
    findings = []
    if isinstance(model, BPE) and is_byte_level(tokenizer):
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
    tokens, ids = vocab_pairs(tokenizer.model)
    by_id: dict[int, list[str]] = defaultdict(list)
    for token, token_id in zip(tokens, ids):
        by_id[token_id].append(token)
    shared = [(token, i) for i, names in sorted(by_id.items()) if len(names) > 1 for token in names]
    seen: dict[str, int] = {}
    repeated = [(token, i) for token, i in zip(tokens, ids) if seen.setdefault(token, i) != i]
    used = set(ids) | set(tokenizer.added_vocabulary.id_to_added)
    gaps = sorted(set(range(max(used) + 1)) - used) if used else []
    return [
        *finding("duplicate-ids", "error", "several vocabulary tokens share an id",
                 "encode gives them one id and decode returns only one of them", shared),
        *finding("duplicate-tokens", "warning", "vocabulary tokens are listed more than once",
                 "only one of their ids is ever produced", repeated),
        *finding("id-gaps", "info", f"{len(gaps)} ids below {max(used, default=0)} belong to no token",
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
