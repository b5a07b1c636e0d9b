//! Sorted collections built by insertion.
//!
//! The standard library sorts with driftsort: `sort_by_key` and `collect()` into a
//! std `BTreeMap`/`BTreeSet` (which sorts its items first) add a few KB of wasm for every
//! element type, about 15 KB gzip over the page. The playground's lists are short, or
//! arrive already sorted, so these insert one at a time and cost a few hundred bytes (the
//! engine's [`SortedMap`]/[`SortedSet`] collect that way too).

use crate::util::sorted_map::SortedMap;
use crate::util::sorted_set::SortedSet;

/// `collect()` into a `SortedMap` or `SortedSet`, inserting item by item.
pub trait CollectSorted: Iterator + Sized {
    /// A map from `(key, value)` items; a later item replaces an earlier one with the
    /// same key, as `collect()` does.
    fn collect_map<K: Ord, V>(self) -> SortedMap<K, V>
    where
        Self: Iterator<Item = (K, V)>,
    {
        let mut map = SortedMap::new();
        map.extend(self);
        map
    }

    /// A set of the items.
    fn collect_set(self) -> SortedSet<Self::Item>
    where
        Self::Item: Ord,
    {
        let mut set = SortedSet::new();
        set.extend(self);
        set
    }
}

impl<I: Iterator> CollectSorted for I {}

/// Stable sort (insertion sort): linear on sorted input, quadratic at worst, for short
/// lists and lists that are nearly sorted already.
pub fn sort_by<T>(items: &mut [T], mut compare: impl FnMut(&T, &T) -> std::cmp::Ordering) {
    for i in 1..items.len() {
        let mut j = i;
        while j > 0 && compare(&items[j - 1], &items[j]).is_gt() {
            items.swap(j - 1, j);
            j -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collect_map_keeps_the_last_value_like_collect() {
        let items = [(2, "b"), (1, "a"), (2, "c")];
        let ours = items.iter().copied().collect_map();
        let std: std::collections::BTreeMap<_, _> = items.iter().copied().collect();
        assert!(ours.iter().eq(std.iter()));
        assert_eq!(ours.get(&2), Some(&"c"));
    }

    #[test]
    fn collect_set_sorts_and_dedups() {
        let set = [3, 1, 3, 2].into_iter().collect_set();
        assert_eq!(set.into_iter().collect::<Vec<_>>(), vec![1, 2, 3]);
    }

    #[test]
    fn sort_by_is_stable_and_matches_std() {
        let mut state = 7u32;
        let mut items: Vec<(u8, u32)> = (0..200)
            .map(|i| {
                state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                ((state >> 16) as u8 % 10, i)
            })
            .collect();
        let mut expected = items.clone();
        expected.sort_by_key(|(k, _)| *k);
        sort_by(&mut items, |a, b| a.0.cmp(&b.0));
        assert_eq!(items, expected);
        let mut empty: [u8; 0] = [];
        sort_by(&mut empty, u8::cmp);
    }
}
