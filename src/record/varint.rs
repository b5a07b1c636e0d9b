//! Zig-zag variable-length integers, as in Kafka's `ByteUtils`
//! (`writeVarint`/`readVarint`/`writeVarlong`/`readVarlong`): 7 bits per byte,
//! least significant group first, high bit = "more bytes follow".
//!
//! Decoding is slightly stricter than Kafka: bits that would not fit in the
//! 32/64-bit result (only possible in the last byte) are an error instead of
//! being silently dropped. Non-minimal encodings (e.g. `80 00`) are accepted,
//! as Kafka does.

use super::error::RecordError;

/// Longest encoding of a 32-bit varint.
pub const MAX_VARINT_LEN: usize = 5;
/// Longest encoding of a 64-bit varlong.
pub const MAX_VARLONG_LEN: usize = 10;

fn zigzag32(v: i32) -> u32 {
    ((v << 1) ^ (v >> 31)) as u32
}

fn unzigzag32(u: u32) -> i32 {
    ((u >> 1) as i32) ^ -((u & 1) as i32)
}

fn zigzag64(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag64(u: u64) -> i64 {
    ((u >> 1) as i64) ^ -((u & 1) as i64)
}

/// Appends an unsigned varint (Kafka's `writeUnsignedVarint`, also used by
/// the flexible protocol versions for compact lengths).
#[cfg_attr(not(target_arch = "wasm32"), inline)]
pub fn encode_unsigned_varint(value: u32, out: &mut Vec<u8>) {
    encode_unsigned_varlong(u64::from(value), out);
}

/// One push a byte: with the capacity an encoder reserved up front, each is a store
/// (appending a stack buffer instead costs a `memmove` call a number).
#[cfg_attr(not(target_arch = "wasm32"), inline)]
fn encode_unsigned_varlong(mut value: u64, out: &mut Vec<u8>) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Appends a zig-zag varint (Kafka's `writeVarint`).
#[cfg_attr(not(target_arch = "wasm32"), inline)]
pub fn encode_varint(value: i32, out: &mut Vec<u8>) {
    encode_unsigned_varint(zigzag32(value), out);
}

/// Appends a zig-zag varlong (Kafka's `writeVarlong`).
#[cfg_attr(not(target_arch = "wasm32"), inline)]
pub fn encode_varlong(value: i64, out: &mut Vec<u8>) {
    encode_unsigned_varlong(zigzag64(value), out);
}

/// Kafka's varints written a byte at a time: the wasm's [`VarintBlock`] and the native
/// [`Writer`] differ only in where a byte goes.
pub trait VarintWrite {
    fn byte(&mut self, b: u8);

    #[cfg_attr(not(target_arch = "wasm32"), inline)]
    fn unsigned(&mut self, mut value: u64) {
        while value >= 0x80 {
            self.byte((value as u8) | 0x80);
            value >>= 7;
        }
        self.byte(value as u8);
    }

    /// A zig-zag varint (Kafka's `writeVarint`).
    #[cfg_attr(not(target_arch = "wasm32"), inline)]
    fn varint(&mut self, value: i32) {
        self.unsigned(u64::from(zigzag32(value)));
    }

    /// A zig-zag varlong (Kafka's `writeVarlong`).
    #[cfg_attr(not(target_arch = "wasm32"), inline)]
    fn varlong(&mut self, value: i64) {
        self.unsigned(zigzag64(value));
    }
}

/// The wasm's encoder (built for size; natively [`Writer`] is faster): a few numbers
/// built on the stack and appended to the output as one fixed-size copy,
/// then cut to their length: a record's leading fields (length, attributes, deltas, key
/// length) take one copy instead of a capacity check a byte or a `memmove` call a
/// number. Holds [`VarintBlock::CAPACITY`] bytes; a caller puts at most that many.
#[cfg(any(target_arch = "wasm32", test))]
pub struct VarintBlock {
    buf: [u8; VarintBlock::CAPACITY],
    len: usize,
}

#[cfg(any(target_arch = "wasm32", test))]
impl Default for VarintBlock {
    fn default() -> Self {
        VarintBlock {
            buf: [0; VarintBlock::CAPACITY],
            len: 0,
        }
    }
}

#[cfg(any(target_arch = "wasm32", test))]
impl VarintWrite for VarintBlock {
    #[cfg_attr(not(target_arch = "wasm32"), inline)]
    fn byte(&mut self, b: u8) {
        if let Some(slot) = self.buf.get_mut(self.len) {
            *slot = b;
            self.len += 1;
        }
    }
}

#[cfg(any(target_arch = "wasm32", test))]
impl VarintBlock {
    pub const CAPACITY: usize = 32;

    /// Appends the numbers put so far (the copy is the whole block, the length is then
    /// set back: `out` needs room for [`VarintBlock::CAPACITY`] bytes to avoid a grow).
    #[cfg_attr(not(target_arch = "wasm32"), inline)]
    pub fn append_to(&self, out: &mut Vec<u8>) {
        let end = out.len() + self.len;
        out.extend_from_slice(&self.buf);
        out.truncate(end);
    }
}

/// Writes an encoding into room made for it up front (zero bytes, as many as the
/// encoding's upper bound): a byte is one store and one check against the room, with
/// no capacity check and no stack buffer in between. (A block built on the stack a
/// byte at a time and copied whole stalled on store-to-load forwarding: 38% of a
/// 1,000-record encode.) Past the room it only counts, so [`Writer::append`] can write
/// again into exactly the room it needed: a wrong bound costs speed, never bytes.
pub struct Writer<'a> {
    buf: &'a mut [u8],
    pos: usize,
    /// The furthest `pos` went before a length prefix moved it back.
    peak: usize,
}

impl<'a> Writer<'a> {
    /// Appends what `write` writes to `out`: into `room` bytes, or if it needed more,
    /// again into what it needed.
    pub fn append(out: &mut Vec<u8>, room: usize, write: impl Fn(&mut Writer)) {
        let start = out.len();
        let mut room = room;
        let mut end = room;
        for _ in 0..2 {
            out.resize(start.saturating_add(room), 0);
            let mut w = Writer {
                buf: out.get_mut(start..).unwrap_or_default(),
                pos: 0,
                peak: 0,
            };
            write(&mut w);
            end = w.pos;
            let needed = w.peak.max(w.pos);
            if needed <= room {
                break;
            }
            room = needed;
        }
        out.truncate(start.saturating_add(end));
    }

    /// Where the next byte goes.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Leaves `n` bytes for a length that [`Writer::length_prefix`] writes later.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub fn skip(&mut self, n: usize) {
        self.pos = self.pos.saturating_add(n);
    }

    /// Writes at `at` the length, as a zig-zag varint, of what was written after the
    /// `reserved` bytes left there, and moves those bytes when the varint takes fewer
    /// or more than `reserved` (Kafka writes the shortest form). So a record is written
    /// in one pass: its length need not be computed before its fields.
    /// Returns the length varint's size.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub fn length_prefix(&mut self, at: usize, reserved: usize) -> usize {
        let body = self.pos.saturating_sub(at.saturating_add(reserved));
        let len = i32::try_from(body).unwrap_or(i32::MAX);
        let size = size_of_varint(len);
        let end = at.saturating_add(size).saturating_add(body);
        if size != reserved {
            if let Some(region) = self.buf.get_mut(at..end.max(self.pos)) {
                region.copy_within(reserved..reserved + body, size);
            }
        }
        self.peak = self.peak.max(self.pos);
        self.pos = at;
        self.varint(len);
        self.pos = end;
        size
    }

    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub fn bytes(&mut self, b: &[u8]) {
        let end = self.pos.saturating_add(b.len());
        if let Some(dst) = self.buf.get_mut(self.pos..end) {
            copy(dst, b);
        }
        self.pos = end;
    }
}

impl VarintWrite for Writer<'_> {
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn byte(&mut self, b: u8) {
        if let Some(slot) = self.buf.get_mut(self.pos) {
            *slot = b;
        }
        self.pos += 1;
    }
}

/// `dst.copy_from_slice(src)` (same lengths). Natively, keys and values of 8 to 64
/// bytes (most of them) are copied as two blocks of 8, 16 or 32 bytes, the first at the
/// start and the second ending at the end (they overlap unless the length is twice the
/// block), as `memcpy` itself does for short lengths but without a call each: 12% of
/// an encode of small records was those calls, and a loop of 16-byte blocks another 10%.
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn copy(dst: &mut [u8], src: &[u8]) {
    match src.len() {
        8..16 => copy_two::<8>(dst, src),
        16..32 => copy_two::<16>(dst, src),
        32..=64 => copy_two::<32>(dst, src),
        _ => dst.copy_from_slice(src),
    }
}

/// Copies `src` (`N` to `2N` bytes) as two `N`-byte blocks: one at its start, one
/// ending at its end.
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn copy_two<const N: usize>(dst: &mut [u8], src: &[u8]) {
    let last = src.len().saturating_sub(N);
    for at in [0, last] {
        if let (Some(d), Some(s)) = (dst.get_mut(at..at + N), src.get(at..at + N)) {
            d.copy_from_slice(s);
        }
    }
}

#[cfg(target_arch = "wasm32")]
fn copy(dst: &mut [u8], src: &[u8]) {
    dst.copy_from_slice(src);
}

/// Reads an unsigned varint of at most `max_len` bytes whose value fits in `bits` bits.
/// Inlined natively for one and two bytes (most numbers in a batch: deltas, lengths
/// under 8 KiB); longer numbers take [`decode_unsigned_long`].
#[cfg_attr(not(target_arch = "wasm32"), inline)]
fn decode_unsigned(buf: &[u8], max_len: usize, bits: u32) -> Result<(u64, usize), RecordError> {
    match *buf {
        [b0, ..] if b0 < 0x80 => Ok((u64::from(b0), 1)),
        // Two bytes always fit: max_len is at least 5.
        [b0, b1, ..] if b1 < 0x80 => Ok((u64::from(b0 & 0x7F) | (u64::from(b1) << 7), 2)),
        _ => decode_unsigned_long(buf, max_len, bits),
    }
}

#[cfg_attr(not(target_arch = "wasm32"), inline(never))]
fn decode_unsigned_long(
    buf: &[u8],
    max_len: usize,
    bits: u32,
) -> Result<(u64, usize), RecordError> {
    let mut value: u64 = 0;
    for i in 0..max_len {
        let Some(&byte) = buf.get(i) else {
            return Err(RecordError::Truncated {
                needed: i + 1,
                available: buf.len(),
            });
        };
        let shift = 7 * i as u32;
        let payload = u64::from(byte & 0x7F);
        if i + 1 == max_len {
            // The last byte may only carry the bits that are left, and no
            // continuation bit.
            let room = bits - shift;
            if byte & 0x80 != 0 || payload >> room != 0 {
                return Err(RecordError::InvalidRecord(format!(
                    "varint longer than {max_len} bytes or wider than {bits} bits"
                )));
            }
        }
        value |= payload << shift;
        if byte & 0x80 == 0 {
            return Ok((value, i + 1));
        }
    }
    // Unreachable: the last iteration either returns or errors.
    Err(RecordError::InvalidRecord(format!(
        "varint longer than {max_len} bytes"
    )))
}

/// Reads an unsigned varint; returns the value and the bytes consumed.
#[cfg_attr(not(target_arch = "wasm32"), inline)]
pub fn decode_unsigned_varint(buf: &[u8]) -> Result<(u32, usize), RecordError> {
    let (v, n) = decode_unsigned(buf, MAX_VARINT_LEN, 32)?;
    Ok((v as u32, n))
}

/// Reads a zig-zag varint; returns the value and the bytes consumed.
/// Truncated if `buf` ends mid-number, InvalidRecord if it is overlong.
#[cfg_attr(not(target_arch = "wasm32"), inline)]
pub fn decode_varint(buf: &[u8]) -> Result<(i32, usize), RecordError> {
    let (v, n) = decode_unsigned(buf, MAX_VARINT_LEN, 32)?;
    Ok((unzigzag32(v as u32), n))
}

/// Reads a zig-zag varlong; returns the value and the bytes consumed.
#[cfg_attr(not(target_arch = "wasm32"), inline)]
pub fn decode_varlong(buf: &[u8]) -> Result<(i64, usize), RecordError> {
    let (v, n) = decode_unsigned(buf, MAX_VARLONG_LEN, 64)?;
    Ok((unzigzag64(v), n))
}

/// 7 bits a byte, at least one byte. `(bits + 6) / 7` is a multiply and a shift;
/// `div_ceil` added a remainder test that sat on the encoder's critical path (each
/// record's length prefix).
#[cfg_attr(not(target_arch = "wasm32"), inline)]
#[expect(
    clippy::manual_div_ceil,
    reason = "div_ceil compiles to a division and a remainder test"
)]
fn unsigned_size(value: u64) -> usize {
    let bits = 64 - (value | 1).leading_zeros() as usize;
    (bits + 6) / 7
}

/// Encoded size of a zig-zag varint (Kafka's `sizeOfVarint`).
#[cfg_attr(not(target_arch = "wasm32"), inline)]
pub fn size_of_varint(value: i32) -> usize {
    unsigned_size(u64::from(zigzag32(value)))
}

/// Encoded size of a zig-zag varlong (Kafka's `sizeOfVarlong`).
#[cfg_attr(not(target_arch = "wasm32"), inline)]
pub fn size_of_varlong(value: i64) -> usize {
    unsigned_size(zigzag64(value))
}

/// Encoded size of an unsigned varint.
#[cfg_attr(not(target_arch = "wasm32"), inline)]
pub fn size_of_unsigned_varint(value: u32) -> usize {
    unsigned_size(u64::from(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc32(v: i32) -> Vec<u8> {
        let mut out = Vec::new();
        encode_varint(v, &mut out);
        out
    }

    fn enc64(v: i64) -> Vec<u8> {
        let mut out = Vec::new();
        encode_varlong(v, &mut out);
        out
    }

    #[test]
    fn known_encodings() {
        assert_eq!(enc32(0), [0x00]);
        assert_eq!(enc32(-1), [0x01]);
        assert_eq!(enc32(1), [0x02]);
        assert_eq!(enc32(-64), [0x7F]);
        assert_eq!(enc32(64), [0x80, 0x01]);
        assert_eq!(enc32(300), [0xD8, 0x04]);
        assert_eq!(enc32(i32::MAX), [0xFE, 0xFF, 0xFF, 0xFF, 0x0F]);
        assert_eq!(enc32(i32::MIN), [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]);
        assert_eq!(enc64(i64::MIN).len(), 10);
        assert_eq!(*enc64(i64::MIN).last().unwrap(), 0x01);
    }

    #[test]
    fn round_trips_and_sizes() {
        for v in [0, 1, -1, 63, -64, 64, -65, 8191, 8192, i32::MAX, i32::MIN] {
            let e = enc32(v);
            assert_eq!(decode_varint(&e), Ok((v, e.len())));
            assert_eq!(size_of_varint(v), e.len());
        }
        for v in [0, 1, -1, i64::from(i32::MAX) + 1, i64::MAX, i64::MIN] {
            let e = enc64(v);
            assert_eq!(decode_varlong(&e), Ok((v, e.len())));
            assert_eq!(size_of_varlong(v), e.len());
        }
        for v in [0u32, 127, 128, u32::MAX] {
            let mut e = Vec::new();
            encode_unsigned_varint(v, &mut e);
            assert_eq!(decode_unsigned_varint(&e), Ok((v, e.len())));
            assert_eq!(size_of_unsigned_varint(v), e.len());
        }
    }

    #[test]
    fn decode_ignores_trailing_bytes() {
        assert_eq!(decode_varint(&[0x02, 0xFF, 0xFF]), Ok((1, 1)));
    }

    #[test]
    fn truncation_is_reported() {
        assert_eq!(
            decode_varint(&[]),
            Err(RecordError::Truncated {
                needed: 1,
                available: 0
            })
        );
        assert_eq!(
            decode_varint(&[0x80, 0x80]),
            Err(RecordError::Truncated {
                needed: 3,
                available: 2
            })
        );
    }

    #[test]
    fn overlong_is_rejected() {
        assert!(matches!(
            decode_varint(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x00]),
            Err(RecordError::InvalidRecord(_))
        ));
        // Fifth byte carrying more than the 4 bits that are left.
        assert!(matches!(
            decode_varint(&[0xFF, 0xFF, 0xFF, 0xFF, 0x1F]),
            Err(RecordError::InvalidRecord(_))
        ));
        assert!(matches!(
            decode_varlong(&[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02]),
            Err(RecordError::InvalidRecord(_))
        ));
    }

    #[test]
    fn the_writer_writes_what_the_appenders_do_with_or_without_room() {
        for room in [0, 3, 17, 18, 64] {
            let mut out = vec![9];
            Writer::append(&mut out, room, |w| {
                w.varint(300);
                w.byte(7);
                w.varlong(i64::MIN);
                w.bytes(b"abc");
                w.varint(-1);
            });
            let mut expected = vec![9];
            encode_varint(300, &mut expected);
            expected.push(7);
            encode_varlong(i64::MIN, &mut expected);
            expected.extend_from_slice(b"abc");
            encode_varint(-1, &mut expected);
            assert_eq!(out, expected, "room {room}");
        }
    }

    #[test]
    fn a_length_prefix_takes_the_shortest_form_whatever_was_reserved() {
        for (body, reserved) in [
            (0usize, 1usize),
            (63, 1),
            (64, 1),
            (64, 2),
            (3, 5),
            (100, 2),
        ] {
            for room in [0, 200] {
                let mut out = vec![7];
                Writer::append(&mut out, room, |w| {
                    let at = w.position();
                    w.skip(reserved);
                    w.bytes(&vec![0xAB; body]);
                    w.length_prefix(at, reserved);
                    w.byte(9);
                });
                let mut expected = vec![7];
                encode_varint(body as i32, &mut expected);
                expected.extend(std::iter::repeat_n(0xAB, body));
                expected.push(9);
                assert_eq!(
                    out, expected,
                    "body {body}, reserved {reserved}, room {room}"
                );
            }
        }
    }

    #[test]
    fn the_block_copy_copies_every_length() {
        for n in 0..80 {
            let src: Vec<u8> = (0..n as u8).map(|i| i.wrapping_mul(37) | 1).collect();
            let mut dst = vec![0; n];
            copy(&mut dst, &src);
            assert_eq!(dst, src, "{n} bytes");
        }
    }

    #[test]
    fn non_minimal_is_accepted() {
        assert_eq!(decode_varint(&[0x82, 0x00]), Ok((1, 2)));
    }
}
