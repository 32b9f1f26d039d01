//! The Princess & the Dragon: the volcano, the dragon and the princess (RULES.md §2.2–§2.4,
//! §2.6; scenarios T-D1..T-D5 of §4.1 and T-P1..T-P3 of §4.3), replayed from the game records
//! in `tests/records/pd/dragon/` and `tests/records/pd/princess/`.
//!
//! Records cannot hold expectations, so each record's header comment states the scenario and
//! what it expects, and the tests here check it: scores, the dragon's position, the figures on
//! the board and in supply, the events, and the legal options at chosen points (a record is
//! traced action by action, or replayed only up to a point). Illegal actions are checked to be
//! refused with the game left exactly as it was.
//!
//! Coordinates are the engine's: x grows east, y grows south. RULES.md §4 draws y growing
//! north, so its "up" (0,1) is (0,-1) here. Toggle variants use the small rulesets
//! `tests/fixtures/pd-*.toml`, which extend `pd-synthetic.toml` (HiG defaults plus the
//! synthetic tiles) and change one key.

use castellan::data::library::Source;
use castellan::data::ruleset::Ruleset;
use castellan::engine::action::{Action, Decision, DecisionKind};
use castellan::engine::event::{Event, ReturnReason};
use castellan::engine::game::{Game, RuleError};
use castellan::engine::refusal::RuleId;
use castellan::mechanic::pd::rules::PdRules;
use castellan::mechanic::pd::vocabulary::{EATEN, PRINCESS};
use castellan::mechanic::pd::vocabulary::{PdAction, PdDecision, PdEvent};
use castellan::model::figure::FigureKind;
use castellan::model::geometry::{Pos, Rotation, Spot};
use castellan::model::tile::FeatureKind;
use castellan::record::{self, Record, RecordError, Replay};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

mod common;
use common::journey_steps;

// ---------------------------------------------------------------------------------------------
// Loading and replaying.

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `name` is `dragon/…` or `princess/…` without `.toml`.
fn record_path(name: &str) -> PathBuf {
    root().join(format!("tests/records/pd/{name}.toml"))
}

fn load(name: &str) -> Record {
    Record::load(&record_path(name)).unwrap_or_else(|d| panic!("{name}: {d}"))
}

fn run(record: &Record, name: &str) -> Replay {
    record
        .replay()
        .unwrap_or_else(|e| panic!("{name}: {}", e.diagnostic()))
}

fn replay(name: &str) -> Replay {
    run(&load(name), name)
}

/// The record replayed up to (not including) action number `n` (0-based count of actions
/// kept): the game waits for that action.
fn replay_first(name: &str, n: usize) -> Replay {
    let mut record = load(name);
    assert!(
        n <= record.actions.len(),
        "{name} has fewer than {n} actions"
    );
    record.actions.truncate(n);
    run(&record, name)
}

/// The record played under another fixture ruleset (same tile list, one toggle changed).
fn under(name: &str, fixture: &str) -> Record {
    let mut record = load(name);
    let path = root().join("tests/fixtures").join(fixture);
    record.rules = Ruleset::load(path.to_str().expect("utf-8 path"))
        .unwrap_or_else(|d| panic!("{fixture}: {d}"));
    record
}

/// One decision of a traced game: who had to choose what, the legal answers, the answer.
#[derive(Debug)]
struct Point {
    decision: Decision,
    legal: Vec<Action>,
    chosen: Action,
    dragon: Option<Pos>,
}

/// Replays a record action by action, noting every decision on the way.
fn trace(record: &Record) -> (Vec<Point>, Game, Vec<Event>) {
    let (mut game, mut events) =
        Game::new(record.rules.clone(), record.setup.clone()).expect("set-up");
    let mut points = Vec::new();
    for (i, (action, _)) in record.actions.iter().enumerate() {
        points.push(Point {
            decision: game.decision(),
            legal: game.legal(),
            chosen: *action,
            dragon: game.dragon(),
        });
        let more = game
            .apply(action)
            .unwrap_or_else(|e| panic!("action {} ({action:?}) refused: {e}", i + 1));
        events.extend(more);
    }
    (points, game, events)
}

/// The dragon-step decisions of a trace: (step, mover, options, destination).
fn steps(points: &[Point]) -> Vec<(u32, usize, HashSet<Pos>, Pos)> {
    points
        .iter()
        .filter_map(
            |p| match (PdDecision::of(&p.decision.kind), PdAction::of(&p.chosen)) {
                (Some(PdDecision::DragonStep { step }), Some(PdAction::Dragon { pos })) => {
                    let options = p
                        .legal
                        .iter()
                        .map(|a| match PdAction::of(a) {
                            Some(PdAction::Dragon { pos }) => pos,
                            other => panic!("{other:?} offered at a dragon step"),
                        })
                        .collect();
                    Some((step, p.decision.player, options, pos))
                }
                _ => None,
            },
        )
        .collect()
}

/// Plays a game to its end: `pass` where it is allowed, otherwise the first legal action.
/// Calls `each` after every action. Returns the events.
fn play_out(game: &mut Game, mut each: impl FnMut(&Game, &[Event])) -> Vec<Event> {
    let mut all = Vec::new();
    for _ in 0..10_000 {
        if game.is_over() {
            return all;
        }
        let legal = game.legal();
        let action = if legal.contains(&Action::Pass) {
            Action::Pass
        } else {
            legal[0]
        };
        let events = game.apply(&action).expect("a legal action");
        each(game, &events);
        all.extend(events);
    }
    panic!("the game did not end");
}

// ---------------------------------------------------------------------------------------------
// Building actions and reading the state.

fn at(x: i32, y: i32) -> Pos {
    Pos::new(x, y)
}

fn spot(name: &str) -> Spot {
    Spot::parse(name).unwrap_or_else(|| panic!("bad spot {name}"))
}

fn dragon_to(x: i32, y: i32) -> Action {
    Action::from(PdAction::Dragon { pos: at(x, y) })
}

fn deploy(x: i32, y: i32, s: &str) -> Action {
    Action::Deploy {
        pos: at(x, y),
        spot: spot(s),
        figure: FigureKind::Follower,
    }
}

fn fairy(x: i32, y: i32, s: &str) -> Action {
    Action::from(PdAction::Fairy {
        pos: at(x, y),
        spot: Some(spot(s)),
    })
}

fn remove(x: i32, y: i32, s: &str) -> Action {
    Action::from(PdAction::Remove {
        pos: at(x, y),
        spot: spot(s),
    })
}

fn set<T: std::hash::Hash + Eq>(items: impl IntoIterator<Item = T>) -> HashSet<T> {
    items.into_iter().collect()
}

fn positions(list: &[(i32, i32)]) -> HashSet<Pos> {
    list.iter().map(|&(x, y)| at(x, y)).collect()
}

/// Figures on the board as (owner, tile, spot name).
fn figures(game: &Game) -> HashSet<(usize, Pos, &'static str)> {
    game.figures()
        .iter()
        .map(|f| {
            let (pos, s) = game.figure_spot(f);
            (f.owner, pos, s.name())
        })
        .collect()
}

fn supply(game: &Game, player: usize) -> u8 {
    game.supply(player, FigureKind::Follower)
}

/// Every flight to a volcano as (mover, destination).
fn flights(events: &[Event]) -> Vec<(usize, Pos)> {
    events
        .iter()
        .filter_map(|e| match PdEvent::of(e) {
            Some(PdEvent::DragonMoved {
                player,
                x,
                y,
                step: 0,
            }) => Some((player, at(x, y))),
            _ => None,
        })
        .collect()
}

fn journey_ends(events: &[Event]) -> Vec<(u32, &'static str)> {
    events
        .iter()
        .filter_map(|e| match PdEvent::of(e) {
            Some(PdEvent::JourneyEnded { steps, reason }) => Some((steps, reason)),
            _ => None,
        })
        .collect()
}

/// Every figure sent home for `why`, as (owner, tile).
fn returned(events: &[Event], why: ReturnReason) -> Vec<(usize, Pos)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::FigureReturned {
                player,
                x,
                y,
                reason,
                ..
            } if *reason == why => Some((*player, at(*x, *y))),
            _ => None,
        })
        .collect()
}

/// Every score as (player, points, feature, rule).
fn scored(events: &[Event]) -> Vec<(usize, u32, FeatureKind, &'static str)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Scored {
                player,
                points,
                feature,
                rule,
                ..
            } => Some((*player, *points, *feature, *rule)),
            _ => None,
        })
        .collect()
}

fn position_of(events: &[Event], wanted: impl Fn(&Event) -> bool) -> usize {
    events
        .iter()
        .position(wanted)
        .expect("the event is in the log")
}

/// Applies an action that must be refused; checks that nothing at all changed.
fn refused(game: &mut Game, action: Action) -> RuleError {
    let saved = record::write(game, "x");
    let decision = game.decision();
    let legal = game.legal();
    let scores = game.scores().to_vec();
    let on_board = figures(game);
    let (dragon, fairy_at, left) = (game.dragon(), game.fairy(), game.tiles_left());
    let err = match game.apply(&action) {
        Ok(events) => panic!("{action:?} was accepted: {events:?}"),
        Err(e) => e,
    };
    assert_eq!(record::write(game, "x"), saved, "{action:?}");
    assert_eq!(game.decision(), decision, "{action:?}");
    assert_eq!(game.legal(), legal, "{action:?}");
    assert_eq!(game.scores(), &scores[..], "{action:?}");
    assert_eq!(figures(game), on_board, "{action:?}");
    assert_eq!(game.dragon(), dragon, "{action:?}");
    assert_eq!(game.fairy(), fairy_at, "{action:?}");
    assert_eq!(game.tiles_left(), left, "{action:?}");
    err
}

/// A refusal of an action of the right kind that `rule` forbids (not a wrong decision).
fn forbidden(game: &mut Game, action: Action, rule: &'static str) {
    let err = refused(game, action);
    assert_eq!(err.rule(), Some(RuleId(rule)), "{action:?}: {err:?}");
}

fn all_records() -> Vec<String> {
    let mut names = Vec::new();
    for dir in ["dragon", "princess"] {
        let path = root().join("tests/records/pd").join(dir);
        for entry in std::fs::read_dir(&path).expect("records folder") {
            let file = entry.expect("entry").path();
            if file.extension().is_some_and(|e| e == "toml") {
                let stem = file.file_stem().expect("stem").to_string_lossy();
                names.push(format!("{dir}/{stem}"));
            }
        }
    }
    names.sort();
    names
}

// Seats of the two-player records.
const RED: usize = 0;
const BLUE: usize = 1;

// ---------------------------------------------------------------------------------------------
// Every record.

/// All records replay without an illegal action, and their fixtures load.
#[test]
fn every_record_replays() {
    let names = all_records();
    assert!(names.len() >= 20, "{names:?}");
    for name in names {
        replay(&name);
    }
}

/// D5 on every journey of every record (RULES.md §2.4 D5, seeds 000/001 "horizontally or
/// vertically adjacent", 004): each offered step is an orthogonal neighbour of the dragon that
/// holds a tile (never diagonal, never an empty position) and is not visited on this journey
/// (the start tile included unless `start_tile_visited = false`); each step is its own
/// decision made by the mover the rules name.
#[test]
fn d5_every_offered_step_is_orthogonal_placed_and_new() {
    for name in all_records() {
        let record = load(&name);
        let (points, _, _) = trace(&record);
        let start_visited = PdRules::of(&record.rules).dragon.start_tile_visited;
        let mut visited: Vec<Pos> = Vec::new();
        for p in &points {
            let Some(PdDecision::DragonStep { step }) = PdDecision::of(&p.decision.kind) else {
                continue;
            };
            let from = p
                .dragon
                .expect("the dragon is on the board during a journey");
            if step == 1 {
                visited.clear();
                if start_visited {
                    visited.push(from);
                }
            }
            assert!(
                !p.legal.is_empty(),
                "{name}: a step decision without options"
            );
            for a in &p.legal {
                let Some(PdAction::Dragon { pos }) = PdAction::of(a) else {
                    panic!("{name}: {a:?} offered at a dragon step");
                };
                let d = (pos.x - from.x).abs() + (pos.y - from.y).abs();
                assert_eq!(d, 1, "{name}: step {step} offers {pos} from {from}");
                assert!(!visited.contains(&pos), "{name}: {pos} visited already");
            }
            if let Some(PdAction::Dragon { pos }) = PdAction::of(&p.chosen) {
                visited.push(pos);
            }
        }
    }
}

/// V8 (RULES.md §2.2, seed 004 §Volcano: "at no point may followers occupy the same tile as
/// the dragon"), checked after every action of every record. The house rule that lets the
/// dragon walk onto the fairy's tile (T-D2 variant) is the one exception, by design.
#[test]
fn v8_no_follower_ever_shares_the_dragons_tile() {
    for name in all_records() {
        if name.contains("house-fairy-shield") {
            continue;
        }
        let record = load(&name);
        let (mut game, _) = Game::new(record.rules.clone(), record.setup.clone()).expect("set-up");
        let check = |game: &Game, when: &str| {
            if let Some(d) = game.dragon() {
                for f in game.figures() {
                    assert_ne!(game.figure_spot(f).0, d, "{name}: {when}");
                }
            }
        };
        for (i, (action, _)) in record.actions.iter().enumerate() {
            game.apply(action).expect("legal");
            check(&game, &format!("after action {}", i + 1));
        }
    }
}

/// D5: the options offered name placed tiles only (an empty position is never a step).
#[test]
fn d5_options_are_placed_tiles() {
    for name in all_records() {
        let record = load(&name);
        let (mut game, _) = Game::new(record.rules.clone(), record.setup.clone()).expect("set-up");
        for (action, _) in &record.actions {
            if let Some(PdDecision::DragonStep { .. }) = PdDecision::of(&game.decision().kind) {
                for a in game.legal() {
                    if let Some(PdAction::Dragon { pos }) = PdAction::of(&a) {
                        assert!(game.board().at(pos).is_some(), "{name}: {pos} is empty");
                    }
                }
            }
            game.apply(action).expect("legal");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// T-D1: the 4-player journey.

const ANNA: usize = 0;
const BOB: usize = 1;
const CHRIS: usize = 2;
const DAVID: usize = 3;

/// T-D1 (RULES.md §4.1; seeds 000 §The Dragon example, 001 §Ejemplo, 002 §1b): the options
/// at each of the six steps, who moves (D4: A, B, C, D, A, B), who is eaten (D7), where the
/// dragon stops (D9).
#[test]
fn t_d1_journey_step_by_step() {
    let name = "dragon/t-d1-journey";
    let (points, game, events) = trace(&load(name));
    let expected = [
        (1, ANNA, positions(&[(0, -1), (1, 0), (-1, 0)]), at(0, -1)),
        (2, BOB, positions(&[(0, -2), (-1, -1)]), at(-1, -1)),
        (
            3,
            CHRIS,
            positions(&[(-1, -2), (-1, 0), (-2, -1)]),
            at(-1, 0),
        ),
        (4, DAVID, positions(&[(-2, 0)]), at(-2, 0)),
        (5, ANNA, positions(&[(-2, -1)]), at(-2, -1)),
        (6, BOB, positions(&[(-2, -2)]), at(-2, -2)),
    ];
    assert_eq!(steps(&points), expected);
    assert_eq!(
        journey_steps(&events),
        vec![
            (1, ANNA, at(0, -1)),
            (2, BOB, at(-1, -1)),
            (3, CHRIS, at(-1, 0)),
            (4, DAVID, at(-2, 0)),
            (5, ANNA, at(-2, -1)),
            (6, BOB, at(-2, -2)),
        ]
    );
    assert_eq!(journey_ends(&events), vec![(6, "steps_done")]);
    assert_eq!(
        returned(&events, EATEN),
        vec![(BOB, at(-1, -1)), (ANNA, at(-2, 0))]
    );
    assert_eq!(game.dragon(), Some(at(-2, -2)));
    assert_eq!(figures(&game), set([(CHRIS, at(-1, -2), "C")]));
    assert_eq!(
        [ANNA, BOB, CHRIS, DAVID].map(|p| supply(&game, p)),
        [7, 7, 6, 7]
    );
    assert_eq!(game.scores(), &[0, 0, 0, 0]);
    assert!(scored(&events).is_empty());
    // The volcano brought the dragon in without a journey (V2, V5).
    assert_eq!(flights(&events), vec![(DAVID, at(0, 0))]);
    // After six steps there is no seventh decision: Bob's turn goes on with his tile.
    let d = game.decision();
    assert_eq!(d.player, BOB);
    assert!(matches!(d.kind, DecisionKind::PlaceTile { .. }), "{d:?}");
}

/// T-D1b (RULES.md §4.1, `pd.dragon.start_tile_visited = false`, §3.1 #8): the start tile
/// (0,0) is a legal step again, so step 4 offers {left, right}; the record takes it, then the
/// dragon tile, and the journey dead-ends after 5 steps without asking Bob.
#[test]
fn t_d1b_start_tile_not_visited() {
    let name = "dragon/t-d1b-start-not-visited";
    let (points, game, events) = trace(&load(name));
    let s = steps(&points);
    assert_eq!(s.len(), 5);
    // Step 2 already sees the start tile again (RULES.md only lists step 4).
    assert_eq!(s[1].2, positions(&[(0, -2), (0, 0), (-1, -1)]));
    assert_eq!((s[3].0, s[3].1), (4, DAVID));
    assert_eq!(s[3].2, positions(&[(-2, 0), (0, 0)]));
    assert_eq!((s[4].0, s[4].1, &s[4].2), (5, ANNA, &positions(&[(1, 0)])));
    assert_eq!(journey_ends(&events), vec![(5, "dead_end")]);
    assert_eq!(game.dragon(), Some(at(1, 0)));
    assert_eq!(returned(&events, EATEN), vec![(BOB, at(-1, -1))]);
    assert_eq!(
        figures(&game),
        set([(ANNA, at(-2, 0), "C"), (CHRIS, at(-1, -2), "C")])
    );
    assert!(matches!(
        game.decision().kind,
        DecisionKind::PlaceTile { .. }
    ));
    assert_eq!(game.decision().player, BOB);
}

/// D5(a) and D4: illegal steps at T-D1 step 2 are refused and change nothing: the visited
/// start tile, a diagonal tile, an empty position, a far tile; a pass or a deployment is
/// the wrong kind of answer (the mover must move).
#[test]
fn illegal_dragon_steps_are_refused() {
    // 11 actions: the four set-up turns (8), the dragon tile, the pass and step 1.
    let mut game = replay_first("dragon/t-d1-journey", 11).game;
    assert_eq!(
        game.decision(),
        Decision {
            player: BOB,
            kind: DecisionKind::from(PdDecision::DragonStep { step: 2 })
        }
    );
    assert_eq!(game.dragon(), Some(at(0, -1)));
    forbidden(&mut game, dragon_to(0, 0), "D5"); // the start tile, visited
    forbidden(&mut game, dragon_to(-1, 0), "D5"); // diagonal
    forbidden(&mut game, dragon_to(1, -1), "D5"); // empty, orthogonal
    forbidden(&mut game, dragon_to(-2, -2), "D5"); // placed, far away
    forbidden(&mut game, dragon_to(0, -1), "D5"); // where it stands
    let err = refused(&mut game, Action::Pass);
    assert!(matches!(err, RuleError::WrongDecision(_)), "{err:?}");
    let err = refused(&mut game, deploy(0, -2, "C"));
    assert!(matches!(err, RuleError::WrongDecision(_)), "{err:?}");
    // A legal step is then accepted.
    game.apply(&dragon_to(-1, -1)).expect("legal step");
    assert_eq!(game.dragon(), Some(at(-1, -1)));
    // Step 3: the tile just left is visited too.
    forbidden(&mut game, dragon_to(0, -1), "D5");
}

// ---------------------------------------------------------------------------------------------
// T-D2: the fairy bars a tile.

/// T-D2 (RULES.md §4.1; seed 002 §Fairy picture; D5(b), FA6): the fairy's tile is never an
/// option; Red's knight next to the fairy is not eaten.
#[test]
fn t_d2_fairy_bars_its_tile() {
    let name = "dragon/t-d2-fairy-bars";
    let (points, game, events) = trace(&load(name));
    assert_eq!(
        steps(&points),
        vec![
            (1, BLUE, positions(&[(0, -1)]), at(0, -1)),
            (2, RED, positions(&[(0, -2), (-1, -1)]), at(-1, -1)),
        ]
    );
    // From (-1,-1) the only unvisited neighbour is the fairy's tile: dead end.
    assert_eq!(journey_ends(&events), vec![(2, "dead_end")]);
    assert!(returned(&events, EATEN).is_empty());
    assert_eq!(game.dragon(), Some(at(-1, -1)));
    assert_eq!(figures(&game), set([(RED, at(-1, 0), "W")]));
    let f = game.fairy().expect("the fairy is on the board");
    assert_eq!(f.pos, at(-1, 0));
    assert_eq!(f.follower, Some(game.figures()[0].id));
    // The fairy's turn point at the start of Red's next turn (FA7).
    assert_eq!(game.scores(), &[1, 0]);

    // Stepping onto the fairy's tile is refused.
    let mut at_step_1 = replay_first(name, 8).game;
    assert_eq!(
        at_step_1.decision().kind,
        DecisionKind::from(PdDecision::DragonStep { step: 1 })
    );
    forbidden(&mut at_step_1, dragon_to(-1, 0), "D5");
}

/// T-D2 house variant (RULES.md §4.1; seed 004 §House Rules 4th bullet;
/// rulesets/house-fairy-shield.toml: `blocks_dragon = false`, `protects_tile = true`): the
/// fairy's tile is an option; the dragon enters it and eats nothing.
#[test]
fn t_d2_house_fairy_shield_enters_but_eats_nothing() {
    let name = "dragon/t-d2-house-fairy-shield";
    let record = load(name);
    assert!(!PdRules::of(&record.rules).fairy.blocks_dragon);
    assert!(PdRules::of(&record.rules).fairy.protects_tile);
    let (points, game, events) = trace(&record);
    let s = steps(&points);
    assert_eq!(s[0], (1, BLUE, positions(&[(0, -1), (-1, 0)]), at(-1, 0)));
    assert_eq!(
        journey_steps(&events),
        vec![
            (1, BLUE, at(-1, 0)),
            (2, RED, at(-1, -1)),
            (3, BLUE, at(0, -1)),
            (4, RED, at(0, -2)),
        ]
    );
    assert_eq!(journey_ends(&events), vec![(4, "dead_end")]);
    assert!(returned(&events, EATEN).is_empty());
    assert_eq!(figures(&game), set([(RED, at(-1, 0), "W")]));
    assert_eq!(game.fairy().map(|f| f.pos), Some(at(-1, 0)));
    assert_eq!(game.dragon(), Some(at(0, -2)));
}

// ---------------------------------------------------------------------------------------------
// T-D3: dead end and the three timings.

/// The journey of T-D3, the same in every timing: step 1 Blue {(1,0)}, step 2 Red
/// {(0,0), (2,0)}, dead end after 2 steps; the dragon on (0,0).
fn t_d3_journey(points: &[Point], game: &Game, events: &[Event]) {
    assert_eq!(
        steps(points),
        vec![
            (1, BLUE, positions(&[(1, 0)]), at(1, 0)),
            (2, RED, positions(&[(0, 0), (2, 0)]), at(0, 0)),
        ]
    );
    assert_eq!(journey_ends(events), vec![(2, "dead_end")]);
    assert_eq!(game.dragon(), Some(at(0, 0)));
    assert!(game.is_over());
    assert!(game.figures().is_empty());
    assert_eq!([supply(game, RED), supply(game, BLUE)], [7, 7]);
}

/// T-D3 with `timing = "before_scoring"` (default; RULES.md §4.1, seed 004 fn 12): the thief
/// is eaten at step 1, then the completed road scores for nobody: Red 0.
#[test]
fn t_d3_before_scoring_thief_eaten_red_0() {
    let (points, game, events) = trace(&load("dragon/t-d3-before-scoring"));
    t_d3_journey(&points, &game, &events);
    assert_eq!(returned(&events, EATEN), vec![(RED, at(1, 0))]);
    assert!(scored(&events).is_empty());
    assert_eq!(game.scores(), &[0, 0]);
    // Order: deploy decision (Blue passes), journey, then the road is completed.
    let kinds: Vec<DecisionKind> = points.iter().map(|p| p.decision.kind).collect();
    let n = kinds.len();
    assert_eq!(kinds[n - 3], DecisionKind::Deploy);
    assert_eq!(
        kinds[n - 2],
        DecisionKind::from(PdDecision::DragonStep { step: 1 })
    );
    let end = position_of(&events, |e| {
        matches!(PdEvent::of(e), Some(PdEvent::JourneyEnded { .. }))
    });
    let done = position_of(&events, |e| {
        matches!(
            e,
            Event::FeatureCompleted {
                feature: FeatureKind::Road,
                tiles: 3,
                ..
            }
        )
    });
    assert!(end < done);
}

/// T-D3 with `timing = "after_tile"` (RULES.md §3.1 #5, D2): the journey comes right after
/// the tile, before the deploy decision; same outcome as before_scoring: Red 0.
#[test]
fn t_d3_after_tile_thief_eaten_red_0() {
    let record = load("dragon/t-d3-after-tile");
    let (points, game, events) = trace(&record);
    t_d3_journey(&points, &game, &events);
    assert_eq!(returned(&events, EATEN), vec![(RED, at(1, 0))]);
    assert!(scored(&events).is_empty());
    assert_eq!(game.scores(), &[0, 0]);
    let kinds: Vec<DecisionKind> = points.iter().map(|p| p.decision.kind).collect();
    let n = kinds.len();
    assert!(matches!(kinds[n - 4], DecisionKind::PlaceTile { .. }));
    assert_eq!(
        kinds[n - 3],
        DecisionKind::from(PdDecision::DragonStep { step: 1 })
    );
    assert_eq!(
        kinds[n - 2],
        DecisionKind::from(PdDecision::DragonStep { step: 2 })
    );
    assert_eq!(kinds[n - 1], DecisionKind::Deploy);
    // A deployment before the journey is the wrong kind of answer here.
    let mut game = replay_first("dragon/t-d3-after-tile", 7).game;
    assert_eq!(
        game.decision().kind,
        DecisionKind::from(PdDecision::DragonStep { step: 1 })
    );
    let err = refused(&mut game, deploy(2, 0, "W"));
    assert!(matches!(err, RuleError::WrongDecision(_)), "{err:?}");
}

/// T-D3 with `timing = "after_scoring"` (RULES.md §4.1; RGG Big Box section text, seed 004
/// fn 12): the road is scored first (Red +3, thief home), the journey eats nothing: Red 3.
#[test]
fn t_d3_after_scoring_road_scored_red_3() {
    let (points, game, events) = trace(&load("dragon/t-d3-after-scoring"));
    t_d3_journey(&points, &game, &events);
    assert!(returned(&events, EATEN).is_empty());
    assert_eq!(
        returned(&events, ReturnReason::Scored),
        vec![(RED, at(1, 0))]
    );
    assert_eq!(
        scored(&events),
        vec![(RED, 3, FeatureKind::Road, "§1.6 completed road")]
    );
    assert_eq!(game.scores(), &[3, 0]);
    let paid = position_of(&events, |e| matches!(e, Event::Scored { .. }));
    let first = position_of(&events, |e| {
        matches!(PdEvent::of(e), Some(PdEvent::DragonMoved { step: 1, .. }))
    });
    assert!(paid < first);
}

// ---------------------------------------------------------------------------------------------
// T-D4 and D0: dragon tiles before the first volcano.

fn tile_drawn(e: &Event, id: &str) -> bool {
    matches!(e, Event::TileDrawn { tile, .. } if &**tile == id)
}

/// T-D4 (RULES.md §4.1; seeds 000 §Note, 002 §Important, 004 §Note; D0.1, D0.2, V6): the
/// dragon tile drawn first is set aside and a replacement drawn; the first volcano brings it
/// back into the bag (3 tiles left, none set aside), with no journey on the volcano turn.
#[test]
fn t_d4_set_aside_until_the_first_volcano() {
    let name = "dragon/t-d4-set-aside";
    let turn1 = replay_first(name, 1);
    assert_eq!(
        turn1
            .events
            .iter()
            .filter(|e| matches!(PdEvent::of(e), Some(PdEvent::TileSetAside { .. })))
            .count(),
        1
    );
    let aside = position_of(
        &turn1.events,
        |e| matches!(PdEvent::of(e), Some(PdEvent::TileSetAside { player: 0, tile }) if &*tile == "SY/FIELD.d"),
    );
    let plain = position_of(&turn1.events, |e| tile_drawn(e, "SY/FIELD"));
    assert!(aside < plain);
    assert_eq!(turn1.game.set_aside(), 1);
    assert_eq!(turn1.game.tiles_left(), 3);
    assert_eq!(turn1.game.dragon(), None);

    let Replay { mut game, events } = replay(name);
    assert_eq!(flights(&events), vec![(1, at(0, 2))]);
    assert!(events.contains(&Event::from(PdEvent::TilesReshuffled { count: 1 })));
    assert_eq!(game.set_aside(), 0);
    assert_eq!(game.tiles_left(), 3);
    assert!(journey_ends(&events).is_empty());
    // B's deploy decision on the volcano: nothing may go on it, no fairy target: pass only.
    assert_eq!(game.decision().kind, DecisionKind::Deploy);
    assert_eq!(game.legal(), vec![Action::Pass]);

    // The rest of the game: the set-aside tile is drawn exactly once, placed, and sends the
    // dragon on a journey; no tile is set aside any more.
    let rest = play_out(&mut game, |g, _| assert_eq!(g.set_aside(), 0));
    assert_eq!(
        rest.iter().filter(|e| tile_drawn(e, "SY/FIELD.d")).count(),
        1
    );
    assert!(
        !rest
            .iter()
            .any(|e| matches!(PdEvent::of(e), Some(PdEvent::TileSetAside { .. })))
    );
    assert_eq!(journey_ends(&rest).len(), 1);
    assert_eq!(game.tiles_left(), 0);
}

/// T-D4 under several seeds: wherever the reshuffle puts the dragon tile, it comes back once.
#[test]
fn t_d4_reshuffled_tile_comes_back_under_any_seed() {
    for seed in 0..16 {
        let mut record = load("dragon/t-d4-set-aside");
        record.setup.seed = seed;
        let Replay { mut game, .. } = run(&record, "t-d4-set-aside");
        assert_eq!(game.tiles_left(), 3, "seed {seed}");
        let rest = play_out(&mut game, |_, _| {});
        assert_eq!(
            rest.iter().filter(|e| tile_drawn(e, "SY/FIELD.d")).count(),
            1,
            "seed {seed}"
        );
    }
}

/// T-D4 house variant (RULES.md §4.1; seed 004 §House Rules; rulesets/house-redraw-dragon.toml,
/// `pre_volcano = "return_and_redraw"`): a dragon tile drawn before the volcano goes back into
/// the bag and the player draws again; nothing is ever set aside; after the volcano the tile is
/// drawn and placed.
#[test]
fn t_d4_house_return_and_redraw() {
    for seed in 0..16 {
        let mut record = load("dragon/t-d4-house-redraw");
        record.setup.seed = seed;
        let Replay { mut game, events } = run(&record, "t-d4-house-redraw");
        let back = events
            .iter()
            .filter(
                |e| matches!(PdEvent::of(e), Some(PdEvent::TileReturned { player: 0, tile }) if &*tile == "SY/FIELD.d"),
            )
            .count();
        assert!(back >= 1, "seed {seed}");
        assert!(
            !events
                .iter()
                .any(|e| matches!(PdEvent::of(e), Some(PdEvent::TileSetAside { .. })))
        );
        assert_eq!(game.set_aside(), 0, "seed {seed}");
        // Turn 1 drew the dragon tile (back into the bag) and Plain1: 4 tiles are left, or 3
        // if turn 2 has drawn already.
        let mut all = events.clone();
        all.extend(play_out(&mut game, |g, _| assert_eq!(g.set_aside(), 0)));
        let volcano = position_of(&all, |e| {
            matches!(PdEvent::of(e), Some(PdEvent::DragonMoved { step: 0, .. }))
        });
        let drawn: Vec<usize> = all
            .iter()
            .enumerate()
            .filter(|(_, e)| tile_drawn(e, "SY/FIELD.d"))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(drawn.len(), 1, "seed {seed}");
        assert!(drawn[0] > volcano, "seed {seed}");
        let last_return = all
            .iter()
            .rposition(|e| matches!(PdEvent::of(e), Some(PdEvent::TileReturned { .. })))
            .expect("returned");
        assert!(last_return < volcano, "seed {seed}");
        assert!(
            !all.iter()
                .any(|e| matches!(PdEvent::of(e), Some(PdEvent::TilesReshuffled { .. })))
        );
    }
    let turn1 = replay("dragon/t-d4-house-redraw");
    let placed = position_of(&turn1.events, |e| matches!(e, Event::TilePlaced { .. }));
    let after: Vec<&Event> = turn1.events[..placed].iter().collect();
    assert!(
        after
            .iter()
            .any(|e| matches!(PdEvent::of(e), Some(PdEvent::TileReturned { .. })))
    );
    let first_plain = position_of(&turn1.events, |e| tile_drawn(e, "SY/FIELD"));
    assert!(first_plain < placed);
    let fresh = replay_first("dragon/t-d4-house-redraw", 1);
    assert_eq!(fresh.game.tiles_left(), 4);
    assert_eq!(fresh.game.set_aside(), 0);
}

/// D0.3 (RULES.md §2.3, `set_aside_at_end = "discard"`, engine default): no volcano ever
/// came, the bag is empty, the game ends with the dragon tile still set aside.
#[test]
fn d0_set_aside_tile_stays_out_when_no_volcano_comes() {
    let Replay { game, events } = replay("dragon/d0-no-volcano");
    assert!(game.is_over());
    assert_eq!(game.set_aside(), 1);
    assert_eq!(game.tiles_left(), 0);
    assert_eq!(game.dragon(), None);
    assert!(events.iter().any(|e| matches!(e, Event::GameEnded { .. })));
    assert!(journey_steps(&events).is_empty());
}

// ---------------------------------------------------------------------------------------------
// T-D5: the volcano turn.

/// Actions of t-d5-volcano-turn.toml up to Red's volcano placement (the deploy decision).
const T_D5_AT_DEPLOY: usize = 9;

/// T-D5 (RULES.md §4.1; seeds 002 §The Volcano, 004 §The volcano, fn 9; V2, V3, V4, V5, V7):
/// the dragon flies from X to the new volcano; nothing is eaten; Red may deploy nothing on the
/// volcano (not even on its free field) but may move the fairy; the completed city is scored;
/// there is no journey.
#[test]
fn t_d5_volcano_turn() {
    let name = "dragon/t-d5-volcano-turn";
    let Replay { mut game, events } = replay_first(name, T_D5_AT_DEPLOY);
    assert_eq!(flights(&events), vec![(BLUE, at(0, 1)), (RED, at(2, 0))]);
    assert_eq!(game.dragon(), Some(at(2, 0)));
    assert_eq!(
        game.decision(),
        Decision {
            player: RED,
            kind: DecisionKind::Deploy
        }
    );
    assert_eq!(
        set(game.legal()),
        set([fairy(1, 0, "E"), fairy(-1, 0, "W"), Action::Pass])
    );
    forbidden(&mut game, deploy(2, 0, "NL"), "V3"); // the volcano's free field (V3)
    forbidden(&mut game, deploy(2, 0, "W"), "B-F3"); // its city, which holds a knight

    let Replay { game, events } = replay(name);
    assert!(journey_steps(&events).is_empty());
    assert!(journey_ends(&events).is_empty());
    assert!(returned(&events, EATEN).is_empty());
    assert_eq!(
        scored(&events),
        vec![(RED, 4, FeatureKind::City, "§1.6 completed city")]
    );
    assert_eq!(game.scores(), &[4, 0]);
    assert_eq!(
        figures(&game),
        set([(RED, at(-1, 0), "W"), (BLUE, at(1, 1), "NL")])
    );
    assert_eq!([supply(&game, RED), supply(&game, BLUE)], [6, 6]);
    assert_eq!(game.dragon(), Some(at(2, 0)));
}

/// T-D5, V4 with `fairy_move = true` (default): the fairy move is accepted on the volcano turn
/// and, made onto the knight of the city the volcano completes, pays +3 (FA9): Red 7.
#[test]
fn t_d5_fairy_move_on_a_volcano_turn() {
    let Replay { game, events } = replay("dragon/t-d5-volcano-fairy");
    assert_eq!(game.scores(), &[7, 0]);
    assert!(scored(&events).contains(&(RED, 3, FeatureKind::City, "FA8 fairy bonus")));
    let f = game.fairy().expect("fairy on the board");
    assert_eq!((f.pos, f.follower), (at(1, 0), None));
    assert!(journey_ends(&events).is_empty());
}

/// T-D5, V4 with `pd.volcano.fairy_move = false` (old FAQ, seed 004 fn 9): on the volcano turn
/// Red may only pass; the fairy move is refused.
#[test]
fn t_d5_no_fairy_move_under_old_faq() {
    let mut record = under("dragon/t-d5-volcano-turn", "pd-volcano-no-fairy.toml");
    assert!(!PdRules::of(&record.rules).volcano.fairy_move);
    record.actions.truncate(T_D5_AT_DEPLOY);
    let mut game = run(&record, "t-d5 no fairy").game;
    assert_eq!(game.legal(), vec![Action::Pass]);
    forbidden(&mut game, fairy(-1, 0, "W"), "FA2");
    forbidden(&mut game, fairy(1, 0, "E"), "FA2");
    // The whole fairy record is illegal at its fairy move (action 10).
    let record = under("dragon/t-d5-volcano-fairy", "pd-volcano-no-fairy.toml");
    match record.replay() {
        Err(RecordError::Illegal { index, .. }) => assert_eq!(index, 10),
        Err(e) => panic!("{}", e.diagnostic()),
        Ok(_) => panic!("the fairy move on a volcano turn was accepted"),
    }
}

// ---------------------------------------------------------------------------------------------
// D4, D12, V8.

/// D4 (RULES.md §2.4; all seeds §Dragon) with 2 players: steps by A, B, A, B, A, B; D3: six
/// steps; D5: from (1,0) the diagonal dragon tile (0,1) is not offered.
#[test]
fn d4_two_players_alternate() {
    let (points, game, events) = trace(&load("dragon/d4-mover-order"));
    let s = steps(&points);
    assert_eq!(
        s.iter().map(|x| x.1).collect::<Vec<_>>(),
        vec![0, 1, 0, 1, 0, 1]
    );
    assert_eq!(s[0].2, positions(&[(1, 0), (0, 1)]));
    for (i, (step, _, options, to)) in s.iter().enumerate().skip(1) {
        assert_eq!(*step as usize, i + 1);
        assert_eq!(options, &set([*to]), "step {step}");
        assert_eq!(*to, at(i as i32 + 1, 0));
    }
    assert_eq!(
        journey_steps(&events)
            .iter()
            .map(|m| m.1)
            .collect::<Vec<_>>(),
        vec![0, 1, 0, 1, 0, 1]
    );
    assert_eq!(journey_ends(&events), vec![(6, "steps_done")]);
    assert_eq!(game.dragon(), Some(at(6, 0)));
}

/// D4 with `pd.dragon.mover_order = "active_only"` (house, RULES.md §3.1 #7): A makes all six
/// steps.
#[test]
fn d4_active_only_house_rule() {
    let (points, game, events) = trace(&load("dragon/d4-active-only"));
    assert_eq!(
        steps(&points).iter().map(|x| x.1).collect::<Vec<_>>(),
        vec![0; 6]
    );
    assert_eq!(
        journey_steps(&events)
            .iter()
            .map(|m| m.1)
            .collect::<Vec<_>>(),
        vec![0; 6]
    );
    assert_eq!(game.dragon(), Some(at(6, 0)));
}

/// D12 with D1 and D7 (RULES.md §2.4): the follower deployed on the dragon tile is eaten when
/// the dragon enters that tile; a dead end then ends the journey after 1 step.
#[test]
fn d12_dragon_eats_on_the_tile_just_placed() {
    let (points, game, events) = trace(&load("dragon/d12-eat-new-tile"));
    let s = steps(&points);
    assert_eq!(s, vec![(1, 0, positions(&[(1, 0), (0, 1)]), at(0, 1))]);
    let deployed = position_of(&events, |e| matches!(e, Event::FigureDeployed { .. }));
    let eaten = position_of(&events, |e| {
        matches!(
            e,
            Event::FigureReturned {
                player: 0,
                x: 0,
                y: 1,
                reason: EATEN,
                ..
            }
        )
    });
    assert!(deployed < eaten);
    assert_eq!(journey_ends(&events), vec![(1, "dead_end")]);
    assert_eq!(game.dragon(), Some(at(0, 1)));
    assert!(game.figures().is_empty());
    assert_eq!(supply(&game, 0), 7);
}

/// V8 with `timing = "after_tile"` (RULES.md §2.2 V8, §3.1 #5): the journey ends on the tile
/// just placed, before deployment; then no follower may go on that tile: pass only.
#[test]
fn v8_no_deploy_on_the_dragons_tile_after_tile_timing() {
    let name = "dragon/v8-after-tile";
    let (points, _, events) = trace(&load(name));
    let kinds: Vec<DecisionKind> = points.iter().map(|p| p.decision.kind).collect();
    assert_eq!(
        kinds[kinds.len() - 2],
        DecisionKind::from(PdDecision::DragonStep { step: 1 })
    );
    assert_eq!(kinds[kinds.len() - 1], DecisionKind::Deploy);
    assert_eq!(journey_ends(&events), vec![(1, "dead_end")]);
    let mut game = replay_first(name, 6).game;
    assert_eq!(game.dragon(), Some(at(0, 1)));
    assert_eq!(game.decision().kind, DecisionKind::Deploy);
    assert_eq!(game.legal(), vec![Action::Pass]);
    forbidden(&mut game, deploy(0, 1, "NL"), "V8");
    // Under the default timing the same tile takes a follower (see D12).
    let default = replay_first("dragon/d12-eat-new-tile", 5).game;
    assert!(default.legal().contains(&deploy(0, 1, "NL")));
}

/// D1 with FA9 (RULES.md §2.4, §2.7; seed 004 fn 11): the placer of a dragon tile moves the
/// fairy first; under the default timing the fairy then bars its tile on this very journey.
#[test]
fn d1_fairy_moved_before_the_journey() {
    let name = "dragon/d1-fairy-before-journey";
    let (points, game, events) = trace(&load(name));
    assert_eq!(
        steps(&points),
        vec![
            (1, RED, positions(&[(0, -1)]), at(0, -1)),
            (2, BLUE, positions(&[(-1, -1)]), at(-1, -1)),
        ]
    );
    assert_eq!(journey_ends(&events), vec![(2, "dead_end")]);
    assert!(returned(&events, EATEN).is_empty());
    assert_eq!(figures(&game), set([(RED, at(-1, 0), "W")]));
}

/// D6 (RULES.md §2.4) at step 1: no legal step at all, so the journey ends after 0 steps
/// without any dragon-step decision, and play goes on.
#[test]
fn d6_dead_end_before_the_first_step() {
    let (points, game, events) = trace(&load("dragon/d6-no-first-step"));
    assert!(steps(&points).is_empty());
    assert_eq!(journey_ends(&events), vec![(0, "dead_end")]);
    assert!(journey_steps(&events).is_empty());
    assert_eq!(game.dragon(), Some(at(0, 0)));
    assert_eq!(game.decision().player, BLUE);
    assert!(matches!(
        game.decision().kind,
        DecisionKind::PlaceTile { .. }
    ));
}

/// The same turn with `timing = "after_tile"` (RULES.md §3.1 #5): the journey comes before the
/// deploy decision, so the fairy cannot protect the knight yet: step 1 offers the knight's
/// tile, and entering it eats the knight.
#[test]
fn d1_after_tile_journey_comes_before_the_fairy() {
    let mut record = under("dragon/d1-fairy-before-journey", "pd-after-tile.toml");
    record.actions.truncate(5);
    let Replay { mut game, .. } = run(&record, "d1 after_tile");
    assert_eq!(
        game.decision(),
        Decision {
            player: RED,
            kind: DecisionKind::from(PdDecision::DragonStep { step: 1 })
        }
    );
    assert_eq!(set(game.legal()), set([dragon_to(0, -1), dragon_to(-1, 0)]));
    let err = refused(&mut game, fairy(-1, 0, "W"));
    assert!(matches!(err, RuleError::WrongDecision(_)), "{err:?}");
    let events = game.apply(&dragon_to(-1, 0)).expect("legal");
    assert_eq!(returned(&events, EATEN), vec![(RED, at(-1, 0))]);
    assert!(game.figures().is_empty());
}

// ---------------------------------------------------------------------------------------------
// The princess.

/// Actions of the T-P1 records before the princess decision.
const T_P1_AT_PRINCESS: usize = 5;

/// T-P1 (RULES.md §4.3; seed 002 §The Princess picture; PR2, PR3 "may"): Red may remove
/// Blue's knight or keep it. After removal, with `all_figures_and_fairy` (default), Red may do
/// nothing: deploy options {pass}; the fairy move and a follower on the tile are refused.
#[test]
fn t_p1_remove_then_nothing_may_be_deployed() {
    let name = "princess/t-p1-remove";
    let mut game = replay_first(name, T_P1_AT_PRINCESS).game;
    assert_eq!(
        game.decision(),
        Decision {
            player: RED,
            kind: DecisionKind::from(PdDecision::Princess)
        }
    );
    assert_eq!(set(game.legal()), set([remove(0, 0, "E"), Action::Pass]));
    // Removing a non-knight (Red's monk) or an empty spot is refused.
    forbidden(&mut game, remove(-1, 1, "C"), "PR3");
    forbidden(&mut game, remove(1, 0, "NL"), "PR3");
    game.apply(&remove(0, 0, "E")).expect("legal");
    assert_eq!(game.decision().kind, DecisionKind::Deploy);
    assert_eq!(game.legal(), vec![Action::Pass]);
    forbidden(&mut game, deploy(1, 0, "NL"), "PR5");
    forbidden(&mut game, fairy(-1, 1, "C"), "FA2");

    let Replay { game, events } = replay(name);
    assert_eq!(returned(&events, PRINCESS), vec![(BLUE, at(0, 0))]);
    assert_eq!(figures(&game), set([(RED, at(-1, 1), "C")]));
    assert_eq!([supply(&game, RED), supply(&game, BLUE)], [6, 7]);
    assert_eq!(game.fairy(), None);
    assert_eq!(game.scores(), &[0, 0]);
}

/// T-P1 "keep" (PR3 "may", PR6): the knight stays; Red may deploy on the free fields of the
/// princess tile (not its city, held by Blue) or move the fairy to his monk, or pass.
#[test]
fn t_p1_keep_then_deploy_normally() {
    let name = "princess/t-p1-keep";
    let mut game = replay_first(name, T_P1_AT_PRINCESS + 1).game;
    assert_eq!(game.decision().kind, DecisionKind::Deploy);
    assert_eq!(
        set(game.legal()),
        set([
            deploy(1, 0, "NL"),
            deploy(1, 0, "SL"),
            fairy(-1, 1, "C"),
            Action::Pass
        ])
    );
    forbidden(&mut game, deploy(1, 0, "E"), "B-F3");
    let Replay { game, events } = replay(name);
    assert!(returned(&events, PRINCESS).is_empty());
    assert_eq!(
        figures(&game),
        set([
            (RED, at(-1, 1), "C"),
            (BLUE, at(0, 0), "E"),
            (RED, at(1, 0), "NL")
        ])
    );
    assert_eq!([supply(&game, RED), supply(&game, BLUE)], [5, 6]);
}

/// T-P1 with `removal_blocks = "follower_on_tile"` (RULES.md §3.1 #2; seeds 000, 001): after
/// the removal no follower may go on the princess tile, but the fairy move is still offered.
#[test]
fn t_p1_follower_on_tile_keeps_the_fairy_move() {
    let name = "princess/t-p1-tile-only";
    let mut game = replay_first(name, T_P1_AT_PRINCESS + 1).game;
    assert_eq!(game.decision().kind, DecisionKind::Deploy);
    assert_eq!(set(game.legal()), set([fairy(-1, 1, "C"), Action::Pass]));
    forbidden(&mut game, deploy(1, 0, "NL"), "PR5");
    forbidden(&mut game, deploy(1, 0, "SL"), "PR5");
    let Replay { game, .. } = replay(name);
    assert_eq!(game.fairy().map(|f| f.pos), Some(at(-1, 1)));
    assert_eq!(figures(&game), set([(RED, at(-1, 1), "C")]));
}

/// T-P1 with `removal = "must"` (RULES.md §3.1 #1; seeds 000, 001): "keep" is illegal, the
/// removal is forced; then nothing may be deployed.
#[test]
fn t_p1_must_remove() {
    let name = "princess/t-p1-must";
    let mut game = replay_first(name, T_P1_AT_PRINCESS).game;
    assert_eq!(
        game.decision().kind,
        DecisionKind::from(PdDecision::Princess)
    );
    assert_eq!(game.legal(), vec![remove(0, 0, "E")]);
    forbidden(&mut game, Action::Pass, "PR3");
    forbidden(&mut game, remove(-1, 1, "C"), "PR3");
    game.apply(&remove(0, 0, "E")).expect("legal");
    assert_eq!(game.legal(), vec![Action::Pass]);
    let Replay { game, events } = replay(name);
    assert_eq!(returned(&events, PRINCESS), vec![(BLUE, at(0, 0))]);
    assert_eq!([supply(&game, RED), supply(&game, BLUE)], [6, 7]);
}

/// T-P2 (RULES.md §4.3; seed 004 Q&A; PR4, PR8, FA10, FA11): the princess closes the city
/// after removing its only knight (which had the fairy): nobody scores, no +3, the fairy stays
/// on (0,0) unassigned and pays no turn point.
#[test]
fn t_p2_princess_completes_a_fairy_city() {
    let Replay { game, events } = replay("princess/t-p2-fairy-city");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::FeatureCompleted {
            feature: FeatureKind::City,
            tiles: 2,
            ..
        }
    )));
    assert!(scored(&events).is_empty());
    assert!(
        !events
            .iter()
            .any(|e| matches!(PdEvent::of(e), Some(PdEvent::FairyPoint { .. })))
    );
    assert_eq!(returned(&events, PRINCESS), vec![(BLUE, at(0, 0))]);
    let f = game.fairy().expect("the fairy stays on the board");
    assert_eq!((f.pos, f.follower), (at(0, 0), None));
    assert_eq!(game.scores(), &[0, 0]);
    assert_eq!(supply(&game, BLUE), 7);
    assert_eq!(game.decision().player, BLUE);
}

/// T-P3 (RULES.md §4.3; seed 000 "his choice", 004 fn 29; `removal = "must"`): the only knight
/// is Red's own: Red must remove it, then may not deploy.
#[test]
fn t_p3_must_remove_own_knight() {
    let name = "princess/t-p3-own-knight";
    let mut game = replay_first(name, 5).game;
    assert_eq!(
        game.decision(),
        Decision {
            player: RED,
            kind: DecisionKind::from(PdDecision::Princess)
        }
    );
    assert_eq!(game.legal(), vec![remove(0, 0, "E")]);
    forbidden(&mut game, Action::Pass, "PR3");
    game.apply(&remove(0, 0, "E")).expect("legal");
    assert_eq!(game.legal(), vec![Action::Pass]);
    forbidden(&mut game, deploy(1, 0, "NL"), "PR5");
    let Replay { game, events } = replay(name);
    assert_eq!(returned(&events, PRINCESS), vec![(RED, at(0, 0))]);
    assert!(game.figures().is_empty());
    assert_eq!(supply(&game, RED), 7);
}

/// PR2 (RULES.md §2.6): no princess decision when her city holds no knight (a farmer beside it
/// does not count); a princess tile joining two cities asks about the knight of the merged
/// city; removing it leaves the completed city unscored.
#[test]
fn pr2_trigger_only_with_a_knight_in_the_city() {
    let name = "princess/pr2-trigger";
    let (points, game, events) = trace(&load(name));
    let princess: Vec<&Point> = points
        .iter()
        .filter(|p| p.decision.kind == DecisionKind::from(PdDecision::Princess))
        .collect();
    assert_eq!(princess.len(), 1);
    assert_eq!(princess[0].decision.player, BLUE);
    assert_eq!(
        set(princess[0].legal.clone()),
        set([remove(3, 0, "W"), Action::Pass])
    );
    // Blue's first princess tile went straight to the deploy decision.
    assert_eq!(points[3].decision.kind, DecisionKind::Deploy);
    assert_eq!(points[3].decision.player, BLUE);

    let mut at_princess = replay_first(name, 7).game;
    assert_eq!(
        at_princess.decision().kind,
        DecisionKind::from(PdDecision::Princess)
    );
    forbidden(&mut at_princess, remove(0, 0, "NL"), "PR3"); // Red's farmer is no knight
    forbidden(&mut at_princess, remove(2, 0, "E"), "PR3"); // nobody there

    assert!(events.iter().any(|e| matches!(
        e,
        Event::FeatureCompleted {
            feature: FeatureKind::City,
            tiles: 4,
            ..
        }
    )));
    assert!(scored(&events).is_empty());
    assert_eq!(figures(&game), set([(RED, at(0, 0), "NL")]));
    assert_eq!([supply(&game, RED), supply(&game, BLUE)], [6, 7]);
}

/// RULES.md §7 A24 (derived) with PR2: a knight in the princess tile's other city part does
/// not trigger the princess; turned so that the princess's own part continues that city, it
/// does.
#[test]
fn a24_only_the_princess_city_counts() {
    let name = "princess/a24-other-city";
    let (points, game, events) = trace(&load(name));
    assert!(
        points
            .iter()
            .all(|p| p.decision.kind != DecisionKind::from(PdDecision::Princess))
    );
    assert_eq!(points[5].decision.kind, DecisionKind::Deploy);
    assert_eq!(
        scored(&events),
        vec![(BLUE, 4, FeatureKind::City, "§1.6 completed city")]
    );
    assert_eq!(game.scores(), &[0, 4]);

    let mut game = replay_first(name, 4).game;
    let turned = Action::Place {
        pos: at(0, 0),
        rotation: Rotation::from_degrees(180).expect("rotation"),
    };
    game.apply(&turned).expect("legal placement");
    assert_eq!(
        game.decision().kind,
        DecisionKind::from(PdDecision::Princess)
    );
    assert_eq!(set(game.legal()), set([remove(0, 1, "N"), Action::Pass]));
}

// ---------------------------------------------------------------------------------------------
// Records as save games.

/// A game with a reshuffle (V6, D0.2) written with `record::write` and replayed gives the same
/// events (src/record.rs: "Replaying a record reproduces the game and its event log exactly;
/// a record is also the save-game format"). Where the set-aside dragon tiles go back into a
/// forced draw order is random (seeded), so the written record must keep the seed.
#[test]
fn written_record_with_reshuffle_replays_identically() {
    for seed in 0..8 {
        let mut record = load("dragon/t-d4-set-aside");
        record.setup.seed = seed;
        let Replay {
            mut game,
            mut events,
        } = run(&record, "t-d4-set-aside");
        events.extend(play_out(&mut game, |_, _| {}));
        let ruleset = root().join("tests/fixtures/pd-synthetic.toml");
        let text = record::write(&game, ruleset.to_str().expect("utf-8"));
        if seed != 0 {
            assert!(
                text.contains(&format!("seed = {seed}")),
                "seed {seed}:\n{text}"
            );
        }
        let again = Record::parse(Source {
            path: Path::new("written.toml").to_path_buf(),
            text,
        })
        .unwrap_or_else(|d| panic!("seed {seed}: {d}"));
        let replayed = run(&again, "written");
        assert_eq!(replayed.events, events, "seed {seed}");
    }
}

/// The log says why a figure goes home: the dragon eats it (D7, T-D1), the princess sends it
/// home (PR3, T-P1), and a scored feature returns its followers (B-M3).
#[test]
fn the_log_says_why_a_figure_goes_home() {
    let lines = |name: &str| -> Vec<String> {
        let Replay { game, events } = replay(name);
        let names = game.setup().players.clone();
        events
            .iter()
            .filter(|e| matches!(e, Event::FigureReturned { .. }))
            .map(|e| castellan::engine::words::event(e, &names).to_string())
            .collect()
    };
    let journey = lines("dragon/t-d1-journey");
    assert!(
        journey.contains(&"the dragon eats Bob's follower at (-1,-1) (D7)".to_string()),
        "{journey:?}"
    );
    let removed = lines("princess/t-p1-remove");
    assert!(
        removed.contains(&"the princess sends Blue's follower at (0,0) home (PR3)".to_string()),
        "{removed:?}"
    );
    let scored = lines("dragon/t-d3-after-scoring");
    assert_eq!(scored, ["Red's follower at (1,0) returns to supply"]);
}
