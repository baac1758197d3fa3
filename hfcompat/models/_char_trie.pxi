# A char trie of vocabulary pieces in C, shared by the compiled Unigram and WordPiece twins:
# each one includes this file (`include "_char_trie.pxi"`).

from libc.stdint cimport int32_t, uint32_t, uint64_t
from libc.stdlib cimport qsort

include "_hash_table.pxi"

# A child is found under parent node << CHAR_BITS | code point (code points take 21 bits).
cdef int CHAR_BITS = 21
cdef uint64_t CHAR_MASK = (1 << 21) - 1
cdef Py_ssize_t BMP = 0x10000  # the chars a root finds directly
cdef int32_t SCAN_EDGES = 8  # a node's children past this many are binary-searched, not scanned


cdef struct Edge:
    # One child of a frozen trie's node: the char that leads to it, and its node.
    uint32_t char
    int32_t node
cdef Py_ssize_t MAX_NODES = 0x7FFFFFFF


@cython.final
cdef class CharTrie:
    """Pieces as a trie of code points: nodes 0 to roots - 1 are roots (one per set of pieces);
    each node has the id of the piece that ends there (-1: none) and that piece's score.

    Pieces go in through a hash table of edges; `freeze` then lays each node's children out
    side by side, sorted by char (compressed rows), which `child` searches: a walk reads
    neighbouring memory, where the hash table's slots lay megabytes apart."""

    cdef _Table children  # parent << CHAR_BITS | char -> child node (until frozen)
    cdef int32_t* ids
    cdef double* scores
    cdef Py_ssize_t size  # nodes in use
    cdef Py_ssize_t room  # nodes allocated
    cdef int32_t* first  # once frozen: node n's children are edges first[n] to first[n + 1] - 1
    cdef Edge* edges  # ascending by char within a node
    # A node with more than SCAN_EDGES children (such as "▁" in a .model) also finds its
    # children of chars below 256 directly: they are latin[wide[node] * 256 + char].
    cdef int32_t* wide
    cdef int32_t* latin
    # A root finds its children of chars in the Basic Multilingual Plane directly:
    # plane[root * BMP + char] (every text walks from a root at every char).
    cdef Py_ssize_t roots
    cdef int32_t* plane

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

    cdef inline int32_t child(self, Py_ssize_t node, Py_UCS4 char) noexcept nogil:
        """The child of `node` along `char`, or -1 (a binary search narrows a long row)."""
        cdef int32_t low = self.first[node], high = self.first[node + 1], middle, index
        if node < self.roots and char < BMP:
            return self.plane[node * BMP + <uint32_t>char]
        if high - low > SCAN_EDGES and char < 256:
            return self.latin[self.wide[node] * 256 + <uint32_t>char]
        while high - low > SCAN_EDGES:
            middle = (low + high) >> 1
            if self.edges[middle].char > char:
                high = middle
            else:
                low = middle
        for index in range(low, high):
            if self.edges[index].char == char:
                return self.edges[index].node
        return -1


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
