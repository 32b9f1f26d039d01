//! The `castellan` command line: replay records, simulate games, validate data files.

use castellan::diagnostic::Diagnostic;
use castellan::event::{Described, Event};
use castellan::library::{self, Source};
use castellan::record::{Record, RecordError};
use castellan::ruleset::Ruleset;
use castellan::simulate;
use castellan::tile::TileSet;
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// A rules engine for Carcassonne and The Princess & the Dragon: editions and house rules as
/// TOML rulesets, tile sets as TOML, games as TOML records.
#[derive(Parser)]
#[command(name = "castellan", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Replay a game record: print the event log and the final scores.
    Replay {
        /// The record file (TOML).
        record: PathBuf,
        /// Print one JSON object (finished, scores, events, figures) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Play many games with random legal moves and report mean scores and speed.
    Simulate {
        /// Ruleset: a name in rulesets/ (or built in) or a path to a ruleset file.
        #[arg(long, short, default_value = "base")]
        ruleset: String,
        /// Number of players.
        #[arg(long, short, default_value_t = 2)]
        players: usize,
        /// Number of games.
        #[arg(long, short, default_value_t = 1000)]
        games: u64,
        /// Seed of the first game (game i uses seed + i).
        #[arg(long, short, default_value_t = 0)]
        seed: u64,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Check tile sets, rulesets and records; exit 1 with located diagnostics if any is wrong.
    Validate {
        /// Files to check (the kind of each is recognised from its keys).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Replay { record, json } => replay(&record, json),
        Command::Simulate {
            ruleset,
            players,
            games,
            seed,
            json,
        } => simulate(&ruleset, players, games, seed, json),
        Command::Validate { paths } => validate(&paths),
    }
}

fn fail(d: &Diagnostic) -> ExitCode {
    eprintln!("{}", d.render());
    ExitCode::from(1)
}

fn replay(path: &Path, json: bool) -> ExitCode {
    let record = match Record::load(path) {
        Ok(r) => r,
        Err(d) => return fail(&d),
    };
    match record.replay() {
        Ok(r) => {
            print_replay(&record, &r.game, &r.events, json);
            ExitCode::SUCCESS
        }
        Err(RecordError::Invalid(d)) => fail(&d),
        Err(RecordError::Illegal { at, replay, .. }) => {
            if json {
                print_replay(&record, &replay.game, &replay.events, true);
            }
            fail(&at)
        }
    }
}

fn print_replay(record: &Record, game: &castellan::game::Game, events: &[Event], json: bool) {
    let names = &record.setup.players;
    if json {
        let value = castellan::report::game_json(game, events);
        println!("{value}");
        return;
    }
    for e in events {
        println!("{}", Described { event: e, names });
    }
    println!();
    println!(
        "{} after {} turns",
        if game.is_over() {
            "final scores"
        } else {
            "scores so far"
        },
        game.turn()
    );
    for (name, score) in names.iter().zip(game.scores()) {
        println!("  {name:<12} {score}");
    }
}

fn simulate(ruleset: &str, players: usize, games: u64, seed: u64, json: bool) -> ExitCode {
    let rules = match Ruleset::load(ruleset) {
        Ok(r) => r,
        Err(d) => return fail(&d),
    };
    let bar = if std::io::stderr().is_terminal() && !json {
        let bar = ProgressBar::new(games);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, eta {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let stats = simulate::run(&rules, players, games, seed, |n| {
        if n % 64 == 0 || n == games {
            bar.set_position(n);
        }
    });
    bar.finish_and_clear();
    let stats = match stats {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    if json {
        match serde_json::to_string(&stats) {
            Ok(s) => println!("{s}"),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(1);
            }
        }
        return ExitCode::SUCCESS;
    }
    println!(
        "{} games of `{}` with {players} random players",
        stats.games, rules.name
    );
    for (seat, mean) in stats.mean_scores.iter().enumerate() {
        println!("  seat {}: mean score {mean:.2}", seat + 1);
    }
    println!("  mean turns: {:.2}", stats.mean_turns);
    println!(
        "  {:.0} games per second ({:.2} s)",
        stats.games_per_second, stats.seconds
    );
    ExitCode::SUCCESS
}

fn validate(paths: &[PathBuf]) -> ExitCode {
    let mut bad = 0;
    for path in paths {
        match validate_one(path) {
            Ok(what) => println!("ok: {} ({what})", path.display()),
            Err(d) => {
                bad += 1;
                eprintln!("{}", d.render());
            }
        }
    }
    if bad == 0 {
        ExitCode::SUCCESS
    } else {
        eprintln!("{bad} of {} files have errors", paths.len());
        ExitCode::from(1)
    }
}

/// Checks one file; returns a short description of what it is.
fn validate_one(path: &Path) -> Result<String, Diagnostic> {
    let source = library::read(path)?;
    let table: toml::Table = toml::from_str(&source.text).map_err(|e| {
        Diagnostic::from_toml(path, &std::sync::Arc::from(source.text.as_str()), &e)
    })?;
    if table.contains_key("tile") {
        let set = TileSet::parse(path, &source.text)?;
        let n: u32 = set.tiles.iter().map(|t| t.count).sum();
        Ok(format!(
            "tile set `{}`: {} types, {n} tiles",
            set.name,
            set.tiles.len()
        ))
    } else if table.contains_key("action")
        || table.contains_key("players") && table.contains_key("ruleset")
    {
        let record = Record::parse(Source {
            path: path.to_path_buf(),
            text: source.text,
        })?;
        let replay = record.replay().map_err(|e| e.diagnostic().clone())?;
        Ok(format!(
            "record: {} actions, {}",
            record.actions.len(),
            if replay.game.is_over() {
                "game over"
            } else {
                "game in progress"
            }
        ))
    } else {
        let rules = Ruleset::from_source(source)?;
        Ok(format!("ruleset `{}`", rules.name))
    }
}
