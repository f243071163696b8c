// SPDX-License-Identifier: Apache-2.0

// Package bloom is the Go binding of bloom, a Bloom-filter library with a
// stable C ABI (libbloomfilter, found with pkg-config through cgo:
// `#cgo pkg-config: bloom`).
//
// Every kind of the C library is here: classic, partitioned, blocked,
// counting (with Remove), scalable (grows past its capacity) and window
// (KindWindow, Options.WindowMs, Advance). What a kind can do is the
// library's to say: Kinds lists the loaded library's kinds and Kind.Caps
// their capabilities (CapMerge, CapRemove, ...), so code can ask for a kind
// that removes keys instead of naming KindCounting.
// Filters save to the library's file format, which the bloom CLI, C,
// Python, Rust and the Redis module read unchanged.
//
// Keys are byte slices or strings (a string is its UTF-8 bytes, so "é" and
// []byte{0xc3, 0xa9} are the same key); batch calls take [][]byte or
// []string.
//
// # Errors
//
// A failing call returns an *Error carrying the C status and the library's
// message. Compare with errors.Is against the Err* values, which match by
// status:
//
//	if errors.Is(err, bloom.ErrNotPresent) { ... }
//	var be *bloom.Error
//	if errors.As(err, &be) { log.Print(be.Status, be.Message) }
//
// # Ownership
//
// A Filter owns C memory (or a file mapping): Close releases it. A
// finalizer calls Close for a Filter that becomes unreachable unclosed, as
// a safety net only: the garbage collector does not see the C memory, so
// close filters explicitly (defer f.Close()).
//
// # Thread safety
//
// As bloom.h states it: any number of goroutines may call the read-only
// methods (Contains, Query, QueryBatch, QueryStrings, Info, StageInfo,
// Serialize, Save, Clone) on one filter at once. Methods that change the
// filter need exclusive access, except Add, AddBatch, AddStrings and
// TestAndAdd on a filter created with Options.Concurrent (classic,
// partitioned, blocked and counting kinds; counting: Remove too), which
// may run from many goroutines at once alongside Contains and the batch
// queries. Info, StageInfo, Serialize, Save, Clone and the source of a
// Merge or Intersect read without atomics: call them after the concurrent
// writers have finished. Close must not overlap any other call.
//
// # Speed of single calls
//
// A classic or blocked filter hashing with XXH3 (the default hash; the
// default kind is classic; blocked with split blocks or not) answers Query
// and Contains of keys of up to 16 bytes in Go, over the filter's bits,
// with no cgo call. Add, AddString,
// TestAndAdd and TestAndAddString of such keys run in Go too, unless the
// filter is Concurrent or mapped (Map): they set the bits the library's
// add sets and count the keys in the Filter, and the count is handed to
// the library before any call that reads it or the whole filter (Info,
// Save, Serialize, Clone, Merge, Intersect, the batch calls, Clear), so
// Info and saved files are what the library's own adds give. This is why
// a plain (not Concurrent) filter's adds must never overlap any other call
// on it, reads included: Go writes its bits with ordinary stores. Longer
// keys, other hashers and the other kinds make one cgo call per key; the
// batch calls make one per batch.
package bloom
