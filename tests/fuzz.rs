//! The in-project fuzzer: mutates the shipped tile sets, rulesets, records and scripts
//! (deletions, duplications, extreme numbers, near-miss names, invalid UTF-8, truncation,
//! hostile scripts and paths) and checks that castellan never panics or hangs, refuses every
//! broken input with a message, and reads nothing outside the input's folder.
//!
//! `cargo test --release --test fuzz` runs a bounded batch (5,000 inputs by default, seeded, so
//! every run tries the same inputs); a longer run is
//! `CASTELLAN_FUZZ_CASES=100000 CASTELLAN_FUZZ_SEED=7 cargo test --release --test fuzz -- --nocapture`.
//! The counts per input class are printed (shown with `--nocapture`) and written to
//! `target/fuzz-counts.txt`.
//!
//! Each input is loaded in-process on its own thread with a time limit (a panic or a hang fails
//! the run); when it loads, a short game is played under it. Records are loaded as the server
//! loads an upload (`files::within_bundle`, the input's folder as the only root): on the
//! command line a record may name any ruleset, being the user's own saved game. Every 25th input also goes
//! through the real binary (`castellan validate`) with a time limit: exit status 0 or 1, a
//! message on every refusal, no panic, no hang. A canary file next to the inputs' folder (and a
//! link to it inside the folder) must never be read: references to it are planted among the
//! mutations; its text is invalid in every format, so a load that read it could only fail and
//! quote it, and its text must never appear in any message.

use castellan::bot::{Bot, RandomBot};
use castellan::data::library::Source;
use castellan::data::ruleset::Ruleset;
use castellan::engine::game::{Game, Setup};
use castellan::model::tile::TileSet;
use castellan::record::Record;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CANARY: &str = "CANARY-7f3a9c-the-fuzzer-must-never-see-this";

/// Kinds of input the fuzzer mutates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    TileSet,
    Ruleset,
    Record,
    Script,
}

/// What happened to one input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Accepted,
    Refused,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The seeds: every shipped tile set, ruleset and script, and the test records.
fn corpus() -> Vec<(Class, PathBuf)> {
    let mut out = Vec::new();
    let mut add = |class: Class, dir: &Path, ext: &str| {
        let mut files: Vec<PathBuf> = walk(dir)
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .collect();
        files.sort();
        out.extend(files.into_iter().map(|p| (class, p)));
    };
    add(Class::TileSet, &root().join("tiles"), "toml");
    add(Class::Ruleset, &root().join("rulesets"), "toml");
    add(Class::Script, &root().join("scripts"), "rhai");
    add(Class::Record, &root().join("tests/records/base"), "toml");
    add(Class::Record, &root().join("tests/records/render"), "toml");
    out
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else {
                out.push(p);
            }
        }
    }
    out
}

/// Hostile pieces of script text.
const HOSTILE_SCRIPTS: &[&str] = &[
    "fn turn_start() { loop { } }\n",
    "fn f(n) { f(n + 1) }\nfn turn_start() { f(0); }\n",
    "fn turn_start() { let s = \"x\"; loop { s += s; } }\n",
    "fn turn_start() { let a = []; loop { a.push(a); } }\n",
    "fn turn_start() { let a = []; loop { a += [1, 2, 3, 4, 5, 6, 7, 8]; } }\n",
    "fn turn_start() { score(0, 2147483647, \"x\"); score(0, 2147483647, \"x\"); score(0, 2147483647, \"x\"); }\n",
    "fn turn_start() { score(-5, 1, \"x\"); }\n",
    "fn turn_start() { eval(\"1\"); }\n",
    "fn turn_start() { let t = timestamp(); }\n",
    "import \"../../../../etc/passwd\" as p;\nfn turn_start() { }\n",
    "import \"/etc/passwd\" as p;\nfn turn_start() { }\n",
    "fn filter_deploy(t) { 3 }\n",
    "fn filter_deploy(t) { throw \"no\"; }\n",
    "fn actions(d) { [#{ name: 42 }] }\n",
    "fn strength(f) { [99999999999] }\n",
    "fn extra_turn() { true }\n",
    "fn turn_start() { ask(0, []); }\n",
    "fn turn_start() { put_follower(0, 9999, 9999, \"N\", true); }\n",
    "fn turn_start() { move_dragon(2147483647, -2147483648); }\n",
    "fn turn_start() { set_state(#{ a: \"x\" }); let s = state(); s.a += s.a; set_state(s); }\n",
];

/// Extreme values written over numbers.
const EXTREMES: &[&str] = &[
    "0",
    "-1",
    "2147483647",
    "2147483648",
    "-2147483649",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
    "99999999999999999999999",
    "1e308",
    "nan",
    "\"\"",
    "[]",
    "{}",
];

/// Near-miss names: keys and values spelled almost right.
const NEAR_MISSES: &[(&str, &str)] = &[
    ("extends", "extend"),
    ("tiles", "tile"),
    ("players", "player"),
    ("farm_scoring", "farm_score"),
    ("timing", "timeing"),
    ("after_scoring", "after-scoring"),
    ("may", "May"),
    ("follower", "folower"),
    ("city", "cty"),
    ("road", "Road"),
    ("place", "plase"),
    ("deploy", "deplyo"),
    ("hig", "hgi"),
    ("base", "bsae"),
];

/// A mutation of `text`: one or two edits, chosen by `rng`.
fn mutate(rng: &mut SmallRng, class: Class, text: &str, canary: &str) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    let edits = rng.random_range(1..=2);
    for _ in 0..edits {
        let len = bytes.len().max(1);
        match rng.random_range(0..9) {
            0 => {
                // Delete a span.
                let a = rng.random_range(0..len);
                let b = (a + rng.random_range(1..64)).min(bytes.len());
                bytes.drain(a.min(bytes.len())..b);
            }
            1 => {
                // Duplicate a span.
                let a = rng.random_range(0..len);
                let b = (a + rng.random_range(1..128)).min(bytes.len());
                let piece = bytes[a.min(bytes.len())..b].to_vec();
                let at = rng.random_range(0..=bytes.len());
                bytes.splice(at..at, piece);
            }
            2 => {
                // An extreme number over a number.
                let s = String::from_utf8_lossy(&bytes).into_owned();
                let numbers: Vec<(usize, usize)> = number_spans(&s);
                if let Some(&(a, b)) = numbers.get(rng.random_range(0..numbers.len().max(1))) {
                    let value = EXTREMES[rng.random_range(0..EXTREMES.len())];
                    bytes.splice(a..b, value.bytes());
                }
            }
            3 => {
                // A near-miss name.
                let (right, wrong) = NEAR_MISSES[rng.random_range(0..NEAR_MISSES.len())];
                let s = String::from_utf8_lossy(&bytes).replacen(right, wrong, 1);
                bytes = s.into_bytes();
            }
            4 => {
                // Invalid UTF-8.
                let at = rng.random_range(0..=bytes.len());
                bytes.splice(at..at, [0xff, 0xc3]);
            }
            5 => {
                // Truncation.
                let at = rng.random_range(0..=bytes.len());
                bytes.truncate(at);
            }
            6 if class == Class::Script => {
                let piece = HOSTILE_SCRIPTS[rng.random_range(0..HOSTILE_SCRIPTS.len())];
                bytes = piece.as_bytes().to_vec();
            }
            6 | 7 => {
                // A reference out of the folder: the canary, a device, the password file.
                let target = match rng.random_range(0..5) {
                    0 => canary.to_string(),
                    1 => "/dev/zero".to_string(),
                    2 => "../../../../../../etc/passwd".to_string(),
                    3 => "canary-link.toml".to_string(),
                    _ => format!(
                        "../{}",
                        Path::new(canary)
                            .file_name()
                            .map_or(String::new(), |n| n.to_string_lossy().into_owned())
                    ),
                };
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let quoted = format!("\"{target}\"");
                bytes = match class {
                    Class::Script => format!(
                        "import {:?} as m;\n{text}",
                        target.trim_end_matches(".toml")
                    ),
                    Class::Ruleset => match rng.random_range(0..3) {
                        0 => set_key(&text, "scripts", &format!("[{quoted}]")),
                        1 => set_key(&text, "set", &quoted),
                        _ => set_key(&text, "extends", &quoted),
                    },
                    Class::Record => set_key(&text, "ruleset", &quoted),
                    Class::TileSet => set_key(&text, "id", &quoted),
                }
                .into_bytes();
            }
            _ => {
                // Swap two bytes.
                if bytes.len() > 2 {
                    let a = rng.random_range(0..bytes.len());
                    let b = rng.random_range(0..bytes.len());
                    bytes.swap(a, b);
                }
            }
        }
    }
    bytes
}

/// `text` with the first line `key = …` given `value` instead (so the reference takes
/// effect), or with `key = value` as its first line when no line sets `key`.
fn set_key(text: &str, key: &str, value: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let found = lines.iter_mut().find(|l| {
        l.trim_start()
            .strip_prefix(key)
            .is_some_and(|rest| rest.trim_start().starts_with('='))
    });
    match found {
        Some(line) => *line = format!("{key} = {value}"),
        None => lines.insert(0, format!("{key} = {value}")),
    }
    lines.join("\n") + "\n"
}

/// Byte spans of the integers in `s`.
fn number_spans(s: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() {
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            out.push((start, i));
        } else {
            i += 1;
        }
    }
    out
}

/// Plays a few turns under `rules` with random bots.
fn play_briefly(rules: std::sync::Arc<Ruleset>, seed: u64) {
    let (min, _) = rules.players;
    let names = (0..min.max(2)).map(|i| format!("P{i}")).collect();
    let mut setup = Setup::new(names, seed);
    setup.end_after = Some(12);
    let Ok((mut game, _)) = Game::new(rules, setup) else {
        return;
    };
    let mut bot = RandomBot::new(seed);
    let mut steps = 0;
    while !game.is_over() && steps < 400 {
        let action = bot.choose(&game);
        if game.apply(&action).is_err() {
            return;
        }
        steps += 1;
    }
}

/// Loads one mutated input in-process, as its class is loaded by castellan.
fn load(class: Class, path: &Path, dir: &Path, seed: u64) -> Result<(), String> {
    let given = path.display().to_string();
    match class {
        Class::TileSet => {
            let text = castellan::data::files::read(path, castellan::data::files::Named::ByUser)?;
            TileSet::parse(path, &text)
                .map(|_| ())
                .map_err(|d| d.render())
        }
        Class::Ruleset => {
            let rules = Ruleset::load(&given).map_err(|d| d.render())?;
            play_briefly(rules, seed);
            Ok(())
        }
        Class::Script => {
            let ruleset = dir.join("with-script.toml");
            let text = format!(
                "extends = \"hig\"\nname = \"fuzz\"\nscripts = [\"{}\"]\n",
                path.file_name()
                    .map_or(String::new(), |n| n.to_string_lossy().into_owned())
            );
            std::fs::write(&ruleset, text).map_err(|e| e.to_string())?;
            let rules = Ruleset::load(&ruleset.display().to_string()).map_err(|d| d.render())?;
            play_briefly(rules, seed);
            Ok(())
        }
        Class::Record => {
            // A record names its ruleset by any path (the user's saved game); a record from a
            // stranger is read as the server reads an upload, with its folder as the only root.
            castellan::data::files::within_bundle(dir, || {
                let text =
                    castellan::data::files::read(path, castellan::data::files::Named::ByUser)?;
                let record = Record::parse(Source {
                    path: path.to_path_buf(),
                    text,
                })
                .map_err(|d| d.render())?;
                record.replay().map(|_| ()).map_err(|e| e.to_string())
            })
        }
    }
}

/// Runs `castellan validate FILE` with a time limit; returns the exit code and stderr.
fn validate_with_limit(path: &Path, limit: Duration) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_castellan"))
        .arg("validate")
        .arg(path)
        .current_dir(root())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                return (None, "hang".to_string());
            }
            _ => std::thread::sleep(Duration::from_millis(5)),
        }
    }
    let out = child.wait_with_output().expect("output");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// How long one input may take in-process (a script's action budget is 5 s; this leaves room
/// for a loaded machine).
const CASE_LIMIT: Duration = Duration::from_secs(60);

/// Loads one input on its own thread: `None` when it did not finish within [`CASE_LIMIT`],
/// `Some(Err(()))` when it panicked.
fn load_bounded(
    class: Class,
    path: &Path,
    dir: &Path,
    seed: u64,
) -> Option<Result<Result<(), String>, ()>> {
    let (tx, rx) = std::sync::mpsc::channel();
    let (path, dir) = (path.to_path_buf(), dir.to_path_buf());
    std::thread::spawn(move || {
        let result = std::panic::catch_unwind(|| load(class, &path, &dir, seed));
        let _ = tx.send(result.map_err(|_| ()));
    });
    rx.recv_timeout(CASE_LIMIT).ok()
}

/// The canary's text: invalid as TOML and as rhai, so a load that read it could only fail, and
/// its error would quote the line.
fn canary_text() -> String {
    format!("{CANARY} = = @@@ {{\n")
}

#[test]
fn mutated_inputs_never_panic_hang_or_escape() {
    let cases = env_number("CASTELLAN_FUZZ_CASES", 5000);
    let seed = env_number("CASTELLAN_FUZZ_SEED", 1);
    // A folder of this process's own: two runs at once (two checkouts) must not share one.
    let base = std::env::temp_dir().join(format!("castellan-fuzz-{seed}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let dir = base.join("inputs");
    std::fs::create_dir_all(&dir).expect("temp folder");
    // The canary lies next to the inputs' folder: outside it. A link inside the folder points
    // at it (a link is followed and its target checked).
    let canary = base.join("canary.toml");
    std::fs::write(&canary, canary_text()).expect("canary");
    #[cfg(unix)]
    std::os::unix::fs::symlink(&canary, dir.join("canary-link.toml")).expect("link");
    let corpus = corpus();
    assert!(corpus.len() > 20, "{}", corpus.len());
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut counts: BTreeMap<(Class, Outcome), u64> = BTreeMap::new();
    let mut binary_runs = 0u64;
    let started = Instant::now();
    let quiet = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut failures = Vec::new();
    for case in 0..cases {
        let (class, source) = &corpus[rng.random_range(0..corpus.len())];
        let text = std::fs::read_to_string(source).expect("a shipped file");
        let bytes = mutate(&mut rng, *class, &text, &canary.display().to_string());
        let name = match class {
            Class::Script => format!("case{case}.rhai"),
            _ => format!("case{case}.toml"),
        };
        let path = dir.join(&name);
        std::fs::write(&path, &bytes).expect("input written");
        let outcome = match load_bounded(*class, &path, &dir, case) {
            None => {
                failures.push(format!(
                    "{class:?} case {case} (from {}) ran longer than {CASE_LIMIT:?}",
                    source.display()
                ));
                // The thread cannot be stopped: end the run here.
                break;
            }
            Some(Err(())) => {
                failures.push(format!(
                    "panic on {class:?} case {case} (from {})",
                    source.display()
                ));
                continue;
            }
            Some(Ok(Ok(()))) => Outcome::Accepted,
            Some(Ok(Err(message))) => {
                if message.trim().is_empty() {
                    failures.push(format!("empty message for {class:?} case {case}"));
                }
                if message.contains(CANARY) || message.contains("root:x:") {
                    failures.push(format!(
                        "{class:?} case {case} showed a file outside: {message}"
                    ));
                }
                Outcome::Refused
            }
        };
        *counts.entry((*class, outcome)).or_default() += 1;
        if case % 25 == 0 && *class != Class::Script {
            binary_runs += 1;
            let (code, err) = validate_with_limit(&path, Duration::from_secs(60));
            let ok = matches!(code, Some(0) | Some(1));
            // On the command line a record may name any ruleset (the user's own saved game):
            // only the other classes are checked for escapes there.
            let escaped =
                *class != Class::Record && (err.contains(CANARY) || err.contains("root:x:"));
            if !ok || err.contains("panicked") || escaped {
                failures.push(format!("binary on {class:?} case {case}: {code:?} {err}"));
            }
            if code == Some(1) && err.trim().is_empty() {
                failures.push(format!(
                    "binary refused {class:?} case {case} without a message"
                ));
            }
        }
        let _ = std::fs::remove_file(&path);
    }
    std::panic::set_hook(quiet);
    let _ = std::fs::remove_dir_all(&base);
    let mut report = format!(
        "fuzz: {cases} inputs (seed {seed}), {binary_runs} also through the binary, {:.1} s\n",
        started.elapsed().as_secs_f64()
    );
    for class in [Class::TileSet, Class::Ruleset, Class::Record, Class::Script] {
        let n = |o| counts.get(&(class, o)).copied().unwrap_or(0);
        let (accepted, refused) = (n(Outcome::Accepted), n(Outcome::Refused));
        report.push_str(&format!(
            "  {class:?}: {} inputs, {accepted} accepted, {refused} refused\n",
            accepted + refused
        ));
    }
    println!("{report}");
    let _ = std::fs::write(root().join("target/fuzz-counts.txt"), &report);
    assert!(failures.is_empty(), "{report}{}", failures.join("\n"));
    // Every class was tried, and both outcomes occur.
    for class in [Class::TileSet, Class::Ruleset, Class::Record, Class::Script] {
        let tried: u64 = counts
            .iter()
            .filter(|((c, _), _)| *c == class)
            .map(|(_, n)| n)
            .sum();
        assert!(tried > 0, "{class:?} never tried");
    }
    assert!(counts.keys().any(|(_, o)| *o == Outcome::Refused));
    assert!(counts.keys().any(|(_, o)| *o == Outcome::Accepted));
}
