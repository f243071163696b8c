// SPDX-License-Identifier: Apache-2.0
//! What a new filter is: its kind, hasher and sizing parameters.

use std::ffi::CString;

use bloom_sys as sys;

use crate::caps::{caps_of, Caps};
use crate::error::{static_str, Error, Result, Status};

/// The filter kinds of the C library.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// One bit array, k probes anywhere in it.
    Classic,
    /// k slices of m/k bits, probe i in slice i.
    Partitioned,
    /// All k probes inside one 64-byte cache line.
    Blocked,
    /// Small counters instead of bits: supports `remove`.
    Counting,
    /// A growing chain of filters (Almeida et al. 2007).
    Scalable,
    /// A sliding window of recent insertions (count or time): only with a
    /// library that has it (`Options::window_ms`, `Filter::advance`).
    Window,
}

impl Kind {
    pub(crate) fn code(self) -> i32 {
        match self {
            Kind::Classic => sys::BLOOM_KIND_CLASSIC,
            Kind::Partitioned => sys::BLOOM_KIND_PARTITIONED,
            Kind::Blocked => sys::BLOOM_KIND_BLOCKED,
            Kind::Counting => sys::BLOOM_KIND_COUNTING,
            Kind::Scalable => sys::BLOOM_KIND_SCALABLE,
            Kind::Window => sys::BLOOM_KIND_WINDOW,
        }
    }

    pub(crate) fn from_code(code: i32) -> Option<Kind> {
        Some(match code {
            sys::BLOOM_KIND_CLASSIC => Kind::Classic,
            sys::BLOOM_KIND_PARTITIONED => Kind::Partitioned,
            sys::BLOOM_KIND_BLOCKED => Kind::Blocked,
            sys::BLOOM_KIND_COUNTING => Kind::Counting,
            sys::BLOOM_KIND_SCALABLE => Kind::Scalable,
            sys::BLOOM_KIND_WINDOW => Kind::Window,
            _ => return None,
        })
    }

    /// The library's name: "classic", "partitioned", "blocked", "counting",
    /// "scalable", "window".
    pub fn name(self) -> &'static str {
        match self {
            Kind::Classic => "classic",
            Kind::Partitioned => "partitioned",
            Kind::Blocked => "blocked",
            Kind::Counting => "counting",
            Kind::Scalable => "scalable",
            Kind::Window => "window",
        }
    }

    /// The kind a name stands for (case-sensitive), as the library reads it.
    pub fn from_name(name: &str) -> Option<Kind> {
        let c = CString::new(name).ok()?;
        // SAFETY: a NUL-terminated string.
        Kind::from_code(unsafe { sys::bloom_kind_from_name(c.as_ptr()) }).or(match name {
            // The library knows no window kind before it lands; the name is
            // still this binding's, for the error create() then gives.
            "window" => Some(Kind::Window),
            _ => None,
        })
    }

    /// What the kind can do, as the loaded library says (empty if the
    /// library does not implement it).
    pub fn caps(self) -> Caps {
        caps_of(self.code())
    }

    /// Whether the loaded library implements this kind.
    pub fn is_supported(self) -> bool {
        // SAFETY: bloom_kind_name takes any int.
        !unsafe { sys::bloom_kind_name(self.code()) }.is_null()
    }
}

/// The hash functions of the C library.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Hash {
    /// XXH3-128: the default, fastest (blocked filters use XXH3-64).
    Xxh3,
    /// MurmurHash3 x64-128.
    Murmur3,
    /// FNV-1a 64, widened to 128 bits by a mixer.
    Fnv1a,
    /// RedisBloom's hashing (MurmurHash64A, positions (a + i*b) mod m):
    /// classic and scalable filters only (library 0.3.0+).
    RedisBloom,
    /// Java Guava's `BloomFilter` (MURMUR128_MITZ_64): classic filters
    /// that answer as Guava's do (library 0.3.0+).
    Guava,
    /// Go's bits-and-blooms/bloom v3: classic filters that answer as its
    /// `BloomFilter` does (library 0.3.0+).
    BitsAndBlooms,
    /// Parquet's split-block filter (XXH64 of the plain-encoded value):
    /// blocked filters with the split-block flag (library 0.3.0+).
    Parquet,
}

impl Hash {
    pub(crate) fn code(self) -> i32 {
        match self {
            Hash::Xxh3 => sys::BLOOM_HASH_XXH3,
            Hash::Murmur3 => sys::BLOOM_HASH_MURMUR3,
            Hash::Fnv1a => sys::BLOOM_HASH_FNV1A,
            Hash::RedisBloom => sys::BLOOM_HASH_REDISBLOOM,
            Hash::Guava => sys::BLOOM_HASH_GUAVA,
            Hash::BitsAndBlooms => sys::BLOOM_HASH_BITS_AND_BLOOMS,
            Hash::Parquet => sys::BLOOM_HASH_PARQUET,
        }
    }

    pub(crate) fn from_code(code: i32) -> Option<Hash> {
        Some(match code {
            sys::BLOOM_HASH_XXH3 => Hash::Xxh3,
            sys::BLOOM_HASH_MURMUR3 => Hash::Murmur3,
            sys::BLOOM_HASH_FNV1A => Hash::Fnv1a,
            sys::BLOOM_HASH_REDISBLOOM => Hash::RedisBloom,
            sys::BLOOM_HASH_GUAVA => Hash::Guava,
            sys::BLOOM_HASH_BITS_AND_BLOOMS => Hash::BitsAndBlooms,
            sys::BLOOM_HASH_PARQUET => Hash::Parquet,
            _ => return None,
        })
    }

    /// The library's name: "xxh3", "murmur3", "fnv1a", "redisbloom",
    /// "guava", "bits-and-blooms", "parquet".
    pub fn name(self) -> &'static str {
        // SAFETY: a known value gives a static string.
        unsafe { static_str(sys::bloom_hash_name(self.code())) }
    }

    /// The hasher a name stands for (case-sensitive).
    pub fn from_name(name: &str) -> Option<Hash> {
        let c = CString::new(name).ok()?;
        // SAFETY: a NUL-terminated string.
        Hash::from_code(unsafe { sys::bloom_hash_from_name(c.as_ptr()) })
    }
}

/// Parameters of a new filter; `Options::default()` has the library's
/// defaults (`bloom_options_init`: classic, 1,000,000 keys, p = 0.01, XXH3,
/// seed 0). Fields are public; the builder methods are shorthands.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub kind: Kind,
    /// n: expected distinct keys (scalable: the first stage's capacity;
    /// window with `window_ms` = 0: the window's length in insertions).
    pub capacity: u64,
    /// p: target false-positive rate in (0, 1).
    pub fp_rate: f64,
    pub hash: Hash,
    /// Hash seed; part of the filter's identity (filters merge only with equal seeds).
    pub seed: u64,
    /// Adds (and counting removes) may run from many threads at once:
    /// see [`ConcurrentFilter`](crate::ConcurrentFilter). Not for scalable filters.
    pub concurrent: bool,
    /// Probe with plain double hashing h1 + i*h2 (not for blocked filters).
    pub plain_double_hashing: bool,
    /// Blocked filters only: 32-byte blocks with k = 8 (one SIMD compare
    /// per key, more memory for the same rate; library 0.3.0+).
    pub split_block: bool,
    /// Explicit m; 0 = size from (capacity, fp_rate).
    pub bits: u64,
    /// Explicit k; 0 = the optimal k.
    pub hashes: u32,
    /// Scalable: capacity factor per stage (default 2).
    pub growth: f64,
    /// Scalable: error factor per stage (default 0.85).
    pub tightening: f64,
    /// Counting: 4 (default) or 8 bits per counter.
    pub counter_bits: u32,
    /// Window kind: 0 = a window of `capacity` insertions, > 0 = a time
    /// window of this many milliseconds (moved by `Filter::advance`).
    pub window_ms: u64,
}

impl Default for Options {
    fn default() -> Options {
        let raw = init_raw();
        Options {
            kind: Kind::from_code(raw.kind).unwrap_or(Kind::Classic),
            capacity: raw.capacity,
            fp_rate: raw.fp_rate,
            hash: Hash::from_code(raw.hash).unwrap_or(Hash::Xxh3),
            seed: raw.seed,
            concurrent: raw.flags & sys::BLOOM_FLAG_CONCURRENT != 0,
            plain_double_hashing: raw.flags & sys::BLOOM_FLAG_PLAIN_DOUBLE_HASHING != 0,
            split_block: raw.flags & sys::BLOOM_FLAG_SPLIT_BLOCK != 0,
            bits: raw.bits,
            hashes: raw.hashes,
            growth: raw.growth,
            tightening: raw.tightening,
            counter_bits: raw.counter_bits,
            window_ms: raw.window_ms,
        }
    }
}

/// bloom_options_init into our (possibly longer) struct: the library writes
/// only its own layout, the rest stays as zeroed here (window_ms 0 = its
/// default), and struct_size is ours.
fn init_raw() -> sys::bloom_options {
    // SAFETY: all-zero is a valid bloom_options; init writes at most its size.
    let mut raw: sys::bloom_options = unsafe { std::mem::zeroed() };
    unsafe { sys::bloom_options_init(&mut raw) };
    raw.struct_size = std::mem::size_of::<sys::bloom_options>();
    raw
}

/// Whether the loaded library reads `window_ms` (its options are as long as ours).
pub fn library_has_window_ms() -> bool {
    // SAFETY: no arguments.
    let lib = unsafe { sys::bloom_options_size() };
    lib >= std::mem::size_of::<sys::bloom_options>()
}

/// Builder methods that set one field each: `.kind(Kind::Blocked)`, ...
macro_rules! setters {
    ($($field:ident: $ty:ty),* $(,)?) => {
        $(
            #[doc = concat!("Sets `", stringify!($field), "`.")]
            pub fn $field(mut self, $field: $ty) -> Options {
                self.$field = $field;
                self
            }
        )*
    };
}

impl Options {
    setters!(
        kind: Kind,
        hash: Hash,
        seed: u64,
        concurrent: bool,
        plain_double_hashing: bool,
        split_block: bool,
        counter_bits: u32,
        window_ms: u64,
    );

    /// Defaults with a capacity and rate: the usual way to start.
    pub fn new(capacity: u64, fp_rate: f64) -> Options {
        Options {
            capacity,
            fp_rate,
            ..Options::default()
        }
    }
    /// Explicit m and k (k = 0: the optimal k for m and capacity).
    pub fn bits_hashes(mut self, bits: u64, hashes: u32) -> Options {
        self.bits = bits;
        self.hashes = hashes;
        self
    }
    pub fn growth(mut self, growth: f64, tightening: f64) -> Options {
        self.growth = growth;
        self.tightening = tightening;
        self
    }

    /// The C struct. A non-zero window_ms that the loaded library would not
    /// read is refused here rather than silently ignored.
    pub(crate) fn to_raw(&self) -> Result<sys::bloom_options> {
        if self.window_ms != 0 && !library_has_window_ms() {
            return Err(Error::new(
                Status::Unsupported,
                "create: this library has no window_ms option (it predates the window kind)",
            ));
        }
        let mut raw = init_raw();
        raw.kind = self.kind.code();
        raw.capacity = self.capacity;
        raw.fp_rate = self.fp_rate;
        raw.hash = self.hash.code();
        raw.seed = self.seed;
        raw.flags = if self.concurrent {
            sys::BLOOM_FLAG_CONCURRENT
        } else {
            0
        } | if self.plain_double_hashing {
            sys::BLOOM_FLAG_PLAIN_DOUBLE_HASHING
        } else {
            0
        } | if self.split_block {
            sys::BLOOM_FLAG_SPLIT_BLOCK
        } else {
            0
        };
        raw.bits = self.bits;
        raw.hashes = self.hashes;
        raw.growth = self.growth;
        raw.tightening = self.tightening;
        raw.counter_bits = self.counter_bits;
        raw.window_ms = self.window_ms;
        Ok(raw)
    }
}
