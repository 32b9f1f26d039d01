//! Base-game rule scenarios (RULES.md §1 and the checks T-B1..T-B5 of §4.6), replayed from the
//! game records in `tests/records/base/` and checked against the expected outcomes.
//!
//! Records cannot carry expectations (unknown keys are rejected), so each record's header
//! comment says what is expected and this file asserts it. [`FINAL`] is the sidecar table of
//! final scores for every record; the other tests look at single events, figures, supplies and
//! the legal options at chosen points of a game (by replaying only the first actions of a
//! record).
//!
//! Coordinates are the engine's: x grows east, y grows south (RULES.md §4 draws y north).
//! Seat 0 is Red, seat 1 is Blue in every record.

use castellan::data::library::Source;
use castellan::engine::action::{Action, DecisionKind};
use castellan::engine::event::{Event, ReturnReason};
use castellan::engine::game::{Game, RuleError};
use castellan::engine::refusal::RuleId;
use castellan::model::feature::SegId;
use castellan::model::figure::FigureKind;
use castellan::model::geometry::{Pos, Rotation, Spot};
use castellan::model::tile::FeatureKind;
use castellan::record::{self, Record, Replay};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

mod common;
use common::{completed, scored_with_rule};

const RED: usize = 0;
const BLUE: usize = 1;

/// Final scores (Red, Blue) of every record in `tests/records/base/`: the sidecar table of
/// expectations. Each row cites the scenario the record plays.
const FINAL: &[(&str, [u32; 2])] = &[
    // T-B1: road tie, both thieves score the 4-tile road.
    ("t-b1-road-tie", [4, 4]),
    // T-B2: two-tile city, normal / half, without and with a pennant.
    ("t-b2-city-normal", [4, 0]),
    ("t-b2-city-half", [2, 0]),
    ("t-b2-pennant-normal", [6, 0]),
    ("t-b2-pennant-half", [3, 0]),
    // T-B3: road 3 + city 4 + cloister 6, all incomplete at the end.
    ("t-b3-incomplete", [13, 0]),
    // T-B4: the same farm layout under the three variants of §1.9.
    ("t-b4-farm-centric-3", [9, 6]),
    ("t-b4-farm-centric-3-once", [6, 6]),
    ("t-b4-city-centric-4", [8, 4]),
    // T-B5: two unplaceable tiles, nothing scored.
    ("t-b5-unplaceable", [0, 0]),
    // TILES.md §1 field notes and road stubs.
    ("tile-d-fields", [3, 0]),
    ("tile-l-junction", [3, 2]),
    ("tile-h-two-caps", [6, 0]),
    ("tile-i-two-caps", [6, 0]),
    ("tile-x-crossroads", [2, 2]),
    // §1.5 completion and §1.7 majority.
    ("road-majority", [6, 0]),
    ("road-loop", [4, 0]),
    ("cloister-complete", [9, 0]),
    // B-P1..B-P3, B-F2..B-F7, B-M3.
    ("b-placement", [0, 0]),
    ("b-deploy", [7, 4]),
    // Farmers switched off (toggle #43).
    ("farmers-off", [4, 2]),
];

// ---------------------------------------------------------------------------------------------
// Helpers.

fn records_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/records/base")
}

fn record_path(name: &str) -> PathBuf {
    records_dir().join(format!("{name}.toml"))
}

fn load(name: &str) -> Record {
    Record::load(&record_path(name)).unwrap_or_else(|d| panic!("{name}: {d}"))
}

fn run(record: &Record, name: &str) -> Replay {
    match record.replay() {
        Ok(r) => r,
        Err(e) => panic!("{name}: {}", e.diagnostic()),
    }
}

/// The whole record replayed.
fn replay(name: &str) -> Replay {
    run(&load(name), name)
}

/// Only the first `actions` actions of the record replayed: the game waits for the next one.
fn replay_first(name: &str, actions: usize) -> Replay {
    let mut record = load(name);
    assert!(
        actions <= record.actions.len(),
        "{name} has only {} actions",
        record.actions.len()
    );
    record.actions.truncate(actions);
    run(&record, name)
}

fn place(x: i32, y: i32, degrees: i64) -> Action {
    Action::Place {
        pos: Pos::new(x, y),
        rotation: Rotation::from_degrees(degrees).expect("a valid rotation"),
    }
}

fn spot(name: &str) -> Spot {
    Spot::parse(name).unwrap_or_else(|| panic!("bad spot {name}"))
}

fn deploy(x: i32, y: i32, at: &str) -> Action {
    Action::Deploy {
        pos: Pos::new(x, y),
        spot: spot(at),
        figure: FigureKind::Follower,
    }
}

/// The segment of the feature at `at` on the tile at (x, y).
fn seg(game: &Game, x: i32, y: i32, at: &str) -> SegId {
    let board = game.board();
    let id = board
        .at(Pos::new(x, y))
        .unwrap_or_else(|| panic!("no tile at ({x},{y})"));
    let f = board
        .oriented(&game.rules().tiles, id)
        .feature_at(spot(at))
        .unwrap_or_else(|| panic!("no feature at ({x},{y}) {at}"));
    board.placed(id).seg_base + f as u32
}

/// Whether the spots `a` and `b` (tile, spot) lie in one feature.
fn same(game: &Game, a: (i32, i32, &str), b: (i32, i32, &str)) -> bool {
    game.features()
        .same(seg(game, a.0, a.1, a.2), seg(game, b.0, b.1, b.2))
}

/// Whether the legal options include deploying a follower on the feature at `at` of the tile
/// at (x, y), whichever spot name the engine uses for that feature.
fn offers(game: &Game, x: i32, y: i32, at: &str) -> bool {
    let wanted = seg(game, x, y, at);
    game.legal().iter().any(|a| match *a {
        Action::Deploy { pos, spot, figure } => {
            figure == FigureKind::Follower
                && pos == Pos::new(x, y)
                && seg(game, pos.x, pos.y, spot.name()) == wanted
        }
        _ => false,
    })
}

/// Applies an action that must be refused and checks that the game did not change at all.
fn refused(game: &mut Game, action: Action) -> RuleError {
    let record_before = record::write(game, "x");
    let legal_before = game.legal();
    let decision_before = game.decision();
    let scores_before = game.scores().to_vec();
    let tiles_before = game.board().tiles().len();
    let figures_before = game.figures().to_vec();
    let err = match game.apply(&action) {
        Ok(events) => panic!("{action:?} was accepted: {events:?}"),
        Err(e) => e,
    };
    assert_eq!(record::write(game, "x"), record_before, "{action:?}");
    assert_eq!(game.legal(), legal_before, "{action:?}");
    assert_eq!(game.decision(), decision_before, "{action:?}");
    assert_eq!(game.scores(), &scores_before[..], "{action:?}");
    assert_eq!(game.board().tiles().len(), tiles_before, "{action:?}");
    assert_eq!(game.figures(), &figures_before[..], "{action:?}");
    err
}

/// Applies a deploy that `rule` must refuse (it is a deploy decision) and checks that the game
/// did not change.
fn deploy_refused(game: &mut Game, action: Action, rule: &'static str) {
    assert_eq!(game.decision().kind, DecisionKind::Deploy);
    let err = refused(game, action);
    assert!(
        matches!(&err, RuleError::IllegalAction { rule: r, .. } if *r == RuleId(rule)),
        "{action:?}: {err}"
    );
}

/// Applies a placement that `rule` must refuse; checks that the game did not change.
fn placement_refused(game: &mut Game, action: Action, rule: &'static str) {
    let err = refused(game, action);
    assert!(
        matches!(&err, RuleError::IllegalPlacement { why, .. } if why.rule == RuleId(rule)),
        "{action:?}: {err}"
    );
}

/// Points per seat paid by features of `kind`.
fn points_for(events: &[Event], kind: FeatureKind) -> [u32; 2] {
    let mut sum = [0; 2];
    for (player, points, feature, _) in scored_with_rule(events) {
        if feature == kind {
            sum[player] += points;
        }
    }
    sum
}

/// Where the figures stand: (owner, position, canonical spot, feature kind).
fn figures(game: &Game) -> Vec<(usize, Pos, Spot, FeatureKind)> {
    game.figures()
        .iter()
        .map(|f| {
            let (pos, spot) = game.figure_spot(f);
            (f.owner, pos, spot, game.features().segment(f.seg).kind)
        })
        .collect()
}

/// The engine's own name for the feature at `at` of the tile at (x, y).
fn canonical(game: &Game, x: i32, y: i32, at: &str) -> Spot {
    let board = game.board();
    let id = board.at(Pos::new(x, y)).expect("a tile");
    let oriented = board.oriented(&game.rules().tiles, id);
    let f = oriented.feature_at(spot(at)).expect("a feature");
    oriented.features[f as usize].spot()
}

fn follower_supply(game: &Game) -> [u8; 2] {
    [
        game.supply(RED, FigureKind::Follower),
        game.supply(BLUE, FigureKind::Follower),
    ]
}

fn tile(name: &str) -> Arc<str> {
    Arc::from(name)
}

// ---------------------------------------------------------------------------------------------
// Every record: final scores and the end of the game.

/// RULES.md §1.8 B-E1 (the game ends after the turn of the last tile, then final scoring) and
/// the final scores of every record (sidecar table [`FINAL`]).
#[test]
fn every_record_reaches_its_final_score_and_ends_after_the_last_tile() {
    let mut on_disk: Vec<String> = std::fs::read_dir(records_dir())
        .expect("tests/records/base exists")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = FINAL.iter().map(|(n, _)| n.to_string()).collect();
    listed.sort();
    assert_eq!(on_disk, listed, "FINAL must list every record exactly once");

    for (name, expected) in FINAL {
        let record = load(name);
        let Replay { mut game, events } = run(&record, name);
        assert_eq!(game.scores(), &expected[..], "{name}: final scores");
        // B-E1: every tile of the draw list was drawn (or discarded), then the game ended.
        assert!(game.is_over(), "{name}: the game is over");
        assert_eq!(game.tiles_left(), 0, "{name}");
        let draws = events
            .iter()
            .filter(|e| matches!(e, Event::TileDrawn { .. } | Event::TileDiscarded { .. }))
            .count();
        assert_eq!(
            Some(draws),
            record.setup.draw.as_ref().map(Vec::len),
            "{name}: one draw per tile of the draw list"
        );
        assert_eq!(game.decision().kind, DecisionKind::GameOver, "{name}");
        assert!(
            game.legal().is_empty(),
            "{name}: nothing is legal after the end"
        );
        assert_eq!(
            game.apply(&Action::Pass),
            Err(RuleError::GameOver),
            "{name}"
        );
        let ended: Vec<&Event> = events
            .iter()
            .filter(|e| matches!(e, Event::GameEnded { .. }))
            .collect();
        assert_eq!(
            ended,
            vec![&Event::GameEnded {
                scores: expected.to_vec()
            }],
            "{name}"
        );
        assert_eq!(
            events.last(),
            ended.first().copied(),
            "{name}: GameEnded is last"
        );
        // Every point is accounted for by a Scored event.
        let mut total = [0u32; 2];
        for (player, points, _, _) in scored_with_rule(&events) {
            total[player] += points;
        }
        assert_eq!(&total, expected, "{name}: Scored events add up");
    }
}

/// RULES.md §1.8 B-E1: before the last action the last tile lies on the board but the turn is
/// not over; the deploy decision that ends it triggers the final scoring at once.
#[test]
fn b_e1_final_scoring_follows_the_turn_of_the_last_tile() {
    let name = "t-b3-incomplete";
    let last = load(name).actions.len();
    let Replay { game, events } = replay_first(name, last - 1);
    assert_eq!(game.tiles_left(), 0);
    assert!(!game.is_over());
    assert_eq!(game.decision().kind, DecisionKind::Deploy);
    assert!(
        scored_with_rule(&events).is_empty(),
        "no points before the end"
    );
    let Replay { game, events } = replay(name);
    assert!(game.is_over());
    let tail: Vec<&Event> = events.iter().rev().take(5).collect();
    assert!(matches!(tail[0], Event::GameEnded { .. }));
    assert!(
        tail[1..4]
            .iter()
            .all(|e| matches!(e, Event::Scored { rule, .. } if rule.starts_with("§1.8"))),
        "{tail:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// T-B1..T-B5.

/// RULES.md T-B1 (§4.6 road tie; §1.7 B-M2 "ties: all tied players score full points",
/// [ext:B1]); the big-follower half is not applicable (no big followers).
#[test]
fn t_b1_road_tie_pays_both_thieves_in_full() {
    let Replay { game, events } = replay("t-b1-road-tie");
    assert_eq!(completed(&events), vec![(FeatureKind::Road, 4)]);
    assert_eq!(
        scored_with_rule(&events),
        vec![
            (RED, 4, FeatureKind::Road, "§1.6 completed road"),
            (BLUE, 4, FeatureKind::Road, "§1.6 completed road"),
        ]
    );
    let returned = events
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::FigureReturned {
                    reason: ReturnReason::Scored,
                    ..
                }
            )
        })
        .count();
    assert_eq!(returned, 2, "B-M3: both thieves return");
    assert!(game.figures().is_empty());
    assert_eq!(follower_supply(&game), [7, 7]);
    assert_eq!(game.scores(), &[4, 4]);
}

/// Checks one T-B2 record: Red's knight on the city the tile completes scores `points` at
/// once and is back in supply before the next turn (B-F5).
fn check_two_tile_city(name: &str, points: u32) {
    let Replay { game, events } = replay(name);
    let deployed = events
        .iter()
        .position(|e| matches!(e, Event::FigureDeployed { .. }))
        .expect("a knight is deployed");
    let pos = Pos::new(0, -1);
    assert_eq!(
        events[deployed..deployed + 4],
        [
            Event::FigureDeployed {
                player: RED,
                figure: FigureKind::Follower,
                x: pos.x,
                y: pos.y,
                feature: FeatureKind::City,
                spot: spot("S"),
            },
            Event::FeatureCompleted {
                feature: FeatureKind::City,
                tiles: 2,
                x: pos.x,
                y: pos.y,
            },
            Event::Scored {
                player: RED,
                points,
                feature: FeatureKind::City,
                rule: "§1.6 completed city",
                x: pos.x,
                y: pos.y,
            },
            Event::FigureReturned {
                player: RED,
                figure: FigureKind::Follower,
                x: pos.x,
                y: pos.y,
                reason: ReturnReason::Scored,
            },
        ],
        "{name}"
    );
    assert_eq!(
        scored_with_rule(&events).len(),
        1,
        "{name}: one payment only"
    );
    assert_eq!(game.scores(), &[points, 0], "{name}");
    assert_eq!(follower_supply(&game), [7, 7], "{name}");
}

/// RULES.md T-B2 (§1.6 small-city rule, toggle #42 `normal`, [ext:B1][ext:B2][ext:B6]): a
/// completed two-tile city (base tiles D + E) scores 4.
#[test]
fn t_b2_two_tile_city_normal_scores_4() {
    check_two_tile_city("t-b2-city-normal", 4);
}

/// RULES.md T-B2 (§1.6 small-city rule, toggle #42 `half`, [ext:B1][ext:B2][ext:B6]): a
/// completed two-tile city scores 2.
#[test]
fn t_b2_two_tile_city_half_scores_2() {
    check_two_tile_city("t-b2-city-half", 2);
}

/// RULES.md T-B2 with one pennant (§1.6, toggle #42 `normal`; synthetic CAP+ / CAP of §4.0):
/// 6 points.
#[test]
fn t_b2_two_tile_city_with_pennant_normal_scores_6() {
    check_two_tile_city("t-b2-pennant-normal", 6);
}

/// RULES.md T-B2 with one pennant (§1.6, toggle #42 `half`; synthetic CAP+ / CAP of §4.0):
/// 3 points.
#[test]
fn t_b2_two_tile_city_with_pennant_half_scores_3() {
    check_two_tile_city("t-b2-pennant-half", 3);
}

/// RULES.md T-B3 (§4.6 incomplete features at the end; §1.8 B-E2 and the §1.6 table,
/// [ext:B1]): cloister with 5 neighbours 6, city of 3 tiles with 1 pennant 4, road of 3
/// tiles 3. The cathedral line (I&C) is not applicable.
#[test]
fn t_b3_incomplete_features_score_at_the_end() {
    let Replay { game, events } = replay("t-b3-incomplete");
    assert!(completed(&events).is_empty(), "nothing completes in play");
    let mut paid = scored_with_rule(&events);
    paid.sort();
    let mut want = vec![
        (RED, 3, FeatureKind::Road, "§1.8 incomplete road"),
        (RED, 4, FeatureKind::City, "§1.8 incomplete city"),
        (RED, 6, FeatureKind::Cloister, "§1.8 incomplete cloister"),
    ];
    want.sort();
    assert_eq!(paid, want);
    assert_eq!(game.board().neighbours(Pos::new(0, 1)), 5);
    // Figures of incomplete features stay where they are at the end.
    assert_eq!(game.figures().len(), 3);
    assert_eq!(follower_supply(&game), [4, 7]);
    assert_eq!(game.scores(), &[13, 0]);
}

/// Checks one T-B4 record: only the farmers score, with these totals; the three farmers stay
/// on the board to the end (B-M3: farmers never return).
fn check_farm_variant(name: &str, rule: &str, red: u32, blue: u32) {
    let Replay { game, events } = replay(name);
    let paid = scored_with_rule(&events);
    assert!(
        paid.iter()
            .all(|(_, _, feature, r)| *feature == FeatureKind::Field && *r == rule),
        "{name}: only farms under {rule} pay: {paid:?}"
    );
    assert_eq!(
        points_for(&events, FeatureKind::Field),
        [red, blue],
        "{name}"
    );
    assert_eq!(game.scores(), &[red, blue], "{name}");
    // Cities C and D were completed during play (no knights) ...
    assert_eq!(
        completed(&events),
        vec![(FeatureKind::City, 2), (FeatureKind::City, 2)],
        "{name}"
    );
    // ... and no farmer came back.
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::FigureReturned { .. })),
        "{name}: farmers never return"
    );
    let mut standing = figures(&game);
    standing.sort();
    let mut want = vec![
        (
            RED,
            Pos::new(0, -1),
            canonical(&game, 0, -1, "NL"),
            FeatureKind::Field,
        ),
        (
            BLUE,
            Pos::new(1, 0),
            canonical(&game, 1, 0, "WL"),
            FeatureKind::Field,
        ),
        (
            RED,
            Pos::new(2, 0),
            canonical(&game, 2, 0, "EL"),
            FeatureKind::Field,
        ),
    ];
    want.sort();
    assert_eq!(standing, want, "{name}");
    assert_eq!(follower_supply(&game), [5, 6], "{name}");
    // The farm graph of the scenario: F1 alone; F2 holds both (1,0) and (2,0) and the start tile.
    assert!(same(&game, (1, 0, "WL"), (2, 0, "EL")), "{name}: F2 merged");
    assert!(same(&game, (1, 0, "WL"), (0, 0, "SL")), "{name}: F2 merged");
    assert!(
        !same(&game, (0, -1, "NL"), (0, 0, "SL")),
        "{name}: F1 apart"
    );
}

/// RULES.md T-B4 (§1.9 `farm_centric_3`, [ext:B2][ext:B6]): Red 9, Blue 6.
#[test]
fn t_b4_farm_centric_3_red_9_blue_6() {
    check_farm_variant("t-b4-farm-centric-3", "§1.9 farm_centric_3", 9, 6);
}

/// RULES.md T-B4 (§1.9 `farm_centric_3_once`, [ext:B2][ext:B3]): Red 6, Blue 6.
#[test]
fn t_b4_farm_centric_3_once_red_6_blue_6() {
    check_farm_variant("t-b4-farm-centric-3-once", "§1.9 farm_centric_3_once", 6, 6);
}

/// RULES.md T-B4 (§1.9 `city_centric_4`, [ext:B1][ext:B2][ext:B6]): Red 8, Blue 4.
#[test]
fn t_b4_city_centric_4_red_8_blue_4() {
    check_farm_variant("t-b4-city-centric-4", "§1.9 city_centric_4", 8, 4);
}

/// RULES.md T-B5 (§1.3 B-P5 unplaceable tile, toggle #44, [ext:B5]): the tile leaves the game
/// and the same player draws again in the same turn; two tiles go in that turn.
#[test]
fn t_b5_unplaceable_tile_is_discarded_and_the_player_draws_again() {
    let name = "t-b5-unplaceable";
    // Set-up: the start tile, then turn 1 discards B and draws E.
    let Replay { game, events } = replay_first(name, 0);
    assert_eq!(
        events,
        vec![
            Event::StartTile {
                tile: tile("BA/Cccc+"),
                x: 0,
                y: 0,
                rotation: 0,
            },
            Event::TurnStarted {
                turn: 1,
                player: RED,
            },
            Event::TileDiscarded {
                player: RED,
                tile: tile("BA/L"),
            },
            Event::TileDrawn {
                player: RED,
                tile: tile("BA/C"),
            },
        ]
    );
    assert_eq!(game.tiles_left(), 1, "three tiles, two gone in turn 1");
    assert_eq!(game.turn(), 1);
    assert_eq!(game.decision().player, RED);
    let e = game.rules().tile_id("E").unwrap();
    assert_eq!(game.decision().kind, DecisionKind::PlaceTile { tile: e });
    // E only fits with its cap against the all-city start tile.
    let legal: HashSet<Action> = game.legal().into_iter().collect();
    let want: HashSet<Action> = [
        place(0, -1, 180),
        place(1, 0, 270),
        place(0, 1, 0),
        place(-1, 0, 90),
    ]
    .into_iter()
    .collect();
    assert_eq!(legal, want);

    // The whole game: turn 2 discards X, the draw list is empty, the game ends.
    let Replay { game, events } = replay(name);
    let tail: Vec<&Event> = events
        .iter()
        .skip_while(|e| !matches!(e, Event::TilePlaced { .. }))
        .collect();
    assert_eq!(
        tail,
        vec![
            &Event::TilePlaced {
                player: RED,
                tile: tile("BA/C"),
                x: 0,
                y: -1,
                rotation: 180,
            },
            &Event::TurnStarted {
                turn: 2,
                player: BLUE,
            },
            &Event::TileDiscarded {
                player: BLUE,
                tile: tile("BA/RRRR"),
            },
            &Event::GameEnded { scores: vec![0, 0] },
        ]
    );
    let on_board: Vec<(&str, Pos)> = game
        .board()
        .tiles()
        .iter()
        .map(|p| (&*game.rules().tile(p.tile).id, p.pos))
        .collect();
    assert_eq!(
        on_board,
        vec![("BA/Cccc+", Pos::new(0, 0)), ("BA/C", Pos::new(0, -1))],
        "the discarded B and X are not on the board"
    );
}

/// RULES.md §1.7 B-M1/B-M2 (only the strongest player scores), B-M3 (all followers of the
/// scored road return), B-F6 (separately claimed pieces join), B-F3 (the joined road is not
/// offered even to Blue, whose own thief is on it) and §1.6 (a tile touched twice by one road
/// counts once), [ext:B1].
#[test]
fn road_majority_pays_only_the_strongest_and_returns_everyone() {
    let name = "road-majority";
    // Turn 4 joins Blue's piece to Red's first one: shared now (B-F6), nothing to deploy on the
    // joined road, the game goes on.
    let Replay { game, .. } = replay_first(name, 7);
    assert!(same(&game, (1, 1, "N"), (0, 1, "E")));
    assert!(same(&game, (1, 1, "N"), (0, 0, "W")));
    assert!(!offers(&game, 1, 1, "N"));
    assert!(!same(&game, (0, 1, "E"), (0, 1, "W")), "still two roads");

    let Replay { game, events } = replay(name);
    assert_eq!(completed(&events), vec![(FeatureKind::Road, 6)]);
    assert_eq!(
        scored_with_rule(&events),
        vec![(RED, 6, FeatureKind::Road, "§1.6 completed road")]
    );
    let returned: Vec<usize> = events
        .iter()
        .filter_map(|e| match *e {
            Event::FigureReturned {
                player,
                reason: ReturnReason::Scored,
                ..
            } => Some(player),
            _ => None,
        })
        .collect();
    assert_eq!(returned.len(), 3);
    assert_eq!(returned.iter().filter(|p| **p == BLUE).count(), 1);
    assert!(game.figures().is_empty());
    assert_eq!(follower_supply(&game), [7, 7]);
}

/// RULES.md §1.5 (a closed loop is a complete road) and §1.6, [ext:B1].
#[test]
fn road_loop_is_complete() {
    let name = "road-loop";
    let Replay { events, .. } = replay_first(name, 4);
    assert!(completed(&events).is_empty(), "open before the last curve");
    let Replay { game, events } = replay(name);
    assert_eq!(completed(&events), vec![(FeatureKind::Road, 4)]);
    assert_eq!(
        scored_with_rule(&events),
        vec![(RED, 4, FeatureKind::Road, "§1.6 completed road")]
    );
    assert!(game.figures().is_empty());
    assert_eq!(follower_supply(&game), [7, 7]);
}

/// RULES.md §1.5 (cloister complete with all 8 neighbours), §1.6 (9 points), B-M3 and B-M5
/// (the tile laid by another player completes the cloister next to it), [ext:B1].
#[test]
fn cloister_completed_by_the_eighth_neighbour_scores_9() {
    let name = "cloister-complete";
    let last = load(name).actions.len();
    let Replay { game, events } = replay_first(name, last - 2);
    assert_eq!(game.board().neighbours(Pos::new(0, 1)), 7);
    assert!(completed(&events).is_empty());
    assert_eq!(follower_supply(&game), [6, 7]);
    let Replay { game, events } = replay_first(name, last);
    let placed = events
        .iter()
        .rposition(|e| matches!(e, Event::TilePlaced { player: BLUE, .. }))
        .unwrap();
    assert!(
        matches!(
            events[placed + 1..],
            [
                Event::FeatureCompleted {
                    feature: FeatureKind::Cloister,
                    tiles: 9,
                    x: 0,
                    y: 1,
                },
                Event::Scored {
                    player: RED,
                    points: 9,
                    feature: FeatureKind::Cloister,
                    ..
                },
                Event::FigureReturned {
                    player: RED,
                    reason: ReturnReason::Scored,
                    ..
                },
                Event::GameEnded { .. },
            ]
        ),
        "{:?}",
        &events[placed + 1..]
    );
    assert_eq!(follower_supply(&game), [7, 7]);
}

// ---------------------------------------------------------------------------------------------
// Tricky tiles (TILES.md §1 field notes, tiles/README.md on road stubs).

/// TILES.md §1 field notes, tile D (BA/RCr): the strip between city and road borders the city,
/// the south field does not.
#[test]
fn tile_d_strip_borders_the_city_and_the_south_field_does_not() {
    let name = "tile-d-fields";
    // Blue's deploy decision on the second D: the strip is taken by Red (through the first D),
    // the south field, the road and the open cap are free.
    let Replay { game, .. } = replay_first(name, 3);
    assert!(same(&game, (1, 1, "WR"), (0, 1, "EL")));
    assert!(
        !offers(&game, 1, 1, "WR"),
        "the strip holds Red's farmer (B-F3)"
    );
    assert!(offers(&game, 1, 1, "SL"));
    assert!(offers(&game, 1, 1, "W"));
    assert!(offers(&game, 1, 1, "N"));
    assert!(!same(&game, (1, 1, "WR"), (1, 1, "SL")));

    let Replay { game, events } = replay(name);
    assert_eq!(completed(&events), vec![(FeatureKind::City, 2)]);
    assert_eq!(points_for(&events, FeatureKind::Field), [3, 0]);
    assert_eq!(game.scores(), &[3, 0]);
}

/// TILES.md §1 table and tiles/README.md, tile L (BA/CRRR): three road stubs that are three
/// roads, each ending at the junction; the strip borders the cap, the corner fields do not and
/// are separate farms.
#[test]
fn tile_l_has_three_separate_roads_and_three_fields() {
    let name = "tile-l-junction";
    // After turn 2: the E stub of L and the W stub of the junction make a complete 2-tile road.
    let Replay { events, .. } = replay_first(name, 4);
    assert_eq!(
        completed(&events),
        vec![(FeatureKind::City, 2), (FeatureKind::Road, 2)]
    );
    assert_eq!(
        scored_with_rule(&events),
        vec![(BLUE, 2, FeatureKind::Road, "§1.6 completed road")]
    );
    // Blue's deploy decision in turn 4: both corner farms touching (0,1) are free.
    let Replay { game, .. } = replay_first(name, 7);
    assert!(offers(&game, 0, 1, "EL"), "SE corner farm");
    assert!(offers(&game, 0, 1, "WL"), "SW corner farm");
    assert!(offers(&game, 0, 1, "N"), "the road from the S stub");

    let Replay { game, events } = replay(name);
    for (a, b) in [("E", "S"), ("S", "W"), ("W", "E")] {
        assert!(!same(&game, (0, 0, a), (0, 0, b)), "stubs {a} and {b}");
    }
    for (a, b) in [("WR", "WL"), ("WL", "ER"), ("ER", "WR")] {
        assert!(!same(&game, (0, 0, a), (0, 0, b)), "fields {a} and {b}");
    }
    assert!(
        same(&game, (-1, 0, "NL"), (0, 0, "WR")),
        "Red's farm is L's strip"
    );
    assert!(
        same(&game, (0, 1, "EL"), (0, 0, "SL")),
        "Blue's farm is L's SE corner"
    );
    assert_eq!(points_for(&events, FeatureKind::Field), [3, 0]);
    assert_eq!(points_for(&events, FeatureKind::Road), [0, 2]);
    assert_eq!(game.scores(), &[3, 2]);
}

/// Checks a tile-H / tile-I record: two caps closed as two separate two-tile cities, and
/// Red's farmer in the field between them scores both (3 + 3, RULES.md §1.9).
fn check_field_between_two_caps(name: &str, caps: [&str; 2]) {
    let Replay { game, events } = replay(name);
    assert!(
        !same(&game, (0, 0, caps[0]), (0, 0, caps[1])),
        "{name}: two cities"
    );
    assert_eq!(
        completed(&events),
        vec![(FeatureKind::City, 2), (FeatureKind::City, 2)],
        "{name}"
    );
    assert_eq!(
        scored_with_rule(&events),
        vec![(RED, 6, FeatureKind::Field, "§1.9 farm_centric_3")],
        "{name}"
    );
    assert_eq!(game.scores(), &[6, 0], "{name}");
}

/// TILES.md §1 field notes, tile H (BA/CFC.2): one field bordering two different city caps;
/// the farmer scores both cities = 6.
#[test]
fn tile_h_field_scores_both_caps() {
    check_field_between_two_caps("tile-h-two-caps", ["N", "S"]);
}

/// TILES.md §1 field notes, tile I (BA/CC.2): one field bordering two different city caps;
/// the farmer scores both cities = 6.
#[test]
fn tile_i_field_scores_both_caps() {
    check_field_between_two_caps("tile-i-two-caps", ["N", "W"]);
}

/// TILES.md §1 table and tiles/README.md, tile X (BA/RRRR): four separate road stubs (each
/// completes a 2-tile road with a junction) and four separate corner fields.
#[test]
fn tile_x_has_four_roads_and_four_corner_fields() {
    let name = "tile-x-crossroads";
    // Blue's deploy decision in turn 2: Red's farmer holds the NE corner, the SE and SW
    // corners (through the two fields of (0,1)) are free.
    let Replay { game, .. } = replay_first(name, 3);
    assert!(offers(&game, 0, 1, "EL"));
    assert!(offers(&game, 0, 1, "WL"));
    assert!(offers(&game, 0, 1, "N"));

    let Replay { game, events } = replay(name);
    assert_eq!(completed(&events), vec![(FeatureKind::Road, 2); 3]);
    assert_eq!(
        scored_with_rule(&events)
            .into_iter()
            .filter(|s| s.2 == FeatureKind::Road)
            .collect::<Vec<_>>(),
        vec![
            (RED, 2, FeatureKind::Road, "§1.6 completed road"),
            (BLUE, 2, FeatureKind::Road, "§1.6 completed road"),
        ]
    );
    let stubs = ["N", "E", "S", "W"];
    let corners = ["NL", "NR", "ER", "SR"];
    for group in [stubs, corners] {
        for (i, a) in group.iter().enumerate() {
            for b in &group[i + 1..] {
                assert!(!same(&game, (0, 0, a), (0, 0, b)), "{a} and {b} of X");
            }
        }
    }
    assert!(
        same(&game, (1, 0, "NL"), (0, 0, "NR")),
        "Red's farm: NE corner"
    );
    assert!(
        same(&game, (0, 1, "EL"), (0, 0, "ER")),
        "Blue's farm: SE corner"
    );
    assert_eq!(points_for(&events, FeatureKind::Field), [0, 0]);
    assert_eq!(game.scores(), &[2, 2]);
}

// ---------------------------------------------------------------------------------------------
// Placement rules (RULES.md §1.3).

/// RULES.md B-P1..B-P3 (§1.3): the legal placements of E next to the start tile D are exactly
/// the four (position, rotation) pairs whose abutting edges match.
#[test]
fn b_p_legal_placements_of_the_first_tile() {
    let Replay { game, .. } = replay_first("b-placement", 0);
    let legal: HashSet<Action> = game.legal().into_iter().collect();
    let want: HashSet<Action> = [
        place(0, -1, 180),
        place(0, 1, 90),
        place(0, 1, 180),
        place(0, 1, 270),
    ]
    .into_iter()
    .collect();
    assert_eq!(legal, want);
}

/// RULES.md B-P1 (§1.3, corner contact is not adjacency): a position that touches the board
/// only at a corner is not offered, and placing there is refused without changing the game.
#[test]
fn b_p1_corner_contact_is_not_adjacency() {
    let Replay { mut game, .. } = replay_first("b-placement", 0);
    for (x, y) in [(1, -1), (-1, -1), (1, 1), (-1, 1)] {
        for degrees in [0, 90, 180, 270] {
            let action = place(x, y, degrees);
            assert!(
                !game.legal().contains(&action),
                "{action:?} is diagonal only"
            );
            placement_refused(&mut game, action, "B-P1");
        }
    }
    // Two tiles further away, too.
    placement_refused(&mut game, place(0, -2, 180), "B-P1");
    // On the start tile itself.
    placement_refused(&mut game, place(0, 0, 0), "B-P1");
}

/// RULES.md B-P2 (§1.3, every abutting edge must match): E has no road edge, so it cannot lie
/// beside D's road; J at (1,-1) matches its west neighbour but not its south neighbour.
#[test]
fn b_p2_every_abutting_edge_must_match() {
    let Replay { mut game, .. } = replay_first("b-placement", 0);
    for degrees in [0, 90, 180, 270] {
        for (x, y) in [(1, 0), (-1, 0)] {
            placement_refused(&mut game, place(x, y, degrees), "B-P2");
        }
    }
    // The city edge of D demands a city edge: E turned 0 (field to the south) is refused.
    placement_refused(&mut game, place(0, -1, 0), "B-P2");

    // Turn 3: J at (1,-1) touches the field of E at (0,-1) (west) and the field of U at (1,0)
    // (south). At 0° its west edge is a field but its south edge is a road.
    let Replay { mut game, .. } = replay_first("b-placement", 4);
    let j = game.rules().tile_id("J").unwrap();
    assert_eq!(game.decision().kind, DecisionKind::PlaceTile { tile: j });
    assert!(
        game.legal()
            .iter()
            .all(|a| !matches!(a, Action::Place { pos, .. } if *pos == Pos::new(1, -1))),
        "no rotation of J fits at (1,-1)"
    );
    for degrees in [0, 90, 180, 270] {
        placement_refused(&mut game, place(1, -1, degrees), "B-P2");
    }
    assert!(game.legal().contains(&place(2, 0, 90)));
}

/// A deploy answer is refused while a tile must be placed, and a placement while a deploy
/// decision is pending (RULES.md §1.2 turn structure).
#[test]
fn actions_must_answer_the_pending_decision() {
    let Replay { mut game, .. } = replay_first("b-placement", 0);
    assert!(matches!(
        refused(&mut game, Action::Pass),
        RuleError::WrongDecision(_)
    ));
    assert!(matches!(
        refused(&mut game, deploy(0, 0, "N")),
        RuleError::WrongDecision(_)
    ));
    let Replay { mut game, .. } = replay_first("b-placement", 1);
    assert!(matches!(
        refused(&mut game, place(0, 1, 90)),
        RuleError::WrongDecision(_)
    ));
}

// ---------------------------------------------------------------------------------------------
// Deploy rules (RULES.md §1.4) and returns (§1.7 B-M3), on b-deploy (one follower each).

/// RULES.md B-F3 (§1.4, the whole feature must be unoccupied): the road joined to Red's thief
/// is not offered to Blue and deploying there is refused; the free fields are offered.
/// Also B-F2: only the tile just placed takes a figure.
#[test]
fn b_f3_an_occupied_feature_is_not_offered() {
    let Replay { mut game, .. } = replay_first("b-deploy", 3);
    assert_eq!(game.decision().kind, DecisionKind::Deploy);
    assert_eq!(game.decision().player, BLUE);
    assert!(same(&game, (-1, 0, "E"), (1, 0, "E")), "one road");
    assert!(!offers(&game, -1, 0, "W"));
    assert!(offers(&game, -1, 0, "NL"), "north field (joins D's strip)");
    assert!(offers(&game, -1, 0, "SL"), "south field");
    assert_eq!(game.legal().len(), 3, "two fields and pass");
    for at in ["W", "E"] {
        deploy_refused(&mut game, deploy(-1, 0, at), "B-F3");
    }
    // B-F2: not on an older tile, even on a free field.
    deploy_refused(&mut game, deploy(0, 0, "SL"), "B-F2");
    // No feature there: a half-edge of a city edge.
    let Replay { mut game, .. } = replay_first("b-deploy", 11);
    deploy_refused(&mut game, deploy(0, -1, "SL"), "B-F2");
}

/// RULES.md B-F4 (§1.4, a follower must be in supply): with no follower left the only legal
/// answer is to pass, and a deploy is refused.
#[test]
fn b_f4_without_followers_only_pass_is_legal() {
    let Replay { mut game, .. } = replay_first("b-deploy", 5);
    assert_eq!(game.decision().player, RED);
    assert_eq!(game.decision().kind, DecisionKind::Deploy);
    assert_eq!(follower_supply(&game), [0, 1]);
    assert_eq!(game.legal(), vec![Action::Pass]);
    for at in ["NL", "SL", "E"] {
        deploy_refused(&mut game, deploy(2, 0, at), "B-F4");
    }
}

/// RULES.md B-M3 (§1.7, followers of a scored feature return) and B-F7 (§1.4, a follower
/// returned by this turn's scoring cannot be deployed in the same turn): Red closes the road
/// holding its only thief, gets 6 and the thief back after its deploy decision, and can deploy
/// again on its next turn.
#[test]
fn b_m3_followers_return_after_scoring() {
    // Turn 5, Red's deploy decision: the tile closes the road, but the thief is still on it.
    let Replay { game, .. } = replay_first("b-deploy", 9);
    assert_eq!(game.decision().player, RED);
    assert_eq!(follower_supply(&game), [0, 1]);
    assert_eq!(game.legal(), vec![Action::Pass], "B-F7");
    // After the pass: scored, returned.
    let Replay { game, events } = replay_first("b-deploy", 10);
    let turn5: Vec<&Event> = events
        .iter()
        .rev()
        .take_while(|e| !matches!(e, Event::TilePlaced { .. }))
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    assert!(
        matches!(
            turn5[..],
            [
                Event::FeatureCompleted {
                    feature: FeatureKind::Road,
                    tiles: 6,
                    ..
                },
                Event::Scored {
                    player: RED,
                    points: 6,
                    feature: FeatureKind::Road,
                    ..
                },
                Event::FigureReturned {
                    player: RED,
                    x: 1,
                    y: 0,
                    reason: ReturnReason::Scored,
                    ..
                },
                Event::TurnStarted {
                    turn: 6,
                    player: BLUE,
                },
                Event::TileDrawn { player: BLUE, .. },
            ]
        ),
        "{turn5:?}"
    );
    assert!(game.figures().is_empty());
    assert_eq!(follower_supply(&game), [1, 1]);
    // Turn 7: Red may deploy again.
    let Replay { game, .. } = replay_first("b-deploy", 13);
    assert_eq!(game.decision().player, RED);
    assert!(offers(&game, 1, -1, "N"));
    assert!(game.legal().len() > 1);
    let Replay { game, .. } = replay("b-deploy");
    assert_eq!(
        figures(&game),
        vec![(RED, Pos::new(1, -1), spot("N"), FeatureKind::City)]
    );
}

/// RULES.md B-F5 (§1.4, deploying on a feature the tile completes is legal; it is scored in the
/// same turn and the follower returns at once).
#[test]
fn b_f5_a_follower_on_a_feature_the_tile_completes_scores_at_once() {
    let Replay { game, .. } = replay_first("b-deploy", 11);
    assert_eq!(game.decision().player, BLUE);
    assert!(
        offers(&game, 0, -1, "S"),
        "the city this tile closes is offered"
    );
    let Replay { game, events } = replay_first("b-deploy", 12);
    let from = events
        .iter()
        .rposition(|e| matches!(e, Event::FigureDeployed { .. }))
        .unwrap();
    assert!(
        matches!(
            events[from..],
            [
                Event::FigureDeployed {
                    player: BLUE,
                    feature: FeatureKind::City,
                    ..
                },
                Event::FeatureCompleted {
                    feature: FeatureKind::City,
                    tiles: 2,
                    ..
                },
                Event::Scored {
                    player: BLUE,
                    points: 4,
                    feature: FeatureKind::City,
                    ..
                },
                Event::FigureReturned {
                    player: BLUE,
                    reason: ReturnReason::Scored,
                    ..
                },
                Event::TurnStarted {
                    turn: 7,
                    player: RED,
                },
                Event::TileDrawn { player: RED, .. },
            ]
        ),
        "{:?}",
        &events[from..]
    );
    assert_eq!(follower_supply(&game), [1, 1]);
    assert_eq!(game.scores(), &[6, 4]);
}

/// RULES.md §1.2 step 3 and B-M3: farmers are never returned during the game, even when the
/// cities their farm borders are completed.
#[test]
fn b_m3_farmers_stay_when_a_bordering_city_completes() {
    // t-b4: after turn 3 both cities are complete and all three farmers stand.
    let Replay { game, events } = replay_first("t-b4-farm-centric-3", 6);
    assert_eq!(completed(&events).len(), 2);
    assert!(scored_with_rule(&events).is_empty());
    assert_eq!(game.figures().len(), 3);
    assert_eq!(follower_supply(&game), [5, 6]);
}

// ---------------------------------------------------------------------------------------------
// Farmers switched off (toggle #43).

/// RULES.md §1.9 last bullet / §3.2 toggle #43 (`[mechanics] farmers = false`, [ext:B7]): no
/// field is offered, deploying on one is refused, and nothing is paid for fields. Under `base`
/// the same record offers the fields.
#[test]
fn farmers_off_offers_no_field_and_scores_no_farm() {
    let name = "farmers-off";
    let Replay { mut game, .. } = replay_first(name, 1);
    assert!(!game.rules().switched_on("farmers"));
    let s = canonical(&game, 0, -1, "S");
    assert_eq!(
        game.legal(),
        vec![
            Action::Deploy {
                pos: Pos::new(0, -1),
                spot: s,
                figure: FigureKind::Follower,
            },
            Action::Pass,
        ]
    );
    deploy_refused(&mut game, deploy(0, -1, "NL"), "mechanics.farmers");
    let Replay { mut game, .. } = replay_first(name, 3);
    assert!(offers(&game, 1, 0, "E"));
    assert_eq!(game.legal().len(), 2, "the road and pass");
    for at in ["NL", "SL"] {
        deploy_refused(&mut game, deploy(1, 0, at), "mechanics.farmers");
    }
    let Replay { game, events } = replay(name);
    assert!(
        scored_with_rule(&events)
            .iter()
            .all(|s| s.2 != FeatureKind::Field)
    );
    assert_eq!(game.scores(), &[4, 2]);

    // The same record under `base`: the fields are offered.
    let path = record_path(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let line = "ruleset = \"../../fixtures/base-no-farmers.toml\"";
    assert!(text.contains(line));
    let mut record = Record::parse(Source {
        path,
        text: text.replace(line, "ruleset = \"base\""),
    })
    .unwrap();
    assert!(record.rules.switched_on("farmers"));
    record.actions.truncate(1);
    let game = run(&record, name).game;
    assert!(offers(&game, 0, -1, "NL"));
    assert_eq!(game.legal().len(), 3, "city, field and pass");
}
