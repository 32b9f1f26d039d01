//! How Bridges, Castles & Bazaars shows itself (`engine::show`): the bridge's and the castle's
//! actions and decisions in words, castle scores in a tally, the bridges on the board and the
//! castles (where, whose, occupied) in a game's JSON, each player's bridges and castle tokens
//! in the score panel, and the castle tokens as pieces on the board (the follower in a castle
//! is drawn on the side two tiles share, as every figure at a place is; the bridges are drawn
//! by the boards as the overlay roads they are).

use super::bridge::left;
use super::castle::{castles, tokens_left};
use super::vocabulary::{BcbAction, BcbDecision, BcbEvent, axis_words};
use crate::engine::action::{Action, DecisionKind};
use crate::engine::event::Event;
use crate::engine::game::Game;
use crate::engine::show::{Phrases, Piece, Presenter, Tone};
use crate::model::geometry::{Edge, Spot};
use serde_json::{Value, json};

/// The presentation of Bridges, Castles & Bazaars.
pub struct Show;

/// A castle token on the board: a small keep with two towers.
const CASTLE: &str = concat!(
    r##"<path d="M-12,8 L-12,-8 L-8,-8 L-8,-4 L-4,-4 L-4,-8 L4,-8 L4,-4 L8,-4 L8,-8 L12,-8 L12,8 Z" fill="#b8a27a" stroke="#333" stroke-width="1.5"/>"##,
    r##"<path d="M-2,8 L-2,2 A2,2 0 0 1 2,2 L2,8 Z" fill="#333"/>"##
);

impl Presenter for Show {
    fn action_words(&self, action: &Action, say: &dyn Phrases) -> Option<String> {
        Some(match BcbAction::of(action)? {
            BcbAction::Castle { pos, spot } => format!(
                "build a castle from {} (it scores nothing now)",
                say.feature(pos, spot)
            ),
            BcbAction::Scores {
                castle,
                from,
                spot: Some(spot),
            } => format!(
                "let your castle at {castle} score {}",
                say.feature(from, spot)
            ),
            BcbAction::Scores { castle, from, .. } => {
                format!("let your castle at {castle} score what the castle at {from} scored")
            }
            BcbAction::Bridge {
                pos,
                rotation,
                at,
                edge,
            } => {
                let on = if at == pos {
                    "it".to_string()
                } else {
                    format!("the tile at {at}")
                };
                format!(
                    "place the tile at {pos} turned {}° and lay a bridge {} across {on}",
                    rotation.degrees(),
                    axis_words(edge)
                )
            }
        })
    }

    fn action_spot(&self, action: &Action) -> Option<Spot> {
        match BcbAction::of(action)? {
            BcbAction::Castle { spot, .. } => Some(spot),
            BcbAction::Scores { spot, .. } => spot,
            BcbAction::Bridge { edge, .. } => Some(edge),
        }
    }

    fn pass_words(&self, decision: &DecisionKind) -> Option<&'static str> {
        match BcbDecision::of(decision)? {
            BcbDecision::Castle => Some("pass (score the city)"),
            BcbDecision::Scores => None,
        }
    }

    fn decision_words(&self, decision: &DecisionKind) -> Option<String> {
        Some(match BcbDecision::of(decision)? {
            BcbDecision::Castle => "build a castle from the small city, or score it".into(),
            BcbDecision::Scores => "choose the feature your castle scores".into(),
        })
    }

    fn tone(&self, event: &Event) -> Option<Tone> {
        match BcbEvent::of(event)? {
            BcbEvent::Scored { .. } => Some(Tone::Gain),
            _ => None,
        }
    }

    fn tokens_words(&self, game: &Game, seat: usize) -> Option<String> {
        game.rules()
            .switched_on("bridges_castles_bazaars")
            .then(|| {
                format!(
                    "bridges: {}, castles: {}",
                    left(game, seat),
                    tokens_left(game, seat)
                )
            })
    }

    fn state_json(&self, game: &Game, _names: &[String]) -> Vec<(&'static str, Value)> {
        if !game.rules().switched_on("bridges_castles_bazaars") {
            return vec![("bridges", Value::Null), ("castles", Value::Null)];
        }
        let list: Vec<Value> = (castles(game).iter())
            .map(|c| {
                let [a, b] = c.tiles();
                json!({
                    "tiles": [[a.x, a.y], [b.x, b.y]],
                    "player": c.owner,
                    "figure": c.occupied.then_some(c.figure),
                })
            })
            .collect();
        let tokens: Vec<u8> = (0..game.scores().len())
            .map(|seat| tokens_left(game, seat))
            .collect();
        vec![
            ("bridges", bridges_json(game)),
            ("castles", json!({"castles": list, "tokens": tokens})),
        ]
    }

    fn pieces(&self, game: &Game) -> Vec<Piece> {
        (castles(game).iter())
            .map(|c| Piece {
                name: "castle",
                pos: c.pos(),
                beside: None,
                letter: 'K',
                ansi: "\x1b[0;1;93;40m",
                svg: CASTLE,
            })
            .collect()
    }

    fn key(&self, game: &Game) -> Vec<(char, &'static str)> {
        let on = game.rules().switched_on("bridges_castles_bazaars");
        on.then_some(('K', "castle token")).into_iter().collect()
    }
}

/// The bridges on the board (tile and direction) and each player's bridges left.
fn bridges_json(game: &Game) -> Value {
    let board = game.board();
    let on_board: Vec<Value> = (board.overlays().iter())
        .map(|&(id, _)| {
            let pos = board.placed(id).pos;
            let edge = if board.overlay(id) & 1 != 0 {
                Edge::N
            } else {
                Edge::E
            };
            json!({"x": pos.x, "y": pos.y, "edge": edge.name()})
        })
        .collect();
    let supply: Vec<u8> = (0..game.scores().len()).map(|s| left(game, s)).collect();
    json!({"on_board": on_board, "supply": supply})
}
