//! The mayor (RULES-MORE.md AM-7..AM-9): a follower for cities only (its figure-table row
//! stands on cities alone), whose strength in a majority is the number of pennants in its
//! whole city when the city is scored, complete or at the end (AM-8). The city's value is the
//! base game's (AM-9): the mayor only adds to the strength the base scoring pays by, through
//! the engine's [`Mechanic::strength`] hook.

use super::rules::MayorRules;
use crate::data::ruleset::Ruleset;
use crate::engine::game::Game;
use crate::engine::mechanic::{Hooks, Mechanic, Shortcuts};
use crate::model::feature::SegId;
use crate::model::figure::{Kinds, MAX_PLAYERS};
use crate::model::tile::FeatureKind;

/// The mayor's strength (`[mechanics] abbey_mayor`).
#[derive(Debug)]
pub struct Mayors {
    /// The figure kinds whose row calls them mayors (`follower = "mayor"`).
    mayors: Kinds,
    /// `[am.mayor]`.
    rules: MayorRules,
}

impl Mayors {
    /// The mayor's strength under `rules`' figure table and `[am.mayor]`.
    pub fn new(rules: &Ruleset, mayor: MayorRules) -> Mayors {
        Mayors {
            mayors: rules.figures.kinds(|r| r.is("mayor")),
            rules: mayor,
        }
    }
}

impl Mechanic for Mayors {
    fn name(&self) -> &'static str {
        "mayor"
    }

    fn hooks(&self) -> Hooks {
        Hooks::STRENGTH
    }

    /// AM-8: each mayor in the city adds the city's pennants to its owner's strength; under
    /// `am.mayor.zero_strength_scores` a mayor's owner counts 1 when nobody has any strength.
    fn strength(&self, g: &mut Game, key: SegId, kind: FeatureKind, strength: &mut [u32]) {
        if kind != FeatureKind::City {
            return;
        }
        let totals = g.features.totals(key);
        if totals.followers == 0 {
            return;
        }
        let mut present = [false; MAX_PLAYERS];
        let mayors = g.figures.iter().filter(|f| self.mayors.contains(f.kind));
        for f in mayors.filter(|f| g.features.root(f.seg) == key) {
            if let Some(s) = strength.get_mut(f.owner) {
                *s += totals.pennants;
                present[f.owner] = true;
            }
        }
        if self.rules.zero_strength_scores && strength.iter().all(|&s| s == 0) {
            for (s, _) in strength.iter_mut().zip(present).filter(|(_, p)| *p) {
                *s = 1;
            }
        }
    }
}

impl Shortcuts for Mayors {}
