//! The CLI's bots asked for one move from Python.

use crate::errors::other;
use crate::game::{PyAction, PyGame};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The move the bot `bot` (`random`, `greedy`, `mcts`, `mcts:200`, `mcts:50ms`, … as on the
/// command line) makes in `game`'s pending decision, the bot seeded by `seed`: a legal action,
/// the same for the same state, bot and seed (a time budget such as `mcts:50ms` excepted).
/// The game is not changed. A finished game has no move (`CastellanError`).
#[pyfunction]
#[pyo3(signature = (game, bot = "greedy", seed = 0))]
pub fn bot_move(game: &PyGame, bot: &str, seed: u64) -> PyResult<PyAction> {
    if game.game.is_over() {
        return Err(other("the game is over: there is no move to make"));
    }
    let mut player = castellan::bot::by_name(bot, seed).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown bot `{bot}`; the bots are {}",
            castellan::bot::FORMS
        ))
    })?;
    Ok(PyAction::new(player.choose(&game.game)))
}
