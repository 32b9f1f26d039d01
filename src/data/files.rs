//! The trust boundary for data files: what a load may read.
//!
//! Rulesets, tile sets, records and scripts may come from strangers (uploads to a server, files
//! passed around). The rules, documented in `rulesets/README.md` ("What a file may reference"):
//!
//! - A file the user names (on the command line) is the user's.
//! - The ruleset a record names (read relative to the record's folder) must lie inside the
//!   record's folder tree, the current directory's tree, or the library: a record is a file
//!   like any other and may come from a stranger.
//! - A file that another file references (`extends`, a tile set, a script, a rhai `import`)
//!   must lie inside the folder tree of the file that references it, or inside the library
//!   (`rulesets/`, `tiles/`, `scripts/` of the current directory, or beside the referencing
//!   file's folder). Symbolic links are resolved first and the target is checked.
//! - Every file read must be a regular file (no device, FIFO or socket) of at most
//!   [`MAX_BYTES`], in UTF-8.
//! - Under [`within_bundle`] (a server's upload), the bundle's folder is the only root:
//!   nothing outside it is read, whatever the current directory (the built-in copies of the
//!   shipped files stay available by name).
//!
//! A refusal names the path as written and the rule it breaks, and never shows a byte of the
//! refused file.

use std::cell::RefCell;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest data file castellan reads (4 MiB): far above any real tile set or ruleset.
pub const MAX_BYTES: u64 = 4 << 20;

thread_local! {
    static BUNDLE: RefCell<Option<PathBuf>> = const { RefCell::new(None) };
}

/// Runs `load` with `root` as the only folder files may be read from (an uploaded bundle).
pub fn within_bundle<T>(root: &Path, load: impl FnOnce() -> T) -> T {
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let previous = BUNDLE.with(|b| b.replace(Some(root)));
    let result = load();
    BUNDLE.with(|b| *b.borrow_mut() = previous);
    result
}

/// The bundle folder that bounds the current load, if any.
pub fn bundle() -> Option<PathBuf> {
    BUNDLE.with(|b| b.borrow().clone())
}

/// Whether `path` may be looked at under the current bundle (always, when no bundle bounds
/// the load): library lookups skip the folders outside it.
pub fn in_bundle(path: &Path) -> bool {
    match bundle() {
        None => true,
        Some(root) => path.canonicalize().is_ok_and(|p| p.starts_with(root)),
    }
}

/// Who names a file, which decides where it may lie.
#[derive(Clone, Copy, Debug)]
pub enum Named<'a> {
    /// The user (command line); inside a bundle, it must lie in the bundle.
    ByUser,
    /// Another file, in this folder (`extends`, tile sets, scripts, imports).
    ByFile(&'a Path),
    /// A record, in this folder (its ruleset): inside the folder's tree, the current
    /// directory's tree or the library.
    ByRecord(&'a Path),
}

/// Reads a data file that `named` names, under the trust boundary.
pub fn read(path: &Path, named: Named<'_>) -> Result<String, String> {
    let shown = path.display();
    // Inside a bundle, a path that leaves it is refused before anything is looked at, so that
    // not even the existence of a file outside can be learnt.
    if let Some(root) = bundle()
        && !lexically_inside(path, &root)
    {
        return Err(outside(&shown.to_string()));
    }
    let refused = || match named {
        Named::ByRecord(_) => outside_record(&shown.to_string()),
        _ => outside(&shown.to_string()),
    };
    let real = match path.canonicalize() {
        Ok(real) => real,
        // A missing file outside the allowed folders is refused like an existing one, so the
        // message tells nothing of what exists there.
        Err(_) if !allowed(&lexical(path), named) => return Err(refused()),
        Err(e) => return Err(format!("cannot read {shown}: {}", plain(&e))),
    };
    if !allowed(&real, named) {
        return Err(refused());
    }
    let meta =
        std::fs::metadata(&real).map_err(|e| format!("cannot read {shown}: {}", plain(&e)))?;
    if !meta.is_file() {
        return Err(format!(
            "{shown} is not a regular file (a folder, device, pipe or socket): refused"
        ));
    }
    if meta.len() > MAX_BYTES {
        return Err(too_large(&shown.to_string()));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(&real)
        .and_then(|f| f.take(MAX_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read {shown}: {}", plain(&e)))?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(too_large(&shown.to_string()));
    }
    String::from_utf8(bytes).map_err(|e| {
        let (line, column) = line_column(&e.as_bytes()[..e.utf8_error().valid_up_to()]);
        format!("{shown}:{line}:{column}: the file is not UTF-8 text (an invalid byte here)")
    })
}

fn outside(shown: &str) -> String {
    format!(
        "{shown} lies outside the folders this file may read (the folder of the file that names it, the library's rulesets/, tiles/ and scripts/, or the uploaded bundle): refused"
    )
}

fn outside_record(shown: &str) -> String {
    format!(
        "{shown} lies outside the folders a record may name its ruleset from (the record's folder, the current directory, the library's rulesets/, tiles/ and scripts/): refused"
    )
}

/// Whether `path`, made absolute and with its `.` and `..` resolved by their names (links
/// are checked later), lies in `root`.
fn lexically_inside(path: &Path, root: &Path) -> bool {
    lexical(path).starts_with(root)
}

/// `path` made absolute, with its `.` and `..` resolved by their names.
fn lexical(path: &Path) -> PathBuf {
    use std::path::Component;
    let absolute = std::env::current_dir()
        .map(|cwd| cwd.join(path))
        .unwrap_or_else(|_| path.to_path_buf());
    let mut parts: Vec<Component<'_>> = Vec::new();
    for c in absolute.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if parts.len() > 1 {
                    parts.pop();
                }
            }
            other => parts.push(other),
        }
    }
    parts.iter().collect()
}

fn too_large(shown: &str) -> String {
    format!("{shown} is larger than {} MiB: refused", MAX_BYTES >> 20)
}

/// An I/O error's text without the OS error number.
fn plain(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// The 1-based line and column just after `valid` (the text before an invalid byte).
fn line_column(valid: &[u8]) -> (usize, usize) {
    let line = 1 + valid.iter().filter(|b| **b == b'\n').count();
    let start = valid.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
    let column = 1 + String::from_utf8_lossy(&valid[start..]).chars().count();
    (line, column)
}

/// Whether the real (canonical) path `real` may be read when `named` names it.
fn allowed(real: &Path, named: Named<'_>) -> bool {
    let inside = |root: &Path| {
        let root = if root.as_os_str().is_empty() {
            Path::new(".")
        } else {
            root
        };
        root.canonicalize().is_ok_and(|root| real.starts_with(root))
    };
    if let Some(root) = bundle() {
        return real.starts_with(root);
    }
    let library = |dir: &Path| {
        ["rulesets", "tiles", "scripts"]
            .iter()
            .any(|f| inside(&dir.join(f)))
    };
    match named {
        Named::ByUser => true,
        Named::ByRecord(dir) => inside(dir) || inside(Path::new(".")) || library(&dir.join("..")),
        Named::ByFile(dir) => inside(dir) || library(Path::new(".")) || library(&dir.join("..")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_utf8_is_located() {
        assert_eq!(line_column(b"ab\ncd\xc3\xa9"), (2, 4));
        assert_eq!(line_column(b""), (1, 1));
    }
}
