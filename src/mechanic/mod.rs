//! The rules, one module per mechanic. Each mechanic owns its toggles (read from the ruleset's
//! TOML, with the current Hans im Glück rules as defaults) and the functions the game's turn
//! pipeline calls at the phases it hooks.

pub mod abbot;
pub mod am;
pub mod base;
pub mod bcb;
pub mod count;
pub mod ic;
pub mod pd;
pub mod tb;
pub mod tower;

use crate::engine::family::Descriptor;
use crate::engine::show::Presenter;
use crate::script::family::ScriptApi;

/// A family as the registry lists it, all it brings declared in its folder's `mod.rs`
/// (`pub const FAMILY`): the engine's part (switches, ruleset section, vocabulary, figures,
/// constructor), how the user interfaces show it, and the commands it gives scripts.
#[derive(Clone, Copy)]
pub struct Family {
    /// What the engine reads: switches, section, vocabulary, figures, constructor.
    pub core: Descriptor,
    /// Its words, tallies, JSON and pictures (`engine::show`), if it has any of its own.
    pub show: Option<&'static dyn Presenter>,
    /// Registers its script commands and queries (`script::family`), if scripts can reach it.
    pub(crate) script: Option<fn(&mut ScriptApi)>,
}
