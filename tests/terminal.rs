//! The terminal game in a real terminal: `castellan play` runs inside tmux (a terminal emulator
//! with a screen of a fixed size), keys are typed into it and the screen is read back, as a
//! person sees it. Ignored by the plain `cargo test` (they need tmux); `.ci/run` installs tmux
//! and runs them: `cargo test --release --test terminal -- --ignored`.

use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A tmux server of its own (its own socket, no configuration file) with one window running
/// `castellan ARGS`; the server goes away with it.
struct Terminal {
    socket: String,
}

impl Terminal {
    /// `castellan ARGS` in a terminal of `columns` × `lines`. The size comes from the terminal
    /// alone: `COLUMNS` and `LINES` are removed from the game's environment.
    fn start(args: &[&str], columns: u16, lines: u16) -> Terminal {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let socket = format!(
            "castellan-test-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let terminal = Terminal { socket };
        let mut command = vec![
            "env".to_string(),
            "-u".into(),
            "COLUMNS".into(),
            "-u".into(),
            "LINES".into(),
            "-u".into(),
            "NO_COLOR".into(),
            env!("CARGO_BIN_EXE_castellan").into(),
        ];
        command.extend(args.iter().map(|a| a.to_string()));
        let (columns, lines) = (columns.to_string(), lines.to_string());
        let mut new = vec![
            "new-session",
            "-d",
            "-s",
            "play",
            "-x",
            &columns,
            "-y",
            &lines,
            "--",
        ];
        new.extend(command.iter().map(String::as_str));
        terminal.tmux(&new);
        // The window stays open after the game ends, so that its last screen can be read.
        terminal.tmux(&["set-option", "-t", "play", "remain-on-exit", "on"]);
        terminal
    }

    fn tmux(&self, args: &[&str]) -> Output {
        let out = Command::new("tmux")
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .output()
            .expect("tmux runs (install it: apt-get install tmux)");
        assert!(
            out.status.success(),
            "tmux {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    /// The screen as shown, one string per line (`escapes`: with the colours' codes).
    fn screen(&self, escapes: bool) -> Vec<String> {
        let mut args = vec!["capture-pane", "-p", "-t", "play"];
        if escapes {
            args.push("-e");
        }
        let out = self.tmux(&args);
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// Types `text` and Enter, and waits until the screen shows it.
    fn type_line(&self, text: &str) {
        let before = self.screen(false);
        self.tmux(&["send-keys", "-t", "play", "-l", text]);
        self.tmux(&["send-keys", "-t", "play", "Enter"]);
        self.wait_for("the typed line", |s| s != before.as_slice());
    }

    /// The screen once `ready` holds for it (waits up to ten seconds).
    fn wait_for(&self, what: &str, ready: impl Fn(&[String]) -> bool) -> Vec<String> {
        let start = Instant::now();
        loop {
            let screen = self.screen(false);
            if ready(&screen) {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "waited for {what}; the screen:\n{}",
                screen.join("\n")
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The screen once the game waits for a choice: its last line that is not blank is a
    /// prompt with nothing typed after it.
    fn prompt(&self) -> Vec<String> {
        self.wait_for("a prompt", |s| {
            last_text(s).is_some_and(|l| l.contains(", choose ") && l.ends_with(':'))
        })
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
}

/// The last line of the screen that is not blank.
fn last_text(screen: &[String]) -> Option<&str> {
    screen
        .iter()
        .rev()
        .map(|l| l.trim_end())
        .find(|l| !l.is_empty())
}

/// How many prompts the screen shows.
fn prompts(screen: &[String]) -> usize {
    screen.iter().filter(|l| l.contains(", choose ")).count()
}

/// The x labels above the board: numbers only, at least one.
fn is_x_labels(line: &str) -> bool {
    let mut words = line.split_whitespace().peekable();
    words.peek().is_some() && words.all(|w| w.parse::<i32>().is_ok())
}

/// A base game against `greedy` (seed 4).
const GAME: [&str; 7] = [
    "play",
    "--ruleset",
    "base",
    "--players",
    "You,greedy",
    "--seed",
    "4",
];

/// The same with The Princess & the Dragon (seed 2): on a portal turn a follower may go onto
/// almost any free feature of the board, far more choices than an 80 × 24 screen has lines.
const PORTAL_GAME: [&str; 7] = [
    "play",
    "--ruleset",
    "hig",
    "--players",
    "You,greedy",
    "--seed",
    "2",
];

/// How many numbered choices a line holds: `12. …` or, for placements grouped by position,
/// `12:90°`.
fn entries(line: &str) -> usize {
    let number = |n: &str| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit());
    line.split_whitespace()
        .filter(|w| {
            w.strip_suffix('.').is_some_and(number)
                || w.split_once(':').is_some_and(|(n, _)| number(n))
        })
        .count()
}

/// The number of choices that the line `  … and N more: …` says are left off the screen.
fn left_off(line: &str) -> Option<usize> {
    line.trim_start()
        .strip_prefix("… and ")?
        .split(' ')
        .next()?
        .parse()
        .ok()
}

/// What [`screens_fit`] saw.
#[derive(Default)]
struct Seen {
    /// Screens with the choices in columns.
    columns: usize,
    /// Screens that showed only the first choices.
    cut: usize,
}

/// Plays `decisions` decisions of `game` at 80 × 24, always answering 1, and checks that every
/// screen fits: no line wider than 80; the board's top (its x labels), the scores, the question,
/// the choices and the prompt all on the screen; every choice either listed or counted on the
/// line that says how many more there are. When `choices` is set, the first screen that shows
/// only some choices is asked for all of them with the `choices` command.
fn screens_fit(game: &[&str], decisions: usize, choices: bool) -> Seen {
    let t = Terminal::start(game, 80, 24);
    let mut seen = Seen::default();
    for _ in 0..decisions {
        let screen = t.prompt();
        let all = screen.join("\n");
        assert_eq!(screen.len(), 24, "tmux shows 24 lines");
        assert!(screen.iter().all(|l| l.chars().count() <= 80), "{all}");
        let prompt = screen
            .iter()
            .rposition(|l| l.contains(", choose "))
            .expect("a prompt");
        let question = screen[..prompt]
            .iter()
            .rposition(|l| l.starts_with("You: "))
            .expect("the question");
        assert!(
            screen[..question]
                .last()
                .is_some_and(|l| l.starts_with("scores: You ")),
            "{all}"
        );
        let key = screen[..prompt]
            .iter()
            .rposition(|l| l.starts_with("key: "))
            .expect("the players' key");
        assert!(
            screen[..key].iter().any(|l| is_x_labels(l)),
            "the board's top is cut off:\n{all}"
        );
        // The choices: in columns when they are many, cut short when even that is too long.
        let lines = &screen[question + 1..prompt];
        let listed: usize = lines.iter().map(|l| entries(l)).sum();
        let more = lines.last().and_then(|l| left_off(l));
        seen.columns += usize::from(listed > lines.len());
        let range = screen[prompt]
            .split("choose 1-")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or(1);
        assert_eq!(
            listed + more.unwrap_or(0),
            range,
            "every choice is counted:\n{all}"
        );
        if more.is_some() {
            assert!(
                lines
                    .last()
                    .is_some_and(|l| l.ends_with(&format!("`choices` lists all {range}"))),
                "{all}"
            );
            if choices && seen.cut == 0 {
                t.type_line("choices");
                // The whole list, which may be longer than the screen: its end, then the prompt.
                let last = format!("{range}. ");
                t.wait_for("the whole list", |s| {
                    let prompt = s.iter().rposition(|l| l.contains(", choose "));
                    prompt.is_some_and(|p| p > 0 && s[p - 1].contains(&last))
                        && last_text(s).is_some_and(|l| l.ends_with("(or help):"))
                });
            }
            seen.cut += 1;
        }
        t.type_line("1");
    }
    seen
}

#[test]
#[ignore = "needs tmux: cargo test --release --test terminal -- --ignored"]
fn every_screen_of_a_game_fits_an_80_by_24_terminal() {
    let seen = screens_fit(&GAME, 60, false);
    assert!(seen.columns > 0, "no long list went into columns");
}

#[test]
#[ignore = "needs tmux: cargo test --release --test terminal -- --ignored"]
fn portal_turns_show_the_first_choices_and_the_choices_command_lists_them_all() {
    let seen = screens_fit(&PORTAL_GAME, 80, true);
    assert!(seen.cut > 0, "no list was cut short");
}

#[test]
#[ignore = "needs tmux: cargo test --release --test terminal -- --ignored"]
fn the_game_reads_the_terminal_size_and_colours_its_prompt() {
    // 80 × 24: no room for the symbols' key; `key` prints it.
    let small = Terminal::start(&GAME, 80, 24);
    let screen = small.prompt();
    assert!(
        screen
            .iter()
            .any(|l| l.contains("(`key` lists the symbols)")),
        "{}",
        screen.join("\n")
    );
    assert!(!screen.iter().any(|l| l.contains("# city")));
    small.type_line("key");
    let screen = small.wait_for("the key", |s| {
        s.iter().any(|l| l.contains("# city")) && prompts(s) > 1
    });
    assert!(screen.iter().any(|l| l.contains("C cloister")));
    // The prompt is bold: the game knows it talks to a terminal.
    let coloured = small.screen(true);
    assert!(
        coloured
            .iter()
            .any(|l| l.contains("\u{1b}[1m") && l.contains(", choose ")),
        "{}",
        coloured.join("\n")
    );

    // 120 × 50, with the same game: the key has room, and after some turns the board shows
    // more rows of tiles than fit in 24 lines.
    let large = Terminal::start(&GAME, 120, 50);
    let screen = large.prompt();
    assert!(screen.iter().any(|l| l.contains("# city")));
    for _ in 0..30 {
        large.prompt();
        large.type_line("1");
    }
    let screen = large.prompt();
    let rows = screen
        .iter()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.parse::<i32>().is_ok())
        })
        .filter(|l| !is_x_labels(l))
        .count();
    assert!(rows >= 3, "{rows} rows of tiles:\n{}", screen.join("\n"));
}

/// Abbey & Mayor's abbey in the terminal (RULES-MORE.md AM-1, AM-2): a game resumed from a record
/// whose start leaves a hole offers the first player his abbey, to lay into the hole or to pass;
/// passing draws a land tile instead.
#[test]
#[ignore = "needs tmux: cargo test --release --test terminal -- --ignored"]
fn a_person_in_the_terminal_lays_or_passes_the_abbey() {
    let dir = std::env::temp_dir().join(format!("castellan-terminal-abbey-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let record = dir.join("hole.toml");
    let mut text = String::from("ruleset = \"hig-am\"\nplayers = [\"Ann\", \"Bob\"]\nseed = 5\n");
    for (x, y) in [(0, -1), (-1, 0), (1, 0), (0, 1)] {
        text += &format!("\n[[start]]\ntile = \"BA/RCr\"\nx = {x}\ny = {y}\n");
    }
    std::fs::write(&record, text).expect("the record");
    let path = record.display().to_string();
    let t = Terminal::start(&["play", "--resume", &path], 120, 40);
    let screen = t.prompt().join("\n");
    assert!(screen.contains("Ann: place AM.A"), "{screen}");
    assert!(screen.contains("1. place at (0,0) turned 0°"), "{screen}");
    assert!(screen.contains("2. pass (keep the abbey"), "{screen}");
    t.type_line("2");
    let screen = t.prompt().join("\n");
    // A land tile of the bag, with its own placements.
    assert!(
        screen.contains("Ann: place AM/") || screen.contains("Ann: place BA/"),
        "{screen}"
    );
    assert!(!screen.contains("Ann: place AM.A"), "{screen}");
    assert!(!screen.contains("place at (0,0) turned 0°"), "{screen}");
}

/// Bridges, Castles & Bazaars' auction in the terminal (RULES-MORE.md BCB-18, BCB-E3): a game
/// resumed just after A laid a bazaar asks B, a person, to choose one of the revealed tiles and
/// to bid at most his score (Q-BCB4, rulesets/README.md §3.16); then C, another person at the
/// same keyboard, is asked to raise or pass.
#[test]
#[ignore = "needs tmux: cargo test --release --test terminal -- --ignored"]
fn people_in_the_terminal_bid_at_a_bazaar() {
    let root = env!("CARGO_MANIFEST_DIR");
    let text = std::fs::read_to_string(format!("{root}/tests/records/bcb/bazaar-e3.toml"))
        .expect("the record");
    let cut = text
        .find("# The auction: B is auctioneer.")
        .expect("the auction's mark");
    // The game's own folder is the crate's (the terminal's current directory), so the ruleset
    // may be named by its whole path.
    let text = text[..cut].replace(
        "\"../../fixtures/bcb-synthetic.toml\"",
        &format!("\"{root}/tests/fixtures/bcb-synthetic.toml\""),
    );
    let dir =
        std::env::temp_dir().join(format!("castellan-terminal-bazaar-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let record = dir.join("auction.toml");
    std::fs::write(&record, text).expect("the record");
    let path = record.display().to_string();
    let t = Terminal::start(&["play", "--resume", &path], 120, 40);
    let screen = t.prompt().join("\n");
    assert!(
        screen.contains("B: choose a revealed bazaar tile"),
        "{screen}"
    );
    assert!(
        screen.contains("1. choose bazaar tile #1 (SY/FIELD)"),
        "{screen}"
    );
    assert!(
        screen.contains("3. choose bazaar tile #3 (SY/CLOISTER)"),
        "{screen}"
    );
    t.type_line("1");
    let screen = t.prompt().join("\n");
    assert!(screen.contains("B: bid for bazaar tile #1"), "{screen}");
    assert!(screen.contains("2. bid 1 point for it"), "{screen}");
    assert!(screen.contains("5. bid 4 points for it"), "{screen}");
    assert!(
        !screen.contains("bid 5 points"),
        "B holds 4 points: {screen}"
    );
    t.type_line("3");
    let screen = t.prompt().join("\n");
    assert!(
        screen.contains("C: raise the bazaar bid above 2, or pass"),
        "{screen}"
    );
    assert!(screen.contains("1. raise the bid to 3"), "{screen}");
    assert!(screen.contains("3. pass (do not raise)"), "{screen}");
}
