//! Opening compressed batches: the records region of a batch whose attributes name a
//! codec is one compressed stream, written the way Kafka's Java client writes it
//! (`org.apache.kafka.common.compress`): a gzip member, Snappy in snappy-java's framed
//! ("xerial") format or plain, an LZ4 frame, a zstd frame. Each decoder is pure Rust,
//! so the page can open the same files; none of them is in the main page's wasm
//! (feature `compression`).

/// The most bytes one batch may decompress to. Kafka bounds a batch by
/// `max.message.bytes` before compression only; this bound keeps a crafted stream
/// (a "zip bomb") from taking the machine's memory.
pub const MAX_DECOMPRESSED_BYTES: usize = 64 * 1024 * 1024;

/// Why a compressed records region could not be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecompressError {
    /// This build has no decoder for the codec (or the codec id is not Kafka's).
    Unsupported,
    /// The stream is damaged; the text is the decoder's own reason.
    Corrupt(String),
    /// It would decompress to more than [`MAX_DECOMPRESSED_BYTES`].
    TooLarge,
}

/// Decompresses `data`, a batch's records region compressed with `codec`
/// (1 gzip, 2 snappy, 3 lz4, 4 zstd).
pub fn decompress(codec: u8, data: &[u8]) -> Result<Vec<u8>, DecompressError> {
    imp::decompress(codec, data)
}

#[cfg(not(feature = "compression"))]
mod imp {
    use super::DecompressError;

    pub fn decompress(_codec: u8, _data: &[u8]) -> Result<Vec<u8>, DecompressError> {
        Err(DecompressError::Unsupported)
    }
}

#[cfg(feature = "compression")]
mod imp {
    use super::{DecompressError, MAX_DECOMPRESSED_BYTES};
    use std::io::Read;

    pub fn decompress(codec: u8, data: &[u8]) -> Result<Vec<u8>, DecompressError> {
        match codec {
            1 => gzip(data),
            2 => snappy(data),
            3 => read_bounded(lz4_flex::frame::FrameDecoder::new(data)),
            4 => {
                let decoder = ruzstd::StreamingDecoder::new(data)
                    .map_err(|e| DecompressError::Corrupt(e.to_string()))?;
                read_bounded(decoder)
            }
            _ => Err(DecompressError::Unsupported),
        }
    }

    fn corrupt(why: impl Into<String>) -> DecompressError {
        DecompressError::Corrupt(why.into())
    }

    /// Reads a decoder to its end, refusing more than the bound.
    fn read_bounded(reader: impl Read) -> Result<Vec<u8>, DecompressError> {
        let mut out = Vec::new();
        let limit = MAX_DECOMPRESSED_BYTES as u64 + 1;
        reader
            .take(limit)
            .read_to_end(&mut out)
            .map_err(|e| corrupt(e.to_string()))?;
        if out.len() > MAX_DECOMPRESSED_BYTES {
            return Err(DecompressError::TooLarge);
        }
        Ok(out)
    }

    /// A gzip member (RFC 1952, what `GZIPOutputStream` writes): the header, DEFLATE
    /// data, then CRC-32 and the length, which are checked.
    fn gzip(data: &[u8]) -> Result<Vec<u8>, DecompressError> {
        const FHCRC: u8 = 2;
        const FEXTRA: u8 = 4;
        const FNAME: u8 = 8;
        const FCOMMENT: u8 = 16;
        let header = data
            .get(..10)
            .ok_or_else(|| corrupt("gzip header cut short"))?;
        if header[0] != 0x1f || header[1] != 0x8b || header[2] != 8 {
            return Err(corrupt("not a gzip stream (bad magic or method)"));
        }
        let flags = header[3];
        let mut pos = 10usize;
        if flags & FEXTRA != 0 {
            let len = data
                .get(pos..pos + 2)
                .map(|b| usize::from(u16::from_le_bytes([b[0], b[1]])))
                .ok_or_else(|| corrupt("gzip extra field cut short"))?;
            pos += 2 + len;
        }
        for flag in [FNAME, FCOMMENT] {
            if flags & flag != 0 {
                let rest = data.get(pos..).unwrap_or_default();
                let end = rest
                    .iter()
                    .position(|&b| b == 0)
                    .ok_or_else(|| corrupt("gzip name or comment not terminated"))?;
                pos += end + 1;
            }
        }
        if flags & FHCRC != 0 {
            pos += 2;
        }
        let body = data
            .get(pos..)
            .ok_or_else(|| corrupt("gzip header cut short"))?;
        let (out, used) = inflate(body)?;
        let trailer = body
            .get(used..used + 8)
            .ok_or_else(|| corrupt("gzip trailer cut short"))?;
        let crc = u32::from_le_bytes([trailer[0], trailer[1], trailer[2], trailer[3]]);
        let len = u32::from_le_bytes([trailer[4], trailer[5], trailer[6], trailer[7]]);
        if crc != crc32(&out) || len != out.len() as u32 {
            return Err(corrupt("gzip CRC-32 or length does not match the data"));
        }
        Ok(out)
    }

    /// Raw DEFLATE: the output and how many input bytes it took.
    fn inflate(body: &[u8]) -> Result<(Vec<u8>, usize), DecompressError> {
        use miniz_oxide::inflate::core::{decompress, inflate_flags, DecompressorOxide};
        use miniz_oxide::inflate::TINFLStatus;
        let mut state = Box::<DecompressorOxide>::default();
        let mut out = vec![0u8; 32 * 1024];
        let mut in_pos = 0usize;
        let mut out_pos = 0usize;
        loop {
            let flags = inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF
                | inflate_flags::TINFL_FLAG_HAS_MORE_INPUT;
            let (status, read, written) = decompress(
                &mut state,
                body.get(in_pos..).unwrap_or_default(),
                &mut out,
                out_pos,
                flags,
            );
            in_pos += read;
            out_pos += written;
            match status {
                TINFLStatus::Done => {
                    out.truncate(out_pos);
                    return Ok((out, in_pos));
                }
                TINFLStatus::HasMoreOutput => {
                    if out.len() >= MAX_DECOMPRESSED_BYTES {
                        return Err(DecompressError::TooLarge);
                    }
                    let grown = (out.len() * 2).min(MAX_DECOMPRESSED_BYTES + 1);
                    out.resize(grown, 0);
                }
                TINFLStatus::NeedsMoreInput if in_pos >= body.len() => {
                    return Err(corrupt("DEFLATE data cut short"));
                }
                TINFLStatus::NeedsMoreInput => {}
                other => return Err(corrupt(format!("DEFLATE data corrupt ({other:?})"))),
            }
        }
    }

    /// CRC-32 (IEEE), bit by bit: gzip's trailer check runs once a batch.
    fn crc32(data: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in data {
            crc ^= u32::from(b);
            for _ in 0..8 {
                let mask = (crc & 1).wrapping_neg();
                crc = (crc >> 1) ^ (0xEDB8_8320 & mask);
            }
        }
        !crc
    }

    /// snappy-java's framed format (`SnappyOutputStream`, the Java client's and
    /// kafka-python's): an 8-byte magic, version and compatible version (i32 each),
    /// then blocks of a big-endian i32 length and a raw Snappy block. Anything else is
    /// read as one raw Snappy block.
    fn snappy(data: &[u8]) -> Result<Vec<u8>, DecompressError> {
        const XERIAL_MAGIC: [u8; 8] = [0x82, b'S', b'N', b'A', b'P', b'P', b'Y', 0];
        if data.get(..8) != Some(&XERIAL_MAGIC[..]) {
            return snappy_block(data, 0);
        }
        let mut out = Vec::new();
        let mut pos = 16usize;
        while pos < data.len() {
            let len = data
                .get(pos..pos + 4)
                .map(|b| i32::from_be_bytes([b[0], b[1], b[2], b[3]]))
                .ok_or_else(|| corrupt("snappy block length cut short"))?;
            let len = usize::try_from(len).map_err(|_| corrupt("negative snappy block length"))?;
            let end = pos
                .checked_add(4)
                .and_then(|start| start.checked_add(len))
                .ok_or_else(|| corrupt("snappy block cut short"))?;
            let block = data
                .get(pos + 4..end)
                .ok_or_else(|| corrupt("snappy block cut short"))?;
            out.extend(snappy_block(block, out.len())?);
            pos = end;
        }
        Ok(out)
    }

    fn snappy_block(block: &[u8], already: usize) -> Result<Vec<u8>, DecompressError> {
        let len = snap::raw::decompress_len(block).map_err(|e| corrupt(e.to_string()))?;
        if already.saturating_add(len) > MAX_DECOMPRESSED_BYTES {
            return Err(DecompressError::TooLarge);
        }
        snap::raw::Decoder::new()
            .decompress_vec(block)
            .map_err(|e| corrupt(e.to_string()))
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn crc32_is_ieee() {
            assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        }

        #[test]
        fn snappy_and_lz4_round_trip_and_damage_is_an_error() {
            let text = b"exactly once, exactly once, exactly once".repeat(20);
            let raw = snap::raw::Encoder::new().compress_vec(&text).unwrap();
            assert_eq!(decompress(2, &raw).unwrap(), text);
            let mut framed = vec![
                0x82, b'S', b'N', b'A', b'P', b'P', b'Y', 0, 0, 0, 0, 1, 0, 0, 0, 1,
            ];
            framed.extend_from_slice(&(raw.len() as i32).to_be_bytes());
            framed.extend_from_slice(&raw);
            assert_eq!(decompress(2, &framed).unwrap(), text);
            assert!(matches!(
                decompress(2, &framed[..framed.len() - 3]),
                Err(DecompressError::Corrupt(_))
            ));

            let mut enc = lz4_flex::frame::FrameEncoder::new(Vec::new());
            std::io::Write::write_all(&mut enc, &text).unwrap();
            let lz4 = enc.finish().unwrap();
            assert_eq!(decompress(3, &lz4).unwrap(), text);
            assert!(decompress(3, &lz4[..lz4.len() / 2]).is_err());
            assert!(decompress(4, b"not zstd").is_err());
            assert!(decompress(1, b"not gzip").is_err());
            assert_eq!(decompress(6, b""), Err(DecompressError::Unsupported));
        }
    }
}
