/*
 * mvvm._fast: the mvvm package's hot paths in C, on CPython's limited API (3.10, abi3: one build
 * for every CPython from 3.10), built by bindings/python/build_fast.py. The package is complete
 * over ctypes; this module only replaces what it implements, and the package chooses it or not
 * once, as it is imported (mvvm/_fastpath.py: MVVM_FASTPATH=0, Python 3.9, free-threaded CPython,
 * or no build of it give ctypes). What it replaces, keeping every error, message and status as
 * the ctypes way gives them (the library decides; the Python helpers it is handed render):
 *
 *  - PropertyBase: the base of mvvm._members.Property, whose descriptor slots read and set a
 *    property with the library's typed calls (bool, int, double; a string by mvvm_get and
 *    mvvm_set_string), handing every other value and kind to the property's Python reader and
 *    writer, as its ctypes methods do.
 *  - The event and completion trampolines (mvvm_callback, mvvm_done_fn): the GIL taken with
 *    PyGILState_Ensure, as ctypes takes it for a callback, the registry's entry found by the
 *    user_data key, the plain scalars read inline; the rest by the package's Python helpers.
 *  - The callback depth of each thread, in a C thread-local (mvvm._interrupts reads it through
 *    callback_depth(); the package's ctypes trampolines count with enter/leave_callback()).
 *
 * Threads: every call into the library that can wait (a loop's work lock may be held by another
 * thread whose callback needs the GIL) is made with the GIL released, as ctypes' CDLL makes every
 * foreign call. The library's functions are found with dlsym in the handle of the library the
 * package loaded (Functions): each library loaded beside another has its own.
 */
#define Py_LIMITED_API 0x030A0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "mvvm.h"

/* -- What the package hands over once (configure) ------------------------------------------- */

/* The registry's entries by key (the dict mvvm._registry keeps for its life). */
static PyObject *registry_entries;
/* keep_this_thread_state(): a thread's first callback (mvvm._threadstates). */
static PyObject *keep_this_thread_state;
/* late_call(): counts a call with a key whose destroy function already ran. */
static PyObject *late_call;
/* event_of(address or None, library) -> (name, value): an event the inline path does not read. */
static PyObject *event_of;
/* event_failed(exception, entry): reports what a subscriber's delivery raised (or keeps an interrupt). */
static PyObject *event_failed;
/* finish_call(entry, status, result address or None, message bytes or None): an async call's end. */
static PyObject *finish_call;

/* Interned attribute names and the names of the functions a status check names. */
static PyObject *str_fn, *str_library, *str_handle, *str_h;
static PyObject *name_get_bool, *name_get_int, *name_get_double, *name_get, *name_set_bool, *name_set_int,
    *name_set_double, *name_set_string;

/* A call into the library that may wait, made with the GIL released (see "Threads" above). */
#define WITHOUT_GIL(statement)                                                                                        \
    do {                                                                                                              \
        Py_BEGIN_ALLOW_THREADS statement;                                                                             \
        Py_END_ALLOW_THREADS                                                                                          \
    } while (0)

/* *field = value (a new reference), releasing what it held. */
static void replace(PyObject **field, PyObject *value) {
    PyObject *old = *field;
    *field = Py_NewRef(value);
    Py_XDECREF(old);
}

/* -- The callback depth and the kept interrupts ---------------------------------------------- */

/* How many libmvvm callbacks run on this thread; -1 until its first (which keeps its thread state). */
static _Thread_local int callback_depth = -1;

/* How many KeyboardInterrupt/SystemExit a callback kept for its caller, on any thread (mvvm._interrupts
 * counts them through the PendingInterrupts object; a status check reads the int). Guarded by the GIL. */
static long pending_interrupts;

/* A callback's start, GIL held: on the thread's first, its Python thread state is kept (0; -1 with
 * the exception set when that failed) and its depth becomes 0. */
static int first_callback(void) {
    if (callback_depth >= 0 || keep_this_thread_state == NULL) return 0;
    PyObject *kept = PyObject_CallNoArgs(keep_this_thread_state);
    callback_depth = 0;
    if (kept == NULL) return -1;
    Py_DECREF(kept);
    return 0;
}

/* The start of a C trampoline's callback: the depth to set back at its end. What keeping the
 * thread state raised is reported (the callback still runs). */
static int enter(void) {
    if (first_callback() < 0) PyErr_WriteUnraisable(keep_this_thread_state);
    int depth = callback_depth;
    callback_depth = depth + 1;
    return depth;
}

static PyObject *fast_callback_depth(PyObject *module, PyObject *unused) {
    (void)module, (void)unused;
    return PyLong_FromLong(callback_depth);
}

/* The ctypes trampolines' start and end (destroy, request; events and ends without this module). */
static PyObject *fast_enter_callback(PyObject *module, PyObject *unused) {
    (void)module, (void)unused;
    if (first_callback() < 0) return NULL;
    callback_depth += 1;
    Py_RETURN_NONE;
}

static PyObject *fast_leave_callback(PyObject *module, PyObject *unused) {
    (void)module, (void)unused;
    callback_depth -= 1;
    Py_RETURN_NONE;
}

typedef struct {
    PyObject_HEAD
} PendingInterrupts;

static PyObject *pending_get_count(PyObject *self, void *closure) {
    (void)self, (void)closure;
    return PyLong_FromLong(pending_interrupts);
}

static int pending_set_count(PyObject *self, PyObject *value, void *closure) {
    (void)self, (void)closure;
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "count cannot be deleted");
        return -1;
    }
    long count = PyLong_AsLong(value);
    if (count == -1 && PyErr_Occurred()) return -1;
    pending_interrupts = count;
    return 0;
}

static PyGetSetDef pending_getset[] = {
    {"count", pending_get_count, pending_set_count, "How many interrupts callbacks kept, on any thread.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot pending_slots[] = {
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_getset, pending_getset},
    {Py_tp_doc, "The count of interrupts callbacks kept for their callers (mvvm._interrupts.pending)."},
    {0, NULL},
};

static PyType_Spec pending_spec = {"mvvm._fast.PendingInterrupts", sizeof(PendingInterrupts), 0, Py_TPFLAGS_DEFAULT,
                                   pending_slots};

/* -- A library's functions -------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    __typeof__(mvvm_get_bool) *get_bool;
    __typeof__(mvvm_get_int) *get_int;
    __typeof__(mvvm_get_double) *get_double;
    __typeof__(mvvm_get) *get;
    __typeof__(mvvm_value_free) *value_free;
    __typeof__(mvvm_set_bool) *set_bool;
    __typeof__(mvvm_set_int) *set_int;
    __typeof__(mvvm_set_double) *set_double;
    __typeof__(mvvm_set_string) *set_string;
} Functions;

/* The function `name` of the library, into *field (a function pointer of the header's type). */
static bool find(void *library, const char *name, void *field, size_t size) {
    void *found = dlsym(library, name);
    if (found == NULL) {
        PyErr_Format(PyExc_ImportError, "the library has no %s", name);
        return false;
    }
    memcpy(field, &found, size);  /* (POSIX: a data pointer from dlsym holds a function's address) */
    return true;
}

/* Functions(handle): the functions of the library dlopen gave `handle` for (ctypes.CDLL._handle). */
static PyObject *functions_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    PyObject *handle_object;
    static char *keywords[] = {"handle", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:Functions", keywords, &handle_object)) return NULL;
    void *library = PyLong_AsVoidPtr(handle_object);
    if (library == NULL) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a library handle of 0");
        return NULL;
    }
    allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
    Functions *self = (Functions *)alloc(type, 0);
    if (self == NULL) return NULL;
#define FIND(field, name)                                                                                             \
    if (!find(library, name, &self->field, sizeof self->field)) {                                                    \
        Py_DECREF(self);                                                                                              \
        return NULL;                                                                                                  \
    }
    FIND(get_bool, "mvvm_get_bool")
    FIND(get_int, "mvvm_get_int")
    FIND(get_double, "mvvm_get_double")
    FIND(get, "mvvm_get")
    FIND(value_free, "mvvm_value_free")
    FIND(set_bool, "mvvm_set_bool")
    FIND(set_int, "mvvm_set_int")
    FIND(set_double, "mvvm_set_double")
    FIND(set_string, "mvvm_set_string")
#undef FIND
    return (PyObject *)self;
}

static void functions_dealloc(PyObject *self) {
    PyTypeObject *type = Py_TYPE(self);
    freefunc free_object = (freefunc)PyType_GetSlot(type, Py_tp_free);
    free_object(self);
    Py_DECREF(type);
}

static PyType_Slot functions_slots[] = {
    {Py_tp_new, functions_new},
    {Py_tp_dealloc, functions_dealloc},
    {Py_tp_doc, "Functions(handle): the functions of one loaded library, found in its dlopen handle."},
    {0, NULL},
};

static PyType_Spec functions_spec = {"mvvm._fast.Functions", sizeof(Functions), 0, Py_TPFLAGS_DEFAULT,
                                     functions_slots};
static PyObject *functions_type;

/* -- Properties ------------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Functions *functions;  /* NULL until bound */
    PyObject *encoded;     /* bytes: the property's C name */
    const char *name;      /* its buffer */
    int read_kind;         /* MVVM_TYPE_BOOL, _INT, _DOUBLE, _STRING, or MVVM_TYPE_NONE: `read` reads it */
    int write_kind;        /* the same for setting: MVVM_TYPE_NONE, `write` sets every value */
    PyObject *read;        /* read(handle): the property's reader (mvvm_get and its conversion, rendering) */
    PyObject *write;       /* write(handle, value): the general setter (mvvm_set, the value converted) */
    PyObject *read_value;  /* read_value(address): a value mvvm_get gave that is no readable string; frees it */
    PyObject *check;       /* check(status, function): raises the status's error, or an interrupt kept */
    PyObject *deferred;    /* the releases deferred out of callbacks (mvvm._releases.pending) */
} PropertyBase;

/* obj's handle for a call into the library, as a Python int (new reference): its _handle when it is
 * open and no release waits; else obj._h(), which raises ClosedError or first runs the releases. */
static PyObject *handle_object_of(PropertyBase *self, PyObject *obj) {
    PyObject *handle = PyObject_GetAttr(obj, str_handle);
    if (handle == NULL) return NULL;
    int open = PyObject_IsTrue(handle);
    int waiting = open > 0 ? PyObject_IsTrue(self->deferred) : 0;
    if (open < 0 || waiting < 0) {
        Py_DECREF(handle);
        return NULL;
    }
    if (open && !waiting) return handle;
    Py_DECREF(handle);
    PyObject *method = PyObject_GetAttr(obj, str_h);
    if (method == NULL) return NULL;
    handle = PyObject_CallNoArgs(method);
    Py_DECREF(method);
    return handle;
}

/* After a call: the status check the ctypes errcheck makes (a failure, or an interrupt kept). */
static int checked(PropertyBase *self, mvvm_status status, PyObject *function) {
    if (status == MVVM_OK && pending_interrupts == 0) return 0;
    PyObject *result = PyObject_CallFunction(self->check, "iO", (int)status, function);
    if (result == NULL) return -1;
    Py_DECREF(result);
    return 0;
}

static PyObject *read_string(PropertyBase *self, mvvm_handle handle) {
    mvvm_value value;
    mvvm_status status;
    WITHOUT_GIL(status = self->functions->get(handle, self->name, &value));
    if (checked(self, status, name_get) < 0) {
        if (status == MVVM_OK) self->functions->value_free(&value);  /* read, then an interrupt kept by a callback */
        return NULL;
    }
    if (value.type == MVVM_TYPE_STRING && value.string != NULL && value.integer >= 0) {
        PyObject *text = PyUnicode_DecodeUTF8(value.string, (Py_ssize_t)value.integer, NULL);
        if (text != NULL) {
            self->functions->value_free(&value);
            return text;
        }
        PyErr_Clear();  /* read_value raises InternalError, naming it */
    }
    PyObject *address = PyLong_FromVoidPtr(&value);
    PyObject *result = address == NULL ? NULL : PyObject_CallFunctionObjArgs(self->read_value, address, NULL);
    Py_XDECREF(address);
    self->functions->value_free(&value);  /* (read_value freed it: again does nothing) */
    return result;
}

/* tp_descr_get: obj.name (on the class: the property itself). */
static PyObject *property_get(PyObject *self_object, PyObject *obj, PyObject *type) {
    (void)type;
    PropertyBase *self = (PropertyBase *)self_object;
    if (obj == NULL || obj == Py_None) return Py_NewRef(self_object);
    if (self->functions == NULL) {
        PyErr_SetString(PyExc_TypeError, "this property was never bound to its library");
        return NULL;
    }
    PyObject *handle_object = handle_object_of(self, obj);
    if (handle_object == NULL) return NULL;
    if (self->read_kind == MVVM_TYPE_NONE) {
        PyObject *value = PyObject_CallFunctionObjArgs(self->read, handle_object, NULL);
        Py_DECREF(handle_object);
        return value;
    }
    /* Its bits, as ctypes takes a c_uint64 (a handle is one: PyLong_AsUnsignedLongLong would read a
     * handle's several digits through a byte array). */
    mvvm_handle handle = PyLong_AsUnsignedLongLongMask(handle_object);
    Py_DECREF(handle_object);
    if (PyErr_Occurred()) return NULL;
    Functions *functions = self->functions;
    mvvm_status status;
    switch (self->read_kind) {
    case MVVM_TYPE_BOOL: {
        bool value = false;
        WITHOUT_GIL(status = functions->get_bool(handle, self->name, &value));
        return checked(self, status, name_get_bool) < 0 ? NULL : PyBool_FromLong(value);
    }
    case MVVM_TYPE_INT: {
        int64_t value = 0;
        WITHOUT_GIL(status = functions->get_int(handle, self->name, &value));
        return checked(self, status, name_get_int) < 0 ? NULL : PyLong_FromLongLong(value);
    }
    case MVVM_TYPE_DOUBLE: {
        double value = 0;
        WITHOUT_GIL(status = functions->get_double(handle, self->name, &value));
        return checked(self, status, name_get_double) < 0 ? NULL : PyFloat_FromDouble(value);
    }
    default:
        return read_string(self, handle);
    }
}

/* tp_descr_set: obj.name = value. A value exactly of the property's plain kind goes by its typed
 * setter (an int in int64's range, a str without NUL that has UTF-8); any other by `write`. */
static int property_set(PyObject *self_object, PyObject *obj, PyObject *value) {
    PropertyBase *self = (PropertyBase *)self_object;
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "__delete__");
        return -1;
    }
    if (self->functions == NULL) {
        PyErr_SetString(PyExc_TypeError, "this property was never bound to its library");
        return -1;
    }
    PyObject *handle_object = handle_object_of(self, obj);
    if (handle_object == NULL) return -1;
    mvvm_handle handle = PyLong_AsUnsignedLongLongMask(handle_object);  /* (as above) */
    if (PyErr_Occurred()) {
        Py_DECREF(handle_object);
        return -1;
    }
    Functions *functions = self->functions;
    mvvm_status status;
    PyObject *function = NULL;
    switch (self->write_kind) {
    case MVVM_TYPE_BOOL:
        if (PyBool_Check(value)) {
            bool flag = value == Py_True;
            WITHOUT_GIL(status = functions->set_bool(handle, self->name, flag));
            function = name_set_bool;
        }
        break;
    case MVVM_TYPE_INT:
        if (PyLong_CheckExact(value)) {
            int overflow = 0;
            long long number = PyLong_AsLongLongAndOverflow(value, &overflow);
            if (number == -1 && PyErr_Occurred()) {
                Py_DECREF(handle_object);
                return -1;
            }
            if (!overflow) {  /* beyond int64: mvvm_set refuses it by name */
                WITHOUT_GIL(status = functions->set_int(handle, self->name, (int64_t)number));
                function = name_set_int;
            }
        }
        break;
    case MVVM_TYPE_DOUBLE:
        if (PyFloat_CheckExact(value)) {
            double number = PyFloat_AsDouble(value);
            WITHOUT_GIL(status = functions->set_double(handle, self->name, number));
            function = name_set_double;
        }
        break;
    case MVVM_TYPE_STRING:
        if (PyUnicode_CheckExact(value)) {
            Py_ssize_t size = 0;
            const char *text = PyUnicode_AsUTF8AndSize(value, &size);
            if (text == NULL) {
                if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
                    Py_DECREF(handle_object);
                    return -1;
                }
                PyErr_Clear();  /* no UTF-8 for it (a lone surrogate): mvvm_set names what is wrong */
            } else if (memchr(text, 0, (size_t)size) == NULL) {  /* one holding NUL goes whole, as bytes */
                WITHOUT_GIL(status = functions->set_string(handle, self->name, text));
                function = name_set_string;
            }
        }
        break;
    default:
        break;
    }
    if (function == NULL) {
        PyObject *result = PyObject_CallFunctionObjArgs(self->write, handle_object, value, NULL);
        Py_DECREF(handle_object);
        if (result == NULL) return -1;
        Py_DECREF(result);
        return 0;
    }
    Py_DECREF(handle_object);
    return checked(self, status, function);
}

static int kind_of(PyObject *given, int *kind) {
    long number = PyLong_AsLong(given);
    if (number == -1 && PyErr_Occurred()) return -1;
    if (number != MVVM_TYPE_NONE && number != MVVM_TYPE_BOOL && number != MVVM_TYPE_INT && number != MVVM_TYPE_DOUBLE &&
        number != MVVM_TYPE_STRING) {
        PyErr_Format(PyExc_ValueError, "no fast path for the mvvm_type %ld", number);
        return -1;
    }
    *kind = (int)number;
    return 0;
}

/* _bind_fast_path(functions, encoded, read_kind, write_kind, read, write, read_value, check, deferred) */
static PyObject *property_bind(PyObject *self_object, PyObject *args) {
    PropertyBase *self = (PropertyBase *)self_object;
    PyObject *functions, *encoded, *read_kind, *write_kind, *read, *write, *read_value, *check, *deferred;
    if (!PyArg_ParseTuple(args, "O!SOOOOOOO:_bind_fast_path", (PyTypeObject *)functions_type, &functions, &encoded,
                          &read_kind, &write_kind, &read, &write, &read_value, &check, &deferred))
        return NULL;
    int reading, writing;
    if (kind_of(read_kind, &reading) < 0 || kind_of(write_kind, &writing) < 0) return NULL;
    const char *name = PyBytes_AsString(encoded);
    if (name == NULL) return NULL;
    replace((PyObject **)&self->functions, functions);
    replace(&self->encoded, encoded);
    replace(&self->read, read);
    replace(&self->write, write);
    replace(&self->read_value, read_value);
    replace(&self->check, check);
    replace(&self->deferred, deferred);
    self->name = name;
    self->read_kind = reading;
    self->write_kind = writing;
    Py_RETURN_NONE;
}

static int property_traverse(PyObject *self_object, visitproc visit, void *arg) {
    PropertyBase *self = (PropertyBase *)self_object;
    Py_VISIT(Py_TYPE(self_object));
    Py_VISIT((PyObject *)self->functions);
    Py_VISIT(self->encoded);
    Py_VISIT(self->read);
    Py_VISIT(self->write);
    Py_VISIT(self->read_value);
    Py_VISIT(self->check);
    Py_VISIT(self->deferred);
    return 0;
}

static int property_clear(PyObject *self_object) {
    PropertyBase *self = (PropertyBase *)self_object;
    self->name = NULL;
    self->read_kind = self->write_kind = MVVM_TYPE_NONE;
    Py_CLEAR(self->functions);
    Py_CLEAR(self->encoded);
    Py_CLEAR(self->read);
    Py_CLEAR(self->write);
    Py_CLEAR(self->read_value);
    Py_CLEAR(self->check);
    Py_CLEAR(self->deferred);
    return 0;
}

static void property_dealloc(PyObject *self_object) {
    PyTypeObject *type = Py_TYPE(self_object);
    PyObject_GC_UnTrack(self_object);
    property_clear(self_object);
    freefunc free_object = (freefunc)PyType_GetSlot(type, Py_tp_free);
    free_object(self_object);
    Py_DECREF(type);
}

static PyMethodDef property_methods[] = {
    {"_bind_fast_path", property_bind, METH_VARARGS,
     "_bind_fast_path(functions, encoded, read_kind, write_kind, read, write, read_value, check, deferred): what "
     "reading and setting the property needs (mvvm._members.Property binds itself as it is made)."},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot property_slots[] = {
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_dealloc, property_dealloc},
    {Py_tp_traverse, property_traverse},
    {Py_tp_clear, property_clear},
    {Py_tp_free, PyObject_GC_Del},
    {Py_tp_descr_get, property_get},
    {Py_tp_descr_set, property_set},
    {Py_tp_methods, property_methods},
    {Py_tp_doc, "The base of mvvm._members.Property: reading and setting in C (its descriptor slots)."},
    {0, NULL},
};

static PyType_Spec property_spec = {"mvvm._fast.PropertyBase", sizeof(PropertyBase), 0,
                                    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, property_slots};

/* -- The trampolines ---------------------------------------------------------------------------- */

/* The registry's entry for a callback's user_data (new reference); NULL when there is none (a late
 * call, counted) or a look-up failed (reported). */
static PyObject *entry_for(void *user_data) {
    PyObject *entry = NULL;
    if (user_data != NULL) {
        PyObject *key = PyLong_FromVoidPtr(user_data);
        if (key == NULL) {
            PyErr_WriteUnraisable(registry_entries);
            return NULL;
        }
        entry = PyDict_GetItemWithError(registry_entries, key);
        Py_DECREF(key);
        if (entry == NULL && PyErr_Occurred()) {
            PyErr_WriteUnraisable(registry_entries);
            return NULL;
        }
    }
    if (entry == NULL) {
        PyObject *counted = PyObject_CallNoArgs(late_call);
        if (counted == NULL) PyErr_WriteUnraisable(late_call);
        Py_XDECREF(counted);
        return NULL;
    }
    return Py_NewRef(entry);
}

/* Event names by the address the library gives them at (a few static strings): a small table,
 * probed a few slots from the address's own; a name that finds no slot is made for each event. */
#define EVENT_NAME_SLOTS 256
#define EVENT_NAME_PROBES 8
static struct {
    const char *address;
    PyObject *name;
} event_names[EVENT_NAME_SLOTS];

/* The name at `address` (new reference), or NULL with no exception set when it cannot be read here. */
static PyObject *event_name(const char *address) {
    if (address == NULL) return NULL;
    size_t home = ((uintptr_t)address >> 3) % EVENT_NAME_SLOTS;
    for (size_t probe = 0; probe < EVENT_NAME_PROBES; probe++) {
        size_t slot = (home + probe) % EVENT_NAME_SLOTS;
        if (event_names[slot].address == address) return Py_NewRef(event_names[slot].name);
        if (event_names[slot].address == NULL) {
            PyObject *name = PyUnicode_DecodeUTF8(address, (Py_ssize_t)strlen(address), NULL);
            if (name == NULL) {
                PyErr_Clear();  /* event_of raises InternalError, naming it */
                return NULL;
            }
            event_names[slot].address = address;
            event_names[slot].name = Py_NewRef(name);
            return name;
        }
    }
    PyObject *name = PyUnicode_DecodeUTF8(address, (Py_ssize_t)strlen(address), NULL);
    if (name == NULL) PyErr_Clear();
    return name;
}

/* A plain scalar's value (new reference), or NULL with no exception set for any other. */
static PyObject *scalar_of(const mvvm_event *event) {
    const mvvm_value *value = &event->value;
    if (event->kind == MVVM_EVENT_SPLICE) return NULL;
    switch (value->type) {
    case MVVM_TYPE_INT:
        return PyLong_FromLongLong(value->integer);
    case MVVM_TYPE_BOOL:
        return PyBool_FromLong(value->boolean);
    case MVVM_TYPE_DOUBLE:
        return PyFloat_FromDouble(value->number);
    case MVVM_TYPE_STRING:
        if (value->string != NULL && value->integer >= 0) {
            PyObject *text = PyUnicode_DecodeUTF8(value->string, (Py_ssize_t)value->integer, NULL);
            if (text == NULL) PyErr_Clear();
            return text;
        }
        return NULL;
    default:
        return NULL;
    }
}

/* The exception being raised, with its traceback, handed to report(exception, entry) as the
 * exception being handled (sys.exc_info(), as in the except block of the ctypes trampoline). */
static void report_raised(PyObject *report, PyObject *entry) {
    PyObject *type, *exception, *traceback;
    PyErr_Fetch(&type, &exception, &traceback);
    PyErr_NormalizeException(&type, &exception, &traceback);
    if (exception == NULL) exception = Py_NewRef(Py_None);
    if (traceback != NULL && exception != Py_None) PyException_SetTraceback(exception, traceback);
    PyObject *handled_type, *handled, *handled_traceback;
    PyErr_GetExcInfo(&handled_type, &handled, &handled_traceback);
    Py_XINCREF(type), Py_XINCREF(exception), Py_XINCREF(traceback);
    PyErr_SetExcInfo(type, exception, traceback);  /* (takes the references) */
    PyObject *reported = PyObject_CallFunctionObjArgs(report, exception, entry, NULL);
    if (reported == NULL) PyErr_WriteUnraisable(report);
    Py_XDECREF(reported);
    PyErr_SetExcInfo(handled_type, handled, handled_traceback);
    Py_XDECREF(type);
    Py_XDECREF(exception);
    Py_XDECREF(traceback);
}

static void deliver_event(const mvvm_event *event, void *user_data) {
    PyObject *entry = entry_for(user_data);
    if (entry == NULL) return;
    PyObject *fn = PyObject_GetAttr(entry, str_fn);
    PyObject *name = NULL, *value = NULL, *result = NULL;
    if (fn == NULL) goto failed;
    if (event != NULL) {
        name = event_name(event->name);
        value = name == NULL ? NULL : scalar_of(event);
    }
    if (value == NULL) {  /* the rest of the kinds, and what cannot be read, as the ctypes trampoline reads them */
        Py_CLEAR(name);
        PyObject *library = PyObject_GetAttr(entry, str_library);
        if (library == NULL) goto failed;
        PyObject *address = event == NULL ? Py_NewRef(Py_None) : PyLong_FromVoidPtr((void *)event);
        PyObject *pair = address == NULL ? NULL : PyObject_CallFunctionObjArgs(event_of, address, library, NULL);
        Py_XDECREF(address);
        Py_DECREF(library);
        if (pair == NULL) goto failed;
        if (!PyArg_ParseTuple(pair, "OO:event_of", &name, &value)) {
            Py_DECREF(pair);
            goto failed;
        }
        Py_INCREF(name);
        Py_INCREF(value);
        Py_DECREF(pair);
    }
    result = PyObject_CallFunctionObjArgs(fn, name, value, NULL);
    if (result == NULL) goto failed;
    goto done;
failed:
    report_raised(event_failed, entry);
done:
    Py_XDECREF(result);
    Py_XDECREF(value);
    Py_XDECREF(name);
    Py_XDECREF(fn);
    Py_DECREF(entry);
}

/* mvvm_callback: a change of a subscribed object. */
static void event_trampoline(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)source;
    PyGILState_STATE gil = PyGILState_Ensure();
    int depth = enter();
    if (registry_entries != NULL) deliver_event(event, user_data);  /* (configured before it is handed out) */
    callback_depth = depth;  /* as it was: the callbacks nested in this one set theirs back */
    PyGILState_Release(gil);
}

/* mvvm_done_fn: an asynchronous call ended. */
static void done_trampoline(mvvm_handle call, mvvm_status status, const mvvm_value *result, const char *message,
                            void *user_data) {
    (void)call;
    PyGILState_STATE gil = PyGILState_Ensure();
    int depth = enter();
    PyObject *entry = registry_entries == NULL ? NULL : entry_for(user_data);
    if (entry != NULL) {
        PyObject *address = result == NULL ? Py_NewRef(Py_None) : PyLong_FromVoidPtr((void *)result);
        PyObject *text = message == NULL ? Py_NewRef(Py_None) : PyBytes_FromString(message);
        PyObject *code = PyLong_FromLong((long)status);
        PyObject *finished = address == NULL || text == NULL || code == NULL
                                 ? NULL
                                 : PyObject_CallFunctionObjArgs(finish_call, entry, code, address, text, NULL);
        if (finished == NULL) PyErr_WriteUnraisable(finish_call);
        Py_XDECREF(finished);
        Py_XDECREF(code);
        Py_XDECREF(text);
        Py_XDECREF(address);
        Py_DECREF(entry);
    }
    callback_depth = depth;
    PyGILState_Release(gil);
}

/* -- The module --------------------------------------------------------------------------------- */

static PyObject *fast_configure(PyObject *module, PyObject *args, PyObject *kwargs) {
    (void)module;
    static char *keywords[] = {"entries", "keep_this_thread_state", "late_call", "event_of", "event_failed",
                               "finish_call", NULL};
    PyObject *entries, *keep, *late, *of, *failed, *finish;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!OOOOO:configure", keywords, &PyDict_Type, &entries, &keep, &late,
                                     &of, &failed, &finish))
        return NULL;
    replace(&registry_entries, entries);
    replace(&keep_this_thread_state, keep);
    replace(&late_call, late);
    replace(&event_of, of);
    replace(&event_failed, failed);
    replace(&finish_call, finish);
    Py_RETURN_NONE;
}

static PyMethodDef fast_methods[] = {
    {"configure", (PyCFunction)(void (*)(void))fast_configure, METH_VARARGS | METH_KEYWORDS,
     "configure(entries, keep_this_thread_state, late_call, event_of, event_failed, finish_call): what the "
     "trampolines use (mvvm._trampolines configures them once, before any is given to a library)."},
    {"callback_depth", fast_callback_depth, METH_NOARGS,
     "How many libmvvm callbacks run on this thread (-1 before its first)."},
    {"enter_callback", fast_enter_callback, METH_NOARGS,
     "A ctypes trampoline's start: one deeper (the thread's first keeps its thread state)."},
    {"leave_callback", fast_leave_callback, METH_NOARGS, "A ctypes trampoline's end: one less deep."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef fast_module = {
    PyModuleDef_HEAD_INIT, "mvvm._fast",
    "The mvvm package's hot paths in C (CPython's limited API, abi3); see mvvm/_fast.c and mvvm._fastpath.", -1,
    fast_methods, NULL, NULL, NULL, NULL,
};

static int add_address(PyObject *module, const char *name, void (*function)(void)) {
    PyObject *address = PyLong_FromVoidPtr((void *)(uintptr_t)function);
    if (address == NULL) return -1;
    int added = PyModule_AddObjectRef(module, name, address);
    Py_DECREF(address);
    return added;
}

static int add_type(PyObject *module, PyType_Spec *spec, PyObject **kept) {
    PyObject *type = PyType_FromSpec(spec);
    if (type == NULL) return -1;
    const char *name = strrchr(spec->name, '.') + 1;
    int added = PyModule_AddObjectRef(module, name, type);
    if (kept != NULL && added == 0) *kept = Py_NewRef(type);
    Py_DECREF(type);
    return added;
}

PyMODINIT_FUNC PyInit__fast(void) {
    struct {
        PyObject **kept;
        const char *text;
    } interned[] = {
        {&str_fn, "fn"}, {&str_library, "library"}, {&str_handle, "_handle"}, {&str_h, "_h"},
        {&name_get_bool, "mvvm_get_bool"}, {&name_get_int, "mvvm_get_int"}, {&name_get_double, "mvvm_get_double"},
        {&name_get, "mvvm_get"}, {&name_set_bool, "mvvm_set_bool"}, {&name_set_int, "mvvm_set_int"},
        {&name_set_double, "mvvm_set_double"}, {&name_set_string, "mvvm_set_string"},
    };
    for (size_t i = 0; i < sizeof interned / sizeof interned[0]; i++) {
        if (*interned[i].kept == NULL && (*interned[i].kept = PyUnicode_InternFromString(interned[i].text)) == NULL)
            return NULL;
    }
    PyObject *module = PyModule_Create(&fast_module);
    if (module == NULL) return NULL;
    PyObject *pending_type = NULL;
    if (add_type(module, &functions_spec, &functions_type) < 0 || add_type(module, &property_spec, NULL) < 0 ||
        add_type(module, &pending_spec, &pending_type) < 0)
        goto failed;
    PyObject *pending = PyObject_CallNoArgs(pending_type);
    Py_CLEAR(pending_type);
    if (pending == NULL || PyModule_AddObjectRef(module, "pending_interrupts", pending) < 0) {
        Py_XDECREF(pending);
        goto failed;
    }
    Py_DECREF(pending);
    if (add_address(module, "EVENT_TRAMPOLINE", (void (*)(void))event_trampoline) < 0 ||
        add_address(module, "DONE_TRAMPOLINE", (void (*)(void))done_trampoline) < 0)
        goto failed;
    return module;
failed:
    Py_XDECREF(pending_type);
    Py_DECREF(module);
    return NULL;
}
