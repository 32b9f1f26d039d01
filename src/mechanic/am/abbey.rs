//! The abbey (RULES-MORE.md §2.2, AM-C1, AM-1..AM-6): each player holds abbey tiles
//! (`am.abbey.per_player`, one in the box) that he may lay at the start of his turn instead of
//! drawing (AM-1), through the engine's offer of a tile of a mechanic's own
//! ([`Mechanic::own_tile`]). The tile itself is data: the tile tagged `abbey` in
//! `tiles/abbey-mayor.toml`, kept out of the bag, laid only into a hole (AM-2, the tile file's
//! `holes_only`), with four wild edges that fit anything and end every road, city and field
//! they touch (AM-4; the engine closes those sides and scores what they complete), and a
//! cloister (AM-3: a monk or a wagon may go on it, and it scores as a cloister). The abbey
//! joins no feature it closes, so it counts no tile points for it (Q-AM1's default). After
//! the last drawn tile the engine's last round offers the abbeys still held once more, each
//! seat in turn from the player after the one who laid the last tile (AM-5,
//! `am.abbey.endgame`). AM-6 (no builder's double turn for the abbey) follows from the same:
//! the double turn is earned by a tile that extends the player's builder's road or city, which
//! the abbey, joining none, never does.

use super::rules::{AbbeyEndgame, AbbeyRules};
use crate::data::ruleset::Ruleset;
use crate::engine::event::Event;
use crate::engine::game::Game;
use crate::engine::mechanic::{Hooks, Mechanic, Shortcuts};
use crate::model::tile::TileId;

/// The tag of the abbey tile in a tile set.
pub const TAG: &str = "abbey";

/// The abbeys (`[mechanics] abbey_mayor` with a tile tagged `abbey`).
#[derive(Debug)]
pub struct Abbeys {
    /// The abbey tile.
    tile: TileId,
    /// `[am.abbey]`.
    rules: AbbeyRules,
}

/// The abbeys each seat still holds.
#[derive(Clone, Debug, Default)]
struct Held(Vec<u8>);

crate::own_state!(Held);

impl Abbeys {
    /// The abbeys under `rules`' tiles and `[am.abbey]`; none when no tile of the ruleset is
    /// tagged `abbey` or no player gets one.
    pub fn new(rules: &Ruleset, abbey: AbbeyRules) -> Option<Abbeys> {
        let tile = rules.tiles.iter().position(|t| t.has_tag(TAG))?;
        (abbey.per_player > 0).then_some(Abbeys {
            tile: TileId::try_from(tile).ok()?,
            rules: abbey,
        })
    }
}

/// How many abbeys `player` still holds (0 in a game without abbeys).
pub fn held(g: &Game, player: usize) -> u8 {
    (g.slots.get::<Held>()).map_or(0, |h| h.0.get(player).copied().unwrap_or(0))
}

impl Mechanic for Abbeys {
    fn name(&self) -> &'static str {
        "abbey"
    }

    fn hooks(&self) -> Hooks {
        Hooks::SETUP | Hooks::OWN_TILE
    }

    /// AM-C1: each player gets his abbeys.
    fn setup(&self, g: &mut Game, _events: &mut Vec<Event>) {
        g.slots
            .set(Held(vec![self.rules.per_player; g.scores.len()]));
    }

    /// AM-1, AM-2, AM-5: an abbey, if the player holds one and a hole is open (and, in the last
    /// round, if the edition has one).
    fn own_tile(&self, g: &Game, player: usize) -> Option<TileId> {
        let last_round_off = self.rules.endgame == AbbeyEndgame::None && g.in_last_round();
        let fits = || g.board.fits_somewhere(&g.rules.tiles, self.tile);
        (held(g, player) > 0 && !last_round_off && fits()).then_some(self.tile)
    }

    fn own_tile_laid(&self, g: &mut Game, tile: TileId, _events: &mut Vec<Event>) {
        let player = g.active;
        if tile == self.tile
            && let Some(n) = g.slots.get_mut::<Held>().and_then(|h| h.0.get_mut(player))
        {
            *n = n.saturating_sub(1);
        }
    }
}

impl Shortcuts for Abbeys {}
