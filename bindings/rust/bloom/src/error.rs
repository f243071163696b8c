// SPDX-License-Identifier: Apache-2.0
//! Errors: the C library's status and its message, as one Rust type.

use std::ffi::CStr;
use std::fmt;

use bloom_sys as sys;

/// The C library's `bloom_status` values (other than `BLOOM_OK`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// A NULL pointer, a value out of range (`BLOOM_E_INVALID_ARG`).
    InvalidArg,
    /// An allocation failed (`BLOOM_E_NOMEM`).
    NoMem,
    /// open/read/write/fsync/rename failed (`BLOOM_E_IO`).
    Io,
    /// Not a bloom filter, or fields that disagree (`BLOOM_E_FORMAT`).
    Format,
    /// A header or payload checksum mismatch (`BLOOM_E_CHECKSUM`).
    Checksum,
    /// Written by a newer, incompatible format (`BLOOM_E_VERSION`).
    Version,
    /// The operation does not apply to this filter (`BLOOM_E_UNSUPPORTED`).
    Unsupported,
    /// Two filters whose parameters differ (`BLOOM_E_INCOMPATIBLE`).
    Incompatible,
    /// A size exceeds the library's limits (`BLOOM_E_OVERFLOW`).
    Overflow,
    /// The output buffer cannot hold the result (`BLOOM_E_BUFFER_TOO_SMALL`).
    BufferTooSmall,
    /// `remove` of a key that was never added (`BLOOM_E_NOT_PRESENT`).
    NotPresent,
    /// A status this binding does not know (a newer library).
    Other(i32),
}

impl Status {
    /// The status for a negative C return value.
    pub fn from_code(code: i32) -> Status {
        match code {
            sys::BLOOM_E_INVALID_ARG => Status::InvalidArg,
            sys::BLOOM_E_NOMEM => Status::NoMem,
            sys::BLOOM_E_IO => Status::Io,
            sys::BLOOM_E_FORMAT => Status::Format,
            sys::BLOOM_E_CHECKSUM => Status::Checksum,
            sys::BLOOM_E_VERSION => Status::Version,
            sys::BLOOM_E_UNSUPPORTED => Status::Unsupported,
            sys::BLOOM_E_INCOMPATIBLE => Status::Incompatible,
            sys::BLOOM_E_OVERFLOW => Status::Overflow,
            sys::BLOOM_E_BUFFER_TOO_SMALL => Status::BufferTooSmall,
            sys::BLOOM_E_NOT_PRESENT => Status::NotPresent,
            other => Status::Other(other),
        }
    }

    /// The C `bloom_status` value (negative).
    pub fn code(self) -> i32 {
        match self {
            Status::InvalidArg => sys::BLOOM_E_INVALID_ARG,
            Status::NoMem => sys::BLOOM_E_NOMEM,
            Status::Io => sys::BLOOM_E_IO,
            Status::Format => sys::BLOOM_E_FORMAT,
            Status::Checksum => sys::BLOOM_E_CHECKSUM,
            Status::Version => sys::BLOOM_E_VERSION,
            Status::Unsupported => sys::BLOOM_E_UNSUPPORTED,
            Status::Incompatible => sys::BLOOM_E_INCOMPATIBLE,
            Status::Overflow => sys::BLOOM_E_OVERFLOW,
            Status::BufferTooSmall => sys::BLOOM_E_BUFFER_TOO_SMALL,
            Status::NotPresent => sys::BLOOM_E_NOT_PRESENT,
            Status::Other(c) => c,
        }
    }

    /// The library's static description ("invalid argument", ...).
    pub fn description(self) -> &'static str {
        // SAFETY: bloom_strerror returns a static, never-NULL string.
        unsafe { static_str(sys::bloom_strerror(self.code())) }
    }
}

/// A failed call: the C status and the library's message about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    status: Status,
    message: String,
}

impl Error {
    /// The status and message of the call that just failed on this thread
    /// (`bloom_last_error`), read before any other call can replace it.
    pub(crate) fn last(code: i32) -> Error {
        // SAFETY: bloom_last_error returns a thread-local NUL-terminated
        // string valid until the next bloom_* call on this thread.
        let message = unsafe { CStr::from_ptr(sys::bloom_last_error()) }
            .to_string_lossy()
            .into_owned();
        Error {
            status: Status::from_code(code),
            message,
        }
    }

    /// An error detected on the Rust side, before the library was called.
    pub(crate) fn new(status: Status, message: impl Into<String>) -> Error {
        Error {
            status,
            message: message.into(),
        }
    }

    /// Which failure it was.
    pub fn status(&self) -> Status {
        self.status
    }

    /// The C `bloom_status` value (negative).
    pub fn code(&self) -> i32 {
        self.status.code()
    }

    /// The library's detail, e.g. "load: header checksum mismatch (...)".
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.message.is_empty() {
            write!(f, "bloom: {}", self.status.description())
        } else {
            write!(f, "bloom: {}: {}", self.status.description(), self.message)
        }
    }
}

impl std::error::Error for Error {}

/// `Result` with this crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

/// `Ok(())` for `BLOOM_OK`, the thread's last error otherwise.
pub(crate) fn check(code: i32) -> Result<()> {
    if code >= 0 {
        Ok(())
    } else {
        Err(Error::last(code))
    }
}

/// A static C string from the library as `&'static str` ("" if NULL).
///
/// # Safety
/// `p` is NULL or a NUL-terminated string that lives forever.
pub(crate) unsafe fn static_str(p: *const std::os::raw::c_char) -> &'static str {
    if p.is_null() {
        ""
    } else {
        CStr::from_ptr(p).to_str().unwrap_or("")
    }
}
