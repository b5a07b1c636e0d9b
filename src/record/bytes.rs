//! A record's key or value. Kafka's `DefaultRecord.readFrom` hands out its key and value
//! as `ByteBuffer` slices of the batch it read, not copies; [`Bytes`] does the same
//! natively: [`RecordBatch::decode`](super::RecordBatch::decode) copies a batch's records
//! once into one shared buffer and each key and value is a range of it, so an owned
//! decode costs one allocation a batch instead of two a record (the allocator was half
//! of its time). Bytes built from a `Vec` keep the `Vec`. The wasm is built for size and
//! has only that second form (its decode copies each key and value, as before).
//!
//! It reads as the `Vec<u8>` it replaces: it derefs to `[u8]`, compares, hashes and
//! orders by content, prints as `Debug` prints a `Vec<u8>` and serializes as one.

use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
#[cfg(not(target_arch = "wasm32"))]
use std::rc::Rc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Immutable bytes: a `Vec<u8>` of their own, or natively a range of a buffer that the
/// records of one decoded batch share. Cloning a shared one copies no bytes.
#[derive(Clone)]
pub struct Bytes(Repr);

#[derive(Clone)]
enum Repr {
    Owned(Vec<u8>),
    /// `buf[start..start + len]`; a batch is at most i32::MAX bytes, so u32 holds both.
    #[cfg(not(target_arch = "wasm32"))]
    Shared {
        buf: Rc<[u8]>,
        start: u32,
        len: u32,
    },
}

impl Bytes {
    /// `part`, a sub-slice of `buf`, as a range of `buf` (no copy). A slice that is not
    /// inside `buf` is copied instead, so the result always holds `part`'s bytes.
    #[cfg(not(target_arch = "wasm32"))]
    pub(super) fn shared(buf: &Rc<[u8]>, part: &[u8]) -> Bytes {
        let start = (part.as_ptr() as usize).wrapping_sub(buf.as_ptr() as usize);
        let inside = start
            .checked_add(part.len())
            .is_some_and(|end| end <= buf.len());
        match (u32::try_from(start), u32::try_from(part.len())) {
            (Ok(start), Ok(len)) if inside => Bytes(Repr::Shared {
                buf: Rc::clone(buf),
                start,
                len,
            }),
            _ => Bytes::from(part),
        }
    }

    #[cfg_attr(not(target_arch = "wasm32"), inline)]
    pub fn as_slice(&self) -> &[u8] {
        match &self.0 {
            Repr::Owned(v) => v,
            #[cfg(not(target_arch = "wasm32"))]
            Repr::Shared { buf, start, len } => {
                let start = *start as usize;
                buf.get(start..start + *len as usize).unwrap_or_default()
            }
        }
    }

    /// The bytes as a `Vec` (no copy when they are one already).
    pub fn into_vec(self) -> Vec<u8> {
        match self.0 {
            Repr::Owned(v) => v,
            #[cfg(not(target_arch = "wasm32"))]
            Repr::Shared { .. } => self.as_slice().to_vec(),
        }
    }
}

impl Deref for Bytes {
    type Target = [u8];

    #[cfg_attr(not(target_arch = "wasm32"), inline)]
    fn deref(&self) -> &[u8] {
        self.as_slice()
    }
}

impl AsRef<[u8]> for Bytes {
    fn as_ref(&self) -> &[u8] {
        self.as_slice()
    }
}

impl Borrow<[u8]> for Bytes {
    fn borrow(&self) -> &[u8] {
        self.as_slice()
    }
}

impl Default for Bytes {
    fn default() -> Self {
        Bytes(Repr::Owned(Vec::new()))
    }
}

impl From<Vec<u8>> for Bytes {
    fn from(v: Vec<u8>) -> Self {
        Bytes(Repr::Owned(v))
    }
}

impl From<&[u8]> for Bytes {
    fn from(v: &[u8]) -> Self {
        Bytes(Repr::Owned(v.to_vec()))
    }
}

impl<const N: usize> From<&[u8; N]> for Bytes {
    fn from(v: &[u8; N]) -> Self {
        Bytes(Repr::Owned(v.to_vec()))
    }
}

impl From<Bytes> for Vec<u8> {
    fn from(b: Bytes) -> Self {
        b.into_vec()
    }
}

impl PartialEq for Bytes {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Bytes {}

impl PartialEq<[u8]> for Bytes {
    fn eq(&self, other: &[u8]) -> bool {
        self.as_slice() == other
    }
}

impl PartialEq<Vec<u8>> for Bytes {
    fn eq(&self, other: &Vec<u8>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl PartialOrd for Bytes {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Bytes {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_slice().cmp(other.as_slice())
    }
}

/// As a `Vec<u8>` hashes, so fingerprints do not depend on how the bytes are held.
impl Hash for Bytes {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

/// As a `Vec<u8>` prints: `[107, 49]`.
impl fmt::Debug for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_slice(), f)
    }
}

/// As a `Vec<u8>`: a sequence of numbers.
impl Serialize for Bytes {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Vec::<u8>::deserialize(deserializer).map(Bytes::from)
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use std::collections::hash_map::DefaultHasher;

    fn hash_of<T: Hash + ?Sized>(t: &T) -> u64 {
        let mut h = DefaultHasher::new();
        t.hash(&mut h);
        h.finish()
    }

    #[test]
    fn a_shared_range_reads_compares_and_hashes_as_the_vec() {
        let buf: Rc<[u8]> = Rc::from(&b"xxkey-1yy"[..]);
        let shared = Bytes::shared(&buf, buf.get(2..7).unwrap_or_default());
        let owned = Bytes::from(b"key-1".to_vec());
        assert!(matches!(
            shared.0,
            Repr::Shared {
                start: 2,
                len: 5,
                ..
            }
        ));
        assert_eq!(shared.as_slice(), b"key-1");
        assert_eq!(shared, owned);
        assert_eq!(hash_of(&shared), hash_of(&b"key-1".to_vec()));
        assert_eq!(format!("{shared:?}"), format!("{:?}", b"key-1".to_vec()));
        assert_eq!(
            serde_json::to_string(&shared).ok(),
            serde_json::to_string(&b"key-1".to_vec()).ok()
        );
        assert_eq!(shared.clone().into_vec(), b"key-1".to_vec());
    }

    #[test]
    fn a_slice_from_elsewhere_is_copied() {
        let buf: Rc<[u8]> = Rc::from(&b"abc"[..]);
        let other = b"abcdef".to_vec();
        let b = Bytes::shared(&buf, &other[1..5]);
        assert!(matches!(b.0, Repr::Owned(_)));
        assert_eq!(b.as_slice(), b"bcde");
        let empty = Bytes::shared(&buf, buf.get(3..).unwrap_or_default());
        assert!(empty.is_empty());
    }

    #[test]
    fn serde_round_trips_as_a_vec() {
        let json = serde_json::to_string(&Bytes::from(vec![1, 2, 255])).unwrap_or_default();
        assert_eq!(json, "[1,2,255]");
        let back: Result<Bytes, _> = serde_json::from_str(&json);
        assert_eq!(back.ok(), Some(Bytes::from(vec![1, 2, 255])));
    }
}
