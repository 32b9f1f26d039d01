//! Pictures of a game: the board as text for terminals ([`text`]), as SVG ([`svg`]) and as PNG
//! ([`png`]). Everything is drawn from the tile data alone (edges, features, pennants,
//! symbols), so custom tile sets draw too.

mod layout;
pub mod png;
pub mod svg;
pub mod text;

use crate::data::ruleset::Ruleset;
use crate::engine::game::Game;
use crate::model::board::PlacedId;
use crate::model::figure::Figure;
use crate::model::geometry::Rotation;
use crate::model::tile::TileId;
use layout::Layout;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, MutexGuard};

/// Layouts already worked out, by ruleset (address), tile type and rotation. The rulesets are
/// kept alive here, so that no other ruleset can take the address of one of them.
#[derive(Default)]
struct Layouts {
    keep: Vec<Arc<Ruleset>>,
    made: HashMap<(usize, TileId, usize), Arc<Layout>>,
}

/// The rulesets whose layouts are kept at once: a program that renders under more (a server
/// with many games of uploaded rulesets) starts afresh now and then.
const KEPT_RULESETS: usize = 64;

/// One cache for every thread: a server renders each game on whichever thread is free, and a
/// layout takes long to work out (millions of instructions), so threads share what they made.
static LAYOUTS: LazyLock<Mutex<Layouts>> = LazyLock::new(Mutex::default);

/// The layout of `tile` turned `rotation` under `rules`, worked out once per process (the
/// cache is locked only to look up and to keep, not while the layout is worked out).
fn layout(rules: &Arc<Ruleset>, tile: TileId, rotation: Rotation) -> Arc<Layout> {
    let key = (Arc::as_ptr(rules) as usize, tile, rotation.quarters());
    let cached = |layouts: &Layouts| layouts.made.get(&key).map(Arc::clone);
    if let Some(l) = cached(&lock(&LAYOUTS)) {
        return l;
    }
    let t = rules.tile(tile);
    let made = Arc::new(Layout::new(t.at(rotation), t.symbol, &rules.prints));
    let mut layouts = lock(&LAYOUTS);
    let Layouts { keep, made: all } = &mut *layouts;
    if !keep.iter().any(|r| Arc::ptr_eq(r, rules)) {
        if keep.len() >= KEPT_RULESETS {
            keep.clear();
            all.clear();
        }
        keep.push(Arc::clone(rules));
    }
    Arc::clone(all.entry(key).or_insert(made))
}

/// Locks a cache, also after a panic elsewhere (a cache holds only finished entries).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Drawings of tile types, made once per type and rotation.
pub(crate) struct Cache<T> {
    made: HashMap<(TileId, usize), T>,
}

impl<T> Default for Cache<T> {
    fn default() -> Self {
        Cache {
            made: HashMap::new(),
        }
    }
}

impl<T> Cache<T> {
    /// The drawing of `tile` turned `rotation`, made by `make` from its layout the first time.
    pub(crate) fn get(
        &mut self,
        rules: &Arc<Ruleset>,
        tile: TileId,
        rotation: Rotation,
        make: impl FnOnce(&Layout) -> T,
    ) -> &T {
        self.made
            .entry((tile, rotation.quarters()))
            .or_insert_with(|| make(&layout(rules, tile, rotation)))
    }
}

/// The placed tile a figure stands on and the index of its feature there.
pub(crate) fn figure_feature(game: &Game, f: &Figure) -> (PlacedId, u8) {
    let s = game.features().segment(f.seg);
    (s.placed, s.feature)
}
