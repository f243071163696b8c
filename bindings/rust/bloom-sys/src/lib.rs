// SPDX-License-Identifier: Apache-2.0
//! Raw FFI declarations of bloom's C API, `include/bloom/bloom.h` (library
//! `libbloomfilter`, pkg-config name `bloom`).
//!
//! Everything here is `unsafe` and mirrors the header one to one; the safe
//! API is the `bloom` crate. The constants and the `#[repr(C)]` structs are
//! generated from the header (`src/layout.rs`); the functions are declared
//! by hand. The header's rules apply unchanged: call [`bloom_options_init`]
//! before filling options, set `struct_size` of a [`bloom_info`] before
//! [`bloom_get_info`], release every handle with [`bloom_destroy`], read
//! [`bloom_last_error`] on the thread whose call failed.
//!
//! The window kind ([`BLOOM_KIND_WINDOW`], [`bloom_options::window_ms`],
//! `bloom_advance`) is declared for libraries that have it. A library built
//! before it has a shorter `bloom_options` ([`bloom_options_size`] tells) and
//! no `bloom_advance` symbol, so that function is looked up at run time by
//! [`bloom_advance_fn`] instead of being linked: a binary built with this
//! crate still loads against an older library.
#![allow(non_camel_case_types)]

use std::sync::atomic::{AtomicPtr, AtomicU8, Ordering};

// std::os::raw, not core::ffi: core::ffi::c_char needs Rust 1.64, and this
// crate builds with Debian 12's 1.63.
pub use std::os::raw::{c_char, c_int, c_uint, c_void};

// Constants and structs, generated from bloom.h by
// scripts/gen_bindings_layout.py (a ctest test fails when it is stale).
mod layout;
pub use layout::*;

/// The opaque `bloom_filter`: only ever handled through a pointer.
#[repr(C)]
pub struct bloom_filter {
    _private: [u8; 0],
}

extern "C" {
    pub fn bloom_options_init(o: *mut bloom_options);
    pub fn bloom_options_size() -> usize;

    pub fn bloom_create(o: *const bloom_options, out: *mut *mut bloom_filter) -> bloom_status;
    pub fn bloom_destroy(f: *mut bloom_filter);
    pub fn bloom_clone(f: *const bloom_filter, out: *mut *mut bloom_filter) -> bloom_status;
    pub fn bloom_clear(f: *mut bloom_filter) -> bloom_status;

    pub fn bloom_add(f: *mut bloom_filter, key: *const c_void, len: usize) -> bloom_status;
    pub fn bloom_query(f: *const bloom_filter, key: *const c_void, len: usize) -> c_int;
    pub fn bloom_test_and_add(f: *mut bloom_filter, key: *const c_void, len: usize) -> c_int;
    pub fn bloom_remove(f: *mut bloom_filter, key: *const c_void, len: usize) -> bloom_status;
    pub fn bloom_add_batch(
        f: *mut bloom_filter,
        keys: *const *const c_void,
        lens: *const usize,
        n: usize,
    ) -> bloom_status;
    pub fn bloom_query_batch(
        f: *const bloom_filter,
        keys: *const *const c_void,
        lens: *const usize,
        n: usize,
        results: *mut u8,
    ) -> bloom_status;

    pub fn bloom_merge(dst: *mut bloom_filter, src: *const bloom_filter) -> bloom_status;
    pub fn bloom_intersect(dst: *mut bloom_filter, src: *const bloom_filter) -> bloom_status;

    pub fn bloom_save(f: *const bloom_filter, path: *const c_char) -> bloom_status;
    pub fn bloom_load(path: *const c_char, out: *mut *mut bloom_filter) -> bloom_status;
    pub fn bloom_map(path: *const c_char, out: *mut *mut bloom_filter) -> bloom_status;
    pub fn bloom_serialized_size(f: *const bloom_filter, size: *mut usize) -> bloom_status;
    pub fn bloom_serialize(
        f: *const bloom_filter,
        buf: *mut c_void,
        cap: usize,
        written: *mut usize,
    ) -> bloom_status;
    pub fn bloom_deserialize(buf: *const c_void, len: usize, out: *mut *mut bloom_filter) -> bloom_status;

    pub fn bloom_get_info(f: *const bloom_filter, out: *mut bloom_info) -> bloom_status;
    pub fn bloom_info_size() -> usize;
    pub fn bloom_get_stage_info(f: *const bloom_filter, stage: u32, out: *mut bloom_info) -> bloom_status;
    pub fn bloom_optimal_params(n: u64, p: f64, bits: *mut u64, hashes: *mut u32) -> bloom_status;
    pub fn bloom_expected_fp_rate(n: u64, bits: u64, hashes: u32) -> f64;

    pub fn bloom_strerror(status: c_int) -> *const c_char;
    pub fn bloom_last_error() -> *const c_char;
    pub fn bloom_kind_name(kind: c_int) -> *const c_char;
    pub fn bloom_hash_name(hash: c_int) -> *const c_char;
    pub fn bloom_kind_from_name(name: *const c_char) -> c_int;
    pub fn bloom_hash_from_name(name: *const c_char) -> c_int;
    pub fn bloom_kind_caps(kind: c_int) -> c_uint;
    pub fn bloom_kind_count() -> c_int;
    pub fn bloom_kind_at(i: c_int) -> c_int;
    pub fn bloom_version_string() -> *const c_char;
    pub fn bloom_version_number() -> c_uint;

    // The dynamic loader's lookup (glibc's libc since 2.34; libdl before).
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
}

/// `bloom_status bloom_advance(bloom_filter *f, uint64_t now_ms)`: the
/// window kind's clock (moves a time window to `now_ms`).
pub type bloom_advance_t = unsafe extern "C" fn(f: *mut bloom_filter, now_ms: u64) -> bloom_status;

// 0 = not looked up yet, 1 = looked up (ADVANCE holds the result or null).
static ADVANCE_STATE: AtomicU8 = AtomicU8::new(0);
static ADVANCE: AtomicPtr<c_void> = AtomicPtr::new(std::ptr::null_mut());

/// `bloom_advance` of the loaded library, or `None` when the library
/// predates the window kind. Looked up once with `dlsym(RTLD_DEFAULT, ..)`
/// (RTLD_DEFAULT is the null handle on glibc and musl).
pub fn bloom_advance_fn() -> Option<bloom_advance_t> {
    if ADVANCE_STATE.load(Ordering::Acquire) == 0 {
        let name = b"bloom_advance\0";
        // SAFETY: a NUL-terminated name; a null handle is RTLD_DEFAULT.
        let p = unsafe { dlsym(std::ptr::null_mut(), name.as_ptr() as *const c_char) };
        ADVANCE.store(p, Ordering::Release);
        ADVANCE_STATE.store(1, Ordering::Release);
    }
    let p = ADVANCE.load(Ordering::Acquire);
    if p.is_null() {
        None
    } else {
        // SAFETY: the symbol bloom.h declares with this signature.
        Some(unsafe { std::mem::transmute::<*mut c_void, bloom_advance_t>(p) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_layout_matches_the_library() {
        assert_eq!(unsafe { bloom_info_size() }, std::mem::size_of::<bloom_info>());
    }

    #[test]
    fn options_layout_matches_the_library() {
        assert_eq!(
            unsafe { bloom_options_size() },
            std::mem::size_of::<bloom_options>()
        );
    }

    #[test]
    fn create_query_destroy() {
        unsafe {
            let mut o: bloom_options = std::mem::zeroed();
            bloom_options_init(&mut o);
            o.struct_size = std::mem::size_of::<bloom_options>();
            o.capacity = 100;
            let mut f: *mut bloom_filter = std::ptr::null_mut();
            assert_eq!(bloom_create(&o, &mut f), BLOOM_OK);
            assert_eq!(bloom_add(f, b"k".as_ptr() as *const c_void, 1), BLOOM_OK);
            assert_eq!(bloom_query(f, b"k".as_ptr() as *const c_void, 1), 1);
            bloom_destroy(f);
        }
    }
}
