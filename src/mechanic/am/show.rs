//! How Abbey & Mayor shows itself (`engine::show`): the abbey tiles each player still holds, and
//! what passing the offer of one means.

use super::abbey;
use crate::engine::action::DecisionKind;
use crate::engine::game::Game;
use crate::engine::show::Presenter;

/// Abbey & Mayor's presentation.
pub struct Show;

impl Presenter for Show {
    fn tokens_words(&self, game: &Game, seat: usize) -> Option<String> {
        match abbey::held(game, seat) {
            0 => None,
            1 => Some("1 abbey".to_string()),
            n => Some(format!("{n} abbeys")),
        }
    }

    /// A tile to place that may be declined is the offer of an abbey (AM-1, AM-5).
    fn pass_words(&self, decision: &DecisionKind) -> Option<&'static str> {
        matches!(decision, DecisionKind::PlaceTile { .. })
            .then_some("pass (keep the abbey: draw a tile, or in the last round let the turn go)")
    }
}
