// SPDX-License-Identifier: Apache-2.0
package bloom

// The conformance suite (tests/conformance/cases.json) through this package:
// per case create, add (batch or single), remove, every query single and
// batch, every recorded info field, the image's size and SHA-256, then the
// answers again from a deserialized copy (byte-identical image), a saved and
// loaded file and a mapped one; then the golden files.
// BLOOM_CONFORMANCE_OUT: write each image as <case>.bloom there;
// BLOOM_CONFORMANCE_IN: also check the images another language wrote there;
// BLOOM_SOURCE_DIR: the bloom checkout holding tests/conformance and
// tests/golden (default: the one this binding sits in).
// BLOOM_CONFORMANCE_CASES: another cases.json.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

type confOptions map[string]json.RawMessage

type confCase struct {
	Name        string                     `json:"name"`
	Options     confOptions                `json:"options"`
	Add         []string                   `json:"add"`
	AddBatch    bool                       `json:"add_batch"`
	Remove      []string                   `json:"remove"`
	Query       [][2]json.RawMessage       `json:"query"`
	Info        map[string]json.RawMessage `json:"info"`
	ImageSize   int                        `json:"image_size"`
	ImageSHA256 string                     `json:"image_sha256"`
}

type confDoc struct {
	Format int        `json:"format"`
	Cases  []confCase `json:"cases"`
	Golden []struct {
		File  string               `json:"file"`
		Query [][2]json.RawMessage `json:"query"`
	} `json:"golden"`
}

// The suite's files: BLOOM_SOURCE_DIR names a bloom checkout (its
// tests/conformance/cases.json and tests/golden/); without it, the checkout
// this binding sits in. BLOOM_CONFORMANCE_CASES names another cases file;
// its golden files are read from the checkout that holds it. A missing
// cases file fails the test, naming the variable: it is never skipped.
func sourceDir() string {
	if dir := os.Getenv("BLOOM_SOURCE_DIR"); dir != "" {
		return dir
	}
	if cases := os.Getenv("BLOOM_CONFORMANCE_CASES"); cases != "" {
		return filepath.Join(filepath.Dir(cases), "..", "..")
	}
	return filepath.Join("..", "..")
}

func casesPath() string {
	if cases := os.Getenv("BLOOM_CONFORMANCE_CASES"); cases != "" {
		return cases
	}
	return filepath.Join(sourceDir(), "tests", "conformance", "cases.json")
}

func decodeKey(k string) ([]byte, error) {
	switch {
	case strings.HasPrefix(k, "s:"):
		return []byte(k[2:]), nil
	case strings.HasPrefix(k, "x:"):
		return hex.DecodeString(k[2:])
	}
	return nil, fmt.Errorf("key %q is neither s: nor x:", k)
}

type query struct {
	name string
	key  []byte
	want bool
}

func decodeQuery(raw [][2]json.RawMessage) ([]query, error) {
	out := make([]query, len(raw))
	for i, pair := range raw {
		if err := json.Unmarshal(pair[0], &out[i].name); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(pair[1], &out[i].want); err != nil {
			return nil, err
		}
		k, err := decodeKey(out[i].name)
		if err != nil {
			return nil, err
		}
		out[i].key = k
	}
	return out, nil
}

func confOpts(raw confOptions) (Options, error) {
	o := DefaultOptions()
	for name, v := range raw {
		var err error
		switch name {
		case "kind":
			var s string
			err = json.Unmarshal(v, &s)
			k, ok := KindFromName(s)
			if err == nil && !ok {
				err = fmt.Errorf("unknown kind %q", s)
			}
			o.Kind = k
		case "hash":
			var s string
			err = json.Unmarshal(v, &s)
			h, ok := HashFromName(s)
			if err == nil && !ok {
				err = fmt.Errorf("unknown hash %q", s)
			}
			o.Hash = h
		case "capacity":
			err = json.Unmarshal(v, &o.Capacity)
		case "fp_rate":
			err = json.Unmarshal(v, &o.FPRate)
		case "seed":
			err = json.Unmarshal(v, &o.Seed)
		case "bits":
			err = json.Unmarshal(v, &o.Bits)
		case "hashes":
			err = json.Unmarshal(v, &o.Hashes)
		case "growth":
			err = json.Unmarshal(v, &o.Growth)
		case "tightening":
			err = json.Unmarshal(v, &o.Tightening)
		case "counter_bits":
			err = json.Unmarshal(v, &o.CounterBits)
		case "window_ms":
			err = json.Unmarshal(v, &o.WindowMs)
		case "flags":
			var flags []string
			err = json.Unmarshal(v, &flags)
			for _, fl := range flags {
				switch fl {
				case "concurrent":
					o.Concurrent = true
				case "plain_double_hashing":
					o.PlainDoubleHashing = true
				default:
					err = fmt.Errorf("unknown flag %q", fl)
				}
			}
		default:
			err = fmt.Errorf("unknown option %q", name)
		}
		if err != nil {
			return o, fmt.Errorf("option %s: %w", name, err)
		}
	}
	return o, nil
}

func checkAnswers(t *testing.T, f *Filter, qs []query, where string) {
	t.Helper()
	keys := make([][]byte, len(qs))
	for i, q := range qs {
		keys[i] = q.key
	}
	batch, err := f.QueryBatch(keys)
	if err != nil {
		t.Errorf("%s: query batch: %v", where, err)
		return
	}
	for i, q := range qs {
		got, err := f.Query(q.key)
		if err != nil || got != q.want {
			t.Errorf("%s: query %s = %v (%v), expected %v", where, q.name, got, err, q.want)
		}
		if batch[i] != q.want {
			t.Errorf("%s: batch query %s = %v, expected %v", where, q.name, batch[i], q.want)
		}
	}
}

func checkInfo(t *testing.T, f *Filter, want map[string]json.RawMessage, where string) {
	t.Helper()
	i, err := f.Info()
	if err != nil {
		t.Errorf("%s: info: %v", where, err)
		return
	}
	flags := []string{}
	if i.Concurrent {
		flags = append(flags, "concurrent")
	}
	if i.PlainDoubleHashing {
		flags = append(flags, "plain_double_hashing")
	}
	have := map[string]interface{}{
		"kind": i.Kind.String(), "hash": i.Hash.String(), "seed": i.Seed, "flags": flags, "hashes": uint64(i.Hashes),
		"bits": i.Bits, "bytes": i.Bytes, "capacity": i.Capacity, "keys_added": i.KeysAdded,
		"stages": uint64(i.Stages), "counter_bits": uint64(i.CounterBits),
	}
	for name, raw := range want {
		h, ok := have[name]
		if !ok {
			t.Errorf("%s: info field %q is unknown to this runner", where, name)
			continue
		}
		// Decode the expectation into the type of our value and compare.
		w := reflect.New(reflect.TypeOf(h))
		if err := json.Unmarshal(raw, w.Interface()); err != nil {
			t.Errorf("%s: info.%s: %v", where, name, err)
			continue
		}
		if !reflect.DeepEqual(w.Elem().Interface(), h) {
			t.Errorf("%s: info.%s = %v, expected %s", where, name, h, raw)
		}
	}
}

func runCase(t *testing.T, c confCase, tmp string) {
	opts, err := confOpts(c.Options)
	if err != nil {
		t.Fatal(err) // an unknown kind or option fails the case, loudly
	}
	f, err := New(opts)
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	defer f.Close()
	keys := make([][]byte, len(c.Add))
	for i, k := range c.Add {
		if keys[i], err = decodeKey(k); err != nil {
			t.Fatal(err)
		}
	}
	if c.AddBatch {
		if err := f.AddBatch(keys); err != nil {
			t.Fatalf("add batch: %v", err)
		}
	} else {
		for _, k := range keys {
			if err := f.Add(k); err != nil {
				t.Fatalf("add: %v", err)
			}
		}
	}
	for _, r := range c.Remove {
		k, err := decodeKey(r)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Remove(k); err != nil {
			t.Fatalf("remove %s: %v", r, err)
		}
	}
	qs, err := decodeQuery(c.Query)
	if err != nil {
		t.Fatal(err)
	}
	checkAnswers(t, f, qs, c.Name)
	checkInfo(t, f, c.Info, c.Name)
	image, err := f.Serialize()
	if err != nil {
		t.Fatal(err)
	}
	if len(image) != c.ImageSize {
		t.Errorf("image size %d, expected %d", len(image), c.ImageSize)
	}
	if sum := sha256.Sum256(image); hex.EncodeToString(sum[:]) != c.ImageSHA256 {
		t.Errorf("image sha256 differs")
	}
	reopen := func(what string, g *Filter, err error) {
		if err != nil {
			t.Errorf("%s: %v", what, err)
			return
		}
		defer g.Close()
		checkAnswers(t, g, qs, c.Name+" ("+what+")")
		if img, err := g.Serialize(); err != nil || !bytes.Equal(img, image) {
			t.Errorf("%s: image has other bytes (%v)", what, err)
		}
	}
	g, err := Deserialize(image)
	reopen("deserialized", g, err)
	path := filepath.Join(tmp, c.Name+".bloom")
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
	g, err = Load(path)
	reopen("loaded", g, err)
	g, err = Map(path)
	reopen("mapped", g, err)
	if out := os.Getenv("BLOOM_CONFORMANCE_OUT"); out != "" {
		if err := f.Save(filepath.Join(out, c.Name+".bloom")); err != nil {
			t.Error(err)
		}
	}
	if in := os.Getenv("BLOOM_CONFORMANCE_IN"); in != "" {
		g, err = Load(filepath.Join(in, c.Name+".bloom"))
		reopen("from "+in, g, err)
	}
}

func TestConformance(t *testing.T) {
	path := casesPath()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: set BLOOM_SOURCE_DIR to a bloom checkout (the directory holding tests/conformance)", err)
	}
	var doc confDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if doc.Format != 1 {
		t.Fatalf("%s: unknown format %d", path, doc.Format)
	}
	tmp := t.TempDir()
	for _, c := range doc.Cases {
		c := c
		t.Run(c.Name, func(t *testing.T) { runCase(t, c, tmp) })
	}
	for _, g := range doc.Golden {
		g := g
		t.Run(g.File, func(t *testing.T) {
			f, err := Load(filepath.Join(sourceDir(), g.File))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			qs, err := decodeQuery(g.Query)
			if err != nil {
				t.Fatal(err)
			}
			checkAnswers(t, f, qs, g.File)
		})
	}
	if !t.Failed() {
		t.Logf("conformance (go, library %s): %d cases and %d golden files pass", Version(), len(doc.Cases), len(doc.Golden))
	}
}
