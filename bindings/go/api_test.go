// SPDX-License-Identifier: Apache-2.0
package bloom

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// numbered is the keys "0", "1", ..., n-1 as strings.
func numbered(n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprint(i)
	}
	return keys
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestErrorsCarryStatusAndMessage(t *testing.T) {
	_, err := New(NewOptions(0, 0.01))
	var be *Error
	if !errors.As(err, &be) || be.Status != StatusInvalidArg || be.Message == "" || be.Op != "create" {
		t.Fatalf("create with capacity 0: %#v", err)
	}
	if !errors.Is(err, ErrInvalidArg) || errors.Is(err, ErrIO) {
		t.Fatalf("errors.Is by status: %v", err)
	}
	o := NewOptions(10, 0.01)
	o.Kind, o.Concurrent = KindScalable, true
	if _, err := New(o); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("scalable + concurrent: %v", err)
	}
	_, err = Load(filepath.Join(t.TempDir(), "missing"))
	if !errors.Is(err, ErrIO) || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("load missing: %v", err)
	}
	if _, err := Deserialize([]byte("not a filter")); !errors.Is(err, ErrFormat) {
		t.Fatalf("deserialize garbage: %v", err)
	}
	if _, err := Deserialize(nil); err == nil {
		t.Fatal("deserialize of nothing succeeded")
	}
	if _, err := Load("bad\x00path"); !errors.Is(err, ErrInvalidArg) {
		t.Fatalf("NUL in path: %v", err)
	}
	f, err := NewClassic(100, 0.01)
	must(t, err)
	if err := f.RemoveString("x"); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("remove from classic: %v", err)
	}
	if _, err := f.StageInfo(1); !errors.Is(err, ErrInvalidArg) {
		t.Fatalf("stage 1 of classic: %v", err)
	}
	if err := f.Save(t.TempDir()); !errors.Is(err, ErrIO) {
		t.Fatalf("save onto a directory: %v", err)
	}
	f.Close()
	f.Close() // idempotent
	if err := f.AddString("x"); err != ErrClosed || !errors.Is(err, ErrInvalidArg) {
		t.Fatalf("add after close: %v", err)
	}
	if _, err := f.Info(); err != ErrClosed {
		t.Fatalf("info after close: %v", err)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Contains on a closed filter did not panic")
			}
		}()
		f.ContainsString("x")
	}()
	if !strings.HasPrefix(StatusChecksum.String(), "checksum mismatch") {
		t.Fatalf("status description %q", StatusChecksum.String())
	}
}

func TestCountingRemoveTestAndAddClone(t *testing.T) {
	o := NewOptions(1000, 0.01)
	o.Kind, o.CounterBits = KindCounting, 8
	f, err := New(o)
	must(t, err)
	defer f.Close()
	if seen, err := f.TestAndAddString("k"); err != nil || seen {
		t.Fatalf("first test_and_add: %v %v", seen, err)
	}
	if seen, err := f.TestAndAdd([]byte("k")); err != nil || !seen {
		t.Fatalf("second test_and_add: %v %v", seen, err)
	}
	must(t, f.RemoveString("k"))
	if !f.ContainsString("k") {
		t.Fatal("added twice, removed once: lost")
	}
	if err := f.RemoveString("never"); !errors.Is(err, ErrNotPresent) {
		t.Fatalf("remove of a missing key: %v", err)
	}
	g, err := f.Clone()
	must(t, err)
	defer g.Close()
	must(t, f.Clear())
	if f.ContainsString("k") || !g.ContainsString("k") {
		t.Fatal("clear or clone")
	}
	i, err := g.Info()
	must(t, err)
	if i.CounterBits != 8 || i.Kind != KindCounting {
		t.Fatalf("info %+v", i)
	}
}

func TestMergeIntersect(t *testing.T) {
	o := NewOptions(1000, 0.01)
	o.Hash, o.Seed = HashMurmur3, 5
	a, _ := New(o)
	b, _ := New(o)
	defer a.Close()
	defer b.Close()
	must(t, a.AddStrings([]string{"both", "only-a"}))
	must(t, b.AddBatch([][]byte{[]byte("both"), []byte("only-b")}))
	u, _ := a.Clone()
	defer u.Close()
	must(t, u.Merge(b))
	got, err := u.QueryStrings([]string{"both", "only-a", "only-b"})
	must(t, err)
	if fmt.Sprint(got) != "[true true true]" {
		t.Fatal(got)
	}
	must(t, a.Intersect(b))
	if !a.ContainsString("both") {
		t.Fatal("intersection lost a common key")
	}
	o.Seed = 6
	c, _ := New(o)
	defer c.Close()
	if err := u.Merge(c); !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), "seed") {
		t.Fatalf("merge of other seeds: %v", err)
	}
}

func TestScalableStagesAndParams(t *testing.T) {
	o := NewOptions(50, 0.01)
	o.Kind, o.Growth, o.Tightening = KindScalable, 2, 0.5
	f, err := New(o)
	must(t, err)
	defer f.Close()
	keys := numbered(500)
	must(t, f.AddStrings(keys))
	i, _ := f.Info()
	if i.Stages < 2 || i.Growth != 2 {
		t.Fatalf("%+v", i)
	}
	s0, err := f.StageInfo(0)
	must(t, err)
	last, err := f.StageInfo(i.Stages - 1)
	must(t, err)
	if s0.Capacity != 50 || !(last.FPRate < s0.FPRate) {
		t.Fatalf("stages %+v %+v", s0, last)
	}
	m, k, err := OptimalParams(1000000, 0.01)
	if err != nil || m != 9585059 || k != 7 {
		t.Fatal(m, k, err)
	}
	if _, _, err := OptimalParams(0, 0.01); !errors.Is(err, ErrInvalidArg) {
		t.Fatal(err)
	}
	if !math.IsNaN(ExpectedFPRate(1, 0, 1)) || ExpectedFPRate(1000, 9586, 7) > 0.011 {
		t.Fatal("expected fp rate")
	}
	// The library these tests are run against is this release's
	// (tests/version checks the literal against CMakeLists.txt).
	if Version() != "0.3.0" || VersionNumber() != 300 {
		t.Fatal(Version(), VersionNumber())
	}
}

func TestSaveLoadMap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.bloom")
	o := NewOptions(1000, 0.001)
	o.Kind, o.Hash = KindPartitioned, HashFNV1a
	f, _ := New(o)
	defer f.Close()
	must(t, f.AddString("é"))
	must(t, f.Save(path))
	l, err := Load(path)
	must(t, err)
	defer l.Close()
	if !l.Contains([]byte{0xc3, 0xa9}) {
		t.Fatal("the UTF-8 bytes of é")
	}
	m, err := Map(path)
	must(t, err)
	defer m.Close()
	if i, _ := m.Info(); !i.ReadOnly {
		t.Fatal("mapped filter not read-only")
	}
	if err := m.AddString("x"); !errors.Is(err, ErrUnsupported) {
		t.Fatal(err)
	}
	img, _ := l.Serialize()
	file, _ := os.ReadFile(path)
	if string(img) != string(file) {
		t.Fatal("serialize differs from the saved file")
	}
	if n, _ := l.SerializedSize(); n != len(img) {
		t.Fatal(n)
	}
}

func TestConcurrentAdds(t *testing.T) {
	o := NewOptions(100000, 0.01)
	o.Kind, o.Concurrent = KindBlocked, true
	f, err := New(o)
	must(t, err)
	defer f.Close()
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			keys := make([]string, 2000)
			for i := range keys {
				keys[i] = fmt.Sprintf("%d/%d", g, i)
			}
			if err := f.AddStrings(keys[:1000]); err != nil {
				t.Error(err)
			}
			for _, k := range keys[1000:] {
				if err := f.AddString(k); err != nil {
					t.Error(err)
				}
				_ = f.ContainsString(k)
			}
		}(g)
	}
	wg.Wait()
	i, _ := f.Info()
	if i.KeysAdded != 8000 {
		t.Fatalf("keys_added %d", i.KeysAdded)
	}
	for g := 0; g < 4; g++ {
		for i := 0; i < 2000; i++ {
			if !f.ContainsString(fmt.Sprintf("%d/%d", g, i)) {
				t.Fatal("lost a key")
			}
		}
	}
}

func TestFinalizerReleasesUnclosedFilters(t *testing.T) {
	before := atomic.LoadInt64(&finalized)
	for i := 0; i < 100; i++ {
		f, err := NewClassic(100000, 0.01)
		must(t, err)
		f.AddString("x")
	}
	// A closed filter's finalizer is cleared: it is not counted (nor
	// destroyed twice).
	closed, _ := NewClassic(10, 0.1)
	closed.Close()
	closed = nil
	var got int64
	for try := 0; try < 50 && got < 100; try++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		got = atomic.LoadInt64(&finalized) - before
	}
	// At least 100: a filter another test left unclosed may be counted too.
	if got < 100 {
		t.Fatalf("the finalizer closed %d of 100 unreachable filters", got)
	}
}

func TestNames(t *testing.T) {
	for _, k := range []Kind{KindClassic, KindPartitioned, KindBlocked, KindCounting, KindScalable} {
		if back, ok := KindFromName(k.String()); !ok || back != k || !k.Supported() {
			t.Fatal(k)
		}
	}
	if h, ok := HashFromName("murmur3"); !ok || h != HashMurmur3 || HashFNV1a.String() != "fnv1a" ||
		HashRedisBloom.String() != "redisbloom" {
		t.Fatal("hash names")
	}
	if _, ok := KindFromName("nope"); ok {
		t.Fatal("unknown kind accepted")
	}
	if Kind(42).String() != "kind(42)" {
		t.Fatal(Kind(42).String())
	}
}

// The window kind runs only when the loaded library has it (bloom_advance
// and a bloom_options long enough for window_ms); otherwise the test checks
// that the binding refuses it clearly.
func TestWindowKindWhereTheLibraryHasIt(t *testing.T) {
	o := NewOptions(100, 0.01)
	o.Kind = KindWindow
	if !LibraryHasAdvance() || !LibraryHasWindowMs() {
		t.Log("window kind: not in this library; checking that it is refused")
		if _, err := New(o); !errors.Is(err, ErrInvalidArg) && !errors.Is(err, ErrUnsupported) {
			t.Fatalf("window kind accepted by a library without it: %v", err)
		}
		o.WindowMs = 1000
		if _, err := New(o); !errors.Is(err, ErrUnsupported) {
			t.Fatalf("window_ms: %v", err)
		}
		f, _ := NewClassic(10, 0.1)
		defer f.Close()
		if err := f.Advance(5); !errors.Is(err, ErrUnsupported) {
			t.Fatalf("advance: %v", err)
		}
		return
	}
	o.WindowMs = 1000
	f, err := New(o)
	must(t, err)
	defer f.Close()
	must(t, f.Advance(0))
	must(t, f.AddString("early"))
	if !f.ContainsString("early") {
		t.Fatal("window lost a fresh key")
	}
	must(t, f.Advance(10000))
	o.WindowMs = 0
	c, err := New(o)
	must(t, err)
	defer c.Close()
	keys := numbered(300)
	must(t, c.AddStrings(keys))
	for _, k := range keys[250:] {
		if !c.ContainsString(k) {
			t.Fatal("count window lost a recent key")
		}
	}
}

func TestSplitBlock(t *testing.T) {
	o := NewOptions(2000, 0.001)
	o.Kind, o.SplitBlock = KindBlocked, true
	f, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for i := 0; i < 2000; i++ {
		if err := f.Add([]byte("key-" + itoa(int64(i)))); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 2000; i++ {
		if !f.ContainsString("key-" + itoa(int64(i))) {
			t.Fatalf("false negative %d", i)
		}
	}
	info, err := f.Info()
	if err != nil || !info.SplitBlock || info.Hashes != 8 {
		t.Fatalf("info %+v %v", info, err)
	}
	o.Kind = KindClassic
	if _, err := New(o); !errors.Is(err, ErrInvalidArg) {
		t.Fatalf("split blocks on classic: %v", err)
	}
}

func TestLoadTimeVersionCheck(t *testing.T) {
	if VersionNumber() < BuiltFor {
		t.Fatalf("loaded %d, built for %d: init should have panicked", VersionNumber(), BuiltFor)
	}
	if _, err := os.Stat(LibraryFile()); err != nil {
		t.Fatalf("LibraryFile() = %q: %v", LibraryFile(), err)
	}
	// An older library is refused with its file named.
	err := checkLibrary(BuiltFor-1, "/opt/old/libbloomfilter.so.1")
	if err == nil || !strings.Contains(err.Error(), "/opt/old/libbloomfilter.so.1") {
		t.Fatalf("an older library passed, or its file went unnamed: %v", err)
	}
	if checkLibrary(BuiltFor, "x") != nil || checkLibrary(BuiltFor+100, "x") != nil {
		t.Fatal("the same or a newer library was refused")
	}
}
