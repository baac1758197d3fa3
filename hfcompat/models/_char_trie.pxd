# A char trie of vocabulary pieces in C, shared by the compiled Unigram and WordPiece twins:
# they `cimport` it from here (building it is in _char_trie.pyx; the walk, `child`, is inline
# here, so each twin compiles it into its own loops).

cimport cython
from libc.stdint cimport int32_t, uint32_t, uint64_t

from ._hash_table cimport HashTable

cdef enum:
    CHAR_BITS = 21  # a child is found under parent node << CHAR_BITS | code point
    BMP = 0x10000  # the chars a root finds directly
    SCAN_EDGES = 8  # a node's children past this many are binary-searched, not scanned


cdef struct Edge:
    # One child of a frozen trie's node: the char that leads to it, and its node.
    uint32_t char
    int32_t node


@cython.final
cdef class CharTrie:
    """Pieces as a trie of code points: nodes 0 to roots - 1 are roots (one per set of pieces);
    each node has the id of the piece that ends there (-1: none) and that piece's score.

    Pieces go in through a hash table of edges; `freeze` then lays each node's children out
    side by side, sorted by char (compressed rows), which `child` searches: a walk reads
    neighbouring memory, where the hash table's slots lay megabytes apart."""

    cdef HashTable children  # parent << CHAR_BITS | char -> child node (until frozen)
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

    cdef int insert(self, Py_ssize_t root, str piece, Py_ssize_t token_id, double score) except -1
    cdef int freeze(self) except -1
    cdef int _index_roots(self) except -1
    cdef int _index_wide_nodes(self) except -1

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


cdef Py_ssize_t total_chars(object pieces) except -1
