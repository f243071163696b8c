// SPDX-License-Identifier: Apache-2.0
package bloom_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	bloom "bloom/bindings/go"
)

func Example() {
	f, err := bloom.New(bloom.NewOptions(10000, 0.001))
	if err != nil {
		panic(err)
	}
	defer f.Close()
	f.AddString("alice")
	f.AddStrings([]string{"bob", "carol"})
	f.Add([]byte{0, 'r', 'a', 'w', 0xff})
	answers, _ := f.QueryStrings([]string{"bob", "zed"})
	fmt.Println(f.ContainsString("alice"), answers)

	// Save, and load the file back (any language reads it).
	path := filepath.Join(os.TempDir(), "bloom-go-example.bloom")
	defer os.Remove(path)
	if err := f.Save(path); err != nil {
		panic(err)
	}
	g, err := bloom.Load(path)
	if err != nil {
		panic(err)
	}
	defer g.Close()
	info, _ := g.Info()
	fmt.Println(info.Kind, info.KeysAdded, g.ContainsString("carol"))

	// Errors carry the C status and message; errors.Is matches by status.
	_, err = bloom.New(bloom.NewOptions(10, 1.5))
	fmt.Println(errors.Is(err, bloom.ErrInvalidArg))
	// Output:
	// true [true false]
	// classic 4 true
	// true
}
