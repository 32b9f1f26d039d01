//! Bridges, Castles & Bazaars (`[mechanics] bridges_castles_bazaars`, RULES-MORE.md §4): castles
//! (BCB-7..BCB-15), their P&D answers (RULES-MORE.md §5, Q-X1), the `[bcb]` toggles and
//! the `bridges-castles` tile set (TILES-MORE.md §4). Each record under `tests/records/bcb/` says
//! its scenario and expected outcome in its header.

use castellan::engine::event::Event;
use castellan::engine::game::Game;
use castellan::mechanic::bcb::castle::{castles, tokens_left};
use castellan::mechanic::bcb::vocabulary::BcbEvent;
use castellan::model::figure::{FigureKind, Place};
use castellan::model::geometry::{Edge, Pos};
use castellan::model::tile::FeatureKind;
use castellan::record::Record;

mod common;
use common::{before, run, scored};

const A: usize = 0;
const B: usize = 1;

fn load(name: &str) -> Record {
    common::record("bcb", name)
}

/// The figures standing at places that are no feature: owner, kind, place.
fn at_places(game: &Game) -> Vec<(usize, FigureKind, Place)> {
    game.placed_figures()
}

/// The family's events.
fn bcb_events(events: &[Event]) -> Vec<BcbEvent> {
    events.iter().filter_map(BcbEvent::of).collect()
}

/// BCB-7, BCB-8: completing the small city with his follower, A builds a castle instead of
/// scoring it: no points, the follower stands on the side between (0,0) and (0,-1), one token
/// used.
#[test]
fn e1_castle_built_scores_nothing() {
    let game = before(load("e1-castle-road"), 3);
    assert_eq!(game.scores(), &[0, 0]);
    assert!(game.figures().is_empty());
    assert_eq!(
        at_places(&game),
        vec![(
            A,
            FigureKind::Follower,
            Place::Side(Pos::new(0, 0), Edge::N)
        )]
    );
    assert_eq!(tokens_left(&game, A), 2);
    assert_eq!(tokens_left(&game, B), 3);
    assert_eq!(castles(&game).len(), 1);
    assert!(castles(&game)[0].occupied);
}

/// BCB-E1 (BCB-9, BCB-10): B's road of 4 tiles, one of them in the castle's vicinity, pays B 4
/// and A's castle 4; A's follower goes home, the castle stays, empty.
#[test]
fn e1_castle_scores_the_road() {
    let replay = run(&load("e1-castle-road"));
    assert_eq!(
        scored(&replay.events),
        vec![(B, 4, FeatureKind::Road), (A, 4, FeatureKind::City)]
    );
    assert_eq!(replay.game.scores(), &[4, 4]);
    assert!(replay.game.figures().is_empty());
    assert!(at_places(&replay.game).is_empty());
    assert_eq!(replay.game.supply(A, FigureKind::Follower), 7);
    assert_eq!(castles(&replay.game).len(), 1);
    assert!(!castles(&replay.game)[0].occupied);
    assert!(bcb_events(&replay.events).iter().any(|e| matches!(
        e,
        BcbEvent::CastleScored {
            player: A,
            points: 4,
            x: 0,
            y: 0,
            ..
        }
    )));
}
