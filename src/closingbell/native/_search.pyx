# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The paired search's statistics in C, with the numbers the Python statistics give.

A paired search (``closingbell.bots.ismcts._Paired``) records, world by world, the root
seat's reward from each candidate, and after every world asks whether each candidate's mean
lead over the rule-based choice is settled: its mean and standard error over every world so
far. In Python that is two passes over all the worlds after each one, so a search of
thousands of worlds spends most of its time there. :class:`PairedStats` keeps the rewards in
C arrays and makes the same two passes in C, with Python's own arithmetic: the differences
``x - y``, ``sum`` as the running Python adds floats and ``(d - mean) ** 2`` as the C library's
``pow`` (``pysum.h``), and the divisions and square root of IEEE doubles. The results are equal bit for
bit; the tests compare them.
"""

import sys

from libc.math cimport INFINITY, sqrt
from libc.stdlib cimport free, malloc, realloc


cdef extern from "pysum.h":
    double cb_py_sum(const double *xs, long n, int compensated) noexcept nogil
    double cb_py_pow(double x, double y) noexcept nogil


cdef bint COMPENSATED = sys.version_info >= (3, 12)


cdef class PairedStats:
    """Every candidate's reward in every world so far, and each one's lead over the first."""

    cdef double *rewards  # rewards[c * capacity + w]: candidate c in world w
    cdef double *work  # room for one pass over the worlds
    cdef long capacity
    cdef long worlds
    cdef int candidates

    def __cinit__(self, int candidates):
        if candidates < 1:
            raise ValueError("a paired search has at least one candidate")
        self.candidates = candidates
        self.capacity = 64
        self.worlds = 0
        self.rewards = <double *>malloc(candidates * self.capacity * sizeof(double))
        self.work = <double *>malloc(self.capacity * sizeof(double))
        if self.rewards == NULL or self.work == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.rewards)
        free(self.work)

    cdef int _grow(self) except -1:
        cdef long capacity = self.capacity * 2
        cdef double *rewards = <double *>malloc(self.candidates * capacity * sizeof(double))
        cdef double *work = <double *>realloc(self.work, capacity * sizeof(double))
        cdef int c
        cdef long w
        if work != NULL:
            self.work = work
        if rewards == NULL or work == NULL:
            free(rewards)
            raise MemoryError()
        for c in range(self.candidates):
            for w in range(self.worlds):
                rewards[c * capacity + w] = self.rewards[c * self.capacity + w]
        free(self.rewards)
        self.rewards = rewards
        self.capacity = capacity
        return 0

    def __reduce__(self):
        # A bot keeps its last search; it travels to and from the server's helper processes.
        return (_restore, (self.candidates, self.rewards_of_worlds()))

    def rewards_of_worlds(self):
        """Every world's rewards so far, one list of floats per world."""
        cdef long w
        cdef int c
        return [
            [self.rewards[c * self.capacity + w] for c in range(self.candidates)]
            for w in range(self.worlds)
        ]

    @property
    def worlds(self):
        """Worlds recorded so far."""
        return self.worlds

    def add(self, results):
        """Record one world's rewards, one float per candidate."""
        if len(results) != self.candidates:
            raise ValueError(f"one reward per candidate: {self.candidates}, not {len(results)}")
        if self.worlds == self.capacity:
            self._grow()
        cdef int c
        for c in range(self.candidates):
            self.rewards[c * self.capacity + self.worlds] = <double>results[c]
        self.worlds += 1

    cdef void _lead(self, int i, double *mean, double *se) noexcept nogil:
        cdef long n = self.worlds
        cdef long w
        cdef double *d = self.work
        cdef const double *xs = self.rewards + i * self.capacity
        cdef const double *ys = self.rewards
        cdef double m, var
        if n == 0:
            mean[0] = 0.0
            se[0] = 0.0
            return
        for w in range(n):
            d[w] = xs[w] - ys[w]
        m = cb_py_sum(d, n, COMPENSATED) / n
        mean[0] = m
        if n == 1:
            se[0] = INFINITY
            return
        for w in range(n):
            d[w] = cb_py_pow(d[w] - m, 2.0)
        var = cb_py_sum(d, n, COMPENSATED) / (n - 1)
        se[0] = sqrt(var / n)

    def lead(self, int i):
        """Candidate ``i``'s mean lead over the first one, and its standard error."""
        if not 0 <= i < self.candidates:
            raise IndexError(f"no candidate {i}")
        cdef double mean, se
        self._lead(i, &mean, &se)
        return mean, se

    def settled(self, double z):
        """Whether every candidate's lead over the first is ``z`` standard errors from zero,
        or zero in every world."""
        cdef double mean, se
        cdef int i
        for i in range(1, self.candidates):
            self._lead(i, &mean, &se)
            if not (abs(mean) > z * se or (mean == 0 and se == 0)):
                return False
        return True


def _restore(candidates, worlds):
    """A :class:`PairedStats` with these worlds' rewards, as ``__reduce__`` wrote them."""
    stats = PairedStats(candidates)
    for results in worlds:
        stats.add(results)
    return stats
