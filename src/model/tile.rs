//! Tile types: the pre-rotated tile data the engine plays with.
//!
//! A tile type lists its edges and features at rotation 0; its four rotations are computed
//! once ([`orientations`]), so that nothing is rotated during play. The file format that
//! describes tile types is read by the data layer (`src/data/tileset.rs`).

use crate::model::geometry::{Edge, Rotation, Spot};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Index of a tile type within a game's tile table (a ruleset's combined tile list).
pub type TileId = u16;

/// What lies along a tile edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EdgeKind {
    /// Open country.
    Field = 0,
    /// A road crosses the edge.
    Road = 1,
    /// A city wall opening.
    City = 2,
    /// An edge inside a block of start tiles (the City of Carcassonne): it touches only the
    /// tile it was laid against, and no tile can ever be placed against it. Its half-edges may
    /// belong to a field (a field running along the block's rim) or to nothing.
    Inner = 3,
    /// An edge that fits any neighbour's edge and ends every feature it touches: a road or
    /// city of the neighbour stops there (that side of it is closed), a field is bounded. No
    /// feature of its own tile reaches it. It asks nothing of a tile laid against it later.
    Wild = 4,
}

impl EdgeKind {
    /// The lowercase name used in tile files.
    pub fn name(self) -> &'static str {
        match self {
            EdgeKind::Field => "field",
            EdgeKind::Road => "road",
            EdgeKind::City => "city",
            EdgeKind::Inner => "inner",
            EdgeKind::Wild => "wild",
        }
    }
}

/// The kind of a feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FeatureKind {
    /// A road.
    Road,
    /// A city.
    City,
    /// A cloister (monastery).
    Cloister,
    /// A field (farm).
    Field,
    /// A garden (2nd-edition tiles): a centre feature completed and counted like a
    /// cloister. It shares the centre spot `C` with the cloister; no tile has both.
    Garden,
}

impl FeatureKind {
    /// Every kind, in declaration order (`kind as usize` is its index here).
    pub const ALL: [FeatureKind; 5] = [
        FeatureKind::Road,
        FeatureKind::City,
        FeatureKind::Cloister,
        FeatureKind::Field,
        FeatureKind::Garden,
    ];

    /// The lowercase name used in records, events and messages.
    pub fn name(self) -> &'static str {
        match self {
            FeatureKind::Road => "road",
            FeatureKind::City => "city",
            FeatureKind::Cloister => "cloister",
            FeatureKind::Field => "field",
            FeatureKind::Garden => "garden",
        }
    }
}

/// How many kinds of symbol a ruleset's tiles may print (built in and declared by its tile
/// sets together).
pub const MAX_SYMBOLS: usize = 32;

/// A symbol printed on a whole tile, as a small number: the data layer names the symbols
/// (its `printed` table, built in or declared by a tile set) and the mechanic or script that
/// gives one its rule looks for its number or its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symbol(u8);

impl Symbol {
    /// The symbol numbered `n`.
    pub const fn new(n: u8) -> Symbol {
        Symbol(n)
    }

    /// Its number.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// How many kinds of counter a feature part may carry.
pub const MAX_COUNTERS: usize = 8;

/// A kind of counter printed on feature parts, as its place in [`Counters`]: the data layer
/// names the kinds (its `printed` table) and the mechanic that gives one its rule reads it
/// by this id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CounterId(u8);

impl CounterId {
    /// The counter at place `n` (below [`MAX_COUNTERS`], which the declaring table checks).
    pub const fn new(n: u8) -> CounterId {
        assert!(
            (n as usize) < MAX_COUNTERS,
            "a counter id is below MAX_COUNTERS"
        );
        CounterId(n)
    }

    /// Its place in [`Counters`].
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// The counters printed on a feature part, and their sums over a whole feature (kept at the
/// feature's root by [`crate::model::feature::Features`]): a small copyable array indexed by
/// [`CounterId`], read in the scoring loop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters([u16; MAX_COUNTERS]);

impl Counters {
    /// The counters of two parts joined into one feature (saturating: a total never wraps).
    pub fn plus(self, other: Counters) -> Counters {
        let mut sum = self;
        for (a, b) in sum.0.iter_mut().zip(other.0) {
            *a = a.saturating_add(b);
        }
        sum
    }

    /// How many of counter `id` there are.
    pub fn get(&self, id: CounterId) -> u16 {
        self.0[id.index()]
    }

    /// `self` with `n` more of counter `id` (saturating).
    pub fn with(mut self, id: CounterId, n: u16) -> Counters {
        self.0[id.index()] = self.0[id.index()].saturating_add(n);
        self
    }

    /// Whether no counter is set.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|n| *n == 0)
    }
}

// ---------------------------------------------------------------------------------------------
// Validated data.

/// One feature part printed on a tile (a segment once the tile is on the board).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureDef {
    /// Road, city, cloister or field.
    pub kind: FeatureKind,
    /// Edges the feature reaches (bit `i` = edge `i`, N = bit 0).
    pub edges: u8,
    /// Half-edges a field touches (bit `i` = [`HALF_NAMES`](crate::model::geometry::HALF_NAMES)`[i]`).
    pub halves: u8,
    /// Pennants (coats of arms) on a city part.
    pub pennants: u8,
    /// The counters printed on the part (as the data layer names them).
    pub counters: Counters,
    /// For a field: the city parts of this tile it borders (bit `i` = feature `i`).
    pub borders: u16,
    /// For a road: the city parts of this tile it runs into (bit `i` = feature `i`), for a
    /// figure that moves on along connected features (the tile file's `leads_to`).
    pub leads_to: u16,
}

impl FeatureDef {
    /// The same feature after a clockwise rotation.
    fn turned(&self, r: Rotation) -> FeatureDef {
        FeatureDef {
            edges: r.turn_edges(self.edges),
            halves: r.turn_halves(self.halves),
            ..self.clone()
        }
    }

    /// A feature of `kind` on the given edges or half-edges, with no pennant or marker.
    pub fn plain(kind: FeatureKind, edges: u8, halves: u8) -> FeatureDef {
        FeatureDef {
            kind,
            edges,
            halves,
            pennants: 0,
            counters: Counters::default(),
            borders: 0,
            leads_to: 0,
        }
    }

    /// Whether the feature stands in the tile's centre (a cloister or a garden).
    pub fn is_centre(&self) -> bool {
        matches!(self.kind, FeatureKind::Cloister | FeatureKind::Garden)
    }

    /// The canonical name of the feature's spot: first edge, else first half-edge, else `C`/`I`.
    pub fn spot(&self) -> Spot {
        if self.is_centre() {
            Spot::Cloister
        } else if self.edges != 0 {
            Spot::Edge(Edge::from_index(self.edges.trailing_zeros() as usize))
        } else if self.halves != 0 {
            Spot::Half(self.halves.trailing_zeros() as u8)
        } else {
            Spot::Inner
        }
    }
}

/// Marks an edge or half-edge that belongs to no feature.
pub const NO_FEATURE: u8 = u8::MAX;

/// The most features one tile type may have (tile sets with more are refused).
pub const MAX_TILE_FEATURES: usize = 16;

/// A tile type in one orientation: everything the engine looks up during play.
#[derive(Clone, Debug)]
pub struct Oriented {
    /// Edge kinds packed two bits per edge (N in the low bits), for one-instruction matching.
    /// An inner edge packs as 3, which no edge of a tile in the bag carries (tiles with inner
    /// edges are start tiles only, see [`TileType::has_inner_edge`]), so nothing is ever
    /// placed against it. A wild edge packs as 0 and is told by [`Oriented::wild`].
    pub edge_code: u8,
    /// The wild edges ([`EdgeKind::Wild`]), bit `i` for edge `i`: most tiles have none, which
    /// one test tells.
    pub wild: u8,
    /// Features with rotated edge and half-edge masks; indices are stable across rotations.
    pub features: Vec<FeatureDef>,
    /// The feature on each board edge (city or road), or [`NO_FEATURE`].
    pub edge_feature: [u8; 4],
    /// The field touching each half-edge, or [`NO_FEATURE`].
    pub half_feature: [u8; 8],
    /// How many edges and half-edges each feature reaches (its open sides on a tile of its
    /// own), by feature index.
    pub sides: [u8; MAX_TILE_FEATURES],
    /// The canonical spot of each feature ([`FeatureDef::spot`]), by feature index.
    pub spots: [Spot; MAX_TILE_FEATURES],
    /// The features that carry a counter ([`FeatureDef::counters`]), one bit per feature
    /// index: most tiles carry none, which a single test tells.
    pub counted: u16,
}

impl Oriented {
    /// The kind of edge facing `edge`.
    pub fn edge_kind(&self, edge: Edge) -> EdgeKind {
        if self.wild & (1 << edge as u8) != 0 {
            return EdgeKind::Wild;
        }
        match (self.edge_code >> (2 * edge as u8)) & 3 {
            0 => EdgeKind::Field,
            1 => EdgeKind::Road,
            2 => EdgeKind::City,
            _ => EdgeKind::Inner,
        }
    }

    /// What the edge facing `edge` asks of a tile laid against it, as a digit of [`Needs`]:
    /// its kind, or 4 (nothing) for a wild edge. Branch-free: a wild edge packs as 0.
    #[inline]
    pub fn need_digit(&self, edge: Edge) -> u16 {
        let e = edge as u8;
        u16::from((self.edge_code >> (2 * e)) & 3 | ((self.wild >> e) & 1) << 2)
    }

    /// The feature index at a spot, if the tile has one there.
    pub fn feature_at(&self, spot: Spot) -> Option<u8> {
        let f = match spot {
            Spot::Edge(e) => self.edge_feature[e as usize],
            Spot::Half(h) => self.half_feature[h as usize],
            Spot::Cloister => self
                .features
                .iter()
                .position(FeatureDef::is_centre)
                .map_or(NO_FEATURE, |i| i as u8),
            Spot::Inner => self
                .features
                .iter()
                .position(|f| f.kind == FeatureKind::Field && f.halves == 0)
                .map_or(NO_FEATURE, |i| i as u8),
        };
        (f != NO_FEATURE).then_some(f)
    }
}

/// A validated tile type with its four orientations.
#[derive(Clone, Debug)]
pub struct TileType {
    /// Stable id (`BA/RCr`, `DG/C.v`, …).
    pub id: Arc<str>,
    /// Optional short alias (base letters `A`–`X`).
    pub alias: Option<String>,
    /// How many copies the set contains.
    pub count: u32,
    /// Edge kinds at rotation 0 (N, E, S, W).
    pub edges: [EdgeKind; 4],
    /// Printed symbol, if any (named by the data layer).
    pub symbol: Option<Symbol>,
    /// Free-form tags (`tower_foundation`, …).
    pub tags: Vec<String>,
    /// Free-form tags of single feature parts: the part's index among the tile's features
    /// (the same at every rotation) and the tag (`no_castle_base`, …).
    pub part_tags: Vec<(u8, String)>,
    /// The set the type comes from.
    pub set: String,
    /// Whether its copies go into the bag (`false`: a mechanic hands them out, as the abbey
    /// tiles, one per player).
    pub in_bag: bool,
    /// Where it may lie besides what its edges ask (the tile file's `holes_only`).
    pub lies: Lies,
    /// The four orientations, indexed by [`Rotation::quarters`].
    pub oriented: [Oriented; 4],
    /// Which rotations fit each combination of neighbours ([`Fits::new`] from `oriented`).
    pub fits: Fits,
}

impl TileType {
    /// The features at rotation 0.
    pub fn features(&self) -> &[FeatureDef] {
        &self.oriented[0].features
    }

    /// Whether the tile has a cloister.
    pub fn has_cloister(&self) -> bool {
        self.has_feature(FeatureKind::Cloister)
    }

    /// Whether the tile has a feature of `kind` (e.g. a garden).
    pub fn has_feature(&self, kind: FeatureKind) -> bool {
        self.features().iter().any(|f| f.kind == kind)
    }

    /// Whether one of the tile's edges is an inner edge (the tile is laid only at the start).
    pub fn has_inner_edge(&self) -> bool {
        self.edges.contains(&EdgeKind::Inner)
    }

    /// Whether the tile carries `tag`.
    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags.iter().any(|t| t == tag)
    }

    /// Whether the feature part number `part` (its index among the tile's features) carries
    /// `tag`.
    pub fn part_has_tag(&self, part: usize, tag: &str) -> bool {
        (self.part_tags.iter()).any(|(p, t)| usize::from(*p) == part && t == tag)
    }

    /// The data for one orientation.
    pub fn at(&self, r: Rotation) -> &Oriented {
        &self.oriented[r.quarters()]
    }
}

/// What an open board position asks of the tile laid there: for each edge, the kind of the
/// facing edge of the neighbour on that side, or nothing when that side is empty. Packed as a
/// base-5 number (digit `i` for edge `i`: 0–3 an [`EdgeKind`], 4 no neighbour), it indexes a
/// tile type's [`Fits`] table, so that the rotations that fit are one lookup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Needs(u16);

/// `5^i` for the digit of edge `i` in [`Needs`].
const NEEDS_PLACE: [u16; 4] = [1, 5, 25, 125];

impl Needs {
    /// The number of different needs.
    pub const COUNT: usize = 625;

    /// No neighbour on any side.
    pub const NONE: Needs = Needs(Needs::COUNT as u16 - 1);

    /// The digit of `edge`: the kind wanted there, or 4 for none.
    fn digit(self, edge: usize) -> u16 {
        self.0 / NEEDS_PLACE[edge] % 5
    }

    /// A number for the needs, below [`Needs::COUNT`] (to index tables by needs).
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The needs' slot in a [`Fits`] table: taken to ten bits, so that no lookup needs a
    /// bounds check.
    fn slot(self) -> usize {
        usize::from(self.0) & (FITS_SLOTS - 1)
    }

    /// The same needs with a neighbour whose facing edge is `kind` on the side `edge`, where
    /// there was none (a board position gets each neighbour once): the digit of that side goes
    /// from 4 to `kind`, with no division to read it.
    pub fn with(self, edge: Edge, kind: EdgeKind) -> Needs {
        self.with_digit(edge, kind as u16)
    }

    /// [`Needs::with`] for a kind given as its digit ([`Oriented::need_digit`]); a wild edge's
    /// digit, 4, leaves the side free.
    #[inline]
    pub fn with_digit(self, edge: Edge, digit: u16) -> Needs {
        let e = edge as usize;
        debug_assert_eq!(self.digit(e), 4, "a side of needs is filled once");
        Needs(self.0 - (4 - digit) * NEEDS_PLACE[e])
    }

    /// The same needs with the neighbour on the side `edge` now showing `kind` where it showed
    /// `was` (an overlay laid across it: [`crate::model::board::Board::add_overlay`]).
    pub fn replaced(self, edge: Edge, was: EdgeKind, kind: EdgeKind) -> Needs {
        let e = edge as usize;
        debug_assert_eq!(self.digit(e), was as u16, "the side showed `was`");
        Needs(self.0 - was as u16 * NEEDS_PLACE[e] + kind as u16 * NEEDS_PLACE[e])
    }
}

/// For every [`Needs`], the rotations of a tile type that meet them (bit `r` for
/// [`Rotation::quarters`] `r`) and how many they are: B-P2 for the tile type, worked out once
/// when it is loaded.
#[derive(Clone, PartialEq, Eq)]
pub struct Fits {
    rotations: Box<[u8; FITS_SLOTS]>,
    /// The rotations' numbers apart, so that counting the placements over the frontier takes
    /// one lookup a position and nothing more.
    counts: Box<[u8; FITS_SLOTS]>,
}

/// The slots of a [`Fits`] table: one for every [`Needs`] (there are fewer), so many that any
/// needs taken to ten bits lands inside and a lookup needs no bounds check.
const FITS_SLOTS: usize = 1024;

/// Where a tile type may lie besides what its edges ask ([`Fits::new`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lies {
    /// Wherever its edges fit (B-P1, B-P2).
    #[default]
    Anywhere,
    /// Only in a hole: an empty place whose four neighbours are all placed.
    InHoles,
}

impl Fits {
    /// The table for a tile type's four orientations, laid as `lies` says. A wild edge
    /// ([`EdgeKind::Wild`]) fits any neighbour; a tile whose four edges are all wild looks the
    /// same in every rotation, so only its rotation 0 is listed.
    pub fn new(oriented: &[Oriented; 4], lies: Lies) -> Fits {
        let codes = oriented.each_ref().map(|o| o.edge_code);
        // A wild edge's two bits are left out of the comparison.
        let free = oriented.each_ref().map(|o| {
            (0..4)
                .filter(|e| o.wild & (1 << e) != 0)
                .fold(0u8, |m, e| m | 3 << (2 * e))
        });
        let turns: u8 = if oriented[0].wild == 0b1111 {
            0b0001
        } else {
            0b1111
        };
        let mut fits = Fits {
            rotations: Box::new([0; FITS_SLOTS]),
            counts: Box::new([0; FITS_SLOTS]),
        };
        let entries = (0..Needs::COUNT as u16).map(|key| {
            // The needs as (mask, wanted) over the packed edge code.
            let (mut mask, mut want) = (0u8, 0u8);
            for e in 0..4 {
                let digit = Needs(key).digit(e) as u8;
                if digit != 4 {
                    mask |= 3 << (2 * e);
                    want |= digit << (2 * e);
                }
            }
            if lies == Lies::InHoles && mask != 0xff {
                return 0;
            }
            // An inner edge (3: both bits of its pair) takes no tile against it, not even at
            // a wild edge.
            let both = want & (want >> 1) & 0x55;
            let inner = both | both << 1;
            let mut rotations = 0u8;
            for (r, (code, free)) in codes.iter().zip(free).enumerate() {
                let kept = mask & !free;
                let fits = code & kept == want & kept && free & inner == 0;
                rotations |= u8::from(fits) << r;
            }
            rotations & turns
        });
        for ((slot, count), rotations) in fits
            .rotations
            .iter_mut()
            .zip(fits.counts.iter_mut())
            .zip(entries)
        {
            *slot = rotations;
            *count = rotations.count_ones() as u8;
        }
        fits
    }

    /// The rotations that meet `needs` (bit `r` for [`Rotation::quarters`] `r`).
    pub fn rotations(&self, needs: Needs) -> u8 {
        self.rotations[needs.slot()]
    }

    /// How many rotations meet `needs`.
    pub fn count(&self, needs: Needs) -> usize {
        usize::from(self.counts[needs.slot()])
    }
}

/// The table holds 625 entries of bits: it is summed up rather than printed.
impl std::fmt::Debug for Fits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let fitting = self.rotations.iter().filter(|r| **r != 0).count();
        write!(f, "Fits({fitting} of {} neighbourhoods)", Needs::COUNT)
    }
}

/// A loaded tile set: tile types in file order.
#[derive(Clone, Debug)]
pub struct TileSet {
    /// The set's name.
    pub name: String,
    /// One-line description.
    pub description: String,
    /// The tile types.
    pub tiles: Vec<TileType>,
}

/// A tile type's four orientations, indexed by [`Rotation::quarters`], from its edges and
/// features at rotation 0.
pub fn orientations(edges: &[EdgeKind; 4], features: &[FeatureDef]) -> [Oriented; 4] {
    Rotation::ALL.map(|r| orient(edges, features, r))
}

fn orient(edges: &[EdgeKind; 4], features: &[FeatureDef], r: Rotation) -> Oriented {
    let turned: Vec<FeatureDef> = features.iter().map(|f| f.turned(r)).collect();
    let (mut edge_code, mut wild) = (0u8, 0u8);
    for e in Edge::ALL {
        match edges[e as usize] {
            EdgeKind::Wild => wild |= 1 << r.turn(e) as u8,
            kind => edge_code |= (kind as u8) << (2 * r.turn(e) as u8),
        }
    }
    let mut edge_feature = [NO_FEATURE; 4];
    let mut half_feature = [NO_FEATURE; 8];
    for (i, f) in turned.iter().enumerate() {
        for (e, slot) in edge_feature.iter_mut().enumerate() {
            if f.edges & (1 << e) != 0 {
                *slot = i as u8;
            }
        }
        for (h, slot) in half_feature.iter_mut().enumerate() {
            if f.halves & (1 << h) != 0 {
                *slot = i as u8;
            }
        }
    }
    let mut sides = [0; MAX_TILE_FEATURES];
    let mut spots = [Spot::Inner; MAX_TILE_FEATURES];
    let mut counted = 0u16;
    for (i, ((side, spot), f)) in sides.iter_mut().zip(&mut spots).zip(&turned).enumerate() {
        *side = (f.edges.count_ones() + f.halves.count_ones()) as u8;
        *spot = f.spot();
        if !f.counters.is_empty() {
            counted |= 1 << i;
        }
    }
    Oriented {
        edge_code,
        wild,
        features: turned,
        edge_feature,
        half_feature,
        sides,
        spots,
        counted,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// B-P2 through the table: a tile fits where every placed neighbour's facing edge has the
    /// same kind as its own edge there, and open sides ask nothing.
    #[test]
    fn fits_lists_the_rotations_whose_edges_match_the_neighbours() {
        use EdgeKind::{City, Field, Inner, Road};
        // City north, road east and west, field south (the base game's D).
        let fits = Fits::new(
            &orientations(&[City, Road, Field, Road], &[]),
            Lies::Anywhere,
        );
        assert_eq!(fits.rotations(Needs::NONE), 0b1111);
        assert_eq!(fits.rotations(Needs::NONE.with(Edge::N, City)), 0b0001);
        // Turned a quarter, the west road faces north; turned three, the east road does.
        assert_eq!(fits.rotations(Needs::NONE.with(Edge::N, Road)), 0b1010);
        let road_north_field_east = Needs::NONE.with(Edge::N, Road).with(Edge::E, Field);
        assert_eq!(fits.rotations(road_north_field_east), 0b1000);
        // A third neighbour narrows them further.
        assert_eq!(
            fits.rotations(road_north_field_east.with(Edge::S, Road)),
            0b1000
        );
        assert_eq!(fits.rotations(road_north_field_east.with(Edge::S, City)), 0);
        assert_eq!(fits.rotations(Needs::NONE.with(Edge::S, Inner)), 0);
    }

    /// A wild edge fits any neighbour but an inner edge; a tile laid only in holes fits only
    /// where all four neighbours are placed; an all-wild tile is listed at rotation 0 only.
    #[test]
    fn wild_edges_fit_anything_and_holes_only_tiles_only_holes() {
        use EdgeKind::{City, Field, Inner, Road, Wild};
        let one_wild = Fits::new(
            &orientations(&[Wild, Road, Field, Road], &[]),
            Lies::Anywhere,
        );
        assert_eq!(one_wild.rotations(Needs::NONE.with(Edge::N, City)), 0b0001);
        assert_eq!(one_wild.rotations(Needs::NONE.with(Edge::N, Inner)), 0);
        let hole_filler = Fits::new(&orientations(&[Wild; 4], &[]), Lies::InHoles);
        let three = Needs::NONE
            .with(Edge::N, City)
            .with(Edge::E, Road)
            .with(Edge::S, Field);
        assert_eq!(
            hole_filler.rotations(three),
            0,
            "three neighbours are no hole"
        );
        assert_eq!(hole_filler.rotations(three.with(Edge::W, City)), 0b0001);
        assert_eq!(hole_filler.rotations(three.with(Edge::W, Inner)), 0);
        let anywhere = Fits::new(&orientations(&[Wild; 4], &[]), Lies::Anywhere);
        assert_eq!(anywhere.rotations(Needs::NONE.with(Edge::N, Road)), 0b0001);
    }
}
