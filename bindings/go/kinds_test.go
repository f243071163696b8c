// SPDX-License-Identifier: Apache-2.0
package bloom

import (
	"strconv"
	"testing"
)

// The kinds the library lists (bloom_kind_count / bloom_kind_at): each one
// this package names, whose capabilities it knows, and that behaves as
// they say. A kind added to the library without this package learning it
// fails here.

func filled(t *testing.T, k Kind, tune func(*Options)) (*Filter, error) {
	o := NewOptions(200, 0.01)
	o.Kind = k
	tune(&o)
	f, err := New(o)
	if err != nil {
		return nil, err
	}
	for i := 0; i < 50; i++ {
		must(t, f.AddString("k"+strconv.Itoa(i)))
	}
	t.Cleanup(func() { f.Close() })
	return f, nil
}

func TestKindsAreListedInOrder(t *testing.T) {
	kinds := Kinds()
	if len(kinds) == 0 {
		t.Fatal("no kinds")
	}
	for i := 1; i < len(kinds); i++ {
		if kinds[i] <= kinds[i-1] {
			t.Fatalf("kinds out of order: %v", kinds)
		}
	}
}

func TestEveryListedKindIsKnown(t *testing.T) {
	generated := map[Kind]bool{KindClassic: true, KindPartitioned: true, KindBlocked: true, KindCounting: true,
		KindScalable: true, KindWindow: true}
	for _, k := range Kinds() {
		if !generated[k] {
			t.Errorf("kind %d (%s) has no Kind constant here", int32(k), k)
		}
		if back, ok := KindFromName(k.String()); !ok || back != k || !k.Supported() {
			t.Errorf("kind %d: name %q does not read back", int32(k), k)
		}
		if u := k.Caps().Unknown(); u != 0 {
			t.Errorf("%s: capability bits %#x this package does not name", k, uint32(u))
		}
	}
	if Kind(0).Caps() != 0 || Kind(1000).Caps() != 0 {
		t.Error("an unknown kind has capabilities")
	}
	if s := (CapMerge | CapRemove | 0x1000).String(); s != "merge|remove|0x1000" {
		t.Error(s)
	}
}

func TestEachKindBehavesAsItsCapsSay(t *testing.T) {
	none := func(*Options) {}
	for _, k := range Kinds() {
		caps := k.Caps()
		f, err := filled(t, k, none)
		must(t, err)
		check := func(what string, cap Caps, err error) {
			if (err == nil) != caps.Has(cap) {
				t.Errorf("%s: %s with caps %v: %v", k, what, caps, err)
			}
		}
		check("remove", CapRemove, f.RemoveString("k1"))
		other, err := filled(t, k, none)
		must(t, err)
		check("merge", CapMerge, f.Merge(other))
		g, err := filled(t, k, none)
		must(t, err)
		check("intersect", CapIntersect, g.Intersect(other))
		_, err = filled(t, k, func(o *Options) { o.Concurrent = true })
		check("concurrent", CapConcurrent, err)
		_, err = filled(t, k, func(o *Options) { o.SplitBlock = true })
		check("split block", CapSplitBlock, err)
		_, err = filled(t, k, func(o *Options) { o.Hash = HashRedisBloom })
		check("redisbloom hash", CapRedisBloomHash, err)
	}
}
