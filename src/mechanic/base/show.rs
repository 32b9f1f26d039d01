//! How the base game shows itself (`engine::show`): what a feature or a farm would pay if it
//! were scored now, for the board's hover notes.

use super::rules::BaseRules;
use super::{farm, score_feature, scoring};
use crate::engine::event::Event;
use crate::engine::game::Game;
use crate::engine::show::Presenter;
use crate::model::feature::SegId;

/// The base game's presentation.
pub struct Show;

impl Presenter for Show {
    /// A feature held by figures is scored on a copy of the game, so every mechanic's bonus
    /// counts; one nobody holds has its base value (RULES.md §1.8), its size read on `sizes`.
    fn worth_now(&self, game: &Game, sizes: &mut Game, root: SegId, held: bool) -> Option<u32> {
        if held {
            let mut copy = game.clone();
            let mut events = Vec::new();
            score_feature(&mut copy, root, false, &mut events);
            let paid = events.iter().filter_map(|e| match e {
                Event::Scored { points, .. } => Some(*points),
                _ => None,
            });
            if let Some(most) = paid.max() {
                return Some(most);
            }
        }
        let kind = game.features().segment(root).kind;
        let size = sizes.size(root);
        Some(scoring::value(
            kind,
            size,
            false,
            BaseRules::of(game.rules()).small_city_two_tiles,
        ))
    }

    /// The farms scored on a copy of the game (RULES.md §1.9).
    fn farms_now(&self, game: &Game) -> Option<Vec<Event>> {
        let mut copy = game.clone();
        let mut events = Vec::new();
        farm::score(&mut copy, &mut events);
        Some(events)
    }
}
