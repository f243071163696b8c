// SPDX-License-Identifier: Apache-2.0
package bloom

import "math/bits"

// XXH3-128 (xxHash 0.8) of keys of at most 16 bytes, in Go, for the classic
// filter's Go-side probe (classic_probe.go), as xxh3.go is XXH3-64 for the
// blocked one. The constants are the pairs of words of XXH3's default
// secret that short inputs XOR together (bytes 0-7 and 8-15 as 32-bit
// words; 16-31, 32-47, 48-63, 64-79 and 80-95 as 64-bit words). TestXxh3128
// checks the values against the C library's.
const (
	xxPrime64_1 = 0x9E3779B185EBCA87
	xxPrime32_2 = 0x85EBCA77

	xx128Secret1to3lo = 0x87275a9b
	xx128Secret1to3hi = 0x302c208b
	xx128Secret4to8   = 0xc4f023344dc994ac
	xx128Secret9lo    = 0x59973f0033362349
	xx128Secret9hi    = 0xc202797692d63d58
	xx128EmptyLo      = 0x682e908a3037f8b4
	xx128EmptyHi      = 0x9655d30bd1a77d49
)

// xxh3Short128 is XXH3_128bits_withSeed(key, len(key), seed) for
// len(key) <= 16, as (low64, high64): the classic kind's (h1, h2).
func xxh3Short128[K []byte | string](key K, seed uint64) (lo, hi uint64) {
	n := len(key)
	switch {
	case n > 8:
		inLo := le64(key, 0)
		inHi := le64(key, n-8)
		mh, ml := bits.Mul64(inLo^inHi^(xx128Secret9lo-seed), xxPrime64_1)
		ml += uint64(n-1) << 54
		inHi ^= xx128Secret9hi + seed
		mh += inHi + uint64(uint32(inHi))*(xxPrime32_2-1)
		ml ^= bits.ReverseBytes64(mh)
		hh, hl := bits.Mul64(ml, xxPrime64_2)
		hh += mh * xxPrime64_2
		return xxh3Avalanche(hl), xxh3Avalanche(hh)
	case n >= 4:
		seed ^= uint64(bits.ReverseBytes32(uint32(seed))) << 32
		in := uint64(le32(key, 0)) + uint64(le32(key, n-4))<<32
		mh, ml := bits.Mul64(in^(xx128Secret4to8+seed), xxPrime64_1+uint64(n)<<2)
		mh += ml << 1
		ml ^= mh >> 3
		ml ^= ml >> 35
		ml *= xxPrimeMx2
		ml ^= ml >> 28
		return ml, xxh3Avalanche(mh)
	case n > 0:
		c := uint32(key[0])<<16 | uint32(key[n>>1])<<24 | uint32(key[n-1]) | uint32(n)<<8
		ch := bits.RotateLeft32(bits.ReverseBytes32(c), 13)
		return xxh64Avalanche(uint64(c) ^ (xx128Secret1to3lo + seed)), xxh64Avalanche(uint64(ch) ^ (xx128Secret1to3hi - seed))
	}
	return xxh64Avalanche(seed ^ xx128EmptyLo), xxh64Avalanche(seed ^ xx128EmptyHi)
}
