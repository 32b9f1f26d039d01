//! The dragon (RULES.md §2.3–§2.4, D0–D12): dragon tiles drawn before the first volcano are set
//! aside; once in play, every dragon tile sends the dragon on a journey of up to six steps, each
//! step chosen by the next player clockwise, eating the figures on every tile it enters.

use super::rules::{MoverOrder, PreVolcano};

use crate::engine::event::{Event, ReturnReason};
use crate::engine::game::{Game, Journey, Pending};
use crate::model::geometry::{Edge, Pos};
use crate::model::tile::Symbol;
use crate::model::tile::TileId;
use rand::RngExt;

impl Game {
    fn is_dragon_tile(&self, tile: TileId) -> bool {
        self.rules.tile(tile).symbol == Some(Symbol::Dragon)
    }

    /// D0: a dragon tile drawn while the dragon is not in play is set aside (or, under the house
    /// rule, put back into the bag). Returns whether the tile was kept out.
    pub(crate) fn keep_dragon_tile_out(&mut self, tile: TileId, events: &mut Vec<Event>) -> bool {
        if !self.rules.mechanics.dragon || self.dragon_in_play || !self.is_dragon_tile(tile) {
            return false;
        }
        let name = self.tile_name(tile);
        match self.rules.pd.dragon.pre_volcano {
            PreVolcano::SetAsideReshuffle => {
                self.set_aside.push(tile);
                events.push(Event::TileSetAside {
                    player: self.active,
                    tile: name,
                });
            }
            PreVolcano::ReturnAndRedraw => {
                self.insert_at_random(tile);
                events.push(Event::TileReturned {
                    player: self.active,
                    tile: name,
                });
            }
        }
        true
    }

    /// Puts a tile into the bag at a random place, keeping the order of the others (so a
    /// record's forced draw order stays as written).
    pub(crate) fn insert_at_random(&mut self, tile: TileId) {
        let at = self.rng.random_range(0..=self.bag.len());
        self.bag.insert(at, tile);
    }

    /// D0.3 under the house rule: only dragon tiles are left and no volcano can come, so the
    /// game ends instead of redrawing for ever.
    pub(crate) fn dragon_tiles_only_left(&self) -> bool {
        self.rules.mechanics.dragon
            && !self.dragon_in_play
            && self.rules.pd.dragon.pre_volcano == PreVolcano::ReturnAndRedraw
            && !self.bag.is_empty()
            && self.bag.iter().all(|t| self.is_dragon_tile(*t))
    }

    /// The seat that makes step `step` (from 1) of the journey (D4).
    pub(crate) fn dragon_mover(&self, step: u32) -> usize {
        match self.rules.pd.dragon.mover_order {
            MoverOrder::ClockwiseFromActive => {
                (self.active + step as usize - 1) % self.scores.len()
            }
            MoverOrder::ActiveOnly => self.active,
        }
    }

    /// The dragon's stage: start the journey that is due, ask for the next step, or end it at a
    /// dead end (D6) or after the last step (D3).
    pub(crate) fn dragon_stage(&mut self, events: &mut Vec<Event>) -> Option<Pending> {
        if !self.now.journey_due {
            return None;
        }
        let Some(at) = self.dragon else {
            self.now.journey_due = false;
            return None;
        };
        let rules = self.rules.pd.dragon;
        if self.now.journey.is_none() {
            let visited = if rules.start_tile_visited {
                vec![at]
            } else {
                Vec::new()
            };
            self.now.journey = Some(Journey { steps: 0, visited });
            if rules.eat_on_start {
                self.eat(at, events);
            }
        }
        let steps = self.now.journey.as_ref().map_or(0, |j| j.steps);
        let reason = if steps >= rules.steps {
            "steps_done"
        } else if self.dragon_steps().is_empty() {
            "dead_end"
        } else {
            return Some(Pending::DragonStep);
        };
        events.push(Event::JourneyEnded { steps, reason });
        self.now.journey_due = false;
        self.now.journey = None;
        None
    }

    /// Tiles the dragon may step onto now (D5): orthogonal neighbours that hold a tile, were not
    /// visited on this journey, do not hold the fairy (FA6) and are not barred by the Count
    /// (D5c, `count.dragon_access`).
    pub(crate) fn dragon_steps(&self) -> Vec<Pos> {
        let (Some(at), Some(journey)) = (self.dragon, self.now.journey.as_ref()) else {
            return Vec::new();
        };
        let fairy = self.fairy.map(|f| f.pos);
        let blocks = self.rules.mechanics.fairy && self.rules.pd.fairy.blocks_dragon;
        Edge::ALL
            .iter()
            .map(|e| at.step(*e))
            .filter(|q| self.board.at(*q).is_some())
            .filter(|q| !journey.visited.contains(q))
            .filter(|q| !(blocks && fairy == Some(*q)))
            .filter(|q| !self.count_bars_dragon(*q))
            .collect()
    }

    /// One step of the journey onto `pos` (already checked), eating what is there (D7).
    pub(crate) fn dragon_step(&mut self, pos: Pos, events: &mut Vec<Event>) {
        let Some(journey) = self.now.journey.as_mut() else {
            return;
        };
        journey.steps += 1;
        journey.visited.push(pos);
        let step = journey.steps;
        self.dragon = Some(pos);
        events.push(Event::DragonMoved {
            player: self.dragon_mover(step),
            x: pos.x,
            y: pos.y,
            step,
        });
        self.eat(pos, events);
    }

    /// The dragon eats every figure on the tile at `pos`, unless the fairy protects it (D7,
    /// FA6). Every figure that exists so far is a follower, on every menu.
    pub(crate) fn eat(&mut self, pos: Pos, events: &mut Vec<Event>) {
        let protected = self.rules.mechanics.fairy
            && self.rules.pd.fairy.protects_tile
            && self.fairy.is_some_and(|f| f.pos == pos);
        let Some(tile) = self.board.at(pos) else {
            return;
        };
        if protected {
            return;
        }
        let on_tile: Vec<u32> = self
            .figures
            .iter()
            .filter(|f| self.features.segment(f.seg).placed == tile)
            .map(|f| f.id)
            .collect();
        if on_tile.is_empty() {
            return;
        }
        let eaten = self.eaten_filter(pos, on_tile);
        self.return_figures(|_, f| eaten.contains(&f.id), ReturnReason::Eaten, events);
    }
}
