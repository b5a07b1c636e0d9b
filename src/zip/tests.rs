use super::*;

/// A zip written by Python's `zipfile` (3.13): a folder entry, a deflate entry and a
/// stored one, as a learner's tool makes them.
const PYTHON_ZIP: &str = "504b03041400000008003c43855d0000000002000000000000000800000070656572732d302f0300504b03041400000008003c43855d09d28dba0b000000f00000002000000070656572732d302f30303030303030303030303030303030303030302e6c6f67cb4e4ccb4e54c81e312400504b0304140000000000000021005f7efc3608000000080000001f00000070656572732d302f6c65616465722d65706f63682d636865636b706f696e74300a310a3020300a504b010214031400000008003c43855d000000000200000000000000080000000000000000001000fd410000000070656572732d302f504b010214031400000008003c43855d09d28dba0b000000f000000020000000000000000000000080012800000070656572732d302f30303030303030303030303030303030303030302e6c6f67504b01021403140000000000000021005f7efc3608000000080000001f000000000000000000000080017100000070656572732d302f6c65616465722d65706f63682d636865636b706f696e74504b05060000000003000300d1000000b60000000000";

fn python_zip() -> Vec<u8> {
    (0..PYTHON_ZIP.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&PYTHON_ZIP[i..i + 2], 16).expect("hex"))
        .collect()
}

#[test]
fn reads_pythons_deflate_and_stored_entries_and_leaves_folders_out() {
    let files = read(&python_zip()).expect("a valid zip");
    assert_eq!(
        files,
        vec![
            (
                "peers-0/00000000000000000000.log".to_string(),
                b"kafka ".repeat(40)
            ),
            (
                "peers-0/leader-epoch-checkpoint".to_string(),
                b"0\n1\n0 0\n".to_vec()
            ),
        ]
    );
}

#[test]
fn what_it_writes_it_reads_back_byte_for_byte_and_the_same_files_give_the_same_zip() {
    let files = vec![
        ("t-0/00000000000000000000.log".to_string(), vec![7u8; 300]),
        ("t-0/00000000000000000000.index".to_string(), Vec::new()),
        (
            "t-0/leader-epoch-checkpoint".to_string(),
            b"0\n0\n".to_vec(),
        ),
    ];
    let zip = write(&files);
    assert_eq!(read(&zip), Ok(files.clone()));
    assert_eq!(write(&files), zip);
    assert_eq!(read(&write(&[])), Ok(vec![]));
}

#[test]
fn crc32_is_zips() {
    // The check value of CRC-32/ISO-HDLC.
    assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
}

#[test]
fn every_truncation_is_refused_with_a_position_and_nothing_half_read() {
    let zip = python_zip();
    for len in 0..zip.len() {
        let e = read(&zip[..len]).expect_err("a cut zip is refused");
        assert!(e.position <= len as u64, "{len}: {e}");
    }
}

#[test]
fn every_one_byte_corruption_is_refused_or_reads_whole_files_never_a_panic() {
    let zip = python_zip();
    let good = read(&zip).expect("valid");
    let mut refused = 0;
    for at in 0..zip.len() {
        for flip in [0x01u8, 0x80, 0xFF] {
            let mut bad = zip.clone();
            bad[at] ^= flip;
            match read(&bad) {
                Err(e) => {
                    refused += 1;
                    assert!(e.position <= zip.len() as u64, "{at}: {e}");
                }
                // A flip in a field nobody checks (a date, an attribute) or in a
                // name (the folder entry may become an empty file): the files are
                // still whole, their CRC checked.
                Ok(files) => assert_eq!(
                    files
                        .iter()
                        .map(|f| &f.1)
                        .filter(|b| !b.is_empty())
                        .collect::<Vec<_>>(),
                    good.iter().map(|f| &f.1).collect::<Vec<_>>(),
                    "byte {at} ^ {flip:#x}"
                ),
            }
        }
    }
    assert!(refused > zip.len(), "{refused} refused");
}

#[test]
fn a_flipped_data_byte_is_a_crc_mismatch_at_the_entrys_data() {
    let mut zip = write(&[("a/b.log".to_string(), b"abc".to_vec())]);
    // Local header (30) + name (7): the data starts at 37.
    zip[38] ^= 1;
    let e = read(&zip).expect_err("refused");
    assert_eq!(e.entry.as_deref(), Some("a/b.log"));
    assert_eq!(e.position, 37);
    assert!(matches!(e.kind, ZipErrorKind::CrcMismatch { .. }), "{e}");
}

#[test]
fn names_that_climb_out_of_the_folder_are_refused() {
    for name in ["../etc/passwd", "/abs.log", "a/../../b", "a\\b"] {
        let e = read(&write(&[(name.to_string(), vec![1])])).expect_err(name);
        assert_eq!(e.kind, ZipErrorKind::BadName, "{name}");
    }
}

#[test]
fn not_a_zip_and_a_method_it_does_not_know_are_named() {
    assert_eq!(
        read(b"this is not a zip file at all, just text").map_err(|e| e.kind),
        Err(ZipErrorKind::NotAZip)
    );
    let mut zip = write(&[("x.log".to_string(), vec![1, 2, 3])]);
    // The method field of the central record (after the 38-byte local entry).
    let central = 30 + 5 + 3;
    zip[central + 10] = 12; // bzip2
    assert_eq!(
        read(&zip).map_err(|e| e.kind),
        Err(ZipErrorKind::UnsupportedMethod { method: 12 })
    );
}
