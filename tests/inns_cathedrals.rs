//! Inns & Cathedrals without its figures: inns and cathedrals change what a road or a city is
//! worth (`[mechanics] inns_cathedrals`). Each record names its rule in its header; each is
//! replayed with the rule on (its own ruleset) and off (`fixtures/ic-tiles-only.toml`, the same
//! tiles as pictures), since the switch changes every outcome.
//!
//! Sources: RULES.md §1.6, the I&C line ("inn on a completed road → 2 per tile; incomplete at end
//! → 0. Cathedral in a completed city → 3 per tile + 3 per pennant; incomplete at end → 0"),
//! T-B3 ("cathedral city incomplete → 0"), and [ext:X1] (Wikicarpedia "Inns and Cathedrals").

use castellan::data::ruleset::Ruleset;
use castellan::model::geometry::{Pos, Spot};
use castellan::model::tile::FeatureKind;
use castellan::record::{Record, Replay};
use std::path::Path;

mod common;
use common::{Scored, scored};

fn replay(name: &str, rule: bool) -> Replay {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join(format!("tests/records/ic/{name}.toml"));
    let mut record = Record::load(&path).unwrap_or_else(|d| panic!("{name}: {d}"));
    if !rule {
        // The same tiles in the same order, so the record's draws name the same types.
        let off = root.join("tests/fixtures/ic-tiles-only.toml");
        record.rules = Ruleset::load(&off.to_string_lossy()).unwrap_or_else(|d| panic!("{d}"));
        assert!(!record.rules.switched_on("inns_cathedrals"));
    }
    record
        .replay()
        .unwrap_or_else(|e| panic!("{name}: {}", e.diagnostic()))
}

/// The record's final scores and scoring events with the rule on and off.
fn both(name: &str) -> [(Vec<u32>, Vec<Scored>); 2] {
    [true, false].map(|rule| {
        let r = replay(name, rule);
        assert!(r.game.is_over(), "{name}: the game ends with the record");
        (r.game.scores().to_vec(), scored(&r.events))
    })
}

#[test]
fn an_inn_doubles_a_completed_road() {
    // RULES.md §1.6 I&C: 4 tiles → 8 (base value 4).
    let [on, off] = both("inn-completed");
    assert_eq!(on.0, vec![8, 0]);
    assert_eq!(on.1, vec![(0, 8, FeatureKind::Road)]);
    assert_eq!(off.0, vec![4, 0]);
}

#[test]
fn an_inn_on_an_open_road_scores_nothing_at_the_end() {
    // RULES.md §1.6 I&C: incomplete at the end → 0 (base value 3).
    let [on, off] = both("inn-incomplete");
    assert_eq!(on.0, vec![0, 0]);
    assert_eq!(on.1, vec![]);
    assert_eq!(off.0, vec![3, 0]);
}

#[test]
fn a_cathedral_makes_a_completed_city_worth_three_per_tile() {
    // RULES.md §1.6 I&C: 5 tiles, no pennant → 15 (base value 10).
    let [on, off] = both("cathedral-completed");
    assert_eq!(on.0, vec![15, 0]);
    assert_eq!(on.1, vec![(0, 15, FeatureKind::City)]);
    assert_eq!(off.0, vec![10, 0]);
}

#[test]
fn a_cathedral_city_open_at_the_end_scores_nothing() {
    // RULES.md T-B3: cathedral city incomplete → 0 (base value 2).
    let [on, off] = both("cathedral-incomplete");
    assert_eq!(on.0, vec![0, 0]);
    assert_eq!(on.1, vec![]);
    assert_eq!(off.0, vec![2, 0]);
}

#[test]
fn the_board_counts_a_feature_s_inns_as_tiles_join() {
    // The road of inn-completed: 4 tiles, one inn; the start tile's city has no cathedral.
    let r = replay("inn-completed", true);
    let g = &r.game;
    let at = |x, y, s| g.seg_at(Pos { x, y }, Spot::parse(s).unwrap()).unwrap();
    let road = g.features().totals(at(-1, 0, "E"));
    assert_eq!(
        (road.open, road.counters.get(castellan::data::printed::INN)),
        (0, 1)
    );
    assert_eq!(
        g.features()
            .totals(at(0, 0, "N"))
            .counters
            .get(castellan::data::printed::CATHEDRAL),
        0
    );
}
