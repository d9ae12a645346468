/* A Python random.Random object's Mersenne Twister, read and written in place.
 *
 * A search deals its possible worlds from its own random.Random, and a compiled sampler
 * must draw from that generator exactly what the Python sampler would: the same numbers,
 * leaving the generator in the same state.  Asking the object for its state
 * (getstate/setstate) makes and parses 625 Python ints, which costs more than the whole
 * compiled deal; so the state is copied straight out of the object into a cb_random
 * (pyrandom.h), drawn from in C, and copied back.
 *
 * CPython's _random.Random objects (Modules/_randommodule.c, 3.8 and later) hold the
 * generator as below, after the object's header; random.Random subclasses it in Python
 * and adds nothing to that part.  The layout is CPython's own business, so it is checked
 * at run time (closingbell.native._random.in_place_agrees) before anything relies on it.
 */
#ifndef CLOSINGBELL_PYRANDOM_OBJECT_H
#define CLOSINGBELL_PYRANDOM_OBJECT_H

#include <Python.h>
#include <string.h>

#include "pyrandom.h"

typedef struct {
    PyObject_HEAD
    int index;
    uint32_t state[CB_MT_N];
} cb_pyrandom_layout;

/* Copy the generator of ``rng`` (a random.Random whose layout was checked) into ``r``. */
static inline void cb_random_load(PyObject *rng, cb_random *r) {
    const cb_pyrandom_layout *o = (const cb_pyrandom_layout *)rng;
    memcpy(r->mt, o->state, sizeof r->mt);
    r->index = o->index;
}

/* Copy ``r`` back into the generator of ``rng``. */
static inline void cb_random_store(PyObject *rng, const cb_random *r) {
    cb_pyrandom_layout *o = (cb_pyrandom_layout *)rng;
    memcpy(o->state, r->mt, sizeof r->mt);
    o->index = r->index;
}

#endif
