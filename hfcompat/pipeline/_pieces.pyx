# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled twin of `pieces.py` (the reference): the same functions, signatures and results.

`assemble` joins the cached entries of a text's pieces into an Encoding's columns (ids, tokens,
offsets, word ids) in one C loop: offsets shifted by each piece's start, or mapped through the
normalized text's alignments; `piece_ids` joins their ids.
"""

cimport cython

from ._cache cimport Cache


def assemble(list pieces, list starts, object cache, object miss, object alignments,
             object direct=None, Py_ssize_t max_chars=0, object mark=None) -> object:
    """`pieces.assemble`, in one C loop."""
    cdef list ids = [], tokens = [], offsets = [], words = []
    cdef list piece_offsets, piece_words, spans
    cdef tuple entry
    cdef Py_ssize_t k, j, count = len(pieces), start, first, end, index = 0, splits
    cdef bint aligned = alignments is not None, keyed = isinstance(cache, dict)
    if aligned:
        spans = alignments
    for k in range(count):
        piece = pieces[k]
        start = starts[k]
        found = (<dict>cache).get(piece) if keyed else cache.get(piece)
        if found is not None:
            entry = found
        elif direct is not None:
            entry = direct_entry(piece, direct, cache, max_chars, mark)
            if entry is None:
                entry = miss(piece)
        else:
            entry = miss(piece)
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


cpdef object direct_entry(str piece, object direct, object cache, Py_ssize_t max_chars, object mark):
    """`pieces.direct_entry`."""
    cdef object columns
    cdef list piece_spans
    cdef bint has_empty = False
    cdef Py_ssize_t j, first, end
    if mark is None:
        columns = direct(piece)
    elif <str>mark in piece:
        return None
    else:
        columns = direct(<str>mark + piece)
    if columns is None:
        return None
    piece_ids, piece_tokens, piece_spans = columns
    for j in range(len(piece_spans)):
        first, end = piece_spans[j]
        if first == end:
            if mark is not None:
                return None
            has_empty = True
            break
    if mark is not None:  # through the alignments of the prepended mark: it stands for char 0
        piece_spans = [(first - 1 if first > 0 else 0, end - 1 if end > 1 else 1) for first, end in piece_spans]
    entry = (piece_ids, piece_tokens, piece_spans, [0] * len(piece_ids), 1, has_empty)
    if len(piece) < max_chars:
        if isinstance(cache, Cache):
            (<Cache>cache).offer(piece, entry)
        else:
            cache.offer(piece, entry)
    return entry


def piece_ids(list pieces, dict cache, object ids_of, str mark, Py_ssize_t capacity,
              Py_ssize_t max_chars) -> object:
    """`pieces.piece_ids`, in one C loop."""
    cdef list ids = []
    cdef str piece
    cdef object found
    for piece in pieces:
        found = cache.get(piece)
        if found is None:
            if not piece or (mark and mark in piece):
                return None
            found = ids_of(mark + piece)
            if found is None:
                return None
            if len(cache) < capacity and len(piece) < max_chars:
                cache[piece] = found
        ids.extend(<list>found)
    return ids
