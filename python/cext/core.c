/* SPDX-License-Identifier: Apache-2.0 */
/* bloomkit._cext.Core: the base class of bloomkit.Filter on the fast path.
 *
 * It holds the filter as the ctypes handle that owns it (bloom_destroy runs
 * when the handle's last reference goes, _native.Handle) plus the raw
 * pointer, so Filter's other methods keep using ctypes on the same handle
 * while add, `in`, test_and_add, remove, add_many and contains_many cost one
 * C call each. A call that releases the GIL (a batch, or a key of 64 KiB or
 * more) holds its own reference to the handle: close() in another thread
 * then frees the filter when that call returns, as on the ctypes path. */
#include "cext.h"

typedef struct {
  PyObject ob_base;  /* PyObject_HEAD */
  PyObject *owner;   /* the ctypes handle, or NULL once closed */
  bloom_filter *ptr; /* its address; NULL exactly when closed */
} CoreObject;

/* Single keys at least this long are hashed with the GIL released: hashing
 * 64 KiB costs tens of times more than releasing and taking the GIL. */
#define CEXT_UNLOCK_KEY_BYTES ((Py_ssize_t)1 << 16)

/* Keys per library call in add_many / contains_many, as the ctypes path:
 * bounded memory (24 bytes of arrays per key) for an iterable of any length. */
#define CEXT_CHUNK ((Py_ssize_t)1 << 16)

static PyObject *closed_error(void) {
  PyErr_SetString(PyExc_ValueError, "operation on a closed bloomkit.Filter");
  return NULL;
}

static int unbound(void) {
  if (cext_lib.add != NULL) return 0;
  PyErr_SetString(PyExc_RuntimeError, "bloomkit._cext: bind() was not called");
  return 1;
}

/* -- the handle ------------------------------------------------------------ */

static PyObject *core_get_handle(PyObject *o, void *closure) {
  (void)closure;
  CoreObject *self = (CoreObject *)o;
  PyObject *h = self->owner != NULL ? self->owner : Py_None;
  Py_INCREF(h);
  return h;
}

static int core_set_handle(PyObject *o, PyObject *value, void *closure) {
  (void)closure;
  CoreObject *self = (CoreObject *)o;
  bloom_filter *ptr = NULL;
  if (value == Py_None) value = NULL; /* None or `del`: closed */
  if (value != NULL) {
    if (unbound()) return -1;
    PyObject *addr = PyObject_CallFunctionObjArgs(cext_address_of, value, NULL);
    if (addr == NULL) return -1;
    ptr = (bloom_filter *)PyLong_AsVoidPtr(addr);
    Py_DECREF(addr);
    if (ptr == NULL) {
      if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bloomkit: a NULL filter handle");
      return -1;
    }
    Py_INCREF(value);
  }
  PyObject *old = self->owner;
  self->owner = value;
  self->ptr = ptr;
  Py_XDECREF(old); /* last: the old handle's __del__ may run Python code */
  return 0;
}

/* -- single keys ----------------------------------------------------------- */

enum single_op { OP_ADD, OP_QUERY, OP_TEST_AND_ADD, OP_REMOVE };

static int call_single(enum single_op op, bloom_filter *f, const cext_key *k) {
  switch (op) {
    case OP_ADD:
      return cext_lib.add(f, k->data, (size_t)k->len);
    case OP_QUERY:
      return cext_lib.query(f, k->data, (size_t)k->len);
    case OP_TEST_AND_ADD:
      return cext_lib.test_and_add(f, k->data, (size_t)k->len);
    case OP_REMOVE:
      return cext_lib.remove(f, k->data, (size_t)k->len);
  }
  return BLOOM_E_INVALID_ARG;
}

/* The library's answer (>= 0) for one key, or -1 with an exception set
 * (status < 0 is turned into the package's BloomError). */
static int single(CoreObject *self, PyObject *key, enum single_op op, const char *operation) {
  cext_key k;
  if (unbound() || cext_key_get(key, &k) < 0) return -1;
  /* Read after the key: converting it may have run Python code that closed us. */
  bloom_filter *f = self->ptr;
  if (f == NULL) {
    Py_DECREF(k.owner);
    closed_error();
    return -1;
  }
  int rc;
  if (k.len < CEXT_UNLOCK_KEY_BYTES) {
    rc = call_single(op, f, &k);
  } else {
    PyObject *owner = self->owner;
    Py_INCREF(owner);
    PyThreadState *ts = PyEval_SaveThread();
    rc = call_single(op, f, &k);
    PyEval_RestoreThread(ts);
    Py_DECREF(owner);
  }
  Py_DECREF(k.owner);
  if (rc < 0) {
    cext_raise_status(rc, operation);
    return -1;
  }
  return rc;
}

/* The one argument of add(key) & co., positional or by keyword as on the
 * ctypes path (f.add(key=k)); METH_FASTCALL keeps the positional call free
 * of tuple and dict building. Borrowed; NULL with TypeError otherwise. */
static PyObject *one_arg(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, const char *name,
                         const char *function) {
  Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_Size(kwnames);
  if (nargs == 1 && nkw == 0) return args[0];
  if (nargs == 0 && nkw == 1) {
    PyObject *kw = PyTuple_GetItem(kwnames, 0); /* borrowed */
    PyObject *wanted = PyUnicode_FromString(name);
    if (kw == NULL || wanted == NULL) {
      Py_XDECREF(wanted);
      return NULL;
    }
    int same = PyUnicode_Compare(kw, wanted) == 0;
    Py_DECREF(wanted);
    if (same) return args[0];
    PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", function, kw);
    return NULL;
  }
  PyErr_Format(PyExc_TypeError, "%s() takes exactly one argument (%s), %zd given", function, name,
               nargs + nkw);
  return NULL;
}

PyDoc_STRVAR(add_doc, "add($self, key)\n--\n\nAdd one key (str or bytes-like).");
static PyObject *core_add(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  PyObject *key = one_arg(args, nargs, kwnames, "key", "add");
  if (key == NULL) return NULL;
  if (single((CoreObject *)self, key, OP_ADD, "add") < 0) return NULL;
  Py_RETURN_NONE;
}

static int core_contains(PyObject *self, PyObject *key) {
  int rc = single((CoreObject *)self, key, OP_QUERY, "query");
  return rc < 0 ? -1 : rc == 1;
}

PyDoc_STRVAR(test_and_add_doc,
             "test_and_add($self, key)\n--\n\n"
             "Add the key; return whether it may have been present before.\n\n"
             "False means the key was certainly new: the \"contains, else add\" step\n"
             "of stream de-duplication in one call (atomic with ``concurrent=True``).");
static PyObject *core_test_and_add(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                   PyObject *kwnames) {
  PyObject *key = one_arg(args, nargs, kwnames, "key", "test_and_add");
  if (key == NULL) return NULL;
  int rc = single((CoreObject *)self, key, OP_TEST_AND_ADD, "test_and_add");
  if (rc < 0) return NULL;
  return PyBool_FromLong(rc == 1);
}

PyDoc_STRVAR(remove_doc,
             "remove($self, key)\n--\n\n"
             "Counting filters: remove one occurrence of an added key.\n\n"
             "Raises BloomNotPresentError (also a KeyError) when the filter shows the\n"
             "key was never added (nothing changes); BloomUnsupportedError for other kinds.");
static PyObject *core_remove(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  PyObject *key = one_arg(args, nargs, kwnames, "key", "remove");
  if (key == NULL) return NULL;
  if (single((CoreObject *)self, key, OP_REMOVE, "remove") < 0) return NULL;
  Py_RETURN_NONE;
}

/* -- batches --------------------------------------------------------------- */

/* Up to CEXT_CHUNK keys of an iterator, each held by a reference. */
typedef struct {
  Py_ssize_t n, cap;
  PyObject **owners;
  const void **keys;
  size_t *lens;
  uint8_t *results;
} batch;

static void batch_release(batch *b) {
  for (Py_ssize_t i = 0; i < b->n; i++) Py_DECREF(b->owners[i]);
  b->n = 0;
}

static void batch_free(batch *b) {
  batch_release(b);
  PyMem_Free(b->owners);
  PyMem_Free(b->keys);
  PyMem_Free(b->lens);
  PyMem_Free(b->results);
}

static int batch_grow(batch *b) {
  Py_ssize_t cap = b->cap == 0 ? 256 : b->cap * 2;
  if (cap > CEXT_CHUNK) cap = CEXT_CHUNK;
  PyObject **owners = PyMem_Realloc(b->owners, (size_t)cap * sizeof *owners);
  if (owners != NULL) b->owners = owners;
  const void **keys = PyMem_Realloc(b->keys, (size_t)cap * sizeof *keys);
  if (keys != NULL) b->keys = keys;
  size_t *lens = PyMem_Realloc(b->lens, (size_t)cap * sizeof *lens);
  if (lens != NULL) b->lens = lens;
  uint8_t *results = PyMem_Realloc(b->results, (size_t)cap);
  if (results != NULL) b->results = results;
  if (owners == NULL || keys == NULL || lens == NULL || results == NULL) {
    PyErr_NoMemory();
    return -1;
  }
  b->cap = cap;
  return 0;
}

/* Fill b with the next keys; 0 at the end, -1 with an exception set. */
static int batch_fill(batch *b, PyObject *it) {
  batch_release(b);
  while (b->n < CEXT_CHUNK) {
    PyObject *key = PyIter_Next(it);
    if (key == NULL) break;
    cext_key k;
    int rc = cext_key_get(key, &k);
    Py_DECREF(key);
    if (rc < 0) return -1;
    if (b->n == b->cap && batch_grow(b) < 0) {
      Py_DECREF(k.owner);
      return -1;
    }
    b->owners[b->n] = k.owner;
    b->keys[b->n] = k.data;
    b->lens[b->n] = (size_t)k.len;
    b->n++;
  }
  return PyErr_Occurred() ? -1 : 0;
}

static PyObject *iterate_keys(PyObject *keys) {
  if (PyUnicode_Check(keys) || PyBytes_Check(keys) || PyByteArray_Check(keys) ||
      PyObject_TypeCheck(keys, &PyMemoryView_Type)) {
    PyErr_SetString(PyExc_TypeError, "add_many/contains_many take an iterable of keys, not a single key");
    return NULL;
  }
  return PyObject_GetIter(keys);
}

/* Run add_many (answers == NULL) or contains_many over every key; returns
 * the number of keys, or -1 with an exception set. */
static Py_ssize_t run_batches(CoreObject *self, PyObject *keys, PyObject *answers, const char *operation) {
  if (unbound()) return -1;
  if (self->ptr == NULL) { /* a closed filter raises even for no keys */
    closed_error();
    return -1;
  }
  PyObject *it = iterate_keys(keys);
  if (it == NULL) return -1;
  batch b = {0, 0, NULL, NULL, NULL, NULL};
  Py_ssize_t total = 0;
  for (;;) {
    if (batch_fill(&b, it) < 0) goto fail;
    if (b.n == 0) break;
    bloom_filter *f = self->ptr; /* iterating may have run code that closed us */
    if (f == NULL) {
      closed_error();
      goto fail;
    }
    PyObject *owner = self->owner;
    int rc;
    Py_INCREF(owner);
    PyThreadState *ts = PyEval_SaveThread();
    if (answers == NULL) {
      rc = cext_lib.add_batch(f, b.keys, b.lens, (size_t)b.n);
    } else {
      rc = cext_lib.query_batch(f, b.keys, b.lens, (size_t)b.n, b.results);
    }
    PyEval_RestoreThread(ts);
    Py_DECREF(owner);
    if (rc < 0) {
      cext_raise_status(rc, operation);
      goto fail;
    }
    for (Py_ssize_t i = 0; answers != NULL && i < b.n; i++) {
      if (PyList_Append(answers, b.results[i] ? Py_True : Py_False) < 0) goto fail;
    }
    total += b.n;
  }
  batch_free(&b);
  Py_DECREF(it);
  return total;
fail:
  batch_free(&b);
  Py_DECREF(it);
  return -1;
}

PyDoc_STRVAR(add_many_doc,
             "add_many($self, keys)\n--\n\n"
             "Add every key of an iterable through the batch API; return the count.\n\n"
             "Keys go to ``bloom_add_batch`` in chunks of 65,536, so any iterable,\n"
             "however long, is fine. On an error, earlier chunks stay added.");
static PyObject *core_add_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  PyObject *keys = one_arg(args, nargs, kwnames, "keys", "add_many");
  if (keys == NULL) return NULL;
  Py_ssize_t n = run_batches((CoreObject *)self, keys, NULL, "add_many");
  return n < 0 ? NULL : PyLong_FromSsize_t(n);
}

PyDoc_STRVAR(contains_many_doc,
             "contains_many($self, keys)\n--\n\n"
             "Query every key of an iterable (``bloom_query_batch``); a list of\n"
             "answers in the same order.");
static PyObject *core_contains_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                    PyObject *kwnames) {
  PyObject *keys = one_arg(args, nargs, kwnames, "keys", "contains_many");
  if (keys == NULL) return NULL;
  PyObject *answers = PyList_New(0);
  if (answers == NULL) return NULL;
  if (run_batches((CoreObject *)self, keys, answers, "contains_many") < 0) {
    Py_DECREF(answers);
    return NULL;
  }
  return answers;
}

/* -- the type -------------------------------------------------------------- */

static void core_dealloc(PyObject *o) {
  PyTypeObject *tp = Py_TYPE(o);
  Py_CLEAR(((CoreObject *)o)->owner);
  freefunc tp_free = (freefunc)PyType_GetSlot(tp, Py_tp_free);
  tp_free(o);
  Py_DECREF(tp); /* heap types own a reference from each instance */
}

static PyMethodDef core_methods[] = {
    {"add", (PyCFunction)(void (*)(void))core_add, METH_FASTCALL | METH_KEYWORDS, add_doc},
    {"test_and_add", (PyCFunction)(void (*)(void))core_test_and_add, METH_FASTCALL | METH_KEYWORDS,
     test_and_add_doc},
    {"remove", (PyCFunction)(void (*)(void))core_remove, METH_FASTCALL | METH_KEYWORDS, remove_doc},
    {"add_many", (PyCFunction)(void (*)(void))core_add_many, METH_FASTCALL | METH_KEYWORDS, add_many_doc},
    {"contains_many", (PyCFunction)(void (*)(void))core_contains_many, METH_FASTCALL | METH_KEYWORDS,
     contains_many_doc},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef core_getset[] = {
    {"_handle", core_get_handle, core_set_handle, "the ctypes handle that owns the filter (None: closed)",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot core_slots[] = {
    {Py_tp_doc, "The per-key calls of bloomkit.Filter, in C."},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_dealloc, core_dealloc},
    {Py_tp_methods, core_methods},
    {Py_tp_getset, core_getset},
    {Py_sq_contains, core_contains},
    {0, NULL},
};

static PyType_Spec core_spec = {
    "bloomkit._cext.Core", sizeof(CoreObject), 0, Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, core_slots,
};

PyObject *cext_core_type_new(PyObject *module) {
  (void)module;
  return PyType_FromSpec(&core_spec);
}
