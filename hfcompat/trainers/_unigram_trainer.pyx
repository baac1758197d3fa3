# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled twin of the Unigram trainer's E step and Viterbi counts, `expected` and
`best_counts` in `unigram_segments.py` (the reference, with the same names and parameters).

Both run `span_marginals` and `span_viterbi` (hfcompat/models/lattice.py) over every segment of a
`Segments`, reading its flat span arrays directly: the same double arithmetic in the same order,
so the sums are identical to the Python loops'.
"""

from cpython.exc cimport PyErr_CheckSignals
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.math cimport INFINITY, NAN, exp, log

__all__ = ["expected", "best_counts"]  # the entry points with twins in unigram_segments.py

cdef double RESCALE_BELOW = 1e-100


cdef struct Work:
    double* alpha  # also Viterbi's best scores
    double* beta
    double* scales
    Py_ssize_t* origin
    Py_ssize_t* last_id


cdef int allocate(Work* work, Py_ssize_t length) except -1:
    """Room for a lattice of `length` chars (+ 1) in every buffer: two blocks, cut in parts."""
    cdef double* values = <double*>PyMem_Malloc(3 * (length + 1) * sizeof(double))
    cdef Py_ssize_t* links = <Py_ssize_t*>PyMem_Malloc(2 * (length + 1) * sizeof(Py_ssize_t))
    if not (values and links):
        PyMem_Free(values)
        PyMem_Free(links)
        raise MemoryError()
    work.alpha, work.beta, work.scales = values, values + length + 1, values + 2 * (length + 1)
    work.origin, work.last_id = links, links + length + 1
    return 0


cdef void marginals(const long long* firsts, Py_ssize_t length, const int[::1] ends, const int[::1] ids,
                    const double[::1] probs, double freq, double[::1] expected, Py_ssize_t window,
                    Work* work) noexcept nogil:
    """span_marginals of one segment whose positions' span offsets are firsts[0..length]."""
    cdef double* alpha = work.alpha
    cdef double* beta = work.beta
    cdef double* scales = work.scales
    cdef Py_ssize_t start, position, span, last
    cdef double mass, scale = 0.0, log_z, log_factor = NAN, coefficient = 0.0, factor, flow
    for position in range(length + 1):
        alpha[position] = 0.0
        scales[position] = 0.0
    alpha[0] = 1.0
    for start in range(length):
        mass = alpha[start]
        if 0.0 < mass < RESCALE_BELOW:
            last = min(length, start + window)
            for position in range(start, last + 1):
                alpha[position] /= mass
            scale += log(mass)
            mass = 1.0
        scales[start] = scale
        for span in range(firsts[start], firsts[start + 1]):
            alpha[ends[span]] += mass * probs[ids[span]]
    if alpha[length] <= 0.0:
        return
    log_z = log(alpha[length]) + scale
    beta[length] = 1.0
    scale = 0.0
    for start in range(length - 1, -1, -1):
        if scales[start] + scale != log_factor:
            log_factor = scales[start] + scale
            coefficient = freq * exp(log_factor - log_z)
        factor = coefficient * alpha[start]
        mass = 0.0
        for span in range(firsts[start], firsts[start + 1]):
            flow = probs[ids[span]] * beta[ends[span]]
            mass += flow
            expected[ids[span]] += factor * flow
        if 0.0 < mass < RESCALE_BELOW:
            last = min(length, start + window)
            for position in range(start + 1, last + 1):
                beta[position] /= mass
            scale += log(mass)
            mass = 1.0
        beta[start] = mass


cdef void viterbi(const long long* firsts, Py_ssize_t length, const int[::1] ends, const int[::1] ids,
                  const double[::1] scores, double freq, double[::1] found, Work* work) noexcept nogil:
    """span_viterbi of one segment, adding `freq` to found[id] of each piece on its best path."""
    cdef double* best = work.alpha
    cdef Py_ssize_t* origin = work.origin
    cdef Py_ssize_t* last_id = work.last_id
    cdef Py_ssize_t start, position, span, end
    cdef double base, candidate
    for position in range(length + 1):
        best[position] = -INFINITY
        origin[position] = -1
        last_id[position] = 0
    best[0] = 0.0
    for start in range(length):
        base = best[start]
        for span in range(firsts[start], firsts[start + 1]):
            end = ends[span]
            candidate = base + scores[ids[span]]
            if candidate > best[end]:
                best[end] = candidate
                origin[end] = start
                last_id[end] = ids[span]
    position = length
    while position > 0:  # unreachable end: no path, nothing counted
        if origin[position] < 0:
            return
        position = origin[position]
    position = length
    while position > 0:
        found[last_id[position]] += freq
        position = origin[position]


cdef Py_ssize_t longest(const long long[::1] bounds) noexcept:
    """The most positions of any segment."""
    cdef Py_ssize_t segment, most = 0
    for segment in range(bounds.shape[0] - 1):
        most = max(most, bounds[segment + 1] - bounds[segment])
    return most


cdef int each_segment(bint best, const long long[::1] bounds, const long long[::1] firsts, const int[::1] ends,
                      const int[::1] ids, list weights, const double[::1] values, double[::1] found,
                      Py_ssize_t window) except -1:
    """marginals (under probabilities `values`) or, if `best`, viterbi (under scores) of every
    segment in turn, each weighed by its count."""
    cdef Work work
    cdef Py_ssize_t segment, low
    cdef double freq
    allocate(&work, longest(bounds))
    try:
        for segment in range(len(weights)):
            freq = weights[segment]
            low = bounds[segment]
            if best:
                viterbi(&firsts[low], bounds[segment + 1] - low, ends, ids, values, freq, found, &work)
            else:
                marginals(&firsts[low], bounds[segment + 1] - low, ends, ids, values, freq, found, window, &work)
            if segment % 4096 == 0:
                PyErr_CheckSignals()
    finally:
        PyMem_Free(work.alpha)
        PyMem_Free(work.origin)
    return 0


def expected(const long long[::1] bounds, const long long[::1] firsts, const int[::1] ends, const int[::1] ids,
             list weights, const double[::1] probs, double[::1] found, Py_ssize_t window) -> None:
    """Add each segment's span_marginals (weighed by its count) into `found`, segment by segment."""
    each_segment(False, bounds, firsts, ends, ids, weights, probs, found, window)


def best_counts(const long long[::1] bounds, const long long[::1] firsts, const int[::1] ends, const int[::1] ids,
                list weights, const double[::1] scores, double[::1] found) -> None:
    """Add each segment's count to `found` at every piece of its best segmentation, segment by segment."""
    each_segment(True, bounds, firsts, ends, ids, weights, scores, found, 0)
