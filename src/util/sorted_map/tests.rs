//! SortedMap against std's BTreeMap as the model: the same operations, the same answers.

use std::collections::BTreeMap;
use std::ops::Bound;

use super::*;

/// xorshift64*: a tiny deterministic source of operations.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n
    }
}

fn same(ours: &SortedMap<u8, u32>, model: &BTreeMap<u8, u32>) {
    assert!(ours.iter().eq(model.iter()));
    assert_eq!(ours.len(), model.len());
    assert_eq!(ours.first_key_value(), model.first_key_value());
    assert_eq!(ours.last_key_value(), model.last_key_value());
    assert_eq!(format!("{ours:?}"), format!("{model:?}"));
}

#[test]
fn random_operations_match_btreemap() {
    for seed in 1..40u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut ours = SortedMap::new();
        let mut model = BTreeMap::new();
        for step in 0..300u32 {
            let k = rng.below(40) as u8;
            match rng.below(9) {
                0 | 1 => assert_eq!(ours.insert(k, step), model.insert(k, step)),
                2 => assert_eq!(ours.remove(&k), model.remove(&k)),
                3 => {
                    *ours.entry(k).or_insert(step) += 1;
                    *model.entry(k).or_insert(step) += 1;
                }
                4 => {
                    ours.entry(k).and_modify(|v| *v += 7).or_default();
                    model.entry(k).and_modify(|v| *v += 7).or_default();
                }
                5 => assert_eq!(ours.pop_first(), model.pop_first()),
                6 => {
                    let hi = rng.below(40) as u8;
                    let bounds = (Bound::Excluded(k), Bound::Included(hi));
                    if k < hi {
                        assert!(ours.range(bounds).eq(model.range(bounds)));
                        assert!(ours.range(k..).rev().eq(model.range(k..).rev()));
                    } else {
                        // std panics on a reversed range; ours is empty.
                        assert_eq!(ours.range(bounds).count(), 0);
                    }
                }
                7 => {
                    ours.retain(|key, _| key % 3 != 0);
                    model.retain(|key, _| key % 3 != 0);
                }
                _ => {
                    assert_eq!(ours.get(&k), model.get(&k));
                    assert_eq!(ours.contains_key(&k), model.contains_key(&k));
                    if let (Some(a), Some(b)) = (ours.get_mut(&k), model.get_mut(&k)) {
                        *a ^= 5;
                        *b ^= 5;
                    }
                }
            }
            same(&ours, &model);
        }
    }
}

#[test]
fn collect_keeps_the_last_value_and_sorts() {
    let items = [(3u8, 1u32), (1, 2), (3, 4), (2, 5), (0, 6)];
    let ours: SortedMap<u8, u32> = items.into_iter().collect();
    let model: BTreeMap<u8, u32> = items.into_iter().collect();
    same(&ours, &model);
}

#[test]
fn borrowed_keys_look_up_strings() {
    let mut m: SortedMap<String, i32> = SortedMap::new();
    m.insert("b".to_string(), 2);
    m.insert("a".to_string(), 1);
    assert_eq!(m.get("a"), Some(&1));
    assert_eq!(m.range("b".to_string()..).count(), 1);
    assert_eq!(m.keys().cloned().collect::<Vec<_>>(), ["a", "b"]);
}
