// SPDX-License-Identifier: Apache-2.0

// Command bloom-percall measures the Go binding's per-key cost against the
// C API in the same process: the workload of bench/bindings/per_call.c
// (100,000 keys "key-<i>", a classic XXH3 filter sized for them at
// p = 0.01; single add and query per key, then batch add and query in calls
// of 1024 keys). Each run times the C API (a loop written in C in this
// file's preamble, over ready pointer/length arrays) and then the binding
// ([][]byte; the batch query also over []string), alternating so machine
// load hits both alike. Medians of 15 runs of the thread's CPU time.
// Single calls also time the floor of any cgo binding: the same C function
// called straight from Go (C.bloom_add(f, unsafe.Pointer(&key[0]), len)).
// Prints "go <op> <binding ns/key> <C ns/key> <ratio> [cgo-direct <ns/key>]".
package main

/*
#cgo pkg-config: bloom
#include <bloom/bloom.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static double cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

// The C caller's loops over keys held in C memory.
static unsigned long long c_run(int op, bloom_filter *f, char **keys, size_t *lens, size_t n, size_t batch) {
  unsigned long long sink = 0;
  uint8_t results[1024];
  for (size_t i = 0; i < n; i += (op < 2 ? 1 : batch)) {
    size_t m = n - i < batch ? n - i : batch;
    switch (op) {
      case 0: bloom_add(f, keys[i], lens[i]); break;
      case 1: sink += (unsigned)bloom_query(f, keys[i], lens[i]); break;
      case 2: bloom_add_batch(f, (const void *const *)(keys + i), lens + i, m); break;
      default: bloom_query_batch(f, (const void *const *)(keys + i), lens + i, m, results); sink += results[0];
    }
  }
  return sink;
}
*/
import "C"

import (
	"fmt"
	"runtime"
	"sort"
	"unsafe"

	bloom "bloom/bindings/go"
)

const (
	n     = 100000
	batch = 1024
	runs  = 15
)

func fresh() *bloom.Filter {
	f, err := bloom.NewClassic(n, 0.01)
	if err != nil {
		panic(err)
	}
	return f
}

func median(t []float64) float64 {
	sort.Float64s(t)
	return t[len(t)/2]
}

func main() {
	runtime.LockOSThread() // the thread's CPU clock is this goroutine's
	keys := make([][]byte, n)
	strs := make([]string, n)
	ckeys := (*[n]*C.char)(C.malloc(C.size_t(n) * C.size_t(unsafe.Sizeof(uintptr(0)))))
	clens := (*[n]C.size_t)(C.malloc(C.size_t(n) * C.size_t(unsafe.Sizeof(C.size_t(0)))))
	for i := range keys {
		strs[i] = fmt.Sprintf("key-%d", i)
		keys[i] = []byte(strs[i])
		ckeys[i] = C.CString(strs[i])
		clens[i] = C.size_t(len(strs[i]))
	}
	var sink uint64
	answers := make([]bool, 0, batch)
	fc, fb := fresh(), fresh()
	// The C loop needs the raw handle: a second filter made through C.
	newC := func() *C.bloom_filter {
		var o C.bloom_options
		C.bloom_options_init(&o)
		o.capacity, o.fp_rate = n, 0.01
		var f *C.bloom_filter
		C.bloom_create(&o, &f)
		return f
	}
	cf, df := newC(), newC()
	_ = fc
	ops := []string{"add", "query", "add_batch", "query_batch", "query_batch_str"}
	for opi, op := range ops {
		var tc, tb, td []float64
		for r := 0; r < runs; r++ {
			if opi == 0 || opi == 2 {
				C.bloom_destroy(cf)
				C.bloom_destroy(df)
				cf, df = newC(), newC()
				fb.Close()
				fb = fresh()
			}
			cop := opi
			if cop > 3 {
				cop = 3
			}
			t0 := C.cpu_ns()
			sink += uint64(C.c_run(C.int(cop), cf, &ckeys[0], &clens[0], n, batch))
			tc = append(tc, float64(C.cpu_ns()-t0)/n)
			t0 = C.cpu_ns()
			switch op {
			case "add":
				for _, k := range keys {
					fb.Add(k)
				}
			case "query":
				for _, k := range keys {
					if fb.Contains(k) {
						sink++
					}
				}
			case "add_batch":
				for i := 0; i < n; i += batch {
					fb.AddBatch(keys[i:min(i+batch, n)])
				}
			case "query_batch":
				for i := 0; i < n; i += batch {
					a, _ := fb.QueryBatch(keys[i:min(i+batch, n)])
					answers = a
				}
			default:
				for i := 0; i < n; i += batch {
					a, _ := fb.QueryStrings(strs[i:min(i+batch, n)])
					answers = a
				}
			}
			tb = append(tb, float64(C.cpu_ns()-t0)/n)
			if opi < 2 {
				t0 = C.cpu_ns()
				for _, k := range keys {
					if opi == 0 {
						C.bloom_add(df, unsafe.Pointer(&k[0]), C.size_t(len(k)))
					} else {
						sink += uint64(C.bloom_query(df, unsafe.Pointer(&k[0]), C.size_t(len(k))))
					}
				}
				td = append(td, float64(C.cpu_ns()-t0)/n)
			}
		}
		b, c := median(tb), median(tc)
		fmt.Printf("go %s %.1f %.1f %.2f", op, b, c, b/c)
		if opi < 2 {
			fmt.Printf(" cgo-direct %.1f", median(td))
		}
		fmt.Println()
	}
	if sink == 0 || len(answers) == 0 {
		panic("nothing measured")
	}
}

func min(a, b int) int {
	if a < b {
		return a
	}
	return b
}
