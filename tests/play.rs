//! The terminal game, played through the real binary with choices piped into stdin.

use castellan::data::ruleset::Ruleset;
use castellan::engine::game::{Game, Setup};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Arc;

/// A base game of Ann against the random bot.
const ANN_AND_RANDOM: [&str; 7] = [
    "play",
    "--ruleset",
    "base",
    "--players",
    "Ann,random",
    "--seed",
    "3",
];

/// Runs `castellan ARGS` with `input` on stdin.
fn castellan(args: &[&str], input: &str) -> Output {
    castellan_in(args, input, (80, 24))
}

/// [`castellan`] in a terminal of `size` (columns, lines).
fn castellan_in(args: &[&str], input: &str, size: (usize, usize)) -> Output {
    castellan_at(Path::new(env!("CARGO_MANIFEST_DIR")), args, input, size)
}

/// [`castellan_in`] with `dir` as the current directory.
fn castellan_at(dir: &Path, args: &[&str], input: &str, size: (usize, usize)) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_castellan"))
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .env("COLUMNS", size.0.to_string())
        .env("LINES", size.1.to_string())
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
fn the_default_human_is_spoken_to_in_the_second_person() {
    // Issue 12: "You draws". The default players are `You,greedy`.
    let out = castellan(&["play", "--ruleset", "base", "--seed", "5"], &ones(1000));
    let text = stdout(&out);
    assert!(out.status.success(), "{}", last_lines(&text, 30));
    assert!(text.contains("You draw "), "{}", last_lines(&text, 30));
    assert!(text.contains("You place "), "{}", last_lines(&text, 30));
    for wrong in ["You draws", "You places", "You puts", "You scores", "You's"] {
        assert!(!text.contains(wrong), "{wrong}");
    }
    // The bot is still spoken of in the third person.
    assert!(text.contains("greedy draws "));
    // Issue 12: the board comes with a key to its symbols.
    assert!(
        text.contains("key: 1 You  2 greedy\n"),
        "{}",
        last_lines(&text, 30)
    );
    assert!(text.contains("# city  = | road  . field  C cloister"));
}

#[test]
fn bad_input_gets_a_message_and_the_prompt_again() {
    let out = castellan(&ANN_AND_RANDOM, "x\n999\n0\n\nsave\nhelp\n1\nquit\nquit\n");
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
    // Six refused lines, then "1" (placed), then the deploy prompt answered with quit, which
    // asks again (a move is not saved), and quit.
    assert_eq!(text.matches("Ann, choose ").count(), 9, "{text}");
    assert!(
        text.contains("type `quit` again to leave without saving"),
        "{text}"
    );
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
fn a_ruleset_file_saved_with_the_game_resumes_wherever_the_two_move() {
    // `play --ruleset my.toml` → `save game.toml` → `play --resume game.toml`, then the folder
    // moved and the game resumed from elsewhere: the record names the ruleset from its folder.
    let dir = temp_dir("own-ruleset");
    std::fs::write(dir.join("my.toml"), "extends = \"hig\"\nname = \"mine\"\n").expect("ruleset");
    let args = [
        "play",
        "--ruleset",
        "my.toml",
        "--players",
        "Ann,random",
        "--seed",
        "5",
    ];
    let first = castellan_at(
        &dir,
        &args,
        &format!("{}save game.toml\nquit\n", ones(6)),
        (80, 24),
    );
    assert!(first.status.success(), "{}", stdout(&first));
    let record = std::fs::read_to_string(dir.join("game.toml")).expect("saved");
    assert!(record.contains("ruleset = \"my.toml\""), "{record}");
    let resumed = castellan_at(&dir, &["play", "--resume", "game.toml"], "quit\n", (80, 24));
    assert!(stdout(&resumed).contains("`mine`"), "{}", stdout(&resumed));
    // Saved into a sub-folder, the record reaches the ruleset beside it with `..`.
    std::fs::create_dir_all(dir.join("saves")).expect("folder");
    let again = castellan_at(
        &dir,
        &["play", "--resume", "game.toml"],
        "save saves/later.toml\nquit\n",
        (80, 24),
    );
    assert!(again.status.success(), "{}", stdout(&again));
    let later = std::fs::read_to_string(dir.join("saves/later.toml")).expect("saved");
    assert!(later.contains("ruleset = \"../my.toml\""), "{later}");
    // The whole folder moved; resumed from another current directory.
    let moved = temp_dir("own-ruleset-moved").join("inner");
    std::fs::rename(&dir, &moved).expect("moved");
    let game = moved.join("game.toml");
    let rest = castellan(
        &["play", "--resume", game.to_str().expect("UTF-8")],
        &ones(2000),
    );
    let text = stdout(&rest);
    assert!(
        rest.status.success(),
        "{}\n{}",
        last_lines(&text, 20),
        String::from_utf8_lossy(&rest.stderr)
    );
    assert_eq!(final_scores(&text).len(), 2);
    let _ = std::fs::remove_dir_all(moved.parent().expect("parent"));
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

#[test]
fn quit_asks_first_and_save_keeps_other_files() {
    // Issue 12: `quit` ended an unsaved game at once; `save FILE` overwrote any file.
    let dir = temp_dir("quit-save");
    let file = dir.join("g.toml");
    let other = dir.join("other.toml");
    std::fs::write(&other, "precious\n").expect("a file");
    let (file_arg, other_arg) = (
        file.to_str().expect("UTF-8"),
        other.to_str().expect("UTF-8"),
    );
    let args = ANN_AND_RANDOM;
    // `quit` with a move not saved asks; anything else in between cancels it.
    let input = format!(
        "1\nquit\nboard\nexit\nsave {other_arg}\nsave {file_arg}\n1\nsave {file_arg}\nquit\n"
    );
    let out = castellan(&args, &input);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert_eq!(
        text.matches("again to leave without saving").count(),
        2,
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "{other_arg} already exists: `save! {other_arg}` replaces it"
        )),
        "{text}"
    );
    assert_eq!(std::fs::read_to_string(&other).expect("kept"), "precious\n");
    // Saving again to the session's own file needs no confirmation, and after a save `quit`
    // leaves at once.
    assert_eq!(
        text.matches(&format!("saved to {file_arg}")).count(),
        2,
        "{text}"
    );
    assert!(text.contains("quit: "), "{text}");
    let record = std::fs::read_to_string(&file).expect("saved");
    // Ann's two choices and the bot's turn.
    assert!(record.matches("[[action]]").count() >= 3, "{record}");
    // `save!` replaces a file.
    let out = castellan(&args, &format!("1\nsave! {other_arg}\nquit\n"));
    assert!(out.status.success(), "{}", stdout(&out));
    assert!(
        std::fs::read_to_string(&other)
            .expect("replaced")
            .contains("[[action]]")
    );
}

#[test]
fn the_board_view_fits_the_terminal() {
    // Issue 12: the board outgrew an 80×24 or a 200×60 terminal. The view is centred on the
    // last tile laid and gets the lines that the rest of the screen leaves, so that the board,
    // the tile, the scores, the choices and the prompt fit the terminal together (unless the
    // rest alone leaves no room for one row of tiles); `board all` shows everything.
    let args = [
        "play",
        "--ruleset",
        "base",
        "--players",
        "Ann,greedy",
        "--seed",
        "4",
    ];
    let mut input = ones(60);
    input.push_str("board all\nquit\nquit\n");
    for (columns, lines) in [(80, 24), (200, 60)] {
        let out = castellan_in(&args, &input, (columns, lines));
        let text = stdout(&out);
        assert!(out.status.success(), "{}", last_lines(&text, 30));
        // Each board: the lines just before "key: " that start like a board's (blank, spaces,
        // y labels) or the view's note.
        let mut segments: Vec<&str> = text.split("\nkey: ").collect();
        segments.pop(); // what follows the last key
        let boards: Vec<String> = segments
            .iter()
            .map(|before| {
                let mut rows: Vec<&str> = before
                    .lines()
                    .rev()
                    .take_while(|l| {
                        l.is_empty()
                            || l.starts_with([' ', '-', '('])
                            || l.starts_with(char::is_numeric)
                    })
                    .collect();
                rows.reverse();
                rows.join("\n").trim_matches('\n').to_string()
            })
            .collect();
        assert!(boards.len() > 40, "{}", boards.len());
        // The key that follows each board fits too (the symbols wrap).
        for after in text.split("\nkey: ").skip(1) {
            for row in after.lines().take(3) {
                assert!(row.chars().count() <= columns, "{columns}: {row}");
            }
        }
        let (last, shown) = boards.split_last().expect("boards");
        let mut cut = 0;
        for (board, after) in shown.iter().zip(text.split("\nkey: ").skip(1)) {
            let rows: Vec<&str> = board.lines().collect();
            // From the key to the prompt.
            let below = after
                .lines()
                .position(|l| l.contains(", choose "))
                .expect("a prompt")
                + 1;
            let one_row = rows.iter().filter(|r| !r.starts_with('(')).count() == 6;
            assert!(
                rows.len() + below <= lines || one_row,
                "{columns}×{lines}:\n{board}\nkey: {after}"
            );
            for row in &rows {
                assert!(
                    row.chars().count() <= columns,
                    "{columns}×{lines}:\n{board}"
                );
            }
            cut += usize::from(board.contains("`board all` shows the whole board"));
            assert!(!board.is_empty());
        }
        // The board outgrew the view, and `board all` showed it whole.
        assert!(cut > 0, "{columns}×{lines}");
        assert!(!last.contains("`board all`"), "{last}");
        assert!(last.lines().count() > shown.last().expect("one").lines().count());
    }
}
