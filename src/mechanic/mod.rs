//! The rules, one module per mechanic. Each mechanic owns its toggles (read from the ruleset's
//! TOML, with the current Hans im Glück rules as defaults) and the functions the game's turn
//! pipeline calls at the phases it hooks.

pub mod abbot;
pub mod base;
pub mod count;
pub mod ic;
pub mod pd;
pub mod tb;
