/* SPDX-License-Identifier: Apache-2.0 */
/* The module: bind() receives the library's function addresses and the
 * package's helpers from bloomkit._native; the Core type is the base class
 * of bloomkit.Filter when the extension is present. */
#include "cext.h"

cext_api cext_lib;
PyObject *cext_address_of;
PyObject *cext_raise;
PyObject *cext_to_bytes;

PyObject *cext_raise_status(int status, const char *operation) {
  PyObject *r = PyObject_CallFunction(cext_raise, "is", status, operation);
  if (r != NULL) { /* the helper must raise; never report success for a failure */
    Py_DECREF(r);
    PyErr_Format(PyExc_SystemError, "bloomkit: status %d from %s raised nothing", status, operation);
  }
  return NULL;
}

/* The address under `name` in the dict, as a function pointer; NULL with an
 * exception set when missing or 0. */
static void *address(PyObject *table, const char *name) {
  PyObject *value = PyDict_GetItemString(table, name); /* borrowed */
  if (value == NULL) {
    PyErr_Format(PyExc_KeyError, "bind: no address for %s", name);
    return NULL;
  }
  void *p = PyLong_AsVoidPtr(value);
  if (p == NULL && !PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "bind: %s is NULL", name);
  return p;
}

static void set_callable(PyObject **slot, PyObject *value) {
  PyObject *old = *slot;
  Py_INCREF(value);
  *slot = value;
  Py_XDECREF(old);
}

PyDoc_STRVAR(bind_doc,
             "bind(functions, address_of, raise_status, to_bytes)\n\n"
             "Give the module the C functions it calls ({'bloom_add': address, ...}, from the\n"
             "library ctypes loaded) and the package's helpers: address_of(handle) -> int,\n"
             "raise_status(status, operation) raising the BloomError, to_bytes(key) -> bytes.");

static PyObject *bind(PyObject *module, PyObject *args) {
  (void)module;
  PyObject *table, *address_of, *raise_status, *to_bytes;
  if (!PyArg_ParseTuple(args, "O!OOO:bind", &PyDict_Type, &table, &address_of, &raise_status, &to_bytes)) {
    return NULL;
  }
  if (!PyCallable_Check(address_of) || !PyCallable_Check(raise_status) || !PyCallable_Check(to_bytes)) {
    PyErr_SetString(PyExc_TypeError, "bind: the helpers must be callable");
    return NULL;
  }
  static const char *const names[] = {"bloom_add",    "bloom_query",     "bloom_test_and_add",
                                      "bloom_remove", "bloom_add_batch", "bloom_query_batch"};
  void *p[sizeof names / sizeof names[0]];
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    if ((p[i] = address(table, names[i])) == NULL) return NULL;
  }
  /* Each cast gives an address the library exported its bloom.h type. */
  cext_lib.add = (cext_add_fn)p[0];
  cext_lib.query = (cext_query_fn)p[1];
  cext_lib.test_and_add = (cext_test_and_add_fn)p[2];
  cext_lib.remove = (cext_add_fn)p[3];
  cext_lib.add_batch = (cext_add_batch_fn)p[4];
  cext_lib.query_batch = (cext_query_batch_fn)p[5];
  set_callable(&cext_address_of, address_of);
  set_callable(&cext_raise, raise_status);
  set_callable(&cext_to_bytes, to_bytes);
  Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"bind", bind, METH_VARARGS, bind_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "bloomkit._cext",
    "bloomkit's fast path: Filter's per-key calls in C (limited API, abi3).",
    -1,
    module_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__cext(void) {
  PyObject *module = PyModule_Create(&module_def);
  if (module == NULL) return NULL;
  PyObject *core = cext_core_type_new(module);
  if (core == NULL || PyModule_AddObject(module, "Core", core) < 0) {
    Py_XDECREF(core);
    Py_DECREF(module);
    return NULL;
  }
  return module;
}
