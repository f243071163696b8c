// SPDX-License-Identifier: Apache-2.0
package bloom

/*
#cgo pkg-config: bloom
#define _GNU_SOURCE
#include <dlfcn.h>
#include <bloom/bloom.h>

// The file the dynamic loader resolved the library's functions from.
static const char *bloomgo_library_file(void) {
	Dl_info info;
	if (dladdr((void *)bloom_version_number, &info) != 0 && info.dli_fname != NULL) return info.dli_fname;
	return "(unknown file)";
}
*/
import "C"

import "fmt"

// BuiltFor is the library release this package was compiled against (the
// header's BLOOM_VERSION_NUMBER, MAJOR*10000 + MINOR*100 + PATCH). The
// loaded library must be at least this release.
const BuiltFor = uint32(C.BLOOM_VERSION_NUMBER)

// LibraryFile is the path of the libbloomfilter the program loaded.
func LibraryFile() string { return C.GoString(C.bloomgo_library_file()) }

// checkLibrary says, at load time, when the dynamic loader found an older
// libbloomfilter.so.1 (another copy earlier on the search path, say) than
// the one this package was compiled against: its calls would behave as that
// release does, not as documented here.
func checkLibrary(loaded uint32, file string) error {
	if loaded >= BuiltFor {
		return nil
	}
	return fmt.Errorf("bloom: the library loaded from %s is version %d.%d.%d, older than %d.%d.%d, which this "+
		"package was built against: put the newer libbloomfilter.so.1 first on the loader's path "+
		"(LD_LIBRARY_PATH, or the program's RUNPATH)", file, loaded/10000, loaded/100%100, loaded%100,
		BuiltFor/10000, BuiltFor/100%100, BuiltFor%100)
}

func init() {
	if err := checkLibrary(VersionNumber(), LibraryFile()); err != nil {
		panic(err)
	}
}
