//! What the record-based tests share (tests/abbot.rs, tests/base_rules.rs, tests/big_follower.rs,
//! tests/traders_builders.rs, tests/dungeon.rs, tests/dungeon_full.rs, tests/inns_cathedrals.rs,
//! tests/translated.rs): loading a record of `tests/records/`, playing it under another ruleset,
//! replaying it, its scoring events, completed features and dragon steps, and the dungeon's
//! random games and `simulate` runs.
#![allow(dead_code)] // each test file uses its own part of it

use castellan::data::ruleset::Ruleset;
use castellan::engine::event::Event;
use castellan::engine::game::Game;
use castellan::mechanic::pd::vocabulary::PdEvent;
use castellan::model::figure::FigureKind;
use castellan::model::geometry::Pos;
use castellan::model::tile::FeatureKind;
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

/// A scoring event: (player, points, feature).
pub type Scored = (usize, u32, FeatureKind);

/// Every `Scored` event as (player, points, feature).
pub fn scored(events: &[Event]) -> Vec<Scored> {
    scored_with_rule(events)
        .into_iter()
        .map(|(player, points, feature, _)| (player, points, feature))
        .collect()
}

/// Every `Scored` event as (player, points, feature, the rule it names).
pub fn scored_with_rule(events: &[Event]) -> Vec<(usize, u32, FeatureKind, &'static str)> {
    events
        .iter()
        .filter_map(|e| match *e {
            Event::Scored {
                player,
                points,
                feature,
                rule,
                ..
            } => Some((player, points, feature, rule)),
            _ => None,
        })
        .collect()
}

/// Every `FeatureCompleted` event as (feature, tiles).
pub fn completed(events: &[Event]) -> Vec<(FeatureKind, u32)> {
    events
        .iter()
        .filter_map(|e| match *e {
            Event::FeatureCompleted { feature, tiles, .. } => Some((feature, tiles)),
            _ => None,
        })
        .collect()
}

/// Every step of a dragon journey as (step, mover, destination); flights to a volcano (step 0)
/// are left out.
pub fn journey_steps(events: &[Event]) -> Vec<(u32, usize, Pos)> {
    events
        .iter()
        .filter_map(|e| match PdEvent::of(e) {
            Some(PdEvent::DragonMoved { player, x, y, step }) if step > 0 => {
                Some((step, player, Pos::new(x, y)))
            }
            _ => None,
        })
        .collect()
}

/// The figure kind a shipped row names.
pub fn kind(name: &str) -> FigureKind {
    FigureKind::parse(name).unwrap_or_else(|| panic!("no figure {name}"))
}

/// How many random games a dungeon test plays: `DUNGEON_GAMES=n`, else `default`.
pub fn dungeon_games(default: u64) -> u64 {
    std::env::var("DUNGEON_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

/// Each of `names` was chosen at least once (`chosen`: how often each script action was).
pub fn all_chosen(chosen: &std::collections::BTreeMap<String, usize>, names: &[&str]) {
    for name in names {
        assert!(
            chosen.get(*name).is_some_and(|n| *n > 0),
            "{name}: {chosen:?}"
        );
    }
}

/// `castellan simulate --ruleset RULESET --games GAMES` plays its games.
pub fn simulate(ruleset: &str, games: u32) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_castellan"))
        .args([
            "simulate",
            "--ruleset",
            ruleset,
            "--games",
            &games.to_string(),
            "--json",
        ])
        .current_dir(root())
        .output()
        .expect("castellan runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains(&format!("\"games\":{games}")), "{text}");
}

/// A ruleset written to a temporary file `NAME.toml` (extending `base`) in the test folder
/// `dir`, loaded.
pub fn written(
    dir: &str,
    name: &str,
    body: &str,
) -> Result<std::sync::Arc<Ruleset>, castellan::data::diagnostic::Diagnostic> {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(
        &path,
        format!("extends = \"base\"\nname = \"{name}\"\n{body}"),
    )
    .expect("write");
    Ruleset::load(&path.display().to_string())
}

/// The lines scripts logged (`log(...)`), in order.
pub fn logs(events: &[Event]) -> Vec<&str> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::ScriptLog { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}
