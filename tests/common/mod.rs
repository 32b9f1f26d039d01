//! What the record-based tests of the expansion figures share (tests/abbot.rs,
//! tests/big_follower.rs, tests/traders_builders.rs): loading a record of `tests/records/`,
//! playing it under another ruleset, replaying it.
#![allow(dead_code)] // each test file uses its own part of it

use castellan::data::ruleset::Ruleset;
use castellan::engine::game::Game;
use castellan::model::figure::FigureKind;
use castellan::record::{Record, Replay};
use std::path::Path;

/// The crate's folder.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The record `tests/records/DIR/NAME.toml`.
pub fn record(dir: &str, name: &str) -> Record {
    let path = root().join(format!("tests/records/{dir}/{name}.toml"));
    Record::load(&path).unwrap_or_else(|d| panic!("{name}: {d}"))
}

/// `record` played under `rules`: a file under `tests/fixtures`, else a shipped ruleset's name.
pub fn under(mut record: Record, rules: &str) -> Record {
    let path = root().join("tests/fixtures").join(rules);
    let reference = if path.exists() {
        path.to_string_lossy().into_owned()
    } else {
        rules.to_string()
    };
    record.rules = Ruleset::load(&reference).unwrap_or_else(|d| panic!("{rules}: {d}"));
    record
}

/// The record replayed to its end.
pub fn run(record: &Record) -> Replay {
    record
        .replay()
        .unwrap_or_else(|e| panic!("{}", e.diagnostic()))
}

/// The record's game waiting for its action number `n` (0-based).
pub fn before(mut record: Record, n: usize) -> Game {
    record.actions.truncate(n);
    run(&record).game
}

/// The figure kind a shipped row names.
pub fn kind(name: &str) -> FigureKind {
    FigureKind::parse(name).unwrap_or_else(|| panic!("no figure {name}"))
}
