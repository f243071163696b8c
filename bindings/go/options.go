// SPDX-License-Identifier: Apache-2.0
package bloom

// Kind is a filter kind (bloom_kind).
type Kind int32

// The kinds of the C library.
const (
	KindClassic     Kind = 1 // one bit array, k probes anywhere in it
	KindPartitioned Kind = 2 // k slices of m/k bits, probe i in slice i
	KindBlocked     Kind = 3 // all k probes inside one 64-byte cache line
	KindCounting    Kind = 4 // small counters instead of bits: Remove
	KindScalable    Kind = 5 // a growing chain of filters (Almeida et al. 2007)
	// KindWindow is a sliding window of the last Capacity insertions
	// (WindowMs = 0) or the last WindowMs milliseconds (moved by Advance);
	// only with a library that has it (KindWindow.Supported()).
	KindWindow Kind = 6
)

// Hash is a hash function (bloom_hash).
type Hash int32

// The hashers of the C library.
const (
	HashXXH3    Hash = 1 // XXH3-128, the default and fastest (blocked: XXH3-64)
	HashMurmur3 Hash = 2 // MurmurHash3 x64-128
	HashFNV1a   Hash = 3 // FNV-1a 64, widened to 128 bits by a mixer
	// HashRedisBloom is RedisBloom's hashing (MurmurHash64A, positions
	// (a + i*b) mod m): classic and scalable filters only, library 0.3.0+.
	HashRedisBloom Hash = 4
)

var kindNames = map[Kind]string{KindClassic: "classic", KindPartitioned: "partitioned", KindBlocked: "blocked",
	KindCounting: "counting", KindScalable: "scalable", KindWindow: "window"}

// String is the library's name of the kind ("classic", ...).
func (k Kind) String() string {
	if n, ok := kindNames[k]; ok {
		return n
	}
	return "kind(" + itoa(int64(k)) + ")"
}

// KindFromName is the kind a name stands for (case-sensitive); false for
// an unknown name.
func KindFromName(name string) (Kind, bool) {
	for k, n := range kindNames {
		if n == name {
			return k, true
		}
	}
	return 0, false
}

var hashNames = map[Hash]string{HashXXH3: "xxh3", HashMurmur3: "murmur3", HashFNV1a: "fnv1a",
	HashRedisBloom: "redisbloom"}

// String is the library's name of the hasher ("xxh3", ...).
func (h Hash) String() string {
	if n, ok := hashNames[h]; ok {
		return n
	}
	return "hash(" + itoa(int64(h)) + ")"
}

// HashFromName is the hasher a name stands for (case-sensitive).
func HashFromName(name string) (Hash, bool) {
	for h, n := range hashNames {
		if n == name {
			return h, true
		}
	}
	return 0, false
}

func itoa(v int64) string {
	if v == 0 {
		return "0"
	}
	neg := v < 0
	if neg {
		v = -v
	}
	var b [20]byte
	i := len(b)
	for v > 0 {
		i--
		b[i] = byte('0' + v%10)
		v /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// Options are the parameters of a new filter. Start from DefaultOptions
// (the library's defaults: classic, 1,000,000 keys, p = 0.01, XXH3, seed 0)
// or NewOptions.
type Options struct {
	Kind Kind
	// Capacity is n, the expected distinct keys (scalable: the first
	// stage's; window with WindowMs = 0: the window's length).
	Capacity uint64
	// FPRate is p, the target false-positive rate in (0, 1).
	FPRate float64
	Hash   Hash
	// Seed is part of the filter's identity: filters merge only with equal seeds.
	Seed uint64
	// Concurrent lets Add/AddBatch/TestAndAdd run from many goroutines at
	// once (not for scalable filters).
	Concurrent bool
	// PlainDoubleHashing probes with h1 + i*h2 (not for blocked filters).
	PlainDoubleHashing bool
	// SplitBlock: blocked filters only, 32-byte blocks with k = 8 (one SIMD
	// compare per key, more memory for the same FPRate; library 0.3.0+).
	SplitBlock bool
	// Bits is an explicit m (0: size from Capacity and FPRate).
	Bits uint64
	// Hashes is an explicit k (0: the optimal k).
	Hashes uint32
	// Growth and Tightening: scalable capacity and error factors per stage.
	Growth     float64
	Tightening float64
	// CounterBits: counting, 4 or 8.
	CounterBits uint32
	// WindowMs: window kind, 0 = a count window of Capacity insertions,
	// > 0 = a time window of this many milliseconds.
	WindowMs uint64
}

// NewOptions is DefaultOptions with a capacity and false-positive rate.
func NewOptions(capacity uint64, fpRate float64) Options {
	o := DefaultOptions()
	o.Capacity = capacity
	o.FPRate = fpRate
	return o
}
