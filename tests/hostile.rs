//! Hostile input (issue "Hostile input"): every reproducer found by mutating castellan's inputs,
//! as a test. Each runs the real binary (or the library loaders) and checks: no panic, exit
//! status 1 with a located message for a refused input, no byte of a refused file shown.

use castellan::data::files;
use castellan::data::ruleset::Ruleset;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_castellan"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("the binary runs")
}

/// A fresh folder for one test's files.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("castellan-hostile-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("scripts")).expect("temp folder");
    dir
}

/// Writes a ruleset extending `hig` with `extra` lines, and `script` as scripts/t.rhai.
fn scripted(dir: &Path, script: &str, extra: &str) -> String {
    std::fs::write(dir.join("scripts/t.rhai"), script).expect("script");
    let path = dir.join("r.toml");
    let text = format!("extends = \"hig\"\nname = \"t\"\nscripts = [\"scripts/t.rhai\"]\n{extra}");
    std::fs::write(&path, text).expect("ruleset");
    path.display().to_string()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Refused with exit status 1, a message containing `want`, and no panic.
fn refused(o: &Output, want: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains(want), "expected `{want}` in: {err}");
}

#[test]
fn a_syntax_error_after_non_ascii_text_is_located_by_character() {
    // Was a panic in the diagnostic renderer ("byte index is not a char boundary").
    for (line, column) in [
        ("  let x = \"éé\" + ;", 18),
        ("  let s = \"😀😀😀\"; let = 2;", 22),
        ("  let 中 = 1;", 7),
        ("  \u{feff}let = 1;", 3),
    ] {
        let dir = folder("utf8");
        let ruleset = scripted(&dir, &format!("fn turn_start() {{\n{line}\n}}\n"), "");
        let o = run(&["validate", &ruleset]);
        refused(&o, &format!("t.rhai:2:{column}"));
    }
}

#[test]
fn output_into_a_closed_pipe_ends_quietly() {
    // Was "failed printing to stdout: Broken pipe" (exit 101) for `… | head`.
    for args in [
        &["replay", "tests/records/render/showcase.toml"][..],
        &["replay", "--json", "tests/records/render/showcase.toml"],
        &["render", "tests/records/render/showcase.toml"],
        &["simulate", "--games", "3000"],
    ] {
        let mut child = bin()
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawns");
        let mut byte = [0u8; 1];
        child
            .stdout
            .take()
            .expect("stdout")
            .read_exact(&mut byte)
            .expect("some output");
        // The reader is gone: the rest of the output has nowhere to go.
        let out = child.wait_with_output().expect("ends");
        let err = stderr(&out);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
    }
}

#[test]
fn no_ruleset_can_lift_the_sandbox_limits() {
    for (key, value) in [
        ("max_operations", "0"),
        ("max_operations", "9223372036854775807"),
        ("max_call_depth", "2147483648"),
        ("max_call_depth", "0"),
        ("max_string_size", "0"),
        ("max_string_size", "9223372036854775807"),
        ("max_array_size", "0"),
        ("max_array_size", "9223372036854775807"),
        ("max_map_size", "0"),
    ] {
        let dir = folder("limits");
        let ruleset = scripted(
            &dir,
            "fn turn_start() {}\n",
            &format!("[scripting]\n{key} = {value}\n"),
        );
        let o = run(&["validate", &ruleset]);
        refused(&o, "r.toml:5:");
        refused(&o, &format!("scripting.{key} must be between"));
    }
}

#[test]
fn deep_recursion_at_the_deepest_allowed_call_depth_is_an_error_not_a_crash() {
    let dir = folder("recursion");
    let ruleset = scripted(
        &dir,
        "fn f(n) { f(n + 1) }\nfn turn_start() {\n  f(0);\n}\n",
        "[scripting]\nmax_call_depth = 64\n",
    );
    let o = run(&["simulate", "--ruleset", &ruleset, "--games", "1"]);
    refused(&o, "script error in hook `turn_start`");
}

#[test]
fn a_ruleset_cannot_read_files_outside_its_folder() {
    let dir = folder("escape");
    let passwd = "/etc/passwd";
    let up = "../".repeat(12) + "etc/passwd";
    for extra in [
        format!("scripts = [\"{passwd}\"]\n"),
        format!("scripts = [\"{up}\"]\n"),
        "[[tiles]]\nset = \"/dev/zero\"\n".to_string(),
        format!("[[tiles]]\nset = \"{up}\"\n"),
    ] {
        std::fs::write(
            dir.join("r.toml"),
            format!("extends = \"hig\"\nname = \"t\"\n{extra}"),
        )
        .expect("ruleset");
        let o = run(&["validate", &dir.join("r.toml").display().to_string()]);
        refused(&o, "lies outside the folders this file may read");
        refused(&o, "r.toml:");
        assert!(!stderr(&o).contains("root:"), "{}", stderr(&o));
    }
    for parent in ["/dev/zero", "/etc/passwd", &up] {
        std::fs::write(
            dir.join("r.toml"),
            format!("extends = \"{parent}\"\nname = \"t\"\n"),
        )
        .expect("ruleset");
        let o = run(&["validate", &dir.join("r.toml").display().to_string()]);
        refused(&o, "r.toml:1:11");
        assert!(!stderr(&o).contains("root:"), "{}", stderr(&o));
    }
}

#[cfg(unix)]
#[test]
fn links_out_of_the_folder_are_followed_and_refused() {
    let dir = folder("links");
    let outside = folder("links-outside");
    std::fs::write(outside.join("m.rhai"), "fn f() { 1 }\n").expect("module");
    std::os::unix::fs::symlink(outside.join("m.rhai"), dir.join("scripts/m.rhai")).expect("link");
    // A script that is a link to a file outside.
    std::os::unix::fs::symlink(outside.join("m.rhai"), dir.join("scripts/l.rhai")).expect("link");
    let ruleset = scripted(&dir, "import \"m\" as m;\nfn turn_start() {}\n", "");
    let o = run(&["validate", &ruleset]);
    refused(&o, "t.rhai:1:8");
    refused(&o, "lies outside");
    std::fs::write(
        dir.join("r.toml"),
        "extends = \"hig\"\nname = \"t\"\nscripts = [\"scripts/l.rhai\"]\n",
    )
    .expect("ruleset");
    let o = run(&["validate", &dir.join("r.toml").display().to_string()]);
    refused(&o, "r.toml:3:12");
    // A device named on the command line is not a regular file.
    let o = run(&["validate", "/dev/zero"]);
    refused(&o, "not a regular file");
}

#[test]
fn an_uploaded_bundle_is_the_only_root() {
    let dir = folder("bundle");
    let outside = Path::new(env!("CARGO_MANIFEST_DIR")).join("tiles/base.toml");
    std::fs::write(
        dir.join("r.toml"),
        format!(
            "extends = \"hig\"\nname = \"t\"\n[[tiles]]\nset = \"{}\"\n",
            outside.display()
        ),
    )
    .expect("ruleset");
    let inside = dir.join("r.toml");
    let err = files::within_bundle(&dir, || Ruleset::load(&inside.display().to_string()))
        .expect_err("a tile set outside the bundle is refused");
    assert!(err.to_string().contains("lies outside"), "{err}");
    // Whether a file outside exists is not even told.
    std::fs::write(
        dir.join("r.toml"),
        "extends = \"hig\"\nname = \"t\"\n[[tiles]]\nset = \"../no/such/file.toml\"\n",
    )
    .expect("ruleset");
    let err = files::within_bundle(&dir, || Ruleset::load(&inside.display().to_string()))
        .expect_err("outside the bundle");
    assert!(err.to_string().contains("lies outside"), "{err}");
    // A bare name is the built-in copy; a file outside the bundle named directly is refused.
    std::fs::write(dir.join("r.toml"), "extends = \"hig\"\nname = \"t\"\n").expect("ruleset");
    let ok = files::within_bundle(&dir, || Ruleset::load(&inside.display().to_string()));
    assert!(ok.is_ok(), "{:?}", ok.err());
    let hig = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/hig.toml");
    let err = files::within_bundle(&dir, || Ruleset::load(&hig.display().to_string()))
        .expect_err("outside the bundle");
    assert!(err.to_string().contains("lies outside"), "{err}");
}

#[test]
fn a_file_that_is_not_utf8_is_located() {
    let dir = folder("bytes");
    std::fs::write(dir.join("r.toml"), b"extends = \"hig\"\nname = \"t\xff\"\n").expect("file");
    let o = run(&["validate", &dir.join("r.toml").display().to_string()]);
    refused(&o, "r.toml:2:10: the file is not UTF-8 text");
}

#[test]
fn script_scores_are_checked() {
    for (script, want) in [
        (
            "fn turn_start() {\n  score(0, 2147483647, \"a\");\n  score(0, 2147483647, \"b\");\n  score(0, 2147483647, \"c\");\n}\n",
            "t.rhai:4:3: script error in hook `turn_start`: that would take the score past 4294967295 points",
        ),
        (
            "fn turn_start() {\n  score(0, 9999999999, \"a\");\n}\n",
            "t.rhai:2:3: script error in hook `turn_start`: points must be at most 4294967295, not 9999999999",
        ),
        (
            "fn turn_start() {\n  score(0, -1, \"a\");\n}\n",
            "points must be 0 or more, not -1",
        ),
        (
            "fn turn_start() {\n  score(7, 1, \"a\");\n}\n",
            "t.rhai:2:3: script error in hook `turn_start`: there is no player 7",
        ),
    ] {
        let dir = folder("scores");
        let ruleset = scripted(&dir, script, "");
        let o = run(&["simulate", "--ruleset", &ruleset, "--games", "1"]);
        refused(&o, want);
    }
}

#[test]
fn a_failing_filter_stops_the_simulation_naming_the_hook() {
    for (script, want) in [
        (
            "fn filter_deploy(t) { throw \"boom\"; }\n",
            "hook `filter_deploy`: Runtime error: boom",
        ),
        (
            "fn filter_deploy(t) {\n  3\n}\n",
            "t.rhai:1:1: script error in hook `filter_deploy`: filter_deploy() must answer an array",
        ),
        (
            "fn actions(d) { 3 }\n",
            "actions() must answer an array of offers",
        ),
    ] {
        let dir = folder("filters");
        let ruleset = scripted(&dir, script, "");
        let o = run(&["simulate", "--ruleset", &ruleset, "--games", "3", "--json"]);
        refused(&o, want);
        assert!(o.stdout.is_empty(), "no statistics of broken games");
    }
}

#[test]
fn scripts_have_no_clock() {
    let dir = folder("clock");
    let ruleset = scripted(&dir, "fn turn_start() {\n  let t = timestamp();\n}\n", "");
    let o = run(&["simulate", "--ruleset", &ruleset, "--games", "1"]);
    refused(&o, "Function not found: timestamp");
}

#[test]
fn a_record_action_with_extra_values_is_refused() {
    let dir = folder("record");
    let record = dir.join("g.toml");
    std::fs::write(
        &record,
        "ruleset = \"base\"\nplayers = [\"A\", \"B\"]\nseed = 1\n[[action]]\nplace = [0, 1, 0, 999, \"junk\"]\n",
    )
    .expect("record");
    let o = run(&["replay", &record.display().to_string()]);
    refused(&o, "g.toml:5:9");
    refused(&o, "`place` takes 3 values, not 5");
}

#[test]
fn play_with_an_unknown_ruleset_says_error_once() {
    let o = bin()
        .args(["play", "--ruleset", "no-such-ruleset"])
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    refused(&o, "no ruleset named `no-such-ruleset`");
    assert!(!stderr(&o).contains("error: error"), "{}", stderr(&o));
}
