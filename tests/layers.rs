//! The crate's layering (src/README.md): each layer of `src/` uses only the layers below it.
//!
//! model (0) < data (1) < engine (2) < script (3) < mechanic (4) < registry (5) < record (6) <
//! bot (7) < ui (8) < lab (9). A mechanic family's `rules.rs` holds only its toggles (plain data read
//! from TOML), so it counts as data: the ruleset loader may read it, and it may use only
//! `model` and other `rules` modules. Scripts name no mechanic: each family registers its own
//! script commands and queries (`mechanic/pd/script.rs`) through the script layer's
//! `ScriptApi`; only the registry names every mechanic.
//!
//! The check reads every `crate::…` path in `src/` (imports and inline paths alike). Edges
//! that break the layering and are still to be removed are listed in [`KNOWN`] with the reason;
//! the test fails on any new one, and on a listed one that has gone (so the list only shrinks).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Layering breaks still in the code: (file, imported path prefix, why it is still there).
const KNOWN: &[(&str, &str, &str)] = &[];

fn rank(layer: &str) -> Option<u8> {
    Some(match layer {
        "model" => 0,
        "data" => 1,
        "engine" => 2,
        "script" => 3,
        "mechanic" => 4,
        "registry" => 5,
        "record" => 6,
        "bot" => 7,
        "ui" => 8,
        "lab" => 9,
        _ => return None,
    })
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The `crate::a::b::…` paths a source text names.
fn crate_paths(text: &str) -> Vec<Vec<&str>> {
    let mut paths = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("crate::") {
        let tail = &rest[at + "crate::".len()..];
        let end = tail
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(tail.len());
        paths.push(tail[..end].split("::").filter(|s| !s.is_empty()).collect());
        rest = &tail[end..];
    }
    paths
}

/// The layer rank of a module path, with toggle modules (`mechanic::*::rules`) as data.
fn path_rank(path: &[&str]) -> Option<u8> {
    if path.first() == Some(&"mechanic") && path.get(2) == Some(&"rules") {
        return Some(1);
    }
    rank(path.first()?)
}

/// Every edge that breaks the layering: (file relative to src/, offending path).
fn breaks() -> BTreeSet<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut found = BTreeSet::new();
    for file in files {
        let rel = file.strip_prefix(&src).expect("under src/");
        let parts: Vec<String> = rel
            .with_extension("")
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        let Some(own) = rank(&parts[0]) else {
            continue; // lib.rs and main.rs sit on top of everything
        };
        let is_rules = parts[0] == "mechanic" && parts.last().is_some_and(|p| p == "rules");
        let own = if is_rules { 1 } else { own };
        let text = std::fs::read_to_string(&file).expect("readable source");
        for path in crate_paths(&text) {
            let Some(target) = path_rank(&path) else {
                continue;
            };
            let same_folder = path[0] == parts[0];
            let bad = if is_rules {
                !(path[0] == "model" || target == 1)
            } else {
                target > own || (target == own && !same_folder && own != 1)
            };
            if bad {
                found.insert((rel.to_string_lossy().into_owned(), path.join("::")));
            }
        }
    }
    found
}

#[test]
fn every_layer_uses_only_the_layers_below_it() {
    let found = breaks();
    let known = |file: &str, path: &str| {
        KNOWN
            .iter()
            .any(|(f, p, _)| *f == file && format!("crate::{path}").starts_with(p))
    };
    let new: Vec<_> = found.iter().filter(|(f, p)| !known(f, p)).collect();
    assert!(new.is_empty(), "imports that break the layering: {new:#?}");
    for (file, prefix, why) in KNOWN {
        assert!(
            found
                .iter()
                .any(|(f, p)| f == file && format!("crate::{p}").starts_with(prefix)),
            "{file} no longer imports {prefix} ({why}): remove it from KNOWN"
        );
    }
}

#[test]
fn the_data_layer_imports_no_game_logic() {
    // The loader reads toggle modules (plain data) and nothing from the engine or mechanics.
    let found = breaks();
    let logic: Vec<_> = found
        .iter()
        .filter(|(f, p)| {
            (f.starts_with("data/") || f.starts_with("model/"))
                && (p.starts_with("engine") || p.starts_with("mechanic"))
        })
        .collect();
    assert!(logic.is_empty(), "{logic:#?}");
}

#[test]
fn the_checker_sees_a_break() {
    // The checker itself: a made-up path from the board model into the engine is a break.
    let paths = crate_paths("use crate::engine::game::Game; let x = crate::model::tile::X;");
    assert_eq!(paths[0], ["engine", "game", "Game"]);
    assert_eq!(path_rank(&paths[0]), Some(2));
    assert_eq!(path_rank(&["mechanic", "pd", "rules", "Timing"]), Some(1));
    assert_eq!(path_rank(&paths[1]), Some(0));
}
