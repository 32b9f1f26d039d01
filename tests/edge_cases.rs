//! Edge cases where rules engines typically go wrong, one game record each in
//! `tests/records/edge/` (its header comment states the scenario, the rules it plays and the
//! expected outcome; the tests here assert that outcome):
//!
//! * counting: a city that leaves a tile and comes back into it counts the tile once (§1.6); a
//!   farm that touches one city on two tiles is paid for it once (§1.9);
//! * one tile completing three features at once, one of them claimed on that very tile (B-M5,
//!   B-M3, B-F5);
//! * three players: majority with a tie for the most and a loser who has a follower in the
//!   feature (B-M2); the dragon's movers in seat order from the active player (D4);
//! * The Princess & the Dragon: an unassigned fairy still bars the dragon (FA11); a princess
//!   tile joining two occupied cities (A24); an unplaceable volcano or dragon tile (B-P5's P&D
//!   consequences, with D0 before B-P5); a dragon tile as the last tile (B-E1); the fairy's turn
//!   point once in a turn that draws three tiles (FA7); the fairy's +3 for a cathedral city that
//!   scores 0 at the end (A26);
//! * both values of two toggles no other test sets: `pd.volcano.dragon_journey` (§3.1 #40, V5)
//!   and `pd.dragon.eat_on_start` (§3.1 #14, D10).
//!
//! Coordinates are the engine's: x grows east, y grows south (RULES.md §4 draws y north).

use castellan::engine::action::Action;
use castellan::engine::event::{Event, ReturnReason};
use castellan::engine::game::Game;
use castellan::mechanic::pd::vocabulary::{EATEN, PRINCESS};
use castellan::mechanic::pd::vocabulary::{PdAction, PdEvent};
use castellan::model::figure::FigureKind;
use castellan::model::geometry::{Pos, Spot};
use castellan::model::tile::FeatureKind;
use castellan::record::Replay;
use std::collections::HashSet;

mod common;
use common::{
    Scored, before, completed, journey_steps, record, run, scored, scored_with_rule, under,
};

const RED: usize = 0;
const BLUE: usize = 1;
const GREEN: usize = 2;

/// The record `tests/records/edge/NAME.toml` replayed to its end.
fn replay(name: &str) -> Replay {
    run(&record("edge", name))
}

fn at(x: i32, y: i32) -> Pos {
    Pos::new(x, y)
}

fn spot(name: &str) -> Spot {
    Spot::parse(name).unwrap_or_else(|| panic!("bad spot {name}"))
}

/// Every figure sent home, as (owner, tile, why).
fn returned(events: &[Event]) -> Vec<(usize, Pos, ReturnReason)> {
    events
        .iter()
        .filter_map(|e| match *e {
            Event::FigureReturned {
                player,
                x,
                y,
                reason,
                ..
            } => Some((player, at(x, y), reason)),
            _ => None,
        })
        .collect()
}

/// How many events `wanted` picks.
fn count(events: &[Event], wanted: impl Fn(&Event) -> bool) -> usize {
    events.iter().filter(|e| wanted(e)).count()
}

/// The index of the first event `wanted` picks.
fn first(events: &[Event], wanted: impl Fn(&Event) -> bool) -> usize {
    events
        .iter()
        .position(wanted)
        .expect("the event is in the log")
}

fn follower_supply(game: &Game, player: usize) -> u8 {
    game.supply(player, FigureKind::Follower)
}

/// The segment of the feature at `at` on the tile at (x, y).
fn seg(game: &Game, x: i32, y: i32, at: &str) -> u32 {
    game.seg_at(Pos::new(x, y), spot(at))
        .unwrap_or_else(|| panic!("no feature at ({x},{y}) {at}"))
}

// ---------------------------------------------------------------------------------------------
// Counting (RULES.md §1.6, §1.9).

/// RULES.md §1.6 ("a tile counts once per feature even if the feature touches it twice"), with
/// a city: the start tile I has two caps, and the city runs out of one and back into the other.
/// 4 distinct tiles: Red +8, not 10.
#[test]
fn s1_6_a_city_entering_a_tile_twice_counts_it_once() {
    let r = replay("city-leaves-and-returns");
    let game = &r.game;
    // Both caps of I are parts of the one city.
    let features = game.features();
    assert!(features.same(seg(game, 0, 0, "N"), seg(game, 0, 0, "W")));
    assert_eq!(completed(&r.events), [(FeatureKind::City, 4)]);
    let expected: [Scored; 1] = [(RED, 8, FeatureKind::City)];
    assert_eq!(scored(&r.events), expected);
    assert_eq!(game.scores(), [8, 0]);
    assert!(game.figures().is_empty(), "the knight went home");
}

/// RULES.md §1.9 (`farm_centric_3`, 3 per completed city the farm borders): Blue's farm
/// touches the 2-tile city on both of its tiles (D's strip and E's field), yet the city is one
/// city: Blue +3, not 6.
#[test]
fn s1_9_a_farm_touching_one_city_on_two_tiles_is_paid_once() {
    let r = replay("farm-touches-city-twice");
    let game = &r.game;
    let farm = seg(game, 1, 0, "NL");
    let features = game.features();
    // The farm reaches the field beside the city on both city tiles.
    assert!(features.same(farm, seg(game, 0, 0, "EL")), "D's strip");
    assert!(features.same(farm, seg(game, 0, -1, "NL")), "E's field");
    assert!(
        game.is_complete(seg(game, 0, -1, "S")),
        "the city is closed"
    );
    let expected: [Scored; 1] = [(BLUE, 3, FeatureKind::Field)];
    assert_eq!(scored(&r.events), expected);
    assert_eq!(game.scores(), [0, 3]);
}

// ---------------------------------------------------------------------------------------------
// One tile, three features (B-M5, B-M3, B-F5).

/// RULES.md §1.7 B-M5 / B-M3 and §1.4 B-F5: Red's last CAP is the eighth neighbour of two
/// cloisters (Red's and Blue's) and closes a 2-tile city on which Red puts his knight: all
/// three are scored in that turn (city 4 and cloister 9 for Red, cloister 9 for Blue) and all
/// three followers are back in supply before Blue's turn.
#[test]
fn b_m5_one_tile_completes_a_city_it_claims_and_two_cloisters() {
    let name = "city-and-two-cloisters";
    // Before the last deployment: the city is offered although the tile completes it (B-F5).
    let game = before(record("edge", name), 21);
    let knight = Action::Deploy {
        pos: at(0, 1),
        spot: spot("W"),
        figure: FigureKind::Follower,
    };
    assert!(game.legal().contains(&knight), "B-F5: {:?}", game.legal());

    let r = replay(name);
    let last_turn = r
        .events
        .iter()
        .rposition(|e| matches!(e, Event::TurnStarted { .. }))
        .expect("turns");
    let turn = &r.events[last_turn..];
    let mut done = completed(turn);
    done.sort_unstable_by_key(|(kind, _)| *kind as u8);
    let mut want = vec![
        (FeatureKind::City, 2),
        (FeatureKind::Cloister, 9),
        (FeatureKind::Cloister, 9),
    ];
    want.sort_unstable_by_key(|(kind, _)| *kind as u8);
    assert_eq!(done, want);
    let mut paid = scored(turn);
    paid.sort_unstable_by_key(|&(p, points, kind)| (p, points, kind as u8));
    let expected: [Scored; 3] = [
        (RED, 4, FeatureKind::City),
        (RED, 9, FeatureKind::Cloister),
        (BLUE, 9, FeatureKind::Cloister),
    ];
    assert_eq!(paid, expected);
    let home: HashSet<(usize, Pos)> = returned(turn)
        .into_iter()
        .map(|(owner, pos, why)| {
            assert_eq!(why, ReturnReason::Scored);
            (owner, pos)
        })
        .collect();
    assert_eq!(
        home,
        HashSet::from([(RED, at(0, 1)), (RED, at(0, 0)), (BLUE, at(1, 0))])
    );
    assert!(r.game.figures().is_empty());
    assert_eq!(r.game.scores(), [13, 9]);
    assert_eq!(follower_supply(&r.game, RED), 7);
    assert_eq!(follower_supply(&r.game, BLUE), 7);
}

// ---------------------------------------------------------------------------------------------
// Three players (B-M2, D4).

/// RULES.md §1.7 B-M1/B-M2 with three players: strengths Red 2, Blue 2, Green 1 in a 9-tile
/// city. The tied leaders both score the full 18; Green, with a knight in it, scores nothing;
/// all five knights go home (B-M3).
#[test]
fn b_m2_three_players_the_tied_leaders_score_in_full_the_third_nothing() {
    let r = replay("three-player-majority");
    assert_eq!(completed(&r.events), [(FeatureKind::City, 9)]);
    let expected: [Scored; 2] = [(RED, 18, FeatureKind::City), (BLUE, 18, FeatureKind::City)];
    assert_eq!(scored(&r.events), expected);
    assert_eq!(r.game.scores(), [18, 18, 0]);
    let home = returned(&r.events);
    assert_eq!(home.len(), 5);
    assert_eq!(home.iter().filter(|(owner, ..)| *owner == GREEN).count(), 1);
    assert!(r.game.figures().is_empty());
}

/// RULES.md §2.4 D4 with three players, Blue active: the six steps are made by Blue, Green,
/// Red, Blue, Green, Red (D3: six steps, not one per player); the sixth eats Green's farmer
/// (D7) and the dragon stays there (D9).
#[test]
fn d4_three_players_move_the_dragon_in_seat_order_from_the_active_player() {
    let r = replay("three-player-journey");
    let walked = journey_steps(&r.events);
    let expected: Vec<(u32, usize, Pos)> = vec![
        (1, BLUE, at(0, 0)),
        (2, GREEN, at(1, 0)),
        (3, RED, at(2, 0)),
        (4, BLUE, at(3, 0)),
        (5, GREEN, at(4, 0)),
        (6, RED, at(5, 0)),
    ];
    assert_eq!(walked, expected);
    assert_eq!(r.game.dragon(), Some(at(5, 0)));
    assert_eq!(returned(&r.events), [(GREEN, at(5, 0), EATEN)]);
    assert_eq!(follower_supply(&r.game, GREEN), 7);
    assert!(r.game.figures().is_empty());
    assert!(r.game.is_over());
}

// ---------------------------------------------------------------------------------------------
// The Princess & the Dragon.

/// RULES.md §2.7 FA11 ("it still blocks the dragon") with FA6/D5(b) and D6: Red's knight,
/// served by the fairy, scores and goes home; the fairy stays on (0,-1) unassigned, and the
/// dragon's next journey dead-ends beside it after one step instead of entering it.
#[test]
fn fa11_the_fairy_left_without_its_follower_still_bars_the_dragon() {
    let r = replay("fairy-stays-bars-dragon");
    assert_eq!(r.game.scores(), [7, 0], "city 4 + fairy 3");
    assert_eq!(
        r.game.fairy().map(|f| (f.pos, f.follower)),
        Some((at(0, -1), None))
    );
    assert_eq!(journey_steps(&r.events), [(1, BLUE, at(0, 0))]);
    let ended: Vec<(u32, &str)> = r
        .events
        .iter()
        .filter_map(|e| match PdEvent::of(e) {
            Some(PdEvent::JourneyEnded { steps, reason }) => Some((steps, reason)),
            _ => None,
        })
        .collect();
    assert_eq!(ended, [(1, "dead_end")]);
    assert_eq!(r.game.dragon(), Some(at(0, 0)));
}

/// RULES.md §7 A24 (the merged city is the "continued city") with PR2/PR3 and PR4: the
/// princess tile joins Red's and Blue's one-tile cities; both knights may be removed (or
/// none, `may`). Red removes Blue's: the closed 3-tile city pays Red 6 alone.
#[test]
fn a24_a_princess_joining_two_cities_may_remove_a_knight_of_either() {
    let name = "princess-joins-two-cities";
    let game = before(record("edge", name), 5);
    let remove = |x, y, s| {
        Action::from(PdAction::Remove {
            pos: at(x, y),
            spot: spot(s),
        })
    };
    let options: HashSet<Action> = game.legal().into_iter().collect();
    assert_eq!(
        options,
        HashSet::from([remove(-1, -1, "E"), remove(1, -1, "W"), Action::Pass])
    );

    let r = replay(name);
    let home = returned(&r.events);
    assert_eq!(
        home,
        [
            (BLUE, at(1, -1), PRINCESS),
            (RED, at(-1, -1), ReturnReason::Scored),
        ]
    );
    let expected: [Scored; 1] = [(RED, 6, FeatureKind::City)];
    assert_eq!(scored(&r.events), expected);
    assert_eq!(r.game.scores(), [6, 0]);
}

fn tile_set_aside(e: &Event) -> bool {
    matches!(PdEvent::of(e), Some(PdEvent::TileSetAside { .. }))
}

fn tiles_reshuffled(e: &Event) -> bool {
    matches!(PdEvent::of(e), Some(PdEvent::TilesReshuffled { .. }))
}

fn dragon_moved(e: &Event) -> bool {
    matches!(PdEvent::of(e), Some(PdEvent::DragonMoved { .. }))
}

fn discarded(e: &Event) -> bool {
    matches!(e, Event::TileDiscarded { .. })
}

/// RULES.md §1.3 B-P5, P&D consequence "an unplaceable volcano does not bring in the dragon":
/// the volcano leaves the game, the dragon stays off the board and the dragon tile set aside
/// before it stays set aside (V6 needs a placed volcano).
#[test]
fn b_p5_an_unplaceable_volcano_brings_no_dragon() {
    let r = replay("unplaceable-volcano");
    let discarded_tiles: Vec<&str> = r
        .events
        .iter()
        .filter_map(|e| match e {
            Event::TileDiscarded { tile, .. } => Some(&**tile),
            _ => None,
        })
        .collect();
    assert_eq!(discarded_tiles, ["SY/FIELD.v"]);
    assert_eq!(count(&r.events, tile_set_aside), 1);
    assert_eq!(count(&r.events, tiles_reshuffled), 0);
    assert_eq!(count(&r.events, dragon_moved), 0);
    assert!(!r.game.dragon_in_play());
    assert_eq!(r.game.dragon(), None);
    assert_eq!(r.game.set_aside(), 1);
    assert!(r.game.is_over());
    assert_eq!(r.game.scores(), [0, 0]);
}

/// RULES.md §1.3 B-P5, P&D consequence "an unplaceable dragon tile triggers no journey", and
/// §2.1's draw phase (D0 before B-P5): drawn before any volcano, the unplaceable dragon tile is
/// set aside, not discarded; once the dragon is in play, both copies are discarded when drawn,
/// and the dragon never leaves its volcano.
#[test]
fn b_p5_an_unplaceable_dragon_tile_is_set_aside_before_the_volcano_and_discarded_after() {
    let r = replay("unplaceable-dragon-tile");
    let events = &r.events;
    let set_aside = first(events, tile_set_aside);
    let reshuffled = first(events, tiles_reshuffled);
    assert_eq!(count(events, tile_set_aside), 1);
    assert_eq!(count(events, discarded), 2);
    // Nothing is discarded before the dragon is in play.
    assert!(first(events, discarded) > reshuffled);
    assert!(set_aside < reshuffled);
    // The only dragon move is the flight to the volcano (step 0).
    assert_eq!(count(events, dragon_moved), 1);
    assert!(journey_steps(events).is_empty());
    assert_eq!(r.game.dragon(), Some(at(1, 0)));
    assert_eq!(r.game.set_aside(), 0);
    assert_eq!(r.game.tiles_left(), 0);
    assert!(r.game.is_over());
}

/// RULES.md §1.8 B-E1 ("after the turn of the last tile (including dragon movement …), final
/// scoring"): the last tile is a dragon tile; the journey eats Blue's monk first, so his
/// incomplete cloister (3 points had he stayed, B-E2) pays nothing at the end.
#[test]
fn b_e1_a_dragon_tile_as_the_last_tile_moves_before_final_scoring() {
    let r = replay("dragon-on-the-last-tile");
    assert_eq!(
        journey_steps(&r.events),
        [(1, RED, at(0, 0)), (2, BLUE, at(1, 0)), (3, RED, at(2, 0))]
    );
    assert_eq!(returned(&r.events), [(BLUE, at(1, 0), EATEN)]);
    let eaten = first(&r.events, |e| matches!(e, Event::FigureReturned { .. }));
    let end = first(&r.events, |e| matches!(e, Event::GameEnded { .. }));
    assert!(eaten < end);
    assert!(scored(&r.events).is_empty());
    assert_eq!(r.game.scores(), [0, 0]);
    assert_eq!(r.game.dragon(), Some(at(2, 0)));
    assert!(r.game.is_over());
}

/// RULES.md §2.7 FA7 (the turn point, once per turn): in Red's turn 5 a dragon tile is set
/// aside (D0.1) and an unplaceable tile discarded (B-P5) before a tile is laid; Red still gets
/// one point, at the start. FA8 at final scoring: Red's lone knight still has the fairy: the
/// incomplete city 1 + 3.
#[test]
fn fa7_one_fairy_point_in_a_turn_that_draws_three_tiles() {
    let r = replay("fairy-point-once-per-turn");
    let mut turn = 0;
    let mut points = Vec::new();
    for e in &r.events {
        match PdEvent::of(e) {
            Some(PdEvent::FairyPoint { player, points: p }) => points.push((turn, player, p)),
            _ => {
                if let Event::TurnStarted { turn: t, .. } = *e {
                    turn = t;
                }
            }
        }
    }
    assert_eq!(points, [(5, RED, 1)]);
    assert_eq!(count(&r.events, tile_set_aside), 1);
    assert_eq!(count(&r.events, discarded), 1);
    let expected: [Scored; 2] = [(RED, 1, FeatureKind::City), (RED, 3, FeatureKind::City)];
    assert_eq!(scored(&r.events), expected);
    assert_eq!(r.game.scores(), [5, 0]);
}

/// RULES.md §7 A26 with §1.6's I&C line and FA8: at the end, the open cathedral city of Red's
/// knight is worth 0 (no "1 per tile"), yet the fairy next to the knight still pays +3 (002
/// "regardless of whether you score points").
#[test]
fn a26_the_fairy_pays_3_for_a_cathedral_city_worth_0_at_the_end() {
    let r = replay("cathedral-city-fairy");
    let game = &r.game;
    let city = seg(game, 0, -1, "N");
    assert!(game.features().same(city, seg(game, 0, 0, "N")));
    assert!(!game.is_complete(city));
    assert_eq!(
        scored_with_rule(&r.events),
        [(RED, 3, FeatureKind::City, "FA8 fairy bonus")]
    );
    assert_eq!(game.scores(), [3, 0]);
}

/// Where the figures stand: (owner, tile, figure kind).
fn standing(game: &Game) -> Vec<(usize, Pos, FigureKind)> {
    game.figures()
        .iter()
        .map(|f| (f.owner, game.figure_spot(f).0, f.kind))
        .collect()
}

/// RULES.md §3.1 #40 `pd.volcano.dragon_journey = false` (default; V5, 002 §The Volcano: "then
/// it is the next player's turn"): the dragon only flies to the volcano; Red's farmer beside it
/// stays; no step is taken.
#[test]
fn v5_no_journey_on_a_volcano_turn_by_default() {
    let record = under(record("edge", "volcano-journey"), "pd-synthetic.toml");
    let mut game = before(record, 4);
    assert!(game.is_over(), "the volcano was the last tile");
    assert_eq!(game.dragon(), Some(at(2, 0)));
    assert_eq!(standing(&game), [(0, at(1, 0), FigureKind::Follower)]);
    let step = Action::from(PdAction::Dragon { pos: at(1, 0) });
    assert!(game.apply(&step).is_err(), "no journey to take a step in");
}

/// RULES.md §3.1 #40 `pd.volcano.dragon_journey = true` (fixture pd-volcano-journey.toml): the
/// volcano starts a journey from itself, the active player (Blue) first (D4): it eats Red's farmer
/// next to the volcano and dead-ends on (0,0) after two steps.
#[test]
fn v5_a_volcano_journey_when_toggled() {
    let r = replay("volcano-journey");
    assert_eq!(
        journey_steps(&r.events),
        [(1, BLUE, at(1, 0)), (2, RED, at(0, 0))]
    );
    assert_eq!(returned(&r.events), [(RED, at(1, 0), EATEN)]);
    assert_eq!(r.game.dragon(), Some(at(0, 0)));
    assert!(r.game.figures().is_empty());
}

/// Red's builder in the eat-on-start record, by the events: deployed on the volcano, and how it
/// left the board if it did.
fn builder_fate(events: &[Event]) -> Vec<(Pos, Option<ReturnReason>)> {
    let builder = common::kind("builder");
    events
        .iter()
        .filter_map(|e| match *e {
            Event::FigureDeployed { figure, x, y, .. } if figure == builder => {
                Some((at(x, y), None))
            }
            Event::FigureReturned {
                figure,
                x,
                y,
                reason,
                ..
            } if figure == builder => Some((at(x, y), Some(reason))),
            _ => None,
        })
        .collect()
}

/// RULES.md §3.1 #14 `pd.dragon.eat_on_start = false` (default; D10, 004 §The dragon: it eats
/// "whenever the dragon enters a tile"), with A8 `allow_builder_pig = true`: Red's builder
/// shares the volcano with the dragon; the journey starting there leaves it alone.
#[test]
fn d10_the_dragon_does_not_eat_on_its_start_tile_by_default() {
    let r = replay("eat-on-start");
    assert_eq!(builder_fate(&r.events), [(at(2, 0), None)]);
    assert_eq!(journey_steps(&r.events), [(1, RED, at(2, 1))]);
    let builder = common::kind("builder");
    assert!(standing(&r.game).contains(&(RED, at(2, 0), builder)));
    assert_eq!(r.game.supply(RED, builder), 0);
    assert_eq!(r.game.scores(), [4, 0]);
}

/// RULES.md §3.1 #14 `pd.dragon.eat_on_start = true` (fixture tb-pd-eat-on-start.toml): the
/// journey begins with the dragon eating Red's builder on its own tile, before the first step;
/// Red's thief elsewhere on the road is untouched and scores the road at the end.
#[test]
fn d10_eat_on_start_eats_the_builder_on_the_volcano_when_toggled() {
    let r = run(&under(
        record("edge", "eat-on-start"),
        "tb-pd-eat-on-start.toml",
    ));
    assert_eq!(
        builder_fate(&r.events),
        [(at(2, 0), None), (at(2, 0), Some(EATEN))]
    );
    let eaten = first(&r.events, |e| matches!(e, Event::FigureReturned { .. }));
    let first_step = first(&r.events, |e| {
        matches!(PdEvent::of(e), Some(PdEvent::DragonMoved { step: 1, .. }))
    });
    assert!(eaten < first_step);
    let builder = common::kind("builder");
    assert_eq!(r.game.supply(RED, builder), 1);
    assert_eq!(standing(&r.game), [(RED, at(1, 0), FigureKind::Follower)]);
    assert_eq!(r.game.scores(), [4, 0]);
}
