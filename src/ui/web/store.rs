//! The games a server holds, each one a record on disk.
//!
//! Every game lives in its own folder `DATA/games/ID/`: the record `game.toml`, rewritten
//! (atomically: a temporary file renamed over it) after every action, and the files uploaded
//! with it (ruleset, tile sets, scripts), which the record names by relative path. Everything
//! a game reads is read under [`files::within_bundle`] of its folder, so an upload can name no
//! file outside it. A restarted server finds its games again by replaying those records.
//!
//! A server keeps at most a set number of games ([`Store::open`]'s `max_games`, `castellan
//! serve --max-games`): creating or opening one more is refused before anything is written,
//! until a game is removed ([`Store::remove`]). A restarted server resumes every game it
//! finds, even more than that, and refuses new ones until enough are removed.

use super::seats::{Role, Seats};
use crate::bot;
use crate::bot::simulate::decision_seed;
use crate::data::diagnostic::Diagnostic;
use crate::data::files;
use crate::data::ruleset::Ruleset;
use crate::engine::action::Action;
use crate::engine::budget::GameClock;
use crate::engine::event::Event;
use crate::engine::fault::ScriptError;
use crate::engine::game::{Game, RuleError, Setup};
use crate::model::figure::MAX_PLAYERS;
use crate::record::{self, Record, RecordError};
use crate::ui::undo::Steps;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

/// The record file in a game's folder.
const RECORD: &str = "game.toml";
/// The most files one upload may hold.
pub const MAX_FILES: usize = 16;
/// The largest uploaded file (bytes).
pub const MAX_FILE_BYTES: usize = 256 << 10;
/// The longest player name (characters).
const MAX_NAME: usize = 32;
/// How many games a server keeps unless told otherwise (`castellan serve --max-games`).
pub const DEFAULT_MAX_GAMES: usize = 1000;

/// Why a request about games was refused. Nothing changed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// No game has this id (or the id is not one a game could have).
    #[error("no game `{0}`")]
    NotFound(String),
    /// The request is malformed or asks for something the rules forbid.
    #[error("{0}")]
    Refused(String),
    /// The request's token does not let it do this (another seat's turn, a spectator, not
    /// the host).
    #[error("{0}")]
    Forbidden(String),
    /// The page showed an older state of the game than the server has.
    #[error("{0}")]
    Stale(String),
    /// Uploaded files have problems, each rendered as `castellan validate` prints it.
    #[error("the files have errors")]
    Invalid(Vec<String>),
    /// A script failed in a hook (its file named inside the game's folder): the game stops.
    #[error("a script failed: {0}")]
    Script(String),
    /// The disk refused.
    #[error("cannot save the game: {0}")]
    Disk(String),
    /// The server holds as many games as it may keep: the limit, and how many it holds.
    #[error(
        "this server keeps at most {0} games and holds {1}: remove finished games (Games, \
         Remove) or ask its operator to raise --max-games"
    )]
    Full(usize, usize),
}

/// One uploaded file: its name (a plain file name) and its text.
#[derive(Clone, Debug, serde::Deserialize)]
pub struct Upload {
    /// The file name, as the ruleset or record refers to it.
    pub name: String,
    /// The contents.
    pub text: String,
}

/// What a new game is made of.
#[derive(Clone, Debug, Default, serde::Deserialize)]
pub struct NewGame {
    /// A shipped ruleset's name, or the name of an uploaded ruleset file (found among the
    /// uploads when empty).
    #[serde(default)]
    pub ruleset: String,
    /// Uploaded ruleset, tile set and script files.
    #[serde(default)]
    pub files: Vec<Upload>,
    /// Seats in turn order: a bot's name is that bot, any other name a person.
    pub players: Vec<String>,
    /// The bag's seed (from the clock when absent).
    #[serde(default)]
    pub seed: Option<u64>,
    /// End the game after this many tiles are drawn (a short game).
    #[serde(default)]
    pub end_after: Option<u32>,
    /// Forbids players to take back their own steps of a turn (a table rule the host
    /// chooses; undo is allowed unless this is set or the ruleset says `[table] undo = false`).
    #[serde(default)]
    pub no_undo: bool,
}

/// A game being played: the engine's game, its seats and its whole event log.
pub struct Entry {
    /// The game's id (its folder's name).
    pub id: String,
    /// The game.
    pub game: Game,
    /// How the record names the ruleset.
    pub ruleset_ref: String,
    /// Which seats are bots.
    pub bots: Vec<bool>,
    /// Every event from the set-up on.
    pub events: Vec<Event>,
    dir: PathBuf,
    /// Whether the game was removed (a request that found it before is told it is gone).
    removed: bool,
    /// Who may do what ([`Seats`]).
    seats: Seats,
    /// The steps of the turn its player may still take back.
    steps: Steps,
    /// Counts every change (an action, an undo, a seat handed over), for pages to ask what
    /// changed since the version they show.
    version: u64,
    /// After each undo: the version it made and how many events were left, so that a page
    /// that showed later events drops them.
    cuts: Vec<(u64, usize)>,
    /// Tells pages waiting for news (server push) the version after each change.
    news: tokio::sync::watch::Sender<u64>,
    /// Time spent in the actions of a scripted game since the server holds it, against
    /// `[scripting] max_game_seconds` (at most a minute).
    clock: GameClock,
    /// Why the game stopped (a script failed or spent its time): it takes no more actions,
    /// and its record, which holds every action taken, still loads.
    stopped: Option<String>,
    /// The record's text as last saved, when this server wrote it (an action then only
    /// appends to the file).
    saved: Option<String>,
}

impl Entry {
    /// Whether the game was removed from the server ([`Store::remove`]) while a request
    /// waited for it.
    pub fn is_removed(&self) -> bool {
        self.removed
    }

    /// Why the game stopped before its end, if it did: a script failed in a hook, or the
    /// game's scripts spent the time a game may spend ([`GameClock`]).
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
    }

    /// The game as a record (TOML).
    pub fn record(&self) -> String {
        record::write(&self.game, &self.ruleset_ref)
    }

    /// Answers the pending decision with legal action number `index`, if the page that asks
    /// saw the game after `expect` actions; saves the game. A refused action changes nothing.
    /// Only the host and the seat whose decision it is may act.
    pub fn act(&mut self, index: usize, expect: usize, role: Role) -> Result<(), StoreError> {
        self.check_fresh(expect)?;
        let seat = self.game.decision().player;
        Seats::may_act(role, seat, &self.game.setup().players[seat])?;
        if self.bots[seat] {
            return Err(StoreError::Refused(format!(
                "it is {}'s turn, a bot: it plays by itself",
                self.game.setup().players[seat]
            )));
        }
        self.timed(|e| {
            let legal = e.game.legal();
            let action = *legal.get(index).ok_or_else(|| {
                StoreError::Refused(format!(
                    "there is no action number {index}: this decision has {} (0 to {})",
                    legal.len(),
                    legal.len().saturating_sub(1)
                ))
            })?;
            e.apply(action, true)
        })
    }

    /// Lets the bot whose decision is pending take it, if the page saw the game after
    /// `expect` actions; saves the game. Any player's page (not a spectator's) may ask.
    pub fn bot_step(&mut self, expect: usize, role: Role) -> Result<(), StoreError> {
        self.check_fresh(expect)?;
        if role == Role::Spectator {
            return Err(StoreError::Forbidden(
                "this page watches the game: only its players move the bots".into(),
            ));
        }
        let seat = self.game.decision().player;
        let name = self
            .seats
            .stand_in(seat)
            .unwrap_or(&self.game.setup().players[seat])
            .to_string();
        match bot::by_name(&name, decision_seed(&self.game, seat)) {
            Some(mut b) if self.bots[seat] => self.timed(|e| {
                let action = b.choose(&e.game);
                e.apply(action, false)
            }),
            _ => Err(StoreError::Refused(format!(
                "it is {name}'s turn, a person: choose an action"
            ))),
        }
    }

    /// Takes back the last step of the turn, if the page saw the game after `expect` actions
    /// and `role` may act for the seat that took it: the game is exactly as before that step
    /// and the record no longer has it. Refused when the table forbids undo, or when there is
    /// no step to take back (the turn's tile not yet placed, or a step revealed something or
    /// handed the decision on).
    pub fn undo(&mut self, expect: usize, role: Role) -> Result<(), StoreError> {
        self.check_fresh(expect)?;
        if !self.steps.allowed() {
            return Err(StoreError::Refused(
                "this game is played without undo (its ruleset's `[table] undo = false`, or \
                 made so): a step is final"
                    .into(),
            ));
        }
        let seat = self.game.decision().player;
        Seats::may_act(role, seat, &self.game.setup().players[seat])?;
        let Some((before, kept)) = self.steps.take_back() else {
            return Err(StoreError::Refused(
                "nothing to take back: only your own steps since your tile was drawn can be".into(),
            ));
        };
        let after = std::mem::replace(&mut self.game, before);
        if let Err(e) = self.save() {
            let before = std::mem::replace(&mut self.game, after);
            self.steps.put_back(before, kept);
            return Err(e);
        }
        self.events.truncate(kept);
        self.changed();
        self.cuts.push((self.version, kept));
        Ok(())
    }

    /// Hands `seat` to the bot `bot`, or back to its player (`None`); the host's alone.
    pub fn hand(&mut self, seat: usize, bot: Option<String>, role: Role) -> Result<(), StoreError> {
        Seats::host_only(role, "hand seats to bots")?;
        let players = &self.game.setup().players;
        let name = players.get(seat).ok_or_else(|| {
            StoreError::Refused(format!(
                "there is no seat {seat}: this game has {} (0 to {})",
                players.len(),
                players.len() - 1
            ))
        })?;
        if bot::is_bot_name(name) {
            return Err(StoreError::Refused(format!(
                "{name} is a bot already, from the start"
            )));
        }
        if let Some(b) = &bot
            && !bot::NAMES.contains(&b.as_str())
        {
            return Err(StoreError::Refused(format!(
                "no bot `{}` (known: {})",
                b.chars().take(32).collect::<String>(),
                bot::NAMES.join(", ")
            )));
        }
        let mut seats = self.seats.clone();
        seats.hand(seat, bot);
        seats.save(&self.dir)?;
        self.seats = seats;
        self.bots[seat] = self.seats.stand_in(seat).is_some();
        self.steps.clear();
        self.changed();
        Ok(())
    }

    /// What `token` lets its holder do in this game.
    pub fn role(&self, token: Option<&str>) -> Role {
        self.seats.role(token)
    }

    /// The join links (for the host).
    pub fn links(&self) -> serde_json::Value {
        self.seats.links(&self.id)
    }

    /// Whether the seat whose decision it is has a step it may take back.
    pub fn can_undo(&self) -> bool {
        self.steps.any()
    }

    /// The game's version: it starts at the server run's first version (its start time in
    /// ms × 1024) and counts the changes since the server opened the game.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// News of the game's changes (the version after each), for server push.
    pub fn subscribe(&self) -> tokio::sync::watch::Receiver<u64> {
        self.news.subscribe()
    }

    /// How many of its first `shown` events a page that showed version `since` may keep: all
    /// of them unless an undo since then cut the log shorter.
    pub fn events_kept(&self, since: u64, shown: usize) -> usize {
        self.cuts
            .iter()
            .filter(|(v, _)| *v > since)
            .map(|(_, kept)| *kept)
            .fold(shown.min(self.events.len()), usize::min)
    }

    /// Saves the game's record: when the text saved before is still its beginning (an action
    /// was taken), only what follows it is appended, which the file system writes at once;
    /// else (an undo, a game just opened) the whole record is written anew, atomically. A save
    /// that fails leaves the next one to write the whole record.
    fn save(&mut self) -> Result<(), StoreError> {
        let text = self.record();
        let done = match &self.saved {
            Some(old) if text.starts_with(old.as_str()) => append(&self.dir, &text[old.len()..]),
            _ => save(&self.dir, &text),
        };
        self.saved = done.is_ok().then_some(text);
        done
    }

    /// Counts a change and tells the pages waiting for news.
    fn changed(&mut self) {
        self.version += 1;
        self.news.send_replace(self.version);
    }

    /// Runs one step of the game, charging its time to the game's [`GameClock`]; stops the
    /// game when a script fails or the scripts have spent the time a game may spend.
    fn timed(
        &mut self,
        step: impl FnOnce(&mut Self) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let start = Instant::now();
        let done = step(self);
        if let Err(StoreError::Script(why)) = &done {
            self.stopped = Some(format!("the game stopped: {why}"));
        } else if let Err(over) = self.clock.charge(start) {
            self.stopped = Some(hide_folder(&self.dir, &format!("the game stopped: {over}")));
        }
        match (done, &self.stopped) {
            (Err(StoreError::Script(_)), Some(why)) => Err(StoreError::Refused(why.clone())),
            (done, _) => done,
        }
    }

    fn check_fresh(&self, expect: usize) -> Result<(), StoreError> {
        if let Some(why) = &self.stopped {
            return Err(StoreError::Refused(why.clone()));
        }
        if self.game.is_over() {
            return Err(StoreError::Refused("the game is over".into()));
        }
        let now = self.game.history().len();
        if expect != now {
            return Err(StoreError::Stale(format!(
                "this page showed the game after {expect} actions, but it has {now} now \
                 (another tab or a double click?): nothing was done, look again"
            )));
        }
        Ok(())
    }

    /// Applies a legal action and saves; on a refusal or a failed save the game is as before.
    /// Whether the step can be taken back later ([`Entry::undo`]) is for [`Steps`] to say.
    fn apply(&mut self, action: Action, by_person: bool) -> Result<(), StoreError> {
        let before = self.game.clone();
        let events = self.game.apply(&action).map_err(|e| match e {
            RuleError::Script(failed) => StoreError::Script(script_failure(&self.dir, failed)),
            other => StoreError::Refused(format!("the rules refuse this action: {other}")),
        })?;
        if let Err(e) = self.save() {
            self.game = before;
            return Err(e);
        }
        self.steps
            .taken(before, self.events.len(), &self.game, &events, by_person);
        self.events.extend(events);
        self.changed();
        Ok(())
    }
}

/// Every game of a server, by id, and the folder that keeps them.
pub struct Store {
    games_dir: PathBuf,
    games: Mutex<Games>,
    shipped: Shipped,
    max_games: usize,
    next: AtomicU64,
}

/// The games held, and how many are being made: both under one lock, so that the limit is
/// checked and a place taken at once.
#[derive(Default)]
struct Games {
    by_id: BTreeMap<String, Arc<Mutex<Entry>>>,
    making: usize,
}

/// A place taken for a game being made: given back when dropped unless the game was kept
/// ([`Slot::fill`]), also when making it fails or panics.
struct Slot<'a> {
    store: &'a Store,
    filled: bool,
}

impl Slot<'_> {
    /// Keeps the game made in this place.
    fn fill(mut self, id: String, entry: Entry) {
        let mut games = lock(&self.store.games);
        games.by_id.insert(id, Arc::new(Mutex::new(entry)));
        games.making -= 1;
        self.filled = true;
    }
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        if !self.filled {
            lock(&self.store.games).making -= 1;
        }
    }
}

/// Locks a mutex, also after a panic elsewhere (every change to a game is all-or-nothing).
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Store {
    /// Opens (creating if needed) the games folder under `data`, and resumes every game in it
    /// (all of them, even more than `max_games`). The store then makes new games while it
    /// holds fewer than `max_games`. Returns the store and one message per game that could not
    /// be resumed.
    pub fn open(data: &Path, max_games: usize) -> Result<(Store, Vec<String>), String> {
        let games_dir = data.join("games");
        std::fs::create_dir_all(&games_dir)
            .map_err(|e| format!("cannot make {}: {e}", games_dir.display()))?;
        // Absolute, so that messages about uploads can name files relative to their folder.
        let games_dir = games_dir
            .canonicalize()
            .map_err(|e| format!("cannot find {}: {e}", games_dir.display()))?;
        let store = Store {
            games_dir,
            games: Mutex::default(),
            shipped: Shipped::default(),
            max_games,
            next: AtomicU64::new(0),
        };
        let mut problems = Vec::new();
        let listing = std::fs::read_dir(&store.games_dir)
            .map_err(|e| format!("cannot read {}: {e}", store.games_dir.display()))?;
        for dir in listing.flatten() {
            let id = dir.file_name().to_string_lossy().into_owned();
            if !valid_id(&id) || !dir.path().join(RECORD).is_file() {
                continue;
            }
            match load(&id, &dir.path(), &store.shipped) {
                Ok(entry) => {
                    lock(&store.games)
                        .by_id
                        .insert(id, Arc::new(Mutex::new(entry)));
                }
                Err(e) => problems.push(format!("game {id} not resumed: {}", messages(&e))),
            }
        }
        Ok((store, problems))
    }

    /// The game with this id.
    pub fn get(&self, id: &str) -> Result<Arc<Mutex<Entry>>, StoreError> {
        if !valid_id(id) {
            return Err(StoreError::NotFound(id.chars().take(64).collect()));
        }
        lock(&self.games)
            .by_id
            .get(id)
            .cloned()
            .ok_or_else(|| StoreError::NotFound(id.to_string()))
    }

    /// Every game, by id.
    pub fn all(&self) -> Vec<Arc<Mutex<Entry>>> {
        lock(&self.games).by_id.values().cloned().collect()
    }

    /// Removes the game with this id: its folder, then the game itself; only its host's
    /// `token` may. A request already waiting for the game finds it removed.
    pub fn remove(&self, id: &str, token: Option<&str>) -> Result<(), StoreError> {
        let game = self.get(id)?;
        let mut entry = lock(&game);
        if entry.removed {
            return Err(StoreError::NotFound(id.to_string()));
        }
        Seats::host_only(entry.role(token), "remove the game")?;
        std::fs::remove_dir_all(&entry.dir)
            .map_err(|e| StoreError::Disk(format!("cannot remove game {id}'s folder: {e}")))?;
        entry.removed = true;
        lock(&self.games).by_id.remove(id);
        Ok(())
    }

    /// Takes a place for one more game, or refuses when the store holds (or is making) as
    /// many as it may keep.
    fn reserve(&self) -> Result<Slot<'_>, StoreError> {
        let mut games = lock(&self.games);
        let held = games.by_id.len() + games.making;
        if held >= self.max_games {
            return Err(StoreError::Full(self.max_games, held));
        }
        games.making += 1;
        Ok(Slot {
            store: self,
            filled: false,
        })
    }

    /// Starts a game; returns its id.
    pub fn create(&self, new: &NewGame) -> Result<String, StoreError> {
        check_players(&new.players)?;
        let slot = self.reserve()?;
        let (id, dir) = self.fresh_dir()?;
        let made = files::within_bundle(&dir, || start(&id, &dir, new, &self.shipped));
        keep(slot, id, &dir, made)
    }

    /// Opens an uploaded record (with the files it names) as a new game, to go on playing it.
    pub fn open_record(&self, uploads: &[Upload]) -> Result<String, StoreError> {
        check_sizes(uploads)?;
        let record = uploads.iter().find(|u| is_record(&u.text)).ok_or_else(|| {
            StoreError::Refused(
                "no record among the files: a record has `ruleset` and `players`".into(),
            )
        })?;
        let others: Vec<Upload> = uploads
            .iter()
            .filter(|u| !std::ptr::eq(*u, record))
            .cloned()
            .collect();
        let slot = self.reserve()?;
        let (id, dir) = self.fresh_dir()?;
        let made = write_uploads(&dir, &others)
            .and_then(|()| save(&dir, &record.text))
            .and_then(|()| load(&id, &dir, &self.shipped));
        keep(slot, id, &dir, made)
    }

    /// A new game id and its (new, empty) folder.
    fn fresh_dir(&self) -> Result<(String, PathBuf), StoreError> {
        let clock = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        loop {
            let n = self.next.fetch_add(1, Ordering::Relaxed);
            let id = format!("g{:x}{:03x}", clock, n & 0xfff);
            let dir = self.games_dir.join(&id);
            match std::fs::create_dir(&dir) {
                Ok(()) => return Ok((id, dir)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(StoreError::Disk(e.to_string())),
            }
        }
    }
}

/// The shipped rulesets a server's games play, each loaded once and shared by all its games
/// (so that what is worked out once per ruleset, such as the tiles' drawings, serves them all).
#[derive(Default)]
struct Shipped(Mutex<BTreeMap<String, Arc<Ruleset>>>);

impl Shipped {
    /// The shipped ruleset `name`, loaded the first time it is asked for.
    fn get(&self, name: &str) -> Result<Arc<Ruleset>, Diagnostic> {
        if let Some(r) = lock(&self.0).get(name) {
            return Ok(Arc::clone(r));
        }
        let rules = Ruleset::load(name)?;
        Ok(Arc::clone(
            lock(&self.0).entry(name.to_string()).or_insert(rules),
        ))
    }
}

/// Keeps a game just made in its place, or removes its folder (and gives the place back) if
/// making it failed.
fn keep(
    slot: Slot<'_>,
    id: String,
    dir: &Path,
    made: Result<Entry, StoreError>,
) -> Result<String, StoreError> {
    match made {
        Ok(entry) => {
            slot.fill(id.clone(), entry);
            Ok(id)
        }
        Err(e) => {
            let _ = std::fs::remove_dir_all(dir);
            Err(e)
        }
    }
}

/// Whether `id` can be a game's id: 1 to 40 lowercase letters and digits, so it can name no
/// path but its own folder.
pub fn valid_id(id: &str) -> bool {
    (1..=40).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

/// Whether an uploaded file name is a plain name of a data file: letters, digits, `-`, `_`
/// and dots (not first), ending in `.toml` or `.rhai`, at most 64 characters, and not the name
/// of a file the server keeps in a game's folder (the record, the seats' tokens).
pub fn valid_file_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && !name.starts_with('.')
        && !name.contains("..")
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        && (name.ends_with(".toml") || name.ends_with(".rhai"))
        && name != RECORD
        && name != super::seats::FILE
}

/// Checks the seats' names in time linear in their number: the count first (no game has more
/// than [`MAX_PLAYERS`] seats), then each name once, against a set of the names before it.
fn check_players(players: &[String]) -> Result<(), StoreError> {
    if players.len() > MAX_PLAYERS {
        return Err(StoreError::Refused(format!(
            "{} players: a game has at most {MAX_PLAYERS} seats",
            players.len()
        )));
    }
    let mut seen = HashSet::with_capacity(players.len());
    for (i, p) in players.iter().enumerate() {
        if p.trim().is_empty() || p.trim() != p || p.chars().count() > MAX_NAME {
            return Err(StoreError::Refused(format!(
                "player {} needs a name of 1 to {MAX_NAME} characters without spaces around it",
                i + 1
            )));
        }
        if !seen.insert(p.as_str()) {
            return Err(StoreError::Refused(format!(
                "two players are called `{p}`: names must be different (each bot plays once)"
            )));
        }
    }
    Ok(())
}

/// Writes the uploaded files into a game's folder, after checking names and sizes.
pub fn write_uploads(dir: &Path, uploads: &[Upload]) -> Result<(), StoreError> {
    check_uploads(uploads)?;
    for u in uploads {
        std::fs::write(dir.join(&u.name), &u.text).map_err(|e| StoreError::Disk(e.to_string()))?;
    }
    Ok(())
}

/// Checks the names and sizes of uploaded files, before anything reads them.
fn check_uploads(uploads: &[Upload]) -> Result<(), StoreError> {
    check_sizes(uploads)?;
    match uploads.iter().find(|u| !valid_file_name(&u.name)) {
        Some(u) => Err(StoreError::Refused(format!(
            "`{}` is not a file name castellan accepts: letters, digits, `-`, `_` and `.`, \
             ending in .toml or .rhai, no folders",
            u.name.chars().take(80).collect::<String>()
        ))),
        None => Ok(()),
    }
}

/// Checks the number and sizes of uploaded files, before anything reads them.
fn check_sizes(uploads: &[Upload]) -> Result<(), StoreError> {
    if uploads.len() > MAX_FILES {
        return Err(StoreError::Refused(format!(
            "at most {MAX_FILES} files at a time, not {}",
            uploads.len()
        )));
    }
    match uploads.iter().find(|u| u.text.len() > MAX_FILE_BYTES) {
        Some(u) => Err(StoreError::Refused(format!(
            "`{}` has {} bytes; an uploaded file may have at most {MAX_FILE_BYTES}",
            u.name.chars().take(80).collect::<String>(),
            u.text.len()
        ))),
        None => Ok(()),
    }
}

/// Whether a file's text is a record (it has `ruleset` and `players`).
fn is_record(text: &str) -> bool {
    toml::from_str::<toml::Table>(text)
        .is_ok_and(|t| t.contains_key("players") && t.contains_key("ruleset"))
}

/// The problems of the uploaded data files, as `castellan validate` prints them but naming
/// the files as uploaded.
fn problems(dir: &Path, uploads: &[Upload]) -> Vec<String> {
    uploads
        .iter()
        .filter(|u| u.name.ends_with(".toml"))
        .filter_map(|u| crate::ui::validate::check(&dir.join(&u.name)).err())
        .map(|d| shown(dir, d))
        .collect()
}

/// A diagnostic rendered with its file named relative to the game's folder.
fn shown(dir: &Path, mut d: Diagnostic) -> String {
    if let Ok(rel) = d.file.strip_prefix(dir) {
        d.file = rel.to_path_buf();
    }
    hide_folder(dir, &d.render())
}

/// A message with the game's folder left out of every path it names (a path the message
/// quotes from inside the game folder then reads as the upload named it), so that no answer
/// shows where the server keeps its games.
fn hide_folder(dir: &Path, message: &str) -> String {
    let folder = dir.display().to_string();
    message
        .replace(&format!("{folder}/"), "")
        .replace(&folder, ".")
}

/// Makes a new game in `dir` (inside the bundle of `dir`).
fn start(id: &str, dir: &Path, new: &NewGame, shipped: &Shipped) -> Result<Entry, StoreError> {
    write_uploads(dir, &new.files)?;
    let bad = problems(dir, &new.files);
    if !bad.is_empty() {
        return Err(StoreError::Invalid(bad));
    }
    let reference = ruleset_reference(new)?;
    let rules = if new.files.is_empty() {
        shipped.get(&reference)
    } else {
        Ruleset::load(&dir.join(&reference).to_string_lossy())
    }
    .map_err(|d| StoreError::Invalid(vec![shown(dir, d)]))?;
    let seed = new.seed.unwrap_or_else(crate::ui::play::clock_seed);
    let mut setup = Setup::new(new.players.clone(), seed);
    setup.end_after = new.end_after;
    let (game, events) = Game::new(rules, setup).map_err(|e| StoreError::Refused(e.to_string()))?;
    let seats = Seats::new(game.setup().players.len(), !new.no_undo)?;
    seats.save(dir)?;
    let mut entry = entry(id, dir, game, reference, events, seats);
    entry.save()?;
    Ok(entry)
}

/// The ruleset a new game names: a shipped name, or an uploaded file.
fn ruleset_reference(new: &NewGame) -> Result<String, StoreError> {
    if new.files.is_empty() {
        return if crate::data::library::builtin_names(crate::data::library::Kind::Ruleset)
            .contains(&new.ruleset.as_str())
        {
            Ok(new.ruleset.clone())
        } else {
            Err(StoreError::Refused(format!(
                "no shipped ruleset `{}`",
                new.ruleset.chars().take(64).collect::<String>()
            )))
        };
    }
    if new.files.iter().any(|f| f.name == new.ruleset) {
        return Ok(new.ruleset.clone());
    }
    let rulesets: Vec<&Upload> = new
        .files
        .iter()
        .filter(|f| f.name.ends_with(".toml"))
        .filter(|f| toml::from_str::<toml::Table>(&f.text).is_ok_and(|t| !t.contains_key("tile")))
        .collect();
    match rulesets.as_slice() {
        [one] => Ok(one.name.clone()),
        [] => Err(StoreError::Refused(
            "no ruleset among the uploaded files (a tile set alone is not a game)".into(),
        )),
        _ => Err(StoreError::Refused(
            "several uploaded files could be the ruleset: say which".into(),
        )),
    }
}

fn entry(
    id: &str,
    dir: &Path,
    game: Game,
    ruleset_ref: String,
    events: Vec<Event>,
    seats: Seats,
) -> Entry {
    let bots = game
        .setup()
        .players
        .iter()
        .enumerate()
        .map(|(seat, p)| bot::is_bot_name(p) || seats.stand_in(seat).is_some())
        .collect();
    let clock = GameClock::new(game.rules());
    let steps = Steps::new(Steps::allowed_in(&game, !seats.undo()));
    Entry {
        id: id.to_string(),
        game,
        ruleset_ref,
        bots,
        events,
        dir: dir.to_path_buf(),
        removed: false,
        seats,
        steps,
        version: first_version(),
        cuts: Vec::new(),
        news: tokio::sync::watch::Sender::new(first_version()),
        clock,
        stopped: None,
        saved: None,
    }
}

/// Reads and replays the record in a game's folder.
fn load(id: &str, dir: &Path, shipped: &Shipped) -> Result<Entry, StoreError> {
    files::within_bundle(dir, || {
        let mut record = Record::load(&dir.join(RECORD)).map_err(|d| invalid(dir, d))?;
        if plays_shipped(dir, &record.ruleset_ref) {
            record.rules = shipped
                .get(&record.ruleset_ref)
                .map_err(|d| invalid(dir, d))?;
        }
        let replay = record.replay().map_err(|e| match e {
            RecordError::Invalid(d) => invalid(dir, *d),
            RecordError::Illegal { at, .. } => invalid(dir, *at),
        })?;
        let seats = Seats::load_or_make(dir, replay.game.setup().players.len())?;
        Ok(entry(
            id,
            dir,
            replay.game,
            record.ruleset_ref.clone(),
            replay.events,
            seats,
        ))
    })
}

/// Whether the game in `dir` plays the shipped ruleset its record names: the name is a shipped
/// one and no ruleset was uploaded with the game (its folder holds no other data file).
fn plays_shipped(dir: &Path, reference: &str) -> bool {
    crate::data::library::builtin_names(crate::data::library::Kind::Ruleset).contains(&reference)
        && std::fs::read_dir(dir).is_ok_and(|files| {
            // Only uploads have names an upload may have.
            files
                .flatten()
                .all(|f| !valid_file_name(&f.file_name().to_string_lossy()))
        })
}

/// A script's failure, its file named relative to the game's folder (or by its name alone, for
/// a shipped script), so that no server path is shown.
fn script_failure(dir: &Path, mut e: ScriptError) -> String {
    let file = Path::new(&e.file);
    e.file = match file.strip_prefix(dir) {
        Ok(rel) => rel.display().to_string(),
        Err(_) => file
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
    };
    hide_folder(dir, &e.to_string())
}

fn invalid(dir: &Path, d: Diagnostic) -> StoreError {
    StoreError::Invalid(vec![shown(dir, d)])
}

/// Every message of an error, one per line.
pub fn messages(e: &StoreError) -> String {
    match e {
        StoreError::Invalid(list) => list.join("\n"),
        other => other.to_string(),
    }
}

/// Appends `text` to the record. (A rewrite costs the file system far more: replacing a file's
/// contents makes it flush them at once, milliseconds that every action would wait for.)
fn append(dir: &Path, text: &str) -> Result<(), StoreError> {
    use std::io::Write as _;
    std::fs::OpenOptions::new()
        .append(true)
        .open(dir.join(RECORD))
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| StoreError::Disk(e.to_string()))
}

/// Writes the record atomically: a temporary file, then renamed over the old one.
fn save(dir: &Path, text: &str) -> Result<(), StoreError> {
    let tmp = dir.join("game.toml.tmp");
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, dir.join(RECORD)))
        .map_err(|e| StoreError::Disk(e.to_string()))
}

/// The version a game opened by this server run starts at: the run's start in milliseconds,
/// times 2^10. A run cannot make 1,024 changes a millisecond, so a page that last saw a version
/// from before a restart holds a smaller number than any of the restarted game's, and is sent
/// the game anew rather than told that nothing changed. (Below 2^53, which pages read exactly,
/// until about the year 2250.)
fn first_version() -> u64 {
    static FIRST: std::sync::LazyLock<u64> = std::sync::LazyLock::new(|| {
        let millis = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        u64::try_from(millis).map_or(0, |m| m << 10)
    });
    *FIRST
}

#[cfg(test)]
mod tests {
    use super::first_version;

    /// A run's first version lies after every version a run started earlier could have
    /// reached (its start, in ms since 2026-01-01, times 2^10) and stays exact in a page's
    /// JavaScript numbers (below 2^53).
    #[test]
    fn a_run_starts_its_versions_past_any_earlier_run() {
        let v = first_version();
        assert_eq!(v, first_version(), "one start per run");
        assert!(v > 1_767_225_600_000 << 10, "{v}");
        assert!(v < 1 << 53, "{v}");
        assert_eq!(v % 1024, 0);
    }
}
