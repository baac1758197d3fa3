# The C-level entry of _pieces.pyx that other compiled modules may cimport; its Python twin is
# pieces.direct_entry, with the same parameters.
cpdef object direct_entry(str piece, object direct, object cache, Py_ssize_t max_chars, object mark)
