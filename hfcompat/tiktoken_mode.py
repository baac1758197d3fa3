"""tiktoken's encoding semantics on a Tokenizer loaded from a rank file.

The pipeline (Split with the pattern, ByteLevel, BPE with ignore_merges, ByteLevel decoder)
already tokenizes exactly as tiktoken; this module adds what tiktoken does around it: special
tokens allowed or disallowed per call, lone surrogates replaced, decoding to bytes with
tiktoken's error modes, and `encode_ordinary`'s fast path (one regex pass and a per-piece cache
of ids; the BPE model runs only for a piece not seen before).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING, AbstractSet, Any, Callable, Collection, Iterable, Literal, Union

import regex

from .bytelevel import bytes_to_chars, chars_to_bytes
from .encoding import Encoding
from .errors import SpecialTokenError
from .models import Token
from .normalized import PreTokenizedString, Split
from .tiktoken_pattern import to_ascii_python, to_python

if TYPE_CHECKING:
    from .tokenizer import Tokenizer

SpecialSet = Union[Literal["all"], AbstractSet[str], Collection[str]]
# The piece cache stays small: at most this many pieces, each shorter than PIECE_CACHE_MAX_CHARS
# (long pieces, such as runs of Chinese text, rarely come back).
PIECE_CACHE_CAPACITY = 50_000
PIECE_CACHE_MAX_CHARS = 64
_SURROGATE = regex.compile(r"[\ud800-\udfff]")


@dataclass
class TiktokenMode:
    """What a rank file's encoding adds to the pipeline: its name, pattern and special tokens."""

    name: str | None
    pattern: str  # as tiktoken (fancy-regex) reads it
    special_tokens: dict[str, int]

    def __post_init__(self) -> None:
        self._findall = regex.compile(to_python(self.pattern)).findall
        self._ascii_findall = _ascii_findall(self.pattern) or self._findall
        self._special_regexes: dict[frozenset[str], "regex.Pattern[str]"] = {}
        self._token_bytes: dict[int, bytes] | None = None
        self._piece_cache: PieceCache | None = None

    # ----- encoding ---------------------------------------------------------------------

    def encode_ordinary(self, tokenizer: "Tokenizer", text: str) -> list[int]:
        """Ids of `text` with no special token recognised (tiktoken's encode_ordinary).

        The fast path: the pattern's pieces looked up in the piece cache, all in C; a piece
        not seen before goes through the BPE model (PieceCache.__missing__).
        """
        cache = self._piece_cache
        if cache is None or cache.model is not tokenizer.model:
            cache = self._piece_cache = PieceCache(tokenizer.model)
        if text.isascii():
            pieces = self._ascii_findall(text)
        else:
            pieces = self._findall(scrub_surrogates(text))
        return list(chain.from_iterable(map(cache.__getitem__, pieces)))

    def encode_ids(self, tokenizer: "Tokenizer", text: str, allowed_special: SpecialSet = frozenset(),
                   disallowed_special: SpecialSet = "all") -> list[int]:
        """tiktoken's `encode`: ids, with the allowed specials as tokens (fast path)."""
        ids: list[int] = []
        for start, stop, special_id in self.segments(text, allowed_special, disallowed_special):
            if special_id is None:
                ids += self.encode_ordinary(tokenizer, text[start:stop])
            else:
                ids.append(special_id)
        return ids

    def encode(self, tokenizer: "Tokenizer", text: str, allowed_special: SpecialSet,
               disallowed_special: SpecialSet) -> Encoding:
        """tiktoken's `encode` through the pipeline: an Encoding with tokens and offsets."""
        text = scrub_surrogates(text)
        pretokenized = PreTokenizedString(text)
        whole = pretokenized.splits[0].normalized
        splits = []
        for start, stop, special_id in self.segments(text, allowed_special, disallowed_special):
            part = whole.slice(start, stop)
            if special_id is None:
                splits.append(Split(part))
            else:
                content = text[start:stop]
                splits.append(Split(part, [Token(special_id, content, (0, len(content.encode())))]))
        pretokenized.splits = splits
        if tokenizer.pre_tokenizer is not None:
            tokenizer.pre_tokenizer.pre_tokenize(pretokenized)
        return tokenizer._into_encoding(pretokenized, 0, None)

    def segments(self, text: str, allowed_special: SpecialSet,
                 disallowed_special: SpecialSet) -> list[tuple[int, int, int | None]]:
        """(start, stop, special id or None) spans covering `text`; raises on a disallowed special."""
        allowed = self._resolve(allowed_special, frozenset())
        disallowed = self._resolve(disallowed_special, allowed)
        if disallowed:
            found = self._special_regex(disallowed).search(text)
            if found:
                raise SpecialTokenError(disallowed_message(found.group()))
        spans: list[tuple[int, int, int | None]] = []
        start = 0
        if allowed:
            for found in self._special_regex(allowed).finditer(text):
                if found.start() > start:
                    spans.append((start, found.start(), None))
                spans.append((found.start(), found.end(), self.special_tokens[found.group()]))
                start = found.end()
        if start < len(text) or not spans:
            spans.append((start, len(text), None))
        return spans

    def _resolve(self, chosen: SpecialSet, allowed: frozenset[str]) -> frozenset[str]:
        """"all" as every special (minus the allowed ones, for disallowed); else the set itself."""
        if chosen == "all":
            return frozenset(self.special_tokens) - allowed
        return frozenset(chosen)

    def _special_regex(self, specials: frozenset[str]) -> "regex.Pattern[str]":
        """An alternation of the specials (longest first), compiled once per set."""
        compiled = self._special_regexes.get(specials)
        if compiled is None:
            ordered = sorted(specials, key=lambda s: (-len(s), s))
            compiled = regex.compile("|".join(regex.escape(s) for s in ordered))
            self._special_regexes[specials] = compiled
        return compiled

    # ----- decoding ---------------------------------------------------------------------

    def token_bytes(self, tokenizer: "Tokenizer", token_id: int) -> bytes:
        """The bytes of one token (a special token as its UTF-8); KeyError for an unknown id."""
        if self._token_bytes is None:
            self._token_bytes = self._build_token_bytes(tokenizer)
        try:
            return self._token_bytes[token_id]
        except KeyError:
            raise KeyError(f"Invalid token for decoding: {token_id}") from None

    def _build_token_bytes(self, tokenizer: "Tokenizer") -> dict[int, bytes]:
        """id -> bytes for every rank and special token."""
        table = {}
        for token_id, token in tokenizer.model.vocab_r.items():
            data = chars_to_bytes(token)
            if data is not None:
                table[token_id] = data
        for content, token_id in self.special_tokens.items():
            table[token_id] = content.encode("utf-8")
        return table

    def decode_bytes(self, tokenizer: "Tokenizer", ids: Iterable[int]) -> bytes:
        """The bytes of a sequence of ids joined."""
        return b"".join(self.token_bytes(tokenizer, token_id) for token_id in ids)


def _ascii_findall(pattern: str) -> Callable[[str], list[str]] | None:
    """findall of the pattern's ASCII form (stdlib `re`, much faster there), if it has one."""
    ascii_pattern = to_ascii_python(pattern)
    if ascii_pattern is None:
        return None
    try:
        return re.compile(ascii_pattern).findall
    except re.error:  # e.g. possessive quantifiers before Python 3.11
        return None


class PieceCache(dict):
    """Piece -> ids; a missing piece is tokenized by the BPE model and kept (up to a capacity)."""

    def __init__(self, model: Any, capacity: int = PIECE_CACHE_CAPACITY):
        super().__init__()
        self.model = model
        self.capacity = capacity

    def __missing__(self, piece: str) -> list[int]:
        """Run the model on the piece's byte-level form (the slow path)."""
        ids = [token[0] for token in self.model.tokenize(bytes_to_chars(piece.encode("utf-8")))]
        if len(self) < self.capacity and len(piece) < PIECE_CACHE_MAX_CHARS:
            self[piece] = ids
        return ids


def scrub_surrogates(text: str) -> str:
    """Replace each lone surrogate by U+FFFD, as tiktoken does before encoding."""
    if not _SURROGATE.search(text):
        return text
    return _SURROGATE.sub("\ufffd", text)


def disallowed_message(token: str) -> str:
    """The error for a disallowed special token: tiktoken's first sentence, then how to allow it."""
    return (f"Encountered text corresponding to disallowed special token {token!r}.\n"
            f"To encode it as that special token, include it in `allowed_special` "
            f"(e.g. allowed_special={{{token!r}}}); to encode it as plain text, leave it out of "
            f"`disallowed_special` (disallowed_special=() turns the check off).\n")


def decode_text(data: bytes, errors: str) -> str:
    """UTF-8 bytes as text: "replace", "strict" and the like as bytes.decode, or "recover"."""
    if errors == "recover":
        return recover_text(data)
    return data.decode("utf-8", errors)


def recover_text(data: bytes) -> str:
    """The decoding that keeps the most whole characters of a broken byte sequence.

    DESIGN example 7: best[k] = max over t in 1..4 of best[k - t] + (1 if data[k-t:k] is one
    valid UTF-8 character else 0); bytes that end up in no character are dropped.
    """
    n = len(data)
    best = [0] * (n + 1)
    step = [1] * (n + 1)  # how many bytes the best choice at k consumed
    for k in range(1, n + 1):
        best[k], step[k] = best[k - 1], 1
        for t in range(1, min(4, k) + 1):
            score = best[k - t] + (1 if _one_char(data[k - t:k]) else 0)
            if score > best[k]:
                best[k], step[k] = score, t
    chars = []
    k = n
    while k > 0:
        t = step[k]
        piece = data[k - t:k]
        if _one_char(piece):
            chars.append(piece.decode("utf-8"))
        k -= t
    return "".join(reversed(chars))


def _one_char(data: bytes) -> bool:
    """True when `data` is exactly one valid UTF-8 character."""
    try:
        return len(data.decode("utf-8")) == 1
    except UnicodeDecodeError:
        return False


class StreamDecoder:
    """Decode ids one at a time, emitting text as soon as its bytes form whole characters.

    Bytes that cannot start or continue a character are emitted as U+FFFD (as "replace"
    would), so the concatenated output equals decoding all ids at once.
    """

    def __init__(self, token_bytes):
        self._token_bytes = token_bytes
        self._pending = b""

    def feed(self, token_id: int) -> str:
        """Add one id; return the text completed by it (maybe "")."""
        data = self._pending + self._token_bytes(token_id)
        cut = _complete_prefix(data)
        self._pending = data[cut:]
        return data[:cut].decode("utf-8", "replace")

    def flush(self) -> str:
        """The text of whatever is left (an unfinished character becomes U+FFFD)."""
        data, self._pending = self._pending, b""
        return data.decode("utf-8", "replace")


def _complete_prefix(data: bytes) -> int:
    """Length of the longest prefix of `data` that does not end inside a character still able to finish."""
    for back in range(1, min(3, len(data)) + 1):
        byte = data[-back]
        if byte < 0x80:
            return len(data)
        if byte >= 0xC0:  # a lead byte: is the character after it still unfinished?
            need = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            if back < need and _can_continue(data[-back:]):
                return len(data) - back
            return len(data)
    return len(data)


def _can_continue(partial: bytes) -> bool:
    """True when `partial` (a lead byte and continuation bytes) is a valid start of a character."""
    try:
        partial.decode("utf-8")
    except UnicodeDecodeError as error:
        return error.reason == "unexpected end of data"
    return False
