//! `castellan validate` for one file: recognise what it is from its keys and check it.
//! The web server shows uploads' problems with the same words.

use crate::data::diagnostic::{Diagnostic, PathPart, span_at};
use crate::data::library::{self, Source};
use crate::data::ruleset::Ruleset;
use crate::engine::game::{Game, Setup};
use crate::model::tile::TileSet;
use crate::record::Record;
use std::path::Path;
use std::sync::Arc;

/// Checks one file (a tile set, a record or a ruleset); returns a short description of what it
/// is, or the first problem, located.
pub fn check(path: &Path) -> Result<String, Diagnostic> {
    let source = library::read(path)?;
    crate::record::check_size(path, &source.text)?;
    // The kind by the file's keys, the table dropped before the file is read as that kind.
    let (tiles, record) = {
        let table: toml::Table = toml::from_str(&source.text).map_err(|e| {
            Diagnostic::from_toml(path, &std::sync::Arc::from(source.text.as_str()), &e)
        })?;
        let record = table.contains_key("action")
            || table.contains_key("players") && table.contains_key("ruleset");
        (table.contains_key("tile"), record)
    };
    if tiles {
        let set = TileSet::parse(path, &source.text)?;
        let n: u32 = set.tiles.iter().map(|t| t.count).sum();
        Ok(format!(
            "tile set `{}`: {} types, {n} tiles",
            set.name,
            set.tiles.len()
        ))
    } else if record {
        let record = Record::parse(Source {
            path: path.to_path_buf(),
            text: source.text,
        })?;
        let replay = record.replay().map_err(|e| e.diagnostic().clone())?;
        Ok(format!(
            "record: {} actions, {}",
            record.actions.len(),
            if replay.game.is_over() {
                "game over"
            } else {
                "game in progress"
            }
        ))
    } else {
        let text: Arc<str> = Arc::from(source.text.as_str());
        let rules = Arc::new(Ruleset::from_source(source)?);
        starts(path, &text, &rules)?;
        Ok(format!("ruleset `{}`", rules.name))
    }
}

/// Whether a game of `rules` starts: what only a game's set-up can find (a script's
/// `game_start` refusing the ruleset's `[vars]`, a start tile that cannot be laid) is found
/// here, located at the ruleset's `[vars]`, `scripts`, start or `extends`, whichever it writes
/// first in that order.
fn starts(path: &Path, text: &Arc<str>, rules: &Arc<Ruleset>) -> Result<(), Diagnostic> {
    let names = (0..rules.players.0.max(1))
        .map(|i| format!("P{}", i + 1))
        .collect();
    match Game::new(Arc::clone(rules), Setup::new(names, 0)) {
        Ok(_) => Ok(()),
        Err(e) => {
            // Where the set-up's inputs are written: the scripts' values, the scripts, the
            // start, or the ruleset this one extends.
            let written = toml::from_str::<toml::Table>(text).ok();
            let span = ["vars", "scripts", "start", "extends"]
                .into_iter()
                .find(|key| written.as_ref().is_some_and(|t| t.contains_key(*key)))
                .and_then(|key| span_at(text, &[PathPart::Key(key)]));
            Err(Diagnostic::new(
                path,
                text,
                span,
                format!("a game of this ruleset cannot start: {e}"),
            ))
        }
    }
}
