// SPDX-License-Identifier: Apache-2.0
//! Raw FFI declarations of bloom's C API, written by hand from
//! `include/bloom/bloom.h` (library `libbloomfilter`, pkg-config name `bloom`).
//!
//! Everything here is `unsafe` and mirrors the header one to one; the safe
//! API is the `bloom` crate. Struct layouts are `#[repr(C)]` copies of the
//! header's. The header's rules apply unchanged: call [`bloom_options_init`]
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

/// A `bloom_status`: 0 = [`BLOOM_OK`], negative = an error.
pub type bloom_status = c_int;
pub const BLOOM_OK: bloom_status = 0;
pub const BLOOM_E_INVALID_ARG: bloom_status = -1;
pub const BLOOM_E_NOMEM: bloom_status = -2;
pub const BLOOM_E_IO: bloom_status = -3;
pub const BLOOM_E_FORMAT: bloom_status = -4;
pub const BLOOM_E_CHECKSUM: bloom_status = -5;
pub const BLOOM_E_VERSION: bloom_status = -6;
pub const BLOOM_E_UNSUPPORTED: bloom_status = -7;
pub const BLOOM_E_INCOMPATIBLE: bloom_status = -8;
pub const BLOOM_E_OVERFLOW: bloom_status = -9;
pub const BLOOM_E_BUFFER_TOO_SMALL: bloom_status = -10;
pub const BLOOM_E_NOT_PRESENT: bloom_status = -11;

pub const BLOOM_KIND_CLASSIC: i32 = 1;
pub const BLOOM_KIND_PARTITIONED: i32 = 2;
pub const BLOOM_KIND_BLOCKED: i32 = 3;
pub const BLOOM_KIND_COUNTING: i32 = 4;
pub const BLOOM_KIND_SCALABLE: i32 = 5;
/// A sliding window of the last `capacity` insertions (`window_ms` = 0) or
/// of the last `window_ms` milliseconds. Only in libraries that have it.
pub const BLOOM_KIND_WINDOW: i32 = 6;

pub const BLOOM_HASH_XXH3: i32 = 1;
pub const BLOOM_HASH_MURMUR3: i32 = 2;
pub const BLOOM_HASH_FNV1A: i32 = 3;
pub const BLOOM_HASH_REDISBLOOM: i32 = 4;

pub const BLOOM_FLAG_CONCURRENT: u32 = 0x1;
pub const BLOOM_FLAG_PLAIN_DOUBLE_HASHING: u32 = 0x2;
pub const BLOOM_FLAG_SPLIT_BLOCK: u32 = 0x4;

pub const BLOOM_MAX_BITS: u64 = 1 << 40;
pub const BLOOM_MAX_HASHES: u32 = 64;

/// `bloom_options`, with the window kind's `window_ms` appended after
/// `counter_bits`. `struct_size` = `size_of::<bloom_options>()` tells a
/// library that knows `window_ms` to read it; an older library reads only
/// its own prefix (`bloom_options_size()` bytes) and ignores it.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct bloom_options {
    pub struct_size: usize,
    pub kind: i32,
    pub capacity: u64,
    pub fp_rate: f64,
    pub hash: i32,
    pub seed: u64,
    pub flags: u32,
    pub bits: u64,
    pub hashes: u32,
    pub growth: f64,
    pub tightening: f64,
    pub counter_bits: u32,
    /// Window kind: 0 = a count window of `capacity` insertions, > 0 = a
    /// time window of this many milliseconds.
    pub window_ms: u64,
}

/// `bloom_info`, member for member.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct bloom_info {
    pub struct_size: usize,
    pub kind: i32,
    pub hash: i32,
    pub seed: u64,
    pub flags: u32,
    pub hashes: u32,
    pub bits: u64,
    pub bytes: u64,
    pub capacity: u64,
    pub fp_rate: f64,
    pub keys_added: u64,
    pub estimated_keys: f64,
    pub fill_ratio: f64,
    pub expected_fp_rate: f64,
    pub stages: u32,
    pub counter_bits: u32,
    pub growth: f64,
    pub tightening: f64,
    pub read_only: i32,
    pub format_major: u16,
    pub format_minor: u16,
    /// Window filters (since 0.3.0; 0 for other kinds).
    pub window_ms: u64,
    pub window_k: u32,
    pub window_l: u32,
    pub slice_bits: u64,
    pub generation_capacity: u64,
    pub generation: u64,
    pub generation_keys: u64,
    pub generation_ms: u64,
    pub clock_ms: u64,
    pub generation_start_ms: u64,
}

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
        // bloom_info has no appended member here: sizes must agree exactly.
        assert_eq!(unsafe { bloom_info_size() }, std::mem::size_of::<bloom_info>());
    }

    #[test]
    fn options_layout_is_the_library_prefix() {
        // The library's bloom_options is this struct or this struct without
        // window_ms (8 bytes) at its end.
        let lib = unsafe { bloom_options_size() };
        let ours = std::mem::size_of::<bloom_options>();
        assert!(lib == ours || lib == ours - 8, "library {lib}, ours {ours}");
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
