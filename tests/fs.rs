//! MemFs: every operation, its errors, and export to a real folder.

use eos_playground::fs::{FsError, MemFs};

const SEG: &str = "/broker-1/data/topic-0/00000000000000000000.log";

fn fs_with_segment() -> MemFs {
    let mut fs = MemFs::new();
    fs.write(SEG, b"hello world").unwrap();
    fs
}

#[test]
fn new_fs_has_only_the_root() {
    let fs = MemFs::new();
    assert!(fs.exists("/"));
    assert!(fs.is_dir("/"));
    assert_eq!(fs.list_dir("/").unwrap(), Vec::<String>::new());
    assert_eq!(fs.walk_files(), vec![]);
    assert_eq!(fs.total_bytes(), 0);
    assert_eq!(fs, MemFs::default());
}

#[test]
fn invalid_paths_are_rejected_everywhere() {
    let mut fs = fs_with_segment();
    for bad in ["", "relative/path", "/a/../b", "/..", "/a\0b"] {
        let err = Err(FsError::InvalidPath(bad.to_string()));
        assert_eq!(fs.create_dir_all(bad), err);
        assert_eq!(fs.write(bad, b"x").map(|_| ()), err);
        assert_eq!(fs.append(bad, b"x").map(|_| ()), err);
        assert_eq!(fs.read(bad).map(|_| ()), err);
        assert_eq!(fs.read_at(bad, 0, 1).map(|_| ()), err);
        assert_eq!(fs.len(bad).map(|_| ()), err);
        assert_eq!(fs.truncate(bad, 0), err);
        assert_eq!(fs.remove_file(bad), err);
        assert_eq!(fs.remove_dir_all(bad), err);
        assert_eq!(fs.rename(bad, "/x"), err);
        assert_eq!(fs.rename(SEG, bad), err);
        assert_eq!(fs.list_dir(bad).map(|_| ()), err);
        assert!(!fs.exists(bad));
        assert!(!fs.is_dir(bad));
    }
    // Nothing changed.
    assert_eq!(fs, fs_with_segment());
}

#[test]
fn paths_are_normalised() {
    let mut fs = MemFs::new();
    fs.write("//a///b/./c.log", b"1").unwrap();
    assert_eq!(fs.read("/a/b/c.log").unwrap(), b"1");
    assert!(fs.is_dir("/a/b/"));
    assert_eq!(fs.walk_files(), vec![("/a/b/c.log".to_string(), 1)]);
}

#[test]
fn create_dir_all_makes_every_level() {
    let mut fs = MemFs::new();
    fs.create_dir_all("/a/b/c").unwrap();
    assert!(fs.is_dir("/a") && fs.is_dir("/a/b") && fs.is_dir("/a/b/c"));
    // Idempotent.
    fs.create_dir_all("/a/b/c").unwrap();
    fs.create_dir_all("/").unwrap();
    assert_eq!(fs.list_dir("/a").unwrap(), vec!["b"]);
    // Empty directories hold no bytes and are not files.
    assert_eq!(fs.walk_files(), vec![]);
}

#[test]
fn create_dir_all_through_a_file_fails_and_changes_nothing() {
    let mut fs = fs_with_segment();
    let before = fs.clone();
    assert_eq!(
        fs.create_dir_all(&format!("{SEG}/sub/dir")),
        Err(FsError::NotADirectory(SEG.to_string()))
    );
    assert_eq!(
        fs.create_dir_all(SEG),
        Err(FsError::NotADirectory(SEG.to_string()))
    );
    assert_eq!(fs, before);
}

#[test]
fn write_creates_parents_and_replaces() {
    let mut fs = fs_with_segment();
    assert!(fs.is_dir("/broker-1/data/topic-0"));
    assert!(fs.exists(SEG) && !fs.is_dir(SEG) && fs.is_file(SEG));
    fs.write(SEG, b"new").unwrap();
    assert_eq!(fs.read(SEG).unwrap(), b"new");
    fs.write(SEG, b"").unwrap();
    assert_eq!(fs.len(SEG).unwrap(), 0);
}

#[test]
fn write_errors() {
    let mut fs = fs_with_segment();
    assert_eq!(
        fs.write("/broker-1/data", b"x"),
        Err(FsError::IsADirectory("/broker-1/data".to_string()))
    );
    assert_eq!(
        fs.write("/", b"x"),
        Err(FsError::IsADirectory("/".to_string()))
    );
    assert_eq!(
        fs.write(&format!("{SEG}/child"), b"x"),
        Err(FsError::NotADirectory(SEG.to_string()))
    );
}

#[test]
fn append_returns_positions() {
    let mut fs = MemFs::new();
    let path = "/b/p/00000000000000000000.log";
    assert_eq!(fs.append(path, b"abc").unwrap(), 0);
    assert_eq!(fs.append(path, b"").unwrap(), 3);
    assert_eq!(fs.append(path, b"defg").unwrap(), 3);
    assert_eq!(fs.append(path, b"h").unwrap(), 7);
    assert_eq!(fs.read(path).unwrap(), b"abcdefgh");
    assert_eq!(
        fs.append("/b", b"x"),
        Err(FsError::IsADirectory("/b".to_string()))
    );
    assert_eq!(
        fs.append(&format!("{path}/x"), b"x"),
        Err(FsError::NotADirectory(path.to_string()))
    );
}

#[test]
fn read_errors() {
    let fs = fs_with_segment();
    assert_eq!(
        fs.read("/nope"),
        Err(FsError::NotFound("/nope".to_string()))
    );
    assert_eq!(
        fs.read("/broker-1"),
        Err(FsError::IsADirectory("/broker-1".to_string()))
    );
    assert_eq!(fs.read("/"), Err(FsError::IsADirectory("/".to_string())));
    assert_eq!(fs.len("/nope"), Err(FsError::NotFound("/nope".to_string())));
    assert_eq!(
        fs.len("/broker-1"),
        Err(FsError::IsADirectory("/broker-1".to_string()))
    );
}

#[test]
fn read_at_clamps_len_but_not_offset() {
    let fs = fs_with_segment();
    assert_eq!(fs.read_at(SEG, 0, 5).unwrap(), b"hello");
    assert_eq!(fs.read_at(SEG, 6, 5).unwrap(), b"world");
    assert_eq!(fs.read_at(SEG, 6, 500).unwrap(), b"world");
    assert_eq!(fs.read_at(SEG, 6, u64::MAX).unwrap(), b"world");
    assert_eq!(fs.read_at(SEG, 11, 1).unwrap(), b"");
    assert_eq!(fs.read_at(SEG, 3, 0).unwrap(), b"");
    assert_eq!(
        fs.read_at(SEG, 12, 1),
        Err(FsError::OutOfRange {
            path: SEG.to_string(),
            offset: 12,
            len: 1
        })
    );
    assert!(matches!(
        fs.read_at(SEG, u64::MAX, u64::MAX),
        Err(FsError::OutOfRange { .. })
    ));
    assert_eq!(
        fs.read_at("/nope", 0, 1),
        Err(FsError::NotFound("/nope".to_string()))
    );
    assert_eq!(
        fs.read_at("/broker-1", 0, 1),
        Err(FsError::IsADirectory("/broker-1".to_string()))
    );
}

#[test]
fn truncate_shrinks_only() {
    let mut fs = fs_with_segment();
    fs.truncate(SEG, 11).unwrap();
    assert_eq!(fs.read(SEG).unwrap(), b"hello world");
    fs.truncate(SEG, 5).unwrap();
    assert_eq!(fs.read(SEG).unwrap(), b"hello");
    assert_eq!(
        fs.truncate(SEG, 6),
        Err(FsError::OutOfRange {
            path: SEG.to_string(),
            offset: 6,
            len: 5
        })
    );
    fs.truncate(SEG, 0).unwrap();
    assert_eq!(fs.len(SEG).unwrap(), 0);
    assert_eq!(
        fs.truncate("/nope", 0),
        Err(FsError::NotFound("/nope".to_string()))
    );
    assert_eq!(
        fs.truncate("/broker-1", 0),
        Err(FsError::IsADirectory("/broker-1".to_string()))
    );
    assert_eq!(
        fs.truncate("/", 0),
        Err(FsError::IsADirectory("/".to_string()))
    );
}

#[test]
fn remove_file() {
    let mut fs = fs_with_segment();
    assert_eq!(
        fs.remove_file("/broker-1"),
        Err(FsError::IsADirectory("/broker-1".to_string()))
    );
    fs.remove_file(SEG).unwrap();
    assert!(!fs.exists(SEG));
    // The directory stays.
    assert!(fs.is_dir("/broker-1/data/topic-0"));
    assert_eq!(fs.remove_file(SEG), Err(FsError::NotFound(SEG.to_string())));
}

#[test]
fn remove_dir_all() {
    let mut fs = fs_with_segment();
    fs.write("/broker-1/data/topic-1/a.log", b"1").unwrap();
    fs.write("/broker-1/data-other/x", b"2").unwrap();
    fs.write("/broker-2/y", b"3").unwrap();
    assert_eq!(
        fs.remove_dir_all(SEG),
        Err(FsError::NotADirectory(SEG.to_string()))
    );
    assert_eq!(
        fs.remove_dir_all("/nope"),
        Err(FsError::NotFound("/nope".to_string()))
    );
    fs.remove_dir_all("/broker-1/data").unwrap();
    assert!(!fs.exists("/broker-1/data"));
    assert!(!fs.exists(SEG));
    // A sibling whose name merely starts the same is untouched.
    assert_eq!(fs.read("/broker-1/data-other/x").unwrap(), b"2");
    assert_eq!(fs.list_dir("/broker-1").unwrap(), vec!["data-other"]);
    fs.remove_dir_all("/").unwrap();
    assert!(fs.is_dir("/"));
    assert_eq!(fs, MemFs::new());
}

#[test]
fn rename_file() {
    let mut fs = fs_with_segment();
    let cleaned = "/broker-1/data/topic-0/00000000000000000000.log.cleaned";
    fs.rename(SEG, cleaned).unwrap();
    assert!(!fs.exists(SEG));
    assert_eq!(fs.read(cleaned).unwrap(), b"hello world");
    // Replaces an existing file atomically.
    fs.write(SEG, b"old").unwrap();
    fs.rename(cleaned, SEG).unwrap();
    assert_eq!(fs.read(SEG).unwrap(), b"hello world");
    assert_eq!(fs.walk_files().len(), 1);
    // Creates the target's parents.
    fs.rename(SEG, "/elsewhere/deep/f").unwrap();
    assert_eq!(fs.read("/elsewhere/deep/f").unwrap(), b"hello world");
    // Same path: no-op.
    fs.rename("/elsewhere/deep/f", "/elsewhere//deep/f")
        .unwrap();
    assert!(fs.exists("/elsewhere/deep/f"));
}

#[test]
fn rename_dir_moves_the_subtree() {
    let mut fs = fs_with_segment();
    fs.write("/broker-1/data/topic-0/00000000000000000000.index", b"ix")
        .unwrap();
    fs.create_dir_all("/broker-1/data/topic-0/empty").unwrap();
    fs.write("/broker-1/data/topic-00/keep", b"k").unwrap();
    let deleted = "/broker-1/data/topic-0.abc-delete";
    fs.rename("/broker-1/data/topic-0", deleted).unwrap();
    assert!(!fs.exists("/broker-1/data/topic-0"));
    assert_eq!(
        fs.list_dir(deleted).unwrap(),
        vec![
            "00000000000000000000.index",
            "00000000000000000000.log",
            "empty"
        ]
    );
    assert!(fs.is_dir(&format!("{deleted}/empty")));
    assert_eq!(
        fs.read(&format!("{deleted}/00000000000000000000.log"))
            .unwrap(),
        b"hello world"
    );
    assert_eq!(fs.read("/broker-1/data/topic-00/keep").unwrap(), b"k");
}

#[test]
fn rename_errors() {
    let mut fs = fs_with_segment();
    fs.write("/other/file", b"o").unwrap();
    let before = fs.clone();
    assert_eq!(
        fs.rename("/nope", "/x"),
        Err(FsError::NotFound("/nope".to_string()))
    );
    assert_eq!(
        fs.rename("/", "/x"),
        Err(FsError::InvalidPath("/".to_string()))
    );
    assert_eq!(
        fs.rename(SEG, "/other"),
        Err(FsError::IsADirectory("/other".to_string()))
    );
    assert_eq!(
        fs.rename("/broker-1", "/other"),
        Err(FsError::AlreadyExists("/other".to_string()))
    );
    assert_eq!(
        fs.rename("/broker-1", "/other/file"),
        Err(FsError::AlreadyExists("/other/file".to_string()))
    );
    assert_eq!(
        fs.rename("/broker-1", "/broker-1/data/inside"),
        Err(FsError::InvalidPath("/broker-1/data/inside".to_string()))
    );
    assert_eq!(
        fs.rename(SEG, "/other/file/below"),
        Err(FsError::NotADirectory("/other/file".to_string()))
    );
    assert_eq!(fs, before);
}

#[test]
fn list_dir_children_sorted() {
    let mut fs = MemFs::new();
    for p in ["/d/b", "/d/a", "/d/c/deep", "/d/a-b", "/d/B", "/e"] {
        fs.write(p, b"").unwrap();
    }
    fs.create_dir_all("/d/z").unwrap();
    assert_eq!(
        fs.list_dir("/d").unwrap(),
        vec!["B", "a", "a-b", "b", "c", "z"]
    );
    assert_eq!(fs.list_dir("/").unwrap(), vec!["d", "e"]);
    assert_eq!(fs.list_dir("/d/z").unwrap(), Vec::<String>::new());
    assert_eq!(
        fs.list_dir("/e"),
        Err(FsError::NotADirectory("/e".to_string()))
    );
    assert_eq!(fs.list_dir("/x"), Err(FsError::NotFound("/x".to_string())));
}

#[test]
fn walk_files_and_total_bytes() {
    let mut fs = MemFs::new();
    fs.write("/b/2", b"22").unwrap();
    fs.write("/a/1", b"1").unwrap();
    fs.write("/b/10", b"1010").unwrap();
    fs.create_dir_all("/c").unwrap();
    assert_eq!(
        fs.walk_files(),
        vec![
            ("/a/1".to_string(), 1),
            ("/b/10".to_string(), 4),
            ("/b/2".to_string(), 2)
        ]
    );
    assert_eq!(fs.total_bytes(), 7);
}

#[test]
fn errors_display() {
    let errors = [
        FsError::NotFound("/a".into()),
        FsError::AlreadyExists("/a".into()),
        FsError::NotADirectory("/a".into()),
        FsError::IsADirectory("/a".into()),
        FsError::InvalidPath("a".into()),
        FsError::OutOfRange {
            path: "/a".into(),
            offset: 9,
            len: 1,
        },
    ];
    for e in errors {
        let text = e.to_string();
        assert!(text.contains('a'), "{text}");
        let _: &dyn std::error::Error = &e;
    }
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn export_to_real_folder() {
    let dir = std::env::temp_dir().join(format!("eos-memfs-export-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut fs = fs_with_segment();
    fs.write(
        "/broker-1/data/topic-0/00000000000000000000.index",
        &[0, 1, 2],
    )
    .unwrap();
    fs.create_dir_all("/broker-1/data/empty").unwrap();
    fs.write("/broker-2/x", b"not exported").unwrap();

    let written = fs.export_to("/broker-1", &dir).unwrap();
    assert_eq!(written, 2);
    assert_eq!(
        std::fs::read(dir.join("data/topic-0/00000000000000000000.log")).unwrap(),
        b"hello world"
    );
    assert_eq!(
        std::fs::read(dir.join("data/topic-0/00000000000000000000.index")).unwrap(),
        [0, 1, 2]
    );
    assert!(dir.join("data/empty").is_dir());
    assert!(!dir.join("x").exists());

    // A single file is written under its own name.
    let single = dir.join("single");
    assert_eq!(fs.export_to(SEG, &single).unwrap(), 1);
    assert_eq!(
        std::fs::read(single.join("00000000000000000000.log")).unwrap(),
        b"hello world"
    );

    let missing = fs.export_to("/nope", &dir).unwrap_err();
    assert_eq!(missing.kind(), std::io::ErrorKind::NotFound);
    let invalid = fs.export_to("../x", &dir).unwrap_err();
    assert_eq!(invalid.kind(), std::io::ErrorKind::InvalidInput);

    std::fs::remove_dir_all(&dir).unwrap();
}
