//! A bounds-checked big-endian cursor for bytes that come from the disk or the wire
//! (snapshots, `__transaction_state` records, …): decoders read through it, so none
//! can index past the end or panic on short input.

/// The input ended before a field did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Short {
    pub needed: usize,
    pub available: usize,
}

impl std::fmt::Display for Short {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "needed {} more byte(s), {} left",
            self.needed, self.available
        )
    }
}

/// For decoders whose errors are plain text.
impl From<Short> for String {
    fn from(s: Short) -> String {
        format!("truncated: {s}")
    }
}

#[derive(Clone, Debug)]
pub struct ByteReader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> ByteReader<'a> {
    pub fn new(buf: &'a [u8]) -> Self {
        ByteReader { buf, pos: 0 }
    }

    pub fn position(&self) -> usize {
        self.pos
    }

    pub fn remaining(&self) -> usize {
        self.buf.len().saturating_sub(self.pos)
    }

    /// What has not been read yet.
    pub fn rest(&self) -> &'a [u8] {
        self.buf.get(self.pos..).unwrap_or_default()
    }

    pub fn take(&mut self, n: usize) -> Result<&'a [u8], Short> {
        let short = Short {
            needed: n,
            available: self.remaining(),
        };
        let end = self.pos.checked_add(n).ok_or(short)?;
        let bytes = self.buf.get(self.pos..end).ok_or(short)?;
        self.pos = end;
        Ok(bytes)
    }

    pub fn array<const N: usize>(&mut self) -> Result<[u8; N], Short> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    pub fn i8(&mut self) -> Result<i8, Short> {
        self.array::<1>().map(i8::from_be_bytes)
    }
    pub fn i16(&mut self) -> Result<i16, Short> {
        self.array::<2>().map(i16::from_be_bytes)
    }
    pub fn i32(&mut self) -> Result<i32, Short> {
        self.array::<4>().map(i32::from_be_bytes)
    }
    pub fn u32(&mut self) -> Result<u32, Short> {
        self.array::<4>().map(u32::from_be_bytes)
    }
    pub fn i64(&mut self) -> Result<i64, Short> {
        self.array::<8>().map(i64::from_be_bytes)
    }

    /// Decodes a prefix of the rest with `f` (which returns the value and the bytes it
    /// used, like the varint decoders) and moves past it.
    pub fn decode<T, E>(
        &mut self,
        f: impl FnOnce(&'a [u8]) -> Result<(T, usize), E>,
    ) -> Result<T, E> {
        let (value, used) = f(self.rest())?;
        self.pos = self.pos.saturating_add(used).min(self.buf.len());
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_big_endian_and_refuses_to_run_past_the_end() {
        let mut r = ByteReader::new(&[0, 1, 0, 0, 0, 2, 9]);
        assert_eq!(r.i16(), Ok(1));
        assert_eq!(r.i32(), Ok(2));
        assert_eq!(
            r.i64(),
            Err(Short {
                needed: 8,
                available: 1
            })
        );
        assert_eq!(r.i8(), Ok(9));
        assert_eq!(
            r.take(usize::MAX),
            Err(Short {
                needed: usize::MAX,
                available: 0
            })
        );
        assert_eq!(r.remaining(), 0);
    }
}
