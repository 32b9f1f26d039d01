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

/// The lines from `first` to `last`, both counted.
fn screen_lines(first: usize, last: usize) -> usize {
    last - first + 1
}

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

#[test]
#[ignore = "needs tmux: cargo test --release --test terminal -- --ignored"]
fn every_screen_of_a_game_fits_an_80_by_24_terminal() {
    let t = Terminal::start(&GAME, 80, 24);
    let (mut whole, mut columns) = (0, 0);
    for _ in 0..60 {
        let screen = t.prompt();
        assert_eq!(screen.len(), 24, "tmux shows 24 lines");
        assert!(screen.iter().all(|l| l.chars().count() <= 80));
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
            "{}",
            screen.join("\n")
        );
        // The choices: in columns when they are many.
        let choices = &screen[question + 1..prompt];
        let listed: usize = choices.iter().map(|l| entries(l)).sum();
        columns += usize::from(listed > choices.len());
        let range = screen[prompt]
            .split("choose 1-")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or(1);
        assert_eq!(listed, range, "every choice is on the screen");
        // The board's top (its x labels) is on the screen with everything below it, unless
        // what follows the board leaves no room even for one row of tiles, its labels and the
        // note on the view (the screen then scrolls up).
        let key = screen[..prompt]
            .iter()
            .rposition(|l| l.starts_with("key: "));
        match key {
            // From the key to the prompt, with a board of one row (six lines) and the note on
            // the view above it.
            Some(key) if screen_lines(key, prompt) + 7 <= 24 => {
                assert!(
                    screen[..key].iter().any(|l| is_x_labels(l)),
                    "the board's top is cut off:\n{}",
                    screen.join("\n")
                );
                whole += 1;
            }
            // The key line, the tile's pictures and the scores stand above the question.
            _ => assert!(
                screen_lines(question, prompt) + 8 + 7 > 24,
                "{}",
                screen.join("\n")
            ),
        }
        t.type_line("1");
    }
    assert!(whole > 40, "{whole} screens checked whole");
    assert!(columns > 0, "no long list went into columns");
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
