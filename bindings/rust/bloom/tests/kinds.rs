// SPDX-License-Identifier: Apache-2.0
//! The kinds the library lists (bloom_kind_count / bloom_kind_at): each one
//! this crate can name, whose capabilities it knows, and that behaves as
//! those capabilities say. A kind added to the library without this crate
//! learning it fails here.

use bloom::{kinds, Caps, Filter, Hash, Kind, Options};

fn filled(kind: Kind, tune: impl Fn(Options) -> Options) -> bloom::Result<Filter> {
    let mut f = Filter::new(&tune(Options::new(200, 0.01).kind(kind)))?;
    for i in 0..50 {
        f.add(format!("k{i}").as_str())?;
    }
    Ok(f)
}

#[test]
fn the_library_lists_kinds_in_order() {
    let codes: Vec<i32> = kinds().iter().map(|k| k.code).collect();
    assert!(!codes.is_empty());
    assert!(codes.windows(2).all(|w| w[0] < w[1]), "{codes:?}");
    assert_eq!(unsafe { bloom::sys::bloom_kind_at(codes.len() as i32) }, 0);
}

#[test]
fn every_listed_kind_is_known_to_this_crate() {
    for k in kinds() {
        let kind = k
            .kind
            .unwrap_or_else(|| panic!("kind {} ({}) is not in bloom::Kind", k.code, k.name));
        assert_eq!(kind.name(), k.name);
        assert_eq!(Kind::from_name(k.name), Some(kind));
        assert_eq!(kind.caps(), k.caps);
        assert_eq!(
            k.caps.unknown(),
            0,
            "{}: capability bits this crate does not name",
            k.name
        );
    }
    assert_eq!(bloom::Caps::default().names(), Vec::<&str>::new());
}

#[test]
fn each_kind_behaves_as_its_caps_say() {
    for k in kinds() {
        let kind = k.kind.unwrap();
        let mut f = filled(kind, |o| o).unwrap();
        assert!(f.contains("k1"));
        let other = filled(kind, |o| o).unwrap();
        let mut g = filled(kind, |o| o).unwrap();
        // What the library did, against what the kind's caps say it can do.
        let done = [
            (Caps::REMOVE, f.remove("k1").is_ok()),
            (Caps::MERGE, f.merge(&other).is_ok()),
            (Caps::INTERSECT, g.intersect(&other).is_ok()),
            (Caps::CONCURRENT, filled(kind, |o| o.concurrent(true)).is_ok()),
            (Caps::SPLIT_BLOCK, filled(kind, |o| o.split_block(true)).is_ok()),
            (
                Caps::REDISBLOOM_HASH,
                filled(kind, |o| o.hash(Hash::RedisBloom)).is_ok(),
            ),
        ];
        for (cap, worked) in done {
            assert_eq!(worked, k.caps.contains(cap), "{}: {:?}", k.name, cap.names());
        }
    }
}
