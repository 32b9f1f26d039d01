//! The `castellan` command line: replay records, simulate and compare games, validate data
//! files.

use castellan::bot::simulate;
use castellan::data::diagnostic::Diagnostic;
use castellan::data::ruleset::Ruleset;
use castellan::engine::event::Event;
use castellan::engine::words;
use castellan::lab::{self, Plan, Shard};
use castellan::record::{Record, RecordError};
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
    /// Play many games between bots and report mean scores, wins and speed.
    Simulate {
        /// Ruleset: a name in rulesets/ (or built in) or a path to a ruleset file.
        #[arg(long, short, default_value = "hig")]
        ruleset: String,
        /// Number of players (random bots, unless --bots says otherwise) [default: 2].
        #[arg(long, short)]
        players: Option<usize>,
        /// One bot per seat, comma-separated, e.g. `greedy,random` (bots: random, greedy, mcts,
        /// mcts:ITERATIONS, mcts:MILLISECONDSms).
        #[arg(long, short)]
        bots: Option<String>,
        /// Number of games.
        #[arg(long, short, default_value_t = 1000)]
        games: u64,
        /// Seed of the first game (game i uses seed + i).
        #[arg(long, short, default_value_t = 0)]
        seed: u64,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        spread: Spread,
    },
    /// Play the same seeded games under several rulesets and compare them: scores, seat win
    /// rates, margins, length, points by source, rule firings, decisiveness, with 95% intervals.
    Compare {
        /// Rulesets: names in rulesets/ (or built in) or paths; the first is the baseline.
        #[arg(required = true)]
        rulesets: Vec<String>,
        /// One bot per seat, comma-separated (random, greedy, mcts, mcts:N, mcts:Nms). The
        /// default, greedy players, plays thousands of games a minute; MCTS plans better and
        /// takes far longer (`mcts:500,mcts:500`: about a second a game per core).
        #[arg(long, short, default_value = "greedy,greedy")]
        bots: String,
        /// Take the second ruleset apart: play the first (the base), the second, and the base
        /// with each setting in which the second differs, alone (`each`, the default), or also
        /// the base with all those settings but one (`all-but-one`), and say which setting
        /// moves which metric. Needs exactly two rulesets; writes no file.
        #[arg(long, value_name = "HOW", num_args = 0..=1, default_missing_value = "each")]
        ablate: Option<lab::changes::Ablate>,
        #[command(flatten)]
        run: LabArgs,
    },
    /// Merge JSON-lines files of games (shards of `compare` or `simulate`) into one report.
    Report {
        /// The files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        output: ReportArgs,
    },
    /// Play a game in the terminal: people (hotseat) against each other and against bots.
    Play {
        /// Ruleset: a name in rulesets/ (or built in) or a path to a ruleset file [default: hig].
        #[arg(long, short, conflicts_with = "resume")]
        ruleset: Option<String>,
        /// Seats, comma-separated: a bot's name (greedy, random) is that bot, any other name a
        /// person, e.g. "Ann,greedy,random" [default: You,greedy].
        #[arg(long, short, conflicts_with = "resume")]
        players: Option<String>,
        /// Seed for the bag (and the bots) [default: from the clock].
        #[arg(long, short, conflicts_with = "resume")]
        seed: Option<u64>,
        /// Continue a game saved with `save FILE` (or any game record).
        #[arg(long, value_name = "FILE")]
        resume: Option<PathBuf>,
        /// Every step is final: `undo` is refused (also when the ruleset allows it).
        #[arg(long)]
        no_undo: bool,
    },
    /// Check tile sets, rulesets and records; exit 1 with located diagnostics if any is wrong.
    Validate {
        /// Files to check (the kind of each is recognised from its keys).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Play in a web browser: a local server for games, replays and tile sets.
    Serve {
        /// Address to listen on (127.0.0.1: this computer only). There are no accounts: whoever
        /// reaches the server can see, play and remove every game.
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// Port to listen on.
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Folder that keeps the games (one record each, saved after every action).
        #[arg(long, default_value = "castellan-games")]
        data: PathBuf,
        /// The most games the server keeps: creating or opening one more is refused until a
        /// game is removed (games already in --data are all resumed, even more than N).
        #[arg(long, value_name = "N", default_value_t = castellan::ui::web::store::DEFAULT_MAX_GAMES,
              value_parser = at_least_one_game)]
        max_games: usize,
        /// A name the server answers to besides IP addresses, `localhost` and `*.localhost`
        /// (repeatable): the name friends type, or the one a reverse proxy passes on.
        #[arg(long = "allow-host", value_name = "NAME")]
        allow_host: Vec<String>,
    },
    /// Draw a game record: print the board as text, or write an SVG or PNG picture with -o.
    Render {
        /// The record file (TOML).
        record: PathBuf,
        /// Draw the game after its first N actions only.
        #[arg(long, value_name = "N")]
        upto: Option<usize>,
        /// Write a picture to FILE instead of printing text: FILE ends in .svg or .png.
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Also write a PNG, next to the SVG with the extension .png (needs -o).
        #[arg(long)]
        png: bool,
    },
}

/// How many games a lab run plays, where and how.
#[derive(clap::Args)]
struct LabArgs {
    /// Games per ruleset.
    #[arg(long, short, default_value_t = 100)]
    games: u64,
    /// Seed of the first game (game i uses seed + i under every ruleset).
    #[arg(long, short, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    spread: Spread,
    #[command(flatten)]
    output: ReportArgs,
}

/// Where the games run and where shards go.
#[derive(clap::Args)]
struct Spread {
    /// Threads to play on [default: every core]; the results do not depend on it.
    #[arg(long, short)]
    threads: Option<usize>,
    /// Play only the K-th of N equal slices of the games and write one JSON line per game
    /// (to --out, or standard output) instead of a report; merge with `castellan report`.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Write one JSON line per game to FILE instead of a report.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// How a lab report is shown.
#[derive(clap::Args)]
struct ReportArgs {
    /// Print the report as one JSON object instead of a table.
    #[arg(long)]
    json: bool,
    /// Also write the report as a self-contained HTML page with plots to FILE.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

/// Prints a line on standard output. When the reader has gone (`castellan replay … | head`),
/// the program ends quietly: nothing more is wanted.
macro_rules! out {
    () => {
        emit(format_args!(""))
    };
    ($($arg:tt)*) => {
        emit(format_args!($($arg)*))
    };
}

/// Prints a line on standard error. A closed standard error (`castellan validate … 2>&1 |
/// head`) is no reason to stop or panic: what is left is still done and the exit status tells.
macro_rules! complain {
    ($($arg:tt)*) => {
        emit_err(format_args!($($arg)*))
    };
}

fn emit_err(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

fn emit(line: std::fmt::Arguments<'_>) {
    emit_raw(format_args!("{line}\n"));
}

/// Prints text as it is (no line added), like [`emit`].
fn emit_raw(text: std::fmt::Arguments<'_>) {
    use std::io::Write;
    if let Err(e) = std::io::stdout().lock().write_fmt(text) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        complain!("error: cannot write the output: {e}");
        std::process::exit(1);
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Replay { record, json } => replay(&record, json),
        Command::Simulate {
            ruleset,
            players,
            bots,
            games,
            seed,
            json,
            spread,
        } => match (&spread.shard, &spread.out) {
            (None, None) => simulate(
                &ruleset,
                players,
                bots.as_deref(),
                games,
                seed,
                json,
                spread.threads,
            ),
            _ => {
                let bots = bots.unwrap_or_else(|| vec!["random"; players.unwrap_or(2)].join(","));
                let args = LabArgs {
                    games,
                    seed,
                    spread,
                    output: ReportArgs { json, html: None },
                };
                compare(&[ruleset], &bots, &args)
            }
        },
        Command::Compare {
            rulesets,
            bots,
            ablate,
            run,
        } => match ablate {
            Some(how) => ablate_compare(&rulesets, how, &bots, &run),
            None => compare(&rulesets, &bots, &run),
        },
        Command::Report { files, output } => report(&files, &output),
        Command::Play {
            ruleset,
            players,
            seed,
            resume,
            no_undo,
        } => castellan::ui::play::main(castellan::ui::play::Options {
            ruleset,
            players,
            seed,
            resume,
            no_undo,
            ..Default::default()
        }),
        Command::Validate { paths } => validate(&paths),
        Command::Serve {
            host,
            port,
            data,
            max_games,
            allow_host,
        } => castellan::ui::web::main(castellan::ui::web::Options {
            host,
            port,
            data,
            max_games,
            allow_hosts: allow_host,
        }),
        Command::Render {
            record,
            upto,
            output,
            png,
        } => render(&record, upto, output.as_deref(), png),
    }
}

/// `serve --max-games N`: a whole number of at least 1 (a server that keeps no game is no
/// server).
fn at_least_one_game(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("a server keeps at least 1 game".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("not a whole number of games ({e})")),
    }
}

fn fail(d: &Diagnostic) -> ExitCode {
    complain!("{}", d.render());
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

fn print_replay(
    record: &Record,
    game: &castellan::engine::game::Game,
    events: &[Event],
    json: bool,
) {
    let names = &record.setup.players;
    if json {
        let value = castellan::ui::report::game_json(game, events);
        out!("{value}");
        return;
    }
    for e in events {
        out!("{}", words::event(e, names));
    }
    out!();
    out!(
        "{} after {} turns",
        if game.is_over() {
            "final scores"
        } else {
            "scores so far"
        },
        game.turn()
    );
    for (name, score) in names.iter().zip(game.scores()) {
        out!("  {name:<12} {score}");
    }
}

fn simulate(
    ruleset: &str,
    players: Option<usize>,
    bots: Option<&str>,
    games: u64,
    seed: u64,
    json: bool,
    threads: Option<usize>,
) -> ExitCode {
    let bots: Vec<&str> = match bots {
        Some(list) => list.split(',').map(str::trim).collect(),
        None => vec!["random"; players.unwrap_or(2)],
    };
    if let Some(n) = players
        && n != bots.len()
    {
        complain!(
            "error: --players {n} disagrees with --bots, which names {} bots",
            bots.len()
        );
        return ExitCode::from(2);
    }
    if let Some(unknown) = bots.iter().find(|b| !castellan::bot::is_bot_name(b)) {
        complain!(
            "error: unknown bot `{unknown}` in --bots (known bots: {})",
            castellan::bot::NAMES.join(", ")
        );
        return ExitCode::from(2);
    }
    let rules = match Ruleset::load(ruleset) {
        Ok(r) => r,
        Err(d) => return fail(&d),
    };
    let bar = progress_bar(games, !json);
    let all_random = bots.iter().all(|b| *b == "random");
    let threads = threads.unwrap_or(0);
    let progress = |n| {
        if n % 64 == 0 || n == games {
            bar.set_position(n);
        }
    };
    // Random players only: the original single-bot games, so old numbers stay comparable.
    let stats = if all_random {
        simulate::run_on(&rules, bots.len(), games, seed, threads, progress)
            .map_err(|e| e.to_string())
    } else {
        simulate::run_bots_on(&rules, &bots, games, seed, threads, progress)
            .map_err(|e| e.to_string())
    };
    bar.finish_and_clear();
    let stats = match stats {
        Ok(s) => s,
        Err(e) => {
            complain!("error: {e}");
            return ExitCode::from(1);
        }
    };
    if json {
        match serde_json::to_string(&stats) {
            Ok(s) => out!("{s}"),
            Err(e) => {
                complain!("error: {e}");
                return ExitCode::from(1);
            }
        }
        return ExitCode::SUCCESS;
    }
    out!(
        "{} games of `{}`: {}",
        stats.games,
        rules.name,
        stats.bots.join(" vs ")
    );
    for (seat, (mean, wins)) in stats.mean_scores.iter().zip(&stats.wins).enumerate() {
        out!(
            "  seat {} ({}): mean score {mean:.2}, wins {wins} ({:.1}%)",
            seat + 1,
            stats.bots[seat],
            100.0 * *wins as f64 / stats.games.max(1) as f64
        );
    }
    out!("  tied games: {}", stats.ties);
    out!("  mean turns: {:.2}", stats.mean_turns);
    out!(
        "  {} ({:.2} s)",
        simulate::rate_words(stats.games, stats.seconds),
        stats.seconds
    );
    ExitCode::SUCCESS
}

/// A progress bar on standard error when it is a terminal and `show` is set; else hidden.
fn progress_bar(len: u64, show: bool) -> ProgressBar {
    if !(show && std::io::stderr().is_terminal()) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// Prints a lab error and returns exit code 1.
fn lab_fail(e: impl std::fmt::Display) -> ExitCode {
    complain!("error: {e}");
    ExitCode::from(1)
}

fn compare(rulesets: &[String], bots: &str, args: &LabArgs) -> ExitCode {
    let mut loaded = Vec::new();
    for name in rulesets {
        match Ruleset::load(name) {
            Ok(r) => loaded.push((name.clone(), r)),
            Err(d) => return fail(&d),
        }
    }
    run_lab(loaded, lab::changes::about(rulesets), bots, args)
}

/// `compare --ablate`: the base, the variant and the rulesets between them, with a closing
/// section on which setting moves which metric.
fn ablate_compare(
    rulesets: &[String],
    how: lab::changes::Ablate,
    bots: &str,
    args: &LabArgs,
) -> ExitCode {
    let [base, variant] = rulesets else {
        return lab_fail(format!(
            "--ablate takes exactly two rulesets, a base and a variant (got {})",
            rulesets.len()
        ));
    };
    let ablation = match lab::changes::ablation(base, variant, how) {
        Ok(a) => a,
        Err(e) => return lab_fail(e),
    };
    for c in &ablation.unset {
        complain!(
            "note: `{variant}` leaves {} at its default where `{base}` sets it to {}: no ruleset with that change alone can be written, so it is not taken apart",
            c.key,
            c.base.as_deref().unwrap_or("")
        );
    }
    run_lab(ablation.rulesets, ablation.about, bots, args)
}

/// Plays the rulesets' games and shows the report (or writes the games, for shards and --out).
fn run_lab(
    loaded: Vec<(String, std::sync::Arc<Ruleset>)>,
    about: Vec<lab::changes::About>,
    bots: &str,
    args: &LabArgs,
) -> ExitCode {
    let shard = match args
        .spread
        .shard
        .as_deref()
        .map(str::parse::<Shard>)
        .transpose()
    {
        Ok(s) => s,
        Err(e) => return lab_fail(e),
    };
    let plan = Plan {
        rulesets: loaded,
        bots: bots.split(',').map(|b| b.trim().to_string()).collect(),
        games: args.games,
        seed: args.seed,
        shard: shard.unwrap_or(Shard::ALL),
        threads: args.spread.threads.unwrap_or(0),
    };
    if let Err(e) = plan.check() {
        return lab_fail(e);
    }
    let bar = progress_bar(plan.jobs(), true);
    let forecast = Forecast::new(plan.jobs());
    let results = lab::run(&plan, |n| {
        bar.set_position(n);
        forecast.tell(n, &bar);
    });
    bar.finish_and_clear();
    let results = match results {
        Ok(r) => r,
        Err(e) => return lab_fail(e),
    };
    if shard.is_some() || args.spread.out.is_some() {
        let lines = lab::report::write_results(&results);
        return match &args.spread.out {
            Some(path) => match std::fs::write(path, lines) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => lab_fail(format!("cannot write {}: {e}", path.display())),
            },
            None => {
                emit_raw(format_args!("{lines}"));
                ExitCode::SUCCESS
            }
        };
    }
    show_report(&results, about, &args.output)
}

/// Says once, on standard error, how long a lab run will take when that is more than
/// [`Forecast::LONG`], with how to shorten it; judged after the first games.
struct Forecast {
    start: std::time::Instant,
    jobs: u64,
    told: std::sync::atomic::AtomicBool,
}

impl Forecast {
    /// Runs longer than this get a forecast.
    const LONG: f64 = 90.0;

    fn new(jobs: u64) -> Forecast {
        Forecast {
            start: std::time::Instant::now(),
            jobs,
            told: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// Called with the number of games finished.
    fn tell(&self, finished: u64, bar: &ProgressBar) {
        use std::sync::atomic::Ordering;
        let elapsed = self.start.elapsed().as_secs_f64();
        if elapsed < 3.0 || finished == 0 || self.told.load(Ordering::Relaxed) {
            return;
        }
        let total = elapsed * self.jobs as f64 / finished as f64;
        if total > Self::LONG && !self.told.swap(true, Ordering::Relaxed) {
            bar.suspend(|| {
                complain!(
                    "note: this run will take about {} ({}); for a quicker look use fewer --games, faster bots (--bots greedy,greedy or random,random), or spread it over machines with --shard",
                    simulate::duration_words(total),
                    simulate::rate_words(finished, elapsed)
                )
            });
        }
    }
}

fn report(files: &[PathBuf], output: &ReportArgs) -> ExitCode {
    let mut results = Vec::new();
    for f in files {
        match lab::report::read_results(f) {
            Ok(r) => results.extend(r),
            Err(e) => return lab_fail(e),
        }
    }
    // The rulesets as the games name them, read again to say what each is.
    let mut names: Vec<(usize, String)> = results
        .iter()
        .map(|r| (r.position, r.ruleset.clone()))
        .collect();
    names.sort();
    names.dedup();
    let names: Vec<String> = names.into_iter().map(|(_, n)| n).collect();
    show_report(&results, lab::changes::about(&names), output)
}

/// Prints the summary of `results` as a table or JSON, and writes the HTML page if asked.
fn show_report(
    results: &[lab::GameResult],
    about: Vec<lab::changes::About>,
    output: &ReportArgs,
) -> ExitCode {
    let mut summary = match lab::metrics::summarize(results) {
        Ok(s) => s,
        Err(e) => return lab_fail(e),
    };
    summary.explain(about);
    for m in &summary.missing {
        complain!("warning: incomplete run: {m}");
    }
    if let Some(path) = &output.html {
        let written = lab::report::html(&summary)
            .map_err(|e| e.to_string())
            .and_then(|page| {
                std::fs::write(path, page)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))
            });
        if let Err(e) = written {
            return lab_fail(e);
        }
    }
    if output.json {
        match serde_json::to_string(&summary) {
            Ok(s) => out!("{s}"),
            Err(e) => return lab_fail(e),
        }
    } else {
        emit_raw(format_args!("{}", lab::report::table(&summary)));
    }
    ExitCode::SUCCESS
}

fn validate(paths: &[PathBuf]) -> ExitCode {
    let mut bad = 0;
    for path in paths {
        match castellan::ui::validate::check(path) {
            Ok(what) => out!("ok: {} ({what})", path.display()),
            Err(d) => {
                bad += 1;
                complain!("{}", d.render());
            }
        }
    }
    if bad == 0 {
        ExitCode::SUCCESS
    } else {
        complain!("{bad} of {} files have errors", paths.len());
        ExitCode::from(1)
    }
}

/// `castellan render`: the board after all (or the first `upto`) actions of a record, as text
/// on stdout, or as an SVG and/or PNG file.
fn render(path: &Path, upto: Option<usize>, output: Option<&Path>, png: bool) -> ExitCode {
    use castellan::ui::render::{png as to_png, svg, text};
    // Only the formats castellan draws: an SVG written into `x.jpg` would mislead.
    if let Some(out) = output {
        let known = out
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("svg") || e.eq_ignore_ascii_case("png"));
        if !known {
            complain!(
                "error: cannot write {}: castellan draws .svg and .png pictures only",
                out.display()
            );
            return ExitCode::from(1);
        }
    }
    let mut record = match Record::load(path) {
        Ok(r) => r,
        Err(d) => return fail(&d),
    };
    let total = record.actions.len();
    let shown = upto.unwrap_or(total);
    if shown > total {
        complain!(
            "error: --upto {shown}, but {} has only {total} actions",
            path.display()
        );
        return ExitCode::from(1);
    }
    record.actions.truncate(shown);
    let game = match record.replay() {
        Ok(r) => r.game,
        Err(e) => return fail(e.diagnostic()),
    };
    let caption = format!("after {shown} of {total} actions");
    let Some(out) = output else {
        if png {
            complain!("error: --png needs -o FILE to say where the picture goes");
            return ExitCode::from(1);
        }
        let colour = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
        out!("{}: {caption}, turn {}", path.display(), game.turn());
        emit_raw(format_args!("{}", text::board(&game, colour)));
        emit_raw(format_args!("{}", text::legend(&game, colour)));
        return ExitCode::SUCCESS;
    };
    let picture = svg::board_titled(&game, &caption);
    let png_only = out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    let mut files: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    if !png_only {
        files.push((out.to_path_buf(), picture.clone().into_bytes()));
    }
    if png || png_only {
        match to_png::from_svg(&picture) {
            Ok(bytes) => files.push((out.with_extension("png"), bytes)),
            Err(e) => {
                complain!("error: cannot draw the PNG: {e}");
                return ExitCode::from(1);
            }
        }
    }
    for (file, bytes) in files {
        if let Err(e) = std::fs::write(&file, bytes) {
            complain!("error: cannot write {}: {e}", file.display());
            return ExitCode::from(1);
        }
        out!("wrote {}", file.display());
    }
    ExitCode::SUCCESS
}
