// SPDX-License-Identifier: Apache-2.0
package bloom

/*
#cgo pkg-config: bloom
#include <stdlib.h>
#include "batch.h"
*/
import "C"

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Filter is a Bloom filter of any kind, owned by Go: Close releases it.
// See the package documentation for which methods may run concurrently.
type Filter struct {
	ptr     *C.bloom_filter
	probe   *blockedProbe // blocked XXH3 filters: queries (and adds) in Go (probe.go)
	classic *classicProbe // classic XXH3 filters: the same (classic_probe.go)
	// Adds made in Go that the library has not counted yet, and the lock
	// of their recording (native_add.go).
	pending uint64
	flushMu sync.Mutex
}

func strerror(s Status) string { return C.GoString(C.bloom_strerror(C.int(s))) }

// fail is the error of the call that just failed on this OS thread. The
// goroutine is locked to its thread around the call and this read, so the
// library's thread-local message is the call's own.
func fail(st C.int, op string) error {
	return &Error{Status: Status(st), Message: C.GoString(C.bloom_last_error()), Op: op}
}

// call runs one library call with the goroutine on one OS thread until its
// message (if it failed) has been read.
func call(op string, fn func() C.int) (C.int, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	st := fn()
	if st < 0 {
		return st, fail(st, op)
	}
	return st, nil
}

// finalized counts the filters the finalizer had to close (for the tests).
var finalized int64

func finalize(f *Filter) {
	if f.ptr != nil {
		atomic.AddInt64(&finalized, 1)
	}
	f.Close()
}

func adopt(ptr *C.bloom_filter) *Filter {
	f := &Filter{ptr: ptr, probe: newBlockedProbe(ptr), classic: newClassicProbe(ptr)}
	runtime.SetFinalizer(f, finalize)
	return f
}

// initOptions fills o with the library's defaults (bloom_options_init is a
// macro, which cgo cannot call).
func initOptions(o *C.bloom_options) {
	C.bloom_options_init_sized(o, C.size_t(unsafe.Sizeof(*o)))
}

// DefaultOptions are the library's defaults (bloom_options_init).
func DefaultOptions() Options {
	var o C.bloom_options
	initOptions(&o)
	return Options{
		Kind: Kind(o.kind), Capacity: uint64(o.capacity), FPRate: float64(o.fp_rate), Hash: Hash(o.hash),
		Seed: uint64(o.seed), Concurrent: o.flags&flagConcurrent != 0,
		PlainDoubleHashing: o.flags&flagPlainDoubleHashing != 0, SplitBlock: o.flags&flagSplitBlock != 0, Bits: uint64(o.bits), Hashes: uint32(o.hashes),
		Growth: float64(o.growth), Tightening: float64(o.tightening), CounterBits: uint32(o.counter_bits),
		WindowMs: uint64(o.window_ms),
	}
}

// LibraryHasWindowMs tells whether the loaded library reads Options.WindowMs
// (its bloom_options is as long as this binding's).
func LibraryHasWindowMs() bool {
	return uintptr(C.bloom_options_size()) >= unsafe.Sizeof(C.bloom_options{})
}

// New creates an empty filter. Errors: ErrInvalidArg (capacity 0 without
// bits, FPRate not in (0, 1), k > 64, a flag the kind refuses), ErrOverflow
// (m > 2^40), ErrNoMem, ErrUnsupported (a kind or option this library does
// not implement, such as the window kind before it lands).
func New(opts Options) (*Filter, error) {
	if opts.WindowMs != 0 && !LibraryHasWindowMs() {
		return nil, &Error{Status: StatusUnsupported, Op: "create",
			Message: "this library has no window_ms option (it predates the window kind)"}
	}
	var o C.bloom_options
	initOptions(&o)
	o.kind = C.int32_t(opts.Kind)
	o.capacity = C.uint64_t(opts.Capacity)
	o.fp_rate = C.double(opts.FPRate)
	o.hash = C.int32_t(opts.Hash)
	o.seed = C.uint64_t(opts.Seed)
	o.flags = 0
	if opts.Concurrent {
		o.flags |= flagConcurrent
	}
	if opts.PlainDoubleHashing {
		o.flags |= flagPlainDoubleHashing
	}
	if opts.SplitBlock {
		o.flags |= flagSplitBlock
	}
	o.bits = C.uint64_t(opts.Bits)
	o.hashes = C.uint32_t(opts.Hashes)
	o.growth = C.double(opts.Growth)
	o.tightening = C.double(opts.Tightening)
	o.counter_bits = C.uint32_t(opts.CounterBits)
	o.window_ms = C.uint64_t(opts.WindowMs)
	var out *C.bloom_filter
	if _, err := call("create", func() C.int { return C.int(C.bloom_create(&o, &out)) }); err != nil {
		return nil, err
	}
	return adopt(out), nil
}

// NewClassic is a classic filter for capacity keys at false-positive rate fpRate.
func NewClassic(capacity uint64, fpRate float64) (*Filter, error) {
	return New(NewOptions(capacity, fpRate))
}

func open(op, path string, fn func(*C.char, **C.bloom_filter) C.bloom_status) (*Filter, error) {
	for i := 0; i < len(path); i++ {
		if path[i] == 0 {
			return nil, &Error{Status: StatusInvalidArg, Op: op, Message: "path contains a NUL byte"}
		}
	}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var out *C.bloom_filter
	if _, err := call(op, func() C.int { return C.int(fn(cpath, &out)) }); err != nil {
		return nil, err
	}
	return adopt(out), nil
}

// Load reads a filter saved by Save (any kind). Errors: ErrIO, ErrFormat,
// ErrChecksum, ErrVersion, ErrOverflow, ErrNoMem, ErrUnsupported.
func Load(path string) (*Filter, error) {
	return open("load", path, func(p *C.char, out **C.bloom_filter) C.bloom_status { return C.bloom_load(p, out) })
}

// Map maps a saved file read-only and queries it in place (zero copy).
// Adds, Clear, Merge and Intersect on it fail with ErrUnsupported.
func Map(path string) (*Filter, error) {
	return open("map", path, func(p *C.char, out **C.bloom_filter) C.bloom_status { return C.bloom_map(p, out) })
}

// Deserialize rebuilds a filter from Serialize's output (or a saved file's bytes).
func Deserialize(image []byte) (*Filter, error) {
	var out *C.bloom_filter
	_, err := call("deserialize", func() C.int {
		return C.int(C.bloom_deserialize(bytesPtr(image), C.size_t(len(image)), &out))
	})
	if err != nil {
		return nil, err
	}
	return adopt(out), nil
}

// Close releases the filter's memory (or mapping). Idempotent; later calls
// on the filter return ErrClosed (Contains panics).
func (f *Filter) Close() error {
	if f.ptr != nil {
		f.probe, f.classic = nil, nil
		f.pending = 0 // the count goes with the filter
		C.bloom_destroy(f.ptr)
		f.ptr = nil
		runtime.SetFinalizer(f, nil)
	}
	return nil
}

func bytesPtr(b []byte) unsafe.Pointer {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Pointer(&b[0])
}

// keyData points at a key's bytes without copying them: a string's and a
// slice's header both begin with the data pointer (Go 1.19 has no
// unsafe.StringData). C only reads them during the call.
func keyData[K []byte | string](k *K) unsafe.Pointer {
	if len(*k) == 0 {
		return nil
	}
	return *(*unsafe.Pointer)(unsafe.Pointer(k))
}

// Clone is a deep copy (of a mapped filter: an ordinary writable one).
func (f *Filter) Clone() (*Filter, error) {
	h, err := f.handle()
	if err != nil {
		return nil, err
	}
	var out *C.bloom_filter
	_, err = call("clone", func() C.int { return C.int(C.bloom_clone(h, &out)) })
	runtime.KeepAlive(f)
	if err != nil {
		return nil, err
	}
	return adopt(out), nil
}

// Clear removes every key, keeping the parameters (scalable: one stage again).
func (f *Filter) Clear() error {
	h, err := f.handle()
	if err != nil {
		return err
	}
	_, err = call("clear", func() C.int { return C.int(C.bloom_clear(h)) })
	runtime.KeepAlive(f)
	return err
}

// Single-key calls run without locking the goroutine to its OS thread
// (the common, successful case; the cgo call is already most of its cost).
// The goroutine may change threads before bloom_last_error could be read,
// so a failure is repeated locked to one thread to read its own message:
// a failed add/test_and_add/remove/query leaves the filter unchanged
// (bloom.h), so the repeat fails the same way.
const (
	opAdd = iota
	opQuery
	opTestAndAdd
	opRemove
)

var opNames = [...]string{"add", "query", "test_and_add", "remove"}

func keyCall(op int, f *C.bloom_filter, p unsafe.Pointer, n C.size_t) C.int {
	switch op {
	case opAdd:
		return C.int(C.bloom_add(f, p, n))
	case opQuery:
		return C.bloom_query(f, p, n)
	case opTestAndAdd:
		return C.bloom_test_and_add(f, p, n)
	}
	return C.int(C.bloom_remove(f, p, n))
}

func (f *Filter) key(op int, p unsafe.Pointer, n int) (C.int, error) {
	h := f.ptr
	if h == nil {
		return 0, ErrClosed
	}
	st := keyCall(op, h, p, C.size_t(n))
	if st < 0 {
		var err error
		st, err = call(opNames[op], func() C.int { return keyCall(op, h, p, C.size_t(n)) })
		runtime.KeepAlive(f)
		return st, err
	}
	runtime.KeepAlive(f)
	return st, nil
}

// keyOp runs one single-key call on a byte-slice or string key.
func keyOp[K []byte | string](f *Filter, op int, key K) (C.int, error) {
	r, err := f.key(op, keyData(&key), len(key))
	runtime.KeepAlive(key)
	return r, err
}

// status is the error of a call whose result is only its status.
func status(_ C.int, err error) error { return err }

// answer is a yes/no result: 1 is yes.
func answer(r C.int, err error) (bool, error) { return r == 1, err }

// Add adds one key.
func (f *Filter) Add(key []byte) error { return addKey(f, key) }

// AddString adds one key: the string's UTF-8 bytes.
func (f *Filter) AddString(key string) error { return addKey(f, key) }

// Query is true if the key may have been added, false if it certainly was not.
func (f *Filter) Query(key []byte) (bool, error) { return queryKey(f, key) }

// QueryString is Query for a string key.
func (f *Filter) QueryString(key string) (bool, error) { return queryKey(f, key) }

// queryKey answers in Go when it can (classic_probe.go, probe.go), else
// through bloom_query.
func queryKey[K []byte | string](f *Filter, key K) (bool, error) {
	if len(key) <= 16 {
		if p := f.classic; p != nil {
			return p.has(xxh3Short128(key, p.seed)), nil
		}
		if p := f.probe; p != nil {
			return nativeQuery(p, key), nil
		}
	}
	return answer(keyOp(f, opQuery, key))
}

// Contains is Query for callers that never use a closed filter: it panics
// on one (the only way a query can fail).
func (f *Filter) Contains(key []byte) bool { return orPanic(f.Query(key)) }

// ContainsString is Contains for a string key.
func (f *Filter) ContainsString(key string) bool { return orPanic(f.QueryString(key)) }

// orPanic is an answer whose error can only be a closed filter's.
func orPanic(ok bool, err error) bool {
	if err != nil {
		panic(err)
	}
	return ok
}

// TestAndAdd adds the key and tells whether it may have been present
// before: false means it was certainly new.
func (f *Filter) TestAndAdd(key []byte) (bool, error) { return testAndAddKey(f, key) }

// TestAndAddString is TestAndAdd for a string key.
func (f *Filter) TestAndAddString(key string) (bool, error) { return testAndAddKey(f, key) }

// Remove removes one occurrence of an added key (kinds whose Caps has
// CapRemove). Errors: ErrNotPresent (the filter shows it was never added;
// nothing changes), ErrUnsupported (another kind).
func (f *Filter) Remove(key []byte) error { return status(keyOp(f, opRemove, key)) }

// RemoveString is Remove for a string key.
func (f *Filter) RemoveString(key string) error { return status(keyOp(f, opRemove, key)) }

// batch is keys laid out for the C helpers: one buffer and the lengths.
type batch struct {
	buf  []byte
	lens []C.size_t
}

var batchPool = sync.Pool{New: func() interface{} { return new(batch) }}

func getBatch(n, total int) *batch {
	b := batchPool.Get().(*batch)
	if cap(b.buf) < total {
		b.buf = make([]byte, total)
	}
	if cap(b.lens) < n {
		b.lens = make([]C.size_t, n)
	}
	b.buf, b.lens = b.buf[:total], b.lens[:n]
	return b
}

// packBatch copies keys (byte slices or strings) into one batch.
func packBatch[K []byte | string](keys []K) *batch {
	total := 0
	for _, k := range keys {
		total += len(k)
	}
	b := getBatch(len(keys), total)
	off := 0
	for i, k := range keys {
		off += copy(b.buf[off:], k)
		b.lens[i] = C.size_t(len(k))
	}
	return b
}

func (b *batch) cbuf() *C.char { return (*C.char)(bytesPtr(b.buf)) }
func (b *batch) clens() *C.size_t {
	if len(b.lens) == 0 {
		return nil
	}
	return &b.lens[0]
}

func (f *Filter) addBatch(b *batch) error {
	defer batchPool.Put(b)
	h, err := f.handle()
	if err != nil {
		return err
	}
	n := C.size_t(len(b.lens))
	_, err = call("add_batch", func() C.int {
		return C.int(C.bloomgo_batch(h, b.cbuf(), b.clens(), n, nil))
	})
	runtime.KeepAlive(f)
	return err
}

func (f *Filter) queryBatch(b *batch, out []bool) error {
	defer batchPool.Put(b)
	h, err := f.handle()
	if err != nil {
		return err
	}
	if len(out) == 0 {
		return nil
	}
	n := C.size_t(len(b.lens))
	// bool is one byte holding 0 or 1 in Go; the library writes exactly 0 or 1.
	res := (*C.uint8_t)(unsafe.Pointer(&out[0]))
	_, err = call("query_batch", func() C.int {
		return C.int(C.bloomgo_batch(h, b.cbuf(), b.clens(), n, res))
	})
	runtime.KeepAlive(f)
	return err
}

// AddBatch adds every key in one library call (bloom_add_batch: hashed in
// blocks, memory prefetched). The keys are copied into one buffer first:
// cgo does not let C read a Go slice of Go slices.
func (f *Filter) AddBatch(keys [][]byte) error { return f.addBatch(packBatch(keys)) }

// AddStrings is AddBatch for string keys.
func (f *Filter) AddStrings(keys []string) error { return f.addBatch(packBatch(keys)) }

// QueryBatch queries every key in one call; the answers in the same order.
func (f *Filter) QueryBatch(keys [][]byte) ([]bool, error) {
	out := make([]bool, len(keys))
	if err := f.queryBatch(packBatch(keys), out); err != nil {
		return nil, err
	}
	return out, nil
}

// QueryStrings is QueryBatch for string keys.
func (f *Filter) QueryStrings(keys []string) ([]bool, error) {
	out := make([]bool, len(keys))
	if err := f.queryBatch(packBatch(keys), out); err != nil {
		return nil, err
	}
	return out, nil
}

func (f *Filter) setOp(op string, other *Filter, fn func(*C.bloom_filter, *C.bloom_filter) C.bloom_status) error {
	if other == nil {
		return ErrClosed
	}
	dst, err := f.handle()
	if err != nil {
		return err
	}
	src, err := other.handle()
	if err != nil {
		return err
	}
	_, err = call(op, func() C.int { return C.int(fn(dst, src)) })
	runtime.KeepAlive(f)
	runtime.KeepAlive(other)
	return err
}

// Merge makes f the union of f and other. Both need the same kind, hasher,
// seed, m, k, probe scheme and format version; otherwise ErrIncompatible
// (with the first parameter that differs) and f is unchanged.
func (f *Filter) Merge(other *Filter) error {
	return f.setOp("merge", other, func(d, s *C.bloom_filter) C.bloom_status { return C.bloom_merge(d, s) })
}

// Intersect makes f the bitwise AND of f and other; rules as Merge.
func (f *Filter) Intersect(other *Filter) error {
	return f.setOp("intersect", other, func(d, s *C.bloom_filter) C.bloom_status { return C.bloom_intersect(d, s) })
}

// Save writes the filter to path, replacing any file there atomically.
func (f *Filter) Save(path string) error {
	h, err := f.handle()
	if err != nil {
		return err
	}
	for i := 0; i < len(path); i++ {
		if path[i] == 0 {
			return &Error{Status: StatusInvalidArg, Op: "save", Message: "path contains a NUL byte"}
		}
	}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	_, err = call("save", func() C.int { return C.int(C.bloom_save(h, cpath)) })
	runtime.KeepAlive(f)
	return err
}

// SerializedSize is the exact length of Serialize's output.
func (f *Filter) SerializedSize() (int, error) {
	h, err := f.handle()
	if err != nil {
		return 0, err
	}
	var n C.size_t
	_, err = call("serialized_size", func() C.int { return C.int(C.bloom_serialized_size(h, &n)) })
	runtime.KeepAlive(f)
	return int(n), err
}

// Serialize returns the filter's file image (the bytes Save writes).
func (f *Filter) Serialize() ([]byte, error) {
	n, err := f.SerializedSize()
	if err != nil {
		return nil, err
	}
	h, err := f.handle()
	if err != nil {
		return nil, err
	}
	buf := make([]byte, n)
	var written C.size_t
	_, err = call("serialize", func() C.int {
		return C.int(C.bloom_serialize(h, bytesPtr(buf), C.size_t(n), &written))
	})
	runtime.KeepAlive(f)
	if err != nil {
		return nil, err
	}
	return buf[:written], nil
}

// Info reports the filter's parameters and state (one pass over the bits).
func (f *Filter) Info() (Info, error) { return f.info("info", -1) }

// StageInfo reports one stage of a scalable filter (0 = the oldest); for
// other kinds stage 0 is the filter itself. ErrInvalidArg past the last.
func (f *Filter) StageInfo(stage uint32) (Info, error) { return f.info("stage_info", int64(stage)) }

func (f *Filter) info(op string, stage int64) (Info, error) {
	h, err := f.handle()
	if err != nil {
		return Info{}, err
	}
	var r C.bloom_info
	r.struct_size = C.size_t(unsafe.Sizeof(r))
	_, err = call(op, func() C.int {
		if stage < 0 {
			return C.int(C.bloom_get_info(h, &r))
		}
		return C.int(C.bloom_get_stage_info(h, C.uint32_t(stage), &r))
	})
	runtime.KeepAlive(f)
	if err != nil {
		return Info{}, err
	}
	i := Info{
		Kind: Kind(r.kind), Hash: Hash(r.hash), Seed: uint64(r.seed),
		Concurrent: r.flags&flagConcurrent != 0, PlainDoubleHashing: r.flags&flagPlainDoubleHashing != 0,
		SplitBlock: r.flags&flagSplitBlock != 0,
		Hashes:     uint32(r.hashes), Bits: uint64(r.bits), Bytes: uint64(r.bytes), Capacity: uint64(r.capacity),
		FPRate: float64(r.fp_rate), KeysAdded: uint64(r.keys_added), EstimatedKeys: float64(r.estimated_keys),
		FillRatio: float64(r.fill_ratio), ExpectedFPRate: float64(r.expected_fp_rate), Stages: uint32(r.stages),
		CounterBits: uint32(r.counter_bits), Growth: float64(r.growth), Tightening: float64(r.tightening),
		ReadOnly: r.read_only != 0,
	}
	if VersionNumber() >= 200 {
		i.FormatMajor, i.FormatMinor = uint16(r.format_major), uint16(r.format_minor)
	}
	return i, nil
}

// Advance moves a time-window filter's clock to nowMs, expiring what fell
// out of its window. ErrUnsupported for a filter whose kind keeps no clock
// (Kind.Caps has no CapForgets) or a count window.
func (f *Filter) Advance(nowMs uint64) error {
	h, err := f.handle()
	if err != nil {
		return err
	}
	_, err = call("advance", func() C.int { return C.int(C.bloom_advance(h, C.uint64_t(nowMs))) })
	runtime.KeepAlive(f)
	return err
}

// LibraryHasAdvance tells whether the loaded library has bloom_advance:
// always, since this package links it (kept for callers of older versions).
func LibraryHasAdvance() bool { return true }

// OptimalParams is m (bits) and k (hashes) for n keys at false-positive
// rate p, as a classic filter of that capacity and rate is sized.
// Errors: ErrInvalidArg (n = 0, p not in (0, 1)), ErrOverflow (m > 2^40).
func OptimalParams(n uint64, p float64) (bits uint64, hashes uint32, err error) {
	var m C.uint64_t
	var k C.uint32_t
	_, err = call("optimal_params", func() C.int {
		return C.int(C.bloom_optimal_params(C.uint64_t(n), C.double(p), &m, &k))
	})
	return uint64(m), uint32(k), err
}

// ExpectedFPRate is the classic filter's false-positive rate after n
// distinct keys in bits bits with hashes probes; NaN when either is 0.
func ExpectedFPRate(n, bits uint64, hashes uint32) float64 {
	return float64(C.bloom_expected_fp_rate(C.uint64_t(n), C.uint64_t(bits), C.uint32_t(hashes)))
}

// Version is the loaded library's release version, e.g. "0.3.0".
func Version() string { return C.GoString(C.bloom_version_string()) }

// VersionNumber is MAJOR*10000 + MINOR*100 + PATCH of the loaded library.
func VersionNumber() uint32 { return uint32(C.bloom_version_number()) }
