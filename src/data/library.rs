//! Finding data files: rulesets and tile sets by name or by path.
//!
//! A name (`hig`, `base`) is looked up in `rulesets/` (or `tiles/`) of the current directory,
//! then beside the referencing file, then in the copies built into the binary, so the shipped
//! data works from any directory. Anything that looks like a path (`my/rules.toml`) is read from
//! disk, relative to the file that names it.

use crate::data::diagnostic::Diagnostic;
use crate::data::files::{self, Named};
use std::path::{Path, PathBuf};

/// What kind of data file is wanted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A ruleset in `rulesets/`.
    Ruleset,
    /// A tile set in `tiles/`.
    TileSet,
    /// A rhai script in `scripts/`.
    Script,
}

impl Kind {
    fn folder(self) -> &'static str {
        match self {
            Kind::Ruleset => "rulesets",
            Kind::TileSet => "tiles",
            Kind::Script => "scripts",
        }
    }

    fn extension(self) -> &'static str {
        match self {
            Kind::Script => ".rhai",
            Kind::Ruleset | Kind::TileSet => ".toml",
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Kind::Ruleset => "ruleset",
            Kind::TileSet => "tile set",
            Kind::Script => "script",
        }
    }
}

/// The shipped data files, compiled in: every `tiles/*.toml`, `rulesets/*.toml` and
/// `scripts/*.rhai` of the source tree, listed by `build.rs`.
const BUILTIN: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/builtin.rs"));

/// A data file's name (as shown in messages) and text.
#[derive(Clone, Debug)]
pub struct Source {
    /// Where the text came from; built-in files show as `<builtin>/rulesets/NAME.toml`.
    pub path: PathBuf,
    /// The file's text.
    pub text: String,
}

/// Whether a reference is a path rather than a bare name.
pub fn is_path(reference: &str) -> bool {
    reference.contains('/')
        || reference.contains('\\')
        || reference.ends_with(".toml")
        || reference.ends_with(".rhai")
}

/// The names of the built-in files of one kind (for help texts and tests).
pub fn builtin_names(kind: Kind) -> Vec<&'static str> {
    let prefix = format!("{}/", kind.folder());
    BUILTIN
        .iter()
        .filter_map(|(p, _)| p.strip_prefix(prefix.as_str()))
        .filter_map(|p| p.strip_suffix(kind.extension()))
        .collect()
}

/// Finds and reads the data file that `reference` names, under the trust boundary
/// ([`files`]): `named` says who names it (the user, or a file or record in a folder).
///
/// A path is read relative to the naming file's folder. A bare name is looked up in the
/// library folders (`rulesets/`, `tiles/`, `scripts/`) of the current directory, of the naming
/// file's folder and of its parent, then among the built-in copies.
pub fn find(kind: Kind, reference: &str, named: Named<'_>) -> Result<Source, String> {
    let near = match named {
        Named::ByUser => Path::new("."),
        Named::ByFile(dir) | Named::ByRecord(dir) => dir,
    };
    if is_path(reference) {
        let path = near.join(reference);
        return files::read(&path, named).map(|text| Source { path, text });
    }
    let file = format!("{}/{reference}{}", kind.folder(), kind.extension());
    let candidates = [
        PathBuf::from(&file),
        near.join(&file),
        near.join("..").join(&file),
    ];
    // A library file found on disk is named by the library, not by the user.
    let library = Named::ByFile(near);
    for path in candidates {
        if std::fs::symlink_metadata(&path).is_ok() && files::in_bundle(&path) {
            return files::read(&path, library).map(|text| Source { path, text });
        }
    }
    if let Some((_, text)) = BUILTIN.iter().find(|(p, _)| *p == file) {
        return Ok(Source {
            path: PathBuf::from("<builtin>").join(&file),
            text: (*text).to_string(),
        });
    }
    Err(format!(
        "no {} named `{reference}` (looked for {file} in the current directory and in the folder of the referring file and its parent; built in: {})",
        kind.noun(),
        builtin_names(kind).join(", ")
    ))
}

/// Reads a file given on the command line (under the trust boundary's checks: a regular file
/// of at most [`files::MAX_BYTES`] in UTF-8, inside the bundle when one bounds the load).
pub fn read(path: &Path) -> Result<Source, Diagnostic> {
    files::read(path, Named::ByUser)
        .map(|text| Source {
            path: path.to_path_buf(),
            text,
        })
        .map_err(|msg| Diagnostic::new(path, &std::sync::Arc::from(""), None, msg))
}
