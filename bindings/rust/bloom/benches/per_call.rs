// SPDX-License-Identifier: Apache-2.0
//! Per-key cost of the Rust binding against the C API in the same process:
//! the workload of bench/bindings/per_call.c (100,000 keys "key-<i>", a
//! classic XXH3 filter sized for them at p = 0.01; single add and query per
//! key, then batch add and query in calls of 1024 keys). Each run times the
//! C API (raw bloom-sys calls over ready pointer/length arrays, as a C
//! caller makes them) and then the safe API (`&[&[u8]]` slices; the batch
//! query also over `&[&str]`), alternating so machine load hits both alike.
//! Medians of 15 runs of the thread's CPU time (CLOCK_THREAD_CPUTIME_ID:
//! on a shared machine wall time mostly measures the other processes).
//! Prints "rust <op> <binding ns/key> <C ns/key> <ratio>".

use std::os::raw::{c_int, c_long, c_void};

use bloom::{sys, Filter, Options};

const N: usize = 100_000;
const BATCH: usize = 1024;
const RUNS: usize = 15;

#[repr(C)]
struct Timespec {
    sec: c_long,
    nsec: c_long,
}
extern "C" {
    fn clock_gettime(clock: c_int, ts: *mut Timespec) -> c_int;
}
const CLOCK_THREAD_CPUTIME_ID: c_int = 3; // Linux

/// This thread's CPU time in ns.
fn cpu_ns() -> f64 {
    let mut ts = Timespec { sec: 0, nsec: 0 };
    // SAFETY: a valid out-pointer.
    unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.sec as f64 * 1e9 + ts.nsec as f64
}

fn fresh() -> Filter {
    Filter::new(&Options::new(N as u64, 0.01)).unwrap()
}

fn median(mut t: Vec<f64>) -> f64 {
    t.sort_by(|a, b| a.partial_cmp(b).unwrap());
    t[t.len() / 2]
}

struct Keys<'a> {
    bytes: Vec<&'a [u8]>,
    strs: Vec<&'a str>,
    ptrs: Vec<*const c_void>,
    lens: Vec<usize>,
}

/// The C API's cost: what a C program's loop pays.
fn c_api(op: &str, f: &mut Filter, k: &Keys, sink: &mut usize) {
    let p = f.as_ptr() as *mut sys::bloom_filter;
    let mut results = [0u8; BATCH];
    unsafe {
        match op {
            "add" => (0..N).for_each(|i| {
                sys::bloom_add(p, k.ptrs[i], k.lens[i]);
            }),
            "query" => (0..N).for_each(|i| *sink += sys::bloom_query(p, k.ptrs[i], k.lens[i]) as usize),
            "add_batch" => (0..N).step_by(BATCH).for_each(|i| {
                let n = BATCH.min(N - i);
                sys::bloom_add_batch(p, k.ptrs[i..].as_ptr(), k.lens[i..].as_ptr(), n);
            }),
            _ => (0..N).step_by(BATCH).for_each(|i| {
                let n = BATCH.min(N - i);
                sys::bloom_query_batch(
                    p,
                    k.ptrs[i..].as_ptr(),
                    k.lens[i..].as_ptr(),
                    n,
                    results.as_mut_ptr(),
                );
                *sink += results[0] as usize;
            }),
        }
    }
}

fn binding(op: &str, f: &mut Filter, k: &Keys, sink: &mut usize, answers: &mut [bool]) {
    match op {
        "add" => k.bytes.iter().for_each(|key| f.add(key).unwrap()),
        "query" => k.bytes.iter().for_each(|key| *sink += f.contains(key) as usize),
        "add_batch" => k.bytes.chunks(BATCH).for_each(|c| f.add_batch(c).unwrap()),
        "query_batch" => k.bytes.chunks(BATCH).for_each(|c| {
            f.query_batch_into(c, &mut answers[..c.len()]).unwrap();
            *sink += answers[0] as usize;
        }),
        _ => k.strs.chunks(BATCH).for_each(|c| {
            f.query_batch_into(c, &mut answers[..c.len()]).unwrap();
            *sink += answers[0] as usize;
        }),
    }
}

fn main() {
    let strings: Vec<String> = (0..N).map(|i| format!("key-{i}")).collect();
    let keys = Keys {
        bytes: strings.iter().map(|s| s.as_bytes()).collect(),
        strs: strings.iter().map(|s| s.as_str()).collect(),
        ptrs: strings.iter().map(|s| s.as_ptr() as *const c_void).collect(),
        lens: strings.iter().map(|s| s.len()).collect(),
    };
    let mut sink = 0usize;
    let mut answers = vec![false; BATCH];
    let (mut fc, mut fb) = (fresh(), fresh());
    for op in ["add", "query", "add_batch", "query_batch", "query_batch_str"] {
        let (mut tc, mut tb) = (Vec::new(), Vec::new());
        for _ in 0..RUNS {
            if op.starts_with("add") {
                fc = fresh();
                fb = fresh();
            }
            let t0 = cpu_ns();
            c_api(op, &mut fc, &keys, &mut sink);
            tc.push((cpu_ns() - t0) / N as f64);
            let t0 = cpu_ns();
            binding(op, &mut fb, &keys, &mut sink, &mut answers);
            tb.push((cpu_ns() - t0) / N as f64);
        }
        let (b, c) = (median(tb), median(tc));
        println!("rust {op} {b:.1} {c:.1} {:.2}", b / c);
    }
    assert!(sink > 0);
}
