// SPDX-License-Identifier: Apache-2.0
//! `Info`: what `bloom_get_info` / `bloom_get_stage_info` report.

use bloom_sys as sys;

use crate::options::{Hash, Kind};

/// A snapshot of a filter's parameters and state (`bloom_info`).
#[derive(Debug, Clone, PartialEq)]
pub struct Info {
    /// None only for a kind this binding does not know (a newer library).
    pub kind: Option<Kind>,
    pub hash: Option<Hash>,
    pub seed: u64,
    pub concurrent: bool,
    pub plain_double_hashing: bool,
    pub split_block: bool,
    /// k (scalable: of the newest stage).
    pub hashes: u32,
    /// m: bits or counters (scalable: all stages).
    pub bits: u64,
    /// Memory of the bit/counter arrays.
    pub bytes: u64,
    /// n the filter was sized for (scalable: total of stages).
    pub capacity: u64,
    /// p the filter was sized for (0 if given m and k).
    pub fp_rate: f64,
    /// Successful adds; duplicates count again (counting: minus removes).
    pub keys_added: u64,
    /// Distinct keys estimated from the fill (Swamidass & Baldi 2007).
    pub estimated_keys: f64,
    /// Fraction of bits (counters) set.
    pub fill_ratio: f64,
    /// The false-positive rate at the current fill.
    pub expected_fp_rate: f64,
    /// Scalable: number of stages; others 1.
    pub stages: u32,
    /// Counting: 4 or 8; others 1.
    pub counter_bits: u32,
    /// Scalable parameters; 0 for other kinds.
    pub growth: f64,
    pub tightening: f64,
    /// A filter from `Filter::map`.
    pub read_only: bool,
    /// (major, minor) of the file format `save` writes for this filter;
    /// None with a library older than 0.2.0, which does not report it.
    pub format_version: Option<(u16, u16)>,
}

impl Info {
    pub(crate) fn from_raw(r: &sys::bloom_info) -> Info {
        // SAFETY: no arguments.
        let reports_format = unsafe { sys::bloom_version_number() } >= 200;
        Info {
            kind: Kind::from_code(r.kind),
            hash: Hash::from_code(r.hash),
            seed: r.seed,
            concurrent: r.flags & sys::BLOOM_FLAG_CONCURRENT != 0,
            plain_double_hashing: r.flags & sys::BLOOM_FLAG_PLAIN_DOUBLE_HASHING != 0,
            split_block: r.flags & sys::BLOOM_FLAG_SPLIT_BLOCK != 0,
            hashes: r.hashes,
            bits: r.bits,
            bytes: r.bytes,
            capacity: r.capacity,
            fp_rate: r.fp_rate,
            keys_added: r.keys_added,
            estimated_keys: r.estimated_keys,
            fill_ratio: r.fill_ratio,
            expected_fp_rate: r.expected_fp_rate,
            stages: r.stages,
            counter_bits: r.counter_bits,
            growth: r.growth,
            tightening: r.tightening,
            read_only: r.read_only != 0,
            format_version: if reports_format {
                Some((r.format_major, r.format_minor))
            } else {
                None
            },
        }
    }

    /// An empty `bloom_info` with struct_size set, for the library to fill.
    pub(crate) fn raw() -> sys::bloom_info {
        // SAFETY: all-zero is a valid bloom_info.
        let mut r: sys::bloom_info = unsafe { std::mem::zeroed() };
        r.struct_size = std::mem::size_of::<sys::bloom_info>();
        r
    }
}
