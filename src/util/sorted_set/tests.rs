//! SortedSet against std's BTreeSet as the model.

use std::collections::BTreeSet;

use super::*;

#[test]
fn random_operations_match_btreeset() {
    let mut state = 0x1234_5678_9ABC_DEF1u64;
    let mut next = |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let mut ours = SortedSet::new();
    let mut model = BTreeSet::new();
    for _ in 0..3000 {
        let v = next(50) as u16;
        match next(6) {
            0 | 1 => assert_eq!(ours.insert(v), model.insert(v)),
            2 => assert_eq!(ours.remove(&v), model.remove(&v)),
            3 => assert_eq!(ours.pop_first(), model.pop_first()),
            4 => assert!(ours.range(v..).eq(model.range(v..))),
            _ => assert_eq!(ours.contains(&v), model.contains(&v)),
        }
        assert!(ours.iter().eq(model.iter()));
        assert_eq!(ours.first(), model.first());
        assert_eq!(ours.last(), model.last());
    }
    let other: SortedSet<u16> = (0..50).step_by(3).collect();
    let other_model: BTreeSet<u16> = (0..50).step_by(3).collect();
    assert!(ours.difference(&other).eq(model.difference(&other_model)));
    assert!(ours
        .intersection(&other)
        .eq(model.intersection(&other_model)));
    assert_eq!(format!("{ours:?}"), format!("{model:?}"));
}
