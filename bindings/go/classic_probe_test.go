// SPDX-License-Identifier: Apache-2.0
package bloom

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"
)

// XXH3_128bits_withSeed of the first n bytes of "0123456789abcdefXYZ", from
// xxHash 0.8's C library, as (low64, high64): every length the Go hash
// serves, four seeds.
var xxh3128Vectors = []struct {
	n      int
	seed   uint64
	lo, hi uint64
}{
	{0, 0, 0x6001c324468d497f, 0x99aa06d3014798d8},
	{1, 0, 0x1982e3a7bb241055, 0xce8f15881282a400},
	{2, 0, 0xd39af2a02494d689, 0x1b73ede393477e82},
	{3, 0, 0x8ed2b2f360965d90, 0x93aec821685cebc1},
	{4, 0, 0x824b77d5917b737b, 0xe7f00c8d576b45ee},
	{5, 0, 0xbd3f18dbeff4dd2e, 0x44f0ad485d404389},
	{6, 0, 0x37392e792aff50d6, 0x97a37df370888cb0},
	{7, 0, 0x78cf37fd0bc183c4, 0x6343e550f79608e2},
	{8, 0, 0xf455a8e446810217, 0x647579ea30e43a75},
	{9, 0, 0xe23a7f36c9118966, 0x7ed631159e915ea8},
	{10, 0, 0x49655fc9692165fb, 0xe353667619ec664b},
	{11, 0, 0xc9662691fd42514d, 0x2547d463e0354107},
	{12, 0, 0x7780599838f348c8, 0x4cbc2b55015fe646},
	{13, 0, 0x0e7a554282142858, 0x3d83c003785c6fbc},
	{14, 0, 0xcb6c2c97e7691c1c, 0xef1fcb96d6d50fba},
	{15, 0, 0x258e33052819616f, 0xa15e87058de69926},
	{16, 0, 0x0befb4873dbe58f8, 0xccba8085a0434e9e},
	{0, 0x5eed, 0x157ac993022accd8, 0x4b73aea63d09b8a3},
	{1, 0x5eed, 0xe1b073c353e8c599, 0xbca2e9dc28669f9f},
	{2, 0x5eed, 0x96bacf8639858b65, 0x1494a6d3135b7d8a},
	{3, 0x5eed, 0x70b040f9fffccb50, 0xc6f0a7485d74b066},
	{4, 0x5eed, 0xd21ddd17e50a13cf, 0xcc7f2cc0b1b990f2},
	{5, 0x5eed, 0x3ce00400cf699a77, 0x86f431bd79f63c98},
	{6, 0x5eed, 0x9cb4ca412de7f017, 0xac5cead5220c26fa},
	{7, 0x5eed, 0x4d0ab5c0d3a33137, 0xe5b8ad2cfbdc1d6d},
	{8, 0x5eed, 0xe9c2f797e7e0de8e, 0xed70d8c7d0ddab27},
	{9, 0x5eed, 0xad532da6321bdf1d, 0xb0fca9785a0c2263},
	{10, 0x5eed, 0x21a2c761c831a777, 0xb3002a089baa072d},
	{11, 0x5eed, 0xfa24f06a3a86933c, 0x9cb49d12db2b08d0},
	{12, 0x5eed, 0xc53cccdf208931bb, 0x3c418e04d3789b5b},
	{13, 0x5eed, 0x5cc178d374329f55, 0xc604638d8ef98520},
	{14, 0x5eed, 0xddff9de50accfba3, 0x44a97132653cf646},
	{15, 0x5eed, 0xba2418194d2eba7f, 0x905e79379ea02251},
	{16, 0x5eed, 0xa0d03a0cb301cfda, 0xfe1ead160291da60},
	{0, 0xffffffffffffffff, 0x2d10110a247d19dd, 0x5334ec22748b5fcd},
	{1, 0xffffffffffffffff, 0xf62f07f44b125d9c, 0xa37a06fd3b644eef},
	{2, 0xffffffffffffffff, 0x947cd166188d29ab, 0xa3c512c7094258f5},
	{3, 0xffffffffffffffff, 0x4ac0274f2be827dc, 0x1d2c1ba5aa042aa6},
	{4, 0xffffffffffffffff, 0xb4a9f8025518cc63, 0xa1a6393f2f672786},
	{5, 0xffffffffffffffff, 0xe9346bbd7cc88bae, 0xe20c3289e795999d},
	{6, 0xffffffffffffffff, 0x270c3480ff866085, 0x91804b903097ff25},
	{7, 0xffffffffffffffff, 0xd0a035a6bfd3eaa1, 0xbf3502f67b713951},
	{8, 0xffffffffffffffff, 0x598d72b288502f1a, 0xe9ae5d7b9844b609},
	{9, 0xffffffffffffffff, 0x55d605d65dd8afbf, 0xfbfaafe33508b297},
	{10, 0xffffffffffffffff, 0x7011d555e03f9521, 0x048ae434e69155dd},
	{11, 0xffffffffffffffff, 0xf173afad25ef6186, 0xba467b963abc6bb3},
	{12, 0xffffffffffffffff, 0xbb9d53fa9292a0fb, 0xa4b8ce2a42730f07},
	{13, 0xffffffffffffffff, 0x566bef3ca82973b8, 0x69d8f9f30ac7a049},
	{14, 0xffffffffffffffff, 0x7b511ac1108aabf0, 0x28f3e532368b5617},
	{15, 0xffffffffffffffff, 0x3fd01326ed32f3d8, 0x7931cf2b10b87643},
	{16, 0xffffffffffffffff, 0x46ba6650c9744cef, 0x45f79dc930874d06},
	{0, 0x9e3779b97f4a7c15, 0x4ca5176998171787, 0xd142977a2cca554b},
	{1, 0x9e3779b97f4a7c15, 0x1fabd44aab136385, 0x7e7ed43281fb8fb3},
	{2, 0x9e3779b97f4a7c15, 0x89d32b6afbd28c3a, 0x2bc362f68a806ee1},
	{3, 0x9e3779b97f4a7c15, 0xd0e976d06adacad7, 0x6aee5a2a3fd9e775},
	{4, 0x9e3779b97f4a7c15, 0x563b7dbf3c917488, 0x5ed9bdfe7cb8f705},
	{5, 0x9e3779b97f4a7c15, 0x5ffc4de0894005ae, 0x5299388c8f9481d7},
	{6, 0x9e3779b97f4a7c15, 0xd8a55146b0b7bbf6, 0xc61ac6130900d552},
	{7, 0x9e3779b97f4a7c15, 0xbe9ab5187fe731ea, 0xacfe4db590118704},
	{8, 0x9e3779b97f4a7c15, 0xfb7ee81886a649af, 0xbdc0be3fd42b82de},
	{9, 0x9e3779b97f4a7c15, 0x1c8b77ae8ceffb82, 0x94f503a2b2222071},
	{10, 0x9e3779b97f4a7c15, 0x774c69926b0a4890, 0x2ce4f06a0d1d686c},
	{11, 0x9e3779b97f4a7c15, 0x6881bb9d6556fdc8, 0xb34864101d6028b5},
	{12, 0x9e3779b97f4a7c15, 0xde48ed0ba4f9cd3f, 0x87d601fed6ee00ee},
	{13, 0x9e3779b97f4a7c15, 0xf0e3b40d5d8d48f3, 0xf35b262290d7b161},
	{14, 0x9e3779b97f4a7c15, 0xae6fe3f8ded252c1, 0xb0cac912b6b8458e},
	{15, 0x9e3779b97f4a7c15, 0x5a8cc02eaf86caba, 0x0cd55af54ca587ce},
	{16, 0x9e3779b97f4a7c15, 0x31d80e51a35c5e62, 0x3410c252721fb447},
}

func TestXxh3128(t *testing.T) {
	const src = "0123456789abcdefXYZ"
	for _, v := range xxh3128Vectors {
		if lo, hi := xxh3Short128(src[:v.n], v.seed); lo != v.lo || hi != v.hi {
			t.Errorf("string, %d bytes, seed %#x: %#x %#x, want %#x %#x", v.n, v.seed, lo, hi, v.lo, v.hi)
		}
		if lo, hi := xxh3Short128([]byte(src[:v.n]), v.seed); lo != v.lo || hi != v.hi {
			t.Errorf("bytes, %d bytes, seed %#x: %#x %#x, want %#x %#x", v.n, v.seed, lo, hi, v.lo, v.hi)
		}
	}
}

type classicShape struct {
	capacity uint64
	bits     uint64 // explicit m, or 0
	hashes   uint32
	plain    bool // PlainDoubleHashing
	seed     uint64
}

// Small filters probe with mixed values and large ones without
// (configure.cpp); tiny m puts many probes on one word; k = 1 and 40 bound
// the probe loop.
var classicShapes = []classicShape{
	{1, 0, 0, false, 0}, {100, 0, 0, false, 0x5eed}, {5000, 0, 1, false, 0}, {5000, 0, 12, true, 7},
	{5000, 0, 40, false, 0}, {200000, 0, 0, false, 0}, {200000, 0, 0, true, ^uint64(0)},
	{100, 1, 3, false, 0}, {100, 70, 1, true, 0}, {100, 129, 5, false, 3},
}

func newClassicShape(t *testing.T, s classicShape) *Filter {
	t.Helper()
	o := NewOptions(s.capacity, 0.01)
	o.Bits, o.Hashes, o.PlainDoubleHashing, o.Seed = s.bits, s.hashes, s.plain, s.seed
	f, err := New(o)
	must(t, err)
	if f.classic == nil || !f.classic.adds {
		t.Fatalf("%+v: a classic XXH3 filter does not query and add in Go", s)
	}
	return f
}

// The shapes cover both probe schemes, or the checks below miss one.
func TestClassicShapesCoverBothSchemes(t *testing.T) {
	mixed, unmixed := false, false
	for _, s := range classicShapes {
		f := newClassicShape(t, s)
		if f.classic.mixed {
			mixed = true
		} else {
			unmixed = true
		}
		if f.classic.enhanced == s.plain {
			t.Fatalf("%+v: enhanced %v", s, f.classic.enhanced)
		}
		must(t, f.Close())
	}
	if !mixed || !unmixed {
		t.Fatalf("mixed probes covered %v, unmixed %v", mixed, unmixed)
	}
}

// Go adds of classic filters leave the bits and the count bloom_add
// leaves (Info read first, then the whole image); every key is then found.
func TestClassicNativeAddMatchesBloomAdd(t *testing.T) {
	for _, s := range classicShapes {
		n := int(s.capacity) * 2
		if n > 60000 {
			n = 60000
		}
		what := fmt.Sprintf("%+v", s)
		g, l := newClassicShape(t, s), newClassicShape(t, s)
		fillInGo(t, what, g, n)
		for i := 0; i < n; i++ {
			must(t, status(keyOp(l, opAdd, addKeyOf(i))))
		}
		matchAdded(t, what, g, l, n)
	}
}

// Go queries answer as bloom_query, on filters filled to about half their
// capacity or more (many absent keys answer yes, many no: a hash or probe
// slip would change some answers; with m = 1 every key answers yes).
func TestClassicNativeQuery(t *testing.T) {
	for _, s := range classicShapes {
		f := newClassicShape(t, s)
		n := int(s.capacity) + 1
		for i := 0; i < n; i += 2 {
			must(t, status(keyOp(f, opAdd, addKeyOf(i))))
		}
		yes := matchQueries(t, fmt.Sprintf("%+v", s), f, 2*n+2000, addKeyOf)
		if (yes == 2*n+2000 && f.classic.m > 1) || yes == 0 {
			t.Fatalf("%+v: %d keys of %d answered yes, the check proves nothing", s, yes, 2*n+2000)
		}
		must(t, f.Close())
		if _, err := f.QueryString("a"); err != ErrClosed {
			t.Fatalf("query after Close: %v", err)
		}
	}
}

// TestAndAdd in Go answers and counts as bloom_test_and_add (a present
// key writes nothing and is not counted), mixed with Add, over keys that
// repeat.
func TestClassicNativeTestAndAddMatchesLibrary(t *testing.T) {
	for _, s := range classicShapes {
		matchTestAndAdd(t, fmt.Sprintf("%+v", s), newClassicShape(t, s), newClassicShape(t, s),
			int(s.capacity)*3+50, int64(s.capacity)+int64(s.hashes))
	}
}

// Concurrent classic filters query in Go and add through the library;
// mapped ones query in Go and refuse adds; loaded and cloned ones do both
// in Go, and a save made with adds pending holds them; other hashers stay
// in the library.
func TestClassicFiltersThatKeepTheLibrary(t *testing.T) {
	o := NewOptions(1000, 0.01)
	o.Concurrent = true
	c, err := New(o)
	must(t, err)
	defer c.Close()
	if c.classic == nil || c.classic.adds {
		t.Fatal("a concurrent classic filter queries in Go and adds through the library")
	}
	must(t, c.AddString("a"))
	if ok, err := c.TestAndAddString("b"); err != nil || ok {
		t.Fatalf("TestAndAdd of a new key: %v, %v", ok, err)
	}
	if c.pending != 0 || infoOf(t, c).KeysAdded != 2 || !c.ContainsString("a") || !c.ContainsString("b") {
		t.Fatal("a concurrent filter's adds are not the library's")
	}

	g := newClassicShape(t, classicShapes[5])
	for i := 0; i < 100; i++ {
		must(t, g.AddString(fmt.Sprint("m", i)))
	}
	path := filepath.Join(t.TempDir(), "c.bloom")
	must(t, g.Save(path)) // records the pending adds first
	must(t, g.Close())
	m, err := Map(path)
	must(t, err)
	defer m.Close()
	if m.classic == nil || m.classic.adds {
		t.Fatal("a mapped classic filter queries in Go and does not add there")
	}
	if err := m.AddString("x"); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("Add to a mapped filter: %v, want ErrUnsupported", err)
	}
	if _, err := m.TestAndAddString("x"); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("TestAndAdd on a mapped filter: %v, want ErrUnsupported", err)
	}
	l, err := Load(path)
	must(t, err)
	defer l.Close()
	cl, err := m.Clone()
	must(t, err)
	defer cl.Close()
	for _, f := range []*Filter{m, l, cl} {
		if infoOf(t, f).KeysAdded != 100 {
			t.Fatal("the saved file lost adds made in Go")
		}
		for i := 0; i < 100; i++ {
			if !f.ContainsString(fmt.Sprint("m", i)) {
				t.Fatal("false negative in a saved classic filter")
			}
		}
	}
	for _, f := range []*Filter{l, cl} {
		if !f.classic.adds {
			t.Fatal("a loaded or cloned classic filter does not add in Go")
		}
		must(t, f.AddString("x"))
		if infoOf(t, f).KeysAdded != 101 || !f.ContainsString("x") {
			t.Fatal("a loaded or cloned classic filter lost an add")
		}
	}

	for _, h := range []Hash{HashMurmur3, HashFNV1a} {
		o := NewOptions(100, 0.01)
		o.Hash = h
		f, err := New(o)
		must(t, err)
		if f.classic != nil {
			t.Fatalf("a classic filter hashing with %v probes in Go", h)
		}
		must(t, f.Close())
	}
}
