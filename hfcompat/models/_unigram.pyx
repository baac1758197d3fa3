# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled twin of the Unigram Viterbi (`Viterbi` in `unigram.py`, the reference, with the
same methods).

`Viterbi` holds a model's matchable pieces in a C char trie and finds the best segmentation over C
arrays with the reference's rules: a proposal replaces the best path ending at the same place only
when strictly better, an unknown char (where no single-char piece starts) costs the unknown score,
and sentencepiece's models round every path score to float32 (the reference's `_to_float32`, a C
cast there too). Where the reference raises (an unknown char wins and there is no unk id) or may raise (a float32
sum overflows: struct.pack raises on some Python versions, gives infinity on others),
`best_path` returns None and `unigram.py` runs the reference, which decides.
"""

cimport cython
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.math cimport isinf

from libc.stdint cimport int32_t

from ._char_trie cimport CharTrie, total_chars

__all__ = ["Viterbi"]  # the entry point with a twin (CharTrie is cimported from _char_trie)


cdef struct Cell:
    # Per char position of the text: the best path ending there, and the char starting there.
    double best  # the best path score ending here
    Py_ssize_t origin  # the start of that path's last piece (-1: none yet)
    int32_t last_id  # the id of that last piece
    Py_UCS4 char  # the text's code point at this position


cdef struct Span:
    # A piece of the best path, found by the backtrack (which gives each span's start; its end
    # is where the next span starts).
    Py_ssize_t start
    int32_t token_id


cdef double SCORE_RESET = 100000.0  # unigram.SCORE_RESET


# What `_search` reports besides the arrays it fills.
cdef enum Outcome:
    FOUND
    NEEDS_UNK_ID  # an unknown char won, and the model has no unk id
    FLOAT32_OVERFLOW  # a float32 path score overflowed (the reference's struct.pack may raise)


cdef Cell* _cells(str text) except NULL:
    """A cell per char of `text` (+ 1 at the end), each holding its char; free with PyMem_Free."""
    cdef Py_ssize_t i = 0
    cdef Py_UCS4 char
    cdef Cell* cells = <Cell*>PyMem_Malloc((len(text) + 1) * sizeof(Cell))
    if cells == NULL:
        raise MemoryError()
    for char in text:
        cells[i].char = char
        i += 1
    return cells


@cython.final
cdef class Viterbi:
    """A Unigram model's matchable pieces and unknown-char rule, and its Viterbi over C arrays."""

    cdef CharTrie trie
    cdef double unk_score
    cdef int32_t unk_id  # -1: the model has none
    cdef bint float32
    cdef dict token_to_ids
    cdef frozenset reserved_ids

    def __cinit__(self, dict token_to_ids, list vocab, frozenset reserved_ids, double unk_score,
                  object unk_id, bint float32) -> None:
        """From the model's piece -> id map, its [(piece, score), ...] vocabulary and the ids it
        never matches (its `token_to_ids`, `vocab`, `reserved_ids`), the unknown-char score, the
        unk id (or None) and whether path scores are rounded to float32. Raises OverflowError
        when an id does not fit 31 bits (the model stays in Python)."""
        cdef str piece
        if unk_id is not None and not 0 <= unk_id <= 0x7FFFFFFF:
            raise OverflowError(f"unk id {unk_id} beyond 31 bits")
        self.trie = CharTrie(total_chars(token_to_ids))
        for piece, token_id in token_to_ids.items():
            if token_id not in reserved_ids:
                self.trie.insert(0, piece, token_id, vocab[token_id][1])
        self.trie.freeze()
        self.unk_score = unk_score
        self.unk_id = -1 if unk_id is None else unk_id
        self.float32 = float32
        self.token_to_ids = token_to_ids
        self.reserved_ids = reserved_ids

    cdef inline double _sum(self, double base, double score) noexcept nogil:
        """base + score, rounded to float32 when the model sums as sentencepiece does."""
        if self.float32:
            return <double>(<float>(base + score))
        return base + score

    cdef inline Py_ssize_t _next_piece(self, Cell* cells, Py_ssize_t length, Py_ssize_t* node,
                                       Py_ssize_t end) noexcept nogil:
        """Walk the trie from node[0] along the chars from `end` to the next node that is a piece:
        the end of that piece (node[0] is then its node), or -1 where the walk leaves the trie."""
        cdef int32_t child
        while end < length:
            child = self.trie.child(node[0], cells[end].char)
            if child < 0:
                return -1
            node[0] = child
            end += 1
            if self.trie.ids[child] >= 0:
                return end
        return -1

    cdef void _reset(self, Cell* cells, Py_ssize_t start, Py_ssize_t frontier) noexcept nogil:
        """`_reset_scores` in unigram.py: the scores from `start` to `frontier` made relative to start's."""
        cdef double offset = cells[start].best
        cdef Py_ssize_t i
        for i in range(start, frontier + 1):
            if i == start or cells[i].origin >= 0:
                cells[i].best = <double>(<float>(cells[i].best - offset))

    cdef Outcome _search(self, Cell* cells, Py_ssize_t length) noexcept nogil:
        """Fill the best score, origin and last id of every end position (`Viterbi.best_path`)."""
        cdef Py_ssize_t start, end, node, frontier = 0
        cdef int32_t token_id
        cdef double base, candidate, total
        cdef bint has_single_char
        for end in range(length + 1):
            cells[end].best = 0.0
            cells[end].origin = -1
            cells[end].last_id = 0
        for start in range(length):
            base = cells[start].best
            if self.float32 and (base < -SCORE_RESET or base > SCORE_RESET):
                self._reset(cells, start, frontier)
                base = 0.0
            has_single_char = False
            node = 0
            end = self._next_piece(cells, length, &node, start)
            while end >= 0:
                frontier = max(frontier, end)
                token_id = self.trie.ids[node]
                total = base + self.trie.scores[node]
                candidate = self._sum(base, self.trie.scores[node])
                if self.float32 and isinf(candidate) and not isinf(total):
                    return FLOAT32_OVERFLOW
                if cells[end].origin < 0 or candidate > cells[end].best:
                    cells[end].best = candidate
                    cells[end].origin = start
                    cells[end].last_id = token_id
                if end == start + 1:
                    has_single_char = True
                end = self._next_piece(cells, length, &node, end)
            if not has_single_char:
                end = start + 1
                frontier = max(frontier, end)
                total = base + self.unk_score
                candidate = self._sum(base, self.unk_score)
                if self.float32 and isinf(candidate) and not isinf(total):
                    return FLOAT32_OVERFLOW
                if cells[end].origin < 0 or candidate > cells[end].best:
                    if self.unk_id < 0:
                        return NEEDS_UNK_ID
                    cells[end].best = candidate
                    cells[end].origin = start
                    cells[end].last_id = self.unk_id
        return FOUND

    def starts(self, str text) -> list:
        """Per char start, the (end, id) of every piece match there, shortest
        first, then the unk id where no single-char piece starts (and the model has one)."""
        cdef Py_ssize_t length = len(text)
        cdef Py_ssize_t start, end, node
        cdef bint has_single_char
        cdef list starts = [], group
        cdef Cell* cells = _cells(text)
        try:
            for start in range(length):
                group = []
                has_single_char = False
                node = 0
                end = self._next_piece(cells, length, &node, start)
                while end >= 0:
                    group.append((end, self.trie.ids[node]))
                    has_single_char = has_single_char or end == start + 1
                    end = self._next_piece(cells, length, &node, end)
                if not has_single_char and self.unk_id >= 0:
                    group.append((start + 1, self.unk_id))
                starts.append(group)
            return starts
        finally:
            PyMem_Free(cells)

    cdef Py_ssize_t _backtrack(self, Cell* cells, Py_ssize_t length, Span* spans) noexcept nogil:
        """`Viterbi._backtrack` into a C array: follow the origins back from the end, fusing runs
        of unk spans; of the n spans returned (the last one first), span k ends where span k - 1
        starts (span 0 at `length`)."""
        cdef Py_ssize_t count = 0
        cdef Py_ssize_t end = length
        cdef bint fusing = False
        cdef int32_t token_id
        while end > 0:
            token_id = cells[end].last_id
            if token_id == self.unk_id and fusing:
                spans[count - 1].start = cells[end].origin
            else:
                spans[count].start = cells[end].origin
                spans[count].token_id = token_id
                count += 1
                fusing = token_id == self.unk_id
            end = cells[end].origin
        return count

    cdef Span* _best_spans(self, str text, Py_ssize_t* count) except NULL:
        """The spans of the best path of `text` (as `_backtrack` gives them) and their number in
        `count`, or -1 there where the reference decides; free them with PyMem_Free."""
        cdef Py_ssize_t length = len(text)
        cdef Cell* cells = _cells(text)
        cdef Span* spans = NULL
        try:
            spans = _span_room(length)
            count[0] = self._backtrack(cells, length, spans) if self._search(cells, length) == FOUND else -1
            return spans
        finally:
            PyMem_Free(cells)

    def best_path(self, str text) -> object:
        """The best (char start, char end, id) spans of `text`, as the reference gives
        them; None where the reference raises or may raise (it then runs, and decides)."""
        cdef Py_ssize_t count, k, length = len(text)
        cdef Span* spans = self._best_spans(text, &count)
        try:
            if count < 0:
                return None
            return [(spans[k].start, spans[k - 1].start if k else length, spans[k].token_id)
                    for k in range(count - 1, -1, -1)]
        finally:
            PyMem_Free(spans)

    def columns(self, str text, bint byte_fallback) -> object:
        """`best_path` as a tokenizer's columns: ids, token strings (the chars each token covers)
        and char spans, an unknown span looked up whole as `Unigram._tokens` does; None where
        `best_path` is None or an unknown span would need byte fallback (the Python path)."""
        cdef list ids = [], tokens = [], offsets = []
        if not self._fill_columns(text, byte_fallback, ids, tokens, offsets):
            return None
        return ids, tokens, offsets

    def ids(self, str text, bint byte_fallback) -> object:
        """The ids of `columns` alone (for a caller that needs no strings or spans); None where
        `columns` is None."""
        cdef list ids = []
        if not self._fill_columns(text, byte_fallback, ids, None, None):
            return None
        return ids

    cdef bint _fill_columns(self, str text, bint byte_fallback, list ids, list tokens,
                            list offsets) except -1:
        """Append the best path's ids to `ids` and, unless they are None, its token strings and
        char spans to `tokens` and `offsets`; False where `columns` is None."""
        cdef Py_ssize_t count, k, start, end, length = len(text)
        cdef object token_id
        cdef Span* spans = self._best_spans(text, &count)
        try:
            if count < 0:
                return False
            for k in range(count - 1, -1, -1):
                start = spans[k].start
                end = spans[k - 1].start if k else length
                token_id = spans[k].token_id
                if spans[k].token_id == self.unk_id:
                    token_id = self.token_to_ids.get(text[start:end])
                    if token_id is None or token_id in self.reserved_ids:
                        if byte_fallback:
                            return False
                        token_id = self.unk_id
                ids.append(token_id)
                if tokens is not None:
                    tokens.append(text[start:end])
                    offsets.append((start, end))
            return True
        finally:
            PyMem_Free(spans)


cdef Span* _span_room(Py_ssize_t length) except NULL:
    """Room for the spans of a text of `length` chars (one per char at most); free with PyMem_Free."""
    cdef Span* spans = <Span*>PyMem_Malloc((length + 1) * sizeof(Span))
    if spans == NULL:
        raise MemoryError()
    return spans
