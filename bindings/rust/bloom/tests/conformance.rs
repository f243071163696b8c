// SPDX-License-Identifier: Apache-2.0
//! The conformance suite (tests/conformance/cases.json) through this crate.
//!
//! Per case: create, add (batch or single), remove, every query single and
//! batch, every recorded info field, the image's size and SHA-256, then the
//! answers again from a deserialized copy (byte-identical image), a saved
//! and loaded file and a mapped one. Golden files are loaded and checked.
//! BLOOM_CONFORMANCE_OUT: write each image as <case>.bloom there;
//! BLOOM_CONFORMANCE_IN: also load and check the images another language
//! wrote there. BLOOM_CONFORMANCE_CASES: another cases.json.

mod common;

use std::path::PathBuf;

use bloom::{Filter, Hash, Kind, Options};
use common::json::{self, Json};
use common::sha256;

/// The suite's files: `BLOOM_SOURCE_DIR` names a bloom checkout (its
/// tests/conformance/cases.json and tests/golden/); without it, the checkout
/// these crates sit in. `BLOOM_CONFORMANCE_CASES` names another cases file,
/// whose golden files are read from the checkout that holds it. A missing
/// cases file fails the test, naming the variable: it is never skipped.
fn source_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("BLOOM_SOURCE_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    if let Some(cases) = std::env::var_os("BLOOM_CONFORMANCE_CASES").filter(|c| !c.is_empty()) {
        let cases = PathBuf::from(cases);
        return cases.parent().unwrap_or(&cases).join("../..");
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn decode(key: &str) -> Result<Vec<u8>, String> {
    if let Some(t) = key.strip_prefix("s:") {
        Ok(t.as_bytes().to_vec())
    } else if let Some(h) = key.strip_prefix("x:") {
        if h.len() % 2 != 0 {
            return Err(format!("odd hex in {key:?}"));
        }
        (0..h.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&h[i..i + 2], 16).map_err(|e| format!("{key:?}: {e}")))
            .collect()
    } else {
        Err(format!("key {key:?} is neither s: nor x:"))
    }
}

fn options(o: &Json) -> Result<Options, String> {
    let kind = o.field("kind").str();
    let hash = o.field("hash").str();
    let mut opts = Options::default()
        .kind(Kind::from_name(kind).ok_or(format!("unknown kind {kind:?}"))?)
        .hash(Hash::from_name(hash).ok_or(format!("unknown hash {hash:?}"))?);
    for (k, v) in o.obj() {
        match k.as_str() {
            "kind" | "hash" => {}
            "capacity" => opts.capacity = v.u64(),
            "fp_rate" => opts.fp_rate = v.f64(),
            "seed" => opts.seed = v.u64(),
            "bits" => opts.bits = v.u64(),
            "hashes" => opts.hashes = v.u64() as u32,
            "growth" => opts.growth = v.f64(),
            "tightening" => opts.tightening = v.f64(),
            "counter_bits" => opts.counter_bits = v.u64() as u32,
            "window_ms" => opts.window_ms = v.u64(),
            "flags" => {
                for f in v.arr() {
                    match f.str() {
                        "concurrent" => opts.concurrent = true,
                        "plain_double_hashing" => opts.plain_double_hashing = true,
                        other => return Err(format!("unknown flag {other:?}")),
                    }
                }
            }
            other => return Err(format!("unknown option {other:?}")),
        }
    }
    Ok(opts)
}

fn check_answers(f: &Filter, query: &[Json], where_: &str, fails: &mut Vec<String>) -> Result<(), String> {
    let mut keys = Vec::new();
    let mut want = Vec::new();
    for q in query {
        let pair = q.arr();
        keys.push(decode(pair[0].str())?);
        want.push(pair[1].bool());
    }
    let batch = f.query_batch(&keys).map_err(|e| e.to_string())?;
    for (i, k) in keys.iter().enumerate() {
        let got = f.contains(k);
        if got != want[i] {
            fails.push(format!(
                "{where_}: query {} = {got}, expected {}",
                query[i].arr()[0].str(),
                want[i]
            ));
        }
        if batch[i] != want[i] {
            fails.push(format!(
                "{where_}: batch query {} = {}, expected {}",
                query[i].arr()[0].str(),
                batch[i],
                want[i]
            ));
        }
    }
    Ok(())
}

fn check_info(f: &Filter, want: &Json, name: &str, fails: &mut Vec<String>) -> Result<(), String> {
    let i = f.info().map_err(|e| e.to_string())?;
    for (k, v) in want.obj() {
        let ok = match k.as_str() {
            "kind" => i.kind.map(|x| x.name()) == Some(v.str()),
            "hash" => i.hash.map(|x| x.name()) == Some(v.str()),
            "seed" => i.seed == v.u64(),
            "flags" => {
                let mut have = Vec::new();
                if i.concurrent {
                    have.push("concurrent");
                }
                if i.plain_double_hashing {
                    have.push("plain_double_hashing");
                }
                have == v.arr().iter().map(|x| x.str()).collect::<Vec<_>>()
            }
            "hashes" => u64::from(i.hashes) == v.u64(),
            "bits" => i.bits == v.u64(),
            "bytes" => i.bytes == v.u64(),
            "capacity" => i.capacity == v.u64(),
            "keys_added" => i.keys_added == v.u64(),
            "stages" => u64::from(i.stages) == v.u64(),
            "counter_bits" => u64::from(i.counter_bits) == v.u64(),
            other => {
                fails.push(format!("{name}: info field {other:?} is unknown to this runner"));
                true
            }
        };
        if !ok {
            fails.push(format!("{name}: info.{k} differs: expected {v:?}, have {i:?}"));
        }
    }
    Ok(())
}

fn run_case(case: &Json, tmp: &std::path::Path, fails: &mut Vec<String>) -> Result<(), String> {
    let name = case.field("name").str();
    let e = |e: bloom::Error| format!("{e}");
    let mut f = Filter::new(&options(case.field("options"))?).map_err(e)?;
    let keys: Vec<Vec<u8>> = case
        .field("add")
        .arr()
        .iter()
        .map(|k| decode(k.str()))
        .collect::<Result<_, _>>()?;
    if case.field("add_batch").bool() {
        f.add_batch(&keys).map_err(e)?;
    } else {
        for k in &keys {
            f.add(k).map_err(e)?;
        }
    }
    if let Some(rm) = case.get("remove") {
        for k in rm.arr() {
            f.remove(&decode(k.str())?).map_err(e)?;
        }
    }
    let query = case.field("query").arr();
    check_answers(&f, query, name, fails)?;
    check_info(&f, case.field("info"), name, fails)?;
    let image = f.serialize().map_err(e)?;
    if image.len() as u64 != case.field("image_size").u64() {
        fails.push(format!(
            "{name}: image size {} expected {}",
            image.len(),
            case.field("image_size").u64()
        ));
    }
    if sha256::hex(&image) != case.field("image_sha256").str() {
        fails.push(format!("{name}: image sha256 differs"));
    }
    let copy = Filter::deserialize(&image).map_err(e)?;
    check_answers(&copy, query, &format!("{name} (deserialized)"), fails)?;
    if copy.serialize().map_err(e)? != image {
        fails.push(format!("{name}: deserialized copy serializes to other bytes"));
    }
    let path = tmp.join(format!("{name}.bloom"));
    f.save(&path).map_err(e)?;
    let loaded = Filter::load(&path).map_err(e)?;
    check_answers(&loaded, query, &format!("{name} (loaded)"), fails)?;
    if loaded.serialize().map_err(e)? != image {
        fails.push(format!("{name}: loaded file serializes to other bytes"));
    }
    let mapped = Filter::map(&path).map_err(e)?;
    check_answers(&mapped, query, &format!("{name} (mapped)"), fails)?;
    if let Ok(out) = std::env::var("BLOOM_CONFORMANCE_OUT") {
        f.save(PathBuf::from(out).join(format!("{name}.bloom")))
            .map_err(e)?;
    }
    if let Ok(inp) = std::env::var("BLOOM_CONFORMANCE_IN") {
        let other = Filter::load(PathBuf::from(&inp).join(format!("{name}.bloom"))).map_err(e)?;
        check_answers(&other, query, &format!("{name} (from {inp})"), fails)?;
        if other.serialize().map_err(e)? != image {
            fails.push(format!("{name}: image from {inp} has other bytes"));
        }
    }
    Ok(())
}

#[test]
fn conformance_suite() {
    let path = std::env::var_os("BLOOM_CONFORMANCE_CASES")
        .filter(|c| !c.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| source_dir().join("tests/conformance/cases.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}: set BLOOM_SOURCE_DIR to a bloom checkout (the directory holding tests/conformance)",
            path.display()
        )
    });
    let doc = json::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(doc.field("format").u64(), 1, "unknown cases.json format");
    let tmp = std::env::temp_dir().join(format!("bloom-rust-conformance-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut fails = Vec::new();
    let cases = doc.field("cases").arr();
    for case in cases {
        if let Err(msg) = run_case(case, &tmp, &mut fails) {
            // An unknown kind, a refused option: the case fails, loudly.
            fails.push(format!("{}: {msg}", case.field("name").str()));
        }
    }
    let golden = doc.field("golden").arr();
    for g in golden {
        let file = g.field("file").str();
        match Filter::load(source_dir().join(file)) {
            Ok(f) => {
                if let Err(msg) = check_answers(&f, g.field("query").arr(), file, &mut fails) {
                    fails.push(format!("{file}: {msg}"));
                }
            }
            Err(err) => fails.push(format!("{file}: {err}")),
        }
    }
    std::fs::remove_dir_all(&tmp).ok();
    for f in fails.iter().take(50) {
        eprintln!("{f}");
    }
    assert!(fails.is_empty(), "{} conformance failures", fails.len());
    println!(
        "conformance (rust, library {}): {} cases and {} golden files pass",
        bloom::version(),
        cases.len(),
        golden.len()
    );
}
