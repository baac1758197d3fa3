"""Bytes back to text: UTF-8 with tiktoken's error modes, the decoding that keeps the most whole
chars of a broken sequence, and a decoder fed one token at a time."""

from __future__ import annotations

from typing import Callable


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

    def __init__(self, token_bytes: Callable[[int], bytes]):
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
