// SPDX-License-Identifier: Apache-2.0
//! The sizing math and the library's version.

use bloom_sys as sys;

use crate::error::{check, static_str, Result};

/// m (bits) and k (hashes) for `n` keys at false-positive rate `p`, as a
/// classic filter of that capacity and rate is sized.
///
/// Errors: `InvalidArg` (n = 0, p not in (0, 1)), `Overflow` (m > 2^40).
pub fn optimal_params(n: u64, p: f64) -> Result<(u64, u32)> {
    let mut bits = 0u64;
    let mut hashes = 0u32;
    // SAFETY: both out-pointers are valid.
    check(unsafe { sys::bloom_optimal_params(n, p, &mut bits, &mut hashes) })?;
    Ok((bits, hashes))
}

/// The classic filter's false-positive rate after `n` distinct keys in `bits`
/// bits with `hashes` probes; NaN when bits or hashes is 0.
pub fn expected_fp_rate(n: u64, bits: u64, hashes: u32) -> f64 {
    // SAFETY: plain values.
    unsafe { sys::bloom_expected_fp_rate(n, bits, hashes) }
}

/// The loaded library's release version, e.g. "0.3.0".
pub fn version() -> &'static str {
    // SAFETY: a static string.
    unsafe { static_str(sys::bloom_version_string()) }
}

/// MAJOR * 10000 + MINOR * 100 + PATCH of the loaded library.
pub fn version_number() -> u32 {
    // SAFETY: no arguments.
    unsafe { sys::bloom_version_number() }
}
