//! The events of a game in players' words, for the web page's log: tiles named by what is on
//! them ("a road curve", "a city edge with a straight road"), figures by their role where they
//! stand (knight, thief, farmer, monk), features by where they lie on their tile; the rule
//! that applied (`§1.6`, `FA7`) is kept apart as a note, for a hover title, not in the text.
//!
//! Built on [`crate::engine::words`] for what only a mechanic or a script can say, with tile
//! ids, spot codes and rule ids taken out of its words.

use crate::engine::event::Event;
use crate::engine::game::Game;
use crate::engine::show;
use crate::engine::words;
use crate::model::figure::FigureKind;
use crate::model::geometry::{Pos, Spot};
use crate::model::tile::{FeatureKind, TileType};
use crate::registry;
use crate::ui::describe;

/// One line of the log: the words, and the rule behind them if one is named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// What happened, in players' words.
    pub text: String,
    /// The rule that applied (a RULES.md id such as `§1.6` or `FA7`), for a hover note.
    pub note: Option<String>,
}

/// A tile by what is on it: "a cloister with a road", "a city edge with a road curve",
/// "a crossroads", "a full city". Fields are not named (every tile has them).
pub fn tile_words(tile: &TileType) -> String {
    let features = tile.features();
    let count = |kind: FeatureKind| features.iter().filter(|f| f.kind == kind).count();
    let sides = |kind: FeatureKind| -> Vec<u32> {
        features
            .iter()
            .filter(|f| f.kind == kind)
            .map(|f| f.edges.count_ones())
            .collect()
    };
    let cities = sides(FeatureKind::City);
    let roads = sides(FeatureKind::Road);
    let city = match cities.as_slice() {
        [] => None,
        [4] => Some("a full city".to_string()),
        [1] => Some("a city edge".to_string()),
        [n] => Some(format!("a city of {n} sides")),
        more if more.iter().all(|n| *n == 1) => Some(format!("{} city edges", number(more.len()))),
        more => Some(format!("{} cities", number(more.len()))),
    };
    let straight = features
        .iter()
        .find(|f| f.kind == FeatureKind::Road)
        .is_some_and(|f| f.edges == 0b0101 || f.edges == 0b1010);
    let road = match roads.as_slice() {
        [] => None,
        [2] if straight => Some("a straight road".to_string()),
        [2] => Some("a road curve".to_string()),
        [_] => Some("a road end".to_string()),
        [_, _] => Some("two road ends".to_string()),
        [_, _, _] => Some("a junction of three roads".to_string()),
        _ => Some("a crossroads".to_string()),
    };
    let middle = if count(FeatureKind::Cloister) > 0 {
        Some("a cloister".to_string())
    } else if count(FeatureKind::Garden) > 0 {
        Some("a garden".to_string())
    } else {
        None
    };
    let parts: Vec<String> = [middle, city, road].into_iter().flatten().collect();
    match parts.as_slice() {
        [] => "a field".to_string(),
        [one] => one.clone(),
        [first, rest @ ..] => format!("{first} with {}", rest.join(" and ")),
    }
}

fn number(n: usize) -> &'static str {
    match n {
        2 => "two",
        3 => "three",
        _ => "four",
    }
}

/// The tile with id `id` in words, or "a tile" for an id the ruleset does not know.
fn tile_named(game: &Game, id: &str) -> String {
    game.rules()
        .tiles
        .iter()
        .find(|t| &*t.id == id)
        .map_or_else(|| "a tile".to_string(), tile_words)
}

/// A figure by its role on a feature of `kind`: "knight", "big thief", "abbot".
fn role(figure: FigureKind, kind: Option<FeatureKind>) -> String {
    describe::figure_role(figure, kind)
}

/// Splits a rule text such as "§1.6 completed road" into its id and its words.
fn rule_parts(rule: &str) -> (String, String) {
    match rule.split_once(' ') {
        Some((id, rest)) if looks_like_rule(id) => (id.to_string(), rest.replace('_', " ")),
        _ if looks_like_rule(rule) => (rule.to_string(), String::new()),
        _ => (String::new(), rule.replace('_', " ")),
    }
}

/// Whether `s` reads like a rule id: `§1.6`, `FA7`, `B-P5`, `D0`.
fn looks_like_rule(s: &str) -> bool {
    s.starts_with('§')
        || (s.len() <= 6
            && s.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && s.chars().any(|c| c.is_ascii_digit())
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.'))
}

/// Takes a trailing "(D4)" or "(house rule A23)" off `text` as the note.
fn split_note(text: &str) -> Line {
    if let Some(open) = text.rfind(" (")
        && text.ends_with(')')
    {
        let inside = &text[open + 2..text.len() - 1];
        let id = inside.rsplit(' ').next().unwrap_or(inside);
        if looks_like_rule(id) {
            return Line {
                text: text[..open].to_string(),
                note: Some(inside.to_string()),
            };
        }
    }
    Line {
        text: text.to_string(),
        note: None,
    }
}

/// A mechanic's or script's words with tile ids named by what is on the tile, spot codes
/// after a position left out, underscores as spaces, and a trailing rule id made a note.
fn plain(game: &Game, text: &str) -> Line {
    // Engine names such as "dead_end" read as words (tile ids are looked up first).
    let words: Vec<&str> = text.split(' ').collect();
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    for (i, word) in words.iter().enumerate() {
        let bare = word.trim_end_matches([',', ':']);
        let after_pos = i > 0 && words[i - 1].ends_with(')');
        if after_pos && Spot::parse(bare).is_some() {
            continue;
        }
        match game.rules().tiles.iter().find(|t| &*t.id == bare) {
            Some(tile) => out.push(format!("{}{}", tile_words(tile), &word[bare.len()..])),
            None => out.push(word.replace('_', " ")),
        }
    }
    split_note(&out.join(" "))
}

/// Where a figure stands, remembered from its deployment to name it when it goes home.
struct Standing {
    player: usize,
    figure: FigureKind,
    at: Pos,
    kind: FeatureKind,
}

/// Every event of `events` (a whole game's, from its start, ending in `game`) in players'
/// words, with the names by seat.
pub fn lines(game: &Game, events: &[Event], names: &[String]) -> Vec<Line> {
    let mut standing: Vec<Standing> = Vec::new();
    events
        .iter()
        .map(|e| {
            let line = line(game, e, names, &standing);
            remember(&mut standing, e);
            Line {
                text: describe::second_person(&line.text),
                note: line.note,
            }
        })
        .collect()
}

fn remember(standing: &mut Vec<Standing>, event: &Event) {
    match event {
        Event::FigureDeployed {
            player,
            figure,
            x,
            y,
            feature,
            ..
        } => standing.push(Standing {
            player: *player,
            figure: *figure,
            at: Pos::new(*x, *y),
            kind: *feature,
        }),
        Event::FigureReturned {
            player,
            figure,
            x,
            y,
            ..
        } => {
            if let Some(i) = standing.iter().position(|s| {
                s.player == *player && s.figure == *figure && s.at == Pos::new(*x, *y)
            }) {
                standing.remove(i);
            }
        }
        _ => {}
    }
}

fn said(text: String) -> Line {
    Line { text, note: None }
}

fn noted(text: String, note: &str) -> Line {
    Line {
        text,
        note: (!note.is_empty()).then(|| note.to_string()),
    }
}

fn line(game: &Game, event: &Event, names: &[String], standing: &[Standing]) -> Line {
    let who = |p: usize| names.get(p).map_or("?", String::as_str).to_string();
    match event {
        Event::StartTile { tile, x, y, .. } => said(format!(
            "the game starts with {} at ({x},{y})",
            tile_named(game, tile)
        )),
        Event::TileDrawn { player, tile } => {
            said(format!("{} draws {}", who(*player), tile_named(game, tile)))
        }
        Event::TileDealt { player, tile } => said(format!(
            "{} takes {} to lay",
            who(*player),
            tile_named(game, tile)
        )),
        Event::TileDiscarded { player, tile } => noted(
            format!(
                "{} fits nowhere and leaves the game; {} draws again",
                capital(&tile_named(game, tile)),
                who(*player)
            ),
            "B-P5",
        ),
        Event::TilePlaced {
            player, tile, x, y, ..
        } => said(format!(
            "{} places {} at ({x},{y})",
            who(*player),
            tile_named(game, tile)
        )),
        Event::FigureDeployed {
            player,
            figure,
            x,
            y,
            feature,
            spot,
        } => {
            let pos = Pos::new(*x, *y);
            said(format!(
                "{} puts a {} on {} at ({x},{y})",
                who(*player),
                role(*figure, Some(*feature)),
                describe::feature(game, pos, *spot)
            ))
        }
        Event::FeatureCompleted {
            feature,
            tiles,
            x,
            y,
            ..
        } => said(format!(
            "a {} of {tiles} tiles is completed at ({x},{y})",
            feature.name()
        )),
        Event::Scored {
            player,
            points,
            feature,
            rule,
            ..
        } => {
            let (id, what) = rule_parts(rule);
            let what = if what.is_empty() {
                format!("a {}", feature.name())
            } else {
                format!("the {what}")
            };
            noted(format!("{} scores {points} for {what}", who(*player)), &id)
        }
        Event::FigureReturned {
            player,
            figure,
            x,
            y,
            reason,
        } => {
            let kind = standing
                .iter()
                .rev()
                .find(|s| s.player == *player && s.figure == *figure && s.at == Pos::new(*x, *y))
                .map(|s| s.kind);
            let what = format!("{}'s {} at ({x},{y})", who(*player), role(*figure, kind));
            match reason.family_reason() {
                Some(r) => noted(r.told.replacen("{}", &what, 1), r.rule),
                None => said(format!("{what} goes back to {}'s supply", who(*player))),
            }
        }
        Event::GameEnded { .. } => said(words::event(event, names).to_string()),
        _ => mechanic_line(game, event, names),
    }
}

/// A mechanic's event: in its family's own words where it has some ([`Presenter::narrate`]);
/// others speak as [`words::event`] does, made [`plain`].
///
/// [`Presenter::narrate`]: crate::engine::show::Presenter::narrate
fn mechanic_line(game: &Game, event: &Event, names: &[String]) -> Line {
    let say = describe::Speaker::narrator(game, names);
    match show::first(registry::presenters(), |p| p.narrate(event, &say)) {
        Some(text) => said(text),
        None => plain(game, &words::event(event, names).to_string()),
    }
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_ids_are_told_apart_from_words() {
        assert_eq!(
            rule_parts("§1.6 completed road"),
            ("§1.6".to_string(), "completed road".to_string())
        );
        assert_eq!(
            rule_parts("§1.9 farm_centric_3"),
            ("§1.9".to_string(), "farm centric 3".to_string())
        );
        let l = split_note("the fairy: +1 for Ann at the start of the turn (FA7)");
        assert_eq!(l.text, "the fairy: +1 for Ann at the start of the turn");
        assert_eq!(l.note.as_deref(), Some("FA7"));
        let l = split_note("Ann does not claim the fairy's point (house rule A23)");
        assert_eq!(l.note.as_deref(), Some("house rule A23"));
        assert_eq!(split_note("a (small) thing").note, None);
    }
}
