# cython: language_level=3, boundscheck=False, wraparound=False
"""Python's ``random.Random(text)`` in C (``pyrandom.h``), exposed for tests and tools.

The compiled engines include ``pyrandom.h`` themselves; this module lets the tests compare
the C generator with Python's own, number for number, and says whether the compiled
samplers may draw from a ``random.Random`` in place (:func:`in_place_agrees`).
"""

import random

from libc.stdint cimport uint32_t
from libc.stdlib cimport free, malloc


cdef class TextRandom:
    """A generator seeded like ``random.Random(text)``, for a text of 1 to 512 UTF-8 bytes."""

    cdef cb_random state

    def __init__(self, str text):
        data = text.encode("utf-8")
        if cb_seed_text(&self.state, data, len(data)) != 0:
            raise ValueError("a seed text has 1 to 512 UTF-8 bytes")

    def getrandbits(self, int k):
        """``k`` random bits, 0 <= k <= 64."""
        if not 0 <= k <= 64:
            raise ValueError("k must be from 0 to 64")
        if k > 32:
            return cb_getrandbits64(&self.state, k)
        return cb_getrandbits(&self.state, k)

    def randrange(self, n):
        """A number from 0 to ``n - 1``, as ``Random.randrange(n)`` draws it."""
        if not 0 < n < 2**32:
            raise ValueError("n must be from 1 to 2**32 - 1")
        return cb_randbelow(&self.state, <uint32_t>n)

    def shuffle(self, list items):
        """Shuffle ``items`` in place, as ``Random.shuffle`` does."""
        cdef int length = len(items)
        cdef int *order = <int *>malloc(max(length, 1) * sizeof(int))
        cdef int i
        if order == NULL:
            raise MemoryError()
        try:
            for i in range(length):
                order[i] = i
            cb_shuffle_int(&self.state, order, length)
            items[:] = [items[order[i]] for i in range(length)]
        finally:
            free(order)


def derive(seed, *labels):
    """The generator ``closingbell.core.rng.derive_rng(seed, *labels)`` makes, in C."""
    return TextRandom("/".join([str(seed), *(str(label) for label in labels)]))


def derive_many(seed, *groups):
    """``[derive(seed, *labels) for labels in groups]`` (one to four), seeded side by side.

    ``seed`` is an integer from 0 to 2**64 - 1 and each group's labels must fit a seed text.
    """
    cdef cb_random *states[4]
    cdef const char *labels[4]
    cdef TextRandom made
    cdef int k
    if not 1 <= len(groups) <= 4:
        raise ValueError("derive_many seeds one to four generators")
    texts = ["/".join(str(label) for label in group).encode("utf-8") for group in groups]
    out = []
    for k in range(len(groups)):
        made = TextRandom.__new__(TextRandom)
        out.append(made)
        states[k] = &made.state
        labels[k] = texts[k]
    if cb_derive_many(states, seed, labels, len(groups)) != 0:
        raise ValueError("a seed text has 1 to 512 UTF-8 bytes")
    return out


def in_place_agrees():
    """Whether a ``random.Random``'s generator can be read and written in place.

    The compiled samplers copy the generator out of the object, draw from it in C and copy
    it back (``pyrandom_object.h``), which relies on how CPython lays the object out. This
    checks it against the object's own ``getstate``, ``setstate`` and ``getrandbits``; where
    it does not hold, the samplers leave the generator to Python.
    """
    cdef cb_random r
    cdef int i
    rng = random.Random("closingbell/in-place")
    rng.getrandbits(32 * 700)  # an index in the middle of the state, not at its start
    version, words, gauss = rng.getstate()
    cb_random_load(rng, &r)
    if version != 3 or len(words) != 625 or words[624] != r.index:
        return False
    for i in range(624):
        if words[i] != r.mt[i]:
            return False
    # Drawn in C and stored back, the object must go on as Python drawing the same would.
    twin = random.Random()
    twin.setstate(rng.getstate())
    drawn = [cb_getrandbits(&r, 32) for i in range(700)]
    cb_random_store(rng, &r)
    if drawn != [twin.getrandbits(32) for i in range(700)]:
        return False
    return rng.getstate() == twin.getstate() and rng.getrandbits(32) == twin.getrandbits(32)
