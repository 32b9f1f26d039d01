//! How Traders & Builders shows itself (`engine::show`): the goods majorities in a tally and a
//! log, and the goods tokens each player holds.

use super::goods;
use super::vocabulary::TbEvent;
use crate::data::printed::Good;
use crate::engine::event::Event;
use crate::engine::game::Game;
use crate::engine::show::{Presenter, Tone};

/// Traders & Builders' presentation.
pub struct Show;

impl Presenter for Show {
    fn payment(&self, event: &Event) -> Option<(usize, u32, &'static str)> {
        match TbEvent::of(event)? {
            TbEvent::GoodsMajority { player, points, .. } => Some((player, points, "goods")),
            _ => None,
        }
    }

    fn tone(&self, event: &Event) -> Option<Tone> {
        match TbEvent::of(event)? {
            TbEvent::GoodsMajority { .. } => Some(Tone::Gain),
            _ => None,
        }
    }

    fn tokens_words(&self, game: &Game, seat: usize) -> Option<String> {
        let goods = goods(game);
        let held = goods.get(seat)?;
        let words: Vec<String> = Good::ALL
            .iter()
            .filter(|g| held[**g as usize] > 0)
            .map(|g| format!("{} {}", held[*g as usize], g.name()))
            .collect();
        (!words.is_empty()).then(|| format!("goods: {}", words.join(", ")))
    }
}
