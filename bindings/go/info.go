// SPDX-License-Identifier: Apache-2.0
package bloom

// Info is a snapshot of a filter's parameters and state (bloom_info).
type Info struct {
	Kind               Kind
	Hash               Hash
	Seed               uint64
	Concurrent         bool
	PlainDoubleHashing bool
	SplitBlock         bool
	Hashes             uint32  // k (scalable: of the newest stage)
	Bits               uint64  // m: bits or counters (scalable: all stages)
	Bytes              uint64  // memory of the bit/counter arrays
	Capacity           uint64  // n the filter was sized for (scalable: total of stages)
	FPRate             float64 // p the filter was sized for (0 if given m and k)
	KeysAdded          uint64  // successful adds; duplicates count again (counting: minus removes)
	EstimatedKeys      float64 // distinct keys estimated from the fill (Swamidass & Baldi 2007)
	FillRatio          float64 // fraction of bits (counters) set
	ExpectedFPRate     float64 // the false-positive rate at the current fill
	Stages             uint32  // scalable: number of stages; others 1
	CounterBits        uint32  // counting: 4 or 8; others 1
	Growth             float64 // scalable parameters; 0 for other kinds
	Tightening         float64
	ReadOnly           bool // a filter from Map
	// FormatMajor.FormatMinor is the file format Save writes for this
	// filter; 0.0 with a library older than 0.2.0, which does not report it.
	FormatMajor, FormatMinor uint16
}
