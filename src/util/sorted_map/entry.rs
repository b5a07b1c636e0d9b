//! `SortedMap::entry`: one search, then read, insert or remove at the position found.

/// A place in a [`super::SortedMap`], as `BTreeMap`'s `Entry`.
pub enum Entry<'a, K, V> {
    Occupied(OccupiedEntry<'a, K, V>),
    Vacant(VacantEntry<'a, K, V>),
}

/// An entry whose key is present at `index`.
pub struct OccupiedEntry<'a, K, V> {
    items: &'a mut Vec<(K, V)>,
    index: usize,
}

/// An entry whose key is absent and would go at `index`.
pub struct VacantEntry<'a, K, V> {
    items: &'a mut Vec<(K, V)>,
    index: usize,
    key: K,
}

impl<'a, K, V> Entry<'a, K, V> {
    pub fn or_insert(self, default: V) -> &'a mut V {
        self.or_insert_with(|| default)
    }

    pub fn or_insert_with(self, default: impl FnOnce() -> V) -> &'a mut V {
        match self {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => e.insert(default()),
        }
    }

    pub fn or_default(self) -> &'a mut V
    where
        V: Default,
    {
        self.or_insert_with(V::default)
    }

    pub fn and_modify(self, f: impl FnOnce(&mut V)) -> Self {
        match self {
            Entry::Occupied(mut e) => {
                f(e.get_mut());
                Entry::Occupied(e)
            }
            vacant => vacant,
        }
    }

    pub fn key(&self) -> &K {
        match self {
            Entry::Occupied(e) => e.key(),
            Entry::Vacant(e) => e.key(),
        }
    }
}

impl<'a, K, V> OccupiedEntry<'a, K, V> {
    pub(super) fn new(items: &'a mut Vec<(K, V)>, index: usize) -> Self {
        OccupiedEntry { items, index }
    }

    fn slot(&self) -> &(K, V) {
        // `index` came from a successful search on this very vector, which the entry
        // borrows mutably, so it is in bounds.
        &self.items[self.index]
    }

    pub fn key(&self) -> &K {
        &self.slot().0
    }

    pub fn get(&self) -> &V {
        &self.slot().1
    }

    pub fn get_mut(&mut self) -> &mut V {
        &mut self.items[self.index].1
    }

    pub fn into_mut(self) -> &'a mut V {
        &mut self.items[self.index].1
    }

    pub fn insert(&mut self, value: V) -> V {
        std::mem::replace(self.get_mut(), value)
    }

    pub fn remove(self) -> V {
        self.remove_entry().1
    }

    pub fn remove_entry(self) -> (K, V) {
        self.items.remove(self.index)
    }
}

impl<'a, K, V> VacantEntry<'a, K, V> {
    pub(super) fn new(items: &'a mut Vec<(K, V)>, index: usize, key: K) -> Self {
        VacantEntry { items, index, key }
    }

    pub fn key(&self) -> &K {
        &self.key
    }

    pub fn into_key(self) -> K {
        self.key
    }

    pub fn insert(self, value: V) -> &'a mut V {
        let index = self.index;
        self.items.insert(index, (self.key, value));
        &mut self.items[index].1
    }
}
