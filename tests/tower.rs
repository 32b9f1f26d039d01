//! The Tower (`[mechanics] tower`, RULES-MORE.md §1, TW-1 to TW-10, and its P&D interactions
//! of §5): floors on any foundation or open tower, a follower closing a tower, captures within
//! the tower's reach, prisoners held by their captor, exchanged at once and bought back. Each
//! record under `tests/records/tower/` says its scenario and expected outcome in its header.

use castellan::data::ruleset::Ruleset;
use castellan::engine::action::Action;
use castellan::engine::event::{Event, ReturnReason};
use castellan::engine::game::{Game, RuleError, Setup};
use castellan::mechanic::pd::vocabulary::{PdAction, PdEvent};
use castellan::mechanic::tower::vocabulary::{TowerAction, TowerEvent, captured};
use castellan::mechanic::tower::{self, closed, reach};
use castellan::model::figure::{FigureKind, Place};
use castellan::model::geometry::{Pos, Spot};
use castellan::record::{self, Record, Replay};

mod common;
use common::{before, run};

const A: usize = 0;
const B: usize = 1;
const FOLLOWER: FigureKind = FigureKind::Follower;

fn load(name: &str) -> Record {
    common::record("tower", name)
}

fn under(name: &str, fixture: &str) -> Record {
    common::under(load(name), fixture)
}

fn capture(x: i32, y: i32, spot: &str, owner: u8) -> Action {
    TowerAction::Capture {
        pos: Pos::new(x, y),
        spot: Spot::parse(spot).expect("spot"),
        owner,
        figure: FOLLOWER,
    }
    .into()
}

fn floor(x: i32, y: i32) -> Action {
    TowerAction::Floor {
        pos: Pos::new(x, y),
    }
    .into()
}

fn top(x: i32, y: i32) -> Action {
    TowerAction::Top {
        pos: Pos::new(x, y),
        figure: FOLLOWER,
    }
    .into()
}

/// The tower at `pos`: (height, closed).
fn tower_at(game: &Game, pos: Pos) -> (u8, bool) {
    let s = tower::state(game).expect("the Tower plays");
    let t = s.towers.iter().find(|t| t.pos == pos).expect("a tower");
    (t.height, closed(game, t))
}

/// Where every figure on a feature stands: (owner, tile).
fn on_board(game: &Game) -> Vec<(usize, Pos)> {
    let mut out: Vec<(usize, Pos)> = (game.figures().iter())
        .map(|f| (f.owner, game.figure_spot(f).0))
        .collect();
    out.sort_by_key(|(o, p)| (*o, p.x, p.y));
    out
}

/// Applies an action that must be refused with `rule` and checks the game did not change.
fn refused(game: &mut Game, action: Action, rule: &str) -> RuleError {
    let saved = record::write(game, "x");
    let err = game.apply(&action).expect_err("refused");
    assert_eq!(err.rule().map(|r| r.0), Some(rule), "{err}");
    assert_eq!(
        record::write(game, "x"),
        saved,
        "{action:?} changed the game"
    );
    err
}

/// TW-E1: a tower of height h reaches its tile and h tiles in each of the four directions,
/// 1 + 4h tiles; a diagonal tile is never in reach.
#[test]
fn the_reach_is_the_row_and_column_up_to_the_height() {
    let at = Pos::new(0, 0);
    let one: Vec<Pos> = reach(at, 1).collect();
    assert_eq!(one.len(), 5);
    for p in [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)] {
        assert!(one.contains(&Pos::new(p.0, p.1)), "{p:?}");
    }
    let two: Vec<Pos> = reach(at, 2).collect();
    assert_eq!(two.len(), 9);
    for p in [(2, 0), (-2, 0), (0, 2), (0, -2)] {
        assert!(two.contains(&Pos::new(p.0, p.1)), "{p:?}");
    }
    assert!(!two.contains(&Pos::new(1, 1)), "diagonal");
}

/// TW-2, TW-5, TW-6 (TW-E1): after a floor the captor may take any follower in reach, his own
/// included, but not one on a diagonal tile; TW-7 (TW-E2): when two players hold each other's
/// prisoner both go home at once, net 0 points.
#[test]
fn a_capture_in_reach_and_the_exchange_of_prisoners() {
    let record = load("exchange");
    let n = record.actions.len();
    // A's capture decision, after his floor (action 10 of 13).
    let game = before(load("exchange"), n - 4);
    let mut legal = game.legal();
    legal.sort_by_key(|a| format!("{a:?}"));
    let mut want = vec![capture(0, -1, "C", 0), capture(0, 1, "C", 1), Action::Pass];
    want.sort_by_key(|a| format!("{a:?}"));
    assert_eq!(
        legal, want,
        "the monk at (1,1) is on a diagonal: out of reach"
    );
    assert_eq!(tower_at(&game, Pos::new(0, 0)), (1, false));

    // After A's capture, A holds B's monk.
    let game = before(load("exchange"), n - 3);
    assert_eq!(game.custody(A), vec![(B, FOLLOWER, 1)]);
    assert_eq!(game.supply(B, FOLLOWER), 5, "one on (1,1), one held by A");
    assert_eq!(
        on_board(&game),
        vec![(A, Pos::new(0, -1)), (B, Pos::new(1, 1))]
    );

    let Replay { game, events } = run(&record);
    assert!(events.iter().any(|e| TowerEvent::of(e)
        == Some(TowerEvent::Exchanged {
            player: B,
            figure: FOLLOWER,
            other: A,
            other_figure: FOLLOWER,
        })));
    assert!(events.iter().any(|e| matches!(
        e,
        Event::FigureReturned { player: A, x: 0, y: -1, reason, .. } if *reason == captured()
    )));
    assert!(game.prisoners().is_empty(), "TW-7: exchanged at once");
    assert_eq!(game.supply(A, FOLLOWER), 7);
    assert_eq!(game.supply(B, FOLLOWER), 6);
    assert_eq!(on_board(&game), vec![(B, Pos::new(1, 1))]);
    assert_eq!(game.scores(), &[0, 0], "TW-E2: net 0 points");
    assert_eq!(tower_at(&game, Pos::new(0, 0)), (2, false));
    assert_eq!(tower::state(&game).expect("state").floors, vec![9, 9]);
}

/// TW-6 with `tower.capture_own = false`: the captor's own follower is not offered.
#[test]
fn without_own_captures_only_the_other_players_follower_is_offered() {
    let record = under("exchange", "tower-no-own-capture.toml");
    let n = record.actions.len();
    let mut game = before(record, n - 4);
    assert_eq!(game.legal(), vec![capture(0, 1, "C", 1), Action::Pass]);
    refused(&mut game, capture(0, -1, "C", 0), "TW-5");
    refused(&mut game, capture(1, 1, "C", 1), "TW-5");
}

/// TW-8, TW-E3: the owner buys his prisoner back: he pays 3, the captor gets 3.
#[test]
fn a_ransom_moves_three_points_and_frees_the_prisoner() {
    let record = load("ransom");
    let n = record.actions.len();
    let game = before(load("ransom"), n - 1);
    assert_eq!(game.scores(), &[0, 4], "B's two-tile city");
    assert_eq!(game.custody(A), vec![(B, FOLLOWER, 1)]);
    let Replay { game, events } = run(&record);
    assert!(events.iter().any(|e| TowerEvent::of(e)
        == Some(TowerEvent::Ransomed {
            player: B,
            holder: A,
            figure: FOLLOWER,
            points: 3,
        })));
    assert_eq!(game.scores(), &[3, 1]);
    assert!(game.prisoners().is_empty());
    assert_eq!(game.supply(B, FOLLOWER), 7);
    assert!(game.figures().is_empty());
    assert!(
        game.legal().contains(&Action::Pass),
        "the deployment follows: the ransom is no deploy action"
    );
}

/// `tower.ransom_points = 5`: with 4 points B cannot pay, so no ransom is asked.
#[test]
fn a_ransom_the_owner_cannot_pay_is_not_offered() {
    let record = under("ransom", "tower-ransom-5.toml");
    let n = record.actions.len();
    let mut game = before(record, n - 1);
    let ransom: Action = TowerAction::Ransom {
        holder: 0,
        figure: FOLLOWER,
    }
    .into();
    assert!(!game.legal().contains(&ransom));
    let err = game.apply(&ransom).expect_err("refused");
    assert!(err.to_string().contains("buy back"), "{err}");
}

/// TW-2 c, TW-4, TW-9: a follower on top closes the tower (no floor, no other top); it stands
/// on the tile, on no feature; TW-6: a second tower's capture may take it; Q-TW2: the tower is
/// open again by default.
#[test]
fn a_follower_closes_a_tower_and_a_second_tower_captures_it() {
    let record = load("close");
    let n = record.actions.len();
    // A's turn 3, deployment: the tower at (0,0) is closed.
    let mut game = before(load("close"), n - 2);
    assert_eq!(
        game.figure_at_place(Place::Tile(Pos::new(0, 0))),
        Some((B, FOLLOWER))
    );
    assert_eq!(tower_at(&game, Pos::new(0, 0)), (1, true));
    assert!(game.figures().is_empty(), "TW-9: on no feature");
    assert_eq!(game.supply(B, FOLLOWER), 6);
    assert!(!game.legal().contains(&floor(0, 0)), "TW-4: closed");
    assert!(!game.legal().contains(&top(0, 0)));
    refused(&mut game, floor(0, 0), "TW-2");

    let Replay { game, .. } = run(&record);
    assert_eq!(game.custody(A), vec![(B, FOLLOWER, 1)]);
    assert_eq!(game.figure_at_place(Place::Tile(Pos::new(0, 0))), None);
    assert_eq!(
        tower_at(&game, Pos::new(0, 0)),
        (1, false),
        "Q-TW2: open again"
    );
    assert_eq!(tower_at(&game, Pos::new(0, 1)), (1, false));

    // `tower.reopen_after_capture = false`: closed for good.
    let Replay { game, .. } = run(&under("close", "tower-sealed.toml"));
    assert_eq!(tower_at(&game, Pos::new(0, 0)), (1, true));
}

/// TW-9: the follower on top of a tower is drawn on its tile, on top of the tower: in the
/// SVG as a figure at the place `tile`, on the text board as its owner's number (the closing
/// action changes nothing else there).
#[test]
fn the_follower_on_a_tower_is_drawn_on_its_tile() {
    use castellan::ui::render::{svg, text};
    let record = load("close");
    let at = record
        .actions
        .iter()
        .position(|(a, _)| *a == top(0, 0))
        .expect("the record closes the tower at (0,0)");
    let (open, closed) = (before(load("close"), at), before(load("close"), at + 1));
    assert_eq!(
        closed.figure_at_place(Place::Tile(Pos::new(0, 0))),
        Some((B, FOLLOWER))
    );
    let picture = svg::board(&closed);
    assert!(
        picture.contains(
            r#"<g class="figure" data-player="1" data-place="tile" data-x="0" data-y="0" data-kind="follower""#
        ),
        "{picture}"
    );
    assert!(!svg::board(&open).contains(r#"data-place="tile""#));
    let twos = |g: &Game| text::board(g, false).matches('2').count();
    assert_eq!(
        twos(&closed),
        twos(&open) + 1,
        "{}",
        text::board(&closed, false)
    );
}

/// TW-C3: floors per player by player count (2p 10, 3p 9, 4p 7, 5p 6).
#[test]
fn floors_by_player_count() {
    let rules = Ruleset::load("hig-tower").expect("loads");
    for (players, floors) in [(2, 10), (3, 9), (4, 7), (5, 6)] {
        let names = (0..players).map(|i| format!("P{i}")).collect();
        let (game, _) = Game::new(rules.clone(), Setup::new(names, 1)).expect("starts");
        let s = tower::state(&game).expect("state");
        assert_eq!(s.floors, vec![floors; players], "{players} players");
    }
}

/// TW-10: at the end of the game prisoners go back to their owners; a follower on a tower
/// stays there and scores nothing. Checked over seeded random games of both presets: no
/// prisoner is left when the game is over.
#[test]
fn prisoners_go_home_at_the_end() {
    use castellan::bot::{Bot, RandomBot};
    for preset in ["hig-tower", "zman-tower"] {
        let rules = Ruleset::load(preset).expect("loads");
        let mut captures = 0;
        for seed in 0..6 {
            let names = vec!["A".into(), "B".into(), "C".into()];
            let (mut game, _) = Game::new(rules.clone(), Setup::new(names, seed)).expect("starts");
            let mut bot = RandomBot::new(seed);
            while !game.is_over() {
                let action = bot.choose(&game);
                let events = game.apply(&action).expect("a legal action");
                captures += events
                    .iter()
                    .filter(|e| matches!(TowerEvent::of(e), Some(TowerEvent::Captured { .. })))
                    .count();
            }
            assert!(game.prisoners().is_empty(), "{preset} seed {seed}");
        }
        assert!(captures > 0, "{preset}: random games capture");
    }
}

/// A floor's return reason reads as the Tower's (TW-5) in words.
#[test]
fn the_capture_reason_reads() {
    let ReturnReason::Mechanic(_) = captured() else {
        panic!("a family's reason")
    };
    let words = castellan::engine::words::event(
        &Event::FigureReturned {
            player: 0,
            figure: FOLLOWER,
            x: 0,
            y: 1,
            reason: captured(),
        },
        &["A".to_string(), "B".to_string()],
    )
    .to_string();
    assert!(words.contains("prisoner"), "{words}");
}

/// A fairy move onto the tile at (x, y), naming no feature.
fn fairy_onto(x: i32, y: i32) -> Action {
    Action::from(PdAction::Fairy {
        pos: Pos::new(x, y),
        spot: None,
    })
}

/// X-6 (seed 004 §Fairy, "Exp. 4"): the fairy may be moved to a tile whose only follower stands
/// on a tower; it then pays that follower's owner the turn point (FA7) like a fairy beside any
/// follower. A player with no follower there is not offered it.
#[test]
fn the_fairy_goes_beside_a_follower_on_a_tower() {
    let record = load("fairy");
    let n = record.actions.len();
    let move_at = n - 3;
    // B's deployment after laying (7,0): the fairy may go beside his follower on the tower.
    let game = before(load("fairy"), move_at);
    assert_eq!(game.decision().player, B);
    let fairy_moves: Vec<Action> = (game.legal().into_iter())
        .filter(|a| matches!(PdAction::of(a), Some(PdAction::Fairy { .. })))
        .collect();
    assert_eq!(fairy_moves, vec![fairy_onto(0, 0)], "X-6");
    // A, at his deployment before, had no follower anywhere: no fairy move.
    let a_turn = before(load("fairy"), move_at - 2);
    assert_eq!(a_turn.decision().player, A);
    assert!(
        !(a_turn.legal().iter()).any(|a| matches!(PdAction::of(a), Some(PdAction::Fairy { .. })))
    );

    let Replay { game, events } = run(&record);
    assert_eq!(game.fairy().map(|f| f.pos), Some(Pos::new(0, 0)));
    assert_eq!(
        game.figure_at_place(Place::Tile(Pos::new(0, 0))),
        Some((B, FOLLOWER))
    );
    // FA7 at the start of B's turn 6: one point, nothing else scored in the game.
    let points: Vec<(usize, u32)> = (events.iter())
        .filter_map(|e| match PdEvent::of(e) {
            Some(PdEvent::FairyPoint { player, points }) => Some((player, points)),
            _ => None,
        })
        .collect();
    assert_eq!(points, vec![(B, 1)]);
    assert_eq!(game.scores(), &[0, 1]);

    // The fairy on a tile (`pd.fairy.attach = "tile"`), moved only where the player has a
    // follower: the tile of his follower on the tower is one, and it pays him there (FA7).
    let tile_mode = || under("fairy", "tower-fairy-tile.toml");
    let game = before(tile_mode(), move_at);
    let fairy_moves: Vec<Action> = (game.legal().into_iter())
        .filter(|a| matches!(PdAction::of(a), Some(PdAction::Fairy { .. })))
        .collect();
    assert_eq!(fairy_moves, vec![fairy_onto(0, 0)], "X-6, tile mode");
    let Replay { game, .. } = run(&tile_mode());
    assert_eq!(game.scores(), &[0, 1]);
}

/// X-5 (seed 002 §Rules for using this expansion with other expansions, "FAIRY – Exp. 4"; seed
/// 004 §Other expansions; RULES.md FA10): the fairy beside B's monk does not keep A's tower from
/// taking it; the fairy stays on its tile, beside nobody. Under the house rule
/// `pd.fairy.protects_from_tower` the monk is not offered to the capture.
#[test]
fn the_fairy_does_not_protect_from_a_capture_unless_the_house_rule_says() {
    let record = load("fairy-capture");
    let capture_at = record.actions.len() - 1;
    let monk = capture(0, 1, "C", 1);
    assert!(
        before(load("fairy-capture"), capture_at)
            .legal()
            .contains(&monk)
    );
    let Replay { game, .. } = run(&record);
    assert_eq!(game.custody(A), vec![(B, FOLLOWER, 1)]);
    let fairy = game.fairy().expect("the fairy is on the board");
    assert_eq!((fairy.pos, fairy.follower), (Pos::new(0, 1), None));

    // With the house rule the floor is built and no capture is asked: the monk, the one
    // figure in reach, is shielded, so B's turn begins.
    let shielded = before(
        under("fairy-capture", "tower-fairy-shield.toml"),
        capture_at,
    );
    assert_eq!(tower_at(&shielded, Pos::new(0, 0)), (1, false));
    assert_eq!(shielded.decision().player, B);
    assert!(!shielded.legal().contains(&monk));
    assert!(shielded.custody(A).is_empty());
}

/// TW-2, TW-3, TW-4: the floors and tops a random bot picks from are counted and built one at
/// a time (`Shortcuts::count_actions`, `Shortcuts::nth_action`) instead of listed; at every
/// decision of seeded random games of `hig-tower` and `hig-big-box` (two to five players),
/// the count is the legal list's length and every index picks that entry of the list, while
/// towers rise, close (a figure on top) and open again.
#[test]
fn the_counted_floors_and_tops_are_the_listed_ones() {
    use castellan::bot::{Bot, RandomBot};
    use std::sync::Arc;

    let (mut listed, mut scratch) = (Vec::new(), Vec::new());
    let (mut answers, mut closed_seen) = (0, 0);
    for preset in ["hig-tower", "hig-big-box"] {
        let rules = Arc::new(Ruleset::load(preset).expect("the preset"));
        for seed in 0..4u64 {
            let players = 2 + (seed as usize % 4);
            let names: Vec<String> = (0..players).map(|i| format!("P{i}")).collect();
            let setup = Setup::new(names, seed);
            let (mut game, _) = Game::new(Arc::clone(&rules), setup).expect("starts");
            let mut bot = RandomBot::new(seed);
            while !game.is_over() {
                listed.clear();
                game.legal_actions(&mut listed);
                let n = listed.len();
                for (k, entry) in listed.iter().enumerate() {
                    let picked = game.pick_legal(&mut scratch, |m| {
                        assert_eq!(m, n, "{preset} seed {seed} turn {}", game.turn());
                        k
                    });
                    assert_eq!(picked, Some(*entry), "{preset} seed {seed} pick {k}");
                }
                answers += listed
                    .iter()
                    .filter(|a| TowerAction::of(a).is_some())
                    .count();
                let towers = tower::state(&game).map_or(&[][..], |s| &s.towers[..]);
                closed_seen += towers.iter().filter(|t| closed(&game, t)).count();
                let action = bot.choose(&game);
                game.apply(&action).expect("legal");
            }
        }
    }
    assert!(
        answers > 5000,
        "the games offer many floors and tops ({answers})"
    );
    assert!(
        closed_seen > 100,
        "towers were closed while offered ({closed_seen})"
    );
}
