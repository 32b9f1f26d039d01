//! The fairy, the magic portal and the special tiles of The Princess & the Dragon: RULES.md
//! §2.5 (MP), §2.7 (FA), §2.8 (TU), §2.9 (CC), the toggles of §3.1, the scenarios T-F1..T-F7
//! (§4.2), T-M1..T-M4 (§4.4), T-C1 and T-T1 (§4.5) and the ambiguities A5, A17, A23, A25 (§7).
//!
//! Every scenario is a game record under `tests/records/pd/` (`fairy/`, `portal/`, `tiles/`);
//! its header comment names the scenario, its sources and the expected outcome, and the tests
//! here replay it and check that outcome: scores, events, figures, the fairy and the legal
//! options at chosen points. A toggle is tested by replaying the same record under a second
//! ruleset (a shipped edition or a `tests/fixtures/pdf-*.toml` fixture that changes only that
//! toggle): the record's `ruleset = "…"` line is replaced before parsing.
//!
//! Coordinates are the engine's: x grows east, y grows south (RULES.md §4 draws y north).
//! Seat 0 is Red and seat 1 is Blue in every record; Red plays first.

use castellan::data::library::Source;
use castellan::engine::action::{Action, DecisionKind};
use castellan::engine::event::{Event, ReturnReason};
use castellan::engine::game::{Game, RuleError};
use castellan::engine::refusal::RuleId;
use castellan::mechanic::pd::vocabulary::{PdAction, PdDecision, PdEvent};
use castellan::model::figure::FigureKind;
use castellan::model::geometry::{Pos, Spot};
use castellan::model::tile::FeatureKind;
use castellan::record::{Record, RecordError, Replay};
use std::path::{Path, PathBuf};

const RED: usize = 0;
const BLUE: usize = 1;

// ---------------------------------------------------------------------------------------------
// Helpers.

/// `tests/records/pd/<name>.toml`, `name` being e.g. `fairy/t-f1-city-bonus`.
fn record_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/records/pd")
        .join(format!("{name}.toml"))
}

/// How a record in `tests/records/pd/<dir>/` names the fixture `tests/fixtures/<name>.toml`.
fn fixture(name: &str) -> String {
    format!("../../../fixtures/{name}.toml")
}

/// The record as written.
fn load(name: &str) -> Record {
    Record::load(&record_path(name)).unwrap_or_else(|d| panic!("{name}: {d}"))
}

/// The record with its `ruleset = "…"` line replaced by `ruleset` (an edition name or a path
/// relative to the record).
fn load_as(name: &str, ruleset: &str) -> Record {
    let path = record_path(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut replaced = 0;
    let text: String = text
        .lines()
        .map(|line| {
            if line.starts_with("ruleset = ") {
                replaced += 1;
                format!("ruleset = \"{ruleset}\"\n")
            } else {
                format!("{line}\n")
            }
        })
        .collect();
    assert_eq!(replaced, 1, "{name} must have one `ruleset = ` line");
    Record::parse(Source { path, text }).unwrap_or_else(|d| panic!("{name} as {ruleset}: {d}"))
}

fn run(record: &Record, what: &str) -> Replay {
    match record.replay() {
        Ok(r) => r,
        Err(e) => panic!("{what}: {}", e.diagnostic()),
    }
}

/// The whole record replayed under its own ruleset.
fn replay(name: &str) -> Replay {
    run(&load(name), name)
}

/// The whole record replayed under another ruleset.
fn replay_as(name: &str, ruleset: &str) -> Replay {
    run(&load_as(name, ruleset), &format!("{name} as {ruleset}"))
}

/// Only the first `actions` actions of `record`: the game waits for the next one.
fn first(mut record: Record, actions: usize, what: &str) -> Game {
    assert!(actions <= record.actions.len(), "{what} is too short");
    record.actions.truncate(actions);
    run(&record, what).game
}

fn replay_first(name: &str, actions: usize) -> Game {
    first(load(name), actions, name)
}

fn replay_first_as(name: &str, ruleset: &str, actions: usize) -> Game {
    first(
        load_as(name, ruleset),
        actions,
        &format!("{name} as {ruleset}"),
    )
}

/// The 1-based index of the action that the ruleset refuses, and why.
fn illegal_at(record: &Record, what: &str) -> (usize, RuleError) {
    match record.replay() {
        Ok(r) => panic!(
            "{what}: expected an illegal action, the game ended {:?}",
            r.game.scores()
        ),
        Err(RecordError::Illegal { index, error, .. }) => (index, error),
        Err(e) => panic!("{what}: {}", e.diagnostic()),
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

/// A fairy move next to the follower at `at` (follower mode).
fn fairy_to(x: i32, y: i32, at: &str) -> Action {
    Action::from(PdAction::Fairy {
        pos: Pos::new(x, y),
        spot: Some(spot(at)),
    })
}

/// A fairy move onto a tile (tile mode).
fn fairy_onto(x: i32, y: i32) -> Action {
    Action::from(PdAction::Fairy {
        pos: Pos::new(x, y),
        spot: None,
    })
}

fn fairy_options(game: &Game) -> Vec<Action> {
    game.legal()
        .into_iter()
        .filter(|a| matches!(PdAction::of(a), Some(PdAction::Fairy { .. })))
        .collect()
}

fn deploy_options(game: &Game) -> Vec<Action> {
    game.legal()
        .into_iter()
        .filter(|a| matches!(a, Action::Deploy { .. }))
        .collect()
}

/// Points paid to `player` under `rule` (e.g. "FA8 fairy bonus"), in order.
fn paid(events: &[Event], player: usize, rule: &str) -> Vec<u32> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Scored {
                player: p,
                points,
                rule: r,
                ..
            } if *p == player && *r == rule => Some(*points),
            _ => None,
        })
        .collect()
}

/// The fairy bonuses paid, as (player, points, feature kind).
fn fairy_bonuses(events: &[Event]) -> Vec<(usize, u32, FeatureKind)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Scored {
                player,
                points,
                feature,
                rule: "FA8 fairy bonus",
                ..
            } => Some((*player, *points, *feature)),
            _ => None,
        })
        .collect()
}

/// The fairy's turn points as (turn, player, points).
fn turn_points(events: &[Event]) -> Vec<(u32, usize, u32)> {
    let mut turn = 0;
    let mut out = Vec::new();
    for e in events {
        match (e, PdEvent::of(e)) {
            (Event::TurnStarted { turn: t, .. }, _) => turn = *t,
            (_, Some(PdEvent::FairyPoint { player, points })) => out.push((turn, player, points)),
            _ => {}
        }
    }
    out
}

/// The figures on the board as (owner, x, y, feature kind).
fn figures(game: &Game) -> Vec<(usize, i32, i32, FeatureKind)> {
    game.figures()
        .iter()
        .map(|f| {
            let (pos, _) = game.figure_spot(f);
            (f.owner, pos.x, pos.y, game.features().segment(f.seg).kind)
        })
        .collect()
}

/// The id of `owner`'s figure at (x, y), spot `at`.
fn figure_id(game: &Game, owner: usize, x: i32, y: i32, at: &str) -> u32 {
    let seg = game
        .seg_at(Pos::new(x, y), spot(at))
        .unwrap_or_else(|| panic!("no feature at ({x},{y}) {at}"));
    game.figures()
        .iter()
        .find(|f| f.owner == owner && game.features().same(f.seg, seg))
        .unwrap_or_else(|| panic!("no figure of seat {owner} at ({x},{y}) {at}"))
        .id
}

/// Where the fairy stands: its tile and the follower it stands next to.
fn fairy_at(x: i32, y: i32, follower: Option<u32>) -> Option<(Pos, Option<u32>)> {
    Some((Pos::new(x, y), follower))
}

/// Where the fairy of `game` stands, as [`fairy_at`] writes it.
fn where_fairy(game: &Game) -> Option<(Pos, Option<u32>)> {
    game.fairy().map(|f| (f.pos, f.follower))
}

/// Index of the first event matching `pred`.
fn position(events: &[Event], pred: impl Fn(&Event) -> bool) -> usize {
    events
        .iter()
        .position(pred)
        .expect("the event is in the log")
}

// ---------------------------------------------------------------------------------------------
// Every record.

/// Every record of `tests/records/pd/{fairy,portal,tiles}/` replays to the end of the game under
/// the ruleset it names (each header comment states its scenario and expected outcome).
#[test]
fn every_record_plays_to_the_end() {
    let mut count = 0;
    for dir in ["fairy", "portal", "tiles"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/records/pd")
            .join(dir);
        for entry in std::fs::read_dir(&path).expect("records folder") {
            let file = entry.expect("an entry").path();
            if file.extension().is_none_or(|e| e != "toml") {
                continue;
            }
            let stem = file.file_stem().expect("a name").to_string_lossy();
            let name = format!("{dir}/{stem}");
            assert!(replay(&name).game.is_over(), "{name} ends the game");
            count += 1;
        }
    }
    assert!(count >= 18, "only {count} records");
}

// ---------------------------------------------------------------------------------------------
// T-F1: city scoring 8 + 3 = 11.

const T_F1: &str = "fairy/t-f1-city-bonus";

/// T-F1 in follower mode (RULES.md §4.2 T-F1; source 002 §3 "Scoring a feature" example;
/// FA8, FA11): Blue +8, Red +8 + 3; the fairy stays on (2,0) with no follower.
#[test]
fn t_f1_follower_mode_eight_plus_three() {
    // Before the last turn the fairy stands next to Red's knight.
    let before = replay_first(T_F1, 6);
    let knight = figure_id(&before, RED, 2, 0, "E");
    assert_eq!(where_fairy(&before), fairy_at(2, 0, Some(knight)));

    let r = replay(T_F1);
    assert_eq!(r.game.scores(), &[11, 8]);
    assert_eq!(paid(&r.events, BLUE, "§1.6 completed city"), vec![8]);
    assert_eq!(paid(&r.events, RED, "§1.6 completed city"), vec![8]);
    assert_eq!(fairy_bonuses(&r.events), vec![(RED, 3, FeatureKind::City)]);
    assert!(r.game.figures().is_empty(), "both knights went home");
    assert_eq!(r.game.supply(RED, FigureKind::Follower), 7);
    assert_eq!(r.game.supply(BLUE, FigureKind::Follower), 7);
    // FA11: the fairy stays on its tile, unassigned.
    assert_eq!(where_fairy(&r.game), fairy_at(2, 0, None));
    assert!(turn_points(&r.events).is_empty());
}

/// FA3 (RULES.md §2.7; source 002 "one of your followers", 004 fn 3): the fairy goes only to
/// the mover's own followers: in T-F1 turn 3 Red may choose his knight, not Blue's.
#[test]
fn fa3_fairy_targets_are_own_followers() {
    let game = replay_first(T_F1, 5);
    assert_eq!(fairy_options(&game), vec![fairy_to(2, 0, "E")]);
    let tile_mode = replay_first_as(T_F1, "rgg-2005", 5);
    assert_eq!(fairy_options(&tile_mode), vec![fairy_onto(2, 0)]);
}

/// T-F1 in tile mode, shipped edition rgg-2005 (RULES.md §4.2 T-F1 "same numbers in tile
/// mode"; source 000 §The Fairy; toggle §3.1 #18): 11 and 8, the fairy stays on (2,0).
#[test]
fn t_f1_tile_mode_rgg_2005() {
    let r = replay_as(T_F1, "rgg-2005");
    assert_eq!(r.game.scores(), &[11, 8]);
    assert_eq!(fairy_bonuses(&r.events), vec![(RED, 3, FeatureKind::City)]);
    assert_eq!(where_fairy(&r.game), fairy_at(2, 0, None));
    assert!(r.game.figures().is_empty());
}

/// T-F1 in tile mode with only `pd.fairy.attach = "tile"` changed (fixture pdf-tile.toml;
/// RULES.md §4.2 T-F1, §3.1 #18): 11 and 8.
#[test]
fn t_f1_tile_mode_fixture() {
    let before = replay_first_as(T_F1, &fixture("pdf-tile"), 6);
    assert_eq!(
        where_fairy(&before),
        fairy_at(2, 0, None),
        "tile mode has no follower"
    );
    let r = replay_as(T_F1, &fixture("pdf-tile"));
    assert_eq!(r.game.scores(), &[11, 8]);
    assert_eq!(fairy_bonuses(&r.events), vec![(RED, 3, FeatureKind::City)]);
    assert_eq!(where_fairy(&r.game), fairy_at(2, 0, None));
}

/// T-F7 (RULES.md §4.2 T-F7, §7 A21; source 004 §House Rules 3rd bullet;
/// rulesets/house-fairy-five.toml): T-F1 gives Red 8 + 5 = 13.
#[test]
fn t_f7_five_point_fairy_on_t_f1() {
    let r = replay_as(T_F1, "house-fairy-five");
    assert_eq!(r.game.scores(), &[13, 8]);
    assert_eq!(fairy_bonuses(&r.events), vec![(RED, 5, FeatureKind::City)]);
}

/// FA2 (RULES.md §2.7: the fairy may move "whenever no follower is or can be deployed (out of
/// followers…)", source 004 fn 9): with one follower each (fixture pdf-one-follower.toml) Red
/// has none left in T-F1 turn 3, yet the fairy move is offered, and T-F1 plays out the same.
#[test]
fn fa2_fairy_moves_when_out_of_followers() {
    let game = replay_first_as(T_F1, &fixture("pdf-one-follower"), 5);
    assert_eq!(game.supply(RED, FigureKind::Follower), 0);
    assert!(deploy_options(&game).is_empty());
    assert_eq!(
        game.legal(),
        vec![fairy_to(2, 0, "E"), Action::Pass],
        "the fairy or nothing"
    );
    let r = replay_as(T_F1, &fixture("pdf-one-follower"));
    assert_eq!(r.game.scores(), &[11, 8]);
}

// ---------------------------------------------------------------------------------------------
// T-F2: the turn-start point.

const T_F2: &str = "fairy/t-f2-turn-point";

/// T-F2 in follower mode (RULES.md §4.2 T-F2, FA7, FA11; source 004 fn 5): only Red, and only
/// while the fairy serves his knight: +1 at the start of turn 5; nothing for Blue's farmer on
/// the same tile; nothing once the knight has left (turn 7).
#[test]
fn t_f2_turn_point_follower_mode() {
    let r = replay(T_F2);
    assert_eq!(turn_points(&r.events), vec![(5, RED, 1)]);
    assert_eq!(r.game.scores(), &[8, 3]);
    assert_eq!(where_fairy(&r.game), fairy_at(0, 0, None));
    assert_eq!(figures(&r.game), vec![(BLUE, 0, 0, FeatureKind::Field)]);
}

/// T-F2 in tile mode (fixture pdf-tile.toml; RULES.md §4.2 T-F2, FA7 "several players can each
/// profit on their own turns", FA11 tile mode): Blue +1 in turns 4 and 6 (farmer on the fairy's
/// tile, also after Red's knight left), Red +1 in turn 5 only; the farm pays Blue the fairy bonus
/// at final scoring.
#[test]
fn t_f2_turn_point_tile_mode() {
    for ruleset in [fixture("pdf-tile"), "rgg-2005".to_string()] {
        let r = replay_as(T_F2, &ruleset);
        assert_eq!(
            turn_points(&r.events),
            vec![(4, BLUE, 1), (5, RED, 1), (6, BLUE, 1)],
            "{ruleset}"
        );
        assert_eq!(
            fairy_bonuses(&r.events),
            vec![(RED, 3, FeatureKind::City), (BLUE, 3, FeatureKind::Field)],
            "{ruleset}"
        );
        assert_eq!(r.game.scores(), &[8, 8], "{ruleset}");
        assert_eq!(where_fairy(&r.game), fairy_at(0, 0, None), "{ruleset}");
    }
}

/// T-F7 "no turn-start points ever" (RULES.md §4.2 T-F7; rulesets/house-fairy-five.toml,
/// `turn_bonus = 0`): T-F2 gives no FairyPoint; the city pays 4 + 5.
#[test]
fn t_f7_five_point_fairy_no_turn_points() {
    let r = replay_as(T_F2, "house-fairy-five");
    assert!(turn_points(&r.events).is_empty());
    assert_eq!(fairy_bonuses(&r.events), vec![(RED, 5, FeatureKind::City)]);
    assert_eq!(r.game.scores(), &[9, 3]);
}

// ---------------------------------------------------------------------------------------------
// T-F3: the fairy onto a city completed this turn.

const T_F3: &str = "fairy/t-f3-move-onto-completed";

/// T-F3 (RULES.md §4.2 T-F3, FA5, FA9; source 004 §The fairy, last bullet): Red completes his
/// city and, as his deploy action, takes the fairy from Blue's monk to his knight: +6 + 3 in the
/// same turn; the knight goes home, the fairy stays on (0,0).
#[test]
fn t_f3_fairy_onto_a_city_completed_this_turn() {
    let game = replay_first(T_F3, 9);
    let monk = figure_id(&game, BLUE, 0, 2, "C");
    assert_eq!(where_fairy(&game), fairy_at(0, 2, Some(monk)));
    assert_eq!(game.decision().player, RED);
    assert_eq!(game.decision().kind, DecisionKind::Deploy);
    assert!(fairy_options(&game).contains(&fairy_to(0, 0, "E")));

    let r = replay(T_F3);
    let moved = position(&r.events, |e| {
        matches!(
            PdEvent::of(e),
            Some(PdEvent::FairyMoved {
                player: RED,
                x: 0,
                y: 0,
                ..
            })
        )
    });
    let bonus = position(&r.events, |e| {
        matches!(
            e,
            Event::Scored {
                rule: "FA8 fairy bonus",
                ..
            }
        )
    });
    assert!(moved < bonus, "the fairy moves before the scoring (FA9)");
    assert_eq!(paid(&r.events, RED, "§1.6 completed city"), vec![6]);
    assert_eq!(fairy_bonuses(&r.events), vec![(RED, 3, FeatureKind::City)]);
    assert_eq!(r.game.scores(), &[9, 3]);
    assert_eq!(where_fairy(&r.game), fairy_at(0, 0, None));
    assert_eq!(figures(&r.game), vec![(BLUE, 0, 2, FeatureKind::Cloister)]);
}

// ---------------------------------------------------------------------------------------------
// T-F4: the bonus without majority.

/// T-F4, in-game (RULES.md §4.2 T-F4, FA8; source 002 "regardless…", 000): the 5-tile city
/// pays Blue (2 knights) 10 and Red (1 knight, the fairy) only the fairy's 3.
#[test]
fn t_f4_city_bonus_without_majority() {
    let r = replay("fairy/t-f4-city-no-majority");
    assert_eq!(paid(&r.events, BLUE, "§1.6 completed city"), vec![10]);
    assert!(paid(&r.events, RED, "§1.6 completed city").is_empty());
    assert_eq!(fairy_bonuses(&r.events), vec![(RED, 3, FeatureKind::City)]);
    assert_eq!(turn_points(&r.events), vec![(5, RED, 1)]);
    assert_eq!(r.game.scores(), &[4, 10]);
    assert!(r.game.figures().is_empty());
}

const T_F4_FARM: &str = "fairy/t-f4-farm-no-majority";

/// T-F4, final scoring (RULES.md §4.2 T-F4, FA8 "during the game or in final scoring … farm";
/// §1.9 farm_centric_3): the farm of 2 Blue farmers and 1 Red farmer borders 2 completed cities:
/// Blue +6, Red +3 from the fairy only.
#[test]
fn t_f4_farm_bonus_without_majority() {
    let r = replay(T_F4_FARM);
    assert_eq!(paid(&r.events, BLUE, "§1.9 farm_centric_3"), vec![6]);
    assert!(paid(&r.events, RED, "§1.9 farm_centric_3").is_empty());
    assert_eq!(fairy_bonuses(&r.events), vec![(RED, 3, FeatureKind::Field)]);
    let bonus = position(&r.events, |e| {
        matches!(
            e,
            Event::Scored {
                rule: "FA8 fairy bonus",
                ..
            }
        )
    });
    let end = position(&r.events, |e| matches!(e, Event::GameEnded { .. }));
    let last_turn = r
        .events
        .iter()
        .rposition(|e| matches!(e, Event::TurnStarted { .. }))
        .expect("turns");
    assert!(last_turn < bonus && bonus < end, "paid at final scoring");
    assert_eq!(r.game.scores(), &[4, 6]);
}

/// T-F7 with `scoring_bonus_when = "completed_only"` (RULES.md §4.2 T-F7, §7 A21,
/// rulesets/house-fairy-five.toml): the farm is scored at the end, never completed, so no fairy
/// bonus (and no turn point): Red 0, Blue 6.
#[test]
fn t_f7_five_point_fairy_not_at_final_scoring() {
    let r = replay_as(T_F4_FARM, "house-fairy-five");
    assert!(fairy_bonuses(&r.events).is_empty());
    assert!(turn_points(&r.events).is_empty());
    assert_eq!(r.game.scores(), &[0, 6]);
}

// ---------------------------------------------------------------------------------------------
// T-F6, A25, A17: which fairy moves are offered.

const T_F6: &str = "fairy/t-f6-fairy-targets";

/// T-F6 (RULES.md §4.2 T-F6, FA4; source 004 fn 4): a player with no follower on the board has
/// no fairy move; asking for one is refused and changes nothing.
#[test]
fn t_f6_no_follower_no_fairy_move() {
    // Turn 1, Red: nothing on the board yet.
    let game = replay_first(T_F6, 1);
    assert!(game.figures().is_empty());
    assert!(fairy_options(&game).is_empty());
    assert!(!deploy_options(&game).is_empty());
    let mut probe = game.clone();
    assert!(probe.apply(&fairy_onto(0, 0)).is_err());
    assert!(probe.apply(&fairy_to(0, 0, "N")).is_err());
    assert_eq!(probe.history(), game.history());
    assert_eq!(probe.fairy(), None);
    assert_eq!(probe.decision(), game.decision());
    // Turn 2, Blue: Red has a knight, Blue has nothing: still no fairy move for Blue.
    let game = replay_first(T_F6, 3);
    assert_eq!(game.decision().player, BLUE);
    assert!(fairy_options(&game).is_empty());
    assert!(game.clone().apply(&fairy_to(0, 0, "N")).is_err());
}

/// FA4 with `pd.fairy.needs_follower_on_board = false` in tile mode (fixture
/// pdf-tile-anywhere.toml; RULES.md §2.7 FA4, §3.1 #29, source 004 fn 4 for the default): with
/// no follower on the board Red may still put the fairy on any tile; the default (pdf-tile)
/// offers nothing.
#[test]
fn fa4_tile_mode_fairy_anywhere_when_toggled() {
    let game = replay_first_as(T_F6, &fixture("pdf-tile"), 1);
    assert!(fairy_options(&game).is_empty());
    let game = replay_first_as(T_F6, &fixture("pdf-tile-anywhere"), 1);
    assert!(game.figures().is_empty());
    let mut options = fairy_options(&game);
    options.sort_by_key(|a| match PdAction::of(a) {
        Some(PdAction::Fairy { pos, .. }) => pos,
        _ => Pos::new(i32::MAX, i32::MAX),
    });
    assert_eq!(options, vec![fairy_onto(0, 0), fairy_onto(0, 1)]);
}

/// A25 (RULES.md §7 A25, FA5): the fairy is never "moved" to the follower it already serves;
/// with `reassign_same_tile = true` (default, §3.1 #33, A17) Red's other follower on the same
/// tile is offered.
#[test]
fn a25_not_to_the_follower_it_already_serves() {
    // Turn 5, before the fairy is on the board: both of Red's followers on (0,0).
    let game = replay_first(T_F6, 9);
    assert_eq!(
        fairy_options(&game),
        vec![fairy_to(0, 0, "N"), fairy_to(0, 0, "EL")]
    );
    // Turn 7: the fairy serves the knight.
    let game = replay_first(T_F6, 13);
    let knight = figure_id(&game, RED, 0, 0, "N");
    assert_eq!(where_fairy(&game), fairy_at(0, 0, Some(knight)));
    assert_eq!(fairy_options(&game), vec![fairy_to(0, 0, "EL")]);
    assert!(game.clone().apply(&fairy_to(0, 0, "N")).is_err());
    // The re-assignment is a real move: the farmer is served afterwards.
    let mut moved = game.clone();
    moved.apply(&fairy_to(0, 0, "EL")).expect("legal");
    let farmer = figure_id(&moved, RED, 0, 0, "EL");
    assert_eq!(where_fairy(&moved), fairy_at(0, 0, Some(farmer)));

    let r = replay(T_F6);
    assert_eq!(r.game.scores(), &[5, 0]);
}

/// A17 with `pd.fairy.reassign_same_tile = false` (fixture pdf-no-reassign.toml; RULES.md §7
/// A17, §3.1 #33): with the fairy next to Red's knight on (0,0), the farmer on the same tile is
/// no target, so Red has no fairy move at all.
#[test]
fn a17_no_reassign_within_the_tile() {
    let ruleset = fixture("pdf-no-reassign");
    let game = replay_first_as(T_F6, &ruleset, 9);
    assert_eq!(
        fairy_options(&game),
        vec![fairy_to(0, 0, "N"), fairy_to(0, 0, "EL")],
        "with the fairy off the board both are targets"
    );
    let game = replay_first_as(T_F6, &ruleset, 13);
    assert!(fairy_options(&game).is_empty());
    assert!(game.clone().apply(&fairy_to(0, 0, "EL")).is_err());
}

/// A25 in tile mode (fixture pdf-tile.toml; RULES.md §7 A17 "meaningful only in follower mode",
/// A25): the fairy already stands on Red's only tile with followers, so there is no move.
#[test]
fn a25_tile_mode_not_onto_its_own_tile() {
    let ruleset = fixture("pdf-tile");
    let game = replay_first_as(T_F6, &ruleset, 9);
    assert_eq!(fairy_options(&game), vec![fairy_onto(0, 0)]);
    let game = replay_first_as(T_F6, &ruleset, 13);
    assert_eq!(where_fairy(&game), fairy_at(0, 0, None));
    assert!(fairy_options(&game).is_empty());
    // Tile mode: both of Red's followers share the fairy's tile: +3 for the city and the farm.
    let r = replay_as(T_F6, &ruleset);
    assert_eq!(
        fairy_bonuses(&r.events),
        vec![(RED, 3, FeatureKind::City), (RED, 3, FeatureKind::Field)]
    );
    assert_eq!(r.game.scores(), &[8, 0]);
}

// ---------------------------------------------------------------------------------------------
// A23: claiming the point.

const A23: &str = "fairy/a23-claim";

/// A23 (RULES.md §7 A23, FA7, §3.1 #22; source 004 §House Rules 2nd bullet;
/// rulesets/house-claim-fairy-point.toml): Red's turn starts with a claim decision; claiming pays
/// +1, passing forfeits the point.
#[test]
fn a23_claim_or_lose_the_fairy_point() {
    let game = replay_first(A23, 8);
    assert_eq!(game.decision().player, RED);
    assert_eq!(
        game.decision().kind,
        DecisionKind::from(PdDecision::ClaimFairyPoint)
    );
    assert_eq!(
        game.legal(),
        vec![Action::from(PdAction::Claim), Action::Pass]
    );
    assert_eq!(game.scores(), &[0, 0]);
    let mut probe = game.clone();
    assert!(
        probe
            .apply(&Action::Place {
                pos: Pos::new(2, 1),
                rotation: castellan::model::geometry::Rotation::from_degrees(0).expect("0°"),
            })
            .is_err(),
        "the claim comes before the tile"
    );

    let r = replay(A23);
    assert_eq!(turn_points(&r.events), vec![(5, RED, 1)]);
    let forfeited: Vec<usize> = r
        .events
        .iter()
        .filter_map(|e| match PdEvent::of(e) {
            Some(PdEvent::FairyPointForfeited { player }) => Some(player),
            _ => None,
        })
        .collect();
    assert_eq!(forfeited, vec![RED]);
    // Red 1 (claimed) + 1 (incomplete city) + 3 (fairy at final scoring); the forfeited point
    // is not paid.
    assert_eq!(r.game.scores(), &[5, 0]);
}

/// A23 against the automatic default (hig): there is no claim decision, so the record's
/// `claim = true` (action 9) is refused there.
#[test]
fn a23_no_claim_decision_when_automatic() {
    let (index, error) = illegal_at(&load_as(A23, "hig"), "a23 as hig");
    assert_eq!(index, 9);
    assert!(matches!(error, RuleError::WrongDecision(_)), "{error}");
}

// ---------------------------------------------------------------------------------------------
// FA2 / V4: when the fairy may move.

/// FA2 (RULES.md §2.7 FA2, §2.1 "at most one action"; sources 002 §The fairy moves, 000): the
/// fairy move is the turn's deploy action. In T-F4 turn 3 Red may deploy or move the fairy;
/// after a deployment the turn has moved on and a fairy move is refused. The same under the
/// RGG 2005 condition "no follower placed" (rgg-2005).
#[test]
fn fa2_fairy_move_is_the_deploy_action() {
    for ruleset in ["hig", "rgg-2005"] {
        let game = replay_first_as("fairy/t-f4-city-no-majority", ruleset, 5);
        assert_eq!(game.decision().kind, DecisionKind::Deploy, "{ruleset}");
        assert!(game.legal().contains(&deploy(1, 0, "NL")), "{ruleset}");
        assert_eq!(fairy_options(&game).len(), 1, "{ruleset}");
        let mut after = game.clone();
        after
            .apply(&deploy(1, 0, "NL"))
            .expect("a legal deployment");
        assert_eq!(after.decision().player, BLUE, "{ruleset}");
        assert!(matches!(
            after.decision().kind,
            DecisionKind::PlaceTile { .. }
        ));
        let err = after.clone().apply(&fairy_to(2, 0, "E")).unwrap_err();
        assert!(
            matches!(err, RuleError::WrongDecision(_)),
            "{ruleset}: {err}"
        );
        assert_eq!(after.fairy(), None);
    }
}

const FA2_VOLCANO: &str = "fairy/fa2-volcano";

/// V4 default (RULES.md §2.2 V3, V4, §3.1 #17 `fairy_move = true`; sources 002 §The Volcano,
/// 004 fn 9): on a volcano turn nothing goes on the volcano tile but the fairy may move.
#[test]
fn v4_fairy_moves_on_a_volcano_turn() {
    let game = replay_first(FA2_VOLCANO, 5);
    assert_eq!(game.dragon(), Some(Pos::new(-1, 1)));
    assert_eq!(game.legal(), vec![fairy_to(0, 0, "N"), Action::Pass]);
    let r = replay(FA2_VOLCANO);
    let knight = figure_id(&r.game, RED, 0, 0, "N");
    assert_eq!(where_fairy(&r.game), fairy_at(0, 0, Some(knight)));
    assert_eq!(r.game.scores(), &[4, 0]);
}

/// V4 with `pd.volcano.fairy_move = false` (fixture pdf-volcano-no-fairy.toml; RULES.md §2.2
/// V4, §7 A6, the old FAQ of 004 fn 9): on the volcano turn Red may only pass.
#[test]
fn v4_no_fairy_move_on_a_volcano_turn_when_off() {
    let ruleset = fixture("pdf-volcano-no-fairy");
    let game = replay_first_as(FA2_VOLCANO, &ruleset, 5);
    assert_eq!(game.legal(), vec![Action::Pass]);
    let (index, _) = illegal_at(&load_as(FA2_VOLCANO, &ruleset), "fa2-volcano");
    assert_eq!(index, 6);
    // Not a blanket ban: on the turn before (no volcano) the fairy could move.
    let game = replay_first_as(FA2_VOLCANO, &ruleset, 3);
    assert_eq!(game.decision().player, BLUE);
    assert!(fairy_options(&game).is_empty(), "Blue has no follower");
}

// ---------------------------------------------------------------------------------------------
// FA8 in tile mode: whose follower gets the bonus.

const FA8_TILE: &str = "fairy/fa8-tile-farmer";

/// FA8 tile mode, literal reading (fixture pdf-tile-loose.toml,
/// `tile_mode_requires_follower_in_feature = false`; RULES.md §7 A5, §3.1 #26; source 000 §The
/// Fairy): Red's farmer on the fairy's tile collects +3 when Blue's city crossing that tile is
/// scored.
#[test]
fn fa8_tile_mode_any_follower_on_the_tile() {
    let r = replay(FA8_TILE);
    assert_eq!(paid(&r.events, BLUE, "§1.6 completed city"), vec![4]);
    assert_eq!(
        fairy_bonuses(&r.events),
        vec![(RED, 3, FeatureKind::City), (RED, 3, FeatureKind::Field)]
    );
    assert_eq!(r.game.scores(), &[9, 4]);
    assert_eq!(where_fairy(&r.game), fairy_at(0, 0, None));
}

/// FA8 tile mode, engine default (fixture pdf-tile.toml, `… = true`; RULES.md §2.7 FA8, §7 A5):
/// the farmer is not part of the city: no bonus for it; the farm's own bonus stays.
#[test]
fn fa8_tile_mode_follower_must_be_in_the_feature() {
    let r = replay_as(FA8_TILE, &fixture("pdf-tile"));
    assert_eq!(fairy_bonuses(&r.events), vec![(RED, 3, FeatureKind::Field)]);
    assert_eq!(r.game.scores(), &[6, 4]);
}

const FA8_ONCE: &str = "fairy/fa8-once-per-player";

/// FA8 "once per player per feature" (RULES.md §2.7 FA8; sources 000 §The Fairy, 001 §El Hada):
/// two of Red's knights stand on the fairy's tile in the one city that is scored; tile mode
/// (pdf-tile.toml) pays the bonus once, as does follower mode (pd-synthetic).
#[test]
fn fa8_bonus_once_per_player_per_feature() {
    let game = replay_first(FA8_ONCE, 11);
    assert_eq!(
        figures(&game),
        vec![
            (RED, 0, 0, FeatureKind::City),
            (RED, 0, 0, FeatureKind::City)
        ]
    );
    for ruleset in [fixture("pdf-tile"), fixture("pd-synthetic")] {
        let r = replay_as(FA8_ONCE, &ruleset);
        assert_eq!(
            paid(&r.events, RED, "§1.6 completed city"),
            vec![8],
            "{ruleset}"
        );
        assert_eq!(
            fairy_bonuses(&r.events),
            vec![(RED, 3, FeatureKind::City)],
            "{ruleset}"
        );
        assert_eq!(r.game.scores(), &[11, 0], "{ruleset}");
    }
}

// ---------------------------------------------------------------------------------------------
// T-M1..T-M4 and MP10: the magic portal.

const T_M1: &str = "portal/t-m1-deploy-elsewhere";

/// T-M1 (RULES.md §4.4 T-M1, MP1–MP3; source 002 §The Magic Portal): after the portal tile Red
/// may put a knight into an unoccupied open city far away, but not on Blue's road (occupied) nor
/// into the completed city Q.
#[test]
fn t_m1_portal_deploys_elsewhere() {
    let game = replay_first(T_M1, 5);
    let legal = game.legal();
    assert!(legal.contains(&deploy(3, 0, "E")), "the open city");
    assert!(
        legal.contains(&deploy(4, 0, "W")),
        "the open city, other tile"
    );
    assert!(!legal.contains(&deploy(1, 0, "N")), "road R is occupied");
    assert!(!legal.contains(&deploy(0, -1, "N")), "city Q is completed");
    assert!(!legal.contains(&deploy(0, -2, "S")), "city Q is completed");
    for refused in [deploy(1, 0, "N"), deploy(0, -1, "N"), deploy(0, -2, "S")] {
        let mut probe = game.clone();
        assert!(probe.apply(&refused).is_err(), "{refused:?}");
        assert_eq!(probe.history(), game.history());
    }
    let r = replay(T_M1);
    let knight = figures(&r.game)
        .into_iter()
        .find(|f| f.0 == RED)
        .expect("Red's knight");
    assert_eq!(knight, (RED, 3, 0, FeatureKind::City));
    assert_eq!(r.game.scores(), &[2, 1]);
}

/// T-M1 with `allow_completed_unscored = true` (fixture pdf-portal-unscored.toml; §3.1 #34): the
/// toggle only concerns features the portal tile completes; city Q, completed earlier, stays
/// closed to the portal.
#[test]
fn t_m1_earlier_completed_city_stays_closed() {
    let game = replay_first_as(T_M1, &fixture("pdf-portal-unscored"), 5);
    let legal = game.legal();
    assert!(legal.contains(&deploy(3, 0, "E")));
    assert!(!legal.contains(&deploy(0, -1, "N")));
}

const T_M2: &str = "portal/t-m2-cloister";

/// T-M2 default (RULES.md §4.4 T-M2, MP3, §3.1 #34 `allow_completed_unscored = false`; source
/// 004 §The magic portal, FAQ 7/2014, fn 23): the cloister completed by the portal tile is no
/// target.
#[test]
fn t_m2_completed_cloister_is_no_portal_target() {
    let ruleset = fixture("pd-synthetic");
    let game = replay_first_as(T_M2, &ruleset, 1);
    assert!(!game.legal().contains(&deploy(0, 0, "C")));
    let (index, error) = illegal_at(&load_as(T_M2, &ruleset), "t-m2 default");
    assert_eq!(index, 2);
    assert_eq!(error.rule(), Some(RuleId("MP3")), "{error}");
}

/// T-M2 with `allow_completed_unscored = true` (fixture pdf-portal-unscored.toml; RULES.md §4.4
/// T-M2, the original HiG wording): the monk is legal and scores 9 at once.
#[test]
fn t_m2_completed_cloister_unscored_allowed() {
    let game = replay_first(T_M2, 1);
    assert!(game.legal().contains(&deploy(0, 0, "C")));
    let r = replay(T_M2);
    assert!(r.events.iter().any(|e| matches!(
        e,
        Event::FeatureCompleted {
            feature: FeatureKind::Cloister,
            tiles: 9,
            x: 0,
            y: 0
        }
    )));
    assert_eq!(paid(&r.events, RED, "§1.6 completed cloister"), vec![9]);
    assert!(r.events.iter().any(|e| matches!(
        e,
        Event::FigureReturned {
            player: RED,
            x: 0,
            y: 0,
            reason: ReturnReason::Scored,
            ..
        }
    )));
    assert_eq!(r.game.scores(), &[9, 0]);
    assert!(r.game.figures().is_empty());
}

const T_M3: &str = "portal/t-m3-enclosed-farm";

/// T-M3 (RULES.md §4.4 T-M3, MP4, §3.1 #38 `farm_always_open = true`; source 004 Q&A 1/2021):
/// a fully enclosed, unoccupied farm is a legal portal target.
#[test]
fn t_m3_enclosed_farm_is_a_portal_target() {
    let game = replay_first(T_M3, 1);
    let seg = game.seg_at(Pos::new(0, 0), spot("NL")).expect("a field");
    assert!(game.features().closed(seg), "the farm is fully enclosed");
    assert!(game.legal().contains(&deploy(0, 0, "NL")));
    let r = replay(T_M3);
    assert_eq!(figures(&r.game), vec![(RED, 0, 0, FeatureKind::Field)]);
    assert_eq!(r.game.scores(), &[0, 0]);
}

/// T-M3 with `farm_always_open = false` (fixture pdf-portal-closed-farms.toml; §3.1 #38): the
/// enclosed farm is treated as completed and refused.
#[test]
fn t_m3_enclosed_farm_closed_when_toggled() {
    let ruleset = fixture("pdf-portal-closed-farms");
    let game = replay_first_as(T_M3, &ruleset, 1);
    assert!(!game.legal().contains(&deploy(0, 0, "NL")));
    // An open farm is still fine: the portal tile's own field.
    assert!(game.legal().contains(&deploy(0, 1, "NL")));
    let (index, _) = illegal_at(&load_as(T_M3, &ruleset), "t-m3 closed farms");
    assert_eq!(index, 2);
}

const T_M4: &str = "portal/t-m4-dragon-tile";

/// T-M4 default (RULES.md §4.4 T-M4, MP6, V8, §3.1 #36 `dragon_tile_forbidden = true`): a
/// free city on the dragon's tile is no portal target; on the volcano turn itself nothing may
/// go on the volcano (V3).
#[test]
fn t_m4_dragon_tile_is_no_portal_target() {
    let ruleset = fixture("pd-synthetic");
    let volcano_turn = replay_first_as(T_M4, &ruleset, 1);
    assert_eq!(volcano_turn.legal(), vec![Action::Pass]);
    let game = replay_first_as(T_M4, &ruleset, 3);
    assert_eq!(game.dragon(), Some(Pos::new(0, -1)));
    assert!(!game.legal().contains(&deploy(0, -1, "N")));
    assert!(!deploy_options(&game).is_empty(), "other targets remain");
    let (index, _) = illegal_at(&load_as(T_M4, &ruleset), "t-m4 default");
    assert_eq!(index, 4);
}

/// T-M4 with `dragon_tile_forbidden = false` (fixture pdf-portal-dragon-tile.toml; §3.1 #36):
/// the knight may go onto the dragon's tile.
#[test]
fn t_m4_dragon_tile_allowed_when_toggled() {
    let game = replay_first(T_M4, 3);
    assert!(game.legal().contains(&deploy(0, -1, "N")));
    let r = replay(T_M4);
    assert_eq!(r.game.dragon(), Some(Pos::new(0, -1)));
    assert_eq!(figures(&r.game), vec![(BLUE, 0, -1, FeatureKind::City)]);
    assert_eq!(r.game.scores(), &[0, 1]);
}

const OWN_TILE: &str = "portal/own-tile";

/// MP10 default (RULES.md §2.5 MP10, §7 A11(b), §3.1 #37 `own_tile_base_rules = true`; base
/// rule B-F5): on the portal tile itself a knight may go on the city the tile completes; it
/// scores 4 at once.
#[test]
fn mp10_portal_tile_follows_base_rules() {
    let game = replay_first(OWN_TILE, 1);
    assert!(game.legal().contains(&deploy(0, 0, "N")));
    let r = replay(OWN_TILE);
    assert_eq!(paid(&r.events, RED, "§1.6 completed city"), vec![4]);
    assert_eq!(r.game.scores(), &[4, 0]);
}

/// MP10 with `own_tile_base_rules = false` (fixture pdf-portal-own-tile.toml; §3.1 #37): the
/// portal rules cover the portal tile too, so the city it completes is refused (MP3).
#[test]
fn mp10_portal_rules_on_the_portal_tile() {
    let ruleset = fixture("pdf-portal-own-tile");
    let game = replay_first_as(OWN_TILE, &ruleset, 1);
    assert!(!game.legal().contains(&deploy(0, 0, "N")));
    assert!(game.legal().contains(&deploy(0, 0, "EL")), "its open field");
    let (index, _) = illegal_at(&load_as(OWN_TILE, &ruleset), "own-tile");
    assert_eq!(index, 2);
}

// ---------------------------------------------------------------------------------------------
// T-C1 and T-T1: the special tiles.

const T_C1: &str = "tiles/t-c1-cloister-in-city";

/// T-C1 (RULES.md §4.5 T-C1, CC1–CC5; sources 000, 001, 002): on DG/LCcc.d a monk and a knight
/// of the same tile's city coexist; the cloister completes on its own (+9, the monk goes home)
/// while the open city keeps Blue's knight, which scores the 4-tile city at the end.
#[test]
fn t_c1_cloister_in_the_city() {
    // CC2: the tile offers its cloister, its city and its field.
    let game = replay_first(T_C1, 1);
    let legal = game.legal();
    for option in [deploy(0, 0, "C"), deploy(0, 0, "N"), deploy(0, 0, "SL")] {
        assert!(legal.contains(&option), "{option:?}");
    }
    // CC4: a knight joins the city although the monk stands on the tile.
    let game = replay_first(T_C1, 3);
    assert!(game.legal().contains(&deploy(1, 0, "E")));

    let r = replay(T_C1);
    assert_eq!(paid(&r.events, RED, "§1.6 completed cloister"), vec![9]);
    assert!(
        !r.events.iter().any(|e| matches!(
            e,
            Event::FeatureCompleted {
                feature: FeatureKind::City,
                ..
            }
        )),
        "the city stays open"
    );
    assert!(r.events.iter().any(|e| matches!(
        e,
        Event::FigureReturned {
            player: RED,
            x: 0,
            y: 0,
            reason: ReturnReason::Scored,
            ..
        }
    )));
    assert_eq!(figures(&r.game), vec![(BLUE, 1, 0, FeatureKind::City)]);
    assert_eq!(paid(&r.events, BLUE, "§1.8 incomplete city"), vec![4]);
    assert_eq!(r.game.scores(), &[9, 4]);
}

/// T-C1, portal variant (RULES.md §4.5 T-C1, MP9, CC4; source 001 §El portal mágico): with
/// Red's monk on the cloister of (0,0), Blue portals a knight into the city segment of the same
/// tile.
#[test]
fn t_c1_portal_knight_beside_the_monk() {
    let game = replay_first("tiles/t-c1-portal-knight", 3);
    assert!(game.legal().contains(&deploy(0, 0, "N")));
    assert!(
        !game.legal().contains(&deploy(0, 0, "C")),
        "the monk is there"
    );
    let r = replay("tiles/t-c1-portal-knight");
    assert_eq!(
        figures(&r.game),
        vec![
            (RED, 0, 0, FeatureKind::Cloister),
            (BLUE, 0, 0, FeatureKind::City)
        ]
    );
    assert_eq!(r.game.scores(), &[6, 1]);
}

/// T-T1 (RULES.md §4.5 T-T1, TU1, TU2; sources 000, 001 "no corta ni completa el camino", 002):
/// the road under the tunnel of DG/CRcr.d is one road: not ended by the tunnel, completed by both
/// ends, 1 point per tile with the tunnel tile counted once; its north and south fields stay
/// separate (tile data).
#[test]
fn t_t1_tunnel_road_is_one_road() {
    let game = replay_first("tiles/t-t1-tunnel", 2);
    let road = game.seg_at(Pos::new(0, 0), spot("N")).expect("the road");
    let south = game.seg_at(Pos::new(0, 0), spot("S")).expect("the road");
    assert!(game.features().same(road, south), "one road N-S");
    assert!(!game.features().closed(road), "the tunnel does not end it");
    let north_field = game.seg_at(Pos::new(0, 0), spot("NL")).expect("a field");
    let south_field = game.seg_at(Pos::new(0, 0), spot("SL")).expect("a field");
    assert!(!game.features().same(north_field, south_field));

    let r = replay("tiles/t-t1-tunnel");
    let completed: Vec<u32> = r
        .events
        .iter()
        .filter_map(|e| match e {
            Event::FeatureCompleted {
                feature: FeatureKind::Road,
                tiles,
                ..
            } => Some(*tiles),
            _ => None,
        })
        .collect();
    assert_eq!(completed, vec![3]);
    assert_eq!(paid(&r.events, RED, "§1.6 completed road"), vec![3]);
    assert_eq!(r.game.scores(), &[3, 0]);
}

/// FA2: the fairy's moves answer the deployment, so only the base game's deployment lists the
/// fairy's part (`Shortcuts::adds_to`, `Shortcuts::adds_at`); the dragon's steps and the princess's decision ask it
/// nothing (their answers are theirs alone). A move is routed to the fairy alone, a pass or a
/// deployment to the asking mechanic alone.
#[test]
fn fa2_the_fairy_adds_its_moves_to_the_deployment_only() {
    let rules = castellan::data::ruleset::Ruleset::load("hig").expect("hig loads");
    let mechanics = castellan::registry::mechanics(&rules);
    let index = |name| mechanics.index_of(name).expect(name);
    let names = |by, kind| -> Vec<&str> {
        let asked = castellan::engine::mechanic::Asked { by, kind };
        mechanics.listing(asked).map(|m| m.name()).collect()
    };
    let (place, deploy) = (
        castellan::mechanic::base::PLACE,
        castellan::mechanic::base::DEPLOY,
    );
    let answering = |owner, action: &Action| -> Vec<&str> {
        mechanics
            .answerers(owner, action)
            .map(|m| m.name())
            .collect()
    };
    let step = Action::from(PdAction::Dragon {
        pos: Pos::new(0, 1),
    });
    let moved = fairy_to(0, 1, "N");
    assert_eq!(names(index("base"), deploy), ["base", "fairy"]);
    // Tile laying lists the base game's placements alone: the fairy is not asked there.
    assert_eq!(names(index("base"), place), ["base"]);
    assert_eq!(answering(index("base"), &moved), ["fairy"]);
    assert_eq!(answering(index("base"), &Action::Pass), ["base"]);
    assert_eq!(answering(index("dragon"), &step), ["dragon"]);
    for owner in ["dragon", "princess", "fairy"] {
        assert_eq!(names(index(owner), 0), [owner], "{owner}");
        assert_eq!(answering(index(owner), &moved), [owner], "{owner}");
    }
}
