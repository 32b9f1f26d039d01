//! `castellan validate` for one file: recognise what it is from its keys and check it.
//! The web server shows uploads' problems with the same words.

use crate::data::diagnostic::Diagnostic;
use crate::data::library::{self, Source};
use crate::data::ruleset::Ruleset;
use crate::model::tile::TileSet;
use crate::record::Record;
use std::path::Path;

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
        let rules = Ruleset::from_source(source)?;
        Ok(format!("ruleset `{}`", rules.name))
    }
}
