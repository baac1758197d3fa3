# The compiled twin of pipeline/cache.py's Cache, for the compiled loops that fill it
# (_pieces.pyx cimports it and offers entries without a Python call).

cimport cython


@cython.final
cdef class Cache(dict):
    cdef Py_ssize_t capacity
    cdef set computed_once  # the keys computed once since the last reset

    cpdef offer(self, object key, object value)
