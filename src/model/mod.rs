//! The vocabulary and the board model: positions, tiles, the board, features and figures. No
//! rules live here, and nothing here names an expansion.

pub mod board;
pub(crate) mod copylog;
pub mod feature;
pub mod figure;
pub mod geometry;
pub mod tile;
