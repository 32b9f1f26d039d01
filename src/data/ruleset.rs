//! Rulesets: an edition or a house rule as a TOML file (`rulesets/*.toml`, documented in
//! `rulesets/README.md`).
//!
//! Each file is first checked on its own against the schema (so an unknown key or a bad value
//! is reported in the file that has it), then the `extends` chain is merged key by key (tables
//! merge, values replace) and the result is resolved into a validated [`Ruleset`].
//!
//! The loader names no mechanic family: each family declares its switches in `[mechanics]`
//! and its own section (`[pd]`, `[count]`, …) with a [`FamilyRules`] (`data::section`), the
//! registry passes the list, and the ruleset keeps the sections read under their types
//! ([`Ruleset::section`]).

use crate::data::diagnostic::{Diagnostic, PathPart, span_at};
use crate::data::figures::{self, FigureFile};
use crate::data::files::Named;
use crate::data::library::{self, Kind};
use crate::data::printed::Prints;
use crate::data::scripting::{Limits, ScriptSources};
use crate::data::section::{
    FamilyRules, FigureDefaults, Problem, Section, SectionReader, Sections, Switches, Written,
};
use crate::model::figure::{FigureTable, MAX_PLAYERS};
use crate::model::geometry::{Pos, Rotation};
use crate::model::tile::{TileSet, TileType};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use crate::model::tile::TileId;

/// A tile laid before the first turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StartTile {
    /// The tile type.
    pub tile: TileId,
    /// Where it lies.
    pub pos: Pos,
    /// How it is turned.
    pub rotation: Rotation,
}

/// `[table]`: how people play at the table, outside the game's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TableRules {
    /// Whether a person may take back their own steps of the turn until they end it (issue
    /// 33); `false` makes every step final, in every way of playing.
    pub undo: bool,
}

impl Default for TableRules {
    /// Undo allowed.
    fn default() -> TableRules {
        TableRules { undo: true }
    }
}

/// Tile type ids by tile id and alias.
type TileNames = BTreeMap<String, TileId>;

/// A validated ruleset: everything a game needs to know about its rules and tiles.
#[derive(Clone, Debug)]
pub struct Ruleset {
    /// The ruleset's name.
    pub name: String,
    /// One-line description.
    pub description: String,
    /// The file it was read from.
    pub path: PathBuf,
    /// Every tile type in play, with the ruleset's counts (types with count 0 are dropped).
    pub tiles: Vec<TileType>,
    /// The marks its tiles may print: the built-in counters and symbols, then those its tile
    /// sets declare (what the boards and scripts name and draw them by).
    pub prints: Prints,
    /// The start tiles (taken out of the bag).
    pub start: Vec<StartTile>,
    /// Smallest and largest number of players.
    pub players: (usize, usize),
    /// The switches of `[mechanics]`: which mechanics are on.
    pub switches: Switches,
    /// Each family's own section (`[base]`, `[pd]`, `[count]`), read under its type.
    pub sections: Sections,
    /// The figure table: every kind of figure and what it may do (`[figures.NAME]`).
    pub figures: FigureTable,
    /// How people play at the table (`[table]`): not the game's rules, but what a player may
    /// do outside them, such as taking back a step.
    pub table: TableRules,
    /// The ruleset's rhai scripts as read (none: no rhai call is ever made).
    pub scripts: Option<Arc<ScriptSources>>,
    /// The scripts compiled by the script layer when the ruleset is loaded
    /// (the script layer's `Scripts`; unset without scripts).
    pub compiled: Derived,
    names: TileNames,
    /// What the engine derives once from these rules and shares between games (the list of
    /// mechanics); empty until the first game starts.
    pub derived: Derived,
}

/// A value derived from a ruleset by a higher layer, computed once and shared by every game
/// under the ruleset (the data layer does not know its type).
#[derive(Clone, Default)]
pub struct Derived(std::sync::OnceLock<Arc<dyn std::any::Any + Send + Sync>>);

impl Derived {
    /// The value, computed by `make` the first time; `None` if it is not a `T`.
    pub fn get_or_init<T: std::any::Any + Send + Sync>(
        &self,
        make: impl FnOnce() -> T,
    ) -> Option<Arc<T>> {
        let value = self.0.get_or_init(|| Arc::new(make()));
        Arc::clone(value).downcast::<T>().ok()
    }

    /// Sets the value unless it is set already.
    pub fn init<T: std::any::Any + Send + Sync>(&self, value: T) {
        self.get_or_init(|| value);
    }

    /// The value, if it is set and a `T`.
    pub fn get<T: std::any::Any>(&self) -> Option<&T> {
        self.0.get()?.downcast_ref::<T>()
    }

    /// The value shared, if it is set and a `T`.
    pub fn shared<T: std::any::Any + Send + Sync>(&self) -> Option<Arc<T>> {
        Arc::clone(self.0.get()?).downcast::<T>().ok()
    }
}

impl std::fmt::Debug for Derived {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.get().is_some() {
            "Derived(set)"
        } else {
            "Derived(unset)"
        })
    }
}

/// The settings of a ruleset file with its `extends` chain followed: the files' tables merged
/// (ancestors first, each child overriding key by key), before they are resolved or checked
/// (loading the ruleset checks them).
pub fn merged_settings(source: library::Source) -> Result<toml::Table, Diagnostic> {
    Ok(Chain::read(source, None)?.merged())
}

impl Ruleset {
    /// Reads and validates a ruleset from a file's text with the families' parts `families`,
    /// its scripts read but not compiled. Games need the compiled scripts and every family:
    /// `Ruleset::load` and `Ruleset::from_source` (in the registry) read through here and
    /// compile them.
    pub fn read(source: library::Source, families: &[FamilyRules]) -> Result<Ruleset, Diagnostic> {
        let chain = Chain::read(source, Some(families))?;
        chain.resolve(families)
    }

    /// The family section of type `T` (every family the ruleset was read with has its own,
    /// its defaults where no file writes it).
    #[inline]
    pub fn section<T: Section>(&self) -> Option<&T> {
        self.sections.get::<T>()
    }

    /// Whether the switch `name` of `[mechanics]` is on.
    #[inline]
    pub fn switched_on(&self, name: &str) -> bool {
        self.switches.on(name)
    }

    /// Finds a tile type by id or alias.
    pub fn tile_id(&self, name: &str) -> Option<TileId> {
        self.names.get(name).copied()
    }

    /// The tile type with this index.
    pub fn tile(&self, id: TileId) -> &TileType {
        &self.tiles[id as usize]
    }
}

// ---------------------------------------------------------------------------------------------
// The file format.

/// The schema of one ruleset file apart from the families' parts (`[mechanics]` and each
/// family's section). `name`, `scripts` and `vars` are declared so that unknown-key checking
/// knows them; they are read from each file's own table (a name and scripts belong to the file
/// that writes them) or from the merged table (`vars`, read by scripts).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct RulesetFile {
    name: Option<String>,
    description: Option<String>,
    extends: Option<String>,
    players: Option<PlayersFile>,
    tiles: Option<Vec<TilesFile>>,
    start: Option<Vec<StartFile>>,
    /// The ruleset's figure rows (`[figures.NAME]`), over the shipped ones.
    #[serde(default)]
    figures: BTreeMap<String, FigureFile>,
    /// Scripts of this file (each file of an `extends` chain adds its own).
    #[serde(default)]
    scripts: Vec<String>,
    #[serde(default)]
    scripting: Limits,
    /// How people play at the table.
    #[serde(default)]
    table: TableRules,
    /// Free values for scripts (`vars("name")`).
    #[serde(default)]
    vars: toml::Table,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayersFile {
    min: usize,
    max: usize,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TilesFile {
    set: String,
    #[serde(default)]
    counts: BTreeMap<String, u32>,
}

/// A start tile as written in rulesets and records.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct StartFile {
    /// Tile id or alias.
    pub tile: String,
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// Clockwise rotation in degrees.
    #[serde(default)]
    pub rotation: i64,
}

/// One file of an `extends` chain.
struct Link {
    path: PathBuf,
    text: Arc<str>,
    table: toml::Table,
}

/// A ruleset file and its ancestors, child first.
struct Chain {
    links: Vec<Link>,
}

/// The keys of [`RulesetFile`], in its order.
const CORE_KEYS: [&str; 11] = [
    "name",
    "description",
    "extends",
    "players",
    "tiles",
    "start",
    "figures",
    "scripts",
    "scripting",
    "table",
    "vars",
];

/// The table of the families' switches.
const SWITCHES: &str = "mechanics";

/// The families' sections.
fn readers(families: &[FamilyRules]) -> impl Iterator<Item = &'static dyn SectionReader> + '_ {
    families.iter().filter_map(|f| f.section)
}

/// Checks one file on its own, so that errors point into it: its keys, its switches and each
/// family's section; gives the rest of it.
fn check_file(path: &Path, text: &Arc<str>, families: &[FamilyRules]) -> Result<(), Diagnostic> {
    let located = |e: toml::de::Error| Diagnostic::from_toml(path, text, &e);
    let mut doc = toml::de::DeTable::parse(text).map_err(located)?;
    let known = |k: &str| {
        CORE_KEYS.contains(&k) || k == SWITCHES || readers(families).any(|s| s.key() == k)
    };
    if let Some(key) = doc.get_ref().keys().find(|k| !known(k.get_ref())) {
        let expected = (CORE_KEYS.iter().copied())
            .chain([SWITCHES])
            .chain(readers(families).map(|s| s.key()));
        return Err(Diagnostic::new(
            path,
            text,
            Some(key.span()),
            format!(
                "unknown field `{}`, expected {}",
                key.get_ref(),
                one_of(expected)
            ),
        ));
    }
    if let Some(switches) = doc.get_mut().remove(SWITCHES) {
        check_switches(switches, families).map_err(|(span, msg)| match span {
            Some(span) => Diagnostic::new(path, text, Some(span), msg),
            None => located(msg_error(msg)),
        })?;
    }
    for reader in readers(families) {
        if let Some(section) = doc.get_mut().remove(reader.key()) {
            reader.check_file(section).map_err(located)?;
        }
    }
    RulesetFile::deserialize(toml::de::Deserializer::from(doc))
        .map(|_| ())
        .map_err(located)
}

/// A message as a TOML error (for one without a place of its own).
fn msg_error(msg: String) -> toml::de::Error {
    serde::de::Error::custom(msg)
}

/// `[mechanics]` as one file writes it: a table of switches the families declare, each `true`
/// or `false`. The error's place (a key the families do not declare) and message.
fn check_switches(
    value: toml::Spanned<toml::de::DeValue<'_>>,
    families: &[FamilyRules],
) -> Result<(), (Option<std::ops::Range<usize>>, String)> {
    let names = || {
        families
            .iter()
            .flat_map(|f| f.switches.iter().map(|s| s.name))
    };
    if let toml::de::DeValue::Table(table) = value.get_ref() {
        if let Some(key) = table
            .keys()
            .find(|k| !names().any(|n| n == k.get_ref().as_ref()))
        {
            let msg = format!(
                "unknown field `{}`, expected {}",
                key.get_ref(),
                one_of(names())
            );
            return Err((Some(key.span()), msg));
        }
    }
    let span = value.span();
    BTreeMap::<String, bool>::deserialize(toml::de::ValueDeserializer::from(value))
        .map(|_| ())
        .map_err(|e| (e.span().or(Some(span)), e.message().to_string()))
}

/// "one of `a`, `b`, `c`", as serde words a list of valid keys.
fn one_of<'a>(keys: impl Iterator<Item = &'a str>) -> String {
    let keys: Vec<String> = keys.map(|k| format!("`{k}`")).collect();
    format!("one of {}", keys.join(", "))
}

/// The most tiles a ruleset may put in play.
const MAX_TILES: u64 = 10_000;

/// How deep an `extends` chain may go before we call it a cycle.
const MAX_EXTENDS: usize = 16;

impl Chain {
    /// Reads a file and its ancestors, each checked on its own against the schema and the
    /// families' parts `families` (not checked without them).
    fn read(
        source: library::Source,
        families: Option<&[FamilyRules]>,
    ) -> Result<Chain, Diagnostic> {
        let mut links: Vec<Link> = Vec::new();
        let mut next = Some(source);
        while let Some(src) = next.take() {
            let text: Arc<str> = Arc::from(src.text.as_str());
            let table: toml::Table =
                toml::from_str(&text).map_err(|e| Diagnostic::from_toml(&src.path, &text, &e))?;
            // Check this file alone, so that errors point into it.
            if let Some(families) = families {
                check_file(&src.path, &text, families)?;
            }
            if let Some(parent) = table.get("extends").and_then(|v| v.as_str()) {
                let near = src.path.parent().unwrap_or(Path::new("."));
                let here = |msg: String| {
                    Diagnostic::new(
                        &src.path,
                        &text,
                        span_at(&text, &[PathPart::Key("extends")]),
                        msg,
                    )
                };
                if links.len() >= MAX_EXTENDS {
                    return Err(here(format!(
                        "`extends` goes deeper than {MAX_EXTENDS} files: is there a cycle?"
                    )));
                }
                let found =
                    library::find(Kind::Ruleset, parent, Named::ByFile(near)).map_err(here)?;
                let same = |p: &Path| {
                    p == found.path
                        || std::fs::canonicalize(p).ok() == std::fs::canonicalize(&found.path).ok()
                            && p.exists()
                };
                if same(&src.path) || links.iter().any(|l| same(&l.path)) {
                    let mut chain: Vec<String> =
                        links.iter().map(|l| l.path.display().to_string()).collect();
                    chain.push(src.path.display().to_string());
                    chain.push(found.path.display().to_string());
                    let msg = format!("`extends` goes round in a circle: {}", chain.join(" → "));
                    // Reported where the circle starts: the file the user asked for.
                    return Err(match links.first() {
                        Some(first) => Diagnostic::new(
                            &first.path,
                            &first.text,
                            span_at(&first.text, &[PathPart::Key("extends")]),
                            msg,
                        ),
                        None => here(msg),
                    });
                }
                next = Some(found);
            }
            links.push(Link {
                path: src.path,
                text,
                table,
            });
        }
        Ok(Chain { links })
    }

    /// The merged table: ancestors first, each child overriding.
    fn merged(&self) -> toml::Table {
        let mut merged = toml::Table::new();
        for link in self.links.iter().rev() {
            merge(&mut merged, &link.table);
        }
        merged.remove("extends");
        merged
    }

    /// An error at `path`, in the file of the chain that sets it (the child if none does).
    fn err_at(&self, path: &[PathPart<'_>], msg: impl Into<String>) -> Diagnostic {
        let has = |t: &toml::Table| lookup(t, path).is_some();
        let link = self
            .links
            .iter()
            .find(|l| has(&l.table))
            .unwrap_or(&self.links[0]);
        Diagnostic::new(&link.path, &link.text, span_at(&link.text, path), msg)
    }

    /// An error for a section's problem, in the file that sets its key.
    fn problem(&self, p: Problem) -> Diagnostic {
        let path: Vec<PathPart<'_>> = p.path.iter().map(|k| PathPart::Key(k)).collect();
        self.err_at(&path, p.message)
    }

    /// An error of the merged table, which has no place of its own: in the child file.
    fn unplaced(&self, e: &toml::de::Error) -> Diagnostic {
        let root = &self.links[0];
        Diagnostic::new(&root.path, &root.text, None, e.message().to_string())
    }

    /// The switches the merged `[mechanics]` writes, the others at their defaults.
    fn switches(
        &self,
        written: Option<toml::Value>,
        families: &[FamilyRules],
    ) -> Result<Switches, Diagnostic> {
        let mut switches = Switches::defaults(families);
        let Some(written) = written else {
            return Ok(switches);
        };
        let written: BTreeMap<String, bool> = written.try_into().map_err(|e| self.unplaced(&e))?;
        for (name, on) in written {
            if !switches.set(&name, on) {
                let expected = one_of(switches.names());
                return Err(self.err_at(
                    &[PathPart::Key(SWITCHES), PathPart::Key(&name)],
                    format!("unknown field `{name}`, expected {expected}"),
                ));
            }
        }
        Ok(switches)
    }

    /// Each family's section read from the merged table (taken out of it) and checked.
    fn sections(
        &self,
        merged: &mut toml::Table,
        families: &[FamilyRules],
        switches: &Switches,
    ) -> Result<Sections, Diagnostic> {
        let mut sections = Sections::default();
        for reader in readers(families) {
            let value = reader
                .read(merged.remove(reader.key()))
                .map_err(|e| self.unplaced(&e))?;
            value.check(switches).map_err(|p| self.problem(p))?;
            sections.push(value);
        }
        Ok(sections)
    }

    fn resolve(&self, families: &[FamilyRules]) -> Result<Ruleset, Diagnostic> {
        let root = &self.links[0];
        let mut merged = self.merged();
        let switches = self.switches(merged.remove(SWITCHES), families)?;
        let family_keys: Vec<&str> = readers(families).map(|r| r.key()).collect();
        let own: toml::Table = (merged.iter())
            .filter(|(k, _)| !family_keys.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let file: RulesetFile = toml::Value::Table(own)
            .try_into()
            .map_err(|e: toml::de::Error| self.unplaced(&e))?;
        // A ruleset is named by its own file: a house rule that does not say `name` is not
        // its parent.
        let name = match root.table.get("name").and_then(|v| v.as_str()) {
            Some(n) => n.to_string(),
            None => root
                .path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
        };
        let players = match &file.players {
            None => (2, 5),
            Some(p) if p.min >= 1 && p.min <= p.max && p.max <= MAX_PLAYERS => (p.min, p.max),
            Some(p) => {
                return Err(self.err_at(
                    &[PathPart::Key("players")],
                    format!(
                        "players must satisfy 1 <= min <= max <= 8 (got min {} and max {})",
                        p.min, p.max
                    ),
                ));
            }
        };
        let mut sections = self.sections(&mut merged, families, &switches)?;
        let mut defaults = FigureDefaults::default();
        for s in sections.iter() {
            s.figure_defaults(&mut defaults);
        }
        let figures = figures::table(&file.figures, &defaults).map_err(|(path, msg)| {
            let mut at = vec![PathPart::Key("figures")];
            at.extend(path.iter().map(|k| PathPart::Key(k)));
            self.err_at(&at, msg)
        })?;
        for s in sections.iter_mut() {
            s.figures_made(&figures);
        }
        let (tiles, names, prints) = self.tiles(&file, &figures)?;
        let mut rules = Ruleset {
            name,
            description: file.description.clone().unwrap_or_default(),
            path: root.path.clone(),
            tiles,
            prints,
            start: Vec::new(),
            players,
            switches,
            sections: Sections::default(),
            figures,
            table: file.table,
            scripts: self.scripts(&file)?,
            names,
            derived: Derived::default(),
            compiled: Derived::default(),
        };
        rules.start = self.start(&file, &rules)?;
        let written = Written(self.links.iter().map(|l| &l.table).collect());
        for reader in readers(families) {
            reader
                .settle(&mut sections, &written)
                .map_err(|p| self.problem(p))?;
        }
        rules.sections = sections;
        self.check_inner_edges(&rules)?;
        Ok(rules)
    }

    /// Tiles with inner edges (the City of Carcassonne) are start tiles only.
    fn check_inner_edges(&self, rules: &Ruleset) -> Result<(), Diagnostic> {
        for (id, t) in rules.tiles.iter().enumerate() {
            let starts = rules.start.iter().filter(|s| s.tile as usize == id).count() as u32;
            if t.has_inner_edge() && t.count > starts {
                return Err(self.err_at(
                    &[PathPart::Key("start")],
                    format!(
                        "tile `{}` has inner edges, so every copy must be a start tile ({} of {} are)",
                        t.id, starts, t.count
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The tiles of every tile set the ruleset names, their names, and the marks they print
    /// (a mark may not take a letter that one of `figures` has).
    fn tiles(
        &self,
        file: &RulesetFile,
        figures: &FigureTable,
    ) -> Result<(Vec<TileType>, TileNames, Prints), Diagnostic> {
        let refs = file.tiles.as_deref().unwrap_or_default();
        if refs.is_empty() {
            return Err(self.err_at(
                &[PathPart::Key("tiles")],
                "a ruleset needs at least one tile set: tiles = [{ set = \"base\" }]",
            ));
        }
        let mut tiles: Vec<TileType> = Vec::new();
        let mut names = BTreeMap::new();
        let lettered = figures
            .rows()
            .iter()
            .filter_map(|r| r.letter.map(|c| (c, r)));
        let mut prints = Prints::taking(lettered.map(|(c, r)| (c, r.kind.name().to_string())));
        for (i, r) in refs.iter().enumerate() {
            let at = [
                PathPart::Key("tiles"),
                PathPart::Index(i),
                PathPart::Key("set"),
            ];
            let link = self.owner(&at);
            let near = link.path.parent().unwrap_or(Path::new("."));
            let src = library::find(Kind::TileSet, &r.set, Named::ByFile(near))
                .map_err(|msg| self.err_at(&at, msg))?;
            let set = TileSet::parse_over(&src.path, &src.text, &mut prints)?;
            for key in r.counts.keys() {
                if !set
                    .tiles
                    .iter()
                    .any(|t| *t.id == **key || t.alias.as_deref() == Some(key))
                {
                    return Err(self.err_at(
                        &[
                            PathPart::Key("tiles"),
                            PathPart::Index(i),
                            PathPart::Key("counts"),
                        ],
                        format!("tile set `{}` has no tile `{key}`", set.name),
                    ));
                }
            }
            for mut t in set.tiles {
                let over = r
                    .counts
                    .get(&*t.id)
                    .or_else(|| t.alias.as_ref().and_then(|a| r.counts.get(a)));
                if let Some(&n) = over {
                    t.count = n;
                }
                if t.count == 0 {
                    continue;
                }
                let id = tiles.len() as TileId;
                for key in std::iter::once(t.id.to_string()).chain(t.alias.clone()) {
                    if names.insert(key.clone(), id).is_some() {
                        return Err(self.err_at(
                            &at,
                            format!("tile `{key}` is defined by two of this ruleset's tile sets"),
                        ));
                    }
                }
                tiles.push(t);
            }
        }
        let total: u64 = tiles.iter().map(|t| t.count as u64).sum();
        if total > MAX_TILES {
            return Err(self.err_at(
                &[PathPart::Key("tiles")],
                format!(
                    "the tile sets hold {total} tiles; a game has room for at most {MAX_TILES}"
                ),
            ));
        }
        Ok((tiles, names, prints))
    }

    /// Every script named along the chain, ancestors first (compiled together by the script
    /// layer).
    fn scripts(&self, file: &RulesetFile) -> Result<Option<Arc<ScriptSources>>, Diagnostic> {
        if let Err((key, msg)) = file.scripting.check() {
            return Err(self.err_at(&[PathPart::Key("scripting"), PathPart::Key(key)], msg));
        }
        let mut sources: Vec<(PathBuf, String)> = Vec::new();
        for link in self.links.iter().rev() {
            let Some(list) = link.table.get("scripts").and_then(|v| v.as_array()) else {
                continue;
            };
            let near = link.path.parent().unwrap_or(Path::new("."));
            for (i, name) in list.iter().filter_map(|v| v.as_str()).enumerate() {
                let src =
                    library::find(Kind::Script, name, Named::ByFile(near)).map_err(|msg| {
                        Diagnostic::new(
                            &link.path,
                            &link.text,
                            span_at(&link.text, &[PathPart::Key("scripts"), PathPart::Index(i)]),
                            msg,
                        )
                    })?;
                if !sources.iter().any(|(p, _)| *p == src.path) {
                    sources.push((src.path, src.text));
                }
            }
        }
        if sources.is_empty() {
            return Ok(None);
        }
        let mut values = self.merged();
        values.remove("scripts");
        Ok(Some(Arc::new(ScriptSources {
            files: sources,
            limits: file.scripting,
            values,
        })))
    }

    fn owner(&self, path: &[PathPart<'_>]) -> &Link {
        self.links
            .iter()
            .find(|l| lookup(&l.table, path).is_some())
            .unwrap_or(&self.links[0])
    }

    fn start(&self, file: &RulesetFile, rules: &Ruleset) -> Result<Vec<StartTile>, Diagnostic> {
        let Some(start) = &file.start else {
            return Err(self.err_at(
                &[],
                "a ruleset needs a start tile: start = [{ tile = \"D\", x = 0, y = 0, rotation = 0 }]",
            ));
        };
        let tiles = start
            .iter()
            .enumerate()
            .map(|(i, s)| {
                resolve_start(s, rules)
                    .map_err(|msg| self.err_at(&[PathPart::Key("start"), PathPart::Index(i)], msg))
            })
            .collect::<Result<Vec<_>, _>>()?;
        check_start(&tiles).map_err(|p| self.err_at(&p.path(), p.message))?;
        Ok(tiles)
    }
}

/// Checks a start tile against the ruleset's tiles.
pub fn resolve_start(s: &StartFile, rules: &Ruleset) -> Result<StartTile, String> {
    let tile = rules
        .tile_id(&s.tile)
        .ok_or_else(|| format!("start tile `{}` is not in this ruleset's tile sets", s.tile))?;
    let rotation = Rotation::from_degrees(s.rotation).ok_or_else(|| {
        format!(
            "rotation must be 0, 90, 180 or 270 degrees, not {}",
            s.rotation
        )
    })?;
    if s.x.unsigned_abs() > 64 || s.y.unsigned_abs() > 64 {
        return Err("start tiles must lie within 64 of the origin".to_string());
    }
    Ok(StartTile {
        tile,
        pos: Pos::new(s.x, s.y),
        rotation,
    })
}

/// What is wrong with a start layout, and where in the file's `start` list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartProblem {
    /// The entry at fault (the later of two on one position), or `None` for the whole list.
    pub index: Option<usize>,
    /// What is wrong, in the user's words.
    pub message: String,
}

impl StartProblem {
    /// Where the problem lies: the `start` key or one of its entries.
    pub fn path(&self) -> Vec<PathPart<'static>> {
        let mut path = vec![PathPart::Key("start")];
        path.extend(self.index.map(PathPart::Index));
        path
    }
}

/// A start layout needs at least one tile and one tile per position.
pub fn check_start(tiles: &[StartTile]) -> Result<(), StartProblem> {
    if tiles.is_empty() {
        return Err(StartProblem {
            index: None,
            message: "there must be at least one start tile".to_string(),
        });
    }
    for (i, a) in tiles.iter().enumerate() {
        if let Some(j) = tiles[..i].iter().position(|b| b.pos == a.pos) {
            return Err(StartProblem {
                index: Some(i),
                message: format!(
                    "two start tiles at {}: start entry {} lies where entry {} already does",
                    a.pos,
                    i + 1,
                    j + 1
                ),
            });
        }
    }
    Ok(())
}

fn merge(into: &mut toml::Table, from: &toml::Table) {
    for (k, v) in from {
        match (into.get_mut(k), v) {
            (Some(toml::Value::Table(a)), toml::Value::Table(b)) => merge(a, b),
            _ => {
                into.insert(k.clone(), v.clone());
            }
        }
    }
}

fn lookup<'t>(table: &'t toml::Table, path: &[PathPart<'_>]) -> Option<&'t toml::Value> {
    let (first, rest) = path.split_first()?;
    let PathPart::Key(k) = first else { return None };
    let mut v = table.get(*k)?;
    for part in rest {
        v = match part {
            PathPart::Key(k) => v.as_table()?.get(*k)?,
            PathPart::Index(i) => v.as_array()?.get(*i)?,
        };
    }
    Some(v)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn parse(text: &str) -> Result<Ruleset, Diagnostic> {
        Ruleset::from_source(library::Source {
            path: PathBuf::from("test.toml"),
            text: text.to_string(),
        })
    }

    pub(crate) const MINI: &str =
        "tiles = [{ set = \"base\" }]\nstart = [{ tile = \"D\", x = 0, y = 0 }]\n";

    #[test]
    fn unknown_keys_name_file_line_and_column() {
        let e = parse(&format!("{MINI}[base]\nfarm_scorin = \"city_centric_4\"\n")).unwrap_err();
        assert_eq!(e.line_col(), Some((4, 1)));
        assert!(e.message.contains("unknown field `farm_scorin`"), "{e}");
    }

    #[test]
    fn bad_values_name_the_choices() {
        let e = parse(&format!("{MINI}[base]\nfarm_scoring = \"most\"\n")).unwrap_err();
        assert_eq!(e.line_col(), Some((4, 16)));
        assert!(e.message.contains("farm_centric_3"), "{e}");
    }

    #[test]
    fn counts_override_and_remove_tiles() {
        let r = parse(
            "tiles = [{ set = \"base\", counts = { D = 1, X = 0 } }]\nstart = [{ tile = \"D\", x = 0, y = 0 }]\n",
        )
        .unwrap();
        assert_eq!(r.tiles.iter().map(|t| t.count).sum::<u32>(), 72 - 3 - 1);
        assert!(r.tile_id("X").is_none());
        let e =
            parse("tiles = [{ set = \"base\", counts = { Z = 1 } }]\nstart = []\n").unwrap_err();
        assert!(e.message.contains("no tile `Z`"), "{e}");
    }

    #[test]
    fn a_bad_start_tile_is_located() {
        let e = parse("tiles = [{ set = \"base\" }]\nstart = [{ tile = \"Q\", x = 0, y = 0, rotation = 45 }]\n")
            .unwrap_err();
        assert_eq!(e.line_col().map(|l| l.0), Some(2));
        assert!(e.message.contains("rotation must be"), "{e}");
    }
}
