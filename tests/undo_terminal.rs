//! `undo` in the terminal game (issue 33), through the real binary with typed lines on stdin:
//! taking back the placement of one's tile shows exactly the choices before it, and the saved
//! record no longer has it; a table without undo (`--no-undo`, or the ruleset's `[table] undo =
//! false`) keeps every step.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Runs `castellan play` for Ann and Bob (hig, seed 11) with `input` typed.
fn play(input: &str) -> String {
    play_with(&["--ruleset", "hig"], input)
}

/// Runs `castellan play` for Ann and Bob (seed 11) with the options `args` and `input` typed.
fn play_with(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_castellan"))
        .args(["play", "--players", "Ann,Bob", "--seed", "11"])
        .args(args)
        .env("COLUMNS", "100")
        .env("LINES", "60")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("castellan runs");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let out: Output = child.wait_with_output().expect("castellan ends");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Every screen of choices shown, from its scores line to its prompt.
fn screens(out: &str) -> Vec<String> {
    out.split("\nscores: ")
        .skip(1)
        .map(|s| s[..s.find(", choose ").expect("a prompt")].to_string())
        .collect()
}

fn saved(name: &str) -> PathBuf {
    let file =
        std::env::temp_dir().join(format!("castellan-undo-{}-{name}.toml", std::process::id()));
    let _ = std::fs::remove_file(&file);
    file
}

#[test]
fn undo_takes_back_the_placement_exactly_and_the_record_forgets_it() {
    let file = saved("undone");
    let out = play(&format!("1\nundo\nsave {}\nquit\n", file.display()));
    assert!(out.contains("took back your last step"), "{out}");
    let shown = screens(&out);
    // Before placing, after placing (the deploy choices), after undo: the first again.
    assert_eq!(shown.len(), 3, "{out}");
    assert_eq!(shown[2], shown[0]);
    assert_ne!(shown[1], shown[0]);
    let record = std::fs::read_to_string(&file).expect("saved");
    assert!(!record.contains("[[action]]"), "{record}");
    // Placing again after the undo is the same game as placing once.
    let again = saved("again");
    play(&format!(
        "1\nundo\n1\nsave {}\nquit\nquit\n",
        again.display()
    ));
    let once = saved("once");
    play(&format!("1\nsave {}\nquit\nquit\n", once.display()));
    let read = |f: &PathBuf| std::fs::read_to_string(f).expect("saved");
    assert_eq!(read(&again), read(&once));
    assert!(read(&once).contains("[[action]]"));
}

#[test]
fn nothing_can_be_taken_back_before_a_step() {
    let out = play("undo\nquit\n");
    assert!(out.contains("nothing to take back"), "{out}");
    assert!(!out.contains("took back"), "{out}");
}

/// At a table without undo, `undo` after placing says so and takes nothing back: no screen of
/// the placement comes again, and the saved record has the placement.
fn assert_undo_refused(args: &[&str]) {
    let file = saved(&format!("final{}", args.len()));
    let out = play_with(
        args,
        &format!("1\nundo\nsave {}\nquit\nquit\n", file.display()),
    );
    assert!(out.contains("played without undo"), "{out}");
    assert!(!out.contains("took back"), "{out}");
    let shown = screens(&out);
    assert_eq!(shown.len(), 2, "placing, then deploying: {out}");
    let after = &out[out.find("played without undo").expect("refused")..];
    assert!(after.contains("Ann, choose 1-4"), "still deploying: {out}");
    let record = std::fs::read_to_string(&file).expect("saved");
    assert_eq!(record.matches("[[action]]").count(), 1, "{record}");
}

#[test]
fn no_undo_on_the_command_line_makes_every_step_final() {
    assert_undo_refused(&["--ruleset", "hig", "--no-undo"]);
}

#[test]
fn a_ruleset_without_undo_makes_every_step_final() {
    let rules = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/hig-no-undo.toml"
    );
    assert_undo_refused(&["--ruleset", rules]);
}
