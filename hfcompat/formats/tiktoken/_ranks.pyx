# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled twin of the clean rank-file parser (`parse_clean_ranks` in ranks.py, the
reference, with the same signature and results): one pass over the bytes checks the form of
each line and reads its rank, where the reference runs a regex, a split and `int` per rank."""

from binascii import a2b_base64

__all__ = ["parse_clean_ranks"]

# The bytes a clean token field holds, base64's alphabet and its padding: each one's 6 bits
# (padding: PADDING); -1 for any other byte.
cdef enum:
    PADDING = 64
cdef int _SEXTET[256]
cdef const unsigned char* _ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="
cdef Py_ssize_t _at
for _at in range(256):
    _SEXTET[_at] = -1
for _at in range(65):
    _SEXTET[_ALPHABET[_at]] = _at


cdef bytes _decoded(bytes data, const unsigned char* text, Py_ssize_t start, Py_ssize_t end):
    """The bytes of the base64 field text[start:end]: decoded here when it is plain (whole quads,
    padding only at the end), else by `binascii.a2b_base64`, whose lenient rules then hold."""
    cdef Py_ssize_t size = end - start, padding = 0, at, out = 0
    cdef unsigned char buffer[96]
    cdef unsigned int quad
    if size % 4 or size > 128:
        return a2b_base64(data[start:end])
    while padding < 2 and padding < size and text[end - 1 - padding] == 61:  # b"="
        padding += 1
    for at in range(start, end - padding):
        if _SEXTET[text[at]] == PADDING:
            return a2b_base64(data[start:end])
    for at in range(start, end, 4):
        quad = (_SEXTET[text[at]] << 18) | (_SEXTET[text[at + 1]] << 12)
        if text[at + 2] != 61:
            quad |= _SEXTET[text[at + 2]] << 6
        if text[at + 3] != 61:
            quad |= _SEXTET[text[at + 3]]
        buffer[out] = quad >> 16
        buffer[out + 1] = (quad >> 8) & 0xFF
        buffer[out + 2] = quad & 0xFF
        out += 3
    return buffer[:out - padding]


def parse_clean_ranks(bytes data, object rank_max) -> dict:
    """`ranks.parse_clean_ranks`: token -> rank of a file of `base64 rank` lines (the last line
    may lack its newline), a token listed again keeping its last rank; ValueError on anything
    else, or when the ranks are not distinct and within 0..rank_max."""
    cdef const unsigned char* text = data
    cdef Py_ssize_t size = len(data), at = 0, start, end, digits
    cdef unsigned long long value, limit = rank_max
    cdef bint beyond
    cdef dict ranks = {}
    if size == 0:
        raise ValueError("an empty file: the careful parser reads it")
    while at < size:
        start = at
        while at < size and _SEXTET[text[at]] >= 0:
            at += 1
        end = at
        if end == start or at == size or text[at] != 32:  # b" "
            raise ValueError("not one `base64 rank` per line: the careful parser reads it")
        at += 1
        digits = at
        value = 0
        beyond = False
        while at < size and 48 <= text[at] <= 57:  # b"0".."9"
            if not beyond:
                value = value * 10 + (text[at] - 48)
                beyond = value > limit
            at += 1
        if at == digits or (at < size and text[at] != 10):  # b"\n"
            raise ValueError("not one `base64 rank` per line: the careful parser reads it")
        ranks[_decoded(data, text, start, end)] = int(data[digits:at]) if beyond else value
        at += 1
    if len(set(ranks.values())) != len(ranks):
        raise ValueError("a rank given to two tokens")
    if max(ranks.values()) > rank_max:
        raise ValueError("a rank out of range")
    return ranks
