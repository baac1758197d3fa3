# A char trie of vocabulary pieces in C, shared by the compiled Unigram and WordPiece twins:
# each one includes this file (`include "_char_trie.pxi"`).

from libc.stdint cimport int32_t, uint64_t

include "_hash_table.pxi"

# A child is found under parent node << CHAR_BITS | code point (code points take 21 bits).
cdef int CHAR_BITS = 21
cdef Py_ssize_t MAX_NODES = 0x7FFFFFFF


@cython.final
cdef class CharTrie:
    """Pieces as a trie of code points: nodes 0 to roots - 1 are roots (one per set of pieces);
    each node has the id of the piece that ends there (-1: none) and that piece's score."""

    cdef _Table children  # parent << CHAR_BITS | char -> child node
    cdef int32_t* ids
    cdef double* scores
    cdef Py_ssize_t size  # nodes in use
    cdef Py_ssize_t room  # nodes allocated

    def __cinit__(self, Py_ssize_t chars, Py_ssize_t roots = 1) -> None:
        """Room for `roots` roots and pieces of `chars` chars in all (one node per char at most)."""
        cdef Py_ssize_t node
        self.room = chars + roots
        if self.room > MAX_NODES:
            raise OverflowError("too many trie nodes")
        self.ids = <int32_t*>PyMem_Malloc(self.room * sizeof(int32_t))
        self.scores = <double*>PyMem_Malloc(self.room * sizeof(double))
        if self.ids == NULL or self.scores == NULL:
            raise MemoryError()
        self.children = _Table(chars)
        for node in range(roots):
            self.ids[node] = -1
            self.scores[node] = 0.0
        self.size = roots

    def __dealloc__(self) -> None:
        """Free the per-node arrays."""
        PyMem_Free(self.ids)
        PyMem_Free(self.scores)

    cdef int insert(self, Py_ssize_t root, str piece, Py_ssize_t token_id, double score) except -1:
        """Add the nodes of `piece` below `root` that are missing and mark its last one (an empty
        piece marks nothing); a piece given twice keeps its last entry. Raises OverflowError
        when the id does not fit 31 bits, or the pieces outgrow the room given."""
        cdef Py_ssize_t node = root
        cdef uint64_t key
        cdef Slot* slot
        cdef Py_UCS4 char
        if not 0 <= token_id <= 0x7FFFFFFF:
            raise OverflowError(f"id {token_id} beyond 31 bits")
        if self.size + len(piece) > self.room:
            raise OverflowError("more chars than the trie has room for")
        if not piece:
            return 0
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
        self.ids[node] = <int32_t>token_id
        self.scores[node] = score
        return 0

    cdef inline int32_t child(self, Py_ssize_t node, Py_UCS4 char) noexcept nogil:
        """The child of `node` along `char`, or -1."""
        return self.children.get(<uint64_t>node << CHAR_BITS | <uint64_t>char)


cdef Py_ssize_t total_chars(object pieces) except -1:
    """The chars of all the strings in `pieces` (room for a trie of them)."""
    cdef Py_ssize_t chars = 0
    cdef str piece
    for piece in pieces:
        chars += len(piece)
    return chars
