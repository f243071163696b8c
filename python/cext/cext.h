/* SPDX-License-Identifier: Apache-2.0 */
/* bloomkit._cext: the per-key calls of bloomkit.Filter in C.
 *
 * The extension never links libbloomfilter: bloomkit._native loads the
 * library with ctypes (one search order, _locate.py) and hands the addresses
 * of the six functions below to bind(). So there is one library in the
 * process whatever BLOOM_LIBRARY says, and the module, built once against
 * the limited API, serves every CPython >= 3.10 (PyUnicode_AsUTF8AndSize
 * joined the limited API in 3.10; it reads a str's cached UTF-8 without a
 * copy, where PyUnicode_AsUTF8String makes a bytes object per key). */
#ifndef BLOOMKIT_CEXT_H
#define BLOOMKIT_CEXT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>

#include "bloom/bloom.h"

/* The C API as bound at run time (bloom.h prototypes, as pointers). */
typedef bloom_status (*cext_add_fn)(bloom_filter *, const void *, size_t);
typedef int (*cext_query_fn)(const bloom_filter *, const void *, size_t);
typedef int (*cext_test_and_add_fn)(bloom_filter *, const void *, size_t);
typedef bloom_status (*cext_add_batch_fn)(bloom_filter *, const void *const *, const size_t *, size_t);
typedef bloom_status (*cext_query_batch_fn)(const bloom_filter *, const void *const *, const size_t *, size_t,
                                            uint8_t *);
typedef struct {
  cext_add_fn add;
  cext_query_fn query;
  cext_test_and_add_fn test_and_add;
  cext_add_fn remove; /* same shape as add */
  cext_add_batch_fn add_batch;
  cext_query_batch_fn query_batch;
} cext_api;

/* Filled by bind(); every pointer is NULL before (the type refuses calls). */
extern cext_api cext_lib;

/* Python callables given to bind(): see module.c. */
extern PyObject *cext_address_of; /* ctypes handle -> int address */
extern PyObject *cext_raise;      /* (status, operation) -> raises the BloomError */
extern PyObject *cext_to_bytes;   /* other bytes-like key -> bytes, or TypeError */

/* Raise the package's exception for a negative status; returns NULL. */
PyObject *cext_raise_status(int status, const char *operation);

/* A key as the bytes the library hashes. `owner` is a new reference that
 * keeps `data` alive (the key itself, or the bytes it was converted to). */
typedef struct {
  const char *data;
  Py_ssize_t len;
  PyObject *owner;
} cext_key;

/* Fill `out` from a str (UTF-8) or bytes-like key; -1 with an exception set. */
int cext_key_get(PyObject *key, cext_key *out);

/* The Filter base type; created in module init. */
PyObject *cext_core_type_new(PyObject *module);

#endif
