//! What people see: the terminal game, actions and events in words, JSON views of a game and
//! pictures of the board.

pub mod describe;
pub mod play;
pub mod render;
pub mod report;
