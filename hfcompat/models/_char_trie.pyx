# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The C char trie the compiled Unigram and WordPiece twins share (`CharTrie` in _char_trie.pxd,
which they cimport): building and freezing it here, its walk inline in the .pxd. No Python entry
points: the reference modules use dicts."""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdlib cimport qsort

from ._hash_table cimport EMPTY, HashTable, Slot

__all__ = []  # C-level only

cdef uint64_t CHAR_MASK = (1 << CHAR_BITS) - 1
cdef Py_ssize_t MAX_NODES = 0x7FFFFFFF


cdef class CharTrie:
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
        self.children = HashTable(chars)
        for node in range(roots):
            self.ids[node] = -1
            self.scores[node] = 0.0
        self.size = roots
        self.roots = roots

    def __dealloc__(self) -> None:
        """Free the per-node and per-edge arrays."""
        PyMem_Free(self.ids)
        PyMem_Free(self.scores)
        PyMem_Free(self.first)
        PyMem_Free(self.edges)
        PyMem_Free(self.wide)
        PyMem_Free(self.latin)
        PyMem_Free(self.plane)

    cdef int insert(self, Py_ssize_t root, str piece, Py_ssize_t token_id, double score) except -1:
        """Add the nodes of `piece` below `root` that are missing and mark its last one (an empty
        piece marks nothing); a piece given twice keeps its last entry. Raises OverflowError
        when the id does not fit 31 bits, or the pieces outgrow the room given."""
        cdef Py_ssize_t node = root
        cdef uint64_t key
        cdef Slot* slot
        cdef Py_UCS4 char
        if self.children is None:
            raise ValueError("the trie is frozen")
        if not 0 <= token_id <= 0x7FFFFFFF:
            raise OverflowError(f"id {token_id} beyond 31 bits")
        if self.size + len(piece) > self.room:
            raise OverflowError("more chars than the trie has room for")
        if not piece:
            return 0
        for char in piece:
            key = <uint64_t>node << CHAR_BITS | <uint64_t>char
            slot = self.children.find(key)  # one probe: the child, or where it goes
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

    cdef int freeze(self) except -1:
        """Lay the edges out by parent, each node's sorted by char, and drop the hash table;
        call once, after the last `insert` and before the first `child`."""
        cdef Py_ssize_t index, node, slot_count = self.children.mask + 1
        cdef Slot* slot
        cdef int32_t* cursor
        self.first = <int32_t*>PyMem_Malloc((self.size + 1) * sizeof(int32_t))
        self.edges = <Edge*>PyMem_Malloc((self.size + 1) * sizeof(Edge))
        cursor = <int32_t*>PyMem_Malloc((self.size + 1) * sizeof(int32_t))
        try:
            if self.first == NULL or self.edges == NULL or cursor == NULL:
                raise MemoryError()
            for node in range(self.size + 1):
                self.first[node] = 0
            for index in range(slot_count):  # count each parent's children
                if self.children.slots[index].key != EMPTY:
                    self.first[(self.children.slots[index].key >> CHAR_BITS) + 1] += 1
            for node in range(self.size):
                self.first[node + 1] += self.first[node]
                cursor[node] = self.first[node]
            for index in range(slot_count):  # each edge at the next free place of its parent's row
                slot = &self.children.slots[index]
                if slot.key != EMPTY:
                    node = slot.key >> CHAR_BITS
                    self.edges[cursor[node]].char = <uint32_t>(slot.key & CHAR_MASK)
                    self.edges[cursor[node]].node = slot.value
                    cursor[node] += 1
            for node in range(self.size):
                if self.first[node + 1] - self.first[node] > 1:
                    qsort(&self.edges[self.first[node]], self.first[node + 1] - self.first[node],
                          sizeof(Edge), _by_char)
        finally:
            PyMem_Free(cursor)
        self.children = None
        self._index_wide_nodes()
        self._index_roots()
        return 0

    cdef int _index_roots(self) except -1:
        """Give each root its plane of direct children (BMP chars)."""
        cdef Py_ssize_t root, index
        self.plane = <int32_t*>PyMem_Malloc(self.roots * BMP * sizeof(int32_t))
        if self.plane == NULL:
            raise MemoryError()
        for index in range(self.roots * BMP):
            self.plane[index] = -1
        for root in range(self.roots):
            for index in range(self.first[root], self.first[root + 1]):
                if self.edges[index].char < BMP:
                    self.plane[root * BMP + self.edges[index].char] = self.edges[index].node
        return 0

    cdef int _index_wide_nodes(self) except -1:
        """Give each node with more than SCAN_EDGES children its row of 256 direct children."""
        cdef Py_ssize_t node, index, count = 0
        self.wide = <int32_t*>PyMem_Malloc((self.size + 1) * sizeof(int32_t))
        if self.wide == NULL:
            raise MemoryError()
        for node in range(self.size):
            self.wide[node] = -1
            if self.first[node + 1] - self.first[node] > SCAN_EDGES:
                self.wide[node] = <int32_t>count
                count += 1
        self.latin = <int32_t*>PyMem_Malloc((count * 256 + 1) * sizeof(int32_t))
        if self.latin == NULL:
            raise MemoryError()
        for index in range(count * 256):
            self.latin[index] = -1
        for node in range(self.size):
            if self.wide[node] >= 0:
                for index in range(self.first[node], self.first[node + 1]):
                    if self.edges[index].char < 256:
                        self.latin[self.wide[node] * 256 + self.edges[index].char] = self.edges[index].node
        return 0


cdef int _by_char(const void* left, const void* right) noexcept nogil:
    """qsort's order of edges: by char."""
    cdef uint32_t a = (<const Edge*>left).char, b = (<const Edge*>right).char
    return (a > b) - (a < b)


cdef Py_ssize_t total_chars(object pieces) except -1:
    """The chars of all the strings in `pieces` (room for a trie of them)."""
    cdef Py_ssize_t chars = 0
    cdef str piece
    for piece in pieces:
        chars += len(piece)
    return chars
