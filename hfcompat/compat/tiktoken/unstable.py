"""The end of a text that more text could still change: tiktoken's `encode_with_unstable` and its
encoding of bytes that are not valid UTF-8 (`_encode_bytes`).

Both start from the tokens of the last piece the pattern cut (none after a special token),
widened over the whitespace tokens before it (a pattern such as cl100k's `\\s*[\\r\\n]` may
join them with the next text). The BPE itself is the Tokenizer's model, run on one piece's bytes.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import AbstractSet, Iterator, Mapping, Sequence

from ...pipeline.bytelevel import bytes_to_chars
from ...tokenizer import Tokenizer

__all__ = ["EncodingParts", "encode_invalid_utf8", "encode_with_unstable", "piece_ids"]

SPACE_BYTES = frozenset(b" \n\t")
# Rust's char::is_whitespace (Unicode White_Space), which tiktoken tests the last char with.
WHITE_SPACE = frozenset("\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
                        "\u2009\u200a\u2028\u2029\u202f\u205f\u3000")


@dataclass
class EncodingParts:
    """What these computations need of an encoding: its tokenizer (tiktoken mode), its ranks, the
    ranked tokens' bytes in sorted order, and the special tokens' ids."""

    tokenizer: Tokenizer
    ranks: Mapping[bytes, int]
    sorted_tokens: Sequence[bytes]
    special_ids: AbstractSet[int]

    def piece_ids(self, data: bytes) -> list[int]:
        """The ids of one piece's bytes: the whole piece if it has a rank, else its BPE merges."""
        return piece_ids(self.tokenizer, data)

    def ranked_bytes(self, token_id: int) -> bytes | None:
        """The bytes of a ranked token (None for a special token)."""
        return None if token_id in self.special_ids else self.tokenizer.decode_single_token_bytes(token_id)

    def token_bytes(self, ids: Sequence[int]) -> bytes:
        """The bytes of these ids joined."""
        return self.tokenizer.decode_bytes(ids)

    def starting_with(self, prefix: bytes) -> Iterator[bytes]:
        """The ranked tokens whose bytes begin with `prefix`, in sorted order."""
        tokens = self.sorted_tokens
        for index in range(bisect_left(tokens, prefix), len(tokens)):
            if not tokens[index].startswith(prefix):
                return
            yield tokens[index]


def piece_ids(tokenizer: Tokenizer, data: bytes) -> list[int]:
    """The ids the model gives one piece's bytes (no regex split, no special token)."""
    return [token[0] for token in tokenizer.model.tokenize(bytes_to_chars(data))]


def encode_with_last_piece(parts: EncodingParts, text: str, allowed: AbstractSet[str]) -> tuple[list[int], int]:
    """The ids of `text` (the `allowed` specials as tokens) and how many of the last ones the last
    piece gave (0 when the text ends in a special token or has no piece)."""
    tokenizer = parts.tokenizer
    ids = tokenizer.encode_ids(text, allowed_special=allowed, disallowed_special=())
    mode = tokenizer.tiktoken
    start, stop, special = mode.spans(text, allowed, ())[-1]
    pieces = mode.pieces(text[start:stop]) if special is None else []
    return ids, len(parts.piece_ids(pieces[-1].encode("utf-8"))) if pieces else 0


def widen_over_spaces(parts: EncodingParts, ids: list[int], count: int) -> int:
    """`count` grown over the whitespace tokens before the last piece, when it starts with one."""
    def all_space(token_id: int) -> bool:
        data = parts.ranked_bytes(token_id)
        return data is not None and all(byte in SPACE_BYTES for byte in data)

    if count and all_space(ids[len(ids) - count]):
        while count < len(ids) and all_space(ids[len(ids) - count - 1]):
            count += 1
    return count


def encode_with_unstable(parts: EncodingParts, text: str,
                         allowed: AbstractSet[str]) -> tuple[list[int], list[list[int]]]:
    """The stable ids of `text`, and the token sequences its unstable end may become."""
    ids, count = encode_with_last_piece(parts, text, allowed)
    if not count:
        return ids, []
    count = widen_over_spaces(parts, ids, count)
    unstable = parts.token_bytes(ids[len(ids) - count:])
    stable = ids[:len(ids) - count]
    if not unstable:
        return stable, []
    completions = {(parts.ranks[token],) for token in parts.starting_with(unstable)}
    for cut in range(1, len(unstable)):
        head, tail = unstable[:cut], unstable[cut:]
        for token in parts.starting_with(tail):
            completions.add(_covering(parts, _encode_possibility(parts, head + token), len(unstable)))
    split = _split_at_last_space(parts, unstable)
    if split is not None:
        completions.add(split)
    return stable, [list(completion) for completion in completions]


def _encode_possibility(parts: EncodingParts, data: bytes) -> list[int]:
    """The ids of a possible continuation: through the pattern when it is text, else as one piece."""
    try:
        return parts.tokenizer.encode_ordinary(data.decode("utf-8"))
    except UnicodeDecodeError:
        return parts.piece_ids(data)


def _covering(parts: EncodingParts, ids: list[int], size: int) -> tuple[int, ...]:
    """The first ids whose bytes reach `size` bytes."""
    taken = []
    length = 0
    for token_id in ids:
        taken.append(token_id)
        length += len(parts.token_bytes([token_id]))
        if length >= size:
            break
    return tuple(taken)


def _split_at_last_space(parts: EncodingParts, unstable: bytes) -> tuple[int, ...] | None:
    """When the unstable bytes end in a whitespace char, them encoded with a cut before it (more
    text may make the pattern cut there); else None."""
    if len(unstable) < 2:
        return None
    last, size = _last_char(unstable)
    if last not in WHITE_SPACE or size == len(unstable):
        return None
    return (*parts.piece_ids(unstable[:-size]), *parts.piece_ids(unstable[-size:]))


def _last_char(data: bytes) -> tuple[str | None, int]:
    """The char the bytes end with and its UTF-8 length (None, 1 when they end in no whole char)."""
    for size in range(1, min(4, len(data)) + 1):
        try:
            char = data[-size:].decode("utf-8")
        except UnicodeDecodeError:
            continue
        return (char, size) if len(char) == 1 else (None, 1)
    return None, 1


def encode_invalid_utf8(parts: EncodingParts, data: bytes) -> list[int]:
    """The ids of bytes that may not be UTF-8: the valid start encoded as text, then its last
    piece (widened over spaces) and the rest of the bytes encoded as one piece."""
    try:
        return parts.tokenizer.encode_ordinary(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        valid = error.start
    ids, count = encode_with_last_piece(parts, data[:valid].decode("utf-8"), frozenset())
    count = widen_over_spaces(parts, ids, count)
    rest = data[valid:]
    if ids and count:
        rest = parts.token_bytes(ids[len(ids) - count:]) + rest
        ids = ids[:len(ids) - count]
    return ids + parts.piece_ids(rest) if rest else ids
