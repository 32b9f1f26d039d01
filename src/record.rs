//! Game records: a TOML file holding the ruleset, the players, the seed or a forced draw order,
//! an optional early end, optional start tiles and the actions in order. Replaying a record
//! reproduces the game and its event log exactly; a record is also the save-game format.
//!
//! ```toml
//! ruleset = "base"
//! players = ["Alice", "Bob"]
//! seed = 7
//! [[action]]
//! place = [0, -1, 90]
//! [[action]]
//! pass = true
//! ```

use crate::data::diagnostic::{Diagnostic, PathPart, span_at};
use crate::data::files::Named;
use crate::data::library::{self, Kind, Source};
use crate::data::ruleset::{Ruleset, StartFile, check_start, resolve_start};
use crate::engine::action::Action;
use crate::engine::event::Event;
use crate::engine::game::{Game, RuleError, Setup, SetupError};
use crate::engine::vocabulary::{self, Vocabulary};
use crate::model::figure::{FigureKind, FigureTable};
use crate::model::geometry::{Pos, Rotation, Spot};
use crate::registry;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Arc;
use toml::Spanned;

/// A record as written (the keys are a fixed contract; see the crate README).
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct RecordFile {
    ruleset: String,
    players: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    draw: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    end_after: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    start: Option<Vec<StartFile>>,
    #[serde(default)]
    action: Vec<Spanned<ActionFile>>,
}

/// One `[[action]]` table: the base game's keys, and the mechanics' keys (each mechanic's
/// vocabulary reads and writes its own: `dragon = [x, y]`, `quarter = "castle"`, …).
#[derive(Debug, Default, Deserialize, Serialize)]
struct ActionFile {
    #[serde(skip_serializing_if = "Option::is_none")]
    place: Option<(i32, i32, i64)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    deploy: Option<(i32, i32, String)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    figure: Option<String>,
    /// A script's own action: `script = ["name", arg, …]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    script: Option<Vec<crate::script::Arg>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pass: Option<bool>,
    /// The mechanics' keys.
    #[serde(flatten)]
    mechanic: toml::Table,
}

/// The vocabulary whose actions a record writes under `key`.
fn vocabulary_of(key: &str) -> Option<&'static dyn Vocabulary> {
    registry::vocabularies()
        .into_iter()
        .find(|v| v.record_keys().iter().any(|k| k.key == key))
}

/// How many values each action's array holds (TOML tuples would silently drop extra ones).
fn arities() -> Vec<(&'static str, &'static [usize])> {
    let mut list: Vec<(&'static str, &'static [usize])> = vec![("place", &[3]), ("deploy", &[3])];
    for v in registry::vocabularies() {
        list.extend(
            v.record_keys()
                .iter()
                .filter(|k| !k.arity.is_empty())
                .map(|k| (k.key, k.arity)),
        );
    }
    list
}

/// Where in a record an action's array has the wrong number of values.
struct ActionKey {
    index: usize,
    key: &'static str,
}

impl ActionKey {
    fn parts(&self) -> [PathPart<'static>; 3] {
        [
            PathPart::Key("action"),
            PathPart::Index(self.index),
            PathPart::Key(self.key),
        ]
    }
}

/// The most actions a record may hold: four for each tile of the largest bag a ruleset may
/// have (10,000 tiles), far above any game (a game of the base game takes about 150 actions,
/// `hig-full` about 400). Reading a file of TOML tables costs some kilobytes a table, so a
/// file that may hold more tables is refused before it is read ([`check_size`]): a 4 MiB file
/// of actions took 570 to 880 MB to read and refuse, and now 30 to 80 MB; one at this limit
/// takes 100 to 160 MB (`tests/bad_input.rs` bounds both).
pub const MAX_ACTIONS: usize = 40_000;

/// Refuses a file that may hold more than [`MAX_ACTIONS`] tables, located where table number
/// [`MAX_ACTIONS`] + 1 opens, without reading the file: every action is a table, written under
/// a `[[` header or inline with `{`, so counting both (wherever they stand, in strings too)
/// counts every action and perhaps more. `castellan validate` asks it of any file before
/// recognising its kind (no tile set or ruleset comes near so many tables either).
pub fn check_size(path: &Path, text: &str) -> Result<(), Diagnostic> {
    let bytes = text.as_bytes();
    let mut tables = 0;
    for (at, b) in bytes.iter().enumerate() {
        if *b == b'{' || (*b == b'[' && bytes.get(at + 1) == Some(&b'[')) {
            tables += 1;
            if tables > MAX_ACTIONS {
                let msg = format!(
                    "castellan reads at most {MAX_ACTIONS} tables in a file (a record's actions: \
                     four for each tile of the largest bag): this file has more"
                );
                return Err(Diagnostic::new(
                    path,
                    &Arc::from(text),
                    Some(at..at + 1),
                    msg,
                ));
            }
        }
    }
    Ok(())
}

/// The first action whose array holds more or fewer values than its key takes.
fn arity_problem(text: &str) -> Option<(ActionKey, String)> {
    let doc: toml::Table = toml::from_str(text).ok()?;
    let actions = doc.get("action")?.as_array()?;
    let arities = arities();
    actions.iter().enumerate().find_map(|(index, action)| {
        let (key, message) = action_arity(action.as_table()?, &arities)?;
        Some((ActionKey { index, key }, message))
    })
}

/// The first key of one action whose array holds more or fewer values than it takes.
fn action_arity(
    action: &toml::Table,
    arities: &[(&'static str, &'static [usize])],
) -> Option<(&'static str, String)> {
    arities.iter().find_map(|(key, sizes)| {
        let len = action.get(*key)?.as_array()?.len();
        if sizes.contains(&len) {
            return None;
        }
        let want = sizes
            .iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(" or ");
        Some((*key, format!("`{key}` takes {want} values, not {len}")))
    })
}

/// The action one `[[action]]` table says, as [`action_table`] writes it (`place = [0, -1,
/// 90]`, `deploy = [0, -1, "N"]`, `dragon = [1, 0]`, …), or what is wrong with it.
pub fn parse_action(table: &toml::Table) -> Result<Action, String> {
    if let Some((_, message)) = action_arity(table, &arities()) {
        return Err(message);
    }
    let file: ActionFile = toml::Value::Table(table.clone())
        .try_into()
        .map_err(|e: toml::de::Error| e.message().trim().to_string())?;
    action_of(&file, None)
}

/// A parsed and checked record, ready to replay.
#[derive(Clone, Debug)]
pub struct Record {
    /// The ruleset as the record names it.
    pub ruleset_ref: String,
    /// The loaded ruleset.
    pub rules: Arc<Ruleset>,
    /// Players, seed, draw order, early end, start tiles.
    pub setup: Setup,
    /// The actions, each with its byte span in the file.
    pub actions: Vec<(Action, std::ops::Range<usize>)>,
    path: std::path::PathBuf,
    text: Arc<str>,
}

/// Why a record could not be replayed.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The file is malformed or refers to something that does not exist.
    #[error("{0}")]
    Invalid(Box<Diagnostic>),
    /// An action is illegal at its point in the game.
    #[error("action {index} is illegal: {error}")]
    Illegal {
        /// 1-based index of the action.
        index: usize,
        /// What the rules say.
        error: RuleError,
        /// Where it is in the file.
        at: Box<Diagnostic>,
        /// The game just before the illegal action, with its events so far.
        replay: Box<Replay>,
    },
}

impl From<Diagnostic> for RecordError {
    fn from(d: Diagnostic) -> Self {
        RecordError::Invalid(Box::new(d))
    }
}

impl RecordError {
    /// The located diagnostic.
    pub fn diagnostic(&self) -> &Diagnostic {
        match self {
            RecordError::Invalid(d) => d,
            RecordError::Illegal { at, .. } => at,
        }
    }
}

/// A replayed game with its whole event log.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The game after the last action.
    pub game: Game,
    /// Every event from the set-up on.
    pub events: Vec<Event>,
}

impl Record {
    /// Reads a record file.
    pub fn load(path: &Path) -> Result<Record, Diagnostic> {
        Record::parse(library::read(path)?)
    }

    /// Parses a record's text; `source.path` is used for messages and to find a ruleset path.
    pub fn parse(source: Source) -> Result<Record, Diagnostic> {
        let text: Arc<str> = Arc::from(source.text.as_str());
        let path = source.path;
        let err = |at: &[PathPart<'_>], msg: String| {
            Diagnostic::new(&path, &text, span_at(&text, at), msg)
        };
        check_size(&path, &text)?;
        // Before the record is read into its types, so that the two readings are never held
        // at once.
        if let Some((at, msg)) = arity_problem(&text) {
            return Err(err(&at.parts(), msg));
        }
        let raw: RecordFile =
            toml::from_str(&text).map_err(|e| Diagnostic::from_toml(&path, &text, &e))?;
        if let Some((index, key)) = raw.action.iter().enumerate().find_map(|(i, a)| {
            a.get_ref()
                .mechanic
                .keys()
                .find(|k| vocabulary_of(k).is_none())
                .map(|k| (i, k))
        }) {
            let at = [
                PathPart::Key("action"),
                PathPart::Index(index),
                PathPart::Key(key),
            ];
            return Err(err(
                &at,
                format!(
                    "unknown key `{key}` in an action: use one of {}",
                    all_keys()
                ),
            ));
        }
        let near = path.parent().unwrap_or(Path::new("."));
        let near = if near.as_os_str().is_empty() {
            Path::new(".")
        } else {
            near
        };
        let rules = match library::find(Kind::Ruleset, &raw.ruleset, Named::ByRecord(near)) {
            Ok(src) => Arc::new(Ruleset::from_source(src)?),
            Err(msg) => return Err(err(&[PathPart::Key("ruleset")], msg)),
        };
        if let Some((i, name)) = raw
            .players
            .iter()
            .enumerate()
            .find(|(i, n)| n.trim().is_empty() || raw.players[..*i].contains(n))
        {
            return Err(err(
                &[PathPart::Key("players"), PathPart::Index(i)],
                format!("player names must be different and not empty (`{name}`)"),
            ));
        }
        let (min, max) = rules.players;
        if !(min..=max).contains(&raw.players.len()) {
            return Err(err(
                &[PathPart::Key("players")],
                format!(
                    "ruleset `{}` is for {min} to {max} players, the record names {}",
                    rules.name,
                    raw.players.len()
                ),
            ));
        }
        let draw = match &raw.draw {
            None => None,
            Some(ids) => Some(
                ids.iter()
                    .enumerate()
                    .map(|(i, id)| {
                        rules.tile_id(id).ok_or_else(|| {
                            err(
                                &[PathPart::Key("draw"), PathPart::Index(i)],
                                format!("tile `{id}` is not in ruleset `{}`", rules.name),
                            )
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        };
        let start = match &raw.start {
            None => None,
            Some(list) => Some(
                list.iter()
                    .enumerate()
                    .map(|(i, s)| {
                        resolve_start(s, &rules)
                            .map_err(|m| err(&[PathPart::Key("start"), PathPart::Index(i)], m))
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        };
        if let Some(tiles) = &start {
            check_start(tiles).map_err(|p| err(&p.path(), p.message))?;
        }
        let actions = raw
            .action
            .iter()
            .enumerate()
            .map(|(index, a)| {
                action_of(a.get_ref(), Some(&rules.figures))
                    .map(|act| (act, a.span()))
                    .map_err(|m| {
                        // A mechanic's value is shown where it stands; anything else at its action.
                        let at = a.get_ref().mechanic.keys().next().and_then(|key| {
                            let at = [
                                PathPart::Key("action"),
                                PathPart::Index(index),
                                PathPart::Key(key),
                            ];
                            span_at(&text, &at)
                        });
                        Diagnostic::new(&path, &text, at.or(Some(a.span())), m)
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Record {
            ruleset_ref: raw.ruleset,
            rules,
            setup: Setup {
                players: raw.players,
                seed: raw.seed.unwrap_or(0),
                draw,
                end_after: raw.end_after,
                start,
            },
            actions,
            path,
            text,
        })
    }

    /// Replays the record from the start.
    pub fn replay(&self) -> Result<Replay, RecordError> {
        let (mut game, mut events) = Game::new(Arc::clone(&self.rules), self.setup.clone())
            .map_err(|e| {
                let key = match e {
                    SetupError::Players { .. } => "players",
                    SetupError::Start(_) => "start",
                    SetupError::Script(_) => "ruleset",
                };
                let span = span_at(&self.text, &[PathPart::Key(key)]).or(Some(0..0));
                Diagnostic::new(&self.path, &self.text, span, e.to_string())
            })?;
        for (i, (action, span)) in self.actions.iter().enumerate() {
            if let Err(error) = game.apply_into(action, &mut events) {
                let at = Diagnostic::new(
                    &self.path,
                    &self.text,
                    Some(span.clone()),
                    format!("action {} is illegal: {error}", i + 1),
                );
                return Err(RecordError::Illegal {
                    index: i + 1,
                    error,
                    at: Box::new(at),
                    replay: Box::new(Replay { game, events }),
                });
            }
        }
        Ok(Replay { game, events })
    }
}

fn spot_of(name: &str) -> Result<Spot, String> {
    Spot::parse(name).ok_or_else(|| {
        format!("`{name}` names no feature: use N E S W, NL NR EL ER SL SR WL WR, C or I")
    })
}

fn yes(flag: Option<bool>, key: &str, action: Action) -> Result<Action, String> {
    match flag {
        Some(true) => Ok(action),
        _ => Err(format!(
            "`{key} = false` says nothing: leave the action out or write `{key} = true`"
        )),
    }
}

/// Every key an action may have, for messages.
fn all_keys() -> String {
    let mut keys: Vec<&str> = vec!["place", "deploy"];
    for v in registry::vocabularies() {
        keys.extend(v.record_keys().iter().map(|k| k.key));
    }
    keys.push("script");
    let quoted: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
    format!("{} or `pass`", quoted.join(", "))
}

/// The action an `[[action]]` table stands for; `figures`, the ruleset's figures, are listed
/// when the table names an unknown one.
fn action_of(a: &ActionFile, figures: Option<&FigureTable>) -> Result<Action, String> {
    let core = [
        a.place.is_some(),
        a.deploy.is_some(),
        a.script.is_some(),
        a.pass.is_some(),
    ];
    if core.iter().filter(|k| **k).count() + a.mechanic.len() != 1 {
        return Err(format!("an action has exactly one of {}", all_keys()));
    }
    if let Some((key, value)) = a.mechanic.iter().next() {
        let vocabulary = vocabulary_of(key).ok_or_else(|| format!("unknown key `{key}`"))?;
        let figure = a
            .figure
            .as_deref()
            .map(|name| figure_named(name, figures))
            .transpose()?;
        return vocabulary
            .parse(key, value, figure)
            .map(Action::Mechanic)
            .map_err(|e| format!("`{key}`: {e}"));
    }
    if a.figure.is_some() && a.deploy.is_none() {
        return Err("`figure` goes with `deploy` (or a Count's `quarter` or `leave`)".into());
    }
    if let Some(parts) = &a.script {
        let Some((crate::script::Arg::Text(name), args)) = parts.split_first() else {
            return Err(
                "`script` starts with the action's name: script = [\"name\", arg, …]".into(),
            );
        };
        return Ok(Action::Script(crate::script::intern(
            crate::script::ScriptAction {
                name: name.clone(),
                args: args.to_vec(),
                label: String::new(),
            },
        )));
    }
    if let Some((x, y, degrees)) = a.place {
        let rotation = Rotation::from_degrees(degrees)
            .ok_or_else(|| format!("rotation must be 0, 90, 180 or 270, not {degrees}"))?;
        return Ok(Action::Place {
            pos: Pos::new(x, y),
            rotation,
        });
    }
    if let Some((x, y, spot)) = &a.deploy {
        let figure = match &a.figure {
            None => FigureKind::Follower,
            Some(name) => figure_named(name, figures)?,
        };
        return Ok(Action::Deploy {
            pos: Pos::new(*x, *y),
            spot: spot_of(spot)?,
            figure,
        });
    }
    yes(a.pass, "pass", Action::Pass)
}

/// The figure kind a record's `figure = "NAME"` names; an unknown one is told with every
/// figure of the ruleset, when it is known.
fn figure_named(name: &str, figures: Option<&FigureTable>) -> Result<FigureKind, String> {
    FigureKind::parse(name).ok_or_else(|| match figures {
        Some(table) => {
            let known: Vec<&str> = table.rows().iter().map(|r| r.kind.name()).collect();
            format!("unknown figure `{name}` (known: {})", known.join(", "))
        }
        None => format!("unknown figure `{name}`"),
    })
}

fn action_file(a: &Action) -> ActionFile {
    let none = ActionFile::default;
    match *a {
        Action::Place { pos, rotation } => ActionFile {
            place: Some((pos.x, pos.y, rotation.degrees() as i64)),
            ..none()
        },
        Action::Deploy { pos, spot, figure } => ActionFile {
            deploy: Some((pos.x, pos.y, spot.name().to_string())),
            figure: (figure != FigureKind::Follower).then(|| figure.name().to_string()),
            ..none()
        },
        Action::Mechanic(m) => {
            let mut mechanic = toml::Table::new();
            let mut figure = None;
            if let Some(v) = vocabulary::of(m.mechanic) {
                let (key, value) = v.record(&m);
                mechanic.insert(key.to_string(), value);
                figure = v
                    .record_figure(&m)
                    .filter(|k| *k != FigureKind::Follower)
                    .map(|k| k.name().to_string());
            }
            ActionFile {
                mechanic,
                figure,
                ..none()
            }
        }
        Action::Script(id) => {
            let a = crate::script::action(id);
            let mut parts = vec![crate::script::Arg::Text(a.name)];
            parts.extend(a.args);
            ActionFile {
                script: Some(parts),
                ..none()
            }
        }
        Action::Pass => ActionFile {
            pass: Some(true),
            ..none()
        },
    }
}

/// One action as a record's `[[action]]` table says it (for example `deploy = [0, 1, "N"]`):
/// the stable notation of actions, also used on the wire by `castellan serve`.
pub fn action_table(a: &Action) -> toml::Table {
    toml::Table::try_from(action_file(a)).unwrap_or_default()
}

/// Writes a game so far as a record (TOML). `ruleset` is how the record names its ruleset.
pub fn write(game: &Game, ruleset: &str) -> String {
    let rules = game.rules();
    let setup = game.setup();
    let name = |t: &u16| rules.tile(*t).id.to_string();
    let file = RecordFile {
        ruleset: ruleset.to_string(),
        players: setup.players.clone(),
        // Always written: besides shuffling the bag, the seed places tiles put back into it
        // (D0, V6), also under a forced draw order.
        seed: Some(setup.seed),
        draw: setup.draw.as_ref().map(|d| d.iter().map(name).collect()),
        end_after: setup.end_after,
        start: setup.start.as_ref().map(|list| {
            list.iter()
                .map(|s| StartFile {
                    tile: name(&s.tile),
                    x: s.pos.x,
                    y: s.pos.y,
                    rotation: s.rotation.degrees() as i64,
                })
                .collect()
        }),
        action: game
            .history()
            .iter()
            .map(|a| Spanned::new(0..0, action_file(a)))
            .collect(),
    };
    toml::to_string(&file).unwrap_or_else(|e| format!("# cannot write this record: {e}\n"))
}
