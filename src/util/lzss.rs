//! A small LZSS compressor for share links. A general deflate library costs ~34 KB of
//! the page's wasm; scenario text is repetitive enough that back-references alone
//! shrink it well, in a few hundred bytes of code.
//!
//! Format: groups of up to 8 tokens, each group led by a flag byte (bit i set = token
//! i is a match). A literal is one byte; a match is two bytes: a 12-bit distance
//! (1..=4096) and a 4-bit length (3..=18).

const WINDOW: usize = 4096;
const MIN_MATCH: usize = 3;
const MAX_MATCH: usize = 18;

/// Compresses `input`.
pub fn compress(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len() / 2 + 8);
    // The last position each 3-byte prefix was seen at (one candidate per prefix).
    let mut last_seen = vec![usize::MAX; 1 << 12];
    let hash = |b: &[u8]| {
        ((usize::from(b[0]) << 4) ^ (usize::from(b[1]) << 2) ^ usize::from(b[2])) & 0xfff
    };
    let mut pos = 0;
    while pos < input.len() {
        let flag_at = out.len();
        out.push(0u8);
        for bit in 0..8 {
            if pos >= input.len() {
                break;
            }
            let mut best = (0usize, 0usize);
            if let Some(prefix) = input.get(pos..pos + MIN_MATCH) {
                let h = hash(prefix);
                let candidate = last_seen[h];
                last_seen[h] = pos;
                if candidate != usize::MAX && pos - candidate <= WINDOW {
                    let len = input[candidate..]
                        .iter()
                        .zip(&input[pos..])
                        .take(MAX_MATCH)
                        .take_while(|(a, b)| a == b)
                        .count();
                    if len >= MIN_MATCH {
                        best = (pos - candidate, len);
                    }
                }
            }
            if best.1 >= MIN_MATCH {
                let (distance, len) = (best.0 - 1, best.1 - MIN_MATCH);
                out.push((distance >> 4) as u8);
                out.push((((distance & 0xf) << 4) | len) as u8);
                out[flag_at] |= 1 << bit;
                pos += best.1;
            } else {
                out.push(input[pos]);
                pos += 1;
            }
        }
    }
    out
}

/// Why decompression stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LzssError {
    /// A match or literal is cut off.
    Truncated,
    /// A match points before the start of the output.
    BadDistance,
    /// The output would exceed the caller's limit.
    TooLarge,
}

/// Decompresses `input`, refusing to produce more than `limit` bytes.
pub fn decompress(input: &[u8], limit: usize) -> Result<Vec<u8>, LzssError> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < input.len() {
        let flags = input[pos];
        pos += 1;
        for bit in 0..8 {
            if pos >= input.len() {
                break;
            }
            if flags & (1 << bit) == 0 {
                out.push(input[pos]);
                pos += 1;
            } else {
                let (a, b) = match (input.get(pos), input.get(pos + 1)) {
                    (Some(a), Some(b)) => (usize::from(*a), usize::from(*b)),
                    _ => return Err(LzssError::Truncated),
                };
                pos += 2;
                let distance = ((a << 4) | (b >> 4)) + 1;
                let len = (b & 0xf) + MIN_MATCH;
                let start = out
                    .len()
                    .checked_sub(distance)
                    .ok_or(LzssError::BadDistance)?;
                for i in 0..len {
                    let byte = out[start + i];
                    out.push(byte);
                }
            }
            if out.len() > limit {
                return Err(LzssError::TooLarge);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_shrinks_text() {
        for input in [
            &b""[..],
            b"a",
            b"abcabcabcabcabcabc",
            b"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        ] {
            assert_eq!(decompress(&compress(input), 1 << 20).unwrap(), input);
        }
        let lesson = crate::scenario::lesson("dedup-window")
            .map(|l| l.source.as_bytes())
            .unwrap_or_default();
        let packed = compress(lesson);
        // English alone halves; the lesson's Korean and Thai narration (three bytes a
        // character, fewer repeats) compress less, so the whole file shrinks by 45%+.
        assert!(
            packed.len() * 100 < lesson.len() * 55,
            "{} -> {}",
            lesson.len(),
            packed.len()
        );
        assert_eq!(decompress(&packed, 1 << 20).unwrap(), lesson);
    }

    #[test]
    fn hostile_input_is_refused() {
        assert_eq!(decompress(&[0b1, 0x00], 100), Err(LzssError::Truncated));
        assert_eq!(
            decompress(&[0b1, 0x00, 0x00], 100),
            Err(LzssError::BadDistance)
        );
        let bomb = compress(&[b'x'; 10_000]);
        assert_eq!(decompress(&bomb, 1_000), Err(LzssError::TooLarge));
    }
}
