//! Tile types: the TOML tile-set format, its validation, and the pre-rotated tile data the
//! engine plays with.
//!
//! A tile set file (`tiles/*.toml`, documented in `tiles/README.md`) lists tile types with their
//! edges and features at rotation 0. Loading checks that the description is consistent (every
//! edge and half-edge belongs to exactly one feature of the right kind, …) and pre-computes the
//! four rotations once, so that nothing is rotated during play.

use crate::data::diagnostic::Diagnostic;
use crate::model::geometry::{Edge, HALF_NAMES, Rotation, Spot};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;
use toml::Spanned;

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
}

impl EdgeKind {
    /// The lowercase name used in tile files.
    pub fn name(self) -> &'static str {
        match self {
            EdgeKind::Field => "field",
            EdgeKind::Road => "road",
            EdgeKind::City => "city",
            EdgeKind::Inner => "inner",
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
    /// An Abbot garden (2nd-edition tiles): a centre feature completed and counted like a
    /// cloister. It shares the centre spot `C` with the cloister; no tile has both.
    Garden,
}

impl FeatureKind {
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

/// A symbol printed on a tile that triggers an expansion rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Symbol {
    /// A volcano: the dragon flies here (The Princess & the Dragon).
    Volcano,
    /// A dragon: the dragon makes a journey.
    Dragon,
    /// A magic portal: deploy on any tile.
    Portal,
}

/// A trade good printed in a city (Traders & Builders).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Good {
    /// A wine barrel.
    Wine = 0,
    /// A grain sack.
    Grain = 1,
    /// A bolt of cloth.
    Cloth = 2,
}

impl Good {
    /// The three goods, in the order of [`Marks::goods`].
    pub const ALL: [Good; 3] = [Good::Wine, Good::Grain, Good::Cloth];

    /// The lowercase name used in tile files and messages.
    pub fn name(self) -> &'static str {
        match self {
            Good::Wine => "wine",
            Good::Grain => "grain",
            Good::Cloth => "cloth",
        }
    }
}

/// The expansion markers on a feature part, and their sums over a whole feature (kept at the
/// feature's root by [`crate::model::feature::Features`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// Inns on a road (Inns & Cathedrals).
    pub inns: u16,
    /// Cathedrals in a city (Inns & Cathedrals).
    pub cathedrals: u16,
    /// Goods tokens in a city, indexed by [`Good`] (Traders & Builders).
    pub goods: [u16; 3],
}

impl Marks {
    /// The marks of two parts joined into one feature (saturating: a total never wraps).
    pub fn plus(self, other: Marks) -> Marks {
        Marks {
            inns: self.inns.saturating_add(other.inns),
            cathedrals: self.cathedrals.saturating_add(other.cathedrals),
            goods: [0, 1, 2].map(|i| self.goods[i].saturating_add(other.goods[i])),
        }
    }

    /// How many tokens of `good` there are.
    pub fn good(&self, good: Good) -> u16 {
        self.goods[good as usize]
    }
}

// ---------------------------------------------------------------------------------------------
// The file format (raw, as written).

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TileSetFile {
    name: Option<String>,
    description: Option<String>,
    #[serde(default)]
    tile: Vec<Spanned<TileFile>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TileFile {
    id: Spanned<String>,
    alias: Option<Spanned<String>>,
    count: Spanned<i64>,
    edges: Spanned<[EdgeKind; 4]>,
    #[serde(default)]
    city: Vec<Spanned<CityFile>>,
    #[serde(default)]
    road: Vec<Spanned<RoadFile>>,
    #[serde(default)]
    field: Vec<Spanned<FieldFile>>,
    #[serde(default)]
    cloister: bool,
    garden: Option<Spanned<bool>>,
    symbol: Option<Symbol>,
    #[serde(default)]
    tags: Vec<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CityFile {
    edges: Vec<Spanned<String>>,
    #[serde(default)]
    pennants: u8,
    #[serde(default)]
    princess: bool,
    #[serde(default)]
    cathedral: bool,
    goods: Option<Good>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RoadFile {
    edges: Vec<Spanned<String>>,
    #[serde(default)]
    inn: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FieldFile {
    halves: Vec<Spanned<String>>,
    #[serde(default)]
    cities: Vec<Spanned<String>>,
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
    /// Half-edges a field touches (bit `i` = [`HALF_NAMES`]`[i]`).
    pub halves: u8,
    /// Pennants (coats of arms) on a city part.
    pub pennants: u8,
    /// The princess is drawn in this city part.
    pub princess: bool,
    /// Inns, cathedrals and goods printed on the part.
    pub marks: Marks,
    /// For a field: the city parts of this tile it borders (bit `i` = feature `i`).
    pub borders: u16,
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
    fn plain(kind: FeatureKind, edges: u8, halves: u8) -> FeatureDef {
        FeatureDef {
            kind,
            edges,
            halves,
            pennants: 0,
            princess: false,
            marks: Marks::default(),
            borders: 0,
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

/// A tile type in one orientation: everything the engine looks up during play.
#[derive(Clone, Debug)]
pub struct Oriented {
    /// Edge kinds packed two bits per edge (N in the low bits), for one-instruction matching.
    /// An inner edge packs as 3, which no edge of a tile in the bag carries (tiles with inner
    /// edges are start tiles only, see [`TileType::has_inner_edge`]), so nothing is ever
    /// placed against it.
    pub edge_code: u8,
    /// Features with rotated edge and half-edge masks; indices are stable across rotations.
    pub features: Vec<FeatureDef>,
    /// The feature on each board edge (city or road), or [`NO_FEATURE`].
    pub edge_feature: [u8; 4],
    /// The field touching each half-edge, or [`NO_FEATURE`].
    pub half_feature: [u8; 8],
}

impl Oriented {
    /// The kind of edge facing `edge`.
    pub fn edge_kind(&self, edge: Edge) -> EdgeKind {
        match (self.edge_code >> (2 * edge as u8)) & 3 {
            0 => EdgeKind::Field,
            1 => EdgeKind::Road,
            2 => EdgeKind::City,
            _ => EdgeKind::Inner,
        }
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
    /// Printed symbol, if any.
    pub symbol: Option<Symbol>,
    /// Free-form tags (`tower_foundation`, …).
    pub tags: Vec<String>,
    /// The set the type comes from.
    pub set: String,
    /// The four orientations, indexed by [`Rotation::quarters`].
    pub oriented: [Oriented; 4],
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

    /// The data for one orientation.
    pub fn at(&self, r: Rotation) -> &Oriented {
        &self.oriented[r.quarters()]
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

impl TileSet {
    /// Parses and validates a tile set. `file` is used in error messages.
    pub fn parse(file: &Path, source: &str) -> Result<TileSet, Diagnostic> {
        let src: Arc<str> = Arc::from(source);
        let raw: TileSetFile =
            toml::from_str(source).map_err(|e| Diagnostic::from_toml(file, &src, &e))?;
        let ctx = Ctx { file, src: &src };
        let default_name = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let name = raw.name.unwrap_or(default_name);
        let mut ids = BTreeSet::new();
        let mut tiles = Vec::with_capacity(raw.tile.len());
        for t in &raw.tile {
            let tile = ctx.tile(t, &name)?;
            for key in std::iter::once(tile.id.to_string()).chain(tile.alias.clone()) {
                if !ids.insert(key.clone()) {
                    let span = if *key == *tile.id {
                        t.get_ref().id.span()
                    } else {
                        t.get_ref().alias.as_ref().map_or(t.span(), |a| a.span())
                    };
                    return Err(ctx.err(span, format!("tile id or alias `{key}` is used twice")));
                }
            }
            tiles.push(tile);
        }
        if tiles.is_empty() {
            return Err(Diagnostic::new(
                file,
                &src,
                Some(0..0),
                "the tile set has no `[[tile]]` entries",
            ));
        }
        Ok(TileSet {
            name,
            description: raw.description.unwrap_or_default(),
            tiles,
        })
    }
}

struct Ctx<'a> {
    file: &'a Path,
    src: &'a Arc<str>,
}

impl Ctx<'_> {
    fn err(&self, span: std::ops::Range<usize>, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::new(self.file, self.src, Some(span), msg)
    }

    fn edge(&self, name: &Spanned<String>) -> Result<Edge, Diagnostic> {
        match Spot::parse(name.get_ref()) {
            Some(Spot::Edge(e)) => Ok(e),
            _ => Err(self.err(
                name.span(),
                format!("`{}` is not an edge: use N, E, S or W", name.get_ref()),
            )),
        }
    }

    fn half(&self, name: &Spanned<String>) -> Result<u8, Diagnostic> {
        match Spot::parse(name.get_ref()) {
            Some(Spot::Half(h)) => Ok(h),
            _ => Err(self.err(
                name.span(),
                format!(
                    "`{}` is not a half-edge: use one of {}",
                    name.get_ref(),
                    HALF_NAMES.join(" ")
                ),
            )),
        }
    }

    fn tile(&self, t: &Spanned<TileFile>, set: &str) -> Result<TileType, Diagnostic> {
        let raw = t.get_ref();
        let id = raw.id.get_ref().trim().to_string();
        if id.is_empty() {
            return Err(self.err(raw.id.span(), "a tile id must not be empty"));
        }
        let count = *raw.count.get_ref();
        if !(1..=1000).contains(&count) {
            return Err(self.err(
                raw.count.span(),
                format!("tile `{id}`: count must be between 1 and 1000, not {count}"),
            ));
        }
        let edges = *raw.edges.get_ref();
        let mut features = Vec::new();
        let mut edge_owner = [NO_FEATURE; 4];
        let mut half_owner = [NO_FEATURE; 8];
        for c in &raw.city {
            let mask =
                self.claim_edges(&c.get_ref().edges, &mut edge_owner, features.len(), &id)?;
            self.check_edge_kind(mask, EdgeKind::City, &edges, c.span(), &id)?;
            let part = c.get_ref();
            let mut goods = [0; 3];
            if let Some(good) = part.goods {
                goods[good as usize] = 1;
            }
            features.push(FeatureDef {
                pennants: part.pennants,
                princess: part.princess,
                marks: Marks {
                    cathedrals: part.cathedral.into(),
                    goods,
                    ..Marks::default()
                },
                ..FeatureDef::plain(FeatureKind::City, mask, 0)
            });
        }
        for r in &raw.road {
            let mask =
                self.claim_edges(&r.get_ref().edges, &mut edge_owner, features.len(), &id)?;
            self.check_edge_kind(mask, EdgeKind::Road, &edges, r.span(), &id)?;
            features.push(FeatureDef {
                marks: Marks {
                    inns: r.get_ref().inn.into(),
                    ..Marks::default()
                },
                ..FeatureDef::plain(FeatureKind::Road, mask, 0)
            });
        }
        for (e, owner) in edge_owner.iter().enumerate() {
            if *owner == NO_FEATURE && matches!(edges[e], EdgeKind::City | EdgeKind::Road) {
                return Err(self.err(
                    raw.edges.span(),
                    format!(
                        "tile `{id}`: edge {} is a {} edge but no {} lists it",
                        Edge::from_index(e).name(),
                        edges[e].name(),
                        if edges[e] == EdgeKind::City {
                            "city part"
                        } else {
                            "road"
                        }
                    ),
                ));
            }
        }
        let mut inner_fields = 0;
        for f in &raw.field {
            let fr = f.get_ref();
            let mut mask = 0u8;
            for h in &fr.halves {
                let i = self.half(h)?;
                if edges[i as usize / 2] == EdgeKind::City {
                    return Err(self.err(
                        h.span(),
                        format!(
                            "tile `{id}`: half-edge {} lies on a city edge, so no field can touch it",
                            h.get_ref()
                        ),
                    ));
                }
                if half_owner[i as usize] != NO_FEATURE {
                    return Err(self.err(
                        h.span(),
                        format!(
                            "tile `{id}`: half-edge {} belongs to two fields",
                            h.get_ref()
                        ),
                    ));
                }
                half_owner[i as usize] = features.len() as u8;
                mask |= 1 << i;
            }
            if mask == 0 {
                inner_fields += 1;
                if inner_fields > 1 {
                    return Err(self.err(
                        f.span(),
                        format!("tile `{id}`: only one inner field (touching no edge) is allowed"),
                    ));
                }
            }
            let mut borders = 0u16;
            for c in &fr.cities {
                let e = self.edge(c)?;
                let owner = edge_owner[e as usize];
                if owner == NO_FEATURE || features[owner as usize].kind != FeatureKind::City {
                    return Err(self.err(
                        c.span(),
                        format!(
                            "tile `{id}`: the field borders a city at {}, but no city part of this tile reaches that edge",
                            c.get_ref()
                        ),
                    ));
                }
                borders |= 1 << owner;
            }
            features.push(FeatureDef {
                borders,
                ..FeatureDef::plain(FeatureKind::Field, 0, mask)
            });
        }
        for (h, owner) in half_owner.iter().enumerate() {
            if *owner == NO_FEATURE && matches!(edges[h / 2], EdgeKind::Road | EdgeKind::Field) {
                return Err(self.err(
                    t.span(),
                    format!(
                        "tile `{id}`: half-edge {} is on a {} edge but no field touches it",
                        HALF_NAMES[h],
                        if edges[h / 2] == EdgeKind::Road {
                            "road"
                        } else {
                            "field"
                        }
                    ),
                ));
            }
        }
        let garden = raw.garden.as_ref().filter(|g| *g.get_ref());
        if let (true, Some(g)) = (raw.cloister, garden) {
            return Err(self.err(
                g.span(),
                format!(
                    "tile `{id}`: a tile has either a cloister or a garden in its centre, not both"
                ),
            ));
        }
        if raw.cloister {
            features.push(FeatureDef::plain(FeatureKind::Cloister, 0, 0));
        }
        if garden.is_some() {
            features.push(FeatureDef::plain(FeatureKind::Garden, 0, 0));
        }
        if features.len() > 16 {
            return Err(self.err(
                t.span(),
                format!("tile `{id}`: at most 16 features per tile are supported"),
            ));
        }
        let mut tags = Vec::new();
        for tag in &raw.tags {
            let ok = !tag.get_ref().is_empty()
                && tag
                    .get_ref()
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
            if !ok {
                return Err(self.err(
                    tag.span(),
                    "a tag is lowercase letters, digits and `_` (e.g. `tower_foundation`)",
                ));
            }
            tags.push(tag.get_ref().clone());
        }
        let oriented = Rotation::ALL.map(|r| orient(&edges, &features, r));
        Ok(TileType {
            id: Arc::from(id.as_str()),
            alias: raw.alias.as_ref().map(|a| a.get_ref().trim().to_string()),
            count: count as u32,
            edges,
            symbol: raw.symbol,
            tags,
            set: set.to_string(),
            oriented,
        })
    }

    fn claim_edges(
        &self,
        names: &[Spanned<String>],
        owner: &mut [u8; 4],
        feature: usize,
        id: &str,
    ) -> Result<u8, Diagnostic> {
        let mut mask = 0u8;
        for n in names {
            let e = self.edge(n)?;
            if owner[e as usize] != NO_FEATURE {
                return Err(self.err(
                    n.span(),
                    format!("tile `{id}`: edge {} belongs to two features", n.get_ref()),
                ));
            }
            owner[e as usize] = feature as u8;
            mask |= 1 << e as u8;
        }
        Ok(mask)
    }

    fn check_edge_kind(
        &self,
        mask: u8,
        kind: EdgeKind,
        edges: &[EdgeKind; 4],
        span: std::ops::Range<usize>,
        id: &str,
    ) -> Result<(), Diagnostic> {
        if mask == 0 {
            return Err(self.err(
                span,
                format!("tile `{id}`: a city part or road needs at least one edge"),
            ));
        }
        for e in Edge::ALL {
            if mask & (1 << e as u8) != 0 && edges[e as usize] != kind {
                return Err(self.err(
                    span,
                    format!(
                        "tile `{id}`: a {} reaches edge {}, but `edges` says that edge is {}",
                        if kind == EdgeKind::City {
                            "city part"
                        } else {
                            "road"
                        },
                        e.name(),
                        edges[e as usize].name()
                    ),
                ));
            }
        }
        Ok(())
    }
}

fn orient(edges: &[EdgeKind; 4], features: &[FeatureDef], r: Rotation) -> Oriented {
    let turned: Vec<FeatureDef> = features.iter().map(|f| f.turned(r)).collect();
    let mut edge_code = 0u8;
    for e in Edge::ALL {
        edge_code |= (edges[e as usize] as u8) << (2 * r.turn(e) as u8);
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
    Oriented {
        edge_code,
        features: turned,
        edge_feature,
        half_feature,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const D: &str = r#"
[[tile]]
id = "BA/RCr"
alias = "D"
count = 4
edges = ["city", "road", "field", "road"]
city = [{ edges = ["N"] }]
road = [{ edges = ["W", "E"] }]
field = [{ halves = ["EL", "WR"], cities = ["N"] }, { halves = ["ER", "SL", "SR", "WL"] }]
"#;

    #[test]
    fn rotation_moves_features_with_the_tile() {
        let set = TileSet::parse(Path::new("t.toml"), D).unwrap();
        let d = &set.tiles[0];
        let r90 = d.at(Rotation::from_degrees(90).unwrap());
        assert_eq!(r90.edge_kind(Edge::E), EdgeKind::City);
        assert_eq!(r90.edge_kind(Edge::N), EdgeKind::Road);
        let city = r90.feature_at(Spot::Edge(Edge::E)).unwrap();
        assert_eq!(r90.features[city as usize].kind, FeatureKind::City);
        // The strip field {EL, WR} turns into {SL, NR}.
        let strip = r90.feature_at(Spot::parse("SL").unwrap()).unwrap();
        assert_eq!(r90.feature_at(Spot::parse("NR").unwrap()), Some(strip));
        assert_eq!(r90.features[strip as usize].borders, 1 << city);
    }

    fn error_of(src: &str) -> String {
        TileSet::parse(Path::new("bad.toml"), src)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn an_edge_without_its_feature_is_rejected() {
        let bad = D.replace(
            "road = [{ edges = [\"W\", \"E\"] }]",
            "road = [{ edges = [\"W\"] }]",
        );
        let e = error_of(&bad);
        assert!(
            e.contains("edge E is a road edge but no road lists it"),
            "{e}"
        );
        assert!(e.starts_with("bad.toml:6:"), "{e}");
    }

    #[test]
    fn a_half_edge_in_two_fields_is_rejected() {
        let bad = D.replace("\"ER\", \"SL\"", "\"EL\", \"SL\"");
        let e = error_of(&bad);
        assert!(e.contains("half-edge EL belongs to two fields"), "{e}");
    }

    #[test]
    fn a_missing_half_edge_is_rejected() {
        let bad = D.replace("\"ER\", \"SL\", ", "\"SL\", ");
        assert!(error_of(&bad).contains("half-edge ER is on a road edge but no field touches it"));
    }

    #[test]
    fn bordering_a_missing_city_is_rejected() {
        let bad = D.replace("cities = [\"N\"]", "cities = [\"S\"]");
        assert!(error_of(&bad).contains("borders a city at S"));
    }

    #[test]
    fn edge_kind_disagreement_is_rejected() {
        let bad = D.replace(
            "[\"city\", \"road\", \"field\", \"road\"]",
            "[\"city\", \"road\", \"road\", \"road\"]",
        );
        let e = error_of(&bad);
        assert!(e.contains("edge S is a road edge"), "{e}");
    }

    #[test]
    fn unknown_keys_and_bad_counts_are_rejected() {
        assert!(error_of(&D.replace("count = 4", "count = 0")).contains("count must be between 1"));
        let e = error_of(&D.replace("count = 4", "count = 4\ncolour = 1"));
        assert!(e.contains("unknown field `colour`"), "{e}");
        assert!(e.starts_with("bad.toml:"), "{e}");
    }

    /// CO/1 of the City of Carcassonne: a road stub on W, inner edges E and S, and two fields
    /// whose halves on the inner edges are partly in no field at all.
    const CO1: &str = r#"
[[tile]]
id = "CO/1"
count = 1
edges = ["field", "inner", "inner", "road"]
road = [{ edges = ["W"] }]
field = [{ halves = ["WR", "NL", "NR", "EL"] }, { halves = ["WL", "SR"] }]
"#;

    #[test]
    fn inner_edges_need_no_field_and_pack_as_three() {
        let set = TileSet::parse(Path::new("t.toml"), CO1).unwrap();
        let t = &set.tiles[0];
        assert!(t.has_inner_edge());
        let r0 = t.at(Rotation::default());
        assert_eq!(r0.edge_kind(Edge::E), EdgeKind::Inner);
        assert_eq!((r0.edge_code >> (2 * Edge::S as u8)) & 3, 3);
        // ER and SL lie on inner edges and belong to no field.
        assert_eq!(r0.feature_at(Spot::parse("ER").unwrap()), None);
        assert!(r0.feature_at(Spot::parse("EL").unwrap()).is_some());
        let r90 = t.at(Rotation::from_degrees(90).unwrap());
        assert_eq!(r90.edge_kind(Edge::S), EdgeKind::Inner);
        assert_eq!(r90.edge_kind(Edge::W), EdgeKind::Inner);
        assert_eq!(r90.edge_kind(Edge::N), EdgeKind::Road);
    }

    #[test]
    fn inner_edges_carry_no_city_or_road() {
        let bad = CO1.replace("edges = [\"W\"]", "edges = [\"W\", \"E\"]");
        let e = error_of(&bad);
        assert!(
            e.contains("a road reaches edge E, but `edges` says that edge is inner"),
            "{e}"
        );
        // A field edge still needs both of its halves in a field.
        let bad = CO1.replace(
            "\"inner\", \"inner\", \"road\"",
            "\"field\", \"inner\", \"road\"",
        );
        let e = error_of(&bad);
        assert!(
            e.contains("half-edge ER is on a field edge but no field touches it"),
            "{e}"
        );
    }

    #[test]
    fn markers_are_read_and_turned() {
        let marked = D
            .replace(
                "city = [{ edges = [\"N\"] }]",
                "city = [{ edges = [\"N\"], cathedral = true, goods = \"cloth\" }]",
            )
            .replace(
                "road = [{ edges = [\"W\", \"E\"] }]",
                "road = [{ edges = [\"W\", \"E\"], inn = true }]",
            );
        let set = TileSet::parse(Path::new("t.toml"), &marked).unwrap();
        let r90 = set.tiles[0].at(Rotation::from_degrees(90).unwrap());
        let city = r90.feature_at(Spot::Edge(Edge::E)).unwrap() as usize;
        let road = r90.feature_at(Spot::Edge(Edge::N)).unwrap() as usize;
        assert_eq!(r90.features[city].marks.cathedrals, 1);
        assert_eq!(r90.features[city].marks.good(Good::Cloth), 1);
        assert_eq!(r90.features[road].marks.inns, 1);
        assert_eq!(r90.features[road].marks.goods, [0; 3]);
    }

    #[test]
    fn markers_on_the_wrong_feature_are_rejected_with_their_place() {
        let e = error_of(&D.replace(
            "road = [{ edges = [\"W\", \"E\"] }]",
            "road = [{ edges = [\"W\", \"E\"], cathedral = true }]",
        ));
        assert!(e.contains("unknown field `cathedral`"), "{e}");
        assert!(e.starts_with("bad.toml:8:"), "{e}");
        let e = error_of(&D.replace(
            "city = [{ edges = [\"N\"] }]",
            "city = [{ edges = [\"N\"], inn = true }]",
        ));
        assert!(e.contains("unknown field `inn`"), "{e}");
        let e = error_of(&D.replace(
            "city = [{ edges = [\"N\"] }]",
            "city = [{ edges = [\"N\"], goods = \"beer\" }]",
        ));
        assert!(e.contains("unknown variant `beer`"), "{e}");
        assert!(e.starts_with("bad.toml:7:"), "{e}");
    }

    #[test]
    fn a_garden_is_a_centre_feature_and_excludes_a_cloister() {
        let garden = format!("{D}garden = true\n");
        let set = TileSet::parse(Path::new("t.toml"), &garden).unwrap();
        let t = &set.tiles[0];
        assert!(t.has_feature(FeatureKind::Garden) && !t.has_cloister());
        let f = t
            .at(Rotation::default())
            .feature_at(Spot::Cloister)
            .unwrap();
        assert_eq!(t.features()[f as usize].kind, FeatureKind::Garden);
        assert_eq!(t.features()[f as usize].spot(), Spot::Cloister);
        let e = error_of(&format!("{D}cloister = true\ngarden = true\n"));
        assert!(e.contains("either a cloister or a garden"), "{e}");
        assert!(e.starts_with("bad.toml:11:"), "{e}");
    }

    #[test]
    fn duplicate_ids_are_rejected() {
        let twice = format!("{D}{}", D.replace("alias = \"D\"", "alias = \"Z\""));
        assert!(error_of(&twice).contains("`BA/RCr` is used twice"));
    }
}
