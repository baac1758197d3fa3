# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled twin of WordPiece's greedy longest match (`GreedyMatcher` in `wordpiece.py`, the
reference, with the same methods).

`GreedyMatcher` holds a model's vocabulary as a C char trie with two roots, the tokens that may
start a word and the continuing pieces (their prefix left out), and takes at each position the longest piece
that matches there: the same piece the reference finds by trying ever shorter candidates.
"""

cimport cython
from cpython.mem cimport PyMem_Free, PyMem_Malloc

from libc.stdint cimport int32_t

from ._char_trie cimport CharTrie, total_chars

__all__ = ["GreedyMatcher"]  # the entry point with a twin (CharTrie is cimported from _char_trie)


@cython.final
cdef class GreedyMatcher:
    """A WordPiece vocabulary as char tries, and its greedy longest-match split."""

    cdef CharTrie trie  # root 0: every token; root 1: the continuing tokens without their prefix
    cdef Py_ssize_t following  # the root of the pieces after a word's first (0 when there is no prefix)
    cdef str prefix

    def __cinit__(self, dict vocab, str prefix) -> None:
        """From the token -> id vocabulary and the continuing-subword prefix. Raises
        OverflowError when an id does not fit 31 bits (the model stays in Python)."""
        cdef Py_ssize_t skip = len(prefix)
        cdef Py_ssize_t chars = total_chars(vocab)
        cdef str token
        if prefix:
            chars += total_chars([token[skip:] for token in vocab if token.startswith(prefix)])
        self.prefix = prefix
        self.following = 1 if prefix else 0
        self.trie = CharTrie(chars, 2)
        for token, token_id in vocab.items():
            self.trie.insert(0, token, token_id, 0.0)
            if prefix and token.startswith(prefix):
                self.trie.insert(1, token[skip:], token_id, 0.0)
        self.trie.freeze()

    cdef Py_ssize_t _longest(self, Py_ssize_t root, str word, Py_ssize_t start, Py_ssize_t length,
                             int32_t* found):
        """The end of the longest piece below `root` that starts at `start` (its id in found[0]),
        or `start` when none does."""
        cdef CharTrie trie = self.trie
        cdef Py_ssize_t node = root
        cdef Py_ssize_t end = start
        cdef Py_ssize_t best = start
        cdef int32_t child
        while end < length:
            child = trie.child(node, word[end])
            if child < 0:
                break
            node = child
            end += 1
            if trie.ids[node] >= 0:
                best = end
                found[0] = trie.ids[node]
        return best

    def greedy_pieces(self, str word) -> object:
        """(id, piece, char start, char end) of each longest match, or None if a position has
        none."""
        found = self.columns(word)
        if found is None:
            return None
        ids, pieces, spans = found
        return [(token_id, piece, start, end) for token_id, piece, (start, end) in zip(ids, pieces, spans)]

    def columns(self, str word) -> object:
        """`greedy_pieces` as a tokenizer's columns: ids, pieces and char spans; None if a
        position has no match."""
        cdef list ids = [], tokens = [], spans = []
        return (ids, tokens, spans) if self._fill_columns(word, ids, tokens, spans) else None

    def ids(self, str word) -> object:
        """The ids of `columns` alone (for a caller that needs no pieces or spans); None where
        `columns` is None."""
        cdef list ids = []
        return ids if self._fill_columns(word, ids, None, None) else None

    cdef bint _fill_columns(self, str word, list ids, list tokens, list spans) except -1:
        """Append each longest match's id to `ids` and, unless they are None, its piece and char
        span to `tokens` and `spans`; False if a position has no match."""
        cdef Py_ssize_t length = len(word)
        cdef Py_ssize_t start = 0
        cdef Py_ssize_t end
        cdef int32_t token_id = -1
        while start < length:
            end = self._longest(self.following if start else 0, word, start, length, &token_id)
            if end == start:
                return False
            ids.append(token_id)
            if tokens is not None:
                tokens.append(self.prefix + word[start:end] if start else word[start:end])
                spans.append((start, end))
            start = end
        return True
