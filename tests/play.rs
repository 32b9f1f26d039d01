//! The terminal game, played through the real binary with choices piped into stdin.

use castellan::data::ruleset::Ruleset;
use castellan::engine::game::{Game, Setup};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::Arc;

/// Runs `castellan ARGS` with `input` on stdin.
fn castellan(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_castellan"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.to_string();
    // Write from another thread: the game may stop reading before the input ends.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let output = child.wait_with_output().expect("the binary runs");
    let _ = writer.join();
    output
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// `n` lines of "1": always the first action.
fn ones(n: usize) -> String {
    "1\n".repeat(n)
}

/// The scores listed under "final scores", by name.
fn final_scores(out: &str) -> Vec<(String, u32)> {
    let (_, tail) = out
        .rsplit_once("final scores\n")
        .unwrap_or_else(|| panic!("no final scores in:\n{}", last_lines(out, 40)));
    tail.lines()
        .take_while(|l| l.starts_with("  "))
        .map(|l| {
            let (name, score) = l.trim().rsplit_once(' ').expect("name and score");
            (name.trim().to_string(), score.parse().expect("a score"))
        })
        .collect()
}

fn last_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// A fresh temporary directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("castellan-play-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

/// The last list of choices shown before `end` in `out`: from its scores line to its prompt.
fn choices_before(out: &str, end: usize) -> String {
    let start = out[..end].rfind("\nscores: ").expect("a scores line");
    let prompt = out[start..].find(", choose ").expect("a prompt") + start;
    out[start..prompt].to_string()
}

#[test]
fn a_whole_game_through_the_terminal_scores_like_the_library() {
    let out = castellan(
        &[
            "play",
            "--ruleset",
            "base",
            "--players",
            "Ann,Bob",
            "--seed",
            "3",
        ],
        &ones(1000),
    );
    let text = stdout(&out);
    assert!(
        out.status.success(),
        "exit {:?}\n{}\n{}",
        out.status,
        last_lines(&text, 30),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("final scores"));
    assert!(text.contains("winner: ") || text.contains("tie between "));
    // Every event is told in words, naming its rule.
    assert!(
        text.contains("(§1.6 completed"),
        "{}",
        last_lines(&text, 30)
    );
    // The same choices made through the library: the first legal action every time.
    let rules = Ruleset::load("base").expect("base loads");
    let setup = Setup::new(vec!["Ann".into(), "Bob".into()], 3);
    let (mut game, _) = Game::new(Arc::clone(&rules), setup).expect("a game");
    while !game.is_over() {
        let first = game.legal()[0];
        game.apply(&first).expect("legal");
    }
    let expected = vec![
        ("Ann".to_string(), game.scores()[0]),
        ("Bob".to_string(), game.scores()[1]),
    ];
    assert_eq!(final_scores(&text), expected);
}

#[test]
fn a_game_against_bots_runs_to_its_final_score() {
    let out = castellan(
        &[
            "play",
            "--ruleset",
            "hig",
            "--players",
            "Ann,random,greedy",
            "--seed",
            "3",
        ],
        &ones(1000),
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{}", last_lines(&text, 30));
    let scores = final_scores(&text);
    let names: Vec<&str> = scores.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["Ann", "random", "greedy"]);
    // The bots' moves are printed as events too.
    assert!(text.contains("greedy places "));
    assert!(text.contains("random places "));
}

#[test]
fn bad_input_gets_a_message_and_the_prompt_again() {
    let out = castellan(
        &[
            "play",
            "--ruleset",
            "base",
            "--players",
            "Ann,random",
            "--seed",
            "3",
        ],
        "x\n999\n0\n\nsave\nhelp\n1\nquit\n",
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("`x` is neither a number nor a command"),
        "{text}"
    );
    assert!(text.contains("999 is not on the list"), "{text}");
    assert!(text.contains("0 is not on the list"), "{text}");
    assert!(text.contains("save needs a file name"), "{text}");
    assert!(text.contains("save FILE"), "{text}");
    // Six refused lines, then "1" (placed), then the deploy prompt answered with quit.
    assert_eq!(text.matches("Ann, choose ").count(), 8, "{text}");
    assert!(text.contains("Ann places "), "{text}");
    assert!(text.contains("quit: "), "{text}");
}

#[test]
fn the_end_of_input_before_the_end_of_the_game_is_an_error() {
    let out = castellan(
        &[
            "play",
            "--ruleset",
            "base",
            "--players",
            "Ann,Bob",
            "--seed",
            "1",
        ],
        &ones(3),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("the input ended"));
}

#[test]
fn wrong_options_are_reported() {
    let one = castellan(&["play", "--ruleset", "base", "--players", "Ann"], "");
    assert_eq!(one.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&one.stderr).contains("players"));
    let empty = castellan(&["play", "--players", "Ann,,Bob"], "");
    assert_eq!(empty.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&empty.stderr).contains("empty name"));
    let missing = castellan(&["play", "--ruleset", "no-such-rules"], "");
    assert_eq!(missing.status.code(), Some(1));
    let both = castellan(&["play", "--resume", "x.toml", "--players", "Ann,Bob"], "");
    assert_eq!(both.status.code(), Some(2));
}

#[test]
fn save_then_resume_continues_the_same_game() {
    let dir = temp_dir("resume");
    let file = dir.join("saved.toml");
    let file_arg = file.to_str().expect("a UTF-8 path");
    let args = [
        "play",
        "--ruleset",
        "hig",
        "--players",
        "Ann,greedy",
        "--seed",
        "11",
    ];
    // The whole game without a break.
    let whole = castellan(&args, &ones(2000));
    assert!(whole.status.success());
    let whole_scores = final_scores(&stdout(&whole));

    // The same game, saved after twelve choices.
    let input = format!("{}save {file_arg}\nquit\n", ones(12));
    let first = castellan(&args, &input);
    let first_text = stdout(&first);
    assert!(first.status.success(), "{first_text}");
    assert!(first_text.contains("saved to "), "{first_text}");
    let saved = first_text.find("saved to ").expect("saved");
    let before = choices_before(&first_text, saved);
    let record = std::fs::read_to_string(&file).expect("the record was written");
    assert!(record.contains("ruleset = \"hig\""), "{record}");
    assert!(
        record.contains("players = [\"Ann\", \"greedy\"]"),
        "{record}"
    );

    // Resuming shows the same decision…
    let resumed = castellan(&["play", "--resume", file_arg], "quit\n");
    let resumed_text = stdout(&resumed);
    assert!(resumed.status.success(), "{resumed_text}");
    assert!(resumed_text.contains("resuming"), "{resumed_text}");
    let prompt = resumed_text.find("Ann, choose ").expect("a prompt");
    assert_eq!(choices_before(&resumed_text, prompt), before);

    // …and playing on gives the same game as playing straight through.
    let rest = castellan(&["play", "--resume", file_arg], &ones(2000));
    assert!(rest.status.success());
    assert_eq!(final_scores(&stdout(&rest)), whole_scores);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn custom_tiles_play_and_resume_from_anywhere() {
    // A ruleset named by path, with the synthetic test tiles in the bag.
    let dir = temp_dir("custom");
    let file = dir.join("custom.toml");
    let file_arg = file.to_str().expect("a UTF-8 path");
    let args = [
        "play",
        "--ruleset",
        "tests/fixtures/synthetic.toml",
        "--players",
        "Ann,random",
        "--seed",
        "4",
    ];
    let input = format!("{}save {file_arg}\nquit\n", ones(6));
    let first = castellan(&args, &input);
    assert!(first.status.success(), "{}", stdout(&first));
    // The saved record names the ruleset so that it loads from the record's directory.
    let record = std::fs::read_to_string(&file).expect("saved");
    assert!(record.contains("synthetic.toml"), "{record}");
    let rest = castellan(&["play", "--resume", file_arg], &ones(2000));
    let text = stdout(&rest);
    assert!(
        rest.status.success(),
        "{}\n{}",
        last_lines(&text, 20),
        String::from_utf8_lossy(&rest.stderr)
    );
    assert_eq!(final_scores(&text).len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bots_alone_play_a_whole_game() {
    let out = castellan(
        &[
            "play",
            "--ruleset",
            "hig",
            "--players",
            "greedy,random",
            "--seed",
            "2",
        ],
        "",
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{}", last_lines(&text, 20));
    assert_eq!(final_scores(&text).len(), 2);
    assert!(!text.contains(", choose "));
}
