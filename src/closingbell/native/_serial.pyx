# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled JSON of states that every game shares: a writer and the log's reader.

:class:`StateWriter` writes a reference state's JSON straight from its Python lists, byte
for byte what :func:`closingbell.core.serial.state_json` writes; anything it does not
write as that code would (a float, a big number, a string with an escape) makes it answer
``None``, and the plain code writes the state. :class:`LogReader` reads a log's JSON
text straight into the entries :func:`closingbell.core.serial.read_log` makes, checking
each value with the game's own checks (compiled from
:func:`closingbell.core.serial.describe`); anything those checks refuse, or that it does
not read, makes it answer ``None``, and the plain code decides and words the refusal. The
game modules (``_take_stock_serial``, ``_card_stock_market_serial``) read the other fields
with the inline reader of ``_serial.pxd``.
"""

from cpython.object cimport PyObject
from libc.stdint cimport int8_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset

from closingbell.core import replay as _replay
from closingbell.core import serial as _serial_py
from closingbell.core.errors import IllegalActionError
from closingbell.core.replay import ReplayError
from closingbell.core.serial import HEADER_KEYS

cdef extern from "Python.h":
    long PyLong_AsLongAndOverflow(object value, int *overflow) except? -1
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    void *PyUnicode_DATA(object text)
    bint PyUnicode_IS_ASCII(object text)
    Py_ssize_t PyUnicode_GET_LENGTH(object text)
    Py_ssize_t PyList_GET_SIZE(object lst)
    PyObject *PyList_GET_ITEM(object lst, Py_ssize_t i)
    Py_ssize_t PyTuple_GET_SIZE(object tup)
    PyObject *PyTuple_GET_ITEM(object tup, Py_ssize_t i)
    object PyTuple_New(Py_ssize_t size)
    void PyTuple_SET_ITEM(object tup, Py_ssize_t i, PyObject *o)
    int PyList_Append(object lst, object item) except -1
    object PyList_AsTuple(object lst)
    void Py_INCREF(PyObject *o)
    char *PyBytes_AS_STRING(object data)
    Py_ssize_t PyBytes_GET_SIZE(object data)


# ---------------------------------------------------------------------- reading


cdef bint cb_begin(object text, cb_text *t):
    """Point ``t`` at a state's JSON text: a ``str`` or ``bytes`` of ASCII (else false)."""
    cdef const char *at
    cdef const char *end
    if type(text) is str:
        if not PyUnicode_IS_ASCII(text):
            return False
        t.at = <const char *>PyUnicode_DATA(text)
        t.end = t.at + PyUnicode_GET_LENGTH(text)
        return True
    if type(text) is not bytes:
        return False
    at = PyBytes_AS_STRING(text)
    end = at + PyBytes_GET_SIZE(text)
    t.at = at
    t.end = end
    while at < end:  # read_json decodes bytes as UTF-8: ASCII reads alike
        if <unsigned char>at[0] >= 0x80:
            return False
        at += 1
    return True


cdef void cb_index_names(const char *packed, const char **names, int count) noexcept:
    """Point ``names`` at the ``count`` NUL-separated strings of ``packed``."""
    cdef int i
    for i in range(count):
        names[i] = packed
        while packed[0] != 0:
            packed += 1
        packed += 1


cdef int cb_ids(cb_text *t, int count, int32_t **ids, Py_ssize_t *length) noexcept:
    """Read a list of ids from 0 to ``count`` - 1 into ``ids[0]`` (grown with ``realloc``:
    the caller frees it); 1, or 0 if that is not what comes."""
    cdef int64_t v
    cdef bint more = True
    cdef Py_ssize_t room = 0
    cdef int32_t *grown
    length[0] = 0
    if not cb_take(t, c'['):
        return 0
    if cb_take(t, c']'):
        return 1
    while more:
        if not cb_int_in(t, &v, 0, count - 1) or not cb_more(t, c']', &more):
            return 0
        if length[0] == room:
            room = max(<Py_ssize_t>512, 2 * room)
            grown = <int32_t *>realloc(ids[0], room * sizeof(int32_t))
            if grown == NULL:
                return 0  # left to the plain code, which reads it or runs out of memory
            ids[0] = grown
        ids[0][length[0]] = <int32_t>v
        length[0] += 1
    return 1


cdef enum:
    _KEPT_INTS = 1024          # the ints cb_ids_list takes from a table instead of making

cdef tuple _INTS = tuple(range(_KEPT_INTS))


cdef list cb_ids_list(const int32_t *ids, Py_ssize_t length):
    """A new list of the ids read by :func:`cb_ids`."""
    cdef list out = PyList_New(length)
    cdef Py_ssize_t i
    cdef PyObject *item
    for i in range(length):
        if 0 <= ids[i] < _KEPT_INTS:
            item = PyTuple_GET_ITEM(_INTS, ids[i])
            Py_INCREF(item)
        else:
            item = PyLong_FromLong(ids[i])
        PyList_SET_ITEM(out, i, item)
    return out


# ---------------------------------------------------------------------- the buffer

cdef enum:
    _FIRST_ROOM = 1 << 16      # what a buffer starts with: most states fit
    _KEPT_ROOM = 1 << 20       # the most the shared buffer keeps between writes

cdef char *_shared = NULL      # one buffer, reused by every write that finds it free
cdef Py_ssize_t _shared_cap = 0
cdef bint _shared_busy = False


cdef int cb_open(cb_out *out) except -1:
    """Start writing: into the shared buffer if no other write holds it, else a new one."""
    global _shared_busy
    out.size = 0
    out.shared = not _shared_busy
    if out.shared:
        _shared_busy = True
        out.data = _shared
        out.cap = _shared_cap
    else:
        out.data = NULL
        out.cap = 0
    return 0


cdef void cb_close(cb_out *out) noexcept:
    """Stop writing and give the buffer back (every cb_open has its cb_close)."""
    global _shared, _shared_cap, _shared_busy
    if out.shared:
        if out.cap > _KEPT_ROOM:  # a rare huge text: its room is not kept
            free(out.data)
            _shared = NULL
            _shared_cap = 0
        _shared_busy = False
    else:
        free(out.data)
    out.data = NULL
    out.cap = 0


cdef int cb_grow(cb_out *out, Py_ssize_t more) except -1:
    """Make room for ``more`` characters after the ``size`` written."""
    global _shared, _shared_cap
    cdef Py_ssize_t cap = max(2 * out.cap, out.size + more, <Py_ssize_t>_FIRST_ROOM)
    cdef char *data = <char *>realloc(out.data, cap)
    if data == NULL:
        raise MemoryError()
    out.data = data
    out.cap = cap
    if out.shared:
        _shared = data
        _shared_cap = cap
    return 0


cdef str cb_text_of(cb_out *out):
    """The text written so far, as a Python string (it is ASCII)."""
    cdef object text = PyUnicode_New(out.size, 127)
    memcpy(PyUnicode_DATA(text), out.data, out.size)
    return text


cdef int cb_write_ints(cb_out *out, const void *items, int size, Py_ssize_t count) except -1:
    """Write a list of the ``count`` integers at ``items``, each of ``size`` bytes."""
    cdef Py_ssize_t i
    cb_room(out, 2 + 21 * count)
    out.data[out.size] = c'['
    out.size += 1
    for i in range(count):
        if i:
            out.data[out.size] = c','
            out.size += 1
        cb_digits(out, cb_load(items, size, i))
    out.data[out.size] = c']'
    out.size += 1
    return 0


# ---------------------------------------------------------------------- Python values

cdef enum:
    _DEEPEST = 48              # deeper values are left to the plain code (states nest 6)


cdef int _write_str(cb_out *out, object text) except -2:
    """Write a string that needs no escape; -1 (nothing written) for any other."""
    cdef Py_ssize_t i, length
    cdef const unsigned char *chars
    if not PyUnicode_IS_ASCII(text):
        return -1
    length = PyUnicode_GET_LENGTH(text)
    chars = <const unsigned char *>PyUnicode_DATA(text)
    for i in range(length):
        if chars[i] < 0x20 or chars[i] > 0x7E or chars[i] == c'"' or chars[i] == c'\\':
            return -1
    cb_room(out, length + 2)
    out.data[out.size] = c'"'
    memcpy(out.data + out.size + 1, chars, length)
    out.data[out.size + 1 + length] = c'"'
    out.size += length + 2
    return 0


cdef int _write_items(cb_out *out, object items, bint is_list, int depth) except -2:
    """Write a list or a tuple; -1 if an item is one :func:`cb_write_value` leaves."""
    cdef Py_ssize_t i, count
    cdef PyObject *item
    cdef long v
    cdef int overflow = 0
    count = PyList_GET_SIZE(items) if is_list else PyTuple_GET_SIZE(items)
    cb_char(out, c'[')
    for i in range(count):
        if i:
            cb_char(out, c',')
        item = PyList_GET_ITEM(items, i) if is_list else PyTuple_GET_ITEM(items, i)
        if type(<object>item) is int:  # most items are: written here, without a call
            v = PyLong_AsLongAndOverflow(<object>item, &overflow)
            if overflow:
                return -1
            cb_int_out(out, v)
        elif cb_write_value(out, <object>item, depth + 1) < 0:
            return -1
    cb_char(out, c']')
    return 0


cdef int cb_write_value(cb_out *out, object value, int depth) except -2:
    """Write ``value`` as the state writer's ``json`` does; -1 if it is no plain JSON value.

    Plain values are ``None``, booleans, integers of 64 bits, strings of printable ASCII
    with no quote or backslash, and lists and tuples of them; after a -1 the text
    written is to be thrown away.
    """
    cdef long v
    cdef int overflow = 0
    cdef type kind = type(value)
    if kind is int:
        v = PyLong_AsLongAndOverflow(value, &overflow)
        if overflow:
            return -1
        cb_int_out(out, v)
        return 0
    if kind is list or kind is tuple:
        if depth >= _DEEPEST:
            return -1
        return _write_items(out, value, kind is list, depth)
    if value is None:
        cb_raw(out, b"null", 4)
        return 0
    if value is True:
        cb_raw(out, b"true", 4)
        return 0
    if value is False:
        cb_raw(out, b"false", 5)
        return 0
    if kind is str:
        return _write_str(out, value)
    return -1


# ---------------------------------------------------------------------- states

cdef enum:
    _FIELD = 0
    _FORMAT = 1
    _VERSION = 2
    _OPTIONS = 3
    _FROM_DEAL = 4


cdef class StateWriter:
    """The JSON writer of one state class's reference states (see the module docstring)."""

    def __init__(self, state_class):
        kinds = {"format": _FORMAT, "version": _VERSION, "options": _OPTIONS,
                 "from_deal": _FROM_DEAL}
        if set(HEADER_KEYS) != set(kinds) or set(state_class.SHAPES) & set(kinds):
            raise ValueError("a state's JSON holds other keys than this writer knows")
        self.format = state_class.FORMAT
        self.keys = []
        for i, name in enumerate(sorted([*HEADER_KEYS, *state_class.SHAPES])):
            text = ("," if i else "{") + f'"{name}":'
            self.keys.append((text.encode("ascii"), kinds.get(name, _FIELD), name))

    def write(self, state):
        """``state_json(state)``, or ``None`` where it holds what only the plain code writes."""
        return self.text(state)

    cdef object text(self, object state):
        """:meth:`write`."""
        cdef cb_out out
        cdef bytes key
        cdef int kind
        cdef int done = 0
        game = state.game
        cb_open(&out)
        try:
            for key, kind, name in self.keys:
                cb_raw(&out, key, len(key))
                if kind == _FIELD:
                    done = cb_write_value(&out, getattr(state, name), 0)
                elif kind == _FORMAT:
                    done = cb_write_value(&out, self.format, 0)
                elif kind == _VERSION:
                    done = cb_write_value(&out, game.info.version, 0)
                elif kind == _OPTIONS:
                    done = _write_ascii(&out, game.options_json)
                else:
                    done = cb_write_value(&out, state.from_deal, 0)
                if done < 0:
                    return None
            cb_char(&out, c'}')
            return cb_text_of(&out)
        except AttributeError:
            return None  # the plain code raises its own error
        finally:
            cb_close(&out)


cdef int _write_ascii(cb_out *out, object text) except -2:
    """Write JSON text as it is (ASCII, as ``json`` writes it); -1 for any other text."""
    if type(text) is not str or not PyUnicode_IS_ASCII(text):
        return -1
    cb_raw(out, <const char *>PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text))
    return 0


# ---------------------------------------------------------------------- the log

cdef enum:
    N_INT = 0      # an integer from low to high
    N_SEAT = 1     # an integer from 0 to players - 1
    N_BOOL = 2
    N_ONE_OF = 3   # one of the choices[first:first + count]
    N_OPTIONAL = 4 # null or the child's
    N_LIST = 5     # low to high (or players) of the child's, as a tuple

    C_INT = 0      # a choice's type
    C_STR = 1
    C_BOOL = 2
    C_NONE = 3


cdef struct cb_node:
    int kind
    int64_t low
    int64_t high
    bint bounded            # N_LIST: high is a bound
    bint per_seat           # N_LIST: one item per seat
    bint nullable           # null is accepted
    int child
    int first
    int count


cdef struct cb_choice:
    int kind
    int64_t number          # C_INT, C_BOOL
    const char *text        # C_STR (NUL-terminated)
    Py_ssize_t length
    PyObject *value         # the choice itself (kept alive by LogReader.keep)


cdef object _FAIL = object()   # what a value's reader answers for text it does not take


cdef class LogReader:
    """The reader of one state class's log from JSON text (see the module docstring).

    Made from the class's ``EVENT_FIELDS`` and ``EVENT_VALUES``; raises ``ValueError`` if a
    check is one that :func:`closingbell.core.serial.describe` does not describe.
    ``watched`` names a kind whose entries :meth:`read` counts.
    """

    def __cinit__(self):
        self.nodes = NULL
        self.choices = NULL
        self.kind_names = NULL
        self.first_slot = NULL
        self.slot_count = NULL
        self.slots = NULL

    def __dealloc__(self):
        free(self.nodes)
        free(self.choices)
        free(self.kind_names)
        free(self.first_slot)
        free(self.slot_count)
        free(self.slots)

    def __init__(self, fields, values, watched=None):
        cdef cb_node *n
        nodes = []
        choices = []
        self.keep = []

        def add(spec):
            if spec is None:
                raise ValueError("a log check that core.serial does not describe")
            kind = spec[0]
            at = len(nodes)
            node = {"kind": 0, "low": 0, "high": 0, "bounded": False, "per_seat": False,
                    "nullable": False, "child": -1, "first": 0, "count": 0}
            nodes.append(node)
            if kind == "int":
                node.update(kind=N_INT, low=spec[1], high=spec[2])
            elif kind == "seat":
                node.update(kind=N_SEAT)
            elif kind == "bool":
                node.update(kind=N_BOOL)
            elif kind == "one_of":
                node.update(kind=N_ONE_OF, first=len(choices), count=len(spec[1]))
                for choice in spec[1]:
                    if type(choice) is bool:
                        choices.append((C_BOOL, int(choice), None, choice))
                    elif type(choice) is int:
                        choices.append((C_INT, choice, None, choice))
                    elif type(choice) is str:
                        choices.append((C_STR, 0, choice.encode("ascii"), choice))
                    elif choice is None:
                        choices.append((C_NONE, 0, None, None))
                        node["nullable"] = True
                    else:
                        raise ValueError(f"a choice this reader cannot read: {choice!r}")
            elif kind == "optional":
                node.update(kind=N_OPTIONAL, nullable=True)
                node["child"] = add(spec[1])
            elif kind == "list":
                node.update(kind=N_LIST, low=spec[2], high=spec[3] or 0,
                            bounded=spec[3] is not None, per_seat=spec[4])
                node["child"] = add(spec[1])
            else:
                raise ValueError(f"a log check this reader cannot read: {kind!r}")
            return at

        self.kinds = tuple(fields)
        self.kind_count = len(self.kinds)
        slot_nodes = []
        self.first_slot = <int *>malloc(sizeof(int) * max(1, self.kind_count))
        self.slot_count = <int *>malloc(sizeof(int) * max(1, self.kind_count))
        self.kind_names = <const char **>malloc(sizeof(char *) * max(1, self.kind_count))
        if self.first_slot == NULL or self.slot_count == NULL or self.kind_names == NULL:
            raise MemoryError()
        for k, kind in enumerate(self.kinds):
            checks = values[kind]
            if len(checks) != len(fields[kind]):
                raise ValueError(f"the kind {kind!r} has {len(fields[kind])} fields "
                                 f"but {len(checks)} checks")
            self.first_slot[k] = len(slot_nodes)
            self.slot_count[k] = len(checks)
            slot_nodes += [add(_serial_py.describe(check)) for check in checks]
            name = kind.encode("ascii")
            self.keep.append(name)
            self.kind_names[k] = name
        self.node_count = len(nodes)
        self.nodes = malloc(sizeof(cb_node) * max(1, len(nodes)))
        self.choices = malloc(sizeof(cb_choice) * max(1, len(choices)))
        self.slots = <int *>malloc(sizeof(int) * max(1, len(slot_nodes)))
        if self.nodes == NULL or self.choices == NULL or self.slots == NULL:
            raise MemoryError()
        for i, node in enumerate(nodes):
            n = &(<cb_node *>self.nodes)[i]
            n.kind = node["kind"]
            n.low = node["low"]
            n.high = node["high"]
            n.bounded = node["bounded"]
            n.per_seat = node["per_seat"]
            n.nullable = node["nullable"]
            n.child = node["child"]
            n.first = node["first"]
            n.count = node["count"]
        for i, (kind, number, text, value) in enumerate(choices):
            (<cb_choice *>self.choices)[i].kind = kind
            (<cb_choice *>self.choices)[i].number = number
            (<cb_choice *>self.choices)[i].text = NULL
            (<cb_choice *>self.choices)[i].length = 0
            if text is not None:
                self.keep.append(text)
                (<cb_choice *>self.choices)[i].text = text
                (<cb_choice *>self.choices)[i].length = len(text)
            self.keep.append(value)
            (<cb_choice *>self.choices)[i].value = <PyObject *>value
        for i, node in enumerate(slot_nodes):
            self.slots[i] = node
        self.nodes_data = nodes
        self.watched = self.kinds.index(watched) if watched in self.kinds else -1

    def read_text(self, text, players):
        """The entries of the log written as ``text`` for ``players`` seats, or ``None``."""
        cdef cb_text t
        cdef cb_log_facts facts
        if type(text) is not str or not PyUnicode_IS_ASCII(text):
            return None
        t.at = <const char *>PyUnicode_DATA(text)
        t.end = t.at + PyUnicode_GET_LENGTH(text)
        log = self.read(&t, players, &facts)
        if log is None or cb_skip(t.at) != t.end:
            return None
        return log

    cdef list read(self, cb_text *t, int players, cb_log_facts *facts):
        """Read a log (a JSON list of entries): its entries, or ``None`` if not taken."""
        cdef list log = []
        cdef bint more = True
        cdef int kind
        facts.watched = 0
        facts.last_watched = -1
        if not cb_take(t, c'['):
            return None
        if cb_take(t, c']'):
            return log
        while more:
            entry = self._entry(t, players, &kind)
            if entry is _FAIL:
                return None
            if kind == self.watched:
                facts.watched += 1
                facts.last_watched = len(log)
            PyList_Append(log, entry)
            if not cb_more(t, c']', &more):
                return None
        return log

    cdef object _entry(self, cb_text *t, int players, int *kind_out):
        """Read ``[owner, form, redacted form]``: the entry, or ``_FAIL``."""
        cdef int64_t seat
        cdef int kind, i, count, first
        cdef Py_ssize_t at
        cdef const cb_node *node
        cdef object owner, value
        if not cb_take(t, c'['):
            return _FAIL
        if cb_null(t):
            owner = None
        elif cb_int_in(t, &seat, 0, players - 1):
            owner = seat
        else:
            return _FAIL
        if not cb_take(t, c',') or not cb_take(t, c'['):
            return _FAIL
        kind = cb_name(t, self.kind_names, self.kind_count)
        if kind < 0:
            return _FAIL
        kind_out[0] = kind
        first = self.first_slot[kind]
        count = self.slot_count[kind]
        full = PyTuple_New(count + 1)
        _put(full, 0, self.kinds[kind])
        for i in range(count):
            if not cb_take(t, c','):
                return _FAIL
            value = self._value(t, self.slots[first + i], players)
            if value is _FAIL:
                return _FAIL
            _put(full, i + 1, value)
        if not cb_take(t, c']') or not cb_take(t, c','):
            return _FAIL
        if cb_null(t):
            redacted = None
        else:
            # Only a private entry has a redacted form: of its kind, each value null (where
            # the check takes null) or the full form's own.
            if owner is None or not cb_take(t, c'['):
                return _FAIL
            if cb_name(t, self.kind_names, self.kind_count) != kind:
                return _FAIL
            redacted = PyTuple_New(count + 1)
            _put(redacted, 0, self.kinds[kind])
            for i in range(count):
                if not cb_take(t, c','):
                    return _FAIL
                node = &(<cb_node *>self.nodes)[self.slots[first + i]]
                if cb_null(t):
                    if not node.nullable:
                        return _FAIL
                    value = None
                else:
                    value = self._value(t, self.slots[first + i], players)
                    if value is _FAIL or not _same(value, <object>PyTuple_GET_ITEM(full, i + 1)):
                        return _FAIL
                _put(redacted, i + 1, value)
            if not cb_take(t, c']'):
                return _FAIL
        if not cb_take(t, c']'):
            return _FAIL
        return (owner, full, redacted)

    cdef object _value(self, cb_text *t, int at, int players):
        """Read one value that the check ``at`` accepts: the value (lists as tuples), or _FAIL."""
        cdef const cb_node *node = &(<cb_node *>self.nodes)[at]
        cdef int64_t number
        cdef int flag, i
        cdef Py_ssize_t count
        cdef bint more = True
        cdef const char *text
        cdef Py_ssize_t length
        cdef const cb_choice *choice
        cdef const char *s
        if node.kind == N_INT:
            if cb_int_in(t, &number, node.low, node.high):
                return number
            return _FAIL
        if node.kind == N_SEAT:
            if cb_int_in(t, &number, 0, players - 1):
                return number
            return _FAIL
        if node.kind == N_BOOL:
            flag = cb_bool(t)
            if flag < 0:
                return _FAIL
            return flag == 1
        if node.kind == N_OPTIONAL:
            if cb_null(t):
                return None
            return self._value(t, node.child, players)
        if node.kind == N_LIST:
            if not cb_take(t, c'['):
                return _FAIL
            items = []
            if not cb_take(t, c']'):
                while more:
                    value = self._value(t, node.child, players)
                    if value is _FAIL or not cb_more(t, c']', &more):
                        return _FAIL
                    PyList_Append(items, value)
            count = len(items)
            if node.per_seat:
                if count != players:
                    return _FAIL
            elif count < node.low or (node.bounded and count > node.high):
                return _FAIL
            return PyList_AsTuple(items)
        # N_ONE_OF: the token's type picks the choices it may be.
        s = cb_skip(t.at)
        if s[0] == c'"':
            if not cb_str(t, &text, &length):
                return _FAIL
            for i in range(node.first, node.first + node.count):
                choice = &(<cb_choice *>self.choices)[i]
                if (choice.kind == C_STR and choice.length == length
                        and _same_chars(choice.text, text, length)):
                    return <object>choice.value
            return _FAIL
        if s[0] == c'n':
            if not cb_null(t):
                return _FAIL
            return None if node.nullable else _FAIL
        if s[0] == c't' or s[0] == c'f':
            flag = cb_bool(t)
            for i in range(node.first, node.first + node.count):
                choice = &(<cb_choice *>self.choices)[i]
                if choice.kind == C_BOOL and choice.number == flag:
                    return <object>choice.value
            return _FAIL
        if not cb_int(t, &number):
            return _FAIL
        for i in range(node.first, node.first + node.count):
            choice = &(<cb_choice *>self.choices)[i]
            if choice.kind == C_INT and choice.number == number:
                return <object>choice.value
        return _FAIL


cdef inline void _put(object tup, Py_ssize_t i, object value):
    """Set a new tuple's item ``i`` to ``value``."""
    Py_INCREF(<PyObject *>value)
    PyTuple_SET_ITEM(tup, i, <PyObject *>value)


cdef inline bint _same_chars(const char *a, const char *b, Py_ssize_t length) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(length):
        if a[i] != b[i]:
            return False
    return True


cdef bint _same(object a, object b):
    """Whether two values read by one check are the same JSON (``1`` is not ``true``)."""
    cdef Py_ssize_t i
    if type(a) is not type(b):
        return False
    if type(a) is tuple:
        if len(a) != len(b):
            return False
        for i in range(len(a)):
            if not _same(<object>PyTuple_GET_ITEM(a, i), <object>PyTuple_GET_ITEM(b, i)):
                return False
        return True
    return a == b


# ---------------------------------------------------------------------- a game's codec


cdef class Replay:
    """The replay of a dealt game's whole history on a compiled engine (``cb_replay``)."""

    def __call__(self, game, seed, history):
        """Deal ``game`` from ``seed`` and apply ``history`` on the compiled engine.

        The replay :mod:`closingbell.core.replay` takes: the reference's results, and
        :class:`~closingbell.core.replay.ReplayError` at the first action that cannot be
        applied, with the reference's message (the state's own ``apply`` words it).
        """
        cdef long a
        cdef int overflow, done
        cdef bint usable
        state = self.engine.new_game(game, seed)
        for entry, action in enumerate(history):
            a = 0
            usable = False
            if type(action) is int:
                overflow = 0
                a = PyLong_AsLongAndOverflow(action, &overflow)
                usable = not overflow
            done = self.step(state, a, usable)
            if done == 1:
                raise ReplayError(entry, None)
            if done < 0:
                try:
                    state.apply(action)  # refuses with the reference's message, or takes a
                except IllegalActionError as exc:  # numpy int
                    raise ReplayError(entry, str(exc)) from None
        return state

    cdef object ids(self, object game, uint64_t seed, const int32_t *ids, Py_ssize_t count):
        """The engine's state after the action ids ``ids``; ``None`` if one cannot be applied."""
        cdef Py_ssize_t i
        state = self.engine.new_game(game, seed)
        for i in range(count):
            if self.step(state, ids[i], True) != 0:
                return None
        return state


cdef Replay cb_replay(object engine, cb_step step):
    """The replay on ``engine``'s states, each action applied by ``step``."""
    cdef Replay made = Replay.__new__(Replay)
    made.engine = engine
    made.step = step
    return made


cdef bint cb_game_over_holds(object state, list log, const cb_log_facts *facts) except -1:
    """``State._check_game_over``: a game_over entry ends a finished game's log, and only it.

    ``facts`` are the log reader's, watching ``game_over``.
    """
    cdef Py_ssize_t size = len(log)
    cdef bint over = state.cur is None
    if facts.watched == 0:
        return not (size and over)
    if facts.watched != 1 or facts.last_watched != size - 1 or not over:
        return False
    return log[size - 1][1] == ("game_over", tuple(state.scores()), tuple(state.winners()))


cdef list cb_lists(const void *first, int size, int stride, const void *lengths, int length_size,
                   int count):
    """A new list of ``count`` lists of integers of ``size`` bytes: the ``q``-th at ``first``
    plus ``q * stride`` items, its length the ``q``-th of ``lengths`` (of ``length_size``)."""
    cdef list out = PyList_New(count)
    cdef int q
    for q in range(count):
        item = cb_list(<const char *>first + q * stride * size, size,
                       cb_load(lengths, length_size, q))
        Py_INCREF(<PyObject *>item)
        PyList_SET_ITEM(out, q, <PyObject *>item)
    return out


cdef enum:
    _READ_ROOM = 2048          # int64 words on the stack for a game's struct of what is read


cdef class GameCodec:
    """The compiled codec of one game: the writer and the reader's frame every game shares.

    A game's codec derives from it and sets its C hooks: ``read_state`` reads the text
    into the game's struct of ``read_size`` bytes and builds the reference state,
    ``same_fields`` compares that struct with a replayed engine state. ``prepare`` makes,
    once per game object, what reading needs of it.
    """

    def __init__(self, game_class, state_class, prepare, Replay own_replay):
        self.writer = StateWriter(state_class)
        self.log = LogReader(state_class.EVENT_FIELDS, state_class.EVENT_VALUES, "game_over")
        self.game_class = game_class
        self.name = game_class.info.name
        self.prepare = prepare
        self.games = {}
        self.own_replay = own_replay

    def write(self, state):
        """``to_json`` of a state of the game, or ``None`` to leave it to the plain code."""
        return self.writer.text(state)

    def read(self, game, text):
        """``game.state_from_json(text)``, or ``None`` to leave it to the plain code."""
        cdef cb_text t
        cdef cb_log_facts facts
        cdef int64_t read[_READ_ROOM]
        cdef cb_read_head *head = <cb_read_head *>read
        if type(game) is not self.game_class or not cb_begin(text, &t):
            return None
        if self.read_size > sizeof(read):
            raise MemoryError("the game's struct of what is read outgrew its room")
        prepared = self.prepared(game)
        memset(read, 0, self.read_size)
        try:
            state = self.read_state(&t, read, prepared, self.log, &facts)
            if state is None:
                return None
            return self.settle(state, &facts, read)
        finally:
            free(head.history)

    cdef object prepared(self, object game):
        """What ``prepare`` made for ``game``, made on first use (a few games are kept)."""
        kept = self.games.get(id(game))
        if kept is not None and kept[0] is game:
            return kept[1]
        made = self.prepare(game)
        if len(self.games) >= 64:
            self.games.clear()
        self.games[id(game)] = (game, made)
        return made

    cdef object settle(self, object state, const cb_log_facts *facts, const void *read):
        """``state`` if the checks after the invariants pass, else ``None``.

        Those are ``State._check_game_over`` and, for a state dealt from its seed, its
        replay: its history applied on the engine to the deal of its seed must give every
        field read and the log (``same_fields``). A replay registered in place of the
        codec's own (a test's, say) is left to the plain code, which calls it: the codec
        then hands dealt states back.
        """
        cdef const cb_read_head *head = <const cb_read_head *>read
        log = state.log
        if not cb_game_over_holds(state, log, facts):
            return None
        if state.from_deal:
            if _replay.registered(self.name) is not self.own_replay:
                return None
            fresh = self.own_replay.ids(state.game, state.seed, head.history, head.history_len)
            if fresh is None or not self.same_fields(read, fresh, log):
                return None
        return state
