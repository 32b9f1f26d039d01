//! The Tower's toggles (`[tower]`, RULES-MORE.md §1.3): plain data read from TOML. No game
//! logic.

use crate::data::ruleset::Ruleset;
use crate::data::section::{Problem, Section, Switches};
use serde::Deserialize;
use std::sync::LazyLock;
use std::sync::atomic::AtomicUsize;

/// `[tower]`: the toggles of The Tower (RULES-MORE.md §1). The rule itself is switched on by
/// `[mechanics] tower = true`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TowerRules {
    /// Each player's tower floors by player count, for 2, 3, 4, 5 and 6 players (TW-C3,
    /// `tower.floors_by_players`; \[CS-TW\], JCZ: 10, 9, 7, 6, 5). One player gets the
    /// two-player number, seven or eight the six-player one.
    pub floors_by_players: [u8; 5],
    /// A player may capture his own follower, which just goes home (TW-6,
    /// `tower.capture_own`; \[PG-TW\], \[WC-TW\]).
    pub capture_own: bool,
    /// A tower whose top figure was captured is open again (Q-TW2,
    /// `tower.reopen_after_capture`; forum consensus, not official).
    pub reopen_after_capture: bool,
    /// What buying a prisoner back costs its owner and pays its captor (TW-8,
    /// `tower.ransom_points`; \[PG-TW\], JCZ `RANSOM_POINTS`).
    pub ransom_points: u32,
    /// The follower classes (figure table's `follower`) that may close a tower (TW-3,
    /// `tower.top_figures`; \[MJH p10\]: normal and big followers, not the mayor or wagon).
    pub top_figures: Vec<String>,
}

impl Default for TowerRules {
    fn default() -> Self {
        TowerRules {
            floors_by_players: [10, 9, 7, 6, 5],
            capture_own: true,
            reopen_after_capture: true,
            ransom_points: 3,
            top_figures: vec!["normal".into(), "big".into()],
        }
    }
}

/// The most floors one player may be given (the box has 30).
pub const MAX_FLOORS: u8 = 30;

impl Section for TowerRules {
    const KEY: &'static str = "tower";

    fn check(&self, _switches: &Switches) -> Result<(), Problem> {
        if let Some(n) = self.floors_by_players.iter().find(|n| **n > MAX_FLOORS) {
            return Err(Problem::at(
                &["tower", "floors_by_players"],
                format!("a player gets at most {MAX_FLOORS} floors (the box has 30), not {n}"),
            ));
        }
        if self.ransom_points > 100 {
            return Err(Problem::at(
                &["tower", "ransom_points"],
                format!("a ransom costs 0 to 100 points, not {}", self.ransom_points),
            ));
        }
        if let Some(bad) = self.top_figures.iter().find(|c| !is_word(c)) {
            return Err(Problem::at(
                &["tower", "top_figures"],
                format!("a follower class is a lowercase word (`normal`, `big`), not {bad:?}"),
            ));
        }
        Ok(())
    }
}

/// Whether `text` is a lowercase word (letters, digits, `_`).
fn is_word(text: &str) -> bool {
    !text.is_empty()
        && (text.chars()).all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

impl TowerRules {
    /// The ruleset's `[tower]` section (its defaults for a ruleset read without the family).
    #[inline]
    pub fn of(rules: &Ruleset) -> &TowerRules {
        static DEFAULT: LazyLock<TowerRules> = LazyLock::new(TowerRules::default);
        static AT: AtomicUsize = AtomicUsize::new(0);
        (rules.sections.get_cached::<TowerRules>(&AT)).unwrap_or_else(|| &DEFAULT)
    }

    /// Each player's floors in a game of `players`.
    pub fn floors(&self, players: usize) -> u8 {
        self.floors_by_players[players.clamp(2, 6) - 2]
    }
}
