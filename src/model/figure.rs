//! Figures: the players' pieces and where they stand.

use crate::model::feature::SegId;
use crate::model::tile::FeatureKind;
use serde::Serialize;
use std::sync::{Mutex, OnceLock};

/// A kind of player figure: a small number standing for a figure's name (`follower`, …), the
/// same in every ruleset of the process. What the figure may do is a row of the ruleset's
/// [`FigureTable`] (RULES.md B-M1); the names are
/// kept in a process-wide table so that a kind prints and is written to records without its
/// ruleset at hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FigureKind(u8);

/// The process-wide figure names and nouns: the name and noun of kind `i` are entry `i`.
fn names() -> &'static Mutex<Vec<(&'static str, &'static str)>> {
    static NAMES: OnceLock<Mutex<Vec<(&'static str, &'static str)>>> = OnceLock::new();
    NAMES.get_or_init(|| Mutex::new(vec![("follower", "follower")]))
}

/// How many figure names one process can know (each ruleset adds at most [`MAX_FIGURES`]).
pub const MAX_NAMES: usize = 255;

impl FigureKind {
    /// The normal follower (meeple): always row 0 of a ruleset's table.
    #[allow(non_upper_case_globals)] // written like the enum variant it was, in tests and code
    pub const Follower: FigureKind = FigureKind(0);

    /// The name used in records (`figure = "follower"`).
    pub fn name(self) -> &'static str {
        let names = names().lock().unwrap_or_else(|e| e.into_inner());
        names.get(self.0 as usize).map_or("?", |(name, _)| *name)
    }

    /// The figure in words: its figure table's `noun` ("follower"), by default its
    /// name with spaces for `_`.
    pub fn noun(self) -> String {
        let names = names().lock().unwrap_or_else(|e| e.into_inner());
        names
            .get(self.0 as usize)
            .map_or("?", |(_, noun)| *noun)
            .to_string()
    }

    /// The figure in words with its article: "a follower", "an archer".
    pub fn words(self) -> String {
        let noun = self.noun();
        let article = if noun.starts_with(['a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        format!("{article} {noun}")
    }

    /// The kind as one byte, for the small payloads of mechanics' actions and events.
    pub fn code(self) -> u8 {
        self.0
    }

    /// The kind a byte made by [`FigureKind::code`] stands for (none for a byte no name has).
    pub fn of_code(code: u8) -> Option<FigureKind> {
        let names = names().lock().unwrap_or_else(|e| e.into_inner());
        (usize::from(code) < names.len()).then_some(FigureKind(code))
    }

    /// The kind of a name some ruleset's figure table gave (none if no ruleset of this process
    /// has a figure of that name).
    pub fn parse(name: &str) -> Option<FigureKind> {
        let names = names().lock().unwrap_or_else(|e| e.into_inner());
        names
            .iter()
            .position(|(n, _)| *n == name)
            .map(|i| FigureKind(i as u8))
    }

    /// The kind of `name`, made known with its `noun` if it is new (a known name keeps the
    /// noun it was first given; `None`: the process knows too many names).
    pub fn named(name: &str, noun: &str) -> Option<FigureKind> {
        let mut names = names().lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = names.iter().position(|(n, _)| *n == name) {
            return Some(FigureKind(i as u8));
        }
        if names.len() >= MAX_NAMES {
            return None;
        }
        // A name and its noun are leaked once per process and kind (at most MAX_NAMES short
        // strings each).
        let leak = |s: &str| -> &'static str { Box::leak(s.to_string().into_boxed_str()) };
        names.push((leak(name), leak(noun)));
        Some(FigureKind(names.len() as u8 - 1))
    }
}

impl Serialize for FigureKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// The most figure kinds one ruleset's table may hold.
pub const MAX_FIGURES: usize = 16;

/// The most players (seats) a game may have.
pub const MAX_PLAYERS: usize = 8;

/// Features a figure may stand on, one bit per [`FeatureKind`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Stands(u8);

impl Stands {
    /// Whether the figure may stand on a feature of `kind`.
    pub fn on(self, kind: FeatureKind) -> bool {
        self.0 & Stands::bit(kind) != 0
    }

    /// `self` with `kind` added.
    pub fn with(self, kind: FeatureKind) -> Stands {
        Stands(self.0 | Stands::bit(kind))
    }

    /// `self` with `kind` taken away.
    pub fn without(self, kind: FeatureKind) -> Stands {
        Stands(self.0 & !Stands::bit(kind))
    }

    fn bit(kind: FeatureKind) -> u8 {
        1 << match kind {
            FeatureKind::Road => 0,
            FeatureKind::City => 1,
            FeatureKind::Cloister => 2,
            FeatureKind::Field => 3,
            FeatureKind::Garden => 4,
        }
    }
}

/// One row of a ruleset's figure table: what a kind of figure is and may do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FigureRow {
    /// Its kind (name).
    pub kind: FigureKind,
    /// How many each player gets (0: a neutral figure or one the rules hand out otherwise).
    pub per_player: u8,
    /// Its strength in a majority (B-M1: 1 for the normal follower, 0 for a figure that is
    /// not counted).
    pub strength: u32,
    /// The features it may be deployed on.
    pub stands_on: Stands,
    /// The follower class the edition rule lists call it by (`"normal"`, …; none: not a
    /// follower).
    pub follower: Option<String>,
    /// What the families let it do, by the names they check (the data layer fills them in
    /// from the figure table's columns and the rule lists).
    pub abilities: Vec<String>,
    /// Free tags (`follower`, `flesh_and_blood`, …) that mechanics' rule lists read.
    pub tags: Vec<String>,
    /// Whether it joins its owner's follower instead of taking an empty feature: it is deployed
    /// only into a feature that holds one of its owner's followers (a figure tagged
    /// `follower`), and B-F3 (occupied) does not apply to it (RULES.md §1.10).
    pub joins_own: bool,
    /// Its mark on the text board: beside its owner's seat number (`b` a big follower), or, for
    /// a figure that joins its owner's follower, in place of it (`B` a builder); none: the seat
    /// number alone.
    pub letter: Option<char>,
    /// Its outline in SVG path data, about 24 units tall around the origin; none: the meeple.
    pub shape: Option<String>,
    /// Its size in the SVG picture, in hundredths of the meeple's (100: the same).
    pub scale_percent: u16,
    /// A mark drawn in white over its outline, in SVG path data (the abbot's cross).
    pub badge: Option<String>,
}

impl FigureRow {
    /// Whether the row carries `tag`.
    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags.iter().any(|t| t == tag)
    }

    /// Whether the edition lists call it a follower of `class`.
    pub fn is(&self, class: &str) -> bool {
        self.follower.as_deref() == Some(class)
    }

    /// Whether a family lets it do what `ability` names.
    pub fn can(&self, ability: &str) -> bool {
        self.abilities.iter().any(|a| a == ability)
    }
}

/// A ruleset's figure table: the plain follower first, then the other kinds in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FigureTable {
    rows: Vec<FigureRow>,
}

impl FigureTable {
    /// The follower's place in every table, and so in every player's supply.
    pub const FOLLOWER: usize = 0;

    /// A table of `rows`; the first must be the follower's and there are at most
    /// [`MAX_FIGURES`] (the data layer checks both with located errors).
    pub fn new(rows: Vec<FigureRow>) -> Option<FigureTable> {
        let ok = rows.first().is_some_and(|r| r.kind == FigureKind::Follower)
            && rows.len() <= MAX_FIGURES;
        ok.then_some(FigureTable { rows })
    }

    /// The rows, the follower's first.
    pub fn rows(&self) -> &[FigureRow] {
        &self.rows
    }

    /// The row of `kind` and its place in the table (a player's supply is kept in this order).
    pub fn find(&self, kind: FigureKind) -> Option<(usize, &FigureRow)> {
        self.rows.iter().enumerate().find(|(_, r)| r.kind == kind)
    }

    /// The row of `kind`.
    pub fn row(&self, kind: FigureKind) -> Option<&FigureRow> {
        self.find(kind).map(|(_, r)| r)
    }

    /// Whether figures of `kind` are followers of the edition class `class`.
    pub fn is(&self, kind: FigureKind, class: &str) -> bool {
        self.row(kind).is_some_and(|r| r.is(class))
    }

    /// The strength of `kind` in a majority (0 for a kind the table lacks).
    pub fn strength(&self, kind: FigureKind) -> u32 {
        self.row(kind).map_or(0, |r| r.strength)
    }

    /// Each player's starting supply, in table order.
    pub fn supply(&self) -> [u8; MAX_FIGURES] {
        let mut supply = [0; MAX_FIGURES];
        for (slot, row) in supply.iter_mut().zip(&self.rows) {
            *slot = row.per_player;
        }
        supply
    }

    /// The kinds of the rows for which `keep` holds, as a set to ask of many figures.
    pub fn kinds(&self, keep: impl Fn(&FigureRow) -> bool) -> Kinds {
        let mut set = Kinds::default();
        for row in self.rows.iter().filter(|r| keep(r)) {
            let code = usize::from(row.kind.code());
            set.0[code / 64] |= 1 << (code % 64);
        }
        set
    }

    /// The table's indices (the supply's slots) of the rows for which `keep` holds.
    pub fn slots(&self, keep: impl Fn(&FigureRow) -> bool) -> Vec<usize> {
        (self.rows.iter().enumerate())
            .filter(|(_, r)| keep(r))
            .map(|(i, _)| i)
            .collect()
    }
}

/// A set of figure kinds, one bit per [`FigureKind::code`]: what a mechanic reads once from
/// the figure table (say, the kinds with one of its abilities) and then asks of each figure
/// without searching the table again.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Kinds([u64; 4]);

impl Kinds {
    /// Whether `kind` is in the set.
    pub fn contains(&self, kind: FigureKind) -> bool {
        let code = usize::from(kind.code());
        self.0[code / 64] >> (code % 64) & 1 != 0
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

/// A figure that left the board, as it stood there: on a feature (the figure itself), or at a
/// place that is no feature (its owner, kind and place).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Departure {
    /// It stood on a feature.
    Feature(Figure),
    /// It stood at a place that is no feature (on a tile, at a corner).
    Place {
        /// The owner's seat.
        owner: usize,
        /// What it is.
        kind: FigureKind,
        /// Where it stood.
        place: Place,
    },
}

impl Departure {
    /// The owner's seat.
    pub fn owner(&self) -> usize {
        match self {
            Departure::Feature(f) => f.owner,
            Departure::Place { owner, .. } => *owner,
        }
    }

    /// What it is.
    pub fn kind(&self) -> FigureKind {
        match self {
            Departure::Feature(f) => f.kind,
            Departure::Place { kind, .. } => *kind,
        }
    }

    /// The figure, if it stood on a feature.
    pub fn on_feature(&self) -> Option<&Figure> {
        match self {
            Departure::Feature(f) => Some(f),
            Departure::Place { .. } => None,
        }
    }
}

/// Where a figure stands when it stands on no feature: on a tile (as on top of a tower), at
/// a corner where four tiles meet (as a barn), or on the side two tiles share (as in a castle
/// that lies between two tiles). A corner is named once, as the north-east corner of the tile
/// south-west of it; a side once, as the north or east side of the tile south or west of it
/// ([`Place::side`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Place {
    /// On the tile at this position.
    Tile(crate::model::geometry::Pos),
    /// At the north-east corner of the tile at this position.
    Corner(crate::model::geometry::Pos),
    /// On the side of the tile at this position that it shares with its neighbour there:
    /// always [`Edge::N`](crate::model::geometry::Edge::N) or
    /// [`Edge::E`](crate::model::geometry::Edge::E) ([`Place::side`] names it so).
    Side(crate::model::geometry::Pos, crate::model::geometry::Edge),
}

impl Place {
    /// The side between the tile at `pos` and its neighbour across `edge`, named once.
    pub fn side(pos: crate::model::geometry::Pos, edge: crate::model::geometry::Edge) -> Place {
        use crate::model::geometry::Edge;
        match edge {
            Edge::S | Edge::W => Place::Side(pos.step(edge), edge.opposite()),
            _ => Place::Side(pos, edge),
        }
    }
}
