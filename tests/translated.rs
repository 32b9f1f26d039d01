//! Scenarios translated from another engine's test suite: each record under
//! `tests/records/translated/` re-tells, as a castellan game, one test of JCloisterZone
//! (github.com/farin/JCloisterZone, `src/test/java/com/jcloisterzone/…`) in castellan's own
//! records and words, and checks that castellan reaches the same scores.
//!
//! Where the source test only weighs a feature on the board (JCloisterZone's `CityScoring` and
//! `RoadScoring`), the record puts a follower on it so that its value turns into points. Each
//! record that JCloisterZone plays with the Inns & Cathedrals rules is also replayed with the
//! same tiles as mere pictures (`fixtures/ic-tiles-only.toml`), since the rule changes the value.
//! The `CityScoring` scenarios use tiles more often than the 1st edition box holds (two IC/CCC,
//! four IC/CFR); a forced draw order may name any tile type of the ruleset's sets.
//!
//! Rules exercised: RULES.md §1.6 (the I&C line: inns and cathedrals), T-B3, §1.10 and B-E2
//! (Traders & Builders goods).

use castellan::data::printed::Good;
use castellan::mechanic::tb::{self, vocabulary::TbEvent};
use castellan::model::geometry::{Pos, Spot};
use castellan::model::tile::FeatureKind;
use castellan::record::{Record, Replay};

mod common;
use common::scored;

/// The record `tests/records/translated/NAME.toml`.
fn record(name: &str) -> Record {
    common::record("translated", name)
}

/// The record replayed to its end under its own ruleset, then with the I&C tiles as pictures.
fn on_and_off(record: Record) -> [Replay; 2] {
    let off = common::under(record.clone(), "ic-tiles-only.toml");
    assert!(!off.rules.switched_on("inns_cathedrals"));
    [common::run(&record), common::run(&off)].map(|r| {
        assert!(r.game.is_over(), "the game ends with the record");
        r
    })
}

/// Where `player`'s figures stand at the end.
fn standing(r: &Replay, player: usize) -> Vec<(Pos, Spot)> {
    r.game
        .figures()
        .iter()
        .filter(|f| f.owner == player)
        .map(|f| r.game.figure_spot(f))
        .collect()
}

fn at(x: i32, y: i32, spot: &str) -> (Pos, Spot) {
    (Pos::new(x, y), Spot::parse(spot).expect("spot"))
}

/// JCloisterZone `InnsAndCathedralsScoringTest.testInnsScoring` (saved game `innsScoring.jcz`);
/// RULES.md §1.6 I&C: the closed inn road pays 2 per tile, Blue's open inn stub nothing.
#[test]
fn jcz_inns_scoring() {
    let [on, off] = on_and_off(record("jcz-inns"));
    assert_eq!(on.game.scores(), [8, 0]);
    assert_eq!(scored(&on.events), vec![(0, 8, FeatureKind::Road)]);
    // Blue's thief is still on the open eastern stub, which held the junction's inn.
    assert_eq!(standing(&on, 1), vec![at(2, 0, "E")]);
    // Tiles as pictures: Red 4 for the road, Blue 1 for the one-tile stub at the end.
    assert_eq!(off.game.scores(), [4, 1]);
}

/// JCloisterZone `InnsAndCathedralsScoringTest.testCathedralsScoring` (saved game
/// `cathedralsScoring.jcz`); RULES.md §1.6 I&C and T-B3: the closed cathedral city pays 3 per
/// tile, the open one nothing.
#[test]
fn jcz_cathedrals_scoring() {
    let [on, off] = on_and_off(record("jcz-cathedrals"));
    assert_eq!(on.game.scores(), [15, 0]);
    assert_eq!(scored(&on.events), vec![(0, 15, FeatureKind::City)]);
    assert_eq!(standing(&on, 0), vec![]);
    assert_eq!(standing(&on, 1), vec![at(0, -3, "N")]);
    // Tiles as pictures: Red 10; Blue's open 3-tile city (cathedral, H's cap, E) pays 3.
    assert_eq!(off.game.scores(), [10, 3]);
}

/// JCloisterZone `TradeGoodsScoringTest.testFinalScoring` (saved game
/// `tradeGoodsScoring.jcz`); RULES.md §1.10 and B-E2: whoever completes a city takes its goods;
/// each good's majority, ties included, scores 10 at the end.
#[test]
fn jcz_trade_goods_final_scoring() {
    let r = common::run(&record("jcz-goods"));
    assert!(r.game.is_over());
    assert_eq!(r.game.scores(), [16, 20]);
    // Held tokens by seat as [wine, grain, cloth]: Red 1 cloth, Blue 2 wine and 1 cloth.
    assert_eq!(tb::goods(&r.game), vec![[0, 0, 1], [2, 0, 1]]);
    let majority = |player, good, held| TbEvent::GoodsMajority {
        player,
        good,
        held,
        points: 10,
    };
    let majorities: Vec<TbEvent> = r
        .events
        .iter()
        .filter_map(TbEvent::of)
        .filter(|e| matches!(e, TbEvent::GoodsMajority { .. }))
        .collect();
    assert_eq!(
        majorities,
        vec![
            majority(1, Good::Wine, 2),
            majority(0, Good::Cloth, 1),
            majority(1, Good::Cloth, 1),
        ]
    );
}

/// JCloisterZone `CityScoring.tiny`; RULES.md §1.6: a 2-tile city pays 2 per tile under
/// `small_city_two_tiles = "normal"`.
#[test]
fn jcz_city_tiny() {
    let r = common::run(&record("jcz-tiny-city"));
    assert_eq!(r.game.scores(), [4, 0]);
    assert_eq!(scored(&r.events), vec![(0, 4, FeatureKind::City)]);
}

/// JCloisterZone `CityScoring.tinyCustomRule` (its "tiny city 2 points" rule); RULES.md §1.6,
/// A27: castellan's `small_city_two_tiles = "half"` pays the same 2-tile city 1 per tile.
#[test]
fn jcz_city_tiny_custom_rule() {
    let r = common::run(&common::under(record("jcz-tiny-city"), "ic-half.toml"));
    assert_eq!(r.game.scores(), [2, 0]);
    assert_eq!(scored(&r.events), vec![(0, 2, FeatureKind::City)]);
}

/// JCloisterZone `CityScoring.unfinshedCathedral`; RULES.md §1.6 I&C and T-B3: an open
/// cathedral city is worth 0 at the end.
#[test]
fn jcz_city_unfinished_cathedral() {
    let [on, off] = on_and_off(record("jcz-cathedral-open"));
    assert_eq!(on.game.scores(), [0, 0]);
    assert_eq!(scored(&on.events), vec![]);
    assert_eq!(standing(&on, 0), vec![at(0, -1, "S")]);
    assert_eq!(off.game.scores(), [2, 0]);
}

/// JCloisterZone `CityScoring.finshedCathedral`; RULES.md §1.6 I&C: 5 tiles × 3; the pennant on
/// IC/CCc+ belongs to its other city.
#[test]
fn jcz_city_finished_cathedral() {
    let [on, off] = on_and_off(record("jcz-cathedral-closed"));
    assert_eq!(on.game.scores(), [15, 0]);
    assert_eq!(scored(&on.events), vec![(0, 15, FeatureKind::City)]);
    assert_eq!(off.game.scores(), [10, 0]);
}

/// JCloisterZone `CityScoring.twoCathedrals`; RULES.md §1.6 I&C: two cathedrals in one city pay
/// as one: 8 tiles × 3 + 2 pennants × 3.
#[test]
fn jcz_city_two_cathedrals() {
    let [on, off] = on_and_off(record("jcz-two-cathedrals"));
    assert_eq!(on.game.scores(), [30, 0]);
    assert_eq!(scored(&on.events), vec![(0, 30, FeatureKind::City)]);
    assert_eq!(off.game.scores(), [20, 0]);
}

/// JCloisterZone `RoadScoring.inn`; RULES.md §1.6 I&C: a closed 4-tile road with an inn pays 8.
#[test]
fn jcz_road_inn() {
    let [on, off] = on_and_off(record("jcz-inn-road"));
    assert_eq!(on.game.scores(), [8, 0]);
    assert_eq!(scored(&on.events), vec![(0, 8, FeatureKind::Road)]);
    assert_eq!(off.game.scores(), [4, 0]);
}

/// JCloisterZone `RoadScoring.unfinishedInn`; RULES.md §1.6 I&C: the same road stopped before
/// its eastern end (the game ends after two draws) is open at the end and pays 0.
#[test]
fn jcz_road_unfinished_inn() {
    let mut open = record("jcz-inn-road");
    open.setup.end_after = Some(2);
    open.actions.truncate(4);
    let [on, off] = on_and_off(open);
    assert_eq!(on.game.scores(), [0, 0]);
    assert_eq!(scored(&on.events), vec![]);
    assert_eq!(standing(&on, 0), vec![at(1, 0, "E")]);
    assert_eq!(off.game.scores(), [3, 0]);
}
