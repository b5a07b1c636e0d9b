//! An ordered map kept as one sorted `Vec`: the engine's stand-in for `BTreeMap`.
//!
//! The engine needs ordered maps everywhere (iteration order is part of determinism), but
//! `BTreeMap`'s node code (search, split, rebalance) is monomorphised for every key/value
//! pair type: about 3 KB of wasm each, ≈ 150 KB raw (≈ 55 KB gzip) over the page's ~45
//! map types. A sorted vector is a binary search plus `Vec::insert`/`remove`, a few
//! hundred bytes per type. The playground's maps are small (brokers, partitions,
//! producers, in-flight requests), where a vector is also faster; the methods mirror
//! `BTreeMap`'s so the two read alike, and none of them panics (a reversed `range` is
//! empty instead).

use std::borrow::Borrow;
use std::fmt;
use std::ops::{Bound, Index, RangeBounds};

mod entry;
pub use entry::{Entry, OccupiedEntry, VacantEntry};

/// A map ordered by key; see the module doc.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SortedMap<K, V> {
    items: Vec<(K, V)>,
}

impl<K, V> Default for SortedMap<K, V> {
    fn default() -> Self {
        SortedMap { items: Vec::new() }
    }
}

impl<K, V> SortedMap<K, V> {
    pub const fn new() -> Self {
        SortedMap { items: Vec::new() }
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn clear(&mut self) {
        self.items.clear();
    }

    /// The entries in key order.
    pub fn iter(&self) -> Iter<'_, K, V> {
        Iter(self.items.iter())
    }

    pub fn iter_mut(&mut self) -> IterMut<'_, K, V> {
        IterMut(self.items.iter_mut())
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator + Clone {
        self.items.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator + Clone {
        self.items.iter().map(|(_, v)| v)
    }

    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut V> + ExactSizeIterator {
        self.items.iter_mut().map(|(_, v)| v)
    }

    pub fn into_keys(self) -> impl DoubleEndedIterator<Item = K> + ExactSizeIterator {
        self.items.into_iter().map(|(k, _)| k)
    }

    pub fn into_values(self) -> impl DoubleEndedIterator<Item = V> + ExactSizeIterator {
        self.items.into_iter().map(|(_, v)| v)
    }

    pub fn first_key_value(&self) -> Option<(&K, &V)> {
        self.items.first().map(|(k, v)| (k, v))
    }

    pub fn last_key_value(&self) -> Option<(&K, &V)> {
        self.items.last().map(|(k, v)| (k, v))
    }

    /// Removes the smallest entry (a shift of the rest: fine for the short maps this
    /// holds).
    pub fn pop_first(&mut self) -> Option<(K, V)> {
        if self.items.is_empty() {
            None
        } else {
            Some(self.items.remove(0))
        }
    }

    /// The smallest entry, to look at and maybe remove.
    pub fn first_entry(&mut self) -> Option<OccupiedEntry<'_, K, V>> {
        if self.items.is_empty() {
            None
        } else {
            Some(OccupiedEntry::new(&mut self.items, 0))
        }
    }

    pub fn pop_last(&mut self) -> Option<(K, V)> {
        self.items.pop()
    }

    /// Keeps the entries for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.items.retain_mut(|(k, v)| keep(k, v));
    }
}

impl<K: Ord, V> SortedMap<K, V> {
    /// Where `key` is (Ok) or would go (Err).
    fn search<Q>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.items.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    pub fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        let i = self.search(key).ok()?;
        self.items.get(i).map(|(_, v)| v)
    }

    pub fn get_key_value<Q>(&self, key: &Q) -> Option<(&K, &V)>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        let i = self.search(key).ok()?;
        self.items.get(i).map(|(k, v)| (k, v))
    }

    pub fn get_mut<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        let i = self.search(key).ok()?;
        self.items.get_mut(i).map(|(_, v)| v)
    }

    pub fn contains_key<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.search(key).is_ok()
    }

    /// Inserts or replaces; returns the value replaced (the key already there stays, as
    /// in `BTreeMap`).
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.search(&key) {
            Ok(i) => self
                .items
                .get_mut(i)
                .map(|(_, v)| std::mem::replace(v, value)),
            Err(i) => {
                self.items.insert(i, (key, value));
                None
            }
        }
    }

    pub fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.remove_entry(key).map(|(_, v)| v)
    }

    pub fn remove_entry<Q>(&mut self, key: &Q) -> Option<(K, V)>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        let i = self.search(key).ok()?;
        Some(self.items.remove(i))
    }

    pub fn entry(&mut self, key: K) -> Entry<'_, K, V> {
        match self.search(&key) {
            Ok(index) => Entry::Occupied(OccupiedEntry::new(&mut self.items, index)),
            Err(index) => Entry::Vacant(VacantEntry::new(&mut self.items, index, key)),
        }
    }

    /// The index span of the keys inside `range`; empty (never a panic) when the range is
    /// reversed.
    fn span<Q, R>(&self, range: &R) -> (usize, usize)
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
        R: RangeBounds<Q>,
    {
        span(&self.items, |(k, _)| k.borrow(), range)
    }

    /// The entries whose keys are in `range`, in order.
    pub fn range<Q, R>(&self, range: R) -> Iter<'_, K, V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
        R: RangeBounds<Q>,
    {
        let (start, end) = self.span(&range);
        Iter(self.items.get(start..end).unwrap_or(&[]).iter())
    }

    pub fn range_mut<Q, R>(&mut self, range: R) -> IterMut<'_, K, V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
        R: RangeBounds<Q>,
    {
        let (start, end) = self.span(&range);
        IterMut(self.items.get_mut(start..end).unwrap_or(&mut []).iter_mut())
    }

    /// Moves every entry of `other` in (its values win, as in `BTreeMap::append`).
    pub fn append(&mut self, other: &mut Self) {
        for (k, v) in other.items.drain(..) {
            self.insert(k, v);
        }
    }
}

/// Borrowed entries in key order.
#[derive(Clone)]
pub struct Iter<'a, K, V>(std::slice::Iter<'a, (K, V)>);

impl<'a, K, V> Iterator for Iter<'a, K, V> {
    type Item = (&'a K, &'a V);

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k, v))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<K, V> DoubleEndedIterator for Iter<'_, K, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (k, v))
    }
}

impl<K, V> ExactSizeIterator for Iter<'_, K, V> {}

/// Entries with mutable values, in key order.
pub struct IterMut<'a, K, V>(std::slice::IterMut<'a, (K, V)>);

impl<'a, K, V> Iterator for IterMut<'a, K, V> {
    type Item = (&'a K, &'a mut V);

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (&*k, v))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<K, V> DoubleEndedIterator for IterMut<'_, K, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (&*k, v))
    }
}

impl<K, V> ExactSizeIterator for IterMut<'_, K, V> {}

impl<'a, K, V> IntoIterator for &'a SortedMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = Iter<'a, K, V>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, K, V> IntoIterator for &'a mut SortedMap<K, V> {
    type Item = (&'a K, &'a mut V);
    type IntoIter = IterMut<'a, K, V>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

impl<K, V> IntoIterator for SortedMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

/// Inserts item by item (linear on sorted input; a later item replaces an earlier one with
/// the same key, as `collect()` into a `BTreeMap` does) without pulling in a sort.
impl<K: Ord, V> FromIterator<(K, V)> for SortedMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut map = SortedMap::new();
        map.extend(iter);
        map
    }
}

impl<K: Ord, V> Extend<(K, V)> for SortedMap<K, V> {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        for (k, v) in iter {
            // Appending in order is the common case: skip the search.
            match self.items.last() {
                Some((last, _)) if *last < k => self.items.push((k, v)),
                None => self.items.push((k, v)),
                Some(_) => {
                    self.insert(k, v);
                }
            }
        }
    }
}

impl<K: Ord, V, const N: usize> From<[(K, V); N]> for SortedMap<K, V> {
    fn from(items: [(K, V); N]) -> Self {
        items.into_iter().collect()
    }
}

/// `map[&key]`, as `BTreeMap` offers, for tests and views that just inserted the key; it
/// panics on a missing key like `BTreeMap`'s, so engine code uses `get`.
impl<K: Ord + Borrow<Q>, Q: Ord + ?Sized, V> Index<&Q> for SortedMap<K, V> {
    type Output = V;

    fn index(&self, key: &Q) -> &V {
        match self.get(key) {
            Some(v) => v,
            None => panic!("no entry for the key in SortedMap"),
        }
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for SortedMap<K, V> {
    /// The same form as `BTreeMap`'s: `{k: v, ...}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<K: serde::Serialize, V: serde::Serialize> serde::Serialize for SortedMap<K, V> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<'de, K, V> serde::Deserialize<'de> for SortedMap<K, V>
where
    K: Ord + serde::Deserialize<'de>,
    V: serde::Deserialize<'de>,
{
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visit<K, V>(std::marker::PhantomData<(K, V)>);
        impl<'de, K, V> serde::de::Visitor<'de> for Visit<K, V>
        where
            K: Ord + serde::Deserialize<'de>,
            V: serde::Deserialize<'de>,
        {
            type Value = SortedMap<K, V>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Self::Value, A::Error> {
                let mut out = SortedMap::new();
                while let Some((k, v)) = map.next_entry()? {
                    out.insert(k, v);
                }
                Ok(out)
            }
        }
        deserializer.deserialize_map(Visit(std::marker::PhantomData))
    }
}

/// Where `range` starts and ends in `items`, which are sorted by `key`: empty (never a
/// panic) when the range is reversed. Both sorted collections' `range`.
pub(super) fn span<E, Q, R>(items: &[E], key: impl Fn(&E) -> &Q, range: &R) -> (usize, usize)
where
    Q: Ord + ?Sized,
    R: RangeBounds<Q>,
{
    let start = match range.start_bound() {
        Bound::Included(s) => items.partition_point(|e| key(e) < s),
        Bound::Excluded(s) => items.partition_point(|e| key(e) <= s),
        Bound::Unbounded => 0,
    };
    let end = match range.end_bound() {
        Bound::Included(e) => items.partition_point(|x| key(x) <= e),
        Bound::Excluded(e) => items.partition_point(|x| key(x) < e),
        Bound::Unbounded => items.len(),
    };
    (start, end.max(start))
}

#[cfg(test)]
mod tests;
