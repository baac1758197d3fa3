"""`tiktoken.Encoding` on hfcompat: the same constructor, methods, results and errors, over a
Tokenizer built from the ranks (formats/tiktoken) that encodes as tiktoken does.

The facade only translates: special-token sets are resolved and checked as tiktoken checks them
(its ValueError, word for word), encoding and decoding are the Tokenizer's tiktoken interface,
and the batch methods map over a thread pool as tiktoken's do.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, AbstractSet, Any, Callable, Collection, Iterable, Literal, NoReturn, Sequence

import regex

from ...collector import paused_while_loading
from ...formats.tiktoken.ranks import tokenizer_from_ranks
from .unstable import EncodingParts, encode_invalid_utf8, encode_with_unstable, piece_ids

if TYPE_CHECKING:
    import numpy

__all__ = ["ENCODINGS", "Encoding"]

SpecialChoice = Literal["all"] | AbstractSet[str]
DisallowedChoice = Literal["all"] | Collection[str]
CONTINUATION = range(0x80, 0xC0)  # UTF-8 bytes that continue a char
U32_MAX = 2**32 - 1  # tiktoken's ids are u32

# The encodings get_encoding built, by name (registry.py fills it); one of them pickles as its name.
ENCODINGS: dict[str, "Encoding"] = {}
# Set by registry.py: the registered encoding of a name, for unpickling one pickled by name.
registered_encoding: Callable[[str], "Encoding"] | None = None


class Encoding:
    """An encoding as tiktoken's: ranks, pattern and special tokens, with tiktoken's methods."""

    def __init__(self, name: str, *, pat_str: str, mergeable_ranks: dict[bytes, int],
                 special_tokens: dict[str, int], explicit_n_vocab: int | None = None):
        self.name = name
        self._pat_str = pat_str
        self._mergeable_ranks = mergeable_ranks
        self._special_tokens = special_tokens
        self.max_token_value = max(max(mergeable_ranks.values()), max(special_tokens.values(), default=0))
        if explicit_n_vocab:
            assert len(mergeable_ranks) + len(special_tokens) == explicit_n_vocab
            assert self.max_token_value == explicit_n_vocab - 1
        self._special_token_values = set(special_tokens.values())
        # Single bytes without a rank: tiktoken builds such an encoding and panics on text that
        # leaves one alone; the model gives it a stand-in id above max_token_value (`_whole`).
        self._unranked_bytes = any(bytes([byte]) not in mergeable_ranks for byte in range(256))
        with paused_while_loading():
            self._tokenizer = tokenizer_from_ranks(mergeable_ranks, pat_str, special_tokens, name, every_byte=False)

    def __repr__(self) -> str:
        return f"<Encoding {self.name!r}>"

    # ----- encoding ---------------------------------------------------------------------

    def encode_ordinary(self, text: str) -> list[int]:
        """The ids of `text`, special tokens read as plain text."""
        return self._whole(self._tokenizer.encode_ordinary(text))

    def encode(self, text: str, *, allowed_special: SpecialChoice = frozenset(),
               disallowed_special: DisallowedChoice = "all") -> list[int]:
        """The ids of `text`: the allowed specials as tokens; ValueError when a disallowed one is
        in the text (by default every special not allowed)."""
        allowed = self._checked_specials(text, allowed_special, disallowed_special)
        return self._whole(self._tokenizer.encode_ids(text, allowed_special=allowed, disallowed_special=()))

    def encode_to_numpy(self, text: str, *, allowed_special: SpecialChoice = frozenset(),
                        disallowed_special: DisallowedChoice = "all") -> "numpy.ndarray":
        """`encode` as a read-only numpy array of uint32."""
        import numpy  # optional, as in tiktoken: only this method needs it

        ids = self.encode(text, allowed_special=allowed_special, disallowed_special=disallowed_special)
        return numpy.frombuffer(numpy.array(ids, dtype=numpy.uint32).tobytes(), dtype=numpy.uint32)

    def encode_ordinary_batch(self, text: list[str], *, num_threads: int = 8) -> list[list[int]]:
        """`encode_ordinary` of each text, in `num_threads` threads."""
        if num_threads <= 0:
            raise ValueError("max_workers must be greater than 0")
        found = self._tokenizer.encode_ordinary_batch(text, num_threads=num_threads)
        return [self._whole(ids) for ids in found] if self._unranked_bytes else found

    def encode_batch(self, text: list[str], *, num_threads: int = 8, allowed_special: SpecialChoice = frozenset(),
                     disallowed_special: DisallowedChoice = "all") -> list[list[int]]:
        """`encode` of each text, in `num_threads` threads."""
        allowed, disallowed = self._resolved(allowed_special, disallowed_special)
        return _thread_map(lambda one: self.encode(one, allowed_special=allowed, disallowed_special=disallowed),
                           text, num_threads)

    def encode_with_unstable(self, text: str, *, allowed_special: SpecialChoice = frozenset(),
                             disallowed_special: DisallowedChoice = "all") -> tuple[list[int], list[list[int]]]:
        """The stable ids of `text` and the id sequences its last piece may become as text is
        added (in no particular order, as tiktoken gives them)."""
        allowed = self._checked_specials(text, allowed_special, disallowed_special)
        text.encode("utf-8")  # a lone surrogate: UnicodeEncodeError, as tiktoken raises here
        return encode_with_unstable(self._parts, text, allowed)

    def encode_single_token(self, text_or_bytes: str | bytes) -> int:
        """The id of the token whose text or bytes these are (specials too); KeyError if none."""
        data = text_or_bytes.encode("utf-8") if isinstance(text_or_bytes, str) else _exactly_bytes(text_or_bytes)
        rank = self._mergeable_ranks.get(data)
        if rank is not None:
            return rank
        try:
            special = self._special_tokens.get(data.decode("utf-8"))
        except UnicodeDecodeError:
            special = None
        if special is None:
            raise KeyError(data)
        return special

    # ----- decoding ---------------------------------------------------------------------

    def decode_bytes(self, tokens: Sequence[int]) -> bytes:
        """The bytes of the tokens joined (KeyError for an id that is no token)."""
        try:
            if self._unranked_bytes:
                self._refuse_stand_ins(tokens)
            return self._tokenizer.decode_bytes(tokens)
        except KeyError:
            _check_u32(tokens)
            raise

    def decode(self, tokens: Sequence[int], errors: str = "replace") -> str:
        """The text of the tokens; bytes that are not UTF-8 follow `errors`."""
        return self.decode_bytes(tokens).decode("utf-8", errors=errors)

    def decode_single_token_bytes(self, token: int) -> bytes:
        """The bytes of one token (a special's as UTF-8); KeyError if the id is no token."""
        try:
            if self._unranked_bytes:
                self._refuse_stand_ins([token])
            return self._tokenizer.decode_single_token_bytes(token)
        except KeyError:
            _check_u32([token])
            raise KeyError(str(token)) from None

    def decode_tokens_bytes(self, tokens: Sequence[int]) -> list[bytes]:
        """The bytes of each token."""
        return [self.decode_single_token_bytes(token) for token in tokens]

    def decode_with_offsets(self, tokens: Sequence[int]) -> tuple[str, list[int]]:
        """The text of the tokens and, for each, the index of the char where its bytes start (the
        char it continues, when it starts inside one); UnicodeDecodeError for invalid UTF-8."""
        pieces = self.decode_tokens_bytes(tokens)
        offsets = []
        chars = 0  # chars started so far: every byte that does not continue a char starts one
        for data in pieces:
            offsets.append(max(0, chars - (data[0] in CONTINUATION)))
            chars += sum(byte not in CONTINUATION for byte in data)
        return b"".join(pieces).decode("utf-8", errors="strict"), offsets

    def decode_batch(self, batch: Sequence[Sequence[int]], *, errors: str = "replace",
                     num_threads: int = 8) -> list[str]:
        """`decode` of each token list."""
        return _thread_map(lambda tokens: self.decode(tokens, errors=errors), batch, num_threads)

    def decode_bytes_batch(self, batch: Sequence[Sequence[int]], *, num_threads: int = 8) -> list[bytes]:
        """`decode_bytes` of each token list."""
        return _thread_map(self.decode_bytes, batch, num_threads)

    # ----- the vocabulary ---------------------------------------------------------------

    def token_byte_values(self) -> list[bytes]:
        """The bytes of every ranked token, sorted."""
        return list(self._sorted_tokens)

    @property
    def eot_token(self) -> int:
        """The id of <|endoftext|> (KeyError when the encoding has none)."""
        return self._special_tokens["<|endoftext|>"]

    @cached_property
    def special_tokens_set(self) -> set[str]:
        """The special tokens' texts."""
        return set(self._special_tokens)

    def is_special_token(self, token: int) -> bool:
        """Whether an id is a special token's."""
        assert isinstance(token, int)
        return token in self._special_token_values

    @property
    def n_vocab(self) -> int:
        """The largest id plus one."""
        return self.max_token_value + 1

    # ----- tiktoken's private methods that its tests call -------------------------------

    def _encode_single_piece(self, text_or_bytes: str | bytes) -> list[int]:
        """The ids of one piece, with no regex split and no special token."""
        data = text_or_bytes.encode("utf-8") if isinstance(text_or_bytes, str) else bytes(text_or_bytes)
        return self._whole(piece_ids(self._tokenizer, data))

    def _encode_only_native_bpe(self, text: str) -> list[int]:
        """`encode_ordinary` with the pattern run by Python's `regex` module."""
        return [token for piece in regex.findall(self._pat_str, text) for token in self._encode_single_piece(piece)]

    def _encode_bytes(self, text: bytes) -> list[int]:
        """The ids of bytes that need not be UTF-8 (an invalid end joins the last piece)."""
        return self._whole(encode_invalid_utf8(self._parts, text))

    # ----- pickling ---------------------------------------------------------------------

    def __getstate__(self) -> object:
        if self is ENCODINGS.get(self.name):
            return self.name  # a registered encoding travels as its name
        return {"name": self.name, "pat_str": self._pat_str, "mergeable_ranks": self._mergeable_ranks,
                "special_tokens": self._special_tokens}

    def __setstate__(self, value: object) -> None:
        if isinstance(value, str):
            assert registered_encoding is not None, "hfcompat.compat.tiktoken.registry is not imported"
            self.__dict__ = registered_encoding(value).__dict__
            return
        self.__init__(**value)  # type: ignore[misc]

    # ----- helpers ----------------------------------------------------------------------

    @cached_property
    def _sorted_tokens(self) -> list[bytes]:
        """The ranked tokens' bytes, sorted (tiktoken's token_byte_values)."""
        return sorted(self._mergeable_ranks)

    @cached_property
    def _parts(self) -> EncodingParts:
        """What the unstable-end computations need."""
        return EncodingParts(self._tokenizer, self._mergeable_ranks, self._sorted_tokens, self._special_token_values)

    def _whole(self, ids: list[int]) -> list[int]:
        """`ids`, checked when some single byte has no rank: ValueError where tiktoken panics (a
        byte that no token holds, left as its stand-in id)."""
        if self._unranked_bytes and ids and max(ids) > self.max_token_value:
            alone = bytes(sorted({self._tokenizer.decode_single_token_bytes(i)[0] for i in ids if i > self.max_token_value}))
            raise ValueError(f"the text leaves bytes that have no rank alone ({alone!r}): tiktoken panics on it")
        return ids

    def _refuse_stand_ins(self, tokens: Sequence[int]) -> None:
        """KeyError, as for any id that is no token, at the first stand-in id (or unknown id before it)."""
        first = next((index for index, token in enumerate(tokens) if token > self.max_token_value), None)
        if first is not None:
            self._tokenizer.decode_bytes(tokens[:first])
            raise KeyError(f"Invalid token for decoding: {tokens[first]}")

    def _resolved(self, allowed_special: SpecialChoice,
                  disallowed_special: DisallowedChoice) -> tuple[AbstractSet[str], Collection[str]]:
        """The allowed and disallowed sets, "all" spelled out as tiktoken does."""
        if allowed_special == "all":
            allowed_special = self.special_tokens_set
        if disallowed_special == "all":
            disallowed_special = self.special_tokens_set - allowed_special
        return allowed_special, disallowed_special

    def _checked_specials(self, text: str, allowed_special: SpecialChoice,
                          disallowed_special: DisallowedChoice) -> frozenset[str]:
        """The allowed specials that are special tokens; ValueError, as tiktoken's, when a
        disallowed one is in the text."""
        allowed, disallowed = self._resolved(allowed_special, disallowed_special)
        if disallowed:
            found = _alternation(frozenset(disallowed)).search(text)
            if found:
                raise_disallowed_special_token(found.group())
        return frozenset(allowed) & frozenset(self._special_tokens)


@lru_cache(maxsize=128)
def _alternation(tokens: frozenset[str]) -> "regex.Pattern[str]":
    """A regex that finds any of these strings."""
    return regex.compile("|".join(map(regex.escape, sorted(tokens, key=lambda token: (-len(token), token)))))


def raise_disallowed_special_token(token: str) -> NoReturn:
    """tiktoken's error for a disallowed special token in the text (its message, word for word)."""
    raise ValueError(
        f"Encountered text corresponding to disallowed special token {token!r}.\n"
        f"If you want this text to be encoded as a special token, pass it to `allowed_special`, "
        f"e.g. `allowed_special={{{token!r}, ...}}`.\n"
        f"If you want this text to be encoded as normal text, disable the check for this token by passing "
        f"`disallowed_special=(enc.special_tokens_set - {{{token!r}}})`.\n"
        "To disable this check for all special tokens, pass `disallowed_special=()`.\n")


def _check_u32(tokens: Sequence[int]) -> None:
    """OverflowError, as tiktoken's conversion of ids to u32 raises, for an id outside 0..2**32-1."""
    if any(not 0 <= token <= U32_MAX for token in tokens):
        raise OverflowError("out of range integral type conversion attempted")


def _exactly_bytes(value: object) -> bytes:
    """`value` when it is bytes; TypeError, as tiktoken raises, for any other type (bytearray too)."""
    if not isinstance(value, bytes):
        raise TypeError(f"{type(value).__name__!r} object is not an instance of 'bytes'")
    return value


def _thread_map(function: Callable[[Any], Any], items: Iterable[Any], num_threads: int) -> list[Any]:
    """`function` of each item, in a pool of `num_threads` threads, in order."""
    with ThreadPoolExecutor(num_threads) as pool:
        return list(pool.map(function, items))
