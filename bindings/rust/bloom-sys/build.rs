// SPDX-License-Identifier: Apache-2.0
//! Finds libbloomfilter with the `pkg-config` command (package `bloom`).
//!
//! The `pkg-config` crate is not used: this crate has no dependencies, so it
//! builds where only Debian packages are reachable. `PKG_CONFIG` names another
//! pkg-config binary; `PKG_CONFIG_PATH` finds an install in a non-system
//! prefix (e.g. `cmake --install build --prefix /opt/bloom`). When the
//! command or the package is missing, the build stops with what to do.

use std::env;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=PKG_CONFIG");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_LIBDIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_SYSROOT_DIR");
    let pkg_config = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".to_string());
    let output = Command::new(&pkg_config)
        .args(["--libs", "bloom"])
        .output()
        .unwrap_or_else(|e| {
            panic!("bloom-sys: could not run `{pkg_config}` ({e}); install pkg-config (Debian: pkgconf)")
        });
    if !output.status.success() {
        panic!(
            "bloom-sys: `{pkg_config} --libs bloom` failed: {}\n\
             Install bloom (cmake --install build --prefix PREFIX) and set \
             PKG_CONFIG_PATH=PREFIX/lib/pkgconfig",
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    let libs = String::from_utf8(output.stdout).expect("pkg-config printed non-UTF-8");
    let mut found = false;
    for flag in libs.split_whitespace() {
        if let Some(dir) = flag.strip_prefix("-L") {
            println!("cargo:rustc-link-search=native={dir}");
            // For dependents' build scripts (DEP_BLOOMFILTER_LIBDIR).
            println!("cargo:libdir={dir}");
        } else if let Some(lib) = flag.strip_prefix("-l") {
            println!("cargo:rustc-link-lib=dylib={lib}");
            found |= lib == "bloomfilter";
        }
        // -Wl,-rpath from a relocatable install is for C links; a Rust
        // binary finds the library through the loader (LD_LIBRARY_PATH or
        // the system directories).
    }
    if !found {
        panic!("bloom-sys: `{pkg_config} --libs bloom` printed no -lbloomfilter: {libs}");
    }
}
