//! The broker's disk. In the browser there is no file system, so every broker
//! writes its segments, indexes and checkpoints into a [`MemFs`]; natively the
//! same bytes can be exported to a real folder for inspection with Kafka tools.

use crate::util::sorted_map::SortedMap;
use std::fmt;

use serde::{Deserialize, Serialize};

/// An in-memory file system (the broker's disk in the browser). Paths are
/// '/'-separated, absolute ("/broker-1/data/topic-0/00000000000000000000.log").
/// Directories are explicit.
///
/// Mirrors the subset of `java.nio.file.Files` / `FileChannel` that Kafka's
/// `LogSegment`, `FileRecords` and checkpoint files use. Simplified: no
/// permissions, links, timestamps or file handles; every operation is atomic;
/// `truncate` only shrinks (Kafka only ever truncates a log down).
///
/// Paths are normalised before use: repeated and trailing '/' and "."
/// components are dropped, so "/a//b/./c/" is "/a/b/c". Empty or relative paths,
/// ".." components and NUL bytes are rejected with [`FsError::InvalidPath`].
/// The root "/" always exists and is a directory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemFs {
    /// Normalised path -> node. Sorted, so listings and walks are deterministic.
    nodes: SortedMap<String, Node>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Node {
    Dir,
    File(Vec<u8>),
}

/// Why a [`MemFs`] operation failed. Each variant carries the offending
/// (normalised where possible) path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FsError {
    /// The path (or, for `rename`, the source) does not exist.
    NotFound(String),
    /// The target already exists and the operation will not replace it.
    AlreadyExists(String),
    /// A file was found where a directory was needed (also: a file on the way to a path).
    NotADirectory(String),
    /// A directory was found where a file was needed.
    IsADirectory(String),
    /// The path is empty, relative, contains "..", or contains NUL.
    InvalidPath(String),
    /// A read or truncate past the end of a file.
    OutOfRange { path: String, offset: u64, len: u64 },
}

impl fmt::Display for FsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FsError::NotFound(p) => write!(f, "{p}: no such file or directory"),
            FsError::AlreadyExists(p) => write!(f, "{p}: already exists"),
            FsError::NotADirectory(p) => write!(f, "{p}: not a directory"),
            FsError::IsADirectory(p) => write!(f, "{p}: is a directory"),
            FsError::InvalidPath(p) => write!(f, "{p:?}: invalid path"),
            FsError::OutOfRange { path, offset, len } => {
                write!(f, "{path}: offset {offset} is out of range (len {len})")
            }
        }
    }
}

impl std::error::Error for FsError {}

/// Normalises an absolute path; see [`MemFs`] for the rules.
fn normalize(path: &str) -> Result<String, FsError> {
    if path.is_empty() || !path.starts_with('/') || path.contains('\0') {
        return Err(FsError::InvalidPath(path.to_string()));
    }
    let mut out = String::with_capacity(path.len());
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => return Err(FsError::InvalidPath(path.to_string())),
            name => {
                out.push('/');
                out.push_str(name);
            }
        }
    }
    if out.is_empty() {
        out.push('/');
    }
    Ok(out)
}

/// [`normalize`] without the allocation when `path` is already normal (what the
/// engine's own paths always are): reads and appends run at every step of a chaos run.
fn normalized(path: &str) -> Result<std::borrow::Cow<'_, str>, FsError> {
    let normal = path.len() > 1
        && path.starts_with('/')
        && !path.contains('\0')
        && path
            .split('/')
            .skip(1)
            .all(|part| !matches!(part, "" | "." | ".."));
    if normal || path == "/" {
        Ok(std::borrow::Cow::Borrowed(path))
    } else {
        normalize(path).map(std::borrow::Cow::Owned)
    }
}

/// The parent of a normalised path ("/" has none).
fn parent(path: &str) -> Option<&str> {
    if path == "/" {
        return None;
    }
    match path.rfind('/') {
        Some(0) => Some("/"),
        Some(i) => path.get(..i),
        None => None,
    }
}

/// The prefix every descendant of the normalised directory `dir` starts with.
fn child_prefix(dir: &str) -> String {
    if dir == "/" {
        "/".to_string()
    } else {
        format!("{dir}/")
    }
}

/// Converts a u64 position to usize without wrapping (wasm32 has 32-bit usize).
fn to_usize(v: u64) -> usize {
    usize::try_from(v).unwrap_or(usize::MAX)
}

impl MemFs {
    /// An empty file system holding only the root directory.
    pub fn new() -> Self {
        Self::default()
    }

    fn node(&self, norm: &str) -> Option<&Node> {
        if norm == "/" {
            Some(&Node::Dir)
        } else {
            self.nodes.get(norm)
        }
    }

    /// Like `mkdir -p`: creates the directory and its missing ancestors.
    /// Fails with NotADirectory if a file is in the way.
    pub fn create_dir_all(&mut self, path: &str) -> Result<(), FsError> {
        let norm = normalize(path)?;
        self.create_dir_all_norm(&norm)
    }

    fn create_dir_all_norm(&mut self, norm: &str) -> Result<(), FsError> {
        if norm == "/" {
            return Ok(());
        }
        // A directory's ancestors are directories (every operation keeps it so):
        // an existing one is the common case and needs no walk.
        if let Some(Node::Dir) = self.nodes.get(norm) {
            return Ok(());
        }
        // Check first, then create, so a failure leaves nothing half-made.
        let ends = || {
            norm.match_indices('/')
                .map(|(i, _)| i)
                .filter(|&i| i > 0)
                .chain(std::iter::once(norm.len()))
        };
        for end in ends() {
            let prefix = norm.get(..end).unwrap_or(norm);
            if let Some(Node::File(_)) = self.nodes.get(prefix) {
                return Err(FsError::NotADirectory(prefix.to_string()));
            }
        }
        for end in ends() {
            let prefix = norm.get(..end).unwrap_or(norm);
            // Only a missing directory costs an allocation.
            if !self.nodes.contains_key(prefix) {
                self.nodes.insert(prefix.to_string(), Node::Dir);
            }
        }
        Ok(())
    }

    /// True if the path names a file or a directory. Invalid paths do not exist.
    pub fn exists(&self, path: &str) -> bool {
        normalize(path).is_ok_and(|n| self.node(&n).is_some())
    }

    /// True if the path names a directory.
    pub fn is_dir(&self, path: &str) -> bool {
        normalize(path).is_ok_and(|n| matches!(self.node(&n), Some(Node::Dir)))
    }

    /// True if the path names a file.
    pub fn is_file(&self, path: &str) -> bool {
        normalize(path).is_ok_and(|n| matches!(self.node(&n), Some(Node::File(_))))
    }

    /// Returns the file's bytes mutably, creating the file (and its parent
    /// directories) if missing.
    fn file_mut_or_create(&mut self, norm: &str) -> Result<&mut Vec<u8>, FsError> {
        match self.node(norm) {
            Some(Node::Dir) => return Err(FsError::IsADirectory(norm.to_string())),
            Some(Node::File(_)) => {}
            None => {
                if let Some(p) = parent(norm) {
                    self.create_dir_all_norm(p)?;
                }
                self.nodes.insert(norm.to_string(), Node::File(Vec::new()));
            }
        }
        match self.nodes.get_mut(norm) {
            Some(Node::File(bytes)) => Ok(bytes),
            _ => Err(FsError::NotFound(norm.to_string())),
        }
    }

    /// Creates or replaces a file; parent directories are created.
    pub fn write(&mut self, path: &str, bytes: &[u8]) -> Result<(), FsError> {
        let norm = normalized(path)?;
        let file = self.file_mut_or_create(&norm)?;
        file.clear();
        file.extend_from_slice(bytes);
        Ok(())
    }

    /// Appends to a file, creating it (and its parents) if missing. Returns the
    /// position the bytes were written at, i.e. the file's size before, which is
    /// what a segment needs for its offset index.
    pub fn append(&mut self, path: &str, bytes: &[u8]) -> Result<u64, FsError> {
        let norm = normalized(path)?;
        let file = self.file_mut_or_create(&norm)?;
        let pos = file.len() as u64;
        file.extend_from_slice(bytes);
        Ok(pos)
    }

    fn file(&self, norm: &str) -> Result<&[u8], FsError> {
        match self.node(norm) {
            Some(Node::File(bytes)) => Ok(bytes),
            Some(Node::Dir) => Err(FsError::IsADirectory(norm.to_string())),
            None => Err(FsError::NotFound(norm.to_string())),
        }
    }

    /// Ok if `norm` is a directory: [`MemFs::file`]'s counterpart.
    fn dir(&self, norm: &str) -> Result<(), FsError> {
        match self.node(norm) {
            Some(Node::Dir) => Ok(()),
            Some(Node::File(_)) => Err(FsError::NotADirectory(norm.to_string())),
            None => Err(FsError::NotFound(norm.to_string())),
        }
    }

    /// The whole content of a file.
    pub fn read(&self, path: &str) -> Result<&[u8], FsError> {
        let norm = normalized(path)?;
        self.file(&norm)
    }

    /// Up to `len` bytes from `offset`: `len` is clamped to the end of the file
    /// (like a short read), but an `offset` past the end is OutOfRange.
    /// `offset == size` gives an empty slice.
    pub fn read_at(&self, path: &str, offset: u64, len: u64) -> Result<&[u8], FsError> {
        let norm = normalized(path)?;
        let bytes = self.file(&norm)?;
        let size = bytes.len() as u64;
        if offset > size {
            return Err(FsError::OutOfRange {
                path: norm.into_owned(),
                offset,
                len,
            });
        }
        let end = offset.saturating_add(len).min(size);
        Ok(bytes.get(to_usize(offset)..to_usize(end)).unwrap_or(&[]))
    }

    /// The size of a file in bytes.
    pub fn len(&self, path: &str) -> Result<u64, FsError> {
        let norm = normalized(path)?;
        Ok(self.file(&norm)?.len() as u64)
    }

    /// Shrinks a file to `len` bytes. Growing is refused with OutOfRange
    /// (`offset` = the requested len, `len` = the current size): Kafka only
    /// truncates logs down, and refusing avoids allocating on a bad request.
    pub fn truncate(&mut self, path: &str, len: u64) -> Result<(), FsError> {
        let norm = normalize(path)?;
        match self.nodes.get_mut(&norm) {
            Some(Node::File(bytes)) => {
                let size = bytes.len() as u64;
                if len > size {
                    return Err(FsError::OutOfRange {
                        path: norm,
                        offset: len,
                        len: size,
                    });
                }
                bytes.truncate(to_usize(len));
                Ok(())
            }
            Some(Node::Dir) => Err(FsError::IsADirectory(norm)),
            None if norm == "/" => Err(FsError::IsADirectory(norm)),
            None => Err(FsError::NotFound(norm)),
        }
    }

    /// Deletes a file (not a directory).
    pub fn remove_file(&mut self, path: &str) -> Result<(), FsError> {
        let norm = normalize(path)?;
        match self.node(&norm) {
            Some(Node::File(_)) => {
                self.nodes.remove(&norm);
                Ok(())
            }
            Some(Node::Dir) => Err(FsError::IsADirectory(norm)),
            None => Err(FsError::NotFound(norm)),
        }
    }

    /// Deletes a directory and everything under it. On "/" it empties the file
    /// system but the root itself stays.
    pub fn remove_dir_all(&mut self, path: &str) -> Result<(), FsError> {
        let norm = normalize(path)?;
        self.dir(&norm)?;
        let prefix = child_prefix(&norm);
        self.nodes
            .retain(|k, _| k != &norm && !k.starts_with(&prefix));
        Ok(())
    }

    /// Moves a file or a directory (with its subtree), creating `to`'s parent
    /// directories like `write` does. A file replaces an existing file at `to`
    /// (atomic replace, as Kafka's checkpoint files rely on); a directory never
    /// replaces anything (AlreadyExists). Moving a directory into itself is
    /// InvalidPath; renaming a path to itself is a no-op.
    pub fn rename(&mut self, from: &str, to: &str) -> Result<(), FsError> {
        let src = normalize(from)?;
        let dst = normalize(to)?;
        if src == "/" {
            return Err(FsError::InvalidPath(src));
        }
        let src_is_dir = match self.node(&src) {
            Some(Node::Dir) => true,
            Some(Node::File(_)) => false,
            None => return Err(FsError::NotFound(src)),
        };
        if src == dst {
            return Ok(());
        }
        let src_prefix = child_prefix(&src);
        if src_is_dir {
            if dst.starts_with(&src_prefix) {
                return Err(FsError::InvalidPath(dst));
            }
            if self.node(&dst).is_some() {
                return Err(FsError::AlreadyExists(dst));
            }
        } else if let Some(Node::Dir) = self.node(&dst) {
            return Err(FsError::IsADirectory(dst));
        }
        if let Some(p) = parent(&dst) {
            self.create_dir_all_norm(p)?;
        }
        if src_is_dir {
            let moved: Vec<String> = self
                .nodes
                .range(src_prefix.clone()..)
                .map(|(k, _)| k)
                .take_while(|k| k.starts_with(&src_prefix))
                .cloned()
                .collect();
            self.nodes.remove(&src);
            self.nodes.insert(dst.clone(), Node::Dir);
            let dst_prefix = child_prefix(&dst);
            for old in moved {
                if let Some(node) = self.nodes.remove(&old) {
                    let rest = old.get(src_prefix.len()..).unwrap_or("");
                    self.nodes.insert(format!("{dst_prefix}{rest}"), node);
                }
            }
        } else if let Some(node) = self.nodes.remove(&src) {
            self.nodes.insert(dst, node);
        }
        Ok(())
    }

    /// The names (not full paths) of a directory's direct children, sorted.
    pub fn list_dir(&self, path: &str) -> Result<Vec<String>, FsError> {
        let norm = normalize(path)?;
        self.dir(&norm)?;
        let prefix = child_prefix(&norm);
        // All keys under `prefix` share it, so the SortedMap order is already
        // the order of the child names.
        Ok(self
            .nodes
            .range(prefix.clone()..)
            .map(|(k, _)| k)
            .take_while(|k| k.starts_with(&prefix))
            .filter_map(|k| k.get(prefix.len()..))
            .filter(|rest| !rest.contains('/'))
            .map(str::to_string)
            .collect())
    }

    /// Every file's full path with its size, sorted by path.
    pub fn walk_files(&self) -> Vec<(String, u64)> {
        self.nodes
            .iter()
            .filter_map(|(k, n)| match n {
                Node::File(bytes) => Some((k.clone(), bytes.len() as u64)),
                Node::Dir => None,
            })
            .collect()
    }

    /// The sum of all file sizes (the "disk usage" the UI shows).
    pub fn total_bytes(&self) -> u64 {
        self.nodes
            .values()
            .map(|n| match n {
                Node::File(bytes) => bytes.len() as u64,
                Node::Dir => 0,
            })
            .fold(0u64, u64::saturating_add)
    }

    /// Writes the subtree under `root_in_fs` into the real folder `dir` (created
    /// if missing), so segments can be inspected with Kafka's own tools
    /// (kafka-dump-log.sh). A file root is written as `dir/<its name>`.
    /// Returns the number of files written.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn export_to(&self, root_in_fs: &str, dir: &std::path::Path) -> std::io::Result<usize> {
        use std::io::{Error, ErrorKind};
        let to_io = |e: FsError| {
            let kind = match e {
                FsError::NotFound(_) => ErrorKind::NotFound,
                _ => ErrorKind::InvalidInput,
            };
            Error::new(kind, e)
        };
        let root = normalize(root_in_fs).map_err(to_io)?;
        std::fs::create_dir_all(dir)?;
        match self.node(&root) {
            None => Err(to_io(FsError::NotFound(root))),
            Some(Node::File(bytes)) => {
                let name = root.rsplit('/').next().unwrap_or("file");
                std::fs::write(dir.join(name), bytes)?;
                Ok(1)
            }
            Some(Node::Dir) => {
                let prefix = child_prefix(&root);
                let mut written = 0usize;
                for (key, node) in self
                    .nodes
                    .range(prefix.clone()..)
                    .take_while(|(k, _)| k.starts_with(&prefix))
                {
                    let rel = key.get(prefix.len()..).unwrap_or("");
                    let mut target = dir.to_path_buf();
                    target.extend(rel.split('/'));
                    match node {
                        Node::Dir => std::fs::create_dir_all(&target)?,
                        Node::File(bytes) => {
                            if let Some(p) = target.parent() {
                                std::fs::create_dir_all(p)?;
                            }
                            std::fs::write(&target, bytes)?;
                            written += 1;
                        }
                    }
                }
                Ok(written)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_rules() {
        assert_eq!(normalize("/").unwrap(), "/");
        assert_eq!(normalize("//a//b/./c/").unwrap(), "/a/b/c");
        for bad in ["", "a/b", "/a/../b", "/a\0b", ".."] {
            assert_eq!(normalize(bad), Err(FsError::InvalidPath(bad.to_string())));
        }
        // The allocation-free path gives what `normalize` gives.
        for p in [
            "/",
            "//",
            "/a",
            "/a/",
            "/a//b",
            "/./a",
            "/a/.",
            "/a/..",
            "/a\0",
            "",
            "a",
            "/a.b/c..d",
        ] {
            assert_eq!(normalized(p).map(|c| c.into_owned()), normalize(p), "{p:?}");
        }
    }

    #[test]
    fn parent_of() {
        assert_eq!(parent("/"), None);
        assert_eq!(parent("/a"), Some("/"));
        assert_eq!(parent("/a/b"), Some("/a"));
    }
}
