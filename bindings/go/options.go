// SPDX-License-Identifier: Apache-2.0
package bloom

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
