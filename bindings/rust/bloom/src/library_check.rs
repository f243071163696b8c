// SPDX-License-Identifier: Apache-2.0
//! The library the dynamic loader found must be at least the release this
//! crate was built for: a program whose loader path holds an older
//! libbloomfilter.so.1 (an earlier install in /usr/local, say) would
//! otherwise run with answers or errors of a release it was not written
//! for. Checked whenever a filter is made (one call into the library); the
//! error names the file that was loaded.

use std::ffi::CStr;
use std::os::raw::{c_char, c_int, c_void};

use crate::error::{Error, Result, Status};
use crate::params::version_number;

/// MAJOR * 10000 + MINOR * 100 + PATCH of the library release this crate
/// was built for: bloom.h's, through the generated layout.
pub const BUILT_FOR: u32 = bloom_sys::BLOOM_VERSION_MAJOR * 10000
    + bloom_sys::BLOOM_VERSION_MINOR * 100
    + bloom_sys::BLOOM_VERSION_PATCH;

/// Ok when the loaded library is at least [`BUILT_FOR`]; else a `Version`
/// error naming the file the loader picked.
pub(crate) fn check_library() -> Result<()> {
    match mismatch(version_number(), BUILT_FOR, library_file) {
        None => Ok(()),
        Some(message) => Err(Error::new(Status::Version, message)),
    }
}

fn mismatch(loaded: u32, built_for: u32, file: fn() -> String) -> Option<String> {
    if loaded >= built_for {
        return None;
    }
    let v = |n: u32| format!("{}.{}.{}", n / 10000, n / 100 % 100, n % 100);
    Some(format!(
        "the library loaded from {} is version {}, older than {}, which this crate was built \
         against: put the newer libbloomfilter.so.1 first on the loader's path (LD_LIBRARY_PATH, \
         or the program's RUNPATH)",
        file(),
        v(loaded),
        v(built_for)
    ))
}

#[repr(C)]
struct DlInfo {
    dli_fname: *const c_char,
    dli_fbase: *mut c_void,
    dli_sname: *const c_char,
    dli_saddr: *mut c_void,
}

extern "C" {
    fn dladdr(addr: *const c_void, info: *mut DlInfo) -> c_int;
}

/// The file the library's code was loaded from, or "an unknown file".
pub fn library_file() -> String {
    let mut info = DlInfo {
        dli_fname: std::ptr::null(),
        dli_fbase: std::ptr::null_mut(),
        dli_sname: std::ptr::null(),
        dli_saddr: std::ptr::null_mut(),
    };
    let addr = bloom_sys::bloom_version_number as *const c_void;
    // SAFETY: dladdr only reads addr and fills info; dli_fname, when set, is
    // a NUL-terminated string owned by the loader for the library's lifetime.
    let found = unsafe { dladdr(addr, &mut info) } != 0 && !info.dli_fname.is_null();
    if !found {
        return "an unknown file".to_string();
    }
    unsafe { CStr::from_ptr(info.dli_fname) }
        .to_string_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loaded_library_is_at_least_the_one_built_for() {
        assert!(check_library().is_ok(), "{:?}", check_library());
        assert!(library_file().contains("libbloomfilter"), "{}", library_file());
    }

    #[test]
    fn an_older_library_is_refused_with_its_file_named() {
        let message = mismatch(BUILT_FOR - 1, BUILT_FOR, || {
            "/old/libbloomfilter.so.1".to_string()
        })
        .expect("an older library must be refused");
        assert!(message.contains("/old/libbloomfilter.so.1"), "{}", message);
        assert!(mismatch(BUILT_FOR, BUILT_FOR, || unreachable!()).is_none());
        assert!(mismatch(BUILT_FOR + 1, BUILT_FOR, || unreachable!()).is_none());
    }
}
