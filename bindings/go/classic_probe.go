// SPDX-License-Identifier: Apache-2.0
package bloom

/*
#include <bloom/bloom.h>
*/
import "C"

import (
	"sync/atomic"
	"unsafe"
)

// classicProbe answers single queries of a classic XXH3 filter in Go, and
// makes single adds of filters that allow them, over the bits
// bloom_get_classic_view hands out, as blockedProbe does for the blocked
// kind (probe.go, native_add.go): a cgo call costs more than the probe. A
// key's XXH3-128 value (x, y) gives k probe values by double hashing (x +=
// y, and y += i when enhanced), each mixed when the filter says so, then
// mapped to a bit by a multiply-high: bloom.h's bloom_classic_view.
// TestClassicNativeQuery and TestClassicNativeAddMatchesBloomAdd check it
// against the library's answers and bits.
type classicProbe struct {
	words    []uint64
	m        uint64
	seed     uint64
	k        uint32
	enhanced bool
	mixed    bool
	adds     bool // adds may set bits here (takesAdds)
}

// classicProbeGroup is how many probes has tests before its first branch.
const classicProbeGroup = 4

// mixProbe is bloom.h's mixing of a probe value (format 1.2).
const mixProbe = 0x9E3779B97F4A7C15

func newClassicProbe(f *C.bloom_filter) *classicProbe {
	var v C.bloom_classic_view
	v.struct_size = C.size_t(unsafe.Sizeof(v))
	if C.bloom_get_classic_view(f, &v) != C.BLOOM_OK {
		return nil
	}
	p := &classicProbe{m: uint64(v.bits), seed: uint64(v.seed), k: uint32(v.hashes), enhanced: v.enhanced != 0,
		mixed: v.mixed != 0, adds: takesAdds(f)}
	p.words = unsafe.Slice((*uint64)(unsafe.Pointer(v.words)), (p.m+63)/64)
	return p
}

// has tells whether every probed bit of the key hashed to (x, y) is set.
// As the library's classic probe (kinds/classic.cpp): the first 4 probes
// are tested with one branch, the rest with one more. At the design fill an
// absent key's first probe is set half the time, so a branch per probe
// mispredicts on about every other miss, while after 4 probes the branch
// predicts well for hits and misses alike; against stopping at the first
// clear bit it made misses faster and hits no slower (go_peers.sh,
// docs/PERFORMANCE.md). Words are read atomically: another goroutine may be
// adding to a concurrent filter (plain loads on amd64 and arm64).
func (p *classicProbe) has(x, y uint64) bool {
	words := p.words
	k := uint64(p.k)
	first := k
	if first > classicProbeGroup {
		first = classicProbeGroup
	}
	all := uint64(1)
	i := uint64(1)
	for ; i <= first; i++ {
		var pos uint64
		pos, x, y = p.position(x, y, i)
		all &= atomic.LoadUint64(&words[pos>>6]) >> (pos & 63)
	}
	if all&1 == 0 {
		return false
	}
	for ; i <= k; i++ {
		var pos uint64
		pos, x, y = p.position(x, y, i)
		all &= atomic.LoadUint64(&words[pos>>6]) >> (pos & 63)
	}
	return all&1 != 0
}

// position is probe i's bit (i from 1) and the next (x, y) of the
// sequence: bloom.h's bloom_classic_view.
func (p *classicProbe) position(x, y, i uint64) (pos, nx, ny uint64) {
	g := x
	nx, ny = x+y, y
	if p.enhanced {
		ny += i
	}
	if p.mixed {
		g = (g ^ g>>32) * mixProbe
	}
	return mulHigh(g, p.m), nx, ny
}

// set sets every probed bit of the key hashed to (x, y): bloom_add's bits.
// Plain stores: only filters whose owner has exclusive access add in Go.
func (p *classicProbe) set(x, y uint64) {
	words := p.words
	for i := uint64(1); i <= uint64(p.k); i++ {
		var pos uint64
		pos, x, y = p.position(x, y, i)
		words[pos>>6] |= 1 << (pos & 63)
	}
}
