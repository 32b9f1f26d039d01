//! What people see: the terminal game, actions and events in words, JSON views of a game and
//! pictures of the board, the checks of `castellan validate` and the web page (`castellan serve`).

pub mod describe;
pub mod holdings;
pub mod narrate;
pub mod play;
pub mod render;
pub mod report;
pub mod tally;
pub mod undo;
pub mod validate;
#[cfg(feature = "serve")]
pub mod web;
