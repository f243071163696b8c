// SPDX-License-Identifier: Apache-2.0
package bloom

import "math/bits"

// XXH3-64 (xxHash 0.8) of keys of at most 16 bytes, written in Go so that a
// query of a blocked filter needs no cgo call (probe.go); longer keys take
// the library. The constants below are XXH3's: the 64-bit primes, and the
// pairs of words of its default secret that short inputs XOR together
// (bytes 0-7 as 32-bit words, 8-23, 24-39, 40-55 and 56-71). TestXxh3
// checks the values against the C library's answers.
const (
	xxPrime64_2 = 0xC2B2AE3D27D4EB4F
	xxPrime64_3 = 0x165667B19E3779F9
	xxPrimeMx1  = 0x165667919E3779F9
	xxPrimeMx2  = 0x9FB21C651E98DF25

	xxSecret1to3  = 0x87275a9b
	xxSecret4to8  = 0xc73ab174c5ecd5a2
	xxSecret9lo   = 0x6782737bea4239b9
	xxSecret9hi   = 0xaf56bc3b0996523a
	xxSecretEmpty = 0x8726f9105dc21ddc
)

func xxh64Avalanche(h uint64) uint64 {
	h ^= h >> 33
	h *= xxPrime64_2
	h ^= h >> 29
	h *= xxPrime64_3
	return h ^ (h >> 32)
}

func xxh3Avalanche(h uint64) uint64 {
	h ^= h >> 37
	h *= xxPrimeMx1
	return h ^ (h >> 32)
}

func xxh3Rrmxmx(h uint64, n uint64) uint64 {
	h ^= bits.RotateLeft64(h, 49) ^ bits.RotateLeft64(h, 24)
	h *= xxPrimeMx2
	h ^= (h >> 35) + n
	h *= xxPrimeMx2
	return h ^ (h >> 28)
}

func le32[K []byte | string](k K, i int) uint32 {
	return uint32(k[i]) | uint32(k[i+1])<<8 | uint32(k[i+2])<<16 | uint32(k[i+3])<<24
}

func le64[K []byte | string](k K, i int) uint64 {
	return uint64(le32(k, i)) | uint64(le32(k, i+4))<<32
}

// xxh3Short is XXH3_64bits_withSeed(key, len(key), seed) for len(key) <= 16.
func xxh3Short[K []byte | string](key K, seed uint64) uint64 {
	n := len(key)
	switch {
	case n > 8:
		lo := le64(key, 0) ^ (xxSecret9lo + seed)
		hi := le64(key, n-8) ^ (xxSecret9hi - seed)
		mh, ml := bits.Mul64(lo, hi)
		return xxh3Avalanche(uint64(n) + bits.ReverseBytes64(lo) + hi + (mh ^ ml))
	case n >= 4:
		seed ^= uint64(bits.ReverseBytes32(uint32(seed))) << 32
		in := uint64(le32(key, n-4)) + uint64(le32(key, 0))<<32
		return xxh3Rrmxmx(in^(xxSecret4to8-seed), uint64(n))
	case n > 0:
		c := uint32(key[0])<<16 | uint32(key[n>>1])<<24 | uint32(key[n-1]) | uint32(n)<<8
		return xxh64Avalanche(uint64(c) ^ (xxSecret1to3 + seed))
	}
	return xxh64Avalanche(seed ^ xxSecretEmpty)
}
