// SPDX-License-Identifier: Apache-2.0
package bloom

/*
#include <bloom/bloom.h>
*/
import "C"

import (
	"sync/atomic"
)

// Single adds of a blocked or classic XXH3 filter run in Go, as its
// queries do (probe.go, classic_probe.go): a cgo call costs about as much
// as a whole add elsewhere. Such a filter's add is "set the key's bits,
// count it" and nothing else (bloom.h, bloom_view_added), so Go sets the
// bits through the view and keeps the count in Filter.pending; flushAdds
// hands it to the library before any call that reads the count or the
// filter as a whole. Filters whose view must not be written keep the cgo
// add: concurrent ones (their writers lock) and mapped ones (read-only).

// takesAdds asks the library whether f takes adds through its view:
// recording zero adds changes nothing and refuses exactly those filters.
func takesAdds(f *C.bloom_filter) bool {
	return C.bloom_view_added(f, 0) == C.BLOOM_OK
}

// flushAdds records the adds made in Go in the library. Read-only methods
// call it too, and may run from many goroutines at once (no writer then):
// the mutex makes one of them record the count while the others wait for
// it, so each one's library call sees it.
func (f *Filter) flushAdds() error {
	if atomic.LoadUint64(&f.pending) == 0 {
		return nil
	}
	f.flushMu.Lock()
	defer f.flushMu.Unlock()
	n := atomic.LoadUint64(&f.pending)
	if n == 0 {
		return nil
	}
	// Refused only for filters that never take adds in Go (probe.adds).
	record := func() C.int { return C.int(C.bloom_view_added(f.ptr, C.uint64_t(n))) }
	if _, err := call("add", record); err != nil {
		return err
	}
	atomic.StoreUint64(&f.pending, 0)
	return nil
}

// handle is the filter's pointer for a library call that reads the key
// count or the filter as a whole, with the adds made in Go recorded; or
// ErrClosed.
func (f *Filter) handle() (*C.bloom_filter, error) {
	if f.ptr == nil {
		return nil, ErrClosed
	}
	return f.ptr, f.flushAdds()
}

// addKey is bloom_add: in Go when it can (a blocked or classic XXH3
// filter that takes adds through its view, a key of at most 16 bytes, as
// queryKey), else through the library.
func addKey[K []byte | string](f *Filter, key K) error {
	if len(key) <= 16 {
		if p := f.classic; p != nil && p.adds {
			p.set(xxh3Short128(key, p.seed))
			f.pending++
			return nil
		}
		if p := f.probe; p != nil && p.adds {
			p.set(xxh3Short(key, p.seed))
			f.pending++
			return nil
		}
	}
	return status(keyOp(f, opAdd, key))
}

// testAndAddKey is bloom_test_and_add, in Go where addKey is: a key whose
// bits are all set is answered by the read alone and neither written nor
// counted, as the library does for the bit kinds.
func testAndAddKey[K []byte | string](f *Filter, key K) (bool, error) {
	if len(key) <= 16 {
		if p := f.classic; p != nil && p.adds {
			x, y := xxh3Short128(key, p.seed)
			if p.has(x, y) {
				return true, nil
			}
			p.set(x, y)
			f.pending++
			return false, nil
		}
		if p := f.probe; p != nil && p.adds {
			h := xxh3Short(key, p.seed)
			if p.has(h) {
				return true, nil
			}
			p.set(h)
			f.pending++
			return false, nil
		}
	}
	return answer(keyOp(f, opTestAndAdd, key))
}
