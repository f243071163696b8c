// SPDX-License-Identifier: Apache-2.0
//! Bloom filters over bloom's C library (`libbloomfilter`, found with
//! pkg-config by the `bloom-sys` crate).
//!
//! Every kind of the C API is here: classic, partitioned, blocked, counting
//! (with `remove`), scalable (grows past its capacity) and window (with a
//! library that has it). Filters save to the library's file format, which
//! the `bloom` CLI, C, Python, Go and the Redis module read unchanged. What
//! a kind can do is the library's to say: [`kinds`] lists the loaded
//! library's kinds and [`Kind::caps`] their [`Caps`], so code asks for a
//! kind that removes keys ([`Caps::REMOVE`]) rather than naming one.
//!
//! ```
//! use bloom::{Filter, Kind, Options};
//!
//! let mut f = Filter::new(&Options::new(10_000, 0.001).kind(Kind::Blocked))?;
//! f.add("alice")?;
//! f.add_batch(&["bob", "carol"])?;
//! f.add(&b"\x00raw bytes\xff"[..])?;
//! assert!(f.contains("alice"));
//! assert_eq!(f.query_batch(&["bob", "zed"])?, vec![true, false]);
//!
//! // The file image: the bytes `save` writes, loadable by every language.
//! let image = f.serialize()?;
//! let g = Filter::deserialize(&image)?;
//! assert!(g.contains("carol"));
//! assert_eq!(g.info()?.keys_added, 4);
//!
//! // Errors carry the C status and the library's message.
//! let err = Filter::new(&Options::new(10, 1.5)).unwrap_err();
//! assert_eq!(err.status(), bloom::Status::InvalidArg);
//! println!("{err}");
//! # Ok::<(), bloom::Error>(())
//! ```
//!
//! Thread safety follows bloom.h and is enforced by the types: a [`Filter`]
//! is `Send` and `Sync`, with reads on `&self` and writes on `&mut self`; a
//! [`ConcurrentFilter`] (created with the concurrent flag) also takes adds
//! on `&self`, and reaches the calls that must not overlap them only through
//! `&mut self`.

mod caps;
mod concurrent;
mod error;
mod filter;
mod info;
mod library_check;
mod options;
mod params;

pub use caps::{kinds, Caps, KindInfo};
pub use concurrent::ConcurrentFilter;
pub use error::{Error, Result, Status};
pub use filter::Filter;
pub use info::Info;
pub use library_check::{library_file, BUILT_FOR};
pub use options::{library_has_window_ms, Hash, Kind, Options};
pub use params::{expected_fp_rate, optimal_params, version, version_number};

/// The raw FFI crate, for calls this crate does not wrap.
pub use bloom_sys as sys;
