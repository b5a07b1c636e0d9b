//! Known check values (Kafka's Crc32CTest, RFC 3720) on every path, and both fast paths
//! against a bytewise reference on pseudo-random inputs of every length and alignment.

use super::*;

/// The textbook one-byte-at-a-time CRC32C: the oracle.
fn bytewise(crc: u32, data: &[u8]) -> u32 {
    let mut state = !crc;
    for &b in data {
        state ^= u32::from(b);
        for _ in 0..8 {
            state = if state & 1 != 0 {
                (state >> 1) ^ POLY
            } else {
                state >> 1
            };
        }
    }
    !state
}

/// A CRC32C implementation: `(starting crc, bytes) -> crc`.
type Crc = fn(u32, &[u8]) -> u32;

/// Every implementation under test: the one the engine runs here, and the portable one.
fn paths() -> [(&'static str, Crc); 3] {
    [
        ("crc32c_append", crc32c_append),
        ("slice_by_8", crc32c_append_slice_by_8),
        ("bytewise", bytewise),
    ]
}

#[test]
fn check_values() {
    for (name, f) in paths() {
        assert_eq!(f(0, b"123456789"), 0xE306_9283, "{name}");
        assert_eq!(f(0, b""), 0, "{name}");
        // Kafka's Crc32CTest.testValue.
        assert_eq!(f(0, b"Some String"), 608_512_271, "{name}");
        // iSCSI test patterns (RFC 3720, B.4).
        assert_eq!(f(0, &[0u8; 32]), 0x8A91_36AA, "{name}");
        assert_eq!(f(0, &[0xFFu8; 32]), 0x62A8_AB43, "{name}");
        let inc: Vec<u8> = (0u8..32).collect();
        assert_eq!(f(0, &inc), 0x46DD_794E, "{name}");
        let dec: Vec<u8> = (0u8..32).rev().collect();
        assert_eq!(f(0, &dec), 0x113F_DB5C, "{name}");
    }
    assert_eq!(crc32c(b"123456789"), 0xE306_9283);
}

#[test]
fn append_equals_whole() {
    // Kafka's Crc32CTest.testUpdate, at every split point.
    let data = b"Any String you want, and the quick brown fox jumps over the lazy dog";
    for (name, f) in paths() {
        for split in 0..data.len() {
            let (a, b) = data.split_at(split);
            assert_eq!(f(f(0, a), b), f(0, data), "{name} split {split}");
        }
    }
}

#[test]
fn fast_paths_equal_bytewise_on_random_inputs() {
    let mut state = 0x243F_6A88_85A3_08D3u64;
    let mut data = vec![0u8; 4096];
    for b in &mut data {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        *b = (state >> 24) as u8;
    }
    // Every length up to 70 at every start within a word, then a few long ones.
    let mut cases: Vec<(usize, usize)> = (0..8)
        .flat_map(|start| (0..70).map(move |len| (start, len)))
        .collect();
    cases.extend([(0, 4096), (3, 4093), (5, 1000), (1, 2049)]);
    for (start, len) in cases {
        let slice = &data[start..start + len];
        let seed = (start * 7919 + len) as u32;
        let want = bytewise(seed, slice);
        assert_eq!(crc32c_append(seed, slice), want, "engine {start}+{len}");
        assert_eq!(
            crc32c_append_slice_by_8(seed, slice),
            want,
            "slice-by-8 {start}+{len}"
        );
    }
}
