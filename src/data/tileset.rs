//! The tile-set file format (`tiles/*.toml`, documented in `tiles/README.md`): parsing and
//! validation into the tile model of [`crate::model::tile`], with located errors.
//!
//! Loading checks that the description is consistent (every edge and half-edge belongs to
//! exactly one feature of the right kind, …); the tile model then pre-computes the four
//! rotations once, so that nothing is rotated during play.

use crate::data::diagnostic::Diagnostic;
use crate::data::figures::{board_letter, check_path, is_word, quoted};
use crate::data::printed::{
    self, Blame, CATHEDRAL, Drawn, Good, INN, Mark, PRINCESS, Print, Prints,
};
use crate::model::geometry::{Edge, HALF_NAMES, Spot};
use crate::model::tile::{
    CounterId, Counters, EdgeKind, FeatureDef, FeatureKind, Fits, Lies, MAX_TILE_FEATURES,
    NO_FEATURE, Symbol, TileSet, TileType, orientations,
};
use serde::Deserialize;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
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
    /// The marks on a whole tile it declares.
    #[serde(default)]
    symbol: Vec<Spanned<MarkFile>>,
    /// The counts on feature parts it declares.
    #[serde(default)]
    counter: Vec<Spanned<MarkFile>>,
    #[serde(default)]
    tile: Vec<Spanned<TileFile>>,
}

/// A `[[symbol]]` or `[[counter]]` declaration (`on` and `drawn` for counters only).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MarkFile {
    name: Spanned<String>,
    letter: Spanned<String>,
    key: Spanned<String>,
    path: Spanned<String>,
    fill: Spanned<String>,
    on: Option<Spanned<Vec<FeatureKind>>>,
    drawn: Option<Spanned<DrawnFile>>,
}

/// Where a declared counter is drawn.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
enum DrawnFile {
    /// Inside its feature part.
    In,
    /// On the field beside it.
    Beside,
}

/// A feature part's declared counters and how many of each (`marks = { well = 1 }`).
type MarksFile = BTreeMap<Spanned<String>, Spanned<i64>>;

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
    /// `in_bag = false`: a mechanic hands the copies out (the abbeys).
    in_bag: Option<Spanned<bool>>,
    /// `holes_only = true`: laid only where all four neighbours are placed.
    #[serde(default)]
    holes_only: bool,
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
    #[serde(default)]
    marks: MarksFile,
    #[serde(default)]
    tags: Vec<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RoadFile {
    edges: Vec<Spanned<String>>,
    #[serde(default)]
    inn: bool,
    #[serde(default)]
    leads_to: Vec<Spanned<String>>,
    #[serde(default)]
    marks: MarksFile,
    #[serde(default)]
    tags: Vec<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FieldFile {
    halves: Vec<Spanned<String>>,
    #[serde(default)]
    cities: Vec<Spanned<String>>,
    #[serde(default)]
    marks: MarksFile,
    #[serde(default)]
    tags: Vec<Spanned<String>>,
}

impl TileSet {
    /// Parses and validates a tile set on its own (the built-in marks and its own
    /// declarations). `file` is used in error messages.
    pub fn parse(file: &Path, source: &str) -> Result<TileSet, Diagnostic> {
        TileSet::parse_over(file, source, &mut Prints::default())
    }

    /// Parses and validates a tile set as one of a ruleset's: the marks it declares join
    /// `prints` (the ruleset's table so far), and its tiles name the built-in marks and its own.
    pub fn parse_over(
        file: &Path,
        source: &str,
        prints: &mut Prints,
    ) -> Result<TileSet, Diagnostic> {
        let src: Arc<str> = Arc::from(source);
        let raw: TileSetFile =
            toml::from_str(source).map_err(|e| Diagnostic::from_toml(file, &src, &e))?;
        let mut ctx = Ctx {
            file,
            src: &src,
            symbols: Vec::new(),
            counters: Vec::new(),
        };
        for (mark, list) in [(Mark::Symbol, &raw.symbol), (Mark::Counter, &raw.counter)] {
            for m in list {
                ctx.declare(m, mark, prints)?;
            }
        }
        let default_name = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let name = raw.name.unwrap_or(default_name);
        let mut ids = BTreeSet::new();
        let mut tiles = Vec::with_capacity(raw.tile.len());
        for t in &raw.tile {
            let tile = ctx.tile(t, &name, prints)?;
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
    /// The symbols this file declares, with their ids in the ruleset's table.
    symbols: Vec<(String, Symbol)>,
    /// The counters this file declares, with their ids.
    counters: Vec<(String, CounterId)>,
}

/// The most of one declared counter a feature part may print.
pub const MAX_MARKS: i64 = 3;

/// The longest key word a declared mark may have.
const MAX_KEY: usize = 30;

/// The kinds of feature part a counter may be written on (those with a part table).
const COUNTED_KINDS: [FeatureKind; 3] = [FeatureKind::Road, FeatureKind::City, FeatureKind::Field];

impl Ctx<'_> {
    fn err(&self, span: std::ops::Range<usize>, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::new(self.file, self.src, Some(span), msg)
    }

    /// Reads a `[[symbol]]` or `[[counter]]` declaration into `prints` (see [`Prints::declare`]
    /// for what the ruleset's table refuses).
    fn declare(
        &mut self,
        raw: &Spanned<MarkFile>,
        mark: Mark,
        prints: &mut Prints,
    ) -> Result<(), Diagnostic> {
        let m = raw.get_ref();
        let name = m.name.get_ref();
        if !is_word(name) {
            return Err(self.err(
                m.name.span(),
                format!(
                    "{} name `{}`: lowercase letters, digits and `_`, at most 40 characters",
                    mark.word(),
                    quoted(name)
                ),
            ));
        }
        let declared = self.symbols.iter().map(|(n, _)| n);
        if declared
            .chain(self.counters.iter().map(|(n, _)| n))
            .any(|n| n == name)
        {
            return Err(self.err(
                m.name.span(),
                format!("`{name}` is declared twice in this tile set"),
            ));
        }
        let letter = board_letter(m.letter.get_ref()).map_err(|e| self.err(m.letter.span(), e))?;
        let key = m.key.get_ref();
        let words = |c: char| c.is_ascii_alphanumeric() || " -'".contains(c);
        if key.trim().is_empty() || key.len() > MAX_KEY || !key.chars().all(words) {
            return Err(self.err(
                m.key.span(),
                format!(
                    "key `{}`: a few words for the board's key (letters, digits, spaces, `-` and `'`, at most {MAX_KEY} characters)",
                    quoted(key)
                ),
            ));
        }
        check_path("path", m.path.get_ref()).map_err(|e| self.err(m.path.span(), e))?;
        let fill = m.fill.get_ref();
        let hex = fill.strip_prefix('#').filter(|h| h.len() == 6);
        if !hex.is_some_and(|h| h.chars().all(|c| c.is_ascii_hexdigit())) {
            return Err(self.err(
                m.fill.span(),
                format!("fill `{}`: a colour written #rrggbb", quoted(fill)),
            ));
        }
        let on = self.counted_on(raw, mark)?;
        let print = Print {
            name: Cow::Owned(name.clone()),
            letter,
            key: Cow::Owned(key.clone()),
            place: match m.drawn.as_ref().map(|d| *d.get_ref()) {
                Some(DrawnFile::Beside) => Drawn::Beside,
                Some(DrawnFile::In) | None => Drawn::In,
            },
            on: Cow::Owned(on),
            svg: Cow::Owned(printed::declared_svg(name, m.path.get_ref(), fill)),
        };
        let id = prints.declare(mark, print).map_err(|(blame, msg)| {
            let span = match blame {
                Blame::Name => m.name.span(),
                Blame::Letter => m.letter.span(),
                Blame::Whole => raw.span(),
            };
            self.err(span, msg)
        })?;
        match mark {
            Mark::Symbol => self.symbols.push((name.clone(), Symbol::new(id))),
            Mark::Counter => self.counters.push((name.clone(), CounterId::new(id))),
        }
        Ok(())
    }

    /// The kinds a declared counter may be written on (`on`, which a symbol has not, nor
    /// `drawn`).
    fn counted_on(
        &self,
        raw: &Spanned<MarkFile>,
        mark: Mark,
    ) -> Result<Vec<FeatureKind>, Diagnostic> {
        let m = raw.get_ref();
        if mark == Mark::Symbol {
            let extra = m.on.as_ref().map(|o| ("on", o.span()));
            let extra = extra.or_else(|| m.drawn.as_ref().map(|d| ("drawn", d.span())));
            return match extra {
                Some((key, span)) => Err(self.err(
                    span,
                    format!("a symbol is printed on a whole tile: `{key}` is for counters"),
                )),
                None => Ok(Vec::new()),
            };
        }
        let Some(on) = &m.on else {
            return Err(self.err(
                raw.span(),
                "a counter says the feature parts it is written on: `on = [\"city\"]` (road, city, field)",
            ));
        };
        let kinds = on.get_ref();
        if kinds.is_empty() || kinds.iter().any(|k| !COUNTED_KINDS.contains(k)) {
            return Err(self.err(
                on.span(),
                "`on` lists one or more of road, city and field (the parts a tile writes out)",
            ));
        }
        Ok(kinds.clone())
    }

    /// The symbol a tile's `symbol = "NAME"` names: a built-in one or one this file declares.
    fn symbol(
        &self,
        name: Option<&Spanned<String>>,
        id: &str,
        prints: &Prints,
    ) -> Result<Option<Symbol>, Diagnostic> {
        let Some(name) = name else {
            return Ok(None);
        };
        let own = self.symbols.iter().find(|(n, _)| n == name.get_ref());
        let builtin = printed::SYMBOLS.iter().any(|p| p.name == *name.get_ref());
        match own.map(|(_, s)| *s) {
            Some(symbol) => Ok(Some(symbol)),
            None if builtin => Ok(prints.symbol_named(name.get_ref())),
            None => {
                let known = printed::SYMBOLS.iter().map(|p| &*p.name);
                let known: Vec<&str> = known
                    .chain(self.symbols.iter().map(|(n, _)| n.as_str()))
                    .collect();
                Err(self.err(
                    name.span(),
                    format!(
                        "tile `{id}`: unknown symbol `{}`; the known symbols are {}",
                        quoted(name.get_ref()),
                        known.join(", ")
                    ),
                ))
            }
        }
    }

    /// The declared counters a feature part of `kind` writes (`marks = { well = 1 }`).
    fn marks(
        &self,
        marks: &MarksFile,
        kind: FeatureKind,
        id: &str,
        prints: &Prints,
    ) -> Result<Counters, Diagnostic> {
        let mut counters = Counters::default();
        for (name, n) in marks {
            let Some((_, counter)) = self.counters.iter().find(|(c, _)| c == name.get_ref()) else {
                let declared: Vec<&str> = self.counters.iter().map(|(n, _)| n.as_str()).collect();
                return Err(self.err(
                    name.span(),
                    format!(
                        "tile `{id}`: unknown counter `{}`; the counters this tile set declares are: {}",
                        quoted(name.get_ref()),
                        if declared.is_empty() { "none".to_string() } else { declared.join(", ") }
                    ),
                ));
            };
            let on = prints.counter(*counter).map_or(&[][..], |p| &p.on);
            if !on.contains(&kind) {
                let on: Vec<&str> = on.iter().map(|k| k.name()).collect();
                return Err(self.err(
                    name.span(),
                    format!(
                        "tile `{id}`: counter `{}` is written on {}, not on a {}",
                        name.get_ref(),
                        on.join(" or "),
                        kind.name()
                    ),
                ));
            }
            let count = *n.get_ref();
            if !(1..=MAX_MARKS).contains(&count) {
                return Err(self.err(
                    n.span(),
                    format!(
                        "tile `{id}`: a part prints 1 to {MAX_MARKS} of counter `{}`, not {count}",
                        name.get_ref()
                    ),
                ));
            }
            counters = counters.with(*counter, count as u16);
        }
        Ok(counters)
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

    fn tile(
        &self,
        t: &Spanned<TileFile>,
        set: &str,
        prints: &Prints,
    ) -> Result<TileType, Diagnostic> {
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
        let mut part_tags = Vec::new();
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
            counters = counters.plus(self.marks(&part.marks, FeatureKind::City, &id, prints)?);
            self.part_tags(&part.tags, features.len(), &mut part_tags)?;
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
            let marks = self.marks(&r.get_ref().marks, FeatureKind::Road, &id, prints)?;
            let leads_to = self.leads_to(&r.get_ref().leads_to, &edge_owner, &features, &id)?;
            self.part_tags(&r.get_ref().tags, features.len(), &mut part_tags)?;
            features.push(FeatureDef {
                counters: marks.with(INN, r.get_ref().inn.into()),
                leads_to,
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
                if let kind @ (EdgeKind::City | EdgeKind::Wild) = edges[i as usize / 2] {
                    return Err(self.err(
                        h.span(),
                        format!(
                            "tile `{id}`: half-edge {} lies on a {} edge, so no field can touch it",
                            h.get_ref(),
                            kind.name()
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
            self.part_tags(&fr.tags, features.len(), &mut part_tags)?;
            features.push(FeatureDef {
                borders,
                counters: self.marks(&fr.marks, FeatureKind::Field, &id, prints)?,
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
        let tags = (raw.tags.iter())
            .map(|t| self.tag(t))
            .collect::<Result<Vec<_>, _>>()?;
        let oriented = orientations(&edges, &features);
        let in_bag = raw.in_bag.as_ref().is_none_or(|b| *b.get_ref());
        let lies = if raw.holes_only {
            Lies::InHoles
        } else {
            Lies::Anywhere
        };
        Ok(TileType {
            id: Arc::from(id.as_str()),
            alias: raw.alias.as_ref().map(|a| a.get_ref().trim().to_string()),
            count: count as u32,
            edges,
            symbol: self.symbol(raw.symbol.as_ref(), &id, prints)?,
            tags,
            part_tags,
            set: set.to_string(),
            in_bag,
            lies,
            fits: Fits::new(&oriented, lies),
            oriented,
        })
    }

    /// A tag of a tile or of a feature part: lowercase letters, digits and `_`.
    fn tag(&self, tag: &Spanned<String>) -> Result<String, Diagnostic> {
        let text = tag.get_ref();
        let ok = !text.is_empty()
            && (text.chars()).all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if !ok {
            return Err(self.err(
                tag.span(),
                "a tag is lowercase letters, digits and `_` (e.g. `tower_foundation`)",
            ));
        }
        Ok(text.clone())
    }

    /// Adds the tags of the feature part number `part` to `out`.
    fn part_tags(
        &self,
        tags: &[Spanned<String>],
        part: usize,
        out: &mut Vec<(u8, String)>,
    ) -> Result<(), Diagnostic> {
        for t in tags {
            out.push((part as u8, self.tag(t)?));
        }
        Ok(())
    }

    /// A road's `leads_to`: the city parts of the tile, named by an edge each reaches, that
    /// the road runs into (`edge_owner` and `features` hold the city parts, read before the
    /// roads).
    fn leads_to(
        &self,
        names: &[Spanned<String>],
        edge_owner: &[u8; 4],
        features: &[FeatureDef],
        id: &str,
    ) -> Result<u16, Diagnostic> {
        let mut mask = 0u16;
        for name in names {
            let owner = edge_owner[self.edge(name)? as usize];
            let city =
                (features.get(usize::from(owner))).is_some_and(|f| f.kind == FeatureKind::City);
            if !city {
                return Err(self.err(
                    name.span(),
                    format!(
                        "tile `{id}`: the road leads to a city at {}, but no city part of this tile reaches that edge",
                        name.get_ref()
                    ),
                ));
            }
            mask |= 1 << owner;
        }
        Ok(mask)
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

    /// A tile with wild edges (the abbey): no feature may reach them, and the tile's
    /// `in_bag` and `holes_only` are read.
    const WILD: &str = r#"
[[tile]]
id = "W/1"
count = 2
in_bag = false
holes_only = true
edges = ["wild", "wild", "wild", "wild"]
cloister = true
"#;

    #[test]
    fn wild_edges_take_no_feature_and_keep_out_of_the_bag() {
        let set = TileSet::parse(Path::new("w.toml"), WILD).unwrap();
        let t = &set.tiles[0];
        assert!(!t.in_bag && t.lies == Lies::InHoles);
        assert_eq!(t.at(Rotation::default()).edge_kind(Edge::S), EdgeKind::Wild);
        let field = WILD.replace("cloister = true", "field = [{ halves = [\"NL\", \"NR\"] }]");
        let e = error_of(&field);
        assert!(e.contains("half-edge NL lies on a wild edge"), "{e}");
        assert!(e.starts_with("bad.toml:8:22:"), "{e}");
        let road = WILD.replace("cloister = true", "road = [{ edges = [\"N\"] }]");
        let e = error_of(&road);
        assert!(
            e.contains("edge N, but `edges` says that edge is wild"),
            "{e}"
        );
        let e = error_of(&WILD.replace("in_bag = false", "in_bag = 3"));
        assert!(
            e.starts_with("bad.toml:5:10:") && e.contains("expected a boolean"),
            "{e}"
        );
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
