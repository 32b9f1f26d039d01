//! The figure table as data: the shipped rows (`src/data/figures.toml`) and a ruleset's own
//! `[figures.NAME]` sections, read and checked into a [`FigureTable`] (rulesets/README.md,
//! "Figures").
//!
//! A row a ruleset writes changes the shipped row of that name key by key, or adds a row. The
//! follower's row is always first; its `per_player` is `base.followers_per_player` unless the
//! ruleset writes `figures.follower.per_player`. `princess` and `portal` default to whether the
//! row's `follower` kind is in `pd.princess.knight_kinds` and `pd.portal.figures`; `fairy`
//! defaults to whether the row is a follower at all.

use crate::data::section::FigureDefaults;
use crate::model::figure::{FigureKind, FigureRow, FigureTable, MAX_FIGURES, Stands};
use crate::model::tile::FeatureKind;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The shipped rows.
const SHIPPED: &str = include_str!("figures.toml");

/// The classes of follower that edition rules name (RULES.md B-M1); rule lists such as
/// `pd.princess.knight_kinds` and `pd.portal.figures` are written with these names; a figure
/// row names its class (`follower = "normal"`) to take the lists' answers.
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

impl FollowerKind {
    /// The name written in files and kept in the figure row ([`FigureRow::follower`]).
    pub fn name(self) -> &'static str {
        match self {
            FollowerKind::Normal => "normal",
            FollowerKind::Big => "big",
            FollowerKind::Abbot => "abbot",
            FollowerKind::Mayor => "mayor",
            FollowerKind::Wagon => "wagon",
        }
    }
}

/// The abilities a row's columns of the same name give (the families check them by these
/// names: [`FigureRow::can`]): the princess removes it as a knight (PR2), it may use the
/// magic portal (MP2), the fairy counts it as a follower (FA1–FA3).
pub const ABILITIES: [&str; 3] = ["princess", "portal", "fairy"];

/// One `[figures.NAME]` section; every key is optional (the shipped row or the default fills
/// it in).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FigureFile {
    /// How many each player gets.
    per_player: Option<u8>,
    /// Strength in a majority (B-M1).
    strength: Option<u32>,
    /// The features it may stand on.
    stands_on: Option<Vec<FeatureKind>>,
    /// The follower kind the edition rule lists call it.
    follower: Option<FollowerKind>,
    /// Whether the princess removes it as a knight.
    princess: Option<bool>,
    /// Whether it may use the magic portal.
    portal: Option<bool>,
    /// Whether the fairy counts it as a follower.
    fairy: Option<bool>,
    /// Free tags (the dragon's menu reads them).
    tags: Option<Vec<String>>,
    /// Deployed only beside one of its owner's followers (the builder, the pig).
    joins_own: Option<bool>,
    /// The figure in words ("big follower"; by default its name with spaces for `_`).
    noun: Option<String>,
    /// Its mark on the text board (one character).
    letter: Option<String>,
    /// Its outline in the SVG picture (path data).
    shape: Option<String>,
    /// Its size against the meeple's in the SVG picture (1: the same).
    scale: Option<f64>,
    /// A mark drawn in white over it in the SVG picture (path data).
    badge: Option<String>,
}

impl FigureFile {
    /// `self` with the keys it leaves out taken from `under`.
    fn over(&self, under: &FigureFile) -> FigureFile {
        FigureFile {
            per_player: self.per_player.or(under.per_player),
            strength: self.strength.or(under.strength),
            stands_on: self.stands_on.clone().or_else(|| under.stands_on.clone()),
            follower: self.follower.or(under.follower),
            princess: self.princess.or(under.princess),
            portal: self.portal.or(under.portal),
            fairy: self.fairy.or(under.fairy),
            tags: self.tags.clone().or_else(|| under.tags.clone()),
            joins_own: self.joins_own.or(under.joins_own),
            noun: self.noun.clone().or_else(|| under.noun.clone()),
            letter: self.letter.clone().or_else(|| under.letter.clone()),
            shape: self.shape.clone().or_else(|| under.shape.clone()),
            scale: self.scale.or(under.scale),
            badge: self.badge.clone().or_else(|| under.badge.clone()),
        }
    }
}

/// `[figures]`: rows by name.
#[derive(Deserialize)]
struct Shipped {
    figures: BTreeMap<String, FigureFile>,
}

/// The shipped rows (the file is part of the program and checked by a test).
fn shipped() -> BTreeMap<String, FigureFile> {
    toml::from_str::<Shipped>(SHIPPED)
        .map(|s| s.figures)
        .unwrap_or_default()
}

/// A figure table problem: the key path under `figures` and what is wrong.
pub type Problem = (Vec<String>, String);

/// The highest strength a row may give (B-M1's strongest figure is 2; a house rule may go
/// further, not without bound).
pub const MAX_STRENGTH: u32 = 10;

/// Builds the table from the ruleset's sections (`written`, merged along its chain) and what
/// its families' sections say of the rows' defaults (`followers_per_player`, the P&D lists).
pub fn table(
    written: &BTreeMap<String, FigureFile>,
    defaults: &FigureDefaults,
) -> Result<FigureTable, Problem> {
    let followers_per_player = defaults.followers_per_player;
    let shipped = shipped();
    let mut names: Vec<&String> = shipped.keys().chain(written.keys()).collect();
    names.sort_by_key(|n| (n.as_str() != "follower", n.as_str()));
    names.dedup();
    if names.len() > MAX_FIGURES {
        return Err((
            Vec::new(),
            format!(
                "a ruleset has at most {MAX_FIGURES} kinds of figure, this one has {}",
                names.len()
            ),
        ));
    }
    let none = FigureFile::default();
    let mut rows = Vec::with_capacity(names.len());
    for name in names {
        let own = written.get(name).unwrap_or(&none);
        let file = own.over(shipped.get(name).unwrap_or(&none));
        let at = |key: &str| vec![name.clone(), key.to_string()];
        let per_player = match file.per_player {
            None if name == "follower" => followers_per_player,
            None => 0,
            Some(n) if n <= 30 => n,
            Some(n) => {
                return Err((
                    at("per_player"),
                    format!("per_player must be 0 to 30, not {n}"),
                ));
            }
        };
        let strength = file.strength.unwrap_or(1);
        if strength > MAX_STRENGTH {
            return Err((
                at("strength"),
                format!("strength must be 0 to {MAX_STRENGTH}, not {strength}"),
            ));
        }
        let stands_on = file
            .stands_on
            .iter()
            .flatten()
            .fold(Stands::default(), |s, k| s.with(*k));
        let tags = file.tags.clone().unwrap_or_default();
        if let Some(bad) = tags.iter().find(|t| !is_word(t)) {
            return Err((
                at("tags"),
                format!("tag `{bad}`: a tag is lowercase letters, digits and `_`"),
            ));
        }
        if !is_word(name) {
            return Err((
                vec![name.clone()],
                format!("figure `{name}`: a figure's name is lowercase letters, digits and `_`"),
            ));
        }
        let noun = file.noun.clone().unwrap_or_else(|| name.replace('_', " "));
        let kind = FigureKind::named(name, &noun).ok_or_else(|| {
            (
                vec![name.clone()],
                "too many figure names in this process".to_string(),
            )
        })?;
        let letter = match file.letter.as_deref() {
            None => None,
            Some(l) => Some(board_letter(l).map_err(|msg| (at("letter"), msg))?),
        };
        for (key, path) in [("shape", &file.shape), ("badge", &file.badge)] {
            if let Some(d) = path.as_deref() {
                check_path(key, d).map_err(|msg| (at(key), msg))?;
            }
        }
        let scale = file.scale.unwrap_or(1.0);
        if !(MIN_SCALE..=MAX_SCALE).contains(&scale) {
            return Err((
                at("scale"),
                format!("scale must be {MIN_SCALE} to {MAX_SCALE}, not {scale}"),
            ));
        }
        let listed = |list: &[FollowerKind]| file.follower.is_some_and(|k| list.contains(&k));
        let able = [
            file.princess.unwrap_or(listed(&defaults.knights)),
            file.portal.unwrap_or(listed(&defaults.portal)),
            file.fairy.unwrap_or(file.follower.is_some()),
        ];
        let abilities = ABILITIES.iter().zip(able).filter(|(_, on)| *on);
        rows.push(FigureRow {
            kind,
            per_player,
            strength,
            stands_on,
            follower: file.follower.map(|k| k.name().to_string()),
            abilities: abilities.map(|(a, _)| a.to_string()).collect(),
            tags,
            joins_own: file.joins_own.unwrap_or(false),
            letter,
            shape: file.shape.clone(),
            scale_percent: (scale * 100.0).round() as u16,
            badge: file.badge.clone(),
        });
    }
    FigureTable::new(rows).ok_or_else(|| (Vec::new(), "the figure table lost its follower".into()))
}

/// The smallest and largest `scale` a row may give.
const MIN_SCALE: f64 = 0.5;
const MAX_SCALE: f64 = 2.0;

/// How much of a bad path a message quotes.
const QUOTED: usize = 40;

/// The longest outline a row may give.
pub const MAX_PATH: usize = 600;

/// The one character `l` gives for the text board (a figure's or a tile set mark's `letter`),
/// or what is allowed.
pub(crate) fn board_letter(l: &str) -> Result<char, String> {
    let mut chars = l.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_graphic() && !c.is_ascii_digit() => Ok(c),
        _ => Err(format!(
            "letter `{}`: one printable ASCII character other than a digit (digits are seats)",
            quoted(l)
        )),
    }
}

/// `value` as a message quotes it: a long value's start only (the caret shows where it is).
pub(crate) fn quoted(value: &str) -> String {
    match value.char_indices().nth(QUOTED) {
        Some((end, _)) => format!("{}…", &value[..end]),
        None => value.to_string(),
    }
}

/// Checks that `d`, written under `key` (a figure's `shape` or `badge`, a tile set mark's
/// `path`), is SVG path data a picture may carry; else says what is allowed.
pub(crate) fn check_path(key: &str, d: &str) -> Result<(), String> {
    if is_path(d) {
        return Ok(());
    }
    Err(format!(
        "{key} `{}`: SVG path data (letters of path commands, numbers, `,` `.` `-` and spaces, at most {MAX_PATH} characters)",
        quoted(d)
    ))
}

/// Whether `d` is SVG path data made of absolute or relative path commands and numbers only
/// (nothing that could end the attribute it is written into).
fn is_path(d: &str) -> bool {
    !d.trim().is_empty()
        && d.len() <= MAX_PATH
        && d.chars()
            .all(|c| "MmLlHhVvCcSsQqTtAaZz0123456789,.- ".contains(c))
}

/// Whether `s` is a name of lowercase letters, digits and `_` (at most 40 characters).
pub(crate) fn is_word(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 40
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_rows_read() {
        // The shipped file parses (shipped() would be empty otherwise) and gives B-M1's follower.
        let rows = shipped();
        assert!(rows.contains_key("follower") && rows.contains_key("count"));
        let defaults = FigureDefaults {
            followers_per_player: 7,
            knights: vec![FollowerKind::Normal],
            portal: vec![FollowerKind::Normal],
        };
        let t = table(&BTreeMap::new(), &defaults).expect("the shipped table");
        let follower = &t.rows()[0];
        assert_eq!(follower.kind, FigureKind::Follower);
        assert_eq!((follower.per_player, follower.strength), (7, 1));
        assert!(ABILITIES.iter().all(|a| follower.can(a)));
        assert!(follower.has_tag("flesh_and_blood"));
        let count = t
            .row(FigureKind::parse("count").expect("named"))
            .expect("row");
        assert_eq!((count.per_player, count.strength), (0, 0));
        assert!(count.abilities.is_empty());
        let big = t
            .row(FigureKind::parse("big").expect("named"))
            .expect("row");
        assert_eq!(big.kind.noun(), "big follower");
    }
}
