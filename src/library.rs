//! Finding data files: rulesets and tile sets by name or by path.
//!
//! A name (`hig`, `base`) is looked up in `rulesets/` (or `tiles/`) of the current directory,
//! then beside the referencing file, then in the copies built into the binary, so the shipped
//! data works from any directory. Anything that looks like a path (`my/rules.toml`) is read from
//! disk, relative to the file that names it.

use crate::diagnostic::Diagnostic;
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

/// The shipped data files, compiled in.
const BUILTIN: &[(&str, &str)] = &[
    ("rulesets/base.toml", include_str!("../rulesets/base.toml")),
    ("rulesets/hig.toml", include_str!("../rulesets/hig.toml")),
    (
        "rulesets/rgg-2005.toml",
        include_str!("../rulesets/rgg-2005.toml"),
    ),
    (
        "rulesets/devir.toml",
        include_str!("../rulesets/devir.toml"),
    ),
    ("rulesets/zman.toml", include_str!("../rulesets/zman.toml")),
    (
        "rulesets/rgg-bigbox1.toml",
        include_str!("../rulesets/rgg-bigbox1.toml"),
    ),
    (
        "rulesets/house-redraw-dragon.toml",
        include_str!("../rulesets/house-redraw-dragon.toml"),
    ),
    (
        "rulesets/house-fairy-five.toml",
        include_str!("../rulesets/house-fairy-five.toml"),
    ),
    (
        "rulesets/house-fairy-shield.toml",
        include_str!("../rulesets/house-fairy-shield.toml"),
    ),
    (
        "rulesets/house-claim-fairy-point.toml",
        include_str!("../rulesets/house-claim-fairy-point.toml"),
    ),
    (
        "rulesets/count.toml",
        include_str!("../rulesets/count.toml"),
    ),
    (
        "rulesets/devir-count.toml",
        include_str!("../rulesets/devir-count.toml"),
    ),
    (
        "rulesets/house-fairy-five-script.toml",
        include_str!("../rulesets/house-fairy-five-script.toml"),
    ),
    (
        "rulesets/house-fairy-shield-script.toml",
        include_str!("../rulesets/house-fairy-shield-script.toml"),
    ),
    (
        "rulesets/house-pilgrims.toml",
        include_str!("../rulesets/house-pilgrims.toml"),
    ),
    (
        "rulesets/dungeon.toml",
        include_str!("../rulesets/dungeon.toml"),
    ),
    (
        "scripts/dungeon.rhai",
        include_str!("../scripts/dungeon.rhai"),
    ),
    (
        "scripts/pilgrims.rhai",
        include_str!("../scripts/pilgrims.rhai"),
    ),
    (
        "scripts/house-fairy-five.rhai",
        include_str!("../scripts/house-fairy-five.rhai"),
    ),
    (
        "scripts/house-fairy-shield.rhai",
        include_str!("../scripts/house-fairy-shield.rhai"),
    ),
    ("tiles/base.toml", include_str!("../tiles/base.toml")),
    (
        "tiles/princess-dragon.toml",
        include_str!("../tiles/princess-dragon.toml"),
    ),
    ("tiles/tower.toml", include_str!("../tiles/tower.toml")),
    ("tiles/count.toml", include_str!("../tiles/count.toml")),
];

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

/// Finds and reads the data file that `reference` names. `near` is the directory of the file
/// that mentions it (or the current directory for command-line arguments).
pub fn find(kind: Kind, reference: &str, near: &Path) -> Result<Source, String> {
    if is_path(reference) {
        let path = near.join(reference);
        return std::fs::read_to_string(&path)
            .map(|text| Source {
                path: path.clone(),
                text,
            })
            .map_err(|e| format!("cannot read {}: {e}", path.display()));
    }
    let file = format!("{}/{reference}{}", kind.folder(), kind.extension());
    let candidates = [
        PathBuf::from(&file),
        near.join(&file),
        near.join("..").join(&file),
    ];
    for path in candidates {
        if let Ok(text) = std::fs::read_to_string(&path) {
            return Ok(Source { path, text });
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

/// Reads a file given on the command line or in a record.
pub fn read(path: &Path) -> Result<Source, Diagnostic> {
    std::fs::read_to_string(path)
        .map(|text| Source {
            path: path.to_path_buf(),
            text,
        })
        .map_err(|e| Diagnostic::unreadable(path, &e))
}
