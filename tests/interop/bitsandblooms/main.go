// SPDX-License-Identifier: Apache-2.0
// Writes bits-and-blooms/bloom v3 filters (that library's own code, from
// Debian's golang-github-willf-bloom-dev) and what they answer, for
// tests/interop/run_interop.sh to compare with the library's import and
// export: for each rate (1e-2, 1e-4) and key set (strings, 8-byte
// little-endian integers), OUT/bitsandblooms_<keys>_<p>.bin (WriteTo) and
// OUT/bitsandblooms_<keys>_<p>.keys, one line per probed key: its bytes
// (hex), a space, and Test's answer (0/1).
package main

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"

	"github.com/bits-and-blooms/bloom"
)

const added = 2000
const probed = 20000

// Keys of several lengths around MurmurHash3's 16-byte block, including the
// 15-byte case where the library's second hash completes a block.
func stringKey(i int) []byte {
	switch i % 4 {
	case 0:
		return []byte("key-" + strconv.Itoa(i))
	case 1:
		return []byte(fmt.Sprintf("k%014d", i)) // 15 bytes
	case 2:
		return []byte("a-longer-key-crossing-blocks-" + strconv.Itoa(i))
	default:
		return []byte("ключ-" + strconv.Itoa(i))
	}
}

func intKey(i int) []byte {
	b := make([]byte, 8)
	binary.LittleEndian.PutUint64(b, uint64(i)*0x9E3779B97F4A7C15)
	return b
}

func write(out, name string, p float64, key func(int) []byte) {
	f := bloom.NewWithEstimates(added, p)
	for i := 0; i < added; i++ {
		f.Add(key(i))
	}
	bin, err := os.Create(out + "/" + name + ".bin")
	if err != nil {
		panic(err)
	}
	if _, err := f.WriteTo(bin); err != nil {
		panic(err)
	}
	bin.Close()
	keys, err := os.Create(out + "/" + name + ".keys")
	if err != nil {
		panic(err)
	}
	w := bufio.NewWriter(keys)
	for i := 0; i < probed; i++ {
		k := key(i)
		answer := 0
		if f.Test(k) {
			answer = 1
		}
		fmt.Fprintf(w, "%s %d\n", hex.EncodeToString(k), answer)
	}
	w.Flush()
	keys.Close()
}

func main() {
	out := os.Args[1]
	for _, p := range []float64{1e-2, 1e-4} {
		tag := "0.0001"
		if p == 1e-2 {
			tag = "0.01"
		}
		write(out, "bitsandblooms_string_"+tag, p, stringKey)
		write(out, "bitsandblooms_int_"+tag, p, intKey)
	}
}
