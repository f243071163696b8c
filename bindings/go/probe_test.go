// SPDX-License-Identifier: Apache-2.0
package bloom

import (
	"fmt"
	"path/filepath"
	"testing"
)

// XXH3_64bits_withSeed of the first n bytes of "0123456789abcdefXYZ", from
// xxHash 0.8's C library: every length the Go hash serves, three seeds.
var xxh3Vectors = []struct {
	n    int
	seed uint64
	want uint64
}{
	{0, 0x0, 0x2d06800538d394c2},
	{1, 0x0, 0x1982e3a7bb241055},
	{2, 0x0, 0xd39af2a02494d689},
	{3, 0x0, 0x8ed2b2f360965d90},
	{4, 0x0, 0x8aa92da18edb594b},
	{5, 0x0, 0x2774a76a01b160f2},
	{6, 0x0, 0x242fced1184cf320},
	{7, 0x0, 0xa46e0ee310ee347f},
	{8, 0x0, 0x1808e40d6723f646},
	{9, 0x0, 0x3b5293ce9b5bd7d7},
	{10, 0x0, 0x6de3431b05f7c11f},
	{11, 0x0, 0x56039f6ede0c0e2a},
	{12, 0x0, 0xcc054135822ae555},
	{13, 0x0, 0xec11d3158d30a049},
	{14, 0x0, 0x774b25b2a84f55a1},
	{15, 0x0, 0x1bba6832325beacf},
	{16, 0x0, 0x64439946d8fa212d},
	{0, 0x5eed, 0x52a2d296aa031b06},
	{1, 0x5eed, 0xe1b073c353e8c599},
	{2, 0x5eed, 0x96bacf8639858b65},
	{3, 0x5eed, 0x70b040f9fffccb50},
	{4, 0x5eed, 0xbefb5c5ec1694bb3},
	{5, 0x5eed, 0xe790e7a98ab931a0},
	{6, 0x5eed, 0xf8044814d344ad9a},
	{7, 0x5eed, 0xb0951a11a3c30a4d},
	{8, 0x5eed, 0x3f615c5d7b44508f},
	{9, 0x5eed, 0x67447b825ad074a3},
	{10, 0x5eed, 0xe1f07f6a917b6c3f},
	{11, 0x5eed, 0xd7a7b5ac9a4daef4},
	{12, 0x5eed, 0x169af7f4c3e7f596},
	{13, 0x5eed, 0x490aa181a68c4b54},
	{14, 0x5eed, 0x8be3e393bd094bcd},
	{15, 0x5eed, 0x0de1c25a30b9b2ce},
	{16, 0x5eed, 0xedeb1cc858f87a35},
	{0, 0xffffffffffffffff, 0x4c093276ae47a555},
	{1, 0xffffffffffffffff, 0xf62f07f44b125d9c},
	{2, 0xffffffffffffffff, 0x947cd166188d29ab},
	{3, 0xffffffffffffffff, 0x4ac0274f2be827dc},
	{4, 0xffffffffffffffff, 0xb6ba7f43dd0ef682},
	{5, 0xffffffffffffffff, 0x28a6d6dd2ab888b5},
	{6, 0xffffffffffffffff, 0x09a9677c2f09c18c},
	{7, 0xffffffffffffffff, 0x05bf66a2b5af8f7b},
	{8, 0xffffffffffffffff, 0xed22713e2d885836},
	{9, 0xffffffffffffffff, 0x4c88cee4e8423edf},
	{10, 0xffffffffffffffff, 0x3f0efc818ffc3eb0},
	{11, 0xffffffffffffffff, 0xf4a09bf567d426b1},
	{12, 0xffffffffffffffff, 0x9404cf4cee2a2455},
	{13, 0xffffffffffffffff, 0xdcbc6beafe95b55c},
	{14, 0xffffffffffffffff, 0x602b6c8bbacc7fbc},
	{15, 0xffffffffffffffff, 0x02cdeec7ec6ff318},
	{16, 0xffffffffffffffff, 0xfa7c260ee4571142},
}

func TestXxh3(t *testing.T) {
	const src = "0123456789abcdefXYZ"
	for _, v := range xxh3Vectors {
		if got := xxh3Short(src[:v.n], v.seed); got != v.want {
			t.Errorf("string, %d bytes, seed %#x: %#x, want %#x", v.n, v.seed, got, v.want)
		}
		if got := xxh3Short([]byte(src[:v.n]), v.seed); got != v.want {
			t.Errorf("bytes, %d bytes, seed %#x: %#x, want %#x", v.n, v.seed, got, v.want)
		}
	}
}

// The Go-side query answers exactly as bloom_query does, for blocked
// filters of several k, seeds, split blocks and the concurrent flag, on
// keys of every length up to 16 (and longer ones, which call the library):
// the filters are overfilled, so many absent keys answer yes, and a hash or
// layout slip would change some answers.
func TestNativeQuery(t *testing.T) {
	type shape struct {
		hashes     uint32
		split      bool
		concurrent bool
		seed       uint64
	}
	shapes := []shape{{0, false, false, 0}, {0, false, false, 0x5eed}, {1, false, false, 0}, {12, false, false, 7},
		{17, false, true, 0}, {40, false, false, 0}, {0, true, false, 0}, {0, true, true, 0x5eed}}
	for _, s := range shapes {
		o := NewOptions(500, 0.01)
		o.Kind, o.Hashes, o.SplitBlock, o.Concurrent, o.Seed = KindBlocked, s.hashes, s.split, s.concurrent, s.seed
		f, err := New(o)
		must(t, err)
		if f.probe == nil {
			t.Fatalf("%+v: no Go-side probe", s)
		}
		key := func(i int) string { return fmt.Sprintf("%x-key-%d-abcdefghijklmnopqrstu", i, i*7919)[:i%21] }
		for i := 0; i < 3000; i += 2 {
			must(t, f.AddString(key(i)))
		}
		yes := matchQueries(t, fmt.Sprintf("%+v", s), f, 6000, key)
		if yes == 6000 {
			t.Fatalf("%+v: every key answered yes, the check proves nothing", s)
		}
		must(t, f.Close())
		if _, err := f.QueryString("a"); err != ErrClosed {
			t.Fatalf("query after Close: %v", err)
		}
	}
	// Loaded, mapped and cloned filters answer in Go too, over their own bits.
	o := NewOptions(300, 0.05)
	o.Kind = KindBlocked
	f, err := New(o)
	must(t, err)
	defer f.Close()
	for i := 0; i < 600; i++ {
		must(t, f.AddString(fmt.Sprint("m", i)))
	}
	path := filepath.Join(t.TempDir(), "b.bloom")
	must(t, f.Save(path))
	l, err := Load(path)
	must(t, err)
	defer l.Close()
	m, err := Map(path)
	must(t, err)
	defer m.Close()
	cl, err := f.Clone()
	must(t, err)
	defer cl.Close()
	for _, g := range []*Filter{l, m, cl} {
		if g.probe == nil {
			t.Fatal("a loaded, mapped or cloned blocked filter has no Go-side probe")
		}
		for i := 0; i < 2000; i++ {
			k := fmt.Sprint("m", i)
			want, err := answer(keyOp(g, opQuery, k))
			must(t, err)
			if got := g.ContainsString(k); got != want || (i < 600 && !got) {
				t.Fatalf("key %q: Go %v, bloom_query %v", k, got, want)
			}
		}
	}

	c, err := New(NewOptions(100, 0.01))
	must(t, err)
	defer c.Close()
	if c.probe != nil {
		t.Fatal("a classic filter has a Go-side probe")
	}
}

// matchQueries queries key(0..n-1) through Query, QueryString and
// bloom_query: all three must agree. It returns how many answered yes.
func matchQueries(t *testing.T, what string, f *Filter, n int, key func(int) string) int {
	t.Helper()
	yes := 0
	for i := 0; i < n; i++ {
		k := key(i)
		want, err := answer(keyOp(f, opQuery, k))
		must(t, err)
		got, err := f.QueryString(k)
		must(t, err)
		gotBytes, err := f.Query([]byte(k))
		must(t, err)
		if got != want || gotBytes != want {
			t.Fatalf("%s key %q: Go %v / %v, bloom_query %v", what, k, got, gotBytes, want)
		}
		if want {
			yes++
		}
	}
	return yes
}
