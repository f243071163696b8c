// SPDX-License-Identifier: Apache-2.0
package bloom

/*
#cgo pkg-config: bloom
#include <stdlib.h>
#include <bloom/bloom.h>
*/
import "C"

import (
	"strconv"
	"strings"
	"unsafe"
)

// Kind is a filter kind (bloom_kind). The constants (KindClassic, ...) are
// generated from bloom.h; what a kind can do is the library's to say: ask
// Kind.Caps rather than comparing kinds.
type Kind int32

// Hash is a hash function (bloom_hash).
type Hash int32

// Caps is a set of capabilities of a kind (BLOOM_CAP_* bits).
type Caps uint32

// Has tells whether every capability of c is in the set.
func (s Caps) Has(c Caps) bool { return s&c == c }

// Unknown is the bits this package has no name for (from a library newer
// than the package); 0 when it knows them all.
func (s Caps) Unknown() Caps {
	for _, c := range capNames {
		s &^= c.bit
	}
	return s
}

// String lists the capabilities' names, e.g. "merge|intersect|remove".
func (s Caps) String() string {
	var names []string
	for _, c := range capNames {
		if s.Has(c.bit) {
			names = append(names, c.name)
		}
	}
	if u := s.Unknown(); u != 0 {
		names = append(names, "0x"+strconv.FormatUint(uint64(u), 16))
	}
	return strings.Join(names, "|")
}

// Caps is what the loaded library says the kind can do (0 if it does not
// implement the kind).
func (k Kind) Caps() Caps { return Caps(C.bloom_kind_caps(C.int(k))) }

// Supported tells whether the loaded library implements the kind.
func (k Kind) Supported() bool { return C.bloom_kind_name(C.int(k)) != nil }

// Kinds lists the kinds of the loaded library, in increasing order.
func Kinds() []Kind {
	n := int(C.bloom_kind_count())
	out := make([]Kind, n)
	for i := range out {
		out[i] = Kind(C.bloom_kind_at(C.int(i)))
	}
	return out
}

// cName is a static name from the library, or what(value) for one it does not know.
func cName(p *C.char, what string, value int32) string {
	if p == nil {
		return what + "(" + itoa(int64(value)) + ")"
	}
	return C.GoString(p)
}

// String is the library's name of the kind ("classic", ...).
func (k Kind) String() string { return cName(C.bloom_kind_name(C.int(k)), "kind", int32(k)) }

// String is the library's name of the hasher ("xxh3", ...).
func (h Hash) String() string { return cName(C.bloom_hash_name(C.int(h)), "hash", int32(h)) }

// fromName is the library's value for a name, 0 when it has none.
func fromName(name string, lookup func(*C.char) C.int) int32 {
	if strings.IndexByte(name, 0) >= 0 {
		return 0
	}
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	return int32(lookup(cs))
}

// KindFromName is the kind a name stands for (case-sensitive), as the
// library reads it; false for an unknown name.
func KindFromName(name string) (Kind, bool) {
	k := fromName(name, func(s *C.char) C.int { return C.bloom_kind_from_name(s) })
	return Kind(k), k != 0
}

// HashFromName is the hasher a name stands for (case-sensitive).
func HashFromName(name string) (Hash, bool) {
	h := fromName(name, func(s *C.char) C.int { return C.bloom_hash_from_name(s) })
	return Hash(h), h != 0
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
