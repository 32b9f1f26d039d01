//! The dungeon variant (seed 003, RULES.md §6) as a script and a ruleset: the scenarios DG-T1 to
//! DG-T6 of RULES.md §6.6 replayed from `tests/records/dungeon/`, the legal options at the key
//! points, the ambiguity values of `[vars.dungeon]` (fixtures `tests/fixtures/dungeon-*.toml`
//! change one each), conservation of followers over many random games, the command line, and
//! the promise that the Rust code knows nothing of the dungeon.
//!
//! Records cannot hold expectations: each record's header comment states the scenario and
//! what it expects, and the tests here check it. Coordinates are the engine's (x east, y south).

mod common;

use castellan::bot::{Bot, RandomBot};
use castellan::data::ruleset::Ruleset;
use castellan::engine::action::{Action, DecisionKind};
use castellan::engine::event::Event;
use castellan::engine::game::{Game, Setup, SetupError};
use castellan::mechanic::pd::vocabulary::EATEN;
use castellan::mechanic::pd::vocabulary::{PdDecision, PdEvent};
use castellan::model::figure::FigureKind;
use castellan::model::geometry::{Pos, Spot};
use castellan::model::tile::FeatureKind;
use castellan::record::{Record, Replay};
use castellan::script::{self, Arg};
use std::path::{Path, PathBuf};
use std::sync::Arc;

// ---------------------------------------------------------------------------------------------
// Loading and replaying.

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn load(name: &str) -> Record {
    let path = root().join(format!("tests/records/dungeon/{name}.toml"));
    Record::load(&path).unwrap_or_else(|d| panic!("{name}: {d}"))
}

fn run(record: &Record, name: &str) -> Replay {
    record
        .replay()
        .unwrap_or_else(|e| panic!("{name}: {}", e.diagnostic()))
}

fn replay(name: &str) -> Replay {
    run(&load(name), name)
}

/// The record replayed up to (not including) action `n` (0-based): the game waits for it.
fn replay_first(name: &str, n: usize) -> Replay {
    let mut record = load(name);
    assert!(
        n <= record.actions.len(),
        "{name} has fewer than {n} actions"
    );
    record.actions.truncate(n);
    run(&record, name)
}

/// The record under another fixture ruleset (one value of `[vars.dungeon]` changed).
fn under(name: &str, fixture: &str) -> Record {
    let mut record = load(name);
    record.rules = fixture_rules(fixture);
    record
}

fn fixture_rules(fixture: &str) -> Arc<Ruleset> {
    let path = root().join("tests/fixtures").join(fixture);
    Ruleset::load(path.to_str().expect("utf-8 path")).unwrap_or_else(|d| panic!("{fixture}: {d}"))
}

/// The script actions on offer: name and arguments.
fn offered(game: &Game) -> Vec<(String, Vec<Arg>)> {
    game.legal()
        .into_iter()
        .filter_map(|a| match a {
            Action::Script(id) => {
                let s = script::action(id);
                Some((s.name, s.args))
            }
            _ => None,
        })
        .collect()
}

fn names(offers: &[(String, Vec<Arg>)]) -> Vec<&str> {
    let mut v: Vec<&str> = offers.iter().map(|(n, _)| n.as_str()).collect();
    v.dedup();
    v
}

/// The arguments `[x, y, spot]` (or `[x, y]`) of the offers called `name`, sorted.
fn targets(offers: &[(String, Vec<Arg>)], name: &str) -> Vec<String> {
    let mut v: Vec<String> = offers
        .iter()
        .filter(|(n, _)| n == name)
        .map(|(_, args)| {
            args.iter()
                .map(|a| match a {
                    Arg::Int(i) => i.to_string(),
                    Arg::Bool(b) => b.to_string(),
                    Arg::Text(t) => t.clone(),
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    v.sort();
    v
}

fn held(game: &Game) -> Vec<u32> {
    (0..game.scores().len()).map(|p| game.held(p)).collect()
}

fn supply(game: &Game) -> Vec<u8> {
    (0..game.scores().len())
        .map(|p| game.supply(p, FigureKind::Follower))
        .collect()
}

/// Figures on the tile at (x, y): (owner, spot).
fn figures_at(game: &Game, x: i32, y: i32) -> Vec<(usize, String)> {
    game.figures()
        .iter()
        .filter(|f| game.figure_spot(f).0 == Pos::new(x, y))
        .map(|f| (f.owner, game.figure_spot(f).1.name().to_string()))
        .collect()
}

fn journey_end(events: &[Event]) -> Vec<(u32, &'static str)> {
    events
        .iter()
        .filter_map(|e| match PdEvent::of(e) {
            Some(PdEvent::JourneyEnded { steps, reason }) => Some((steps, reason)),
            _ => None,
        })
        .collect()
}

fn is_entrance(game: &Game, pos: Pos) -> bool {
    game.board().at(pos).is_some_and(|id| {
        let tile = game.rules().tile(game.board().placed(id).tile);
        tile.tags.iter().any(|t| t == "tower_foundation")
    })
}

// ---------------------------------------------------------------------------------------------
// DG-T1: pass-through contest (DG-1, DG-2, DG-4).

#[test]
fn dg_t1_pass_through_contests_a_held_city() {
    // Red's turn-3 deploy decision: going in, and out at E2 only (not at E1, just laid).
    let before = replay_first("dg-t1-pass-through", 5);
    let offers = offered(&before.game);
    assert_eq!(names(&offers), ["enter"], "{offers:?}");
    assert_eq!(targets(&offers, "enter"), ["", "0 -1 E", "0 -1 NL"]);

    // After the pass-through: Red's follower on the city Blue holds, 1 : 1.
    let after = replay_first("dg-t1-pass-through", 6);
    let g = &after.game;
    assert_eq!(figures_at(g, 0, -1), [(0, "E".to_string())]);
    let red = g
        .figures()
        .iter()
        .find(|f| f.owner == 0)
        .expect("Red's follower");
    let blue = g
        .figures()
        .iter()
        .find(|f| f.owner == 1)
        .expect("Blue's knight");
    assert!(g.features().same(red.seg, blue.seg), "one city");
    assert_eq!((held(g), supply(g)), (vec![0, 0], vec![6, 6]));

    // Completed: both score the full value; everyone goes home.
    let end = replay("dg-t1-pass-through");
    let city: Vec<(usize, u32)> = end
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Scored {
                player,
                points,
                feature: FeatureKind::City,
                ..
            } => Some((*player, *points)),
            _ => None,
        })
        .collect();
    assert_eq!(city, [(0, 8), (1, 8)]);
    assert_eq!(end.game.scores(), [8, 8]);
    assert_eq!(
        (held(&end.game), supply(&end.game)),
        (vec![0, 0], vec![7, 7])
    );
}

/// #57 / DG-2 off: going in only, no pass-through.
#[test]
fn without_exit_same_turn_there_is_no_pass_through() {
    let mut record = under("dg-t1-pass-through", "dungeon-no-pass-through.toml");
    record.actions.truncate(5);
    let r = run(&record, "dg-t1 without pass-through");
    let offers = offered(&r.game);
    assert_eq!(targets(&offers, "enter"), [""]);
}

// ---------------------------------------------------------------------------------------------
// DG-T2: the dragon meets an occupied dungeon (DG-8 a); a volcano calls it out (DG-9 a).

#[test]
fn dg_t2_dragon_rushes_into_an_occupied_dungeon() {
    // Red's turn-5 deploy decision: E3 holds Blue's farmer, so no way out there.
    let before = replay_first("dg-t2-occupied-dungeon", 9);
    assert_eq!(targets(&offered(&before.game), "enter"), [""]);

    // After step 3: the farmer survives, the dragon is below, the journey is over.
    let r = replay_first("dg-t2-occupied-dungeon", 15);
    let g = &r.game;
    assert_eq!(figures_at(g, 0, 4), [(1, "NL".to_string())]);
    assert_eq!(g.dragon(), None);
    assert!(g.dragon_in_play());
    assert_eq!(held(g), [1, 0]);
    assert_eq!(journey_end(&r.events), [(3, "script")]);
    assert!(
        !r.events
            .iter()
            .any(|e| matches!(e, Event::FigureReturned { reason: EATEN, .. })),
        "nothing is eaten"
    );
    assert!(matches!(g.decision().kind, DecisionKind::PlaceTile { .. }));

    // Turn 7: a volcano calls the dragon out as usual.
    let end = replay("dg-t2-occupied-dungeon");
    assert_eq!(end.game.dragon(), Some(Pos::new(2, 1)));
    assert_eq!(held(&end.game), [1, 0]);
}

// ---------------------------------------------------------------------------------------------
// DG-T3: an empty dungeon, flee (DG-8 b).

#[test]
fn dg_t3_owners_flee_clockwise_and_the_rest_is_eaten() {
    // After step 1 the step's mover (Blue) is asked first, about his knight.
    let first = replay_first("dg-t3-flee", 9);
    let d = first.game.decision();
    assert_eq!((d.player, d.kind), (1, DecisionKind::Script));
    let offers = offered(&first.game);
    assert_eq!(targets(&offers, "flee"), ["0 2 S"]);
    assert_eq!(targets(&offers, "stay"), ["0 2 S"]);
    // Nothing eaten yet: the questions come first.
    assert_eq!(figures_at(&first.game, 0, 2).len(), 2);

    // Then Red, about his farmer.
    let second = replay_first("dg-t3-flee", 10);
    let d = second.game.decision();
    assert_eq!((d.player, d.kind), (0, DecisionKind::Script));
    assert_eq!(targets(&offered(&second.game), "stay"), ["0 2 NL"]);

    let end = replay("dg-t3-flee");
    let g = &end.game;
    assert_eq!(held(g), [0, 1], "Blue's knight is below");
    assert_eq!(supply(g), [7, 6], "Red's farmer was eaten and is home");
    assert!(figures_at(g, 0, 2).is_empty());
    assert_eq!(g.dragon(), None);
    assert!(end.events.iter().any(|e| matches!(
        e,
        Event::FigureReturned {
            player: 0,
            reason: EATEN,
            x: 0,
            y: 2,
            ..
        }
    )));
    assert_eq!(journey_end(&end.events), [(1, "script")]);
}

/// #62 off: nobody is asked; the dragon eats everything there and goes down.
#[test]
fn without_flight_the_dragon_eats_everything_on_the_entrance() {
    let mut record = under("dg-t3-flee", "dungeon-no-flee.toml");
    record.actions.truncate(9);
    let r = run(&record, "dg-t3 without flight");
    let g = &r.game;
    assert!(figures_at(g, 0, 2).is_empty());
    assert_eq!((held(g), supply(g)), (vec![0, 0], vec![7, 7]));
    assert_eq!(g.dragon(), None);
    assert_ne!(g.decision().kind, DecisionKind::Script);
}

// ---------------------------------------------------------------------------------------------
// DG-T4: frozen below; the fairy escorts out (DG-5, DG-6, DG-7); DG-9 b avoids the fairy.

#[test]
fn dg_t4_the_dragon_below_freezes_all_but_the_escorted_follower() {
    // Turn 5: Red laid an entrance and has a follower below, but the dragon is below: no way
    // in, no way out; only the fairy may go down.
    let frozen = replay_first("dg-t4-frozen", 10);
    assert_eq!(frozen.game.dragon(), None);
    assert_eq!(names(&offered(&frozen.game)), ["fairy_to_dungeon"]);

    // Turn 7: the fairy was with Red's follower when the turn began: it may come out, escorted,
    // through any entrance (all three are free), and only escorted.
    let escorted = replay_first("dg-t4-frozen", 14);
    let offers = offered(&escorted.game);
    assert_eq!(names(&offers), ["exit_escorted"]);
    assert_eq!(
        targets(&offers, "exit_escorted"),
        ["0 2 NL", "1 1 NL", "2 1 NL"]
    );

    // Out at (2,1) with the fairy next to it.
    let out = replay_first("dg-t4-frozen", 15);
    let g = &out.game;
    assert_eq!(figures_at(g, 2, 1), [(0, "NL".to_string())]);
    let fairy = g.fairy().expect("the fairy is back on the board");
    assert_eq!(fairy.pos, Pos::new(2, 1));
    let follower = g
        .figures()
        .iter()
        .find(|f| f.owner == 0)
        .expect("Red's follower");
    assert_eq!(fairy.follower, Some(follower.id));
    assert_eq!(held(g), [0, 0]);

    // Turn 8: a dragon tile while the dragon is below; Blue chooses the way out, never the
    // fairy's tile (2,1).
    let end = replay("dg-t4-frozen");
    let d = end.game.decision();
    assert_eq!((d.player, d.kind), (1, DecisionKind::Script));
    assert_eq!(
        targets(&offered(&end.game), "dragon_exit"),
        ["0 1", "0 2", "1 1"]
    );
}

/// #60 / Q7 off: the follower comes out, the fairy stays below next to nobody; a normal fairy
/// move brings it up later.
#[test]
fn when_the_fairy_stays_below_it_does_not_come_out_with_the_follower() {
    let mut record = under("dg-t4-frozen", "dungeon-fairy-stays.toml");
    record.actions.truncate(15);
    let r = run(&record, "dg-t4 fairy stays");
    let g = &r.game;
    assert_eq!(figures_at(g, 2, 1), [(0, "NL".to_string())]);
    assert_eq!(g.fairy(), None, "the fairy is still below");
    assert_eq!(g.script_state()["fairy"], -1);
}

// ---------------------------------------------------------------------------------------------
// DG-T5: a dragon tile while the dragon is below (DG-9 b), 3 players.

#[test]
fn dg_t5_coming_out_is_step_one_and_the_next_player_goes_on() {
    let asked = replay_first("dg-t5-dragon-tile", 10);
    let d = asked.game.decision();
    assert_eq!(
        (d.player, d.kind),
        (1, DecisionKind::Script),
        "Blue chooses"
    );
    assert_eq!(
        targets(&offered(&asked.game), "dragon_exit"),
        ["0 -1", "0 1", "0 2"]
    );

    let end = replay("dg-t5-dragon-tile");
    let g = &end.game;
    let placed = end
        .events
        .iter()
        .position(|e| {
            matches!(
                PdEvent::of(e),
                Some(PdEvent::DragonPlaced { x: 0, y: -1, .. })
            )
        })
        .expect("the dragon comes out at E5");
    assert!(
        matches!(
            end.events[placed + 1],
            Event::FigureReturned {
                player: 2,
                reason: EATEN,
                ..
            }
        ),
        "it eats Red's farmer on the way out"
    );
    let steps: Vec<(u32, usize)> = end
        .events
        .iter()
        .filter_map(|e| match PdEvent::of(e) {
            Some(PdEvent::DragonMoved { step, player, .. }) if step > 0 => Some((step, player)),
            _ => None,
        })
        .collect();
    // Red (2) makes step 2, Green (0) step 3, Blue (1) step 4, then Red and Green.
    assert_eq!(
        steps[steps.len() - 5..],
        [(2, 2), (3, 0), (4, 1), (5, 2), (6, 0)]
    );
    assert_eq!(journey_end(&end.events).last(), Some(&(6, "steps_done")));
    assert_eq!(g.dragon(), Some(Pos::new(4, 0)));
    assert_eq!(supply(g), [7, 7, 7]);
}

/// #64 off: coming out is not a step; the whole journey follows, the placer first.
#[test]
fn when_coming_out_is_no_step_the_placer_makes_step_one() {
    let r = run(
        &under("dg-t5-dragon-tile", "dungeon-exit-not-first.toml"),
        "dg-t5 exit not first",
    );
    let first = r
        .events
        .iter()
        .rev()
        .find_map(|e| match PdEvent::of(e) {
            Some(PdEvent::DragonMoved {
                step: 1,
                player,
                x,
                y,
            }) => Some((player, x, y)),
            _ => None,
        })
        .expect("step 1");
    assert_eq!(first, (1, 0, 0), "Blue steps from E5 to (0,0)");
    // Five steps were recorded; the sixth is still to come.
    assert_eq!(
        r.game.decision().kind,
        DecisionKind::from(PdDecision::DragonStep { step: 6 })
    );
}

// ---------------------------------------------------------------------------------------------
// DG-T6: coming out onto the dragon (DG-4, Q5).

#[test]
fn dg_t6_coming_out_onto_the_dragon_is_being_eaten() {
    // Red's deploy decision with the dragon above ground on E4: E4 is offered (Q5).
    let before = replay_first("dg-t6-exit-onto-dragon", 11);
    assert_eq!(before.game.dragon(), Some(Pos::new(1, 1)));
    assert_eq!(
        targets(&offered(&before.game), "exit"),
        ["0 2 NL", "1 1 NL"]
    );

    let end = replay("dg-t6-exit-onto-dragon");
    let g = &end.game;
    assert!(figures_at(g, 1, 1).is_empty());
    assert_eq!((held(g), supply(g)), (vec![0, 0], vec![7, 7]));
    assert!(matches!(
        end.events
            .iter()
            .rev()
            .find(|e| matches!(e, Event::FollowerReleased { .. })),
        Some(Event::FollowerReleased { player: 0, .. })
    ));
    assert_eq!(
        g.decision().kind,
        DecisionKind::from(PdDecision::DragonStep { step: 2 })
    );
    assert_eq!(g.decision().player, 1);
}

// ---------------------------------------------------------------------------------------------
// Q12, Q1: more values.

#[test]
fn q12_the_dragon_goes_down_again_on_the_same_journey() {
    let r = replay("q12-reenter");
    assert_eq!(r.game.dragon(), None);
    assert_eq!(journey_end(&r.events).last(), Some(&(4, "script")));

    let stays = run(
        &under("q12-reenter", "dungeon-no-reenter.toml"),
        "q12 without reentry",
    );
    // It stays above ground on (0,2), where the journey meets a dead end (D6).
    assert_eq!(stays.game.dragon(), Some(Pos::new(0, 2)));
    assert_eq!(journey_end(&stays.events).last(), Some(&(4, "dead_end")));
}

#[test]
fn q1_board_any_lets_a_follower_on_the_board_go_down() {
    let before = replay_first("board-any-enter", 5);
    let offers = offered(&before.game);
    assert_eq!(targets(&offers, "enter"), [""]);
    assert_eq!(targets(&offers, "enter_from"), ["0 1 NL"]);

    let end = replay("board-any-enter");
    let g = &end.game;
    assert!(g.figures().iter().all(|f| f.owner != 0));
    assert_eq!((held(g)[0], supply(g)[0]), (1, 6));
}

/// The default (#55 "supply"): no follower from the board is offered.
#[test]
fn by_default_only_the_supply_goes_down() {
    let mut record = load("board-any-enter");
    record.rules = fixture_rules("dungeon-synthetic.toml");
    record.actions.truncate(5);
    let r = run(&record, "board-any-enter under the default");
    assert_eq!(names(&offered(&r.game)), ["enter"]);
}

/// A value the script does not know is refused before the first turn, naming the key.
#[test]
fn an_unknown_value_is_refused_at_the_start() {
    let rules = fixture_rules("dungeon-bad-value.toml");
    let err = Game::new(rules, Setup::new(vec!["A".into(), "B".into()], 1))
        .expect_err("the value is refused");
    let SetupError::Script(e) = err else {
        panic!("not a script error: {err}")
    };
    assert_eq!(e.hook, "game_start");
    assert!(e.message.contains("score_dungeon_followers_at_end"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Random games: conservation, legal options, no script error.

/// Checks the dungeon offers of the pending decision against the rules.
fn check_offers(game: &Game, seed: u64) {
    let d = game.decision();
    let dragon_below = game.dragon_in_play() && game.dragon().is_none();
    let placed = game
        .placed_this_turn()
        .map(|id| game.board().placed(id).pos);
    for (name, args) in offered(game) {
        let at = |i: usize| match (&args[i], &args[i + 1]) {
            (Arg::Int(x), Arg::Int(y)) => Pos::new(*x as i32, *y as i32),
            _ => panic!("seed {seed}: {name} {args:?}"),
        };
        match name.as_str() {
            "enter" | "enter_from" => {
                assert_eq!(d.kind, DecisionKind::Deploy, "seed {seed}");
                assert!(!dragon_below, "seed {seed}: DG-5, nobody goes in");
                let entrance = placed.expect("a tile was laid");
                assert!(
                    is_entrance(game, entrance),
                    "seed {seed}: DG-1 needs an entrance"
                );
                // enter: [] or an exit [x, y, spot]; enter_from: the follower's [x, y, spot]
                // first (Q1 "board_any"), then maybe an exit.
                let from_board = name == "enter_from";
                if from_board {
                    let spot = figures_at(game, args[0].int(), args[1].int());
                    assert!(
                        spot.iter()
                            .any(|(p, s)| *p == d.player && Arg::Text(s.clone()) == args[2]),
                        "seed {seed}: {args:?} is no follower of the player"
                    );
                }
                let exit_at = if from_board { 3 } else { 0 };
                if args.len() == exit_at + 3 {
                    let exit = at(exit_at);
                    assert_ne!(exit, entrance, "seed {seed}: DG-2 another entrance");
                    let moving = from_board.then(|| at(0));
                    if moving != Some(exit) {
                        check_exit(game, exit, &args[exit_at + 2], seed);
                    }
                }
            }
            "exit" | "exit_escorted" => {
                assert_eq!(d.kind, DecisionKind::Deploy, "seed {seed}");
                assert!(
                    game.held(d.player) > 0,
                    "seed {seed}: someone must be below"
                );
                if name == "exit" {
                    assert!(!dragon_below, "seed {seed}: DG-5");
                } else {
                    assert!(game.fairy().is_none(), "seed {seed}: the fairy is below");
                    assert_eq!(
                        game.script_state()["fairy"],
                        d.player as i64,
                        "seed {seed}: DG-7"
                    );
                }
                check_exit(game, at(0), &args[2], seed);
            }
            "fairy_to_dungeon" => assert!(game.held(d.player) > 0, "seed {seed}"),
            "flee" | "stay" => assert_eq!(d.kind, DecisionKind::Script, "seed {seed}"),
            "dragon_exit" => {
                let to = at(0);
                let volcano = game.board().at(to).is_some_and(|id| {
                    game.rules().tile(game.board().placed(id).tile).symbol
                        == Some(castellan::data::printed::VOLCANO)
                });
                assert!(is_entrance(game, to) || volcano, "seed {seed}: DG-9 b");
                assert_ne!(game.fairy().map(|f| f.pos), Some(to), "seed {seed}: Q11");
            }
            other => panic!("seed {seed}: unknown action {other}"),
        }
    }
}

trait IntArg {
    fn int(&self) -> i32;
}

impl IntArg for Arg {
    fn int(&self) -> i32 {
        match self {
            Arg::Int(i) => *i as i32,
            other => panic!("not an integer: {other:?}"),
        }
    }
}

/// DG-4: an entrance with no figure on it, a segment of a feature not completed.
fn check_exit(game: &Game, at: Pos, spot: &Arg, seed: u64) {
    assert!(is_entrance(game, at), "seed {seed}: {at} is no entrance");
    assert!(
        figures_at(game, at.x, at.y).is_empty(),
        "seed {seed}: a figure closes {at}"
    );
    let Arg::Text(spot) = spot else {
        panic!("seed {seed}: spot {spot:?}")
    };
    let seg = game
        .seg_at(at, Spot::parse(spot).expect("a spot"))
        .expect("a segment");
    let field = game.features().segment(seg).kind == FeatureKind::Field;
    assert!(
        field || !game.is_complete(seg),
        "seed {seed}: {at} {spot} is completed"
    );
}

/// Plays `games` random games (2 to 4 players) under `rules`, checking after every action that
/// each player's followers on the board, in supply and below add up to seven, that every
/// action the bots choose is accepted (no script error) and that the offers follow the rules.
/// Returns how often each script action was chosen.
fn play_checked(rules: &Arc<Ruleset>, games: u64) -> std::collections::BTreeMap<String, usize> {
    let mut chosen = std::collections::BTreeMap::<String, usize>::new();
    for seed in 0..games {
        let players = 2 + (seed % 3) as usize;
        let names = (0..players).map(|i| format!("P{i}")).collect();
        let (mut game, _) =
            Game::new(Arc::clone(rules), Setup::new(names, seed)).expect("the game starts");
        let mut bot = RandomBot::new(seed * 31 + 7);
        while !game.is_over() {
            check_offers(&game, seed);
            let action = bot.choose(&game);
            if let Action::Script(id) = action {
                *chosen.entry(script::action(id).name).or_default() += 1;
            }
            game.apply(&action)
                .unwrap_or_else(|e| panic!("{} seed {seed}: {e}", rules.name));
            for p in 0..players {
                let board = game.figures().iter().filter(|f| f.owner == p).count() as u32;
                let total = board + u32::from(game.supply(p, FigureKind::Follower)) + game.held(p);
                assert_eq!(total, 7, "{} seed {seed}, player {p}", rules.name);
            }
        }
        assert!(held(&game).iter().all(|h| *h == 0), "seed {seed}: Q14");
    }
    chosen
}

/// Conservation, legality and no script error over many random `dungeon` games, which use
/// every part of the variant. `DUNGEON_GAMES=n` plays more games.
#[test]
fn random_games_keep_every_follower_and_the_rules() {
    let rules = Ruleset::load("dungeon").expect("loads");
    let chosen = play_checked(&rules, common::dungeon_games(120));
    common::all_chosen(
        &chosen,
        &[
            "enter",
            "exit",
            "exit_escorted",
            "fairy_to_dungeon",
            "flee",
            "stay",
            "dragon_exit",
        ],
    );
}

/// The same under every other value tested above, and with the fairy of the older editions
/// that stands on a tile (it lands on the exit tile when it escorts a follower out, Q7).
#[test]
fn random_games_under_other_values() {
    for fixture in [
        "dungeon-board-any.toml",
        "dungeon-exit-not-first.toml",
        "dungeon-fairy-stays.toml",
        "dungeon-fairy-tile.toml",
        "dungeon-no-flee.toml",
        "dungeon-no-pass-through.toml",
        "dungeon-no-reenter.toml",
    ] {
        let chosen = play_checked(&fixture_rules(fixture), 25);
        assert!(
            chosen.contains_key("enter") || chosen.contains_key("enter_from"),
            "{fixture}"
        );
    }
}

/// `castellan simulate --ruleset dungeon --games 2000` plays its games.
#[test]
fn simulate_plays_two_thousand_dungeon_games() {
    common::simulate("dungeon", 2000);
}

// ---------------------------------------------------------------------------------------------
// Nothing of the dungeon in Rust.

/// The Rust code contains nothing specific to the dungeon: the word appears in `src/` only in
/// the two entries of the built-in file list.
#[test]
fn the_rust_code_knows_nothing_of_the_dungeon() {
    fn walk(dir: &Path, out: &mut Vec<(PathBuf, usize, String)>) {
        for entry in std::fs::read_dir(dir).expect("src/") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("readable");
                for (i, line) in text.lines().enumerate() {
                    if line.to_lowercase().contains("dungeon") {
                        out.push((path.clone(), i + 1, line.trim().to_string()));
                    }
                }
            }
        }
    }
    let mut found = Vec::new();
    walk(&root().join("src"), &mut found);
    // The shipped files are listed by build.rs, so not even the library names the dungeon.
    assert!(found.is_empty(), "{found:?}");
}
