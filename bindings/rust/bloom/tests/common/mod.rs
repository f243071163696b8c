// SPDX-License-Identifier: Apache-2.0
pub mod json;
pub mod sha256;
