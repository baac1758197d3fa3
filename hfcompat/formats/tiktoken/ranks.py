"""tiktoken rank files (`base64(token bytes) rank` per line): read into and write from a Tokenizer.

A rank file becomes the pipeline `tokenizers` would run for it: a Split on the encoding's
pattern (rewritten for Oniguruma), ByteLevel without its own regex, a byte-level BPE with
`ignore_merges` (tiktoken looks a whole piece up in the ranks first), the ByteLevel decoder,
and the special tokens as added tokens. tiktoken keeps no merge list: it merges any two parts
whose concatenation has a rank, the lowest rank first. The merge list is derived from the ranks
(merges.py): for each token, the two parts that tiktoken's own merging joins last when it
builds that token from its bytes, listed at the token's rank even when a part ranks after it.
In any text, two parts side by side that concatenate to a token were built exactly that way
(the bytes of a token evolve as in the token alone), so the one merge per token is enough and
gives tiktoken's result.

Writing goes the other way for any byte-level BPE whose merges are exactly those derived merges
in rank order. The pattern does not travel in a rank file: a known encoding is recognised by the
file's sha256; for any other, `write_tiktoken` writes the pattern and special tokens beside the
file, in `<file>.json`, which `read_tiktoken` reads back.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import Any, Collection, Mapping

import re

import regex

from ... import _backend, decoders, pre_tokenizers
from ...errors import FormatError, UnsupportedConversion
from ...files import atomic_write_bytes, atomic_write_text
from ...models.bpe import BPE
from ...pipeline.added_vocabulary import AddedToken
from ...pipeline.bytelevel import BYTE_TO_CHAR, bytes_to_chars, chars_to_bytes
from ...pre_tokenizers.tiktoken_pattern import from_oniguruma, to_oniguruma, to_python
from ...specials import TiktokenSpecials
from ...tokenizer import Tokenizer
from .encodings import KNOWN_ENCODINGS, R50K_PATTERN, KnownEncoding, encoding_for_sha256
from .merges import NO_RANK, cached_merge_cuts, derive_merges, in_rank_order, merge_cuts

_backend.load("ranks")  # the compiled twin, when it was built

RANK_MAX = NO_RANK  # tiktoken's Rank is a u32; this one it never joins
_CLEAN_RANKS = re.compile(rb"(?:[A-Za-z0-9+/=]+ [0-9]+\n)*(?:[A-Za-z0-9+/=]+ [0-9]+)?")
_ESCAPE = regex.compile(r"\\.", regex.DOTALL)
# \p or \P and a class: a name in braces, or one letter, which fancy-regex takes only for the
# one-letter general categories (`regex` reads others, e.g. \py, some other way).
_CLASS_ESCAPE = regex.compile(r"\\[pP](?:\{\^?[A-Za-z0-9_ =.&-]+\}|[CLMNPSZclmnpsz])")
__all__ = ["TiktokenSpec", "derive_merges", "read_ranks", "read_tiktoken", "tokenizer_from_ranks",
           "write_tiktoken"]


@dataclass(frozen=True)
class TiktokenSpec:
    """What a rank file needs beside it to make an encoding (what tiktoken.Encoding takes)."""

    name: str | None
    pattern: str
    special_tokens: dict[str, int]


# ----- reading ------------------------------------------------------------------------------

def read_tiktoken(path: str | Path, *, encoding: str | None = None, pattern: str | None = None,
                  special_tokens: Mapping[str, int] | None = None) -> Tokenizer:
    """Load a rank file as a Tokenizer with tiktoken's semantics.

    `encoding` names a known encoding (its pattern and special tokens); without it a known file
    is recognised by its sha256, then a `<file>.json` sidecar is read, else `pattern` is needed.
    `special_tokens` are added to the encoding's own (this is how cl100k_im extends cl100k_base).
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise FormatError(f"cannot read: {error.strerror}", path=str(path)) from None
    ranks = parse_ranks(data, str(path))
    spec = _spec_for(path, data, encoding, pattern, special_tokens)
    return tiktoken_tokenizer(ranks, spec, str(path), digest=hashlib.sha256(data).hexdigest())


def rank_file_spec(path: str | Path) -> TiktokenSpec:
    """What goes with a rank file by itself: a known encoding (by sha256), else its sidecar."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise FormatError(f"cannot read: {error.strerror}", path=str(path)) from None
    return _spec_for(path, data, None, None, None)


def _spec_for(path: Path, data: bytes, encoding: str | None, pattern: str | None,
              special_tokens: Mapping[str, int] | None) -> TiktokenSpec:
    """The name, pattern and special tokens that go with this rank file."""
    base: TiktokenSpec | None = None
    if encoding is not None:
        known = KNOWN_ENCODINGS.get(encoding)
        if known is None:
            raise FormatError(f"unknown encoding {encoding!r}: known are {sorted(KNOWN_ENCODINGS)}; "
                              "pass pattern= and special_tokens= for any other", path=str(path))
        base = _known_spec(known)
    elif pattern is None:
        known = encoding_for_sha256(hashlib.sha256(data).hexdigest())
        base = _known_spec(known) if known else _read_sidecar(path)
    if base is None and pattern is None:
        raise FormatError("unknown rank file (its sha256 is no known encoding's and there is no "
                          f"{_sidecar(path).name} beside it): pass encoding= or pattern=",
                          path=str(path))
    specials = dict(base.special_tokens) if base else {}
    specials.update(special_tokens or {})
    return TiktokenSpec(base.name if base and pattern is None and not special_tokens else None,
                        pattern if pattern is not None else base.pattern, specials)


def _known_spec(known: KnownEncoding) -> TiktokenSpec:
    """A known encoding's spec."""
    return TiktokenSpec(known.name, known.pattern, dict(known.special_tokens))


def _sidecar(path: Path) -> Path:
    """Where the pattern and special tokens of a rank file are written: `<file>.json`."""
    return path.with_name(path.name + ".json")


def _read_sidecar(path: Path) -> TiktokenSpec | None:
    """The spec in `<file>.json`, or None when there is none."""
    sidecar = _sidecar(path)
    if not sidecar.exists():
        return None
    try:
        data = json.loads(sidecar.read_text(encoding="utf-8"))
        specials = data.get("special_tokens", {})
        if not isinstance(data.get("pat_str"), str) or not all(
                isinstance(k, str) and isinstance(v, int) for k, v in specials.items()):
            raise ValueError
    except (OSError, ValueError, AttributeError):
        raise FormatError('expected {"pat_str": "...", "special_tokens": {"...": id}}',
                          path=str(sidecar)) from None
    return TiktokenSpec(data.get("name"), data["pat_str"], dict(specials))


def read_ranks(path: str | Path) -> dict[bytes, int]:
    """The token bytes -> rank map of a rank file."""
    return parse_ranks(Path(path).read_bytes(), str(path))


def parse_ranks(data: bytes, where: str | None = None) -> dict[bytes, int]:
    """Parse rank-file bytes as tiktoken does (two fields per non-blank line; a token listed
    again takes its last rank, as in tiktoken's dict); each rank must then be one token's."""
    core = _backend.ranks
    try:
        return (parse_clean_ranks if core is None else core.parse_clean_ranks)(data, RANK_MAX)
    except (ValueError, binascii.Error):
        pass  # find the faulty line below, for the message
    ranks: dict[bytes, int] = {}
    lines: dict[bytes, int] = {}
    for number, line in enumerate(data.splitlines(), 1):
        if not line:
            continue  # tiktoken skips empty lines only: one of blanks is an error there
        fields = line.split()
        try:
            token_text, rank_text = fields
            token = base64.b64decode(token_text)  # as lenient as tiktoken: Whisper's `=` is b""
            rank = int(rank_text)
        except (ValueError, binascii.Error):
            raise FormatError(f"expected `base64 rank`, got {line[:60]!r}", path=where,
                              field=f"line {number}") from None
        if not 0 <= rank <= RANK_MAX:
            raise FormatError(f"rank {rank} is outside 0..{RANK_MAX} (tiktoken's ranks are u32)", path=where,
                              field=f"line {number}")
        ranks[token] = rank
        lines[token] = number
    holders: dict[int, bytes] = {}
    for token, rank in ranks.items():
        if rank in holders:
            raise FormatError(f"rank {rank} is given to {holders[rank]!r} and to {token!r} (tiktoken refuses "
                              "a rank given to two tokens)", path=where,
                              field=f"line {max(lines[token], lines[holders[rank]])}")
        holders[rank] = token
    return ranks


def repeated_tokens(data: bytes) -> dict[bytes, list[int]]:
    """The tokens that rank-file bytes list more than once, with their ranks in file order (the
    last is the one tiktoken keeps); lines that do not parse are skipped."""
    seen: dict[bytes, list[int]] = {}
    for line in data.splitlines():
        fields = line.split()
        try:
            token, rank = base64.b64decode(fields[0]), int(fields[1])
        except (IndexError, ValueError, binascii.Error):
            continue
        seen.setdefault(token, []).append(rank)
    return {token: ranks for token, ranks in seen.items() if len(ranks) > 1}


def parse_clean_ranks(data: bytes, rank_max: int) -> dict[bytes, int]:
    """token -> rank of a file of `base64 rank` lines (the last line may lack its newline), a token
    listed again keeping its last rank, in bulk; ValueError on anything else, or when the ranks
    are not distinct and within 0..rank_max (`parse_ranks` then finds the line to name). The
    reference twin of `_ranks.parse_clean_ranks`."""
    if not _CLEAN_RANKS.fullmatch(data):
        raise ValueError("not one `base64 rank` per line: the careful parser reads it")
    fields = data.split()
    lines = data.count(b"\n") + (not data.endswith(b"\n"))
    if len(fields) != 2 * lines:  # an empty file
        raise ValueError("a line without exactly two fields")
    tokens = list(map(binascii.a2b_base64, fields[0::2]))  # lenient, as b64decode below and tiktoken
    ranks = dict(zip(tokens, map(int, fields[1::2])))  # a token listed again keeps its last rank
    if len(set(ranks.values())) != len(ranks):
        raise ValueError("a rank given to two tokens")
    if max(ranks.values()) > rank_max:
        raise ValueError("a rank out of range")
    return ranks


def tokenizer_from_ranks(ranks: Mapping[bytes, int], pattern: str, special_tokens: Mapping[str, int],
                         name: str | None = None, every_byte: bool = True) -> Tokenizer:
    """The Tokenizer of ranks held in memory, as tiktoken's Encoding takes them (ranks, pattern,
    special tokens). The merges derived from the ranks are cached under the sha256 of the ranks
    written as a rank file: a published file's own sha256, so `read_tiktoken` shares the cache.
    `every_byte=False` accepts ranks that lack single bytes: each gets a stand-in id above every
    other id, which stays in the ids exactly where tiktoken panics (no token holds that byte)."""
    digest = hashlib.sha256(dump_ranks(ranks)).hexdigest()
    return tiktoken_tokenizer(ranks, TiktokenSpec(name, pattern, dict(special_tokens)), digest=digest,
                              every_byte=every_byte)


def tiktoken_tokenizer(ranks: Mapping[bytes, int], spec: TiktokenSpec, where: str | None = None,
                       digest: str | None = None, plain: Collection[str] = (), every_byte: bool = True) -> Tokenizer:
    """The pipeline that encodes as tiktoken does with these ranks, pattern and special tokens.

    `digest` (the rank file's sha256) lets the derived merges come from the cache; the special
    tokens named in `plain` become added tokens that are not special (tekken's non-control ones);
    `every_byte=False` accepts ranks without every single byte (see `tokenizer_from_ranks`).
    """

    _check_pattern(spec.pattern, where)
    if every_byte:
        _check_bytes(ranks, where)
    ordered, values = in_rank_order(ranks)
    strings = _byte_level_strings(ordered)
    vocab = dict(zip(strings, values))
    used = set(ranks.values())
    for content, token_id in spec.special_tokens.items():  # two specials may share an id (o200k_harmony)
        if token_id in used or content in vocab:
            raise FormatError(f"special token {content!r} = {token_id} collides with a rank",
                              path=where, field="special_tokens")
        vocab[content] = token_id
    if not every_byte:
        _add_stand_ins(vocab, ranks, spec.special_tokens)
    cuts = cached_merge_cuts(ordered, ranks, digest) if digest else merge_cuts(ordered, ranks)
    # A byte-level string has one char per byte, so the cut applies to it unchanged.
    merges = [(string[:cut], string[cut:]) for string, cut in zip(strings, cuts) if cut]
    model = BPE(vocab, merges, ignore_merges=True)
    if _cuts_a_special_whole(spec):
        model.whole_ids = frozenset(ranks.values())  # such a piece is merged: tiktoken never looks a special up there
    model.build_compiled(whole_pieces=True)
    try:
        # tiktoken keeps only the pattern's matches: the text between them is dropped.
        split = pre_tokenizers.Split(to_oniguruma(spec.pattern), "removed", invert=True, is_regex=True)
    except ValueError as error:
        raise FormatError(f"pattern: {error}", path=where, field="pattern") from None
    pre_tokenizer = pre_tokenizers.Sequence([
        split, pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=True, use_regex=False)])
    tokenizer = Tokenizer(model, pre_tokenizer=pre_tokenizer,
                          decoder=decoders.ByteLevel(add_prefix_space=True, trim_offsets=True,
                                                     use_regex=True))
    ordered = sorted(spec.special_tokens.items(), key=lambda item: item[1])
    tokenizer.add_special_tokens([AddedToken(content, special=content not in plain, normalized=False)
                                  for content, _ in ordered])
    tokenizer.specials = TiktokenSpecials(spec.name, spec.pattern, dict(spec.special_tokens))
    return tokenizer


def _cuts_a_special_whole(spec: TiktokenSpec) -> bool:
    """Whether the pattern cuts some special token's text as one piece (`\\S+` does; the
    published patterns cut `<|` apart), which the model must then merge, not look up whole."""
    findall = regex.compile(to_python(spec.pattern)).findall
    return any(findall(content) == [content] for content in spec.special_tokens)


def _check_pattern(pattern: str, where: str | None) -> None:
    """Refuse a pattern that is no regex, as tiktoken does when it builds the encoding (its
    fancy-regex also refuses a \\p that names no class, which `regex` reads as a letter p)."""
    try:
        regex.compile(pattern)
    except (regex.error, TypeError) as error:
        raise FormatError(f"{pattern!r} is not a regex: {error}", path=where, field="pattern") from None
    for escape in _ESCAPE.finditer(pattern):
        if escape.group()[1] in "pP" and not _CLASS_ESCAPE.match(pattern, escape.start()):
            raise FormatError(f"{pattern!r} is not a regex: \\{escape.group()[1]} at {escape.start()} names no "
                              "Unicode class", path=where, field="pattern")
    digit = _refused_digit_escape(pattern)
    if digit is not None:
        raise FormatError(f"{pattern!r} is not a regex: \\{pattern[digit + 1]} at {digit} (fancy-regex reads no "
                          "octal escape, nor a backreference inside a class)", path=where, field="pattern")


def _refused_digit_escape(pattern: str) -> int | None:
    """Where a digit escape stands that fancy-regex refuses and `regex` reads as octal: `\\0`
    anywhere, any digit inside a class; None when there is none."""
    depth = i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\" and i + 1 < len(pattern):
            if pattern[i + 1] in "0123456789" and (depth or pattern[i + 1] == "0"):
                return i
            i += 2
            continue
        if char == "[":
            depth += 1
            i += 1
            i += pattern.startswith("^", i)
            i += pattern.startswith("]", i)  # a "]" first in a class is a member
            continue
        if char == "]" and depth:
            depth -= 1
        i += 1
    return None


def _add_stand_ins(vocab: dict[str, int], ranks: Mapping[bytes, int], specials: Mapping[str, int]) -> None:
    """Give each single byte without a rank a stand-in id after every other id, so that merging
    starts from it as tiktoken's does; a stand-in left in the ids is where tiktoken panics."""
    next_id = max([*ranks.values(), *specials.values()], default=-1) + 1
    for byte in range(256):
        if bytes([byte]) not in ranks:
            vocab[BYTE_TO_CHAR[byte]] = next_id
            next_id += 1


def _check_bytes(ranks: Mapping[bytes, int], where: str | None) -> None:
    """Refuse ranks without every single byte: tiktoken loads them, then panics on text holding a
    byte that has no rank (hfcompat's merges would have no start either)."""
    if len(ranks) < 256 or any(bytes([byte]) not in ranks for byte in range(256)):
        missing = [byte for byte in range(256) if bytes([byte]) not in ranks]
        raise FormatError(f"{len(missing)} single bytes have no rank (the first: {bytes(missing[:1])!r}); "
                          "tiktoken loads such a file and panics on text holding them", path=where, field="ranks")


def _byte_level_strings(tokens: list[bytes]) -> list[str]:
    """Each token's byte-level string, mapped in one pass over all the tokens."""
    chars = bytes_to_chars(b"".join(tokens))
    ends = list(accumulate(map(len, tokens)))
    return [chars[start:end] for start, end in zip([0, *ends], ends)]


# ----- writing ------------------------------------------------------------------------------

def write_tiktoken(tokenizer: Tokenizer, path: str | Path) -> TiktokenSpec:
    """Write `tokenizer` as a rank file (and `<file>.json` unless the file is a known encoding's).

    Raises UnsupportedConversion, writing nothing, when tiktoken could not encode as it does.
    Returns the pattern and special tokens that go with the file.
    """
    path = Path(path)
    ranks, spec = tiktoken_parts(tokenizer)
    data = dump_ranks(ranks)
    digest = hashlib.sha256(data).hexdigest()
    check_merges(tokenizer.model, ranks, digest)
    known = encoding_for_sha256(digest)
    same_as_known = known is not None and _known_spec(known).pattern == spec.pattern and \
        spec.special_tokens == known.special_tokens
    atomic_write_bytes(path, data)
    if same_as_known:
        return TiktokenSpec(known.name, spec.pattern, spec.special_tokens)
    sidecar = {"name": spec.name, "pat_str": spec.pattern, "special_tokens": spec.special_tokens}
    atomic_write_text(_sidecar(path), json.dumps(sidecar, ensure_ascii=False, indent=2) + "\n")
    return spec


def dump_ranks(ranks: Mapping[bytes, int]) -> bytes:
    """Rank-file bytes, in rank order as tiktoken writes them (an empty token is written `=`)."""
    lines = [(base64.b64encode(token) or b"=") + b" " + str(rank).encode()
             for token, rank in sorted(ranks.items(), key=lambda item: item[1])]
    return b"\n".join(lines) + b"\n" if lines else b""


def tiktoken_parts(tokenizer: Tokenizer, allow_plain: bool = False) -> tuple[dict[bytes, int], TiktokenSpec]:
    """The ranks and spec of a byte-level BPE tokenizer, or UnsupportedConversion.

    Added tokens that are not special are refused unless `allow_plain` (tekken.json holds them).
    The merges are checked apart, by `check_merges`.
    """

    mode = getattr(tokenizer, "tiktoken", None)
    model = tokenizer.model
    if not isinstance(model, BPE):
        raise UnsupportedConversion(f"tiktoken holds byte-level BPE only; this model is "
                                    f"{type(model).__name__}")
    for name in ("dropout", "continuing_subword_prefix", "end_of_word_suffix"):
        if getattr(model, name):
            raise UnsupportedConversion(f"model: BPE with {name}={getattr(model, name)!r} has no "
                                        "tiktoken equivalent")
    if tokenizer.normalizer is not None:
        raise UnsupportedConversion(f"normalizer: tiktoken has none "
                                    f"({type(tokenizer.normalizer).__name__})")
    _check_post_processor(tokenizer.post_processor)
    pattern = mode.pattern if mode is not None else _pattern_of(tokenizer.pre_tokenizer)
    specials = _special_tokens(tokenizer, allow_plain)
    ranks = _ranks_of(model, specials)
    name = mode.name if mode is not None else None
    return ranks, TiktokenSpec(name, pattern, specials)


def _check_post_processor(processor: Any) -> None:
    """Only a ByteLevel post-processor (offsets only) leaves the ids as tiktoken makes them."""
    if processor is not None and type(processor).__name__ != "ByteLevel":
        raise UnsupportedConversion(f"post_processor: {type(processor).__name__} adds tokens, "
                                    "which tiktoken never does")


def _pattern_of(pre_tokenizer: Any) -> str:
    """The tiktoken pattern equal to a byte-level pre-tokenizer (GPT-2's ByteLevel, or Split + ByteLevel)."""

    if isinstance(pre_tokenizer, pre_tokenizers.ByteLevel) and pre_tokenizer.use_regex \
            and not pre_tokenizer.add_prefix_space:
        return R50K_PATTERN
    if isinstance(pre_tokenizer, pre_tokenizers.Sequence) and len(pre_tokenizer.pretokenizers) == 2:
        split, byte_level = pre_tokenizer.pretokenizers
        if isinstance(split, pre_tokenizers.Split) and split.is_regex and _keeps_matches(split) \
                and isinstance(byte_level, pre_tokenizers.ByteLevel) \
                and not byte_level.use_regex and not byte_level.add_prefix_space:
            return from_oniguruma(split.pattern)
    raise UnsupportedConversion(
        f"pre_tokenizer: tiktoken needs one regex split then bytes (ByteLevel without a prefix "
        f"space, or Split(isolated, or removed and inverted) + ByteLevel(use_regex=false)); got {pre_tokenizer!r}")


def _keeps_matches(split: Any) -> bool:
    """A split that keeps each match of its pattern as a piece: tiktoken's own (the text between
    matches dropped), or Isolated (the text between kept too; the same for a pattern that matches
    all text, as tiktoken's encodings do)."""
    return (split.behavior, split.invert) in (("removed", True), ("isolated", False))


def _special_tokens(tokenizer: Tokenizer, allow_plain: bool) -> dict[str, int]:
    """The added tokens, which must all be special (tiktoken has no other kind) unless `allow_plain`."""
    specials = {}
    for token_id, token in tokenizer.get_added_tokens_decoder().items():
        if not (token.special or allow_plain):
            raise UnsupportedConversion(f"added token {token.content!r} is not special; tiktoken "
                                        "has special tokens only")
        specials[token.content] = token_id
    return specials


def _ranks_of(model: Any, specials: Mapping[str, int]) -> dict[bytes, int]:
    """Token bytes -> id for every vocab entry that is not a special token."""
    special_ids = set(specials.values())
    ranks = {}
    for token, token_id in model.vocab.items():
        if token_id in special_ids:
            continue
        data = chars_to_bytes(token)
        if data is None:
            raise UnsupportedConversion(f"model: vocab entry {token!r} is not byte-level (a char "
                                        "outside the GPT-2 byte alphabet)")
        ranks[data] = token_id
    missing = [byte for byte in range(256) if bytes([byte]) not in ranks]
    if missing:
        raise UnsupportedConversion(f"model: no token for byte 0x{missing[0]:02X}; tiktoken needs "
                                    "all 256 bytes")
    return ranks


def check_merges(model: Any, ranks: Mapping[bytes, int], digest: str) -> None:
    """The merges must be the derived ones, in rank order (and reach every token unless ignore_merges)."""
    ordered, _ = in_rank_order(ranks)
    cuts = cached_merge_cuts(ordered, ranks, digest)
    strings = _byte_level_strings(ordered)
    derived = [(string[:cut], string[cut:]) for string, cut in zip(strings, cuts) if cut]
    actual = model.merges
    for index, (have, want) in enumerate(zip(actual, derived)):
        if have != want:
            raise UnsupportedConversion(
                f"model: merge {index} {_shown(have)} breaks rank order: tiktoken would join "
                f"{_shown(want)} next (rank {model.vocab[want[0] + want[1]]})")
    if len(actual) > len(derived):
        raise UnsupportedConversion(f"model: merge {len(derived)} {_shown(actual[len(derived)])} "
                                    "has no place in rank order")
    if len(actual) < len(derived) and not model.ignore_merges:
        raise UnsupportedConversion(f"model: no merge builds {_shown(derived[len(actual)])}, which "
                                    "tiktoken would join")
    if not model.ignore_merges:
        for token, cut in zip(ordered, cuts):
            if len(token) > 1 and not cut:
                raise UnsupportedConversion(f"model: token {token!r} (rank {ranks[token]}) cannot be "
                                            "built by merges, but tiktoken looks whole pieces up")


def _shown(pair: tuple[str, str]) -> str:
    """A merge (byte-level strings) for a message."""
    return " + ".join(map(repr, pair))
