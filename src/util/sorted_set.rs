//! An ordered set kept as one sorted `Vec`: the engine's stand-in for `BTreeSet`, for the
//! same reason as [`super::sorted_map`] (no B-tree node code per element type).

use std::borrow::Borrow;
use std::fmt;
use std::ops::RangeBounds;

/// A set ordered by value; see the module doc.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SortedSet<T> {
    items: Vec<T>,
}

impl<T> Default for SortedSet<T> {
    fn default() -> Self {
        SortedSet { items: Vec::new() }
    }
}

impl<T> SortedSet<T> {
    pub const fn new() -> Self {
        SortedSet { items: Vec::new() }
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

    /// The values in order.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.items.iter()
    }

    pub fn first(&self) -> Option<&T> {
        self.items.first()
    }

    pub fn last(&self) -> Option<&T> {
        self.items.last()
    }

    pub fn pop_first(&mut self) -> Option<T> {
        if self.items.is_empty() {
            None
        } else {
            Some(self.items.remove(0))
        }
    }

    pub fn pop_last(&mut self) -> Option<T> {
        self.items.pop()
    }

    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        self.items.retain(|v| keep(v));
    }
}

impl<T: Ord> SortedSet<T> {
    fn search<Q>(&self, value: &Q) -> Result<usize, usize>
    where
        T: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.items.binary_search_by(|v| v.borrow().cmp(value))
    }

    pub fn contains<Q>(&self, value: &Q) -> bool
    where
        T: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.search(value).is_ok()
    }

    pub fn get<Q>(&self, value: &Q) -> Option<&T>
    where
        T: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.items.get(self.search(value).ok()?)
    }

    /// Adds `value`; false if it was already there (the one there stays).
    pub fn insert(&mut self, value: T) -> bool {
        match self.search(&value) {
            Ok(_) => false,
            Err(i) => {
                self.items.insert(i, value);
                true
            }
        }
    }

    pub fn remove<Q>(&mut self, value: &Q) -> bool
    where
        T: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.take(value).is_some()
    }

    pub fn take<Q>(&mut self, value: &Q) -> Option<T>
    where
        T: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        let i = self.search(value).ok()?;
        Some(self.items.remove(i))
    }

    /// The values inside `range`, in order; empty (never a panic) when it is reversed.
    pub fn range<Q, R>(&self, range: R) -> std::slice::Iter<'_, T>
    where
        T: Borrow<Q>,
        Q: Ord + ?Sized,
        R: RangeBounds<Q>,
    {
        let (start, end) = super::sorted_map::span(&self.items, |v| v.borrow(), &range);
        self.items.get(start..end).unwrap_or(&[]).iter()
    }

    /// Values in `self` and not in `other`, in order.
    pub fn difference<'a>(&'a self, other: &'a SortedSet<T>) -> impl Iterator<Item = &'a T> {
        self.items.iter().filter(move |v| !other.contains(*v))
    }

    /// Values in both, in order.
    pub fn intersection<'a>(&'a self, other: &'a SortedSet<T>) -> impl Iterator<Item = &'a T> {
        self.items.iter().filter(move |v| other.contains(*v))
    }

    pub fn is_subset(&self, other: &SortedSet<T>) -> bool {
        self.items.iter().all(|v| other.contains(v))
    }

    pub fn is_superset(&self, other: &SortedSet<T>) -> bool {
        other.is_subset(self)
    }

    pub fn is_disjoint(&self, other: &SortedSet<T>) -> bool {
        self.items.iter().all(|v| !other.contains(v))
    }

    pub fn append(&mut self, other: &mut Self) {
        for v in other.items.drain(..) {
            self.insert(v);
        }
    }
}

impl<'a, T> IntoIterator for &'a SortedSet<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

impl<T> IntoIterator for SortedSet<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

/// Inserts item by item (linear on sorted input) without pulling in a sort.
impl<T: Ord> FromIterator<T> for SortedSet<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut set = SortedSet::new();
        set.extend(iter);
        set
    }
}

impl<T: Ord> Extend<T> for SortedSet<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for v in iter {
            match self.items.last() {
                Some(last) if *last < v => self.items.push(v),
                None => self.items.push(v),
                Some(_) => {
                    self.insert(v);
                }
            }
        }
    }
}

impl<'a, T: Ord + Copy + 'a> Extend<&'a T> for SortedSet<T> {
    fn extend<I: IntoIterator<Item = &'a T>>(&mut self, iter: I) {
        self.extend(iter.into_iter().copied());
    }
}

impl<T: Ord, const N: usize> From<[T; N]> for SortedSet<T> {
    fn from(items: [T; N]) -> Self {
        items.into_iter().collect()
    }
}

impl<T: fmt::Debug> fmt::Debug for SortedSet<T> {
    /// The same form as `BTreeSet`'s: `{a, b}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.items.iter()).finish()
    }
}

impl<T: serde::Serialize> serde::Serialize for SortedSet<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.items.iter())
    }
}

impl<'de, T: Ord + serde::Deserialize<'de>> serde::Deserialize<'de> for SortedSet<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Vec::<T>::deserialize(deserializer).map(|items| items.into_iter().collect())
    }
}

#[cfg(test)]
mod tests;
