//! The Princess & the Dragon: the volcano, the dragon, the fairy, the princess and the magic
//! portal (RULES.md §2).

pub mod dragon;
pub mod fairy;
pub mod portal;
pub mod princess;
pub mod rules;
pub(crate) mod script;
pub mod vocabulary;
pub mod volcano;

use crate::engine::game::Game;
use crate::model::geometry::Pos;
pub use fairy::Fairy;

/// The P&D figures as every reader sees them (the renderers, the bots, the scripts): the
/// owner's public readers of its state.
impl Game {
    /// Where the dragon is, if it is on the board.
    pub fn dragon(&self) -> Option<Pos> {
        dragon::at(self)
    }

    /// Whether the dragon has entered play (it may be off the board, hidden by a script).
    pub fn dragon_in_play(&self) -> bool {
        dragon::in_play(self)
    }

    /// Dragon tiles set aside while the dragon is not in play (D0).
    pub fn set_aside(&self) -> usize {
        dragon::state(self).map_or(0, |s| s.set_aside.len())
    }

    /// Where the fairy is, if it is on the board.
    pub fn fairy(&self) -> Option<Fairy> {
        fairy::at(self)
    }
}
