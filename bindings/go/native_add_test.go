// SPDX-License-Identifier: Apache-2.0
package bloom

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"path/filepath"
	"sync"
	"testing"
)

// addKeyOf is the test keys' shape: every length from 0 to 24, so both the
// adds made in Go (up to 16 bytes) and the library's (longer) occur.
func addKeyOf(i int) string {
	return fmt.Sprintf("%x-add-%d-abcdefghijklmnopqrstu", i, i*7919)[:i%25]
}

// shortKeys counts the keys of 0..n-1 that Go adds itself.
func shortKeys(n int) uint64 {
	c := uint64(0)
	for i := 0; i < n; i++ {
		if len(addKeyOf(i)) <= 16 {
			c++
		}
	}
	return c
}

type addShape struct {
	capacity uint64
	hashes   uint32
	split    bool
	seed     uint64
}

var addShapes = []addShape{
	{1, 0, false, 0}, {100, 0, false, 0x5eed}, {5000, 1, false, 0}, {5000, 12, false, 7},
	{5000, 40, false, 0}, {200000, 0, false, 0}, {1, 0, true, 0}, {100, 0, true, 0x5eed},
	{5000, 0, true, 0}, {200000, 0, true, 3},
}

func newAddShape(t *testing.T, s addShape) *Filter {
	t.Helper()
	o := NewOptions(s.capacity, 0.01)
	o.Kind, o.Hashes, o.SplitBlock, o.Seed = KindBlocked, s.hashes, s.split, s.seed
	f, err := New(o)
	must(t, err)
	return f
}

func infoOf(t *testing.T, f *Filter) Info {
	t.Helper()
	i, err := f.Info()
	must(t, err)
	return i
}

func imageOf(t *testing.T, f *Filter) []byte {
	t.Helper()
	b, err := f.Serialize()
	must(t, err)
	return b
}

// goAdded fills a filter through Add and AddString, checking that Go made
// the short keys' adds (they wait in pending) and the library the rest.
func goAdded(t *testing.T, s addShape, n int) *Filter {
	t.Helper()
	f := newAddShape(t, s)
	if f.probe == nil || !f.probe.adds {
		t.Fatalf("%+v: the filter does not add in Go", s)
	}
	fillInGo(t, fmt.Sprintf("%+v", s), f, n)
	return f
}

// fillInGo adds keys 0..n-1 through Add and AddString and checks that Go
// made the short keys' adds (they wait in pending).
func fillInGo(t *testing.T, what string, f *Filter, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		k := addKeyOf(i)
		if i%2 == 0 {
			must(t, f.AddString(k))
		} else {
			must(t, f.Add([]byte(k)))
		}
	}
	if f.pending != shortKeys(n) {
		t.Fatalf("%s: %d adds made in Go, want %d", what, f.pending, shortKeys(n))
	}
}

// libraryAdded fills a filter with bloom_add alone.
func libraryAdded(t *testing.T, s addShape, n int) *Filter {
	t.Helper()
	f := newAddShape(t, s)
	for i := 0; i < n; i++ {
		must(t, status(keyOp(f, opAdd, addKeyOf(i))))
	}
	if f.pending != 0 {
		t.Fatal("bloom_add left adds pending")
	}
	return f
}

// Adds made in Go leave the bits and the count bloom_add leaves: Info read
// first (nothing else has recorded the adds yet) and the whole file image,
// count included, for both layouts, several k, seeds and sizes.
func TestNativeAddMatchesBloomAdd(t *testing.T) {
	for _, s := range addShapes {
		n := int(s.capacity) * 2
		if n > 60000 {
			n = 60000
		}
		matchAdded(t, fmt.Sprintf("%+v", s), goAdded(t, s, n), libraryAdded(t, s, n), n)
	}
}

// matchAdded checks g, filled with keys 0..n-1 partly in Go, against l,
// filled by bloom_add: Info read first (nothing else has recorded the adds
// yet), then the whole image; every key is found. It closes both.
func matchAdded(t *testing.T, what string, g, l *Filter, n int) {
	t.Helper()
	if got := infoOf(t, g).KeysAdded; got != uint64(n) {
		t.Fatalf("%s: Info right after the adds counts %d keys, want %d", what, got, n)
	}
	if !bytes.Equal(imageOf(t, g), imageOf(t, l)) {
		t.Fatalf("%s: the image differs from the one bloom_add makes", what)
	}
	for i := 0; i < n; i++ {
		if !g.ContainsString(addKeyOf(i)) {
			t.Fatalf("%s: false negative for %q", what, addKeyOf(i))
		}
	}
	must(t, g.Close())
	must(t, l.Close())
}

// TestAndAdd in Go answers as bloom_test_and_add and counts as it does
// (only new keys), mixed with Add, over keys that repeat.
func TestNativeTestAndAddMatchesLibrary(t *testing.T) {
	for _, s := range addShapes[:8] {
		matchTestAndAdd(t, fmt.Sprintf("%+v", s), newAddShape(t, s), newAddShape(t, s), int(s.capacity)*3+50,
			int64(s.capacity)+int64(s.hashes))
	}
}

// matchTestAndAdd runs n random Add, AddString, TestAndAdd and
// TestAndAddString calls on g (Go when it can) and the same through the
// library on l, an identical filter, over keys that repeat: the answers,
// the counts and the images must agree. It closes both.
func matchTestAndAdd(t *testing.T, what string, g, l *Filter, n int, seed int64) {
	t.Helper()
	r := rand.New(rand.NewSource(seed))
	repeats := 0
	for i := 0; i < n; i++ {
		k := addKeyOf(r.Intn(n/2 + 1))
		switch i % 4 {
		case 0:
			must(t, g.AddString(k))
			must(t, status(keyOp(l, opAdd, k)))
		case 1:
			must(t, g.Add([]byte(k)))
			must(t, status(keyOp(l, opAdd, k)))
		default:
			var got bool
			var err error
			if i%4 == 2 {
				got, err = g.TestAndAddString(k)
			} else {
				got, err = g.TestAndAdd([]byte(k))
			}
			must(t, err)
			want, err := answer(keyOp(l, opTestAndAdd, k))
			must(t, err)
			if got != want {
				t.Fatalf("%s key %q: TestAndAdd %v, bloom_test_and_add %v", what, k, got, want)
			}
			if got {
				repeats++
			}
		}
	}
	if repeats == 0 {
		t.Fatalf("%s: no key was found present, the check proves nothing", what)
	}
	if a, b := infoOf(t, g).KeysAdded, infoOf(t, l).KeysAdded; a != b {
		t.Fatalf("%s: %d keys counted, the library counts %d", what, a, b)
	}
	if !bytes.Equal(imageOf(t, g), imageOf(t, l)) {
		t.Fatalf("%s: the image differs from the library's", what)
	}
	must(t, g.Close())
	must(t, l.Close())
}

// Every call that reads the count or the whole filter sees the adds made
// in Go: each starts from a filter whose adds are all still pending.
func TestNativeAddsReachEveryWholeFilterCall(t *testing.T) {
	s := addShape{3000, 0, false, 0x5eed}
	const n = 4000
	want := uint64(n)
	check := func(what string, got, want uint64) {
		t.Helper()
		if got != want {
			t.Fatalf("%s: %d keys, want %d", what, got, want)
		}
	}
	ref := libraryAdded(t, s, n)
	defer ref.Close()
	refImage := imageOf(t, ref)

	f := goAdded(t, s, n)
	st, err := f.StageInfo(0)
	must(t, err)
	check("StageInfo", st.KeysAdded, want)
	must(t, f.Close())

	f = goAdded(t, s, n)
	size, err := f.SerializedSize()
	must(t, err)
	if size != len(refImage) || !bytes.Equal(imageOf(t, f), refImage) {
		t.Fatal("SerializedSize / Serialize: not the library's image")
	}
	must(t, f.Close())

	f = goAdded(t, s, n)
	path := filepath.Join(t.TempDir(), "native.bloom")
	must(t, f.Save(path))
	must(t, f.Close())
	for _, open := range []func(string) (*Filter, error){Load, Map} {
		l, err := open(path)
		must(t, err)
		check("Save, then Load/Map", infoOf(t, l).KeysAdded, want)
		if !bytes.Equal(imageOf(t, l), refImage) {
			t.Fatal("the saved file is not the library's image")
		}
		must(t, l.Close())
	}

	f = goAdded(t, s, n)
	c, err := f.Clone()
	must(t, err)
	check("Clone", infoOf(t, c).KeysAdded, want)
	if c.pending != 0 || !c.probe.adds {
		t.Fatal("a clone of a blocked filter adds in Go and starts with nothing pending")
	}
	must(t, c.Close())
	must(t, f.Close())

	// Merge and Intersect: the destination's pending adds and the source's.
	for _, op := range []struct {
		name string
		run  func(dst, src *Filter) error
	}{{"Merge", (*Filter).Merge}, {"Intersect", (*Filter).Intersect}} {
		dst, src := goAdded(t, s, n), goAdded(t, s, n/2)
		refDst, refSrc := libraryAdded(t, s, n), libraryAdded(t, s, n/2)
		must(t, op.run(dst, src))
		must(t, op.run(refDst, refSrc))
		if !bytes.Equal(imageOf(t, dst), imageOf(t, refDst)) {
			t.Fatalf("%s: not the library's image", op.name)
		}
		check(op.name+" (source)", infoOf(t, src).KeysAdded, uint64(n/2))
		for _, g := range []*Filter{dst, src, refDst, refSrc} {
			must(t, g.Close())
		}
	}

	f = goAdded(t, s, n)
	must(t, f.AddStrings([]string{"batch-1", "batch-2"}))
	check("AddStrings", infoOf(t, f).KeysAdded, want+2)
	must(t, f.Close())

	f = goAdded(t, s, n)
	keys := numbered(10)
	answers, err := f.QueryStrings(keys)
	must(t, err)
	for i := range keys {
		want, err := answer(keyOp(f, opQuery, keys[i]))
		must(t, err)
		if answers[i] != want {
			t.Fatalf("QueryStrings %q: %v, bloom_query %v", keys[i], answers[i], want)
		}
	}
	check("QueryStrings, then Info", infoOf(t, f).KeysAdded, want)
	must(t, f.Close())

	f = goAdded(t, s, n)
	must(t, f.Clear())
	check("Clear", infoOf(t, f).KeysAdded, 0)
	must(t, f.AddString("after"))
	check("Clear, then Add", infoOf(t, f).KeysAdded, 1)
	if !f.ContainsString("after") {
		t.Fatal("false negative after Clear")
	}
	must(t, f.Close())
	if err := f.AddString("closed"); err != ErrClosed {
		t.Fatalf("Add after Close: %v", err)
	}
}

// Read-only calls may run from many goroutines at once: each sees every
// add made in Go before them, and only one records them.
func TestNativeAddsSeenByConcurrentReaders(t *testing.T) {
	s := addShape{3000, 0, true, 0}
	const n = 3000
	f := goAdded(t, s, n)
	defer f.Close()
	var wg sync.WaitGroup
	counts := make([]uint64, 8)
	for i := range counts {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			info, err := f.Info()
			if err == nil {
				counts[i] = info.KeysAdded
			}
		}(i)
	}
	wg.Wait()
	for i, c := range counts {
		if c != n {
			t.Fatalf("reader %d saw %d keys, want %d", i, c, n)
		}
	}
}

// Filters whose bits Go must not write keep bloom_add: concurrent ones
// (their writers lock) and mapped ones (read-only: Add fails as before);
// a clone of a mapped filter is writable and adds in Go.
func TestAddsThatStayInTheLibrary(t *testing.T) {
	o := NewOptions(1000, 0.01)
	o.Kind, o.Concurrent = KindBlocked, true
	c, err := New(o)
	must(t, err)
	defer c.Close()
	if c.probe == nil || c.probe.adds {
		t.Fatal("a concurrent blocked filter queries in Go and adds through the library")
	}
	must(t, c.AddString("a"))
	if ok, err := c.TestAndAddString("b"); err != nil || ok {
		t.Fatalf("TestAndAdd of a new key: %v, %v", ok, err)
	}
	if c.pending != 0 || infoOf(t, c).KeysAdded != 2 {
		t.Fatal("a concurrent filter's adds are not the library's")
	}

	g := goAdded(t, addShape{1000, 0, false, 0}, 100)
	path := filepath.Join(t.TempDir(), "m.bloom")
	must(t, g.Save(path))
	must(t, g.Close())
	m, err := Map(path)
	must(t, err)
	defer m.Close()
	if m.probe == nil || m.probe.adds {
		t.Fatal("a mapped blocked filter queries in Go and does not add there")
	}
	if err := m.AddString("x"); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("Add to a mapped filter: %v, want ErrUnsupported", err)
	}
	if _, err := m.TestAndAddString("x"); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("TestAndAdd on a mapped filter: %v, want ErrUnsupported", err)
	}
	cl, err := m.Clone()
	must(t, err)
	defer cl.Close()
	if !cl.probe.adds {
		t.Fatal("a clone of a mapped filter does not add in Go")
	}
	must(t, cl.AddString("x"))
	if infoOf(t, cl).KeysAdded != 101 || !cl.ContainsString("x") {
		t.Fatal("a clone of a mapped filter lost an add")
	}
}
