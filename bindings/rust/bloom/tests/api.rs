// SPDX-License-Identifier: Apache-2.0
//! The safe API beyond the conformance cases: errors, ownership, set
//! operations, stages, mapping, threads, the window kind where present.

use bloom::{ConcurrentFilter, Filter, Hash, Kind, Options, Status};

fn tmp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("bloom-rust-api-{}-{name}", std::process::id()))
}

#[test]
fn thread_safety_is_in_the_types() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Filter>();
    send_sync::<ConcurrentFilter>();
    // Readers share &Filter across threads.
    let mut f = Filter::with_capacity(1000, 0.01).unwrap();
    f.add_batch(&["a", "b"]).unwrap();
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| assert!(f.contains("a") && f.contains("b")));
        }
    });
}

#[test]
fn concurrent_adds_from_threads_lose_nothing() {
    let f = ConcurrentFilter::new(Options::new(100_000, 0.01).kind(Kind::Counting)).unwrap();
    std::thread::scope(|s| {
        for t in 0..4 {
            let f = &f;
            s.spawn(move || {
                let keys: Vec<String> = (0..2000).map(|i| format!("{t}/{i}")).collect();
                f.add_batch(&keys[..1000]).unwrap();
                for k in &keys[1000..] {
                    f.add(k).unwrap();
                }
            });
        }
    });
    let mut f = f;
    assert_eq!(f.filter().info().unwrap().keys_added, 8000);
    let f = f.into_inner();
    for t in 0..4 {
        for i in 0..2000 {
            assert!(f.contains(&format!("{t}/{i}")));
        }
    }
    // A filter made without the flag cannot become concurrent.
    let (_back, err) = Filter::with_capacity(10, 0.1)
        .unwrap()
        .into_concurrent()
        .unwrap_err();
    assert_eq!(err.status(), Status::InvalidArg);
}

#[test]
fn errors_carry_status_and_message() {
    let e = Filter::new(&Options::new(0, 0.01)).unwrap_err();
    assert_eq!(e.status(), Status::InvalidArg);
    assert_eq!(e.code(), -1);
    assert!(!e.message().is_empty(), "{e}");
    let e = Filter::new(&Options::new(10, 0.01).kind(Kind::Scalable).concurrent(true)).unwrap_err();
    assert_eq!(e.status(), Status::Unsupported, "{e}");
    let e = Filter::new(
        &Options::new(10, 0.01)
            .kind(Kind::Blocked)
            .plain_double_hashing(true),
    )
    .unwrap_err();
    assert_eq!(e.status(), Status::InvalidArg, "{e}");
    let e = Filter::load(tmp("missing")).unwrap_err();
    assert_eq!(e.status(), Status::Io);
    assert!(e.message().contains("missing"), "{e}");
    let e = Filter::deserialize(b"not a filter").unwrap_err();
    assert_eq!(e.status(), Status::Format, "{e}");
    let e = Filter::load("bad\0path").unwrap_err();
    assert_eq!(e.status(), Status::InvalidArg);
    let mut f = Filter::with_capacity(100, 0.01).unwrap();
    assert_eq!(f.remove("x").unwrap_err().status(), Status::Unsupported);
    assert_eq!(f.stage_info(1).unwrap_err().status(), Status::InvalidArg);
    let mut c = Filter::new(&Options::new(100, 0.01).kind(Kind::Counting)).unwrap();
    assert_eq!(c.remove("never").unwrap_err().status(), Status::NotPresent);
    assert!(Status::Checksum.description().starts_with("checksum mismatch"));
    assert_eq!(Status::from_code(-8), Status::Incompatible);
    assert_eq!(Status::from_code(-99), Status::Other(-99));
}

#[test]
fn test_and_add_remove_clear_clone() {
    let mut f = Filter::new(&Options::new(1000, 0.01).kind(Kind::Counting).counter_bits(8)).unwrap();
    assert!(!f.test_and_add("k").unwrap());
    assert!(f.test_and_add("k").unwrap());
    f.remove("k").unwrap();
    assert!(f.contains("k")); // added twice, removed once
    let g = f.try_clone().unwrap();
    f.clear().unwrap();
    assert!(!f.contains("k"));
    assert!(g.contains("k"));
    assert_eq!(g.info().unwrap().counter_bits, 8);
}

#[test]
fn merge_and_intersect() {
    let o = Options::new(1000, 0.01).hash(Hash::Murmur3).seed(5);
    let mut a = Filter::new(&o).unwrap();
    let mut b = Filter::new(&o).unwrap();
    a.add_batch(&["both", "only-a"]).unwrap();
    b.add_batch(&[&b"both"[..], b"only-b"]).unwrap();
    let mut u = a.try_clone().unwrap();
    u.merge(&b).unwrap();
    assert_eq!(
        u.query_batch(&["both", "only-a", "only-b"]).unwrap(),
        vec![true, true, true]
    );
    a.intersect(&b).unwrap();
    assert!(a.contains("both"));
    assert_eq!(a.info().unwrap().keys_added, 2);
    let other = Filter::new(&o.clone().seed(6)).unwrap();
    let e = u.merge(&other).unwrap_err();
    assert_eq!(e.status(), Status::Incompatible);
    assert!(e.message().contains("seed"), "{e}");
}

#[test]
fn scalable_stages_and_params() {
    let mut f = Filter::new(&Options::new(50, 0.01).kind(Kind::Scalable).growth(2.0, 0.5)).unwrap();
    let keys: Vec<String> = (0..500).map(|i| i.to_string()).collect();
    f.add_batch(&keys).unwrap();
    let i = f.info().unwrap();
    assert!(i.stages > 1, "{i:?}");
    assert_eq!(i.growth, 2.0);
    let s0 = f.stage_info(0).unwrap();
    let last = f.stage_info(i.stages - 1).unwrap();
    assert_eq!(s0.capacity, 50);
    assert!(last.fp_rate < s0.fp_rate);
    let (m, k) = bloom::optimal_params(1_000_000, 0.01).unwrap();
    assert_eq!((m, k), (9_585_059, 7));
    assert_eq!(
        bloom::optimal_params(0, 0.01).unwrap_err().status(),
        Status::InvalidArg
    );
    assert!(bloom::expected_fp_rate(1000, 9586, 7) < 0.011);
    assert!(bloom::expected_fp_rate(1, 0, 1).is_nan());
    // The crate's version is the library release it wraps (tests/version
    // checks it against CMakeLists.txt), and the tests run against that one.
    assert_eq!(bloom::version(), env!("CARGO_PKG_VERSION"));
    let parts: Vec<u32> = bloom::version().split('.').map(|p| p.parse().unwrap()).collect();
    assert_eq!(bloom::version_number(), parts[0] * 10000 + parts[1] * 100 + parts[2]);
}

#[test]
fn save_load_map() {
    let p = tmp("saved.bloom");
    let mut f = Filter::new(
        &Options::new(1000, 0.001)
            .kind(Kind::Partitioned)
            .hash(Hash::Fnv1a),
    )
    .unwrap();
    f.add("é").unwrap();
    f.save(&p).unwrap();
    let l = Filter::load(&p).unwrap();
    assert!(l.contains(&b"\xc3\xa9"[..])); // the UTF-8 of "é"
    let mut m = Filter::map(&p).unwrap();
    assert!(m.info().unwrap().read_only);
    assert!(m.contains("é"));
    assert_eq!(m.add("x").unwrap_err().status(), Status::Unsupported);
    assert_eq!(l.serialize().unwrap(), std::fs::read(&p).unwrap());
    assert_eq!(l.serialized_size().unwrap(), l.serialize().unwrap().len());
    std::fs::remove_file(&p).unwrap();
    assert_eq!(f.save(std::env::temp_dir()).unwrap_err().status(), Status::Io);
}

#[test]
fn names() {
    for k in [
        Kind::Classic,
        Kind::Partitioned,
        Kind::Blocked,
        Kind::Counting,
        Kind::Scalable,
    ] {
        assert_eq!(Kind::from_name(k.name()), Some(k));
        assert!(k.is_supported());
    }
    assert_eq!(Hash::from_name("murmur3"), Some(Hash::Murmur3));
    assert_eq!(Hash::Fnv1a.name(), "fnv1a");
    assert_eq!(Hash::from_name("redisbloom"), Some(Hash::RedisBloom));
    for (h, name) in [
        (Hash::Guava, "guava"),
        (Hash::BitsAndBlooms, "bits-and-blooms"),
        (Hash::Parquet, "parquet"),
    ] {
        assert_eq!(h.name(), name);
        assert_eq!(Hash::from_name(name), Some(h));
    }
    assert_eq!(Kind::from_name("nope"), None);
}

/// The window kind: run only when the loaded library has it (the
/// bloom_advance symbol and a bloom_options long enough for window_ms);
/// otherwise check that the binding refuses it clearly.
#[test]
fn window_kind_where_the_library_has_it() {
    let has = bloom::sys::bloom_advance_fn().is_some() && bloom::library_has_window_ms();
    if !has {
        eprintln!("window kind: not in this library; checking that it is refused");
        let e = Filter::new(&Options::new(100, 0.01).kind(Kind::Window)).unwrap_err();
        assert!(
            matches!(e.status(), Status::InvalidArg | Status::Unsupported),
            "{e}"
        );
        let e = Filter::new(&Options::new(100, 0.01).kind(Kind::Window).window_ms(1000)).unwrap_err();
        assert_eq!(e.status(), Status::Unsupported, "{e}");
        let mut f = Filter::with_capacity(10, 0.1).unwrap();
        assert_eq!(f.advance(5).unwrap_err().status(), Status::Unsupported);
        return;
    }
    assert!(Kind::Window.is_supported());
    let mut f = Filter::new(&Options::new(100, 0.01).kind(Kind::Window).window_ms(1000)).unwrap();
    f.advance(0).unwrap();
    f.add("early").unwrap();
    assert!(f.contains("early"));
    f.advance(10_000).unwrap();
    assert_eq!(f.info().unwrap().kind, Some(Kind::Window));
    // A count window of 100 keeps the most recent insertions.
    let mut c = Filter::new(&Options::new(100, 0.01).kind(Kind::Window)).unwrap();
    let keys: Vec<String> = (0..300).map(|i| i.to_string()).collect();
    c.add_batch(&keys).unwrap();
    assert!(keys[250..].iter().all(|k| c.contains(k)));
}

#[test]
fn split_block_is_a_blocked_option() {
    let o = Options::new(2000, 0.001).kind(Kind::Blocked).split_block(true);
    let mut f = Filter::new(&o).unwrap();
    for i in 0..2000 {
        f.add(&format!("key-{i}")).unwrap();
    }
    assert!((0..2000).all(|i| f.contains(&format!("key-{i}"))));
    let info = f.info().unwrap();
    assert!(info.split_block);
    assert_eq!(info.hashes, 8);
    let e = Filter::new(&o.kind(Kind::Classic)).unwrap_err();
    assert_eq!(e.status(), Status::InvalidArg);
}
