pub mod json;
pub mod sha256;
