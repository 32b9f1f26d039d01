//! How Bridges, Castles & Bazaars shows itself (`engine::show`): the bridge action in words,
//! the bridges a player has left, and the bridges on the board in a game's JSON. The bridges
//! themselves are drawn by the boards as the overlay roads they are.

use super::bridge::{Supply, left};
use super::vocabulary::{BcbAction, axis_words};
use crate::engine::action::Action;
use crate::engine::game::Game;
use crate::engine::show::{Phrases, Presenter};
use crate::model::geometry::{Edge, Spot};
use serde_json::{Value, json};

/// The family's presentation.
pub struct Show;

impl Presenter for Show {
    fn action_words(&self, action: &Action, _say: &dyn Phrases) -> Option<String> {
        let BcbAction::Bridge {
            pos,
            rotation,
            at,
            edge,
        } = BcbAction::of(action)?;
        let on = if at == pos {
            "it".to_string()
        } else {
            format!("the tile at {at}")
        };
        Some(format!(
            "place the tile at {pos} turned {}° and lay a bridge {} across {on}",
            rotation.degrees(),
            axis_words(edge)
        ))
    }

    fn action_spot(&self, action: &Action) -> Option<Spot> {
        match BcbAction::of(action)? {
            BcbAction::Bridge { edge, .. } => Some(edge),
        }
    }

    fn tokens_words(&self, game: &Game, seat: usize) -> Option<String> {
        game.slots.get::<Supply>()?;
        Some(format!("bridges: {}", left(game, seat)))
    }

    fn state_json(&self, game: &Game, _names: &[String]) -> Vec<(&'static str, Value)> {
        if game.slots.get::<Supply>().is_none() {
            return vec![("bridges", Value::Null)];
        }
        let board = game.board();
        let on_board: Vec<Value> = (board.overlays().iter())
            .map(|&(id, _)| {
                let pos = board.placed(id).pos;
                let edges = board.overlay(id);
                let edge = if edges & 1 != 0 { Edge::N } else { Edge::E };
                json!({"x": pos.x, "y": pos.y, "edge": edge.name()})
            })
            .collect();
        let supply: Vec<u8> = (0..game.scores().len()).map(|s| left(game, s)).collect();
        vec![("bridges", json!({"on_board": on_board, "supply": supply}))]
    }
}
