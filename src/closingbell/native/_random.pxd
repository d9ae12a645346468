# The C generator of pyrandom.h, for the compiled engines (cimport closingbell.native._random).
from libc.stdint cimport uint32_t, uint64_t

cdef extern from "pyrandom.h":
    ctypedef struct cb_random:
        uint32_t mt[624]
        int index
    int cb_seed_text(cb_random *r, const char *text, size_t length)
    int cb_derive(cb_random *r, uint64_t seed, const char *labels)
    int cb_derive_many(cb_random **r, uint64_t seed, const char **labels, int count)
    uint32_t cb_genrand_uint32(cb_random *r)
    uint32_t cb_getrandbits(cb_random *r, int k)
    uint64_t cb_getrandbits64(cb_random *r, int k)
    uint32_t cb_randbelow(cb_random *r, uint32_t n)
    void cb_shuffle_int(cb_random *r, int *x, int length)
    void cb_shuffle_schar(cb_random *r, signed char *x, int length)

# A random.Random object's generator, copied out and back in place: only once
# closingbell.native._random.in_place_agrees() has said the object's layout is the expected one.
cdef extern from "pyrandom_object.h":
    void cb_random_load(object rng, cb_random *r)
    void cb_random_store(object rng, const cb_random *r)
