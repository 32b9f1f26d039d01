//! The dungeon variant with the figures it names (seed 003, RULES.md §6.1, §6.3): big
//! followers (Inns & Cathedrals), builders and pigs (Traders & Builders) in `dungeon-full`. The
//! records of `tests/records/dungeon-full/` state their scenario and expectation in their header
//! comment; the tests here check scores, where each figure stands, the offers and the refusals.
//! Random games check that no figure is made or lost and that every figure on an entrance, big
//! follower, builder or pig, closes it (DG-4b).

mod common;

use castellan::bot::{Bot, RandomBot};
use castellan::data::ruleset::Ruleset;
use castellan::engine::action::Action;
use castellan::engine::event::Event;
use castellan::engine::game::{Game, Setup};
use castellan::mechanic::pd::vocabulary::EATEN;
use castellan::mechanic::pd::vocabulary::PdEvent;
use castellan::model::geometry::Pos;
use castellan::record::Record;
use castellan::script::{self, Arg};
use common::{before, kind, record, run, under};
use std::sync::Arc;

const DIR: &str = "dungeon-full";

/// Figures on the tile at (x, y): (owner, kind, spot).
fn at(game: &Game, x: i32, y: i32) -> Vec<(usize, String, String)> {
    game.figures()
        .iter()
        .filter_map(|f| {
            let (pos, spot) = game.figure_spot(f);
            (pos == Pos::new(x, y))
                .then(|| (f.owner, f.kind.name().to_string(), spot.name().to_string()))
        })
        .collect()
}

/// The script actions on offer, as `name arg arg …`, sorted.
fn offers(game: &Game) -> Vec<String> {
    let mut v: Vec<String> = game
        .legal()
        .into_iter()
        .filter_map(|a| match a {
            Action::Script(id) => {
                let s = script::action(id);
                let args = s.args.iter().map(|a| match a {
                    Arg::Int(i) => i.to_string(),
                    Arg::Bool(b) => b.to_string(),
                    Arg::Text(t) => t.clone(),
                });
                Some(
                    std::iter::once(s.name)
                        .chain(args)
                        .collect::<Vec<_>>()
                        .join(" "),
                )
            }
            _ => None,
        })
        .collect();
    v.sort();
    v
}

/// The script action `name(args)` as an action (whether it is on offer or not).
fn script_action(name: &str, args: &[Arg]) -> Action {
    Action::Script(script::intern(script::ScriptAction {
        name: name.to_string(),
        args: args.to_vec(),
        label: String::new(),
    }))
}

/// `action` is refused and leaves the game exactly as it was.
fn refused(game: &mut Game, action: &Action) {
    let before = castellan::record::write(game, "t");
    assert!(game.apply(action).is_err(), "{action:?} must be refused");
    assert_eq!(castellan::record::write(game, "t"), before, "{action:?}");
}

fn text(s: &str) -> Arg {
    Arg::Text(s.to_string())
}

// ---------------------------------------------------------------------------------------------
// DG-1, DG-2, DG-4: a big follower goes through and keeps its strength.

/// DG-1, DG-4 (and Q15: only followers go down): at the entrance just laid Red may send a
/// normal or a big follower down, or through to E2; a builder or a pig may not go. The big
/// follower comes out at E2 into Blue's city with its strength of 2 and wins it alone.
#[test]
fn dg4_a_big_follower_comes_out_with_strength_two() {
    let r = record(DIR, "dg4-big-pass-through");
    let mut game = before(r.clone(), 5);
    assert_eq!(
        offers(&game),
        [
            "enter",
            "enter 0 -1 E",
            "enter 0 -1 E big",
            "enter 0 -1 NL",
            "enter 0 -1 NL big",
            "enter big",
        ]
    );
    for figure in ["builder", "pig", "abbot"] {
        refused(&mut game, &script_action("enter", &[text(figure)]));
        refused(
            &mut game,
            &script_action(
                "enter",
                &[Arg::Int(0), Arg::Int(-1), text("E"), text(figure)],
            ),
        );
    }

    let after = before(r.clone(), 6);
    assert_eq!(at(&after, 0, -1), [(0, "big".to_string(), "E".to_string())]);
    assert_eq!(after.supply(0, kind("big")), 0);
    assert_eq!(after.supply(0, kind("follower")), 7);

    let end = run(&r);
    let city: Vec<(usize, u32)> = end
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Scored { player, points, .. } => Some((*player, *points)),
            _ => None,
        })
        .collect();
    assert_eq!(city, [(0, 8)], "strength 2 : 1, Red alone");
    assert_eq!(end.game.scores(), [8, 0]);
    assert!(end.game.figures().is_empty());
    assert_eq!(end.game.supply(0, kind("big")), 1);
    assert_eq!((end.game.held(0), end.game.held(1)), (0, 0));
}

/// The game of record `name` just before its last action, where Blue answers the flee question
/// on E3 (DG-T3's setting): checked that Blue is asked about his `figure` on E3's east cap and
/// not about his builder on the north cap.
fn asked_on_e3(name: &str, figure: &str) -> (Record, Game) {
    let r = record(DIR, name);
    let asked = before(r.clone(), r.actions.len() - 1);
    assert_eq!(asked.decision().player, 1);
    assert_eq!(offers(&asked), ["flee 1 2 E", "stay 1 2 E"]);
    assert_eq!(
        at(&asked, 1, 2),
        [
            (1, "builder".to_string(), "N".to_string()),
            (1, figure.to_string(), "E".to_string()),
        ]
    );
    (r, asked)
}

/// Whether `events` send `player`'s figure of kind `figure` home as the dragon's meal.
fn eaten(events: &[Event], player: usize, figure: &str) -> bool {
    events.iter().any(|e| {
        matches!(e, Event::FigureReturned { player: p, figure: f, reason: EATEN, .. }
            if *p == player && *f == kind(figure))
    })
}

// ---------------------------------------------------------------------------------------------
// DG-8(b), Q9, Q10, Q16: DG-T3 as written.

/// DG-T3: Blue is asked about his knight on E3, not about his builder; he flees with the knight,
/// and the builder is eaten as normal food (menu flesh_and_blood).
#[test]
fn dg_t3_the_knight_flees_and_the_builder_is_eaten() {
    let (r, _) = asked_on_e3("dg-t3-builder-eaten", "follower");
    let end = run(&r);
    let g = &end.game;
    assert_eq!(at(g, 1, 2), [], "E3 is empty");
    assert_eq!(at(g, 1, 1), [(1, "follower".to_string(), "N".to_string())]);
    assert_eq!(g.held_of(1, kind("follower")), 1, "the knight is below");
    assert_eq!(g.supply(1, kind("builder")), 1, "the builder is home");
    assert_eq!(g.supply(1, kind("follower")), 5);
    assert!(
        g.dragon_in_play() && g.dragon().is_none(),
        "the dragon is below"
    );
    assert!(eaten(&end.events, 1, "builder"));
    assert_eq!(g.scores(), [0, 0]);
}

/// Q16: the dragon's normal food is `pd.dragon.menu`: with menu "followers" the builder left on
/// E3 is not eaten.
#[test]
fn under_the_followers_menu_the_builder_survives() {
    let end = run(&under(
        record(DIR, "dg-t3-builder-eaten"),
        "dungeon-full-menu-followers.toml",
    ));
    assert_eq!(
        at(&end.game, 1, 2),
        [(1, "builder".to_string(), "N".to_string())]
    );
    assert_eq!(end.game.held_of(1, kind("follower")), 1);
}

/// DG-8(b), Q9: a big follower is a meeple, so it may flee like a knight. Blue is asked about
/// his big follower on E3 (not about his builder) and flees: it is below, still his; the builder
/// is eaten.
#[test]
fn dg8b_a_big_follower_flees_into_the_dungeon() {
    let (r, _) = asked_on_e3("dg-t3-big-flees", "big");
    let g = run(&r).game;
    assert_eq!(at(&g, 1, 2), [], "E3 is empty");
    assert_eq!(g.held_of(1, kind("big")), 1, "the big follower is below");
    assert_eq!(g.supply(1, kind("big")), 0);
    assert_eq!(g.supply(1, kind("builder")), 1, "the builder is home");
    assert!(g.dragon_in_play() && g.dragon().is_none());
}

/// DG-8(b): a big follower that stays is the dragon's normal food like any follower: eaten, back
/// in its owner's supply, and nothing is below.
#[test]
fn dg8b_a_big_follower_that_stays_is_eaten() {
    let (_, mut g) = asked_on_e3("dg-t3-big-flees", "big");
    let stay = g
        .legal()
        .into_iter()
        .find(|a| matches!(a, Action::Script(id) if script::action(*id).name == "stay"))
        .expect("the stay offer");
    let events = g.apply(&stay).expect("stay is legal");
    assert_eq!(at(&g, 1, 2), [], "both figures on E3 are eaten");
    assert_eq!(g.held(1), 0, "nobody is below");
    assert_eq!(g.supply(1, kind("big")), 1);
    assert_eq!(g.supply(1, kind("builder")), 1);
    assert!(eaten(&events, 1, "big"));
    assert!(
        g.dragon_in_play() && g.dragon().is_none(),
        "the dragon is below"
    );
}

// ---------------------------------------------------------------------------------------------
// DG-10: the optional flush.

/// DG-10 on: Red lays an entrance while the dragon is below and has his big follower: he drives
/// the dragon out where he likes (any entrance or volcano), it eats Blue's big farmer there, and
/// Red's big follower is back in his supply; no journey follows.
#[test]
fn dg10_the_big_follower_flushes_the_dragon_out() {
    let r = record(DIR, "dg10-flush");
    let n = r.actions.len();
    let choice = before(r.clone(), n - 1);
    assert_eq!(
        offers(&choice),
        ["flush 0 1", "flush 0 3", "flush 1 2", "flush 2 3"]
    );
    assert_eq!(
        at(&choice, 0, 3),
        [(1, "big".to_string(), "NL".to_string())]
    );

    let end = run(&r);
    let g = &end.game;
    assert_eq!(g.dragon(), Some(Pos::new(0, 3)));
    assert_eq!(at(g, 0, 3), [], "Blue's big farmer is eaten");
    assert_eq!(g.supply(1, kind("big")), 1);
    assert_eq!(
        g.supply(0, kind("big")),
        1,
        "Red's big follower is home again"
    );
    assert_eq!(g.held(0), 0);
    assert_eq!(
        g.held_of(1, kind("follower")),
        1,
        "Blue's knight stays below"
    );
    let mut flushed = choice.clone();
    let events = flushed.apply(&r.actions[n - 1].0).expect("the flush");
    let moved = events
        .iter()
        .any(|e| matches!(PdEvent::of(e), Some(PdEvent::DragonMoved { .. })));
    assert!(!moved, "no journey follows the flush");
    assert_eq!(flushed.decision().player, 1, "Blue's turn comes next");
    assert_eq!(g.scores(), [0, 0]);
}

/// DG-10 off (the default, `dungeon-full`): the flush is not offered and is refused.
#[test]
fn without_the_option_there_is_no_flush() {
    let r = under(record(DIR, "dg10-flush"), "dungeon-full-synthetic.toml");
    let n = r.actions.len();
    let mut game = before(r, n - 1);
    assert_eq!(offers(&game), Vec::<String>::new());
    refused(
        &mut game,
        &script_action("flush", &[Arg::Int(0), Arg::Int(3)]),
    );
    assert_eq!(game.dragon(), None);
}

/// Without a big follower in supply there is nothing to flush with, even with the option on.
#[test]
fn the_flush_needs_a_big_follower_in_supply() {
    let mut r = record(DIR, "dg10-flush");
    // Turn 3: Red's big farmer on his FIELD instead of passing; it stays there (and Blue
    // passes on turn 8, as the farm is Red's now).
    let at_turn_3 = r
        .actions
        .iter()
        .position(|(a, _)| matches!(a, Action::Place { pos, .. } if *pos == Pos::new(-1, 1)))
        .expect("turn 3");
    r.actions[at_turn_3 + 1].0 = Action::Deploy {
        pos: Pos::new(-1, 1),
        spot: castellan::model::geometry::Spot::parse("NL").expect("a spot"),
        figure: kind("big"),
    };
    let turn_8 = r
        .actions
        .iter()
        .position(|(a, _)| matches!(a, Action::Deploy { pos, .. } if *pos == Pos::new(0, 3)))
        .expect("turn 8");
    r.actions[turn_8].0 = Action::Pass;
    let n = r.actions.len();
    let game = before(r, n - 1);
    assert_eq!(game.supply(0, kind("big")), 0);
    assert_eq!(offers(&game), Vec::<String>::new());
}

// ---------------------------------------------------------------------------------------------
// Random games.

/// Plays random `dungeon-full` games (2 to 6 players): after every action each player's
/// figures of every kind are on the board, in supply or below (held), as many as the table
/// gives; at the end nobody is below (Q14); every exit the script offers is on an entrance with
/// no figure at all on it (DG-4b: followers, big followers, builders, pigs). Returns how often
/// each script action was chosen.
fn play(rules: &Arc<Ruleset>, games: u64) -> std::collections::BTreeMap<String, usize> {
    let rows = rules.figures.rows().to_vec();
    let mut chosen = std::collections::BTreeMap::<String, usize>::new();
    for seed in 0..games {
        let players = 2 + (seed % 5) as usize;
        let names = (0..players).map(|i| format!("P{i}")).collect();
        let (mut game, _) =
            Game::new(Arc::clone(rules), Setup::new(names, seed)).expect("the game starts");
        let mut bot = RandomBot::new(seed * 13 + 5);
        while !game.is_over() {
            for a in game.legal() {
                if let Action::Script(id) = a {
                    check_exit(&game, &script::action(id), seed);
                }
            }
            let action = bot.choose(&game);
            if let Action::Script(id) = action {
                let a = script::action(id);
                let name = match a.args.last() {
                    Some(Arg::Text(k)) if k == "big" => format!("{} big", a.name),
                    _ => a.name,
                };
                *chosen.entry(name).or_default() += 1;
            }
            game.apply(&action)
                .unwrap_or_else(|e| panic!("{} seed {seed}: {e}", rules.name));
            for p in 0..players {
                for row in &rows {
                    let board = game
                        .figures()
                        .iter()
                        .filter(|f| f.owner == p && f.kind == row.kind)
                        .count();
                    let total = board
                        + usize::from(game.supply(p, row.kind))
                        + usize::from(game.held_of(p, row.kind));
                    assert_eq!(
                        total,
                        usize::from(row.per_player),
                        "seed {seed} {p} {:?}",
                        row.kind
                    );
                }
            }
        }
        assert!((0..players).all(|p| game.held(p) == 0), "seed {seed}: Q14");
    }
    chosen
}

/// DG-4b: an offered exit (`exit`, `exit_escorted`, or the way out of `enter`) lies on a tile
/// where no figure stands.
fn check_exit(game: &Game, a: &script::ScriptAction, seed: u64) {
    let xy = match (a.name.as_str(), a.args.as_slice()) {
        ("exit" | "exit_escorted", [Arg::Int(x), Arg::Int(y), ..]) => (*x, *y),
        ("enter", [Arg::Int(x), Arg::Int(y), ..]) => (*x, *y),
        _ => return,
    };
    let (x, y) = (xy.0 as i32, xy.1 as i32);
    assert_eq!(at(game, x, y), [], "seed {seed}: a figure closes ({x},{y})");
}

/// Conservation of every figure kind, DG-4b and no script error over many `dungeon-full`
/// games; big followers go down, come out and flee. `DUNGEON_GAMES=n` plays more games.
#[test]
fn random_dungeon_full_games_keep_every_figure() {
    let rules = Ruleset::load("dungeon-full").expect("loads");
    let chosen = play(&rules, common::dungeon_games(80));
    common::all_chosen(
        &chosen,
        &[
            "enter",
            "enter big",
            "exit",
            "exit big",
            "flee",
            "dragon_exit",
        ],
    );
}

/// The same with the flush on (DG-10): it is chosen, and nothing is made or lost.
#[test]
fn random_games_with_the_flush() {
    let rules = Arc::clone(&under(record(DIR, "dg10-flush"), "dungeon-full-flush.toml").rules);
    let chosen = play(&rules, 60);
    assert!(chosen.get("flush").is_some_and(|n| *n > 0), "{chosen:?}");
}

/// `castellan simulate --ruleset dungeon-full --games 200` plays its games.
#[test]
fn simulate_plays_two_hundred_dungeon_full_games() {
    common::simulate("dungeon-full", 200);
}

/// DG-1: a ruleset that lets a builder go down is refused when the game starts, with the
/// script's located error.
#[test]
fn a_builder_in_enter_figures_is_refused() {
    let rules = Arc::clone(
        &under(
            record(DIR, "dg10-flush"),
            "dungeon-full-builder-enters.toml",
        )
        .rules,
    );
    let Err(castellan::engine::game::SetupError::Script(e)) =
        Game::new(rules, Setup::new(vec!["A".into(), "B".into()], 1))
    else {
        panic!("the game must not start")
    };
    assert_eq!(e.hook, "game_start");
    assert!(e.message.contains("\"builder\" is no follower"), "{e}");
}

/// A finished game answers nothing: no legal action is left over from the last decision the
/// scripts prepared a list for (found by the property `legal_actions_are_accepted_and_others_
/// refused` on this game: 5 players, its last deploy decision had script offers).
#[test]
fn a_finished_game_lists_no_actions() {
    let rules = Ruleset::load("dungeon-full").expect("the shipped preset loads");
    let names = (1..=5).map(|i| format!("P{i}")).collect();
    let (mut game, _) =
        Game::new(rules, Setup::new(names, 1_805_801_481_365_668_869)).expect("the game starts");
    let mut bot = RandomBot::new(11_833_750_347_289_034_741);
    while !game.is_over() {
        let action = bot.choose(&game);
        game.apply(&action).expect("a legal action");
    }
    assert_eq!(game.legal(), Vec::<Action>::new());
}
