# The compiled JSON of states, for the game modules that cimport it
# (cimport closingbell.native._serial): a reader of JSON text over C arrays and a writer
# of JSON text into a growing buffer, both as inline C, and the log reader every game
# shares. A reader function answers 0 (or -1 for a count) for anything it does not take;
# callers then stop and hand the text back to the plain Python code, which decides. So
# nothing here raises for bad input, and anything unusual (a float, an escape in a string,
# a number too long) counts as not taken.
from cpython.object cimport PyObject
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint64_t
from libc.string cimport memcpy

cdef extern from "Python.h":
    PyObject *PyLong_FromLong(long value) except NULL
    object PyList_New(Py_ssize_t size)
    void PyList_SET_ITEM(object lst, Py_ssize_t i, PyObject *o)


cdef struct cb_text:
    # JSON text being read: ``at`` the next character, ``end`` one past the last. The text
    # is followed by a NUL (Python's str and bytes keep one there), which no test accepts,
    # so a scan stops at the end without comparing pointers.
    const char *at
    const char *end


cdef inline const char *cb_skip(const char *s) noexcept nogil:
    """The first character at or after ``s`` that is not JSON whitespace."""
    while s[0] == c' ' or s[0] == c'\n' or s[0] == c'\r' or s[0] == c'\t':
        s += 1
    return s


cdef inline bint cb_take(cb_text *t, char c) noexcept nogil:
    """Read the character ``c`` (after any whitespace) if it comes next."""
    cdef const char *s = cb_skip(t.at)
    if s[0] == c:
        t.at = s + 1
        return True
    t.at = s
    return False


cdef inline bint cb_null(cb_text *t) noexcept nogil:
    """Read ``null`` if it comes next."""
    cdef const char *s = cb_skip(t.at)
    if s[0] == c'n' and s[1] == c'u' and s[2] == c'l' and s[3] == c'l':
        t.at = s + 4
        return True
    return False


cdef inline int cb_bool(cb_text *t) noexcept nogil:
    """Read ``true`` (1) or ``false`` (0); -1 if neither comes next."""
    cdef const char *s = cb_skip(t.at)
    if s[0] == c't' and s[1] == c'r' and s[2] == c'u' and s[3] == c'e':
        t.at = s + 4
        return 1
    if s[0] == c'f' and s[1] == c'a' and s[2] == c'l' and s[3] == c's' and s[4] == c'e':
        t.at = s + 5
        return 0
    return -1


cdef inline bint cb_int(cb_text *t, int64_t *out) noexcept nogil:
    """Read an integer as JSON writes it (no fraction, no exponent, at most 19 digits)."""
    cdef const char *s = cb_skip(t.at)
    cdef bint negative = s[0] == c'-'
    cdef uint64_t value = 0
    cdef int digits = 0
    if negative:
        s += 1
    if s[0] == c'0':
        s += 1
        if c'0' <= s[0] <= c'9':
            return False  # a leading zero is not JSON
    else:
        while c'0' <= s[0] <= c'9':
            if digits == 19:
                return False
            value = value * 10 + <uint64_t>(s[0] - c'0')
            s += 1
            digits += 1
        if digits == 0:
            return False
    if s[0] == c'.' or s[0] == c'e' or s[0] == c'E':
        return False  # a float
    if value > <uint64_t>0x7FFFFFFFFFFFFFFF:
        return False
    out[0] = -<int64_t>value if negative else <int64_t>value
    t.at = s
    return True


cdef inline bint cb_int_in(cb_text *t, int64_t *out, int64_t low, int64_t high) noexcept nogil:
    """Read an integer from ``low`` to ``high``."""
    return cb_int(t, out) and low <= out[0] <= high


cdef inline bint cb_str(cb_text *t, const char **start, Py_ssize_t *length) noexcept nogil:
    """Read a string of plain printable ASCII (no escape): its characters and how many."""
    cdef const char *s = cb_skip(t.at)
    cdef const char *first
    if s[0] != c'"':
        return False
    s += 1
    first = s
    while s[0] != c'"':
        if s[0] < c' ' or s[0] > c'~' or s[0] == c'\\':
            return False
        s += 1
    start[0] = first
    length[0] = s - first
    t.at = s + 1
    return True


cdef inline bint cb_key(cb_text *t, const char **start, Py_ssize_t *length) noexcept nogil:
    """Read an object's key and the colon after it."""
    return cb_str(t, start, length) and cb_take(t, c':')


cdef inline bint cb_more(cb_text *t, char close, bint *more) noexcept nogil:
    """After an item: a comma (``more`` set) or ``close`` (``more`` cleared)."""
    if cb_take(t, c','):
        more[0] = True
        return True
    if cb_take(t, close):
        more[0] = False
        return True
    return False


cdef inline bint cb_first(cb_text *t, bint *more) noexcept nogil:
    """Start reading a list: false if none comes; ``more`` set if it has an item."""
    if not cb_take(t, c'['):
        return False
    more[0] = not cb_take(t, c']')
    return True


cdef inline void cb_store(void *out, int size, int k, int64_t v) noexcept nogil:
    """``out[k] = v`` for an array of integers of ``size`` bytes (1, 2, 4 or 8)."""
    if size == 1:
        (<int8_t *>out)[k] = <int8_t>v
    elif size == 2:
        (<int16_t *>out)[k] = <int16_t>v
    elif size == 4:
        (<int32_t *>out)[k] = <int32_t>v
    else:
        (<int64_t *>out)[k] = v


cdef inline int64_t cb_load(const void *items, int size, Py_ssize_t k) noexcept nogil:
    """``items[k]`` of an array of integers of ``size`` bytes (1, 2, 4 or 8)."""
    if size == 1:
        return (<const int8_t *>items)[k]
    if size == 2:
        return (<const int16_t *>items)[k]
    if size == 4:
        return (<const int32_t *>items)[k]
    return (<const int64_t *>items)[k]


cdef inline int cb_ints(cb_text *t, void *out, int size, int room, int64_t low,
                        int64_t high) noexcept nogil:
    """Read a list of at most ``room`` integers from ``low`` to ``high`` into ``out``, an
    array of integers of ``size`` bytes: how many, or -1."""
    cdef int k = 0
    cdef int64_t v
    cdef bint more
    if not cb_first(t, &more):
        return -1
    while more:
        if k == room or not cb_int_in(t, &v, low, high) or not cb_more(t, c']', &more):
            return -1
        cb_store(out, size, k, v)
        k += 1
    return k


cdef inline int cb_ints8(cb_text *t, int8_t *out, int room, int low, int high) noexcept nogil:
    """:func:`cb_ints` into 8-bit integers."""
    return cb_ints(t, out, 1, room, low, high)


cdef inline int cb_bools8(cb_text *t, int8_t *out, int room) noexcept nogil:
    """Read a list of at most ``room`` booleans as 0 and 1: how many, or -1."""
    cdef int k = 0
    cdef int v
    cdef bint more
    if not cb_first(t, &more):
        return -1
    while more:
        if k == room:
            return -1
        v = cb_bool(t)
        if v < 0 or not cb_more(t, c']', &more):
            return -1
        out[k] = <int8_t>v
        k += 1
    return k


cdef inline int cb_name(cb_text *t, const char **names, int count) noexcept nogil:
    """Read a string that is one of ``names`` (NUL-terminated): its index, or -1."""
    cdef const char *s
    cdef Py_ssize_t length
    cdef int i, j
    if not cb_str(t, &s, &length):
        return -1
    for i in range(count):
        j = 0
        while j < length and names[i][j] == s[j]:
            j += 1
        if j == length and names[i][j] == 0:
            return i
    return -1


cdef inline int cb_names(cb_text *t, int8_t *out, int room, const char **names,
                         int count) noexcept nogil:
    """Read a list of at most ``room`` strings, each one of ``names``, as their indices:
    how many, or -1."""
    cdef int k = 0, i
    cdef bint more
    if not cb_first(t, &more):
        return -1
    while more:
        if k == room:
            return -1
        i = cb_name(t, names, count)
        if i < 0 or not cb_more(t, c']', &more):
            return -1
        out[k] = <int8_t>i
        k += 1
    return k


cdef inline int cb_name_or_null(cb_text *t, const char **names, int count) noexcept nogil:
    """:func:`cb_name`, or ``null`` (``count``); -1 for anything else."""
    if cb_null(t):
        return count
    return cb_name(t, names, count)


cdef inline int cb_lists8(cb_text *t, int8_t *first, int stride, int *lengths, int most,
                          int room, int low, int high) noexcept nogil:
    """Read a list of at most ``most`` lists (the ``q``-th at ``first + q * stride``, its
    length in ``lengths[q]``) of integers: how many lists, or -1."""
    cdef int q = 0, k
    cdef bint more
    if not cb_first(t, &more):
        return -1
    while more:
        if q == most:
            return -1
        k = cb_ints8(t, first + q * stride, room, low, high)
        if k < 0 or not cb_more(t, c']', &more):
            return -1
        lengths[q] = k
        q += 1
    return q


cdef inline bint cb_same_chars(const char *a, const char *b, Py_ssize_t length) noexcept nogil:
    """Whether the ``length`` characters at ``a`` and at ``b`` are the same."""
    cdef Py_ssize_t i
    for i in range(length):
        if a[i] != b[i]:
            return False
    return True


cdef inline bint cb_is(const char *name, const char *s, Py_ssize_t length) noexcept nogil:
    """Whether ``s[:length]`` is the NUL-terminated ``name``."""
    cdef Py_ssize_t j = 0
    while j < length and name[j] == s[j]:
        j += 1
    return j == length and name[j] == 0


cdef inline bint cb_literal(cb_text *t, const char *text, Py_ssize_t length) noexcept nogil:
    """Read exactly the ``length`` characters ``text`` (after any whitespace)."""
    cdef const char *s = cb_skip(t.at)
    if t.end - s < length or not cb_same_chars(s, text, length):
        return False
    t.at = s + length
    return True


cdef inline int cb_field(cb_text *t, const char **names, int count, int expect) noexcept nogil:
    """Read an object's key, one of ``names`` (``names[expect]`` tried first), and its colon:
    the key's index, or -1."""
    cdef const char *s
    cdef Py_ssize_t length
    cdef int i
    if not cb_str(t, &s, &length) or not cb_take(t, c':'):
        return -1
    if expect < count and cb_is(names[expect], s, length):
        return expect
    for i in range(count):
        if cb_is(names[i], s, length):
            return i
    return -1


cdef bint cb_begin(object text, cb_text *t)
cdef void cb_index_names(const char *packed, const char **names, int count) noexcept
cdef int cb_ids(cb_text *t, int count, int32_t **ids, Py_ssize_t *length) noexcept
cdef list cb_ids_list(const int32_t *ids, Py_ssize_t length)


# ---------------------------------------------------------------------- Python values


cdef inline list cb_list(const void *items, int size, Py_ssize_t count):
    """A new list of the ``count`` integers at ``items``, each of ``size`` bytes."""
    cdef list out = PyList_New(count)
    cdef Py_ssize_t i
    for i in range(count):
        PyList_SET_ITEM(out, i, PyLong_FromLong(cb_load(items, size, i)))
    return out


cdef inline list cb_list8(const int8_t *items, Py_ssize_t count):
    """:func:`cb_list` of 8-bit integers."""
    return cb_list(items, 1, count)


# ---------------------------------------------------------------------- writing


cdef struct cb_out:
    # JSON text being written: ``size`` characters at ``data``, room for ``cap``; ``shared``
    # if the buffer is the one writes reuse (see cb_open).
    char *data
    Py_ssize_t size
    Py_ssize_t cap
    bint shared


cdef int cb_open(cb_out *out) except -1
cdef void cb_close(cb_out *out) noexcept
cdef int cb_grow(cb_out *out, Py_ssize_t more) except -1
cdef str cb_text_of(cb_out *out)
cdef int cb_write_value(cb_out *out, object value, int depth) except -2
cdef int cb_write_ints(cb_out *out, const void *items, int size, Py_ssize_t count) except -1


cdef inline int cb_room(cb_out *out, Py_ssize_t more) except -1:
    """Make room for ``more`` characters."""
    if out.size + more > out.cap:
        cb_grow(out, more)
    return 0


cdef inline int cb_raw(cb_out *out, const char *text, Py_ssize_t length) except -1:
    """Write ``length`` characters as they are."""
    if out.size + length > out.cap:
        cb_grow(out, length)
    memcpy(out.data + out.size, text, length)
    out.size += length
    return 0


cdef inline int cb_char(cb_out *out, char c) except -1:
    """Write one character."""
    if out.size + 1 > out.cap:
        cb_grow(out, 1)
    out.data[out.size] = c
    out.size += 1
    return 0


cdef inline void cb_digits(cb_out *out, int64_t value) noexcept nogil:
    """Write an integer as JSON does (room for 20 characters must be made first)."""
    cdef char digits[24]
    cdef int k = 0
    cdef uint64_t v
    cdef char *at = out.data + out.size
    if 0 <= value < 10:
        at[0] = <char>(c'0' + value)
        out.size += 1
        return
    if value < 0:
        at[0] = c'-'
        at += 1
        out.size += 1
        v = <uint64_t>(-(value + 1)) + 1
    else:
        v = <uint64_t>value
    while v:
        digits[k] = <char>(c'0' + v % 10)
        v //= 10
        k += 1
    out.size += k
    while k:
        k -= 1
        at[0] = digits[k]
        at += 1


cdef inline int cb_int_out(cb_out *out, int64_t value) except -1:
    """Write an integer."""
    if out.size + 21 > out.cap:
        cb_grow(out, 21)
    cb_digits(out, value)
    return 0


cdef class StateWriter:
    cdef list keys          # per key, sorted: (its text with the colon, kind, attribute name)
    cdef str format

    cdef object text(self, object state)


# ---------------------------------------------------------------------- the log


cdef struct cb_log_facts:
    # What the log reader saw besides the entries.
    Py_ssize_t watched          # entries of the watched kind (see LogReader)
    Py_ssize_t last_watched     # the index of the last of them (-1: none)


cdef class LogReader:
    cdef object nodes_data         # the checks as a list of nodes (kept alive for names)
    cdef void *nodes               # cb_node[], one per check and inner check
    cdef int node_count
    cdef tuple kinds               # the kinds' names, as Python strings
    cdef const char **kind_names   # the same, as C strings
    cdef int kind_count
    cdef int *first_slot           # per kind: its first value's index into slots
    cdef int *slot_count           # per kind: how many values it holds
    cdef int *slots                # node of each value of each kind
    cdef int watched               # the kind counted in cb_log_facts (-1: none)
    cdef void *choices             # cb_choice[], the choices of every one_of
    cdef list keep                 # Python objects the C tables point into

    cdef list read(self, cb_text *t, int players, cb_log_facts *facts)
    cdef object _entry(self, cb_text *t, int players, int *kind_out)
    cdef object _value(self, cb_text *t, int at, int players)


# ---------------------------------------------------------------------- a game's codec

# One step of a replay: 1 if the game is over (nothing done), 0 if ``action`` (``usable``:
# a C long) was legal and is applied, -1 if not (the state's own ``apply`` then decides).
ctypedef int (*cb_step)(object state, long action, bint usable) except -2

cdef struct cb_read_head:
    # The start of every game's struct of what is read: the history, as ids.
    int32_t *history
    Py_ssize_t history_len

# A game's reader of a state's JSON object into its struct (``read``, zeroed, starting
# with a cb_read_head) and then its reference state, all its fields' checks and the
# invariants passed; ``None`` if not taken.
ctypedef object (*cb_read)(cb_text *t, void *read, object prepared, LogReader log,
                           cb_log_facts *facts)
# Whether the engine's state ``fresh`` holds every field that ``read`` holds and the log
# ``log`` (the history aside).
ctypedef bint (*cb_same)(const void *read, object fresh, list log) except -1

cdef bint cb_game_over_holds(object state, list log, const cb_log_facts *facts) except -1
cdef list cb_lists(const void *first, int size, int stride, const void *lengths, int length_size,
                   int count)


cdef class Replay:
    cdef object engine             # the compiled engine module (its new_game deals)
    cdef cb_step step              # one step on its states

    cdef object ids(self, object game, uint64_t seed, const int32_t *ids, Py_ssize_t count)


cdef Replay cb_replay(object engine, cb_step step)


cdef class GameCodec:
    cdef StateWriter writer
    cdef LogReader log
    cdef object game_class         # the exact class of the games read
    cdef str name                  # the game's registered name
    cdef object prepare            # makes what reading needs of one game object
    cdef dict games                # what prepare made for each game object, by id
    cdef Replay own_replay         # the replay closingbell.native registers with the codec
    cdef cb_read read_state
    cdef cb_same same_fields
    cdef Py_ssize_t read_size      # the size of the game's struct of what is read

    cdef object prepared(self, object game)
    cdef object settle(self, object state, const cb_log_facts *facts, const void *read)
