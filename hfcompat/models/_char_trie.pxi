# A char trie of vocabulary pieces in C, shared by the compiled Unigram and WordPiece twins:
# each one includes this file (`include "_char_trie.pxi"`).

from libc.stdint cimport int32_t, uint64_t

include "_hash_table.pxi"

# A child is found under parent node << CHAR_BITS | code point (code points take 21 bits).
cdef int CHAR_BITS = 21
cdef Py_ssize_t MAX_NODES = 0x7FFFFFFF


@cython.final
cdef class CharTrie:
    """Pieces as a trie of code points: node 0 is the root; each node has the id of the piece
    that ends there (-1: none) and that piece's score."""

    cdef _Table children  # parent << CHAR_BITS | char -> child node
    cdef int32_t* ids
    cdef double* scores
    cdef Py_ssize_t size  # nodes in use

    def __cinit__(self, list pieces) -> None:
        """The trie of `pieces` = [(piece, id, score), ...]; a piece given twice keeps its last
        entry. Raises OverflowError when an id does not fit 31 bits (the model stays in Python)."""
        cdef Py_ssize_t room = 1
        cdef str piece
        for piece, _, _ in pieces:
            room += len(piece)
        if room > MAX_NODES:
            raise OverflowError("too many trie nodes")
        self.ids = <int32_t*>PyMem_Malloc(room * sizeof(int32_t))
        self.scores = <double*>PyMem_Malloc(room * sizeof(double))
        if self.ids == NULL or self.scores == NULL:
            raise MemoryError()
        self.children = _Table(room)
        self.ids[0] = -1
        self.scores[0] = 0.0
        self.size = 1
        for piece, token_id, score in pieces:
            if not 0 <= token_id <= 0x7FFFFFFF:
                raise OverflowError(f"id {token_id} beyond 31 bits")
            self._insert(piece, token_id, score)

    def __dealloc__(self) -> None:
        """Free the per-node arrays."""
        PyMem_Free(self.ids)
        PyMem_Free(self.scores)

    cdef void _insert(self, str piece, int32_t token_id, double score):
        """Add the nodes of `piece` that are missing and mark its last one (not the root)."""
        cdef Py_ssize_t node = 0
        cdef uint64_t key
        cdef Slot* slot
        cdef Py_UCS4 char
        if not piece:
            return
        for char in piece:
            key = <uint64_t>node << CHAR_BITS | <uint64_t>char
            slot = self.children._find(key)  # one probe: the child, or where it goes
            if slot.key != key:
                slot.key = key
                slot.value = <int32_t>self.size
                self.ids[self.size] = -1
                self.scores[self.size] = 0.0
                self.size += 1
            node = slot.value
        self.ids[node] = token_id
        self.scores[node] = score

    cdef inline int32_t child(self, Py_ssize_t node, Py_UCS4 char) noexcept nogil:
        """The child of `node` along `char`, or -1."""
        return self.children.get(<uint64_t>node << CHAR_BITS | <uint64_t>char)
