//! The bridges of Bridges, Castles & Bazaars (`[mechanics] bridges_castles_bazaars`,
//! RULES-MORE.md §4.2, BCB-1 to BCB-6, and X-2, X-12 of §5): a bridge laid with the tile
//! placement across the new tile or a placed tile beside it, its ends on field edges, a road of
//! its own joined to the roads it meets, a follower on it, scored as a road tile. Each record
//! under `tests/records/bridges/` says its scenario and expected outcome in its header.

use castellan::engine::action::Action;
use castellan::engine::action::DecisionKind;
use castellan::engine::event::Event;
use castellan::engine::game::{Game, RuleError};
use castellan::mechanic::bcb::bridge::left;
use castellan::mechanic::bcb::vocabulary::{BcbAction, BcbDecision, BcbEvent};
use castellan::model::figure::FigureKind;
use castellan::model::geometry::{Pos, Rotation, Spot};
use castellan::record::{self, Record, Replay};

mod common;
use common::{before, run};
#[path = "common/api.rs"]
mod api;

const A: usize = 0;
const B: usize = 1;
const FOLLOWER: FigureKind = FigureKind::Follower;

fn load(name: &str) -> Record {
    common::record("bridges", name)
}

fn under(name: &str, fixture: &str) -> Record {
    common::under(load(name), fixture)
}

fn spot(name: &str) -> Spot {
    Spot::parse(name).expect("a spot")
}

/// The tile laid at (`x`, `y`) turned `degrees` with a bridge `edge` across (`bx`, `by`).
fn bridge(x: i32, y: i32, degrees: i64, bx: i32, by: i32, edge: &str) -> Action {
    BcbAction::Bridge {
        pos: Pos::new(x, y),
        rotation: Rotation::from_degrees(degrees).expect("a rotation"),
        at: Pos::new(bx, by),
        edge: spot(edge),
    }
    .into()
}

/// A bridge laid after the deploy action across (`x`, `y`) (BCB-6 `any_time_in_turn`).
fn late(x: i32, y: i32, edge: &str) -> Action {
    BcbAction::LateBridge {
        at: Pos::new(x, y),
        edge: spot(edge),
    }
    .into()
}

/// Whether `events` tell that `player` laid a bridge across `at` from its edge `edge`.
fn bridge_placed(events: &[Event], player: usize, at: Pos, edge: &str) -> bool {
    let laid = BcbEvent::BridgePlaced {
        player,
        x: at.x,
        y: at.y,
        edge: spot(edge),
    };
    events.iter().any(|e| BcbEvent::of(e) == Some(laid.clone()))
}

fn place(x: i32, y: i32, degrees: i64) -> Action {
    Action::Place {
        pos: Pos::new(x, y),
        rotation: Rotation::from_degrees(degrees).expect("a rotation"),
    }
}

/// Where every figure on a feature stands: (owner, tile, spot).
fn on_board(game: &Game) -> Vec<(usize, Pos, Spot)> {
    let mut out: Vec<(usize, Pos, Spot)> = (game.figures().iter())
        .map(|f| {
            let (pos, spot) = game.figure_spot(f);
            (f.owner, pos, spot)
        })
        .collect();
    out.sort_by_key(|(o, p, s)| (*o, p.x, p.y, s.name()));
    out
}

/// The bridges laid with the tile at `pos` in the legal list.
fn bridges_at(legal: &[Action], pos: Pos) -> Vec<Action> {
    (legal.iter().copied())
        .filter(|a| matches!(BcbAction::of(a), Some(BcbAction::Bridge { pos: p, .. }) if p == pos))
        .collect()
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

/// BCB-1, BCB-2, BCB-4 ([PG-BR]): FIELD between two road ends fits only with a bridge running
/// east–west across it, in any of its four turns; BCB-3, BCB-5: the bridge closes the road,
/// a follower stands on it, and the road scores its 3 tiles with the bridge tile counted.
#[test]
fn a_bridge_across_the_new_tile_joins_the_roads_and_scores_as_a_road_tile() {
    let record = load("own-tile");
    let game = before(load("own-tile"), 0);
    let legal = game.legal();
    let at = Pos::new(1, 0);
    assert!(
        !legal
            .iter()
            .any(|a| matches!(a, Action::Place { pos, .. } if *pos == at)),
        "B-P2: the field edges meet roads"
    );
    let want: Vec<Action> = [0, 90, 180, 270]
        .into_iter()
        .map(|r| bridge(1, 0, r, 1, 0, "E"))
        .collect();
    assert_eq!(bridges_at(&legal, at), want, "BCB-4: only east–west");
    assert_eq!(
        (left(&game, A), left(&game, B)),
        (3, 3),
        "BCB-C2: 2 players"
    );

    // After the tile and its bridge: a follower may go on the bridge (BCB-5).
    let game = before(load("own-tile"), 1);
    let legal = game.legal();
    let on_bridge = Action::Deploy {
        pos: at,
        spot: spot("E"),
        figure: FOLLOWER,
    };
    assert!(legal.contains(&on_bridge), "{legal:?}");
    // BCB-3: the field under the bridge stays one field.
    let north = game.seg_at(at, spot("NL")).expect("a field");
    let south = game.seg_at(at, spot("SL")).expect("a field");
    assert!(game.features().same(north, south));
    // The bridge is a road joining the two road ends.
    let (west, east) = (
        game.seg_at(Pos::new(0, 0), spot("E")).expect("a road"),
        game.seg_at(Pos::new(2, 0), spot("W")).expect("a road"),
    );
    assert!(game.features().same(west, east));
    assert_eq!(left(&game, A), 2);

    let Replay { game, events } = run(&record);
    assert!(bridge_placed(&events, A, Pos::new(1, 0), "E"));
    assert!(events.iter().any(|e| matches!(
        e,
        Event::FeatureCompleted {
            tiles: 3,
            x: 1,
            y: 0,
            ..
        }
    )));
    assert_eq!(
        game.scores(),
        &[3, 0],
        "a road of 3 tiles, the bridge's counted"
    );
    assert_eq!(on_board(&game), vec![], "the follower went home");
    assert_eq!(game.supply(A, FOLLOWER), 7);
    assert_eq!((left(&game, A), left(&game, B)), (2, 3));
}

/// BCB-1, BCB-4 ([PG-BR][WC-OOP]): a road may meet the field edge of a placed tile when a bridge
/// across that tile takes it on; the bridge's open end then asks the next tile for a road
/// there, and the road through it scores its 3 tiles.
#[test]
fn a_bridge_across_the_tile_beside_takes_the_new_road_on() {
    let record = load("beside");
    let game = before(load("beside"), 0);
    let legal = game.legal();
    assert!(!legal.contains(&place(1, 0, 270)), "B-P2 without a bridge");
    assert!(legal.contains(&bridge(1, 0, 270, 0, 0, "E")));
    assert!(
        !legal.contains(&bridge(1, 0, 270, 0, 0, "N")),
        "a north–south bridge does not take the road on"
    );

    let game = before(load("beside"), 2);
    assert_eq!(on_board(&game), vec![(A, Pos::new(1, 0), spot("W"))]);
    assert_eq!(game.scores(), &[0, 0]);
    let legal = game.legal();
    assert!(legal.contains(&place(-1, 0, 90)), "a road meets the bridge");
    assert!(
        !legal.contains(&place(-1, 0, 0)),
        "a field edge may not meet the bridge's end"
    );

    let Replay { game, events } = run(&record);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::FeatureCompleted {
            tiles: 3,
            x: -1,
            y: 0,
            ..
        }
    )));
    assert_eq!(game.scores(), &[3, 0]);
    assert_eq!(on_board(&game), vec![]);
    assert_eq!((left(&game, A), left(&game, B)), (2, 3));
}

/// Refused bridges leave the game as it was: an end on a road edge (BCB-2), a second bridge
/// on a tile (BCB-1), a bridge after the placement (BCB-6 `with_tile`).
#[test]
fn refused_bridges_change_nothing() {
    let mut game = before(load("own-tile"), 0);
    // The start tile at (0,0) has its road east: no bridge may end there.
    refused(&mut game, bridge(1, 0, 0, 0, 0, "E"), "BCB-2");
    refused(&mut game, bridge(1, 0, 0, 1, 0, "N"), "B-P2");
    refused(&mut game, bridge(1, 0, 0, 3, 0, "E"), "BCB-1");

    let mut game = before(load("beside"), 2);
    refused(&mut game, bridge(-1, 0, 90, 0, 0, "E"), "BCB-1");

    let mut game = before(load("own-tile"), 1);
    refused(&mut game, bridge(1, 1, 0, 1, 1, "E"), "BCB-6");
}

/// BCB-C2 (`bcb.bridge.by_players` all 0): a player with no bridge left is offered none, and
/// one asked for is refused.
#[test]
fn without_bridges_none_is_offered_or_laid() {
    let mut game = before(under("own-tile", "bridges-none.toml"), 0);
    let legal = game.legal();
    assert!(
        legal.iter().all(|a| BcbAction::of(a).is_none()),
        "{legal:?}"
    );
    assert_eq!(left(&game, A), 0);
    refused(&mut game, bridge(1, 0, 0, 1, 0, "E"), "BCB-C2");
}

/// BCB-4 with B-P5: a tile that fits nowhere by its edges alone is kept when a bridge makes
/// it fit, and discarded when the player has no bridge.
#[test]
fn a_tile_that_fits_only_with_a_bridge_is_not_discarded() {
    let discarded = |record: &Record| {
        run(record)
            .events
            .iter()
            .any(|e| matches!(e, Event::TileDiscarded { .. }))
    };
    let record = load("crossroads");
    assert!(!discarded(&record), "FIELD fits with a bridge");
    let game = run(&record).game;
    let legal = game.legal();
    assert!(
        legal.iter().all(|a| BcbAction::of(a).is_some()),
        "{legal:?}"
    );
    assert!(legal.contains(&bridge(1, 0, 0, 1, 0, "E")));
    assert!(discarded(&under("crossroads", "bridges-none.toml")));
}

/// X-12 ([002 §VOLCANO][004]): a bridge may be laid on a volcano tile; the dragon comes to it
/// and the bridge stays under it (X-2: the dragon eats no bridge); no follower goes on the
/// volcano tile, the bridge included (V3).
#[test]
fn a_bridge_on_a_volcano_stays_under_the_dragon() {
    let Replay { game, .. } = run(&load("volcano"));
    let at = Pos::new(1, 0);
    assert_eq!(game.dragon(), Some(at));
    let bridge_road = game.seg_at(at, spot("E")).expect("the bridge");
    let start_road = game.seg_at(Pos::new(0, 0), spot("E")).expect("a road");
    assert!(game.features().same(bridge_road, start_road));
    let legal = game.legal();
    assert!(
        !legal
            .iter()
            .any(|a| matches!(a, Action::Deploy { pos, .. } if *pos == at)),
        "V3: {legal:?}"
    );
    assert_eq!(left(&game, A), 2);
}

/// BCB-C2, BCB-5 in seeded random games of `hig-bcb` (2 to 5 players): the bots lay
/// bridges from the legal list; every player's bridges in supply and on the board add up to
/// his share, none ever leaves (X-2); a game's record replays to the same game.
#[test]
fn random_games_lay_bridges_and_keep_them() {
    let (laid, late) = lay_in_random_games("hig-bcb");
    assert!(laid > 0, "the bots lay bridges");
    assert_eq!(late, 0, "BCB-6 `with_tile`: no bridge after the placement");
}

/// The same with BCB-6 `any_time_in_turn` (`tests/fixtures/bcb-late.toml`): some bridges are
/// laid after the deploy action, and the bridges add up all the same.
#[test]
fn random_games_with_the_first_edition_timing_lay_bridges_late_and_keep_them() {
    let fixture = common::root().join("tests/fixtures/bcb-late.toml");
    let (laid, late) = lay_in_random_games(&fixture.to_string_lossy());
    assert!(
        late > 0 && laid > late,
        "{laid} bridges, {late} of them late"
    );
}

/// At a late bridge decision (BCB-6 `any_time_in_turn`), the bridges listed are exactly those
/// the check lets through, across every placed tile and the sides around them, both ways.
fn late_listing_is_what_the_check_allows(game: &Game) {
    let legal = game.legal();
    for p in game.board().tiles() {
        for (dx, dy) in [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)] {
            for edge in ["N", "E"] {
                let action = late(p.pos.x + dx, p.pos.y + dy, edge);
                let allowed = game.clone().apply(&action).is_ok();
                assert_eq!(legal.contains(&action), allowed, "{action:?}: {legal:?}");
            }
        }
    }
}

/// Plays 8 seeded random games of `rules` (2 to 5 players), checking the bridges as
/// [`random_games_lay_bridges_and_keep_them`] says; returns how many bridges were laid, and
/// how many of them after the placement.
fn lay_in_random_games(rules: &str) -> (usize, usize) {
    use castellan::bot::{Bot, RandomBot};
    use castellan::data::library::Source;
    use castellan::data::ruleset::Ruleset;
    use castellan::engine::game::Setup;
    use std::sync::Arc;

    let rules_ref = rules;
    let rules = Arc::new(Ruleset::load(rules_ref).expect("the ruleset"));
    let (mut laid_in_all, mut late_in_all) = (0, 0);
    for seed in 0..8u64 {
        let players = 2 + (seed as usize % 4);
        let names: Vec<String> = (0..players).map(|i| format!("P{i}")).collect();
        let (mut game, _) = Game::new(Arc::clone(&rules), Setup::new(names, seed)).expect("starts");
        let share = if players < 5 { 3 } else { 2 };
        let mut bot = RandomBot::new(seed);
        let mut laid = vec![0u8; players];
        let mut on_board = 0;
        while !game.is_over() {
            if game.decision().kind == BcbDecision::LateBridge.into() {
                late_listing_is_what_the_check_allows(&game);
            }
            let action = bot.choose(&game);
            if matches!(BcbAction::of(&action), Some(BcbAction::LateBridge { .. })) {
                late_in_all += 1;
            }
            for e in game.apply(&action).expect("legal") {
                if let Some(BcbEvent::BridgePlaced { player, .. }) = BcbEvent::of(&e) {
                    laid[player] += 1;
                }
            }
            let now = game.board().overlays().len();
            assert!(now >= on_board, "seed {seed}: a bridge left the board");
            on_board = now;
            for (seat, n) in laid.iter().enumerate() {
                assert_eq!(left(&game, seat) + n, share, "seed {seed}, seat {seat}");
            }
        }
        assert_eq!(
            on_board,
            laid.iter().map(|n| usize::from(*n)).sum::<usize>()
        );
        laid_in_all += on_board;
        let text = record::write(&game, rules_ref);
        let again = Record::parse(Source {
            path: "random.toml".into(),
            text: text.clone(),
        })
        .expect("the record reads back");
        let replayed = run(&again).game;
        assert_eq!(replayed.scores(), game.scores(), "seed {seed}");
        assert_eq!(record::write(&replayed, rules_ref), text);
    }
    (laid_in_all, late_in_all)
}

/// BCB-1, BCB-2, BCB-4 at every placement of seeded random games of `hig-bcb` and
/// `hig-big-box` (2 to 5 players): the bridges the legal list offers are exactly the ways the
/// rules allow, each weighed on its own by the check that refuses an action
/// (`bridge::problem`), in the listing's order: frontier position, rotation, the bridge's tile
/// (the new one, then those beside it from the north clockwise), north–south before
/// east–west. (That the random bot's count and pick agree with this list is
/// `tests/bots.rs`'s `picking_a_legal_action_matches_the_legal_list`.)
#[test]
fn the_listed_bridges_are_those_the_rules_allow_in_order() {
    use castellan::bot::{Bot, RandomBot};
    use castellan::data::ruleset::Ruleset;
    use castellan::engine::action::DecisionKind;
    use castellan::engine::game::Setup;
    use castellan::mechanic::bcb::bridge::problem;
    use castellan::model::geometry::Edge;
    use std::sync::Arc;

    let axes = [("N", 0b0101), ("E", 0b1010)];
    let mut offered = 0;
    for preset in ["hig-bcb", "hig-big-box"] {
        let rules = Arc::new(Ruleset::load(preset).expect("the preset"));
        for seed in 0..4u64 {
            let players = 2 + (seed as usize % 4);
            let names: Vec<String> = (0..players).map(|i| format!("P{i}")).collect();
            let setup = Setup::new(names, seed);
            let (mut game, _) = Game::new(Arc::clone(&rules), setup).expect("starts");
            let mut bot = RandomBot::new(seed);
            while !game.is_over() {
                if let DecisionKind::PlaceTile { tile } = game.decision().kind
                    && left(&game, game.decision().player) > 0
                {
                    let mut allowed = Vec::new();
                    for pos in game.board().frontier() {
                        for rotation in Rotation::ALL {
                            let hosts = std::iter::once(pos).chain(Edge::ALL.map(|e| pos.step(e)));
                            for at in hosts {
                                for (edge, mask) in axes {
                                    if problem(&game, tile, pos, rotation, at, mask).is_none() {
                                        allowed.push(BcbAction::Bridge {
                                            pos,
                                            rotation,
                                            at,
                                            edge: spot(edge),
                                        });
                                    }
                                }
                            }
                        }
                    }
                    let listed: Vec<BcbAction> =
                        game.legal().iter().filter_map(BcbAction::of).collect();
                    assert_eq!(listed, allowed, "{preset} seed {seed} turn {}", game.turn());
                    offered += listed.len();
                }
                let action = bot.choose(&game);
                game.apply(&action).expect("legal");
            }
        }
    }
    assert!(offered > 1000, "the games offer many bridges ({offered})");
}

/// The web page plays `hig-bcb` (RULES-MORE.md §4.2): two bots play a whole game through
/// the server's API; its record replays to the same scores, and every bridge on the board is
/// drawn across its tile in the page's SVG.
#[tokio::test]
async fn the_server_plays_a_game_of_hig_bridges() {
    let app = api::app(&api::data("bridges", "serve"));
    let (game, replay) = api::bot_game(&app, "hig-bcb", &["greedy", "random"], 3, |_| {}).await;
    let svg = game["board"].as_str().expect("the board's SVG");
    let board = replay.game.board();
    assert!(!board.overlays().is_empty(), "the bots laid a bridge");
    for &(id, _) in board.overlays() {
        let pos = board.placed(id).pos;
        assert!(
            svg.contains(&format!(
                r#"class="overlay-road" data-x="{}" data-y="{}""#,
                pos.x, pos.y
            )),
            "the bridge at {pos} is not drawn"
        );
    }
}

/// A `bcb.bridge.timing` that is none of BCB-6's two is refused with an error at the key's
/// line and column that names them; a player count share above the box's 12 bridges too.
#[test]
fn an_unknown_timing_and_too_many_bridges_are_located_errors() {
    use castellan::data::library::Source;
    use castellan::data::ruleset::Ruleset;
    let load = |text: &str| {
        Ruleset::from_source(Source {
            path: "tests/fixtures/bridges-bad.toml".into(),
            text: format!("extends = \"hig-bcb\"\n[bcb.bridge]\n{text}\n"),
        })
        .expect_err("refused")
    };
    let e = load("timing = \"sometimes\"");
    assert!(e.message.contains("any_time_in_turn"), "{e}");
    let shown = e.to_string();
    assert!(shown.contains("bridges-bad.toml:3:"), "{shown}");
    let e = load("by_players = [3, 3, 13, 2, 2]");
    assert!(e.message.contains("at most 12"), "{e}");
    assert!(e.to_string().contains("bridges-bad.toml:3:"), "{e}");
}

/// BCB-6 `any_time_in_turn` (the 1st edition: "at any time during the turn", [WC-OOP]): a
/// player who laid no bridge with his tile is asked after his deploy action to lay one or pass
/// (BCB-1: across the tile laid or a placed tile beside it, none there yet; BCB-2: both ends on
/// its field edges, meeting roads or open sides); the bridge's end then asks the next tile
/// there for a road, and that road runs on over the bridge.
#[test]
fn with_the_first_edition_timing_a_bridge_may_follow_the_deploy_action() {
    let mut game = before(load("late"), 2);
    let asked = game.decision();
    assert_eq!(
        (asked.player, asked.kind),
        (A, BcbDecision::LateBridge.into())
    );
    assert_eq!(
        game.legal(),
        vec![late(1, 0, "N"), late(0, 0, "N"), Action::Pass],
        "east–west, each end meets the other tile's field edge"
    );
    refused(&mut game, late(0, 0, "E"), "B-P2");
    refused(&mut game, late(2, 0, "N"), "BCB-1");
    refused(&mut game, bridge(1, 1, 0, 1, 1, "E"), "BCB-6");

    let game = before(load("late"), 3);
    assert_eq!((left(&game, A), left(&game, B)), (2, 3));
    let legal = game.legal();
    assert!(
        legal.contains(&place(0, 1, 0)),
        "a road meets the bridge's end"
    );
    assert!(legal.contains(&place(0, -1, 180)), "at its other end too");
    assert!(
        !legal.contains(&place(0, 1, 90)),
        "B-P2: a field edge may not meet the bridge's end"
    );

    let mut game = before(load("late"), 5);
    assert_eq!(game.decision().player, B);
    assert_eq!(
        game.legal(),
        vec![late(0, 1, "E"), Action::Pass],
        "BCB-1: the tile beside has a bridge already"
    );
    refused(&mut game, late(0, 0, "E"), "BCB-1");

    let Replay { game, events } = run(&load("late"));
    assert!(bridge_placed(&events, A, Pos::new(0, 0), "N"));
    let bridge_road = game.seg_at(Pos::new(0, 0), spot("N")).expect("the bridge");
    let road = game.seg_at(Pos::new(0, 1), spot("N")).expect("B's road");
    assert!(game.features().same(bridge_road, road));
    assert_eq!(on_board(&game), vec![(B, Pos::new(0, 1), spot("N"))]);
    assert_eq!((left(&game, A), left(&game, B)), (2, 3));
    assert!(matches!(
        game.decision().kind,
        DecisionKind::PlaceTile { .. }
    ));
}

/// BCB-6 `any_time_in_turn`: a bridge laid with the tile is the placement's one bridge
/// (BCB-1), so no question follows the deploy action; under `with_tile` (the 2nd edition, the
/// default) no bridge is ever asked for after the placement, and one offered then is refused.
#[test]
fn one_bridge_a_placement_and_none_after_it_with_the_second_edition_timing() {
    let game = run(&under("own-tile", "bridges-late.toml")).game;
    let asked = game.decision();
    assert!(
        matches!(asked.kind, DecisionKind::PlaceTile { .. }) && asked.player == B,
        "{asked:?}"
    );
    assert_eq!(left(&game, A), 2);

    let mut game = before(under("late", "bridges-synthetic.toml"), 2);
    let asked = game.decision();
    assert!(
        matches!(asked.kind, DecisionKind::PlaceTile { .. }) && asked.player == B,
        "{asked:?}"
    );
    refused(&mut game, late(0, 0, "N"), "BCB-6");
}
