"""Special-token policies: how the one encode path finds the special tokens of a text.

`AddedTokens`, every tokenizer's default, is HF's: the added vocabulary's tokens are found in
any text (`encode_special_tokens` makes them plain text) and the per-call sets are not used.
`TiktokenSpecials`, for a tokenizer read from a rank file, is tiktoken's: per call,
`allowed_special` (default none) become tokens, `disallowed_special` (default every other
special) raise SpecialTokenError, the others are plain text; lone surrogates become U+FFFD and
decoding goes through bytes. It also carries tiktoken's own interface: `encode_ordinary`'s fast
path (one regex pass and a per-piece cache of ids; the BPE model runs only for a piece not seen
before) and the bytes of each token.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import AbstractSet, Any, Callable, Collection, Iterable, Literal, Union

import regex

from . import _backend
from .errors import SpecialTokenError
from .models.base import ModelKernel
from .pipeline import pieces as reference_pieces
from .pipeline.bytelevel import bytes_to_chars, chars_to_bytes
from .pipeline.oniguruma import onig_view
from .pre_tokenizers.scanned_patterns import TIKTOKEN, scanner
from .pre_tokenizers.tiktoken_pattern import to_ascii_python, to_python

SpecialSet = Union[Literal["all"], AbstractSet[str], Collection[str]]
# A text cut by a policy: (start, stop, special id or None) spans covering it.
Segments = list[tuple[int, int, Union[int, None]]]
# The piece cache stays small: at most this many pieces, each shorter than PIECE_CACHE_MAX_CHARS
# (long pieces, such as runs of Chinese text, rarely come back).
PIECE_CACHE_CAPACITY = 50_000
PIECE_CACHE_MAX_CHARS = 64
_SURROGATE = regex.compile(r"[\ud800-\udfff]")


class AddedTokens:
    """HF's policy: the added vocabulary finds special tokens in every text (the Tokenizer's
    own path); per-call sets do not apply, and decoding goes through the decoder."""

    decodes_bytes = False
    skips_specials = False  # when decoding goes through bytes (errors=...): specials kept by default

    def segments(self, text: str, allowed_special: SpecialSet | None,
                 disallowed_special: SpecialSet | None, as_text: bool) -> tuple[str, Segments] | None:
        """None: this policy leaves the text to the added vocabulary."""
        return None


@dataclass
class TiktokenSpecials:
    """tiktoken's policy, with what a rank file's encoding adds to the pipeline: its name,
    pattern and special tokens."""

    decodes_bytes = True  # a class constant, not a field

    name: str | None
    pattern: str  # as tiktoken (fancy-regex) reads it
    special_tokens: dict[str, int]
    # What a call that names no sets does: tiktoken disallows every special (SpecialTokenError);
    # mistral-common's tekken reads them as plain text (()) and drops them when decoding.
    disallowed_default: SpecialSet = "all"
    skips_specials: bool = False  # mistral-common: also decodes the runs between dropped specials apart

    def __post_init__(self) -> None:
        compiled = regex.compile(to_python(self.pattern))
        self._findall, self._finditer = compiled.findall, compiled.finditer
        self._ascii_findall = _ascii_findall(self.pattern) or self._findall
        self._special_regexes: dict[frozenset[str], "regex.Pattern[str]"] = {}
        self._token_bytes: dict[int, bytes] | None = None
        self._piece_cache: PieceCache | None = None

    # ----- encoding ---------------------------------------------------------------------

    def encode_ordinary(self, model: Any, text: str) -> list[int]:
        """Ids of `text` with no special token recognised (tiktoken's encode_ordinary).

        The fast path: the pattern's pieces looked up in the piece cache, all in C; a piece
        not seen before goes through the BPE model (`PieceCache.ids_of`). On the compiled
        backend a known pattern is scanned in C (`scanned_patterns`) and its pieces merged in C without
        the GIL (the model kernel's `scanned_ids`); another pattern's pieces go through `piece_ids`
        (pipeline/pieces.py, or its compiled twin).
        """
        cache = self._cache_of(model)
        ascii = text.isascii()
        if not ascii:
            text = scrub_surrogates(text)
        compiled = scanner(self.pattern, TIKTOKEN)
        if compiled is not None and cache.kernel.scanned_ids is not None:
            return cache.kernel.scanned_ids(text, compiled)
        return cache.encode(self.pieces(text, compiled, ascii))

    def pieces(self, text: str, compiled: Any = None, ascii: bool | None = None) -> list[str]:
        """The pattern's matches in `text` (lone surrogates already replaced), as tiktoken's regex
        finds them; `compiled` is the pattern's scanner, `ascii` whether the text is ASCII, when
        the caller knows them."""
        compiled = compiled or scanner(self.pattern, TIKTOKEN)
        if compiled is not None:
            found: list[str] = compiled.findall(text)
            return found
        if text.isascii() if ascii is None else ascii:
            return self._ascii_findall(text)
        view = onig_view(text)  # chars newer than tiktoken's Unicode tables match as unassigned
        return self._findall(text) if view is text else [
            text[match.start():match.end()] for match in self._finditer(view)]

    def encode_ordinary_batch(self, model: Any, texts: list[str]) -> list[list[int]]:
        """`encode_ordinary` of every text; on the compiled backend, with a scanned pattern, all
        in one C call whose merges run without the GIL."""
        compiled = scanner(self.pattern, TIKTOKEN)
        encode_batch = self._cache_of(model).kernel.scanned_ids_batch if compiled is not None else None
        if encode_batch is not None:
            return encode_batch([text if text.isascii() else scrub_surrogates(text) for text in texts], compiled)
        return [self.encode_ordinary(model, text) for text in texts]

    def _cache_of(self, model: Any) -> PieceCache:
        """The piece cache of `model` on the backend in use (a new one when either changed)."""
        cache = self._piece_cache
        if cache is None or cache.model is not model or cache.backend != _backend.backend:
            cache = self._piece_cache = PieceCache(model)
        return cache

    def encode_ids(self, model: Any, text: str, allowed_special: SpecialSet = frozenset(),
                   disallowed_special: SpecialSet = "all") -> list[int]:
        """tiktoken's `encode`: ids, with the allowed specials as tokens (fast path)."""
        ids: list[int] = []
        for start, stop, special_id in self.spans(text, allowed_special, disallowed_special):
            if special_id is None:
                ids += self.encode_ordinary(model, text[start:stop])
            else:
                ids.append(special_id)
        return ids

    def segments(self, text: str, allowed_special: SpecialSet | None,
                 disallowed_special: SpecialSet | None, as_text: bool) -> tuple[str, Segments]:
        """The text (lone surrogates replaced) and its spans, the defaults filled in: no special
        allowed, `disallowed_default` disallowed; with `as_text` every special is plain text."""
        if as_text:  # special tokens are plain text, as `encode_special_tokens` makes them in `tokenizers`
            allowed_special, disallowed_special = frozenset(), ()
        text = scrub_surrogates(text)
        return text, self.spans(text, allowed_special or frozenset(),
                                self.disallowed_default if disallowed_special is None else disallowed_special)

    def spans(self, text: str, allowed_special: SpecialSet, disallowed_special: SpecialSet) -> Segments:
        """(start, stop, special id or None) spans covering `text`; raises on a disallowed special."""
        allowed = self._resolve(allowed_special, frozenset())
        disallowed = self._resolve(disallowed_special, allowed)
        if disallowed:
            found = self._special_regex(disallowed).search(text)
            if found:
                raise SpecialTokenError(disallowed_message(found.group()))
        spans: Segments = []
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

    def token_bytes(self, model: Any, token_id: int) -> bytes:
        """The bytes of one token (a special token as its UTF-8); KeyError for an unknown id."""
        if self._token_bytes is None:
            self._token_bytes = self._build_token_bytes(model)
        try:
            return self._token_bytes[token_id]
        except KeyError:
            raise KeyError(f"Invalid token for decoding: {token_id}") from None

    def _build_token_bytes(self, model: Any) -> dict[int, bytes]:
        """id -> bytes for every rank and special token."""
        table = {}
        for token_id, token in model.vocab_r.items():
            data = chars_to_bytes(token)
            if data is not None:
                table[token_id] = data
        for content, token_id in reversed(self.special_tokens.items()):  # an id two specials share: the first's
            table[token_id] = content.encode("utf-8")
        return table

    def decode_bytes(self, model: Any, ids: Iterable[int]) -> bytes:
        """The bytes of a sequence of ids joined."""
        return b"".join(self.token_bytes(model, token_id) for token_id in ids)


def _ascii_findall(pattern: str) -> Callable[[str], list[str]] | None:
    """findall of the pattern's ASCII form (stdlib `re`, much faster there), if it has one."""
    ascii_pattern = to_ascii_python(pattern)
    if ascii_pattern is None:
        return None
    try:
        return re.compile(ascii_pattern).findall
    except re.error:  # e.g. possessive quantifiers before Python 3.11
        return None


class PieceCache:
    """A model's ids of the pieces seen so far (`ids`, up to a capacity), with what the model's
    kernel offers on the backend the cache was made on."""

    def __init__(self, model: Any, capacity: int = PIECE_CACHE_CAPACITY):
        self.model = model
        self.capacity = capacity
        self.ids: dict[str, list[int]] = {}
        self.backend = _backend.backend
        self.kernel: ModelKernel = model.kernel()
        self.loops = _backend.pieces or reference_pieces  # `piece_ids`, compiled or the reference

    def __reduce__(self) -> tuple[type, tuple[Any, int]]:
        """Pickled as a new empty cache of the same model (the kernel holds compiled tables)."""
        return PieceCache, (self.model, self.capacity)

    def ids_of(self, piece: str) -> list[int]:
        """A piece's ids: the model on its byte-level form."""
        ids = self.kernel.utf8_ids(piece) if self.kernel.utf8_ids is not None else None
        if ids is None:
            ids = [token[0] for token in self.model.tokenize(bytes_to_chars(piece.encode("utf-8")))]
        return ids

    def encode(self, pieces: list[str]) -> list[int]:
        """The ids of every piece, concatenated (each looked up, or found and kept)."""
        ids = self.loops.piece_ids(pieces, self.ids, self.ids_of, "", self.capacity, PIECE_CACHE_MAX_CHARS)
        return ids if ids is not None else [i for piece in pieces if piece for i in self.ids_of(piece)]


def scrub_surrogates(text: str) -> str:
    """As tiktoken mends a text before encoding: a surrogate pair becomes the char it encodes
    (as in UTF-16), a lone surrogate U+FFFD."""
    if not _SURROGATE.search(text):
        return text
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def disallowed_message(token: str) -> str:
    """The error for a disallowed special token: tiktoken's first sentence, then how to allow it."""
    return (f"Encountered text corresponding to disallowed special token {token!r}.\n"
            f"To encode it as that special token, include it in `allowed_special` "
            f"(e.g. allowed_special={{{token!r}}}); to encode it as plain text, leave it out of "
            f"`disallowed_special` (disallowed_special=() turns the check off).\n")
