//! The terminal game: people and bots around one board.
//!
//! Every seat is a player name; a name that is a bot's name ([`crate::bot::NAMES`]) is that
//! bot, any other name is a person. People play in turns at the same terminal (hotseat): when
//! one must decide, the game shows the board, the drawn tile, the scores and the legal actions
//! in plain words ([`crate::ui::describe`]), and reads the number of the chosen action, one line at
//! a time, so a game can also be driven by piping lines into it. Every event is printed as it
//! happens, naming the rule behind it.
//!
//! At the prompt, `save FILE` writes the game so far as a record ([`crate::record::write`]),
//! which `castellan play --resume FILE` continues; `help` and `quit` do what they say.
//!
//! Bots are seeded afresh for every decision from the game's seed, the seat and the number of
//! actions so far, so a game continued from a saved record goes on exactly as it would have
//! without the save.

use crate::bot;
use crate::bot::simulate::decision_seed;
use crate::data::diagnostic::Diagnostic;
use crate::data::library;
use crate::data::ruleset::Ruleset;
use crate::engine::action::{Action, DecisionKind};
use crate::engine::budget::{GameClock, OverTime};
use crate::engine::event::Event;
use crate::engine::game::{Game, Setup};
use crate::engine::show::{self, Tone};
use crate::engine::words;
use crate::model::geometry::Rotation;
use crate::record::{self, Record, RecordError};
use crate::registry;
use crate::ui::describe;
use crate::ui::render;
use crate::ui::undo::Steps;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

/// The ruleset a new game uses unless told otherwise.
pub const DEFAULT_RULESET: &str = "hig";
/// The seats of a new game unless told otherwise.
pub const DEFAULT_PLAYERS: &str = "You,greedy";

/// How to start (or continue) a game.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Ruleset name or path ([`DEFAULT_RULESET`] if none).
    pub ruleset: Option<String>,
    /// Comma-separated seat names ([`DEFAULT_PLAYERS`] if none).
    pub players: Option<String>,
    /// Bag seed (from the clock if none).
    pub seed: Option<u64>,
    /// Continue the game in this record instead of starting one.
    pub resume: Option<PathBuf>,
    /// Colour the output (ANSI).
    pub colour: bool,
    /// Repeat every line read after its prompt (for piped input, so the output reads well).
    pub echo: bool,
    /// Every step is final: `undo` takes nothing back (as the ruleset's `[table] undo = false`
    /// does).
    pub no_undo: bool,
}

/// How a game session ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The game was played to its end; the final scores by seat.
    Finished(Vec<u32>),
    /// A player typed `quit`.
    Quit,
}

/// Why a session could not go on.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The options do not describe a game (bad player list, wrong number of players, …).
    #[error("{0}")]
    Options(String),
    /// A ruleset or record file is wrong.
    #[error("{}", .0.render())]
    File(Box<Diagnostic>),
    /// The game's scripts spent the time a whole game may spend ([`GameClock`]).
    #[error("{0} (the game is not saved beyond your last `save`)")]
    OverTime(#[from] OverTime),
    /// The input ended while a person still had to decide.
    #[error("the input ended before the game did (`save FILE` keeps a game for later)")]
    InputEnded,
    /// Reading or writing the terminal failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

impl From<Diagnostic> for PlayError {
    fn from(d: Diagnostic) -> Self {
        PlayError::File(Box::new(d))
    }
}

/// Runs the game on the process's terminal (stdin, stdout), with colour when stdout is a
/// terminal and `NO_COLOR` is not set, and reports problems on stderr. The exit code is 0 when
/// the game was finished or quit, 1 otherwise.
pub fn main(mut options: Options) -> ExitCode {
    let stdout = std::io::stdout();
    let stdin = std::io::stdin();
    options.colour =
        stdout.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    options.echo = !stdin.is_terminal();
    let mut out = stdout.lock();
    let mut input = stdin.lock();
    match run(&options, &mut input, &mut out) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = out.flush();
            // A closed standard error leaves only the exit status to tell.
            match e {
                // A diagnostic says `error:` itself, with the file, line and column.
                PlayError::File(d) => {
                    let _ = writeln!(std::io::stderr(), "{}", d.render());
                }
                other => {
                    let _ = writeln!(std::io::stderr(), "error: {other}");
                }
            }
            ExitCode::from(1)
        }
    }
}

/// Plays a game, reading people's choices line by line from `input` and writing everything to
/// `out`.
pub fn run(
    options: &Options,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Outcome, PlayError> {
    let mut session = match &options.resume {
        Some(path) => Session::resume(path, options, out)?,
        None => Session::start(options, out)?,
    };
    session.play(input, out)
}

/// A game with its seats.
struct Session {
    game: Game,
    /// The ruleset: a shipped name, or its file's absolute path (a saved record names the
    /// file relative to the record's folder: [`record_ruleset`]).
    ruleset_ref: String,
    /// Names to show, by seat (made unique).
    names: Vec<String>,
    /// The bot in each seat (by name), or `None` for a person.
    bots: Vec<Option<String>>,
    colour: bool,
    echo: bool,
    /// How many actions the game had when it was last saved (or loaded).
    saved: usize,
    /// The file this session last saved to (saving there again needs no confirmation).
    saved_to: Option<PathBuf>,
    /// `quit` was typed once with unsaved moves: a second one leaves.
    quitting: bool,
    /// The steps of the turn the person may still take back (`undo`).
    steps: Steps,
    /// The time the game's scripts spent, against what a whole game may spend.
    clock: GameClock,
}

/// What a person typed at their turn.
enum Choice {
    /// Take this action.
    Act(Action),
    /// Take back the last step of the turn.
    Undo,
    /// Leave the game.
    Quit,
}

impl Session {
    fn start(options: &Options, out: &mut dyn Write) -> Result<Session, PlayError> {
        let reference = options.ruleset.as_deref().unwrap_or(DEFAULT_RULESET);
        let rules = Ruleset::load(reference)?;
        let players = parse_players(options.players.as_deref().unwrap_or(DEFAULT_PLAYERS))?;
        let seed = options.seed.unwrap_or_else(clock_seed);
        let (game, events) = Game::new(Arc::clone(&rules), Setup::new(players, seed))
            .map_err(|e| PlayError::Options(e.to_string()))?;
        let session = Session::new(game, saved_ruleset(reference, Path::new(".")), options);
        writeln!(
            out,
            "{} with {} (seed {seed})",
            session.paint(Paint::Bold, &format!("castellan: `{}`", rules.name)),
            session.seats()
        )?;
        session.print_events(&events, out)?;
        Ok(session)
    }

    fn resume(path: &Path, options: &Options, out: &mut dyn Write) -> Result<Session, PlayError> {
        let record = Record::load(path)?;
        let replay = match record.replay() {
            Ok(r) => r,
            Err(RecordError::Invalid(d)) => return Err(PlayError::File(d)),
            Err(RecordError::Illegal { at, .. }) => return Err(PlayError::File(at)),
        };
        let near = path.parent().unwrap_or(Path::new("."));
        let session = Session::new(
            replay.game,
            saved_ruleset(&record.ruleset_ref, near),
            options,
        );
        writeln!(
            out,
            "{} {}: `{}` with {}, {} actions so far, turn {}",
            session.paint(Paint::Bold, "castellan: resuming"),
            path.display(),
            record.rules.name,
            session.seats(),
            session.game.history().len(),
            session.game.turn()
        )?;
        Ok(session)
    }

    fn new(game: Game, ruleset_ref: String, options: &Options) -> Session {
        let players = &game.setup().players;
        let bots = players
            .iter()
            .map(|p| bot::is_bot_name(p).then(|| p.clone()))
            .collect();
        let names = unique_names(players);
        let saved = game.history().len();
        let clock = GameClock::new(game.rules());
        let steps = Steps::new(Steps::allowed_in(&game, options.no_undo));
        Session {
            game,
            ruleset_ref,
            names,
            bots,
            colour: options.colour,
            echo: options.echo,
            saved,
            saved_to: None,
            quitting: false,
            steps,
            clock,
        }
    }

    /// "Ann (person) and greedy (bot)".
    fn seats(&self) -> String {
        let seats: Vec<String> = self
            .names
            .iter()
            .zip(&self.bots)
            .map(|(n, b)| format!("{n} ({})", if b.is_some() { "bot" } else { "person" }))
            .collect();
        seats.join(", ")
    }

    fn play(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<Outcome, PlayError> {
        loop {
            if self.game.is_over() {
                self.print_final(out)?;
                return Ok(Outcome::Finished(self.game.scores().to_vec()));
            }
            let seat = self.game.decision().player;
            // A bot's time to choose counts as the scripts' (they may filter its options); a
            // person's does not.
            let mut started = Instant::now();
            let action = match &self.bots[seat] {
                Some(name) => {
                    let seed = decision_seed(&self.game, seat);
                    match bot::by_name(name, seed) {
                        Some(mut b) => b.choose(&self.game),
                        None => Action::Pass,
                    }
                }
                None => match self.ask(seat, input, out)? {
                    Choice::Act(action) => {
                        started = Instant::now();
                        action
                    }
                    Choice::Undo => {
                        self.undo(out)?;
                        continue;
                    }
                    Choice::Quit => {
                        writeln!(out, "quit: the game is not saved beyond your last `save`")?;
                        return Ok(Outcome::Quit);
                    }
                },
            };
            let before = self.game.clone();
            match self.game.apply(&action) {
                Ok(events) => {
                    let by_person = self.bots[seat].is_none();
                    self.steps.taken(before, 0, &self.game, &events, by_person);
                    self.print_events(&events, out)?;
                    self.clock.charge(started)?;
                }
                Err(e) => {
                    // Every offered action is legal; say so loudly if one ever is not.
                    writeln!(out, "the engine refused {}: {e}", words::action(&action))?;
                    return Err(PlayError::Options(format!(
                        "the engine refused a legal action: {e}"
                    )));
                }
            }
        }
    }

    /// Takes back the last step of the turn ([`Steps`]): the game is as it was before it.
    fn undo(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let step = self.game.history().last().map(words::action);
        if let Some((before, _)) = self.steps.take_back() {
            self.game = before;
            if self.game.history().len() < self.saved {
                // The saved file has the step: the game differs from it now.
                self.saved = usize::MAX;
            }
            let step = step.map_or(String::new(), |s| format!(" ({s})"));
            writeln!(out, "took back your last step{step}")?;
        }
        Ok(())
    }

    /// Asks the person in `seat` to choose an action, to take back a step or to quit.
    fn ask(
        &mut self,
        seat: usize,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
    ) -> Result<Choice, PlayError> {
        let legal = self.game.legal();
        if legal.is_empty() {
            return Err(PlayError::Options(format!(
                "the game offers {} no choice at all",
                self.names[seat]
            )));
        }
        let words = choice_words(&self.game, &legal, &self.names);
        self.show(seat, &words, false, out)?;
        let mut line = String::new();
        loop {
            let range = match legal.len() {
                1 => "1".to_string(),
                n => format!("1-{n}"),
            };
            write!(
                out,
                "{}",
                self.paint(
                    Paint::Bold,
                    &format!("{}, choose {range} (or help): ", self.names[seat])
                )
            )?;
            out.flush()?;
            line.clear();
            if input.read_line(&mut line)? == 0 {
                writeln!(out)?;
                return Err(PlayError::InputEnded);
            }
            let text = line.trim();
            if self.echo {
                writeln!(out, "{text}")?;
            }
            let (command, rest) = match text.split_once(char::is_whitespace) {
                Some((c, r)) => (c, r.trim()),
                None => (text, ""),
            };
            // A second `quit` must follow the first at once.
            let quitting = std::mem::take(&mut self.quitting);
            match command {
                "" => writeln!(
                    out,
                    "type the number of an action (1-{}), or help",
                    legal.len()
                )?,
                "help" | "?" => writeln!(out, "{}", HELP)?,
                "quit" | "exit" if quitting || self.game.history().len() == self.saved => {
                    return Ok(Choice::Quit);
                }
                "undo" if self.steps.any() => return Ok(Choice::Undo),
                "undo" if !self.steps.allowed() => writeln!(
                    out,
                    "this game is played without undo (--no-undo, or the ruleset's `[table] \
                     undo = false`): every step is final"
                )?,
                "undo" => writeln!(
                    out,
                    "nothing to take back: only your own steps since your tile was drawn can \
                     be, until the turn ends"
                )?,
                "quit" | "exit" => {
                    self.quitting = true;
                    writeln!(
                        out,
                        "the game has moves that are not saved: `save FILE` keeps them; type \
                         `{command}` again to leave without saving"
                    )?;
                }
                "board" | "show" | "list" => self.show(seat, &words, rest == "all", out)?,
                "choices" => {
                    let (width, height) = terminal_size();
                    for line in choice_lines(&words, width, height, usize::MAX) {
                        writeln!(out, "{line}")?;
                    }
                }
                "key" => {
                    writeln!(out, "key: {}", self.marks())?;
                    for line in legend_lines(&self.game, terminal_size().0) {
                        writeln!(out, "{line}")?;
                    }
                }
                "save" | "save!" if rest.is_empty() => {
                    writeln!(out, "save needs a file name: save FILE")?
                }
                "save" => self.save(Path::new(rest), false, out)?,
                "save!" => self.save(Path::new(rest), true, out)?,
                _ => match text.parse::<usize>() {
                    Ok(n) if (1..=legal.len()).contains(&n) => {
                        return Ok(Choice::Act(legal[n - 1]));
                    }
                    Ok(n) => writeln!(
                        out,
                        "{n} is not on the list: choose a number from 1 to {}",
                        legal.len()
                    )?,
                    Err(_) => writeln!(
                        out,
                        "`{text}` is neither a number nor a command: type a number from 1 to {}, \
                         or help",
                        legal.len()
                    )?,
                },
            }
        }
    }

    /// The board, the drawn tile, the scores and the numbered choices, on one screen: the
    /// board (the part around the last tile laid, or `all` of it) gets the lines that the rest
    /// leaves, long lists of choices go into columns, and the symbols' key is left out (for
    /// the `key` command) when the board would get less than two rows of tiles.
    fn show(
        &self,
        seat: usize,
        words: &[String],
        all: bool,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        let game = &self.game;
        let (width, height) = terminal_size();
        let tile = self.tile_pictures();
        let status = self.status_lines(seat);
        let board_rows = |rows: usize| 1 + rows * render::text::TILE_H;
        // Besides the board: the view's note, the players' marks, the tile, the scores and the
        // question, the choices and the prompt (and a blank line before the board if it fits).
        // The choices get what leaves the board one row of tiles.
        let fixed = 3 + tile.len() + status.len();
        let room = height.saturating_sub(fixed + board_rows(1));
        let choices = choice_lines(words, width, height, room);
        let mut legend = legend_lines(game, width);
        let others = fixed + choices.len();
        let roomy = height > others + legend.len() + board_rows(2);
        let gap = height > others + board_rows(1);
        let mut marks = format!("key: {}", self.marks());
        if !roomy {
            legend.clear();
            marks.push_str("  (`key` lists the symbols)");
        }
        let window = (!all).then(|| {
            let centre = game.board().tiles().last().map(|t| t.pos);
            render::text::Window::fitting(
                centre.unwrap_or(crate::model::geometry::Pos::new(0, 0)),
                width,
                height.saturating_sub(others + legend.len() + usize::from(gap)),
            )
        });
        if gap {
            writeln!(out)?;
        }
        let board = render::text::board_window(game, self.colour, window);
        writeln!(out, "{}", board.trim_end_matches('\n'))?;
        let whole = render::text::extent(game, None);
        let part = render::text::extent(game, window);
        if part != whole {
            writeln!(
                out,
                "(x {}..{}, y {}..{} of x {}..{}, y {}..{}: `board all` shows the whole board)",
                part.0, part.1, part.2, part.3, whole.0, whole.1, whole.2, whole.3
            )?;
        }
        for line in std::iter::once(marks)
            .chain(legend)
            .chain(tile)
            .chain(status)
            .chain(choices)
        {
            writeln!(out, "{line}")?;
        }
        Ok(())
    }

    /// Each player's number on the board and name: `1 Ann  2 greedy`.
    fn marks(&self) -> String {
        let marks: Vec<String> = self
            .names
            .iter()
            .enumerate()
            .map(|(seat, name)| format!("{} {name}", seat + 1))
            .collect();
        marks.join("  ")
    }

    /// When a tile is to be placed: its picture in each rotation, side by side.
    fn tile_pictures(&self) -> Vec<String> {
        let game = &self.game;
        let DecisionKind::PlaceTile { tile } = game.decision().kind else {
            return Vec::new();
        };
        let rules = game.rules();
        let mut lines = Vec::new();
        let pictures: Vec<Vec<String>> = Rotation::ALL
            .iter()
            .map(|r| render::text::tile(rules, tile, *r))
            .collect();
        let width = pictures
            .iter()
            .flatten()
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(0);
        let labels: Vec<String> = Rotation::ALL
            .iter()
            .map(|r| format!("{:<width$}", format!("{}°", r.degrees())))
            .collect();
        lines.push(format!("  {}", labels.join("   ")));
        let rows = pictures.iter().map(Vec::len).max().unwrap_or(0);
        for row in 0..rows {
            let line: Vec<String> = pictures
                .iter()
                .map(|p| {
                    let l = p.get(row).map_or("", String::as_str);
                    let pad = width.saturating_sub(l.chars().count());
                    format!("{l}{}", " ".repeat(pad))
                })
                .collect();
            lines.push(format!("  {}", line.join("   ").trim_end()));
        }
        lines
    }

    /// The scores and supplies, and what `seat` is asked.
    fn status_lines(&self, seat: usize) -> Vec<String> {
        let game = &self.game;
        let scores: Vec<String> = (0..self.names.len())
            .map(|p| {
                let tokens =
                    render::text::tokens_words(game, p).map_or(String::new(), |t| format!("; {t}"));
                format!(
                    "{} {} ({} left{tokens})",
                    self.names[p],
                    game.scores()[p],
                    render::text::supply_words(game, p)
                )
            })
            .collect();
        let what = match game.decision().kind {
            DecisionKind::PlaceTile { tile } => format!(
                "place {} (where, turned how far)",
                game.rules().tile(tile).id
            ),
            // A family's own moves (the fairy's, the abbot's recall) are listed with the rest.
            DecisionKind::Deploy if game.legal().iter().any(is_family_move) => {
                "deploy a figure, another move below or pass".to_string()
            }
            DecisionKind::Deploy => "deploy a figure or pass".to_string(),
            other => decision_words(other),
        };
        vec![
            format!(
                "scores: {}; {} tiles left",
                scores.join(", "),
                game.tiles_left()
            ),
            self.paint(Paint::Bold, &format!("{}: {what}", self.names[seat])),
        ]
    }

    /// Writes the game to `path`; an existing file other than the one this session saved to
    /// is replaced only when `replace` says so (`save! FILE`).
    fn save(&mut self, path: &Path, replace: bool, out: &mut dyn Write) -> std::io::Result<()> {
        let ours = self.saved_to.as_deref() == Some(path);
        if !replace && !ours && std::fs::symlink_metadata(path).is_ok() {
            return writeln!(
                out,
                "{} already exists: `save! {}` replaces it",
                path.display(),
                path.display()
            );
        }
        let text = record::write(&self.game, &record_ruleset(&self.ruleset_ref, path));
        match std::fs::write(path, text) {
            Ok(()) => {
                self.saved = self.game.history().len();
                self.saved_to = Some(path.to_path_buf());
                writeln!(
                    out,
                    "saved to {} (continue with: castellan play --resume {})",
                    path.display(),
                    path.display()
                )
            }
            Err(e) => writeln!(out, "cannot save to {}: {e}", path.display()),
        }
    }

    fn print_events(&self, events: &[Event], out: &mut dyn Write) -> std::io::Result<()> {
        for event in events {
            if matches!(event, Event::TurnStarted { .. }) {
                writeln!(out)?;
            }
            let text = describe::second_person(&words::event(event, &self.names).to_string());
            let tone = show::first(registry::presenters(), |p| p.tone(event));
            let paint = match (event, tone) {
                (Event::TurnStarted { .. } | Event::GameEnded { .. }, _) => Paint::Bold,
                (Event::Scored { .. }, _) | (_, Some(Tone::Gain)) => Paint::Green,
                (_, Some(Tone::Loss)) => Paint::Red,
                (Event::FigureReturned { .. }, _) => Paint::Yellow,
                _ => Paint::Plain,
            };
            writeln!(out, "{}", self.paint(paint, &text))?;
        }
        Ok(())
    }

    fn print_final(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let scores = self.game.scores();
        writeln!(out)?;
        writeln!(out, "{}", self.paint(Paint::Bold, "final scores"))?;
        let width = self
            .names
            .iter()
            .map(|n| n.chars().count())
            .max()
            .unwrap_or(0);
        for (name, score) in self.names.iter().zip(scores) {
            writeln!(out, "  {name:<width$}  {score}")?;
        }
        let best = scores.iter().copied().max().unwrap_or(0);
        let top: Vec<&str> = self
            .names
            .iter()
            .zip(scores)
            .filter(|(_, s)| **s == best)
            .map(|(n, _)| n.as_str())
            .collect();
        let verdict = match top.as_slice() {
            [one] => format!("winner: {one}"),
            many => format!("tie between {}", many.join(" and ")),
        };
        writeln!(out, "{}", self.paint(Paint::Green, &verdict))
    }

    fn paint(&self, paint: Paint, text: &str) -> String {
        let code = match paint {
            Paint::Plain => return text.to_string(),
            Paint::Bold => "1",
            Paint::Green => "32",
            Paint::Yellow => "33",
            Paint::Red => "31",
        };
        if self.colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

/// The terminal's size in characters (columns, lines): `COLUMNS` and `LINES` when set, else
/// what the terminal on standard output says, else 80 × 24.
fn terminal_size() -> (usize, usize) {
    let (lines, columns) = console::Term::stdout()
        .size_checked()
        .map_or((24, 80), |(l, c)| (usize::from(l), usize::from(c)));
    let var = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .filter(|n: &usize| *n > 0)
            .unwrap_or(default)
    };
    (var("COLUMNS", columns), var("LINES", lines))
}

/// The board's key (`render::text::key_lines`), each line wrapped to `width` at its items.
fn legend_lines(game: &Game, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for key in render::text::key_lines(game) {
        let mut line = String::new();
        for item in key.split("  ").filter(|i| !i.is_empty()) {
            if !line.is_empty() && 5 + line.len() + item.len() > width {
                lines.push(format!("     {}", line.trim_end()));
                line.clear();
            }
            line.push_str(item);
            line.push_str("  ");
        }
        lines.push(format!("     {}", line.trim_end()));
    }
    lines
}

/// The numbered choices: one to a line when they are few, else in columns across the terminal
/// (numbered down each column), so that a long list does not push the board off the screen;
/// placements grouped by position when that takes fewer lines (`(1,0) 3:0° 4:180°`). When
/// even that takes more than `room` lines (a portal lets a follower go onto almost any
/// feature of the board), the first choices fill the room but its last line, which says how
/// many more there are and that the `choices` command lists them all.
fn choice_lines(words: &[String], width: usize, height: usize, room: usize) -> Vec<String> {
    let digits = words.len().to_string().len();
    let entries: Vec<String> = words
        .iter()
        .enumerate()
        .map(|(i, w)| format!("{:>digits$}. {w}", i + 1))
        .collect();
    if entries.len() <= (height / 4).max(4).min(room) {
        return entries.iter().map(|e| format!("  {e}")).collect();
    }
    let plain = columns(&entries, width);
    // Each entry with the number of choices it holds: one, or a grouped position's turns.
    let (entries, counts, lines) = match placement_groups(words) {
        Some((groups, counts)) => match columns(&groups, width) {
            grouped if grouped.len() < plain.len() => (groups, counts, grouped),
            _ => (entries, vec![1; words.len()], plain),
        },
        None => (entries, vec![1; words.len()], plain),
    };
    // Too few lines to cut anything off usefully: the screen scrolls instead.
    if lines.len() <= room || room < 2 {
        return lines;
    }
    let shown = (room - 1) * column_count(&entries, width);
    let mut lines = columns(&entries[..shown], width);
    let more: usize = counts[shown..].iter().sum();
    lines.push(format!(
        "  … and {more} more: `choices` lists all {}",
        words.len()
    ));
    lines
}

/// How many columns of `entries` fit `width` (at least one).
fn column_count(entries: &[String], width: usize) -> usize {
    let widest = entries.iter().map(|e| e.chars().count()).max().unwrap_or(0);
    ((width.saturating_sub(2) + 3) / (widest + 3)).max(1)
}

/// `entries` in as many columns as fit `width`, numbered down each column: two spaces before
/// the first column, three between columns.
fn columns(entries: &[String], width: usize) -> Vec<String> {
    let widest = entries.iter().map(|e| e.chars().count()).max().unwrap_or(0);
    let rows = entries.len().div_ceil(column_count(entries, width));
    (0..rows)
        .map(|row| {
            let line: Vec<String> = entries
                .iter()
                .skip(row)
                .step_by(rows)
                .map(|e| format!("{e:<widest$}"))
                .collect();
            format!("  {}", line.join("   ").trim_end())
        })
        .collect()
}

/// Placements (`(x,y) 90°`, see [`choice_words`]) grouped by position, each turn with its
/// number: `(1,0) 3:0° 4:180°`, and how many turns each holds; none when the words are not all
/// placements.
fn placement_groups(words: &[String]) -> Option<(Vec<String>, Vec<usize>)> {
    let mut groups: Vec<(&str, Vec<String>)> = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let (pos, turn) = w.split_once(' ').filter(|(p, _)| p.starts_with('('))?;
        let choice = format!("{}:{turn}", i + 1);
        match groups.last_mut() {
            Some((at, turns)) if *at == pos => turns.push(choice),
            _ => groups.push((pos, vec![choice])),
        }
    }
    Some(
        groups
            .into_iter()
            .map(|(pos, turns)| (format!("{pos} {}", turns.join(" ")), turns.len()))
            .unzip(),
    )
}

/// The choices in words: a placement as where and how far the tile is turned (`(1,0) 90°`,
/// the question says what), anything else as [`describe::actions`] words it.
fn choice_words(game: &Game, legal: &[Action], names: &[String]) -> Vec<String> {
    let placements: Option<Vec<String>> = legal
        .iter()
        .map(|a| match *a {
            Action::Place { pos, rotation } => Some(format!("{pos} {}°", rotation.degrees())),
            _ => None,
        })
        .collect();
    placements.unwrap_or_else(|| describe::actions(game, legal, names))
}

/// Text styles of the game's output.
#[derive(Clone, Copy)]
enum Paint {
    Plain,
    Bold,
    Green,
    Yellow,
    Red,
}

const HELP: &str = "Type the number of an action to choose it. Other commands:
  save FILE   write the game so far as a record; continue it later with
              `castellan play --resume FILE` (an existing file is kept)
  save! FILE  the same, replacing FILE if it exists
  board       show the board (around the last tile) and the choices again
  board all   the same with the whole board
  choices     every choice, when the screen shows only the first ones
  key         what the board's numbers, letters and symbols mean
  undo        take back your last step of this turn (placing your tile, say) until
              the turn ends or something new is revealed
  help        this text
  quit        stop the game (asks again when moves are not saved)";

/// The seat names of `--players`: comma-separated, none empty.
fn parse_players(list: &str) -> Result<Vec<String>, PlayError> {
    let players: Vec<String> = list.split(',').map(|p| p.trim().to_string()).collect();
    if players.iter().any(String::is_empty) {
        return Err(PlayError::Options(format!(
            "--players `{list}` has an empty name; write names separated by commas, e.g. \
             \"Ann,greedy,random\""
        )));
    }
    Ok(players)
}

/// Names made unique for display: a repeated name gets its count ("greedy 1", "greedy 2").
fn unique_names(players: &[String]) -> Vec<String> {
    players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if players.iter().filter(|q| *q == p).count() > 1 {
                let nth = players[..=i].iter().filter(|q| *q == p).count();
                format!("{p} {nth}")
            } else {
                p.clone()
            }
        })
        .collect()
}

/// The session's ruleset: a name as given; a path made absolute (it was relative to `near`),
/// so the record can be saved anywhere.
fn saved_ruleset(reference: &str, near: &Path) -> String {
    if !library::is_path(reference) {
        return reference.to_string();
    }
    let path = near.join(reference);
    std::path::absolute(&path)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}

/// How the record saved at `record` names the ruleset `ruleset` (a name, or an absolute path):
/// a name stays a name; a file is named relative to the record's folder (with `..` when it lies
/// beside it), so that the record resumes wherever the two files move together, and a record
/// may only name a ruleset in its folder's tree, the current directory's tree or the library
/// (`rulesets/README.md`, "What a file may reference"). Without a common folder (another
/// drive), the absolute path.
fn record_ruleset(ruleset: &str, record: &Path) -> String {
    if !library::is_path(ruleset) {
        return ruleset.to_string();
    }
    let real = |p: &Path| {
        p.canonicalize()
            .or_else(|_| std::path::absolute(p))
            .unwrap_or_else(|_| p.to_path_buf())
    };
    let file = real(Path::new(ruleset));
    let folder = record
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let folder = real(folder);
    let shared = file
        .components()
        .zip(folder.components())
        .take_while(|(a, b)| a == b)
        .count();
    let roots = file
        .components()
        .take_while(|c| {
            matches!(
                c,
                std::path::Component::RootDir | std::path::Component::Prefix(_)
            )
        })
        .count();
    let inside = shared == folder.components().count();
    if !inside && shared <= roots {
        return file.to_string_lossy().into_owned();
    }
    let mut relative = PathBuf::new();
    for _ in folder.components().skip(shared) {
        relative.push("..");
    }
    relative.extend(file.components().skip(shared));
    relative.to_string_lossy().into_owned()
}

/// A seed from the clock, for games started without one.
pub(crate) fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() ^ u64::from(d.subsec_nanos()))
        % 1_000_000
}

/// Whether `action` is a family's or a script's own move rather than deploying or passing.
fn is_family_move(action: &Action) -> bool {
    matches!(action, Action::Mechanic(_) | Action::Script(_))
}

/// A mechanic's (or a script's) decision in words, for the prompt: in its family's words
/// where it has some.
fn decision_words(kind: DecisionKind) -> String {
    show::first(registry::presenters(), |p| p.decision_words(&kind))
        .unwrap_or_else(|| kind.name().replace('_', " "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A long list is cut to the room on screen, and the last line counts every choice left
    /// off: grouped placements count one per turn of the tile, not one per position.
    #[test]
    fn a_cut_list_counts_the_choices_left_off() {
        let words: Vec<String> = (0..40)
            .flat_map(|x| [0, 90, 180].map(|d| format!("({x},1) {d}°")))
            .collect();
        let lines = choice_lines(&words, 80, 24, 4);
        assert_eq!(lines.len(), 4);
        let shown: usize = lines[..3]
            .iter()
            .flat_map(|l| l.split_whitespace())
            .filter(|w| w.contains(':'))
            .count();
        let more: usize = lines[3]
            .trim_start()
            .strip_prefix("… and ")
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .expect("the last line says how many are left off");
        assert!(shown > 0);
        assert_eq!(shown + more, 120);
        assert!(lines[3].ends_with("`choices` lists all 120"));
    }

    #[test]
    fn repeated_names_are_numbered() {
        let names: Vec<String> = ["greedy", "Ann", "greedy"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(unique_names(&names), ["greedy 1", "Ann", "greedy 2"]);
    }

    #[test]
    fn player_lists_need_names() {
        assert!(parse_players("Ann,,Bob").is_err());
        assert_eq!(parse_players(" Ann , greedy ").unwrap(), ["Ann", "greedy"]);
    }

    #[test]
    fn ruleset_names_stay_names() {
        assert_eq!(saved_ruleset("hig", Path::new("somewhere")), "hig");
        assert!(Path::new(&saved_ruleset("my/rules.toml", Path::new("."))).is_absolute());
        assert_eq!(record_ruleset("hig", Path::new("/a/game.toml")), "hig");
    }

    #[test]
    fn saved_ruleset_files_are_named_from_the_record_folder() {
        let at = |ruleset: &str, record: &str| record_ruleset(ruleset, Path::new(record));
        assert_eq!(at("/nowhere/x/r.toml", "/nowhere/x/g.toml"), "r.toml");
        assert_eq!(
            at("/nowhere/x/rules/r.toml", "/nowhere/x/g.toml"),
            "rules/r.toml"
        );
        assert_eq!(
            at("/nowhere/x/r.toml", "/nowhere/x/saves/g.toml"),
            "../r.toml"
        );
        assert_eq!(
            at("/elsewhere/r.toml", "/nowhere/x/g.toml"),
            "/elsewhere/r.toml"
        );
    }
}
