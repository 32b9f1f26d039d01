//! The tile-set file format (`tiles/*.toml`, documented in `tiles/README.md`): parsing and
//! validation into the tile model of [`crate::model::tile`], with located errors.
//!
//! Loading checks that the description is consistent (every edge and half-edge belongs to
//! exactly one feature of the right kind, …); the tile model then pre-computes the four
//! rotations once, so that nothing is rotated during play.

use crate::data::diagnostic::Diagnostic;
use crate::data::printed::{self, CATHEDRAL, Good, INN, PRINCESS};
use crate::model::geometry::{Edge, HALF_NAMES, Spot};
use crate::model::tile::{
    Counters, EdgeKind, FeatureDef, FeatureKind, Fits, MAX_TILE_FEATURES, NO_FEATURE, Symbol,
    TileSet, TileType, orientations,
};
use serde::Deserialize;
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;
use toml::Spanned;

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
    symbol: Option<Spanned<String>>,
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

    /// The symbol a tile's `symbol = "NAME"` names.
    fn symbol(
        &self,
        name: Option<&Spanned<String>>,
        id: &str,
    ) -> Result<Option<Symbol>, Diagnostic> {
        let Some(name) = name else {
            return Ok(None);
        };
        match printed::symbol(name.get_ref()) {
            Some(symbol) => Ok(Some(symbol)),
            None => Err(self.err(
                name.span(),
                format!(
                    "tile `{id}`: unknown symbol `{}`; the known symbols are {}",
                    name.get_ref(),
                    printed::symbol_names()
                ),
            )),
        }
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
            let mut counters = Counters::default()
                .with(CATHEDRAL, part.cathedral.into())
                .with(PRINCESS, part.princess.into());
            if let Some(good) = part.goods {
                counters = counters.with(good.counter(), 1);
            }
            features.push(FeatureDef {
                pennants: part.pennants,
                counters,
                ..FeatureDef::plain(FeatureKind::City, mask, 0)
            });
        }
        for r in &raw.road {
            let mask =
                self.claim_edges(&r.get_ref().edges, &mut edge_owner, features.len(), &id)?;
            self.check_edge_kind(mask, EdgeKind::Road, &edges, r.span(), &id)?;
            features.push(FeatureDef {
                counters: Counters::default().with(INN, r.get_ref().inn.into()),
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
        if features.len() > MAX_TILE_FEATURES {
            return Err(self.err(
                t.span(),
                format!("tile `{id}`: at most {MAX_TILE_FEATURES} features per tile are supported"),
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
        let oriented = orientations(&edges, &features);
        Ok(TileType {
            id: Arc::from(id.as_str()),
            alias: raw.alias.as_ref().map(|a| a.get_ref().trim().to_string()),
            count: count as u32,
            edges,
            symbol: self.symbol(raw.symbol.as_ref(), &id)?,
            tags,
            set: set.to_string(),
            fits: Fits::new(&oriented),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::geometry::Rotation;

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
        assert_eq!(r90.counted, (1 << city) | (1 << road));
        let (city, road) = (r90.features[city].counters, r90.features[road].counters);
        assert_eq!(city.get(CATHEDRAL), 1);
        assert_eq!(city.get(Good::Cloth.counter()), 1);
        assert_eq!(city.get(Good::Wine.counter()), 0);
        assert_eq!(road.get(INN), 1);
        assert_eq!(road.get(Good::Cloth.counter()), 0);
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
    fn an_unknown_symbol_is_located_and_the_known_ones_listed() {
        let e = error_of(&format!("{D}symbol = \"tower\"\n"));
        assert!(e.contains("unknown symbol `tower`"), "{e}");
        assert!(e.contains("volcano, dragon, portal"), "{e}");
        assert!(e.starts_with("bad.toml:"), "{e}");
        let ok = TileSet::parse(Path::new("t.toml"), &format!("{D}symbol = \"portal\"\n"));
        assert_eq!(ok.unwrap().tiles[0].symbol, Some(printed::PORTAL));
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
