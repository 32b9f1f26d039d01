//! The features on the board as players weigh them: where each lies (its tiles and the spot
//! of each of its parts), who holds it with how many figures, and what it would pay if it were
//! scored now (an incomplete road, city or cloister as at the end of the game, a field as its
//! farmers would be paid). The web page outlines a feature with this when the mouse rests on it.

use crate::engine::event::Event;
use crate::engine::game::Game;
use crate::model::feature::SegId;
use crate::model::geometry::{Pos, Spot};
use crate::model::tile::FeatureKind;
use crate::registry;
use crate::ui::describe;
use std::collections::BTreeMap;

/// One feature on the board.
#[derive(Clone, Debug, PartialEq)]
pub struct Holding {
    /// Road, city, cloister, garden or field.
    pub kind: FeatureKind,
    /// Its parts: the tile and the spot of each.
    pub parts: Vec<(Pos, Spot)>,
    /// How many figures each seat has on it (seat, count), seats without figures left out.
    pub holders: Vec<(usize, u32)>,
    /// Whether it is completed (a closed road or city, a surrounded cloister).
    pub completed: bool,
    /// What its majority would be paid if it were scored now; `None` for a completed
    /// feature (already paid) and for a field whose farmers could not be told apart.
    pub worth: Option<u32>,
}

impl Holding {
    /// The distinct tiles it lies on, in order of first appearance.
    pub fn tiles(&self) -> Vec<Pos> {
        let mut out: Vec<Pos> = Vec::new();
        for (p, _) in &self.parts {
            if !out.contains(p) {
                out.push(*p);
            }
        }
        out
    }

    /// The feature in words for a hover note, with the players' names by seat:
    /// "city of 3 tiles · Ann 1 knight, Bob 2 knights · worth 4 now".
    pub fn words(&self, names: &[String]) -> String {
        let tiles = self.tiles().len();
        let mut out = match self.kind {
            FeatureKind::Cloister | FeatureKind::Garden => self.kind.name().to_string(),
            kind => format!(
                "{} of {tiles} tile{}",
                kind.name(),
                if tiles == 1 { "" } else { "s" }
            ),
        };
        if self.completed {
            out.push_str(", completed");
        }
        let role = describe::role(self.kind);
        let held: Vec<String> = self
            .holders
            .iter()
            .map(|(seat, n)| {
                let name = names.get(*seat).map_or("?", String::as_str);
                format!("{name} {n} {role}{}", if *n == 1 { "" } else { "s" })
            })
            .collect();
        out.push_str(" · ");
        out.push_str(&if held.is_empty() {
            "nobody holds it".to_string()
        } else {
            held.join(", ")
        });
        if let Some(w) = self.worth {
            let when = if self.kind == FeatureKind::Field {
                "its farmers would get"
            } else {
                "worth"
            };
            out.push_str(&format!(" · {when} {w} now"));
        }
        out
    }
}

/// Every feature on the board, in the order of its first part.
pub fn on_board(game: &Game) -> Vec<Holding> {
    let features = game.features();
    let mut groups: BTreeMap<SegId, Vec<SegId>> = BTreeMap::new();
    for seg in 0..features.len() as SegId {
        groups.entry(features.root(seg)).or_default().push(seg);
    }
    let seats = game.setup().players.len();
    let mut out: Vec<(SegId, Holding)> = groups
        .into_iter()
        .map(|(root, segs)| {
            let mut holders = vec![0u32; seats];
            for f in game.figures() {
                if features.root(f.seg) == root {
                    holders[f.owner] += 1;
                }
            }
            let kind = features.segment(root).kind;
            let completed = kind != FeatureKind::Field && game.is_complete(root);
            let holding = Holding {
                kind,
                parts: segs.iter().map(|s| game.seg_spot(*s)).collect(),
                holders: (0..seats)
                    .filter(|s| holders[*s] > 0)
                    .map(|s| (s, holders[s]))
                    .collect(),
                completed,
                worth: None,
            };
            (root, holding)
        })
        .collect();
    // One copy answers every size; a held feature is scored on a copy of its own.
    let mut sizes = game.clone();
    for (root, h) in &mut out {
        if h.kind != FeatureKind::Field && !h.completed {
            h.worth = worth_now(game, &mut sizes, *root, !h.holders.is_empty());
        }
    }
    farm_worth(game, &mut out);
    out.into_iter().map(|(_, h)| h).collect()
}

/// What a road, city or cloister pays its majority if scored now, incomplete, as the family
/// that scores it says (`Presenter::worth_now`); `sizes` is a copy of `game`.
fn worth_now(game: &Game, sizes: &mut Game, root: SegId, held: bool) -> Option<u32> {
    registry::presenters()
        .iter()
        .find_map(|p| p.worth_now(game, sizes, root, held))
}

/// What each field with farmers would pay now: the farms are scored on a copy of the game
/// (RULES.md §1.9) and each payment is given to the one held field on whose tiles it lies.
fn farm_worth(game: &Game, out: &mut [(SegId, Holding)]) {
    let held: Vec<usize> = (0..out.len())
        .filter(|i| out[*i].1.kind == FeatureKind::Field && !out[*i].1.holders.is_empty())
        .collect();
    if held.is_empty() {
        return;
    }
    let Some(events) = registry::presenters()
        .iter()
        .find_map(|p| p.farms_now(game))
    else {
        return;
    };
    for i in &held {
        out[*i].1.worth = Some(0);
    }
    for e in &events {
        let Event::Scored {
            points,
            feature: FeatureKind::Field,
            x,
            y,
            ..
        } = e
        else {
            continue;
        };
        let at = Pos::new(*x, *y);
        let on: Vec<usize> = held
            .iter()
            .copied()
            .filter(|i| out[*i].1.parts.iter().any(|(p, _)| *p == at))
            .collect();
        match on.as_slice() {
            [one] => {
                let w = &mut out[*one].1.worth;
                *w = Some(w.unwrap_or(0).max(*points));
            }
            many => {
                for i in many {
                    out[*i].1.worth = None;
                }
            }
        }
    }
}
