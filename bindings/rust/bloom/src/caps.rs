// SPDX-License-Identifier: Apache-2.0
//! What a kind can do, as the library says (`bloom_kind_caps`), and the
//! kinds the loaded library has (`bloom_kind_count` / `bloom_kind_at`).
//! Code that needs, say, a kind that can remove keys asks for
//! [`Caps::REMOVE`] instead of naming [`Kind::Counting`].

use bloom_sys as sys;

use crate::error::static_str;
use crate::options::Kind;

/// A set of capabilities: `BLOOM_CAP_*` bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Caps(u32);

impl Caps {
    /// `merge` (union).
    pub const MERGE: Caps = Caps(sys::BLOOM_CAP_MERGE);
    /// `intersect`; scalable filters only while both have one stage.
    pub const INTERSECT: Caps = Caps(sys::BLOOM_CAP_INTERSECT);
    /// `remove`.
    pub const REMOVE: Caps = Caps(sys::BLOOM_CAP_REMOVE);
    /// Grows past its capacity, keeping its false-positive rate.
    pub const GROWS: Caps = Caps(sys::BLOOM_CAP_GROWS);
    /// Forgets old keys on a schedule and keeps a clock (`Filter::advance`).
    pub const FORGETS: Caps = Caps(sys::BLOOM_CAP_FORGETS);
    /// Takes `Options::split_block`.
    pub const SPLIT_BLOCK: Caps = Caps(sys::BLOOM_CAP_SPLIT_BLOCK);
    /// Takes `Hash::RedisBloom`.
    pub const REDISBLOOM_HASH: Caps = Caps(sys::BLOOM_CAP_REDISBLOOM_HASH);
    /// Takes `Options::concurrent`.
    pub const CONCURRENT: Caps = Caps(sys::BLOOM_CAP_CONCURRENT);

    /// The `BLOOM_CAP_*` bits.
    pub fn bits(self) -> u32 {
        self.0
    }

    /// Whether every capability of `other` is in this set.
    pub fn contains(self, other: Caps) -> bool {
        self.0 & other.0 == other.0
    }

    /// The names of the capabilities in the set ("merge", "remove", ...).
    pub fn names(self) -> Vec<&'static str> {
        sys::BLOOM_CAP_NAMES
            .iter()
            .filter(|(bit, _)| self.0 & bit != 0)
            .map(|(_, name)| *name)
            .collect()
    }

    /// Bits this crate has no name for (from a library newer than the
    /// crate); 0 when the crate knows them all.
    pub fn unknown(self) -> u32 {
        self.0 & !sys::BLOOM_CAP_NAMES.iter().fold(0, |all, (bit, _)| all | bit)
    }
}

/// A kind the loaded library has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KindInfo {
    /// Its `bloom_kind` number.
    pub code: i32,
    /// The library's name for it ("classic", ...).
    pub name: &'static str,
    /// This crate's name for it; None for a kind newer than the crate
    /// (its capabilities still say what it can do).
    pub kind: Option<Kind>,
    pub caps: Caps,
}

/// The capabilities of the kind numbered `code`; empty for an unknown one.
pub(crate) fn caps_of(code: i32) -> Caps {
    // SAFETY: bloom_kind_caps takes any int.
    Caps(unsafe { sys::bloom_kind_caps(code) })
}

/// Every kind of the loaded library, in increasing `bloom_kind` order.
pub fn kinds() -> Vec<KindInfo> {
    // SAFETY: no arguments; any index; any kind number.
    let count = unsafe { sys::bloom_kind_count() };
    (0..count)
        .map(|i| {
            let code = unsafe { sys::bloom_kind_at(i) };
            KindInfo {
                code,
                name: unsafe { static_str(sys::bloom_kind_name(code)) },
                kind: Kind::from_code(code),
                caps: caps_of(code),
            }
        })
        .collect()
}
