// SPDX-License-Identifier: Apache-2.0
package bloom

/*
#include <bloom/bloom.h>
*/
import "C"

import (
	"math/bits"
	"sync/atomic"
	"unsafe"
)

// blockedProbe answers single queries of a blocked XXH3 filter in Go, over
// the bits bloom_get_blocked_view hands out: a cgo call costs more than the
// whole probe, so a query of a key of up to 16 bytes makes none (longer
// keys, and every other kind, call the library); single adds of filters
// that allow it too (native_add.go). The layout is bloom.h's
// (bloom_blocked_view); TestNativeQuery checks the answers against
// bloom_query's. The view stays valid until the filter is destroyed: Close
// drops the probe with the pointer.
type blockedProbe struct {
	words []uint64
	lines uint64
	seed  uint64
	k     uint32
	split bool
	adds  bool // adds may set bits here (takesAdds)
	mult  [64]uint32
}

func newBlockedProbe(f *C.bloom_filter) *blockedProbe {
	var v C.bloom_blocked_view
	v.struct_size = C.size_t(unsafe.Sizeof(v))
	if C.bloom_get_blocked_view(f, &v) != C.BLOOM_OK {
		return nil
	}
	p := &blockedProbe{lines: uint64(v.lines), seed: uint64(v.seed), k: uint32(v.hashes), split: v.split != 0,
		adds: takesAdds(f)}
	per := uint64(8)
	if p.split {
		per = 4
	}
	p.words = unsafe.Slice((*uint64)(unsafe.Pointer(v.words)), p.lines*per)
	copy(p.mult[:], unsafe.Slice((*uint32)(unsafe.Pointer(v.multipliers)), 64))
	return p
}

// nativeQuery is bloom_query's answer for a key of at most 16 bytes.
func nativeQuery[K []byte | string](p *blockedProbe, key K) bool {
	return p.has(xxh3Short(key, p.seed))
}

// has tells whether every bit of the key whose XXH3-64 value is h is set.
// Every probe is tested, with no branch per probe: an absent key's first
// clear bit is at a random probe, where a branch would mispredict. Words
// are read atomically: another goroutine may be adding to a concurrent
// filter (plain loads on amd64 and arm64).
func (p *blockedProbe) has(h uint64) bool {
	x := uint32(h)
	all := uint64(1)
	if p.split {
		block := p.words[mulHigh(h, p.lines)*4:][:4]
		for i := 0; i < 8; i++ {
			b := uint(x*p.mult[i]) >> 27
			all &= atomic.LoadUint64(&block[i>>1]) >> (uint(i&1)*32 + b)
		}
		return all&1 != 0
	}
	line := p.words[mulHigh(h, p.lines)*8:][:8]
	for _, m := range p.mult[:p.k] {
		b := (x * m) >> 23
		all &= atomic.LoadUint64(&line[b>>6]) >> (b & 63)
	}
	return all&1 != 0
}

// set sets the bits of the key whose XXH3-64 value is h: bloom_add's bits
// (bloom.h's bloom_blocked_view layout). Plain stores: only filters whose
// owner has exclusive access add in Go (native_add.go).
func (p *blockedProbe) set(h uint64) {
	x := uint32(h)
	if p.split {
		block := p.words[mulHigh(h, p.lines)*4:][:4]
		for i := 0; i < 8; i++ {
			b := uint(x*p.mult[i]) >> 27
			block[i>>1] |= 1 << (uint(i&1)*32 + b)
		}
		return
	}
	line := p.words[mulHigh(h, p.lines)*8:][:8]
	for _, m := range p.mult[:p.k] {
		b := (x * m) >> 23
		line[b>>6&7] |= 1 << (b & 63)
	}
}

// mulHigh is floor(h * n / 2^64): the line of a hash.
func mulHigh(h, n uint64) uint64 {
	hi, _ := bits.Mul64(h, n)
	return hi
}
