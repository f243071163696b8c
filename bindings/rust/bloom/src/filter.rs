// SPDX-License-Identifier: Apache-2.0
//! `Filter`: an owned handle of the C library's `bloom_filter`.

use std::ffi::CString;
use std::fmt;
use std::os::raw::c_void;
use std::path::Path;
use std::ptr::NonNull;

use bloom_sys as sys;

use crate::concurrent::ConcurrentFilter;
use crate::error::{check, Error, Result, Status};
use crate::info::Info;
use crate::library_check::check_library;
use crate::options::Options;

/// A Bloom filter of any kind, owned: dropping it releases its memory (or
/// its mapping) with `bloom_destroy`.
///
/// Keys are any `AsRef<[u8]>`: `&str` and `String` (their UTF-8 bytes, so
/// `"é"` and `b"\xc3\xa9"` are the same key), `&[u8]`, `Vec<u8>`, arrays.
///
/// Thread safety, as bloom.h states it: any number of threads may run the
/// read-only calls (`query`, `query_batch`, `info`, `serialize`, `save`,
/// `try_clone`) on one filter at once, so `Filter` is `Sync` and those take
/// `&self`; everything that changes the filter takes `&mut self`. Adds from
/// many threads at once need a filter made with `concurrent`: see
/// [`ConcurrentFilter`]. A filter may move between threads (`Send`): the
/// library keeps no per-thread state in it.
pub struct Filter {
    raw: NonNull<sys::bloom_filter>,
}

// SAFETY: the handle is owned and the library ties it to no thread.
unsafe impl Send for Filter {}
// SAFETY: &Filter reaches only the calls bloom.h allows on one filter from
// any number of threads at once (query, query_batch, get_info,
// get_stage_info, serialize, serialized_size, save, clone; and the src of
// merge/intersect, which only reads); every writer takes &mut Filter.
unsafe impl Sync for Filter {}

impl Drop for Filter {
    fn drop(&mut self) {
        // SAFETY: we own the handle and drop runs once.
        unsafe { sys::bloom_destroy(self.raw.as_ptr()) }
    }
}

/// A handle the library filled in, or its error.
fn adopt(status: i32, out: *mut sys::bloom_filter) -> Result<Filter> {
    check(status)?;
    NonNull::new(out).map(|raw| Filter { raw }).ok_or_else(|| {
        Error::new(
            Status::Other(status),
            "the library returned BLOOM_OK and no filter",
        )
    })
}

/// Pointer and length arrays for a batch call; the keys outlive the call.
pub(crate) fn key_arrays<K: AsRef<[u8]>>(keys: &[K]) -> (Vec<*const c_void>, Vec<usize>) {
    let mut ptrs = Vec::with_capacity(keys.len());
    let mut lens = Vec::with_capacity(keys.len());
    for k in keys {
        let k = k.as_ref();
        ptrs.push(k.as_ptr() as *const c_void);
        lens.push(k.len());
    }
    (ptrs, lens)
}

fn c_path(path: &Path, op: &str) -> Result<CString> {
    #[cfg(unix)]
    let bytes = {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes().to_vec()
    };
    #[cfg(not(unix))]
    let bytes = path
        .to_str()
        .ok_or_else(|| Error::new(Status::InvalidArg, format!("{op}: path is not UTF-8")))?
        .as_bytes()
        .to_vec();
    CString::new(bytes).map_err(|_| Error::new(Status::InvalidArg, format!("{op}: path contains a NUL byte")))
}

impl Filter {
    /// Create an empty filter.
    ///
    /// Errors: `InvalidArg` (capacity 0 without bits, fp_rate not in (0, 1),
    /// k > 64, a flag the kind refuses), `Overflow` (m > 2^40), `NoMem`,
    /// `Unsupported` (a kind or option this library does not implement,
    /// e.g. the window kind before it lands).
    pub fn new(options: &Options) -> Result<Filter> {
        check_library()?;
        let raw = options.to_raw()?;
        let mut out = std::ptr::null_mut();
        // SAFETY: raw is a valid bloom_options; out is a valid out-pointer.
        let st = unsafe { sys::bloom_create(&raw, &mut out) };
        adopt(st, out)
    }

    /// A classic filter for `capacity` keys at false-positive rate `fp_rate`.
    pub fn with_capacity(capacity: u64, fp_rate: f64) -> Result<Filter> {
        Filter::new(&Options::new(capacity, fp_rate))
    }

    /// Read a filter saved by [`save`](Filter::save) (any kind).
    /// Errors: `Io`, `Format`, `Checksum`, `Version`, `Overflow`, `NoMem`, `Unsupported`.
    pub fn load(path: impl AsRef<Path>) -> Result<Filter> {
        check_library()?;
        let p = c_path(path.as_ref(), "load")?;
        let mut out = std::ptr::null_mut();
        // SAFETY: a NUL-terminated path and a valid out-pointer.
        let st = unsafe { sys::bloom_load(p.as_ptr(), &mut out) };
        adopt(st, out)
    }

    /// Map a saved file read-only and query it in place (zero copy). Adds,
    /// `clear` and in-place set operations on it fail with `Unsupported`.
    pub fn map(path: impl AsRef<Path>) -> Result<Filter> {
        check_library()?;
        let p = c_path(path.as_ref(), "map")?;
        let mut out = std::ptr::null_mut();
        // SAFETY: as load.
        let st = unsafe { sys::bloom_map(p.as_ptr(), &mut out) };
        adopt(st, out)
    }

    /// Rebuild a filter from [`serialize`](Filter::serialize) output or a saved file's bytes.
    pub fn deserialize(image: &[u8]) -> Result<Filter> {
        check_library()?;
        let mut out = std::ptr::null_mut();
        // SAFETY: image is valid for its length; not retained.
        let st = unsafe { sys::bloom_deserialize(image.as_ptr() as *const c_void, image.len(), &mut out) };
        adopt(st, out)
    }

    /// A deep copy (of a mapped filter: an ordinary writable one).
    pub fn try_clone(&self) -> Result<Filter> {
        let mut out = std::ptr::null_mut();
        // SAFETY: a valid handle and out-pointer.
        let st = unsafe { sys::bloom_clone(self.raw.as_ptr(), &mut out) };
        adopt(st, out)
    }

    /// Remove every key, keeping the parameters (scalable: back to one stage).
    pub fn clear(&mut self) -> Result<()> {
        // SAFETY: exclusive access to a valid handle.
        check(unsafe { sys::bloom_clear(self.raw.as_ptr()) })
    }

    /// Add one key.
    pub fn add<K: AsRef<[u8]> + ?Sized>(&mut self, key: &K) -> Result<()> {
        let k = key.as_ref();
        // SAFETY: exclusive access; k is valid for its length.
        check(unsafe { sys::bloom_add(self.raw.as_ptr(), k.as_ptr() as *const c_void, k.len()) })
    }

    /// `true` if the key may have been added, `false` if it certainly was not.
    pub fn contains<K: AsRef<[u8]> + ?Sized>(&self, key: &K) -> bool {
        let k = key.as_ref();
        // SAFETY: a valid handle; k is valid for its length. The library
        // fails only for NULL arguments, which a handle and a slice are not.
        let r = unsafe { sys::bloom_query(self.raw.as_ptr(), k.as_ptr() as *const c_void, k.len()) };
        assert!(r >= 0, "bloom_query failed on a valid filter: {}", Error::last(r));
        r == 1
    }

    /// Add the key and tell whether it may have been present before:
    /// `false` = it was certainly new.
    pub fn test_and_add<K: AsRef<[u8]> + ?Sized>(&mut self, key: &K) -> Result<bool> {
        let k = key.as_ref();
        // SAFETY: exclusive access; k is valid for its length.
        let r = unsafe { sys::bloom_test_and_add(self.raw.as_ptr(), k.as_ptr() as *const c_void, k.len()) };
        check(r).map(|()| r == 1)
    }

    /// Counting filters: remove one occurrence of an added key.
    /// Errors: `NotPresent` (the filter shows it was never added; nothing
    /// changes), `Unsupported` (another kind).
    pub fn remove<K: AsRef<[u8]> + ?Sized>(&mut self, key: &K) -> Result<()> {
        let k = key.as_ref();
        // SAFETY: exclusive access; k is valid for its length.
        check(unsafe { sys::bloom_remove(self.raw.as_ptr(), k.as_ptr() as *const c_void, k.len()) })
    }

    /// Add every key in one call (`bloom_add_batch`: hashed in blocks,
    /// memory prefetched). Takes `&[&str]`, `&[&[u8]]`, `&[String]`, ...
    pub fn add_batch<K: AsRef<[u8]>>(&mut self, keys: &[K]) -> Result<()> {
        let (ptrs, lens) = key_arrays(keys);
        // SAFETY: exclusive access; n pointers and lengths valid during the call.
        check(unsafe { sys::bloom_add_batch(self.raw.as_ptr(), ptrs.as_ptr(), lens.as_ptr(), keys.len()) })
    }

    /// Query every key in one call; the answers in the same order.
    pub fn query_batch<K: AsRef<[u8]>>(&self, keys: &[K]) -> Result<Vec<bool>> {
        let mut out = vec![false; keys.len()];
        self.query_batch_into(keys, &mut out)?;
        Ok(out)
    }

    /// As [`query_batch`](Filter::query_batch), into a caller's slice of the
    /// same length (no allocation for the answers).
    pub fn query_batch_into<K: AsRef<[u8]>>(&self, keys: &[K], answers: &mut [bool]) -> Result<()> {
        query_batch_raw(self.raw.as_ptr(), keys, answers)
    }

    /// `self := self ∪ other`. Both need the same kind, hasher, seed, m, k,
    /// probe scheme and format version; otherwise `Incompatible`, unchanged.
    pub fn merge(&mut self, other: &Filter) -> Result<()> {
        // SAFETY: exclusive dst; src is only read (and cannot alias dst).
        check(unsafe { sys::bloom_merge(self.raw.as_ptr(), other.raw.as_ptr()) })
    }

    /// `self := self ∩ other` (bitwise AND); same rules as [`merge`](Filter::merge).
    pub fn intersect(&mut self, other: &Filter) -> Result<()> {
        // SAFETY: as merge.
        check(unsafe { sys::bloom_intersect(self.raw.as_ptr(), other.raw.as_ptr()) })
    }

    /// Write the filter to `path`, replacing any file there atomically.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        let p = c_path(path.as_ref(), "save")?;
        // SAFETY: a valid handle and NUL-terminated path.
        check(unsafe { sys::bloom_save(self.raw.as_ptr(), p.as_ptr()) })
    }

    /// The exact size of [`serialize`](Filter::serialize)'s output.
    pub fn serialized_size(&self) -> Result<usize> {
        let mut n = 0usize;
        // SAFETY: a valid handle and out-pointer.
        check(unsafe { sys::bloom_serialized_size(self.raw.as_ptr(), &mut n) })?;
        Ok(n)
    }

    /// The file image of the filter (the bytes `save` writes).
    pub fn serialize(&self) -> Result<Vec<u8>> {
        let n = self.serialized_size()?;
        let mut buf = vec![0u8; n];
        let mut written = 0usize;
        // SAFETY: buf has n writable bytes.
        check(unsafe {
            sys::bloom_serialize(
                self.raw.as_ptr(),
                buf.as_mut_ptr() as *mut c_void,
                n,
                &mut written,
            )
        })?;
        buf.truncate(written);
        Ok(buf)
    }

    /// Parameters and state (one pass over the bits).
    pub fn info(&self) -> Result<Info> {
        let mut r = Info::raw();
        // SAFETY: struct_size is set; the library writes at most that.
        check(unsafe { sys::bloom_get_info(self.raw.as_ptr(), &mut r) })?;
        Ok(Info::from_raw(&r))
    }

    /// One stage of a scalable filter (0 = the oldest); for other kinds
    /// stage 0 is the filter itself. `InvalidArg` past the last stage.
    pub fn stage_info(&self, stage: u32) -> Result<Info> {
        let mut r = Info::raw();
        // SAFETY: as info.
        check(unsafe { sys::bloom_get_stage_info(self.raw.as_ptr(), stage, &mut r) })?;
        Ok(Info::from_raw(&r))
    }

    /// Window kind: move a time window's clock to `now_ms` (expiring what
    /// fell out of it). `Unsupported` when the loaded library predates the
    /// window kind (it has no `bloom_advance`), or as the library says.
    pub fn advance(&mut self, now_ms: u64) -> Result<()> {
        match sys::bloom_advance_fn() {
            // SAFETY: exclusive access to a valid handle.
            Some(advance) => check(unsafe { advance(self.raw.as_ptr(), now_ms) }),
            None => Err(Error::new(
                Status::Unsupported,
                "advance: this library has no bloom_advance (it predates the window kind)",
            )),
        }
    }

    /// A [`ConcurrentFilter`] for adds from many threads at once; `InvalidArg`
    /// (and the filter back) unless it was created with `concurrent`.
    pub fn into_concurrent(self) -> std::result::Result<ConcurrentFilter, (Filter, Error)> {
        match self.info() {
            Ok(i) if i.concurrent => Ok(ConcurrentFilter::from_filter(self)),
            Ok(_) => Err((
                self,
                Error::new(
                    Status::InvalidArg,
                    "into_concurrent: the filter was not created with concurrent",
                ),
            )),
            Err(e) => Err((self, e)),
        }
    }

    /// The raw handle, for calls through `bloom-sys`; still owned by `self`.
    pub fn as_ptr(&self) -> *const sys::bloom_filter {
        self.raw.as_ptr()
    }

    pub(crate) fn raw_mut(&self) -> *mut sys::bloom_filter {
        self.raw.as_ptr()
    }
}

pub(crate) fn query_batch_raw<K: AsRef<[u8]>>(
    f: *const sys::bloom_filter,
    keys: &[K],
    answers: &mut [bool],
) -> Result<()> {
    if answers.len() != keys.len() {
        return Err(Error::new(
            Status::InvalidArg,
            format!("query_batch: {} answers for {} keys", answers.len(), keys.len()),
        ));
    }
    let (ptrs, lens) = key_arrays(keys);
    let mut bytes = vec![0u8; keys.len()];
    // SAFETY: n pointers, lengths and result bytes valid during the call.
    check(unsafe {
        sys::bloom_query_batch(f, ptrs.as_ptr(), lens.as_ptr(), keys.len(), bytes.as_mut_ptr())
    })?;
    for (a, b) in answers.iter_mut().zip(bytes) {
        *a = b != 0;
    }
    Ok(())
}

impl fmt::Debug for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.info() {
            Ok(i) => f
                .debug_struct("Filter")
                .field("kind", &i.kind)
                .field("hash", &i.hash)
                .field("bits", &i.bits)
                .field("hashes", &i.hashes)
                .field("keys_added", &i.keys_added)
                .finish(),
            Err(_) => f.debug_struct("Filter").finish_non_exhaustive(),
        }
    }
}
