//! Figures: the players' pieces and where they stand.

use crate::model::feature::SegId;
use serde::{Deserialize, Serialize};

/// A kind of player figure. Only the normal follower exists so far; expansion figures (big
/// follower, builder, pig, abbot, …) slot in here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FigureKind {
    /// The normal follower (meeple).
    Follower,
}

impl FigureKind {
    /// Every figure kind.
    pub const ALL: [FigureKind; 1] = [FigureKind::Follower];

    /// The name used in records (`figure = "follower"`).
    pub fn name(self) -> &'static str {
        match self {
            FigureKind::Follower => "follower",
        }
    }

    /// Parses a record name.
    pub fn parse(name: &str) -> Option<FigureKind> {
        FigureKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Strength in a majority (RULES.md B-M1).
    pub fn weight(self) -> u32 {
        match self {
            FigureKind::Follower => 1,
        }
    }
}

/// The kinds of follower that edition rules name (RULES.md B-M1); rule lists such as
/// `pd.princess.knight_kinds` and `pd.portal.figures` are written with these names. Only
/// `normal` exists as a figure so far; the others are accepted so rulesets can already say
/// how they will be treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FollowerKind {
    /// Normal follower.
    Normal,
    /// Big follower (Inns & Cathedrals).
    Big,
    /// Abbot (the new base game).
    Abbot,
    /// Mayor (Abbey & Mayor).
    Mayor,
    /// Wagon (Abbey & Mayor).
    Wagon,
}

impl FigureKind {
    /// Which follower kind a figure is, for the rule lists.
    pub fn follower_kind(self) -> FollowerKind {
        match self {
            FigureKind::Follower => FollowerKind::Normal,
        }
    }
}

/// A player's figure standing on a feature segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Figure {
    /// A number that identifies the figure while it is on the board.
    pub id: u32,
    /// The owner's seat.
    pub owner: usize,
    /// What it is.
    pub kind: FigureKind,
    /// The segment it stands on.
    pub seg: SegId,
}
