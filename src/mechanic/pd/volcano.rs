//! The volcano (RULES.md §2.2, V1–V8): the dragon flies to every new volcano; nothing may be
//! deployed on the volcano tile, nor on the tile where the dragon stands.

use super::dragon;
use super::vocabulary::PdEvent;
use crate::data::printed::VOLCANO;
use crate::engine::event::Event;
use crate::engine::game::Game;
use crate::engine::mechanic::{Hooks, Mechanic, Shortcuts};
use crate::engine::refusal::Refusal;
use crate::mechanic::pd::rules::PdRules;
use crate::model::feature::SegId;
use crate::model::figure::FigureKind;

/// The volcano.
#[derive(Debug)]
pub struct Volcano;

/// Whether `figure` is a builder or a pig and `pd.volcano.allow_builder_pig` lets it onto the
/// volcano's tile, where the dragon stands (V3, A8).
fn builder_or_pig_allowed(g: &Game, figure: FigureKind) -> bool {
    PdRules::of(&g.rules).volcano.allow_builder_pig
        && g.rules
            .figures
            .row(figure)
            .is_some_and(|r| r.has_tag("builder") || r.has_tag("pig"))
}

/// V2, V6: a volcano was laid. Out of line, as few tiles show one: the look at every tile
/// laid stays short.
#[cold]
fn erupt(g: &mut Game, events: &mut Vec<Event>) {
    let Some(pos) = g.now.placed.map(|p| g.board.placed(p).pos) else {
        return;
    };
    dragon::put(g, pos);
    events.push(
        PdEvent::DragonMoved {
            player: g.active,
            x: pos.x,
            y: pos.y,
            step: 0,
        }
        .into(),
    );
    let set_aside = dragon::state(g).is_some_and(|s| !s.set_aside.is_empty());
    if set_aside {
        let tiles = std::mem::take(&mut dragon::state_mut(g).set_aside);
        let count = tiles.len() as u32;
        for t in tiles {
            g.insert_at_random(t);
        }
        events.push(PdEvent::TilesReshuffled { count }.into());
    }
    if PdRules::of(&g.rules).volcano.dragon_journey && g.rules.switched_on("dragon") {
        dragon::set_due(g, true);
    }
}

/// Whether the dragon stands on the tile laid this turn (V8).
fn dragon_on_tile_just_laid(g: &Game) -> bool {
    g.now
        .placed
        .is_some_and(|p| dragon::at(g) == Some(g.board.placed(p).pos))
}

impl Mechanic for Volcano {
    fn name(&self) -> &'static str {
        "volcano"
    }

    fn hooks(&self) -> Hooks {
        Hooks::PLACED | Hooks::DEPLOY
    }

    /// V2: the dragon flies to the new volcano; V6: the first volcano brings the set-aside
    /// dragon tiles back into the bag; a journey follows under `pd.volcano.dragon_journey`.
    fn placed(&self, g: &mut Game, events: &mut Vec<Event>) {
        if g.placed_symbol(VOLCANO) {
            erupt(g, events);
        }
    }

    fn deploy_problem(
        &self,
        g: &Game,
        _seg: SegId,
        figure: FigureKind,
        own_tile: bool,
    ) -> Option<Refusal> {
        if !own_tile || builder_or_pig_allowed(g, figure) {
            return None;
        }
        let follower = g
            .rules
            .figures
            .row(figure)
            .is_none_or(|r| r.has_tag("follower"));
        if g.placed_symbol(VOLCANO) {
            return Some(Refusal::new(
                "V3",
                if follower {
                    "no follower may stand on the volcano tile"
                } else {
                    "no builder or pig may stand on the volcano tile (pd.volcano.allow_builder_pig is off)"
                },
            ));
        }
        dragon_on_tile_just_laid(g).then_some(Refusal::new(
            "V8",
            if follower {
                "no follower may share the dragon's tile"
            } else {
                "no builder or pig may share the dragon's tile (pd.volcano.allow_builder_pig is off)"
            },
        ))
    }
}

impl Shortcuts for Volcano {
    /// Only on the tile just laid, and only when it holds the volcano or the dragon.
    fn vetoes_deploy(&self, g: &Game) -> bool {
        g.placed_symbol(VOLCANO) || dragon_on_tile_just_laid(g)
    }
}
