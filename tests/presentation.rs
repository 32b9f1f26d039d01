//! The user interfaces name no mechanic (issue 30 §5): each family presents itself through
//! `engine::show::Presenter` in its `mechanic/<family>/show.rs`, listed once in
//! `registry::presenters`. So no source file under `src/ui/` names a path into `mechanic/` or
//! calls a family's own readers on the game, and the web page's files name no family figure.
//! Each failure is reported as file:line with the offending text.

mod common;

use castellan::bot::{Bot, RandomBot};
use castellan::engine::action::Action;
use castellan::engine::game::{Game, Setup};
use castellan::model::figure::FigureKind;
use castellan::ui::render;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Readers a family adds to `Game` (`mechanic/pd/mod.rs`): an interface calling one of them
/// depends on that family as surely as an import would.
const FAMILY_READERS: &[&str] = &[".dragon()", ".fairy()", ".set_aside()", ".dragon_in_play()"];

/// The families' figures and pieces by name, which the page must not know: it draws what the
/// server's SVG and JSON say. (`count` and `big`, figure table rows too, are left out: they are
/// ordinary words of the page, a tile count and a big board.)
const FAMILY_NOUNS: &[&str] = &[
    "dragon", "fairy", "princess", "portal", "volcano", "builder", "pig", "goods", "abbot",
    "quarter",
];

fn files(dir: &Path, ends: &[&str], out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable folder") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            files(&path, ends, out);
        } else if ends.iter().any(|e| path.to_string_lossy().ends_with(e)) {
            out.push(path);
        }
    }
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every line of the files under `dir` ending in one of `ends` for which `bad` finds
/// something, as "file:line: text".
fn offending(dir: &Path, ends: &[&str], bad: impl Fn(&str) -> Option<String>) -> Vec<String> {
    let mut list = Vec::new();
    files(dir, ends, &mut list);
    list.sort();
    assert!(!list.is_empty(), "no files under {}", dir.display());
    let mut found = Vec::new();
    for file in list {
        let text = std::fs::read_to_string(&file).expect("a readable file");
        let rel = file
            .strip_prefix(src())
            .unwrap_or(&file)
            .display()
            .to_string();
        for (n, line) in text.lines().enumerate() {
            if let Some(what) = bad(line) {
                found.push(format!("src/{rel}:{}: {what}: {}", n + 1, line.trim()));
            }
        }
    }
    found
}

/// Whether `word` stands in `line` as a whole word (letters around it do not count), any case.
fn names(line: &str, word: &str) -> bool {
    let lower = line.to_lowercase();
    lower.match_indices(word).any(|(at, _)| {
        let before = lower[..at].chars().next_back();
        let after = lower[at + word.len()..].chars().next();
        let letter = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        !letter(before) && !letter(after)
    })
}

/// What is wrong with a line of `ui/`'s Rust: a path into a mechanic folder, or a family's
/// reader called (comments apart).
fn ui_fault(line: &str) -> Option<String> {
    let code = line.split("//").next().unwrap_or("");
    if code.matches("mechanic::").count() > code.matches("engine::mechanic").count() {
        return Some("names a mechanic folder".to_string());
    }
    FAMILY_READERS
        .iter()
        .find(|r| code.contains(*r))
        .map(|r| format!("calls a family's reader `{r}`"))
}

/// What is wrong with a line of the page: a family's figure named.
fn page_fault(line: &str) -> Option<String> {
    FAMILY_NOUNS
        .iter()
        .find(|w| names(line, w))
        .map(|w| format!("names `{w}`"))
}

#[test]
fn the_interfaces_import_no_mechanic() {
    let found = offending(&src().join("ui"), &[".rs"], ui_fault);
    assert!(
        found.is_empty(),
        "ui/ depends on a mechanic:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_page_names_no_family_figure() {
    let page = src().join("ui").join("web").join("page");
    let found = offending(&page, &[".js", ".html", ".css"], page_fault);
    assert!(
        found.is_empty(),
        "the page names a family's figure:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_checks_find_what_they_look_for() {
    // Planted lines: each check fails on what it looks for, and only on that.
    assert!(ui_fault("use crate::mechanic::pd::vocabulary::PdEvent;").is_some());
    assert!(ui_fault("let d = crate::mechanic::tb::goods(game);").is_some());
    assert!(ui_fault("if let Some(pos) = game.dragon() {").is_some());
    assert!(ui_fault("use crate::engine::mechanic::Hooks;").is_none());
    assert!(ui_fault("// the mechanic::pd folder").is_none());
    assert!(page_fault("draw(game.dragon)").is_some());
    assert!(page_fault("const Fairy = 1;").is_some());
    assert!(page_fault("const dragonfly = 1;").is_none());
    assert!(page_fault("pigment").is_none());
}

/// A figure new in data (rulesets/README.md §3.10 `letter`, `shape`) is drawn as its row says,
/// with no code: its outline in the SVG picture and its letter beside the seat number on the
/// text board.
#[test]
fn a_new_figure_looks_as_its_row_says() {
    const TRIANGLE: &str = "M0,-10 L9,8 L-9,8 Z";
    const BAR: &str = "M-4,0 H4";
    let rules = common::written(
        "presentation",
        "squire",
        &format!(
            "[figures.squire]\nper_player = 1\nstands_on = [\"road\", \"city\", \"cloister\", \
             \"field\"]\ntags = [\"follower\"]\nletter = \"s\"\nshape = \"{TRIANGLE}\"\n\
             scale = 1.25\nbadge = \"{BAR}\"\n"
        ),
    )
    .unwrap_or_else(|d| panic!("{d}"));
    let squire = FigureKind::parse("squire").expect("named by the ruleset");
    let row = rules.figures.row(squire).expect("its row");
    assert_eq!(
        (row.letter, row.shape.as_deref()),
        (Some('s'), Some(TRIANGLE))
    );
    let setup = Setup::new(vec!["A".into(), "B".into()], 5);
    let (mut game, _) = Game::new(Arc::clone(&rules), setup).expect("game");
    let mut bot = RandomBot::new(5);
    // Play until the squire stands on the board: deploy it whenever it may be.
    while !game.figures().iter().any(|f| f.kind == squire) {
        assert!(!game.is_over(), "the squire was never deployed");
        let legal = game.legal();
        let deploy = legal
            .iter()
            .find(|a| matches!(a, Action::Deploy { figure, .. } if *figure == squire));
        let action = deploy.cloned().unwrap_or_else(|| bot.choose(&game));
        game.apply(&action).expect("a legal action");
    }
    let svg = render::svg::board(&game);
    let drawn = svg
        .lines()
        .find(|l| l.contains(r#"data-kind="squire""#))
        .expect("the squire is drawn");
    assert!(
        drawn.contains(&format!(r#"<path d="{TRIANGLE}""#)),
        "{drawn}"
    );
    // Its `scale` and `badge`: larger than the meeple, with a white bar over it.
    assert!(drawn.contains(" scale(1.25)"), "{drawn}");
    assert!(
        drawn.contains(&format!(
            r##"<path class="badge squire" d="{BAR}" stroke="#ffffff""##
        )),
        "{drawn}"
    );
    let plain = svg.lines().find(|l| l.contains(r#"data-kind="follower""#));
    assert!(
        plain.is_none_or(|l| !l.contains(TRIANGLE)),
        "only the squire is a triangle"
    );
    let text = render::text::board(&game, false);
    let seat = game
        .figures()
        .iter()
        .find(|f| f.kind == squire)
        .map(|f| f.owner + 1)
        .expect("on the board");
    // The letter stands in a free cell beside the seat number, on either side.
    let beside = [format!("{seat}s"), format!("s{seat}")];
    assert!(beside.iter().any(|b| text.contains(b.as_str())), "{text}");
}

/// A figure's look is checked like every other key: located, with what is wrong.
#[test]
fn a_bad_look_is_located() {
    for (name, body, words) in [
        ("two", "[figures.big]\nletter = \"bb\"\n", "letter `bb`"),
        ("digit", "[figures.big]\nletter = \"7\"\n", "letter `7`"),
        (
            "script",
            "[figures.big]\nshape = \"M0,0\\\"/><script>\"\n",
            "shape `M0,0\"/><script>`",
        ),
        (
            "badge",
            "[figures.big]\nbadge = \"M0,0\\\"/><script>\"\n",
            "badge `M0,0\"/><script>`",
        ),
        (
            "tiny",
            "[figures.big]\nscale = 0.1\n",
            "scale must be 0.5 to 2, not 0.1",
        ),
        (
            "nan",
            "[figures.big]\nscale = nan\n",
            "scale must be 0.5 to 2, not NaN",
        ),
    ] {
        let d = match common::written("presentation", name, body) {
            Ok(_) => panic!("{name} was accepted"),
            Err(d) => d,
        };
        let text = d.to_string();
        assert!(d.line_col().is_some(), "not located: {text}");
        assert!(
            text.contains(&format!("{name}.toml")) && text.contains(words),
            "{text}"
        );
    }
}

/// A long bad value is quoted by its start only; the caret points at it in the file.
#[test]
fn a_long_bad_look_is_quoted_short() {
    let body = format!("[figures.big]\nbadge = \"{}\"\n", "M".repeat(700));
    let Err(d) = common::written("presentation", "long", &body) else {
        panic!("a 700-character badge was accepted");
    };
    let text = d.to_string();
    let quoted = format!("badge `{}…`: SVG path data", "M".repeat(40));
    assert!(text.contains(&quoted), "{text}");
    assert_eq!(d.line_col().map(|(line, _)| line), Some(4), "{text}");
}
