//! The volcano (RULES.md §2.2, V1–V8): the dragon flies to every new volcano; nothing may be
//! deployed on the volcano tile.

use crate::engine::event::Event;
use crate::engine::game::Game;
use crate::model::geometry::Pos;

impl Game {
    /// V2: the dragon flies to the new volcano; V6: the first volcano brings the set-aside
    /// dragon tiles back into the bag.
    pub(crate) fn volcano_placed(&mut self, pos: Pos, events: &mut Vec<Event>) {
        self.dragon = Some(pos);
        self.dragon_in_play = true;
        events.push(Event::DragonMoved {
            player: self.active,
            x: pos.x,
            y: pos.y,
            step: 0,
        });
        if !self.set_aside.is_empty() {
            let tiles = std::mem::take(&mut self.set_aside);
            let count = tiles.len() as u32;
            for t in tiles {
                self.insert_at_random(t);
            }
            events.push(Event::TilesReshuffled { count });
        }
        if self.rules.pd.volcano.dragon_journey && self.rules.mechanics.dragon {
            self.now.journey_due = true;
        }
    }
}
