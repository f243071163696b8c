// SPDX-License-Identifier: Apache-2.0
//! `ConcurrentFilter`: a filter made with `concurrent`, shared by threads
//! that add at once.

use std::os::raw::c_void;

use bloom_sys as sys;

use crate::error::{check, Result};
use crate::filter::{key_arrays, query_batch_raw, Filter};
use crate::options::Options;

/// A filter whose adds may run from many threads at once (`&self`), as
/// bloom.h allows for `BLOOM_FLAG_CONCURRENT` filters (classic,
/// partitioned, blocked and counting; scalable ones refuse the flag):
/// `add`, `add_batch` and `test_and_add` alongside `contains` and
/// `query_batch`, and for counting filters `remove` too.
///
/// The other read-only calls (info, serialize, save, clone, merge's source)
/// read the filter without atomics and must not overlap the writers, so
/// they are reached only through [`filter`](ConcurrentFilter::filter) or
/// [`into_inner`](ConcurrentFilter::into_inner), which need `&mut self` or
/// ownership: once every thread that borrowed it has been joined.
///
/// ```
/// let f = bloom::ConcurrentFilter::new(bloom::Options::new(10_000, 0.01)).unwrap();
/// std::thread::scope(|s| {
///     for t in 0..2 {
///         let f = &f;
///         s.spawn(move || {
///             for i in 0..1000 {
///                 f.add(&format!("{t}-{i}")).unwrap();
///             }
///         });
///     }
/// });
/// let mut f = f;
/// assert_eq!(f.filter().info().unwrap().keys_added, 2000);
/// ```
pub struct ConcurrentFilter {
    inner: Filter,
}

impl std::fmt::Debug for ConcurrentFilter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Not the inner filter's info: that read must not overlap adds.
        f.debug_struct("ConcurrentFilter").finish_non_exhaustive()
    }
}

// Send and Sync: Filter is Send + Sync, and every &self method below is one
// that bloom.h allows from many threads at once on a concurrent filter.

impl ConcurrentFilter {
    /// Create a filter with `options` and `concurrent` set.
    pub fn new(options: Options) -> Result<ConcurrentFilter> {
        Filter::new(&options.concurrent(true)).map(ConcurrentFilter::from_filter)
    }

    pub(crate) fn from_filter(inner: Filter) -> ConcurrentFilter {
        ConcurrentFilter { inner }
    }

    /// Add one key (any thread, at once with others).
    pub fn add<K: AsRef<[u8]> + ?Sized>(&self, key: &K) -> Result<()> {
        let k = key.as_ref();
        // SAFETY: a concurrent filter: adds may overlap (atomic OR / CAS).
        check(unsafe { sys::bloom_add(self.inner.raw_mut(), k.as_ptr() as *const c_void, k.len()) })
    }

    /// Add and tell whether the key may have been present; of several
    /// threads adding the same new key at once exactly one is told `false`.
    pub fn test_and_add<K: AsRef<[u8]> + ?Sized>(&self, key: &K) -> Result<bool> {
        let k = key.as_ref();
        // SAFETY: as add.
        let r =
            unsafe { sys::bloom_test_and_add(self.inner.raw_mut(), k.as_ptr() as *const c_void, k.len()) };
        check(r).map(|()| r == 1)
    }

    /// Counting filters: remove one occurrence (concurrently with others).
    pub fn remove<K: AsRef<[u8]> + ?Sized>(&self, key: &K) -> Result<()> {
        let k = key.as_ref();
        // SAFETY: bloom.h: counting filters' removes may overlap with the flag;
        // other kinds return BLOOM_E_UNSUPPORTED without touching the filter.
        check(unsafe { sys::bloom_remove(self.inner.raw_mut(), k.as_ptr() as *const c_void, k.len()) })
    }

    /// Add every key in one call.
    pub fn add_batch<K: AsRef<[u8]>>(&self, keys: &[K]) -> Result<()> {
        let (ptrs, lens) = key_arrays(keys);
        // SAFETY: as add; the arrays are valid during the call.
        check(unsafe { sys::bloom_add_batch(self.inner.raw_mut(), ptrs.as_ptr(), lens.as_ptr(), keys.len()) })
    }

    /// See [`Filter::contains`]; may overlap adds.
    pub fn contains<K: AsRef<[u8]> + ?Sized>(&self, key: &K) -> bool {
        self.inner.contains(key)
    }

    /// See [`Filter::query_batch`]; may overlap adds.
    pub fn query_batch<K: AsRef<[u8]>>(&self, keys: &[K]) -> Result<Vec<bool>> {
        let mut out = vec![false; keys.len()];
        query_batch_raw(self.inner.as_ptr(), keys, &mut out)?;
        Ok(out)
    }

    /// The filter, for the calls that must not overlap adds (info,
    /// serialize, save, ...): `&mut self` proves no other thread holds it.
    pub fn filter(&mut self) -> &mut Filter {
        &mut self.inner
    }

    /// The filter back, for single-threaded use.
    pub fn into_inner(self) -> Filter {
        self.inner
    }
}
