/* SPDX-License-Identifier: Apache-2.0 */
/* Keys as bytes: a str is hashed as its UTF-8 (so "é" and b"\xc3\xa9" are the
 * same key), bytes as themselves, any other bytes-like object through the
 * package's own converter (_keys.to_bytes), which also words the TypeError,
 * so both paths accept and refuse exactly the same keys. */
#include "cext.h"

int cext_key_get(PyObject *key, cext_key *out) {
  if (PyUnicode_Check(key)) {
    /* Cached in the str after the first call (ASCII: the str's own data). */
    out->data = PyUnicode_AsUTF8AndSize(key, &out->len);
    if (out->data == NULL) return -1; /* lone surrogates: UnicodeEncodeError, as str.encode */
    Py_INCREF(key);
    out->owner = key;
    return 0;
  }
  PyObject *bytes = key;
  if (PyBytes_CheckExact(key)) {
    Py_INCREF(bytes);
  } else {
    bytes = PyObject_CallFunctionObjArgs(cext_to_bytes, key, NULL);
    if (bytes == NULL) return -1;
    if (!PyBytes_Check(bytes)) {
      Py_DECREF(bytes);
      PyErr_SetString(PyExc_TypeError, "bloomkit: the key converter returned no bytes");
      return -1;
    }
  }
  char *data = NULL;
  if (PyBytes_AsStringAndSize(bytes, &data, &out->len) < 0) {
    Py_DECREF(bytes);
    return -1;
  }
  out->data = data;
  out->owner = bytes;
  return 0;
}
