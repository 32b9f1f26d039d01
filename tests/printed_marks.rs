//! Tile sets declare their own printed marks (issue 30 item 5, tiles/README.md "Marks a tile
//! set declares"): a `[[symbol]]` on a whole tile and a `[[counter]]` on feature parts, named,
//! lettered, keyed and drawn from the file; a game of such tiles plays, its boards show them,
//! and scripts read them by name. Every refused declaration is a located error.

mod common;

use castellan::bot::{Bot, RandomBot};
use castellan::data::diagnostic::Diagnostic;
use castellan::data::printed::{self, Prints};
use castellan::data::ruleset::Ruleset;
use castellan::engine::event::Event;
use castellan::engine::game::{Game, Setup};
use castellan::model::tile::TileSet;
use castellan::ui::render::{svg, text};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A hill (a symbol, as Hills & Sheep prints them: TILES-MORE.md §3) and a well (a counter on
/// city parts), and two tile types using them: a D-like tile with a hill and one well in its
/// city, and a city cap with two wells.
const MARKED: &str = r##"name = "marked"

[[symbol]]
name = "hill"
letter = "h"
key = "hill"
path = "M-10,6 L0,-8 L10,6 Z"
fill = "#8a9a5b"

[[counter]]
name = "well"
on = ["city"]
letter = "o"
key = "well"
drawn = "in"
path = "M-5,-5 H5 V5 H-5 Z"
fill = "#3060c0"

[[tile]]
id = "MK/hill"
count = 3
edges = ["city", "road", "field", "road"]
symbol = "hill"
city = [{ edges = ["N"], marks = { well = 1 } }]
road = [{ edges = ["W", "E"] }]
field = [{ halves = ["EL", "WR"], cities = ["N"] }, { halves = ["ER", "SL", "SR", "WL"] }]

[[tile]]
id = "MK/cap"
count = 2
edges = ["city", "field", "field", "field"]
city = [{ edges = ["N"], marks = { well = 2 } }]
field = [{ halves = ["EL", "ER", "SL", "SR", "WL", "WR"], cities = ["N"] }]
"##;

/// Reads the start: the hill tile's symbol by name, the tiles carrying it, and the wells of
/// the two-tile city the start tiles close (1 + 2).
const SCRIPT: &str = r#"
fn game_start() {
    let t = tile_at(0, -1);
    log(`symbol ${t.symbol} ${tile_has(0, -1, "hill")} ${tile_has(0, 0, "hill")} ${tiles_with("hill").len()}`);
    let c = counters(0, 0, "N");
    log(`wells ${c.well} ${counters(0, -1, "S").well} cathedral ${c.cathedral}`);
}
"#;

/// A folder of its own under the test target's temp dir, with `files` written in it.
fn folder(tag: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("marks-{tag}"));
    std::fs::create_dir_all(dir.join("scripts")).expect("dir");
    for (name, body) in files {
        std::fs::write(dir.join(name), body).expect("write");
    }
    dir
}

/// The ruleset of `MARKED` on the base game: the hill tile closes the cap's city at the start.
fn marked_rules(tag: &str, extra: &str) -> Result<Arc<Ruleset>, Diagnostic> {
    let ruleset = format!(
        concat!(
            "extends = \"base\"\nname = \"marks\"\n",
            "tiles = [{{ set = \"base\" }}, {{ set = \"marked.toml\" }}]\n",
            "start = [{{ tile = \"MK/cap\", x = 0, y = 0 }}, ",
            "{{ tile = \"MK/hill\", x = 0, y = -1, rotation = 180 }}]\n",
            "scripts = [\"scripts/marks.rhai\"]\n{}"
        ),
        extra
    );
    let dir = folder(
        tag,
        &[
            ("marked.toml", MARKED),
            ("scripts/marks.rhai", SCRIPT),
            ("rules.toml", &ruleset),
        ],
    );
    Ruleset::load(&dir.join("rules.toml").display().to_string())
}

fn start(rules: &Arc<Ruleset>, seed: u64) -> (Game, Vec<Event>) {
    Game::new(
        Arc::clone(rules),
        Setup::new(vec!["A".into(), "B".into()], seed),
    )
    .expect("the game starts")
}

/// The declared marks take the ids after the built-in ones, and the built-in ids stay.
#[test]
fn declared_marks_take_the_next_ids() {
    let rules = marked_rules("ids", "").expect("the ruleset loads");
    let prints = &rules.prints;
    assert_eq!(prints.symbol_named("volcano"), Some(printed::VOLCANO));
    assert_eq!(prints.counter_named("inn"), Some(printed::INN));
    let hill = prints.symbol_named("hill").expect("declared");
    let well = prints.counter_named("well").expect("declared");
    assert_eq!(
        (hill.index(), well.index()),
        (printed::SYMBOLS.len(), printed::COUNTERS.len())
    );
    let tile = |id: &str| rules.tiles.iter().find(|t| &*t.id == id).expect("tile");
    assert_eq!(tile("MK/hill").symbol, Some(hill));
    let cap = tile("MK/cap").features()[0].counters;
    assert_eq!((cap.get(well), cap.get(printed::CATHEDRAL)), (2, 0));
}

/// A script reads the symbol by name and the counter summed over a two-tile city
/// (scripts/README.md, "tile_at", "tile_has", "tiles_with", "counters"); the game then plays to
/// its end under B-P1/B-G1 with the new tiles in the bag.
#[test]
fn a_game_of_marked_tiles_plays_and_scripts_read_the_marks() {
    let rules = marked_rules("play", "").expect("the ruleset loads");
    let (mut game, events) = start(&rules, 3);
    assert_eq!(
        common::logs(&events),
        ["symbol hill true false 1", "wells 3 3 cathedral 0"]
    );
    let mut bot = RandomBot::new(9);
    let mut hills_placed = 0;
    while !game.is_over() {
        let action = bot.choose(&game);
        game.apply(&action).expect("a legal action");
        hills_placed = game
            .board()
            .tiles()
            .iter()
            .filter(|p| rules.tile(p.tile).symbol == rules.prints.symbol_named("hill"))
            .count();
    }
    assert_eq!(game.tiles_left(), 0);
    assert_eq!(hills_placed, 3, "every hill tile was laid");
}

/// The text board draws the declared letters and keys them; the SVG draws the declared path
/// with its fill; a ruleset whose tiles print no hill keys none.
#[test]
fn the_boards_draw_and_key_the_declared_marks() {
    let rules = marked_rules("boards", "").expect("the ruleset loads");
    let (game, _) = start(&rules, 1);
    let board = text::board(&game, false);
    assert!(board.contains('h'), "{board}");
    assert_eq!(board.matches('o').count(), 3, "one well, then two: {board}");
    let key = text::key_lines(&game).join("\n");
    assert!(key.contains("o well") && key.contains("h hill"), "{key}");
    assert!(
        !key.contains("V volcano") && !key.contains("i inn"),
        "{key}"
    );
    let picture = svg::board(&game);
    let hill = r##"d="M-10,6 L0,-8 L10,6 Z" fill="#8a9a5b" stroke="#1a1a1a""##;
    assert_eq!(picture.matches(hill).count(), 1, "{picture}");
    assert_eq!(
        picture
            .matches(r#"<path class="mark hill" transform="translate("#)
            .count(),
        1
    );
    assert_eq!(
        picture
            .matches(r##"d="M-5,-5 H5 V5 H-5 Z" fill="#3060c0""##)
            .count(),
        3
    );
    // The base game's tiles alone print neither mark, so its key names neither.
    let base = Ruleset::load("base").expect("base");
    let (plain, _) = start(&base, 1);
    let key = text::key_lines(&plain).join("\n");
    assert!(!key.contains("hill") && !key.contains("well"), "{key}");
}

/// The tile-set viewer draws a set on its own with the marks it declares.
#[test]
fn a_tile_set_alone_draws_its_own_marks() {
    let mut prints = Prints::default();
    let set = TileSet::parse_over(Path::new("marked.toml"), MARKED, &mut prints).expect("reads");
    let hill = set
        .tiles
        .iter()
        .find(|t| &*t.id == "MK/hill")
        .expect("tile");
    let body = svg::tile_body(hill, Default::default(), &prints);
    assert!(
        body.contains(r##"d="M-10,6 L0,-8 L10,6 Z" fill="#8a9a5b""##),
        "{body}"
    );
    assert_eq!(prints.symbol_name(hill.symbol.expect("a symbol")), "hill");
}

/// `MARKED` with `from` replaced by `to`, read alone: its error as `file:line:col: message`.
fn refused(from: &str, to: &str) -> String {
    assert!(MARKED.contains(from), "{from}");
    let src = MARKED.replacen(from, to, 1);
    match TileSet::parse(Path::new("bad.toml"), &src) {
        Ok(_) => panic!("`{to}` is accepted"),
        Err(e) => e.to_string(),
    }
}

/// Where `needle` starts in `MARKED` with `from` replaced by `to` (1-based line and column).
fn at(from: &str, to: &str, needle: &str) -> String {
    let src = MARKED.replacen(from, to, 1);
    let start = src.find(needle).expect("the needle");
    let before = &src[..start];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("bad.toml:{line}:{col}: ")
}

/// Each bad declaration (tiles/README.md, "Marks a tile set declares") is refused at its key,
/// saying what is wrong and what is allowed.
#[test]
fn bad_declarations_are_located_and_explained() {
    let cases: [(&str, &str, &str, &str); 14] = [
        (
            "name = \"hill\"",
            "name = \"x\\\"/><script>\"",
            "\"x",
            "symbol name `x\"/><script>`: lowercase letters",
        ),
        (
            "fill = \"#8a9a5b\"",
            "fill = \"#fff\\\"/><script>\"",
            "\"#fff",
            "fill `#fff\"/><script>`: a colour written #rrggbb",
        ),
        (
            "name = \"hill\"",
            "name = \"volcano\"",
            "\"volcano\"",
            "`volcano` is a built-in mark: tiles use it without declaring it",
        ),
        (
            "name = \"hill\"",
            "name = \"Hill!\"",
            "\"Hill!\"",
            "symbol name `Hill!`: lowercase letters, digits and `_`, at most 40 characters",
        ),
        (
            "name = \"well\"",
            "name = \"hill\"",
            "\"hill\"\non",
            "`hill` is declared twice in this tile set",
        ),
        (
            "letter = \"h\"",
            "letter = \"V\"",
            "\"V\"",
            "letter `V` is already the letter of `volcano`",
        ),
        (
            "letter = \"o\"",
            "letter = \"h\"",
            "\"h\"\nkey = \"well\"",
            "letter `h` is already the letter of `hill`",
        ),
        (
            "letter = \"h\"",
            "letter = \"#\"",
            "\"#\"",
            "letter `#` is one the text board draws itself",
        ),
        (
            "letter = \"h\"",
            "letter = \"hh\"",
            "\"hh\"",
            "letter `hh`: one printable ASCII character other than a digit",
        ),
        (
            "fill = \"#8a9a5b\"",
            "fill = \"red\"",
            "\"red\"",
            "fill `red`: a colour written #rrggbb",
        ),
        (
            "key = \"hill\"",
            "key = \"<b>hill</b>\"",
            "\"<b>",
            "key `<b>hill</b>`: a few words for the board's key",
        ),
        (
            "on = [\"city\"]",
            "on = [\"cloister\"]",
            "[\"cloister\"]",
            "`on` lists one or more of road, city and field",
        ),
        (
            "path = \"M-10,6 L0,-8 L10,6 Z\"",
            "path = \"M0,0\\\"/><script>alert(1)</script>\"",
            "\"M0,0",
            "path `M0,0\"/><script>alert(1)</script>`: SVG path data",
        ),
        (
            "key = \"hill\"",
            "key = \"hill\"\ncolour = \"#ffffff\"",
            "colour",
            "unknown field `colour`",
        ),
    ];
    for (from, to, needle, says) in cases {
        let e = refused(from, to);
        assert!(e.starts_with(&at(from, to, needle)), "{to}: {e}");
        assert!(e.contains(says), "{to}: {e}");
    }
}

/// Tiles name only declared marks, on the kinds they are declared on, a few at a time.
#[test]
fn bad_uses_of_marks_are_located_and_explained() {
    let cases: [(&str, &str, &str, &str); 4] = [
        (
            "symbol = \"hill\"",
            "symbol = \"mountain\"",
            "\"mountain\"",
            "unknown symbol `mountain`; the known symbols are volcano, dragon, portal, hill",
        ),
        (
            "road = [{ edges = [\"W\", \"E\"] }]",
            "road = [{ edges = [\"W\", \"E\"], marks = { well = 1 } }]",
            "well = 1 } }]\nfield",
            "counter `well` is written on city, not on a road",
        ),
        (
            "marks = { well = 2 }",
            "marks = { spring = 2 }",
            "spring",
            "unknown counter `spring`; the counters this tile set declares are: well",
        ),
        (
            "marks = { well = 2 }",
            "marks = { well = 70000 }",
            "70000",
            "a part prints 1 to 3 of counter `well`, not 70000",
        ),
    ];
    for (from, to, needle, says) in cases {
        let e = refused(from, to);
        assert!(e.starts_with(&at(from, to, needle)), "{to}: {e}");
        assert!(e.contains(says), "{to}: {e}");
    }
}

/// A 10 kB path, name or key is refused, and the message quotes its first 40 characters only.
#[test]
fn long_values_are_refused_and_quoted_short() {
    let long = "M0,0 L1,1 ".repeat(1000);
    for (from, key) in [
        ("path = \"M-10,6 L0,-8 L10,6 Z\"", "path"),
        ("name = \"hill\"", "name"),
        ("key = \"hill\"", "key"),
    ] {
        let e = refused(from, &format!("{key} = \"{long}\""));
        assert!(e.len() < 400, "{} characters: {}", e.len(), &e[..200]);
        assert!(
            e.contains("M0,0 L1,1 M0,0 L1,1 M0,0 L1,1 M0,0 L1,1 …"),
            "{e}"
        );
    }
}

/// Across a ruleset's tile sets: the same declaration twice is one mark; the same name
/// declared differently, a figure's letter, and more counters than the model has room for
/// (`MAX_COUNTERS`: six built in, the well, one more) are refused where the later file says them.
#[test]
fn tile_sets_of_one_ruleset_agree_on_their_marks() {
    let second = |tag: &str, decl: &str| -> Result<Arc<Ruleset>, Diagnostic> {
        let tiles = format!(
            "{decl}\n[[tile]]\nid = \"MK2/{tag}\"\ncount = 1\nedges = [\"city\", \"field\", \"field\", \"field\"]\n\
             city = [{{ edges = [\"N\"] }}]\nfield = [{{ halves = [\"EL\", \"ER\", \"SL\", \"SR\", \"WL\", \"WR\"], cities = [\"N\"] }}]\n"
        );
        let ruleset = concat!(
            "extends = \"base\"\nname = \"two\"\n",
            "tiles = [{ set = \"marked.toml\" }, { set = \"more.toml\" }]\n",
            "start = [{ tile = \"MK/cap\", x = 0, y = 0 }]\n"
        );
        let files = [
            ("marked.toml", MARKED),
            ("more.toml", &tiles),
            ("rules.toml", ruleset),
        ];
        let path = folder(&format!("second-{tag}"), &files).join("rules.toml");
        Ruleset::load(&path.display().to_string())
    };
    let hill = "[[symbol]]\nname = \"hill\"\nletter = \"h\"\nkey = \"hill\"\npath = \"M-10,6 L0,-8 L10,6 Z\"\nfill = \"#8a9a5b\"\n";
    let same = second("same", hill).expect("the same declaration twice is one mark");
    assert_eq!(same.prints.symbols().count(), printed::SYMBOLS.len() + 1);
    let e = second("differ", &hill.replace("#8a9a5b", "#000000"))
        .expect_err("a different hill")
        .to_string();
    assert!(e.contains("more.toml:2:8: "), "{e}");
    assert!(
        e.contains("symbol `hill` is declared differently by another tile set of this ruleset"),
        "{e}"
    );
    // `b` is the big follower's letter (src/data/figures.toml).
    let bee = hill
        .replace("\"hill\"", "\"bee\"")
        .replace("\"h\"", "\"b\"");
    let e = second("figure", &bee)
        .expect_err("a figure's letter")
        .to_string();
    assert!(
        e.contains("more.toml:3:10: letter `b` is the figure `big`'s"),
        "{e}"
    );
    let counter = |n: usize| {
        format!(
            "[[counter]]\nname = \"c{n}\"\non = [\"road\"]\nletter = \"{}\"\nkey = \"c\"\npath = \"M0,0 H1\"\nfill = \"#000000\"\n",
            char::from(b'q' + n as u8)
        )
    };
    // The well is the seventh counter: there is room for one more.
    let room = second("room", &counter(0)).expect("an eighth counter fits");
    assert_eq!(room.prints.counter_named("c0").map(|c| c.index()), Some(7));
    let (game, _) = start(&room, 1);
    assert!(text::key_lines(&game).join(" ").contains("o well"));
    let e = second("full", &format!("{}{}", counter(0), counter(1)))
        .expect_err("a ninth counter")
        .to_string();
    assert!(e.contains("more.toml:8:1: "), "{e}");
    assert!(
        e.contains("a ruleset's tile sets may declare at most 2 counters (8 with the 6 built in)"),
        "{e}"
    );
}
