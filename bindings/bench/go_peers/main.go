// SPDX-License-Identifier: Apache-2.0

// Command go_peers times the Go binding's single Add and Query beside
// bits-and-blooms/bloom (Go's most used Bloom filter), in one process on
// one goroutine locked to its thread: 1,000,000 keys "key-<i>", p = 0.01,
// single adds into a fresh filter, then single queries of the inserted keys
// and of as many absent ones. Rows alternate round by round; each figure is
// the median over rounds of the thread's CPU ns per key, and each ratio the
// median of the rounds' own ratios (the host's speed drifts). Run it with
// bindings/bench/go_peers.sh, which builds it against Debian's
// golang-github-willf-bloom-dev offline.
package main

/*
#include <time.h>
static double cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}
*/
import "C"

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"sort"

	peer "github.com/bits-and-blooms/bloom"

	bloom "bloom/bindings/go"
)

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

type row struct {
	name               string
	add, query, query0 []float64
	// one round: fresh filter, adds, queries of present and absent keys
	run func(pos, neg [][]byte) (add, hit, miss float64)
}

func perKey(n int, body func()) float64 {
	t0 := C.cpu_ns()
	body()
	return float64(C.cpu_ns()-t0) / float64(n)
}

func ours(opts bloom.Options) func(pos, neg [][]byte) (float64, float64, float64) {
	return func(pos, neg [][]byte) (float64, float64, float64) {
		f, err := bloom.New(opts)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer f.Close()
		hits := 0
		add := perKey(len(pos), func() {
			for _, k := range pos {
				_ = f.Add(k)
			}
		})
		hit := perKey(len(pos), func() {
			for _, k := range pos {
				if ok, _ := f.Query(k); ok {
					hits++
				}
			}
		})
		miss := perKey(len(neg), func() {
			for _, k := range neg {
				if ok, _ := f.Query(k); ok {
					hits++
				}
			}
		})
		if hits < len(pos) {
			fmt.Fprintln(os.Stderr, "false negatives")
			os.Exit(1)
		}
		return add, hit, miss
	}
}

func theirs(n int, p float64) func(pos, neg [][]byte) (float64, float64, float64) {
	return func(pos, neg [][]byte) (float64, float64, float64) {
		f := peer.NewWithEstimates(uint(n), p)
		hits := 0
		add := perKey(len(pos), func() {
			for _, k := range pos {
				f.Add(k)
			}
		})
		hit := perKey(len(pos), func() {
			for _, k := range pos {
				if f.Test(k) {
					hits++
				}
			}
		})
		miss := perKey(len(neg), func() {
			for _, k := range neg {
				if f.Test(k) {
					hits++
				}
			}
		})
		if hits < len(pos) {
			fmt.Fprintln(os.Stderr, "false negatives in the peer")
			os.Exit(1)
		}
		return add, hit, miss
	}
}

func main() {
	n := flag.Int("keys", 1000000, "keys inserted (and as many absent keys queried)")
	p := flag.Float64("p", 0.01, "false-positive rate")
	rounds := flag.Int("rounds", 7, "rounds")
	flag.Parse()
	runtime.LockOSThread() // the thread's CPU clock is this goroutine's
	pos, neg := make([][]byte, *n), make([][]byte, *n)
	for i := range pos {
		pos[i] = []byte(fmt.Sprintf("key-%d", i))
		neg[i] = []byte(fmt.Sprintf("absent-%d", i))
	}
	blocked := bloom.NewOptions(uint64(*n), *p)
	blocked.Kind = bloom.KindBlocked
	split := blocked
	split.SplitBlock = true
	classic := bloom.NewOptions(uint64(*n), *p)
	rows := []*row{
		{name: "bits-and-blooms/bloom", run: theirs(*n, *p)},
		{name: "bloom, blocked", run: ours(blocked)},
		{name: "bloom, blocked split", run: ours(split)},
		{name: "bloom, classic", run: ours(classic)},
	}
	for r := 0; r < *rounds; r++ {
		for j := range rows {
			i := j
			if r%2 == 1 {
				i = len(rows) - 1 - j
			}
			a, h, m := rows[i].run(pos, neg)
			rows[i].add, rows[i].query, rows[i].query0 = append(rows[i].add, a), append(rows[i].query, h), append(rows[i].query0, m)
		}
	}
	ratio := func(a, b []float64) float64 {
		var v []float64
		for i := range a {
			v = append(v, a[i]/b[i])
		}
		return median(v)
	}
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("# %d keys, p = %g, %d rounds, thread CPU ns per key (medians); load %s", *n, *p, *rounds, load)
	fmt.Printf("%-24s %8s %8s %8s %10s %10s %10s\n", "row", "add", "query+", "query-", "add/peer", "query+/p", "query-/p")
	for _, rw := range rows {
		fmt.Printf("%-24s %8.1f %8.1f %8.1f %9.2fx %9.2fx %9.2fx\n", rw.name, median(rw.add), median(rw.query),
			median(rw.query0), ratio(rw.add, rows[0].add), ratio(rw.query, rows[0].query), ratio(rw.query0, rows[0].query0))
	}
}
