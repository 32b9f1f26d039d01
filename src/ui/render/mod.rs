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
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

/// Layouts already worked out, by ruleset (address), tile type and rotation. The rulesets are
/// kept alive here, so that no other ruleset can take the address of one of them.
#[derive(Default)]
struct Layouts {
    keep: Vec<Arc<Ruleset>>,
    made: HashMap<(usize, TileId, usize), Rc<Layout>>,
}

thread_local! {
    static LAYOUTS: RefCell<Layouts> = RefCell::default();
}

/// The layout of `tile` turned `rotation` under `rules`, worked out once per thread.
fn layout(rules: &Arc<Ruleset>, tile: TileId, rotation: Rotation) -> Rc<Layout> {
    let key = (Arc::as_ptr(rules) as usize, tile, rotation.quarters());
    LAYOUTS.with(|cell| {
        let mut cached = cell.borrow_mut();
        let Layouts { keep, made } = &mut *cached;
        if let Some(l) = made.get(&key) {
            return Rc::clone(l);
        }
        if !keep.iter().any(|r| Arc::ptr_eq(r, rules)) {
            // A program that renders under many rulesets starts afresh now and then.
            if keep.len() >= 8 {
                keep.clear();
                made.clear();
            }
            keep.push(Arc::clone(rules));
        }
        let t = rules.tile(tile);
        let l = Rc::new(Layout::new(t.at(rotation), t.symbol));
        made.insert(key, Rc::clone(&l));
        l
    })
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
