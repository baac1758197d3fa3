# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled twin of `Tokenizer._encode_pieces` in `tokenizer.py`, which stays the reference.

`assemble` joins the cached entries of a text's pieces into an Encoding's columns (ids, tokens,
offsets, word ids) in one C loop: offsets shifted by each piece's start, or mapped through the
normalized text's alignments.
"""

cimport cython


def assemble(list pieces, list starts, object cache, object miss, object alignments) -> object:
    """(ids, tokens, offsets, word ids) of the pieces found at `starts`, each piece's entry taken
    from `cache` or made by `miss(piece)`; offsets mapped through `alignments` (a list of
    (start, end) per normalized char) unless it is None. None when a piece with an empty token
    meets alignments (the reference then declines too)."""
    cdef list ids = [], tokens = [], offsets = [], words = []
    cdef list piece_offsets, piece_words, spans
    cdef tuple entry
    cdef Py_ssize_t k, j, count = len(pieces), start, first, end, index = 0, splits
    cdef bint aligned = alignments is not None
    if aligned:
        spans = alignments
    for k in range(count):
        piece = pieces[k]
        start = starts[k]
        found = cache.get(piece)
        entry = found if found is not None else miss(piece)
        if aligned and entry[5]:
            return None  # an empty token's offsets do not go through the alignment
        ids.extend(entry[0])
        tokens.extend(entry[1])
        piece_offsets = entry[2]
        piece_words = entry[3]
        splits = entry[4]
        for j in range(len(piece_offsets)):
            first, end = piece_offsets[j]
            if aligned:
                offsets.append((spans[start + first][0], spans[start + end - 1][1]))
            else:
                offsets.append((start + first, start + end))
            words.append(index if splits == 1 else index + <Py_ssize_t>piece_words[j])
        index += splits
    return ids, tokens, offsets, words
