//! Pictures of a game: the text board against stored snapshots, the SVG's structure, the PNG
//! file and the `castellan render` command line.
//!
//! Snapshots live in `tests/snapshots/`. After an intended change to the drawing, rerun with
//! `UPDATE_SNAPSHOTS=1 cargo test --test render`, look at the new files and commit them.

use castellan::data::ruleset::Ruleset;
use castellan::engine::game::Game;
use castellan::model::geometry::Rotation;
use castellan::record::Record;
use castellan::ui::render::{png, svg, text};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SHOWCASE: &str = "tests/records/render/showcase.toml";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The game of a record after its first `upto` actions (all of them with `None`).
fn game(record: &str, upto: Option<usize>) -> Game {
    let mut r = Record::load(&root().join(record)).expect("the record loads");
    if let Some(n) = upto {
        r.actions.truncate(n);
    }
    r.replay().expect("the record replays").game
}

/// Compares `actual` with a stored snapshot, or writes it when `UPDATE_SNAPSHOTS` is set.
fn check_snapshot(name: &str, actual: &str) {
    let path = root().join("tests/snapshots").join(name);
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, actual).expect("the snapshot can be written");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read the snapshot {}: {e}\n(write it with UPDATE_SNAPSHOTS=1)",
            path.display()
        )
    });
    if expected == actual {
        return;
    }
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let line = (0..e.len().max(a.len()))
        .find(|i| e.get(*i) != a.get(*i))
        .unwrap_or(0);
    panic!(
        "the drawing differs from the snapshot {} at line {}:\n  expected: {:?}\n  actual:   {:?}\n\
         ----- expected -----\n{expected}----- actual -----\n{actual}--------------------\n\
         If the change is intended, rerun with UPDATE_SNAPSHOTS=1 and check the new file by eye.",
        path.display(),
        line + 1,
        e.get(line).copied().unwrap_or("<end of file>"),
        a.get(line).copied().unwrap_or("<end of file>"),
    );
}

fn castellan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_castellan"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("castellan runs")
}

/// A fresh directory for output files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("castellan-render-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

#[test]
fn the_text_board_matches_its_snapshot() {
    let g = game(SHOWCASE, None);
    let mut shown = text::board(&g, false);
    shown.push_str(&text::legend(&g, false));
    check_snapshot("showcase.txt", &shown);
}

#[test]
fn a_base_game_board_matches_its_snapshot() {
    let g = game("tests/records/render/base-midgame.toml", None);
    check_snapshot("base-midgame.txt", &text::board(&g, false));
}

#[test]
fn every_tile_in_every_rotation_matches_its_snapshot() {
    let rules = Ruleset::load("hig").expect("the hig ruleset loads");
    let mut out = String::new();
    for i in 0..rules.tiles.len() {
        let drawn = every_rotation(&rules, i);
        for d in &drawn {
            assert_eq!(d.len(), text::TILE_H, "{}", rules.tiles[i].id);
            assert!(
                d.iter().all(|l| l.chars().count() == text::TILE_W),
                "{}",
                rules.tiles[i].id
            );
        }
        sheet_row(&mut out, &rules, i, &drawn);
    }
    check_snapshot("tiles-hig.txt", &out);
}

/// Tile type `i` drawn as text at 0°, 90°, 180° and 270°.
fn every_rotation(rules: &Ruleset, i: usize) -> Vec<Vec<String>> {
    Rotation::ALL
        .iter()
        .map(|r| text::tile(rules, i as u16, *r))
        .collect()
}

/// Appends a tile's four drawings side by side under its id to a snapshot sheet.
fn sheet_row(out: &mut String, rules: &Ruleset, i: usize, drawn: &[Vec<String>]) {
    out.push_str(&format!("{}   (0° 90° 180° 270°)\n", rules.tiles[i].id));
    for row in 0..text::TILE_H {
        let line: Vec<&str> = drawn.iter().map(|d| d[row].as_str()).collect();
        out.push_str(&line.join("   "));
        out.push('\n');
    }
}

#[test]
fn every_expansion_tile_in_every_rotation_matches_its_snapshot() {
    // Inns & Cathedrals, Traders & Builders and the Abbot gardens (2nd editions): inns `i`,
    // cathedrals `A`, goods `w` `g` `c`, gardens `G`.
    let rules = Ruleset::load("tests/fixtures/ic-tb-2nd-edition.toml").expect("the fixture loads");
    let mut out = String::new();
    for (i, t) in rules.tiles.iter().enumerate() {
        if t.id.starts_with("BA/") && !t.id.ends_with('G') {
            continue;
        }
        let drawn = every_rotation(&rules, i);
        let shown = drawn[0].concat();
        let f = t.features();
        let count = |c: char| shown.chars().filter(|x| *x == c).count();
        let inns: u16 = f
            .iter()
            .map(|f| f.counters.get(castellan::data::printed::INN))
            .sum();
        let cathedrals: u16 = f
            .iter()
            .map(|f| f.counters.get(castellan::data::printed::CATHEDRAL))
            .sum();
        let goods: u16 = f
            .iter()
            .map(|f| {
                castellan::data::printed::Good::ALL
                    .iter()
                    .map(|g| f.counters.get(g.counter()))
                    .sum::<u16>()
            })
            .sum();
        let gardens = f
            .iter()
            .filter(|f| f.kind == castellan::model::tile::FeatureKind::Garden);
        assert_eq!(count('i'), inns as usize, "{}", t.id);
        assert_eq!(count('A'), cathedrals as usize, "{}", t.id);
        assert_eq!(
            count('w') + count('g') + count('c'),
            goods as usize,
            "{}",
            t.id
        );
        assert_eq!(count('G'), gardens.count(), "{}", t.id);
        sheet_row(&mut out, &rules, i, &drawn);
    }
    check_snapshot("tiles-ic-tb.txt", &out);
}

#[test]
fn the_svg_draws_inns_cathedrals_goods_and_gardens() {
    let g = game("tests/records/render/ic-tb-marks.toml", None);
    let picture = svg::board(&g);
    let doc = roxmltree::Document::parse(&picture).expect("the SVG is well-formed XML");
    // One cathedral, one inn, one wine and one cloth token, three gardens; the thief on the
    // inn's road is drawn as a figure.
    assert_eq!(with_class(&doc, "cathedral").len(), 1);
    assert_eq!(with_class(&doc, "inn").len(), 1);
    assert_eq!(with_class(&doc, "wine").len(), 1);
    assert_eq!(with_class(&doc, "cloth").len(), 1);
    assert_eq!(with_class(&doc, "grain").len(), 0);
    assert_eq!(with_class(&doc, "good").len(), 2);
    assert_eq!(with_class(&doc, "garden").len(), 3);
    assert_eq!(with_class(&doc, "figure").len(), 1);
    let png = png::from_svg(&picture).expect("the PNG renders");
    assert!(png.starts_with(b"\x89PNG"));
    // The text board shows the same marks, and its legend explains them.
    let mut shown = text::board(&g, false);
    shown.push_str(&text::legend(&g, false));
    check_snapshot("ic-tb-marks.txt", &shown);
    // The key names what this game's tiles print, from the printed table (`data::printed`).
    let key = "* pennant  G garden  i inn  A cathedral  w wine  g grain  c cloth";
    assert!(shown.contains(key), "{shown}");
}

/// AM-4 (RULES-MORE.md §2.2): the abbey's four wild edges end whatever meets them, and the
/// SVG draws each as a wall, on the abbey only.
#[test]
fn the_svg_draws_the_abbeys_walls() {
    let g = game("tests/records/am/abbey-closes-city.toml", None);
    let doc_text = svg::board(&g);
    let doc = roxmltree::Document::parse(&doc_text).expect("the SVG is well-formed XML");
    let tiles = with_class(&doc, "tile");
    let walls = |id: &str| -> usize {
        (tiles.iter())
            .filter(|t| t.attribute("data-id") == Some(id))
            .map(|t| {
                t.descendants()
                    .filter(|n| n.attribute("class") == Some("wall"))
                    .count()
            })
            .sum()
    };
    assert_eq!(walls("AM.A"), 4, "{doc_text}");
    assert_eq!(
        with_class(&doc, "wall").len(),
        4,
        "no other tile has a wild edge"
    );
}

/// AM-4 (RULES-MORE.md §2.2): the text board draws the abbey's four wild edges as walls (`%`)
/// around its cloister, on the abbey only, and its key names them.
#[test]
fn the_text_board_draws_the_abbeys_walls() {
    let g = game("tests/records/am/abbey-closes-city.toml", None);
    let rules = g.rules();
    let abbey = rules.tile_id("AM.A").expect("the abbey tile");
    let block = text::tile(rules, abbey, Rotation::from_degrees(0).unwrap());
    let (first, last) = (&block[0], &block[text::TILE_H - 1]);
    assert!(
        first.chars().all(|c| c == '%') && last.chars().all(|c| c == '%'),
        "{block:?}"
    );
    assert!(
        (block.iter()).all(|l| l.starts_with('%') && l.ends_with('%')),
        "{block:?}"
    );
    assert!(
        block[text::TILE_H / 2].contains('C'),
        "its cloister inside: {block:?}"
    );
    let board = text::board(&g, false);
    let walls = board.chars().filter(|c| *c == '%').count();
    let ring = 2 * text::TILE_W + 2 * (text::TILE_H - 2);
    assert_eq!(walls, ring, "one abbey, no other wall:\n{board}");
    assert!(text::legend(&g, false).contains("% wall"));
    // A game whose tiles have no wild edge draws no wall and keys none.
    let plain = game("tests/records/base/road-loop.toml", None);
    assert!(!text::board(&plain, false).contains('%'));
    assert!(!text::legend(&plain, false).contains("% wall"));
}

#[test]
fn a_tile_turns_with_its_rotation() {
    let rules = Ruleset::load("base").expect("the base ruleset loads");
    let d = rules.tile_id("D").expect("tile D");
    // D: city on N, road W–E.
    let r0 = text::tile(&rules, d, Rotation::from_degrees(0).unwrap());
    assert!(r0[0].contains('#') && r0[text::TILE_H - 1].chars().all(|c| c == '.'));
    assert!(r0[text::TILE_H / 2].chars().all(|c| c == '='));
    // Turned 90°: city on E, road N–S.
    let r90 = text::tile(&rules, d, Rotation::from_degrees(90).unwrap());
    assert!(r90.iter().all(|l| l.ends_with('#')));
    assert!(
        r90.iter()
            .all(|l| l.chars().nth(text::TILE_W / 2) == Some('|'))
    );
}

#[test]
fn colour_only_adds_escape_sequences() {
    let g = game(SHOWCASE, None);
    let coloured = text::board(&g, true);
    assert!(coloured.contains("\x1b["));
    let mut plain = String::new();
    let mut chars = coloured.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for c in chars.by_ref() {
                if c == 'm' {
                    break;
                }
            }
        } else {
            plain.push(c);
        }
    }
    assert_eq!(plain, text::board(&g, false));
}

/// The elements of `doc` whose class list contains `class`.
fn with_class<'a>(doc: &'a roxmltree::Document, class: &str) -> Vec<roxmltree::Node<'a, 'a>> {
    doc.descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.split_whitespace().any(|w| w == class))
        })
        .collect()
}

#[test]
fn the_svg_is_xml_with_a_group_per_tile_and_figure() {
    for record in [SHOWCASE, "tests/records/render/base-midgame.toml"] {
        let g = game(record, None);
        let picture = svg::board(&g);
        let doc = roxmltree::Document::parse(&picture).expect("the SVG is well-formed XML");
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        let tiles = with_class(&doc, "tile");
        assert_eq!(tiles.len(), g.board().tiles().len(), "{record}");
        assert!(tiles.iter().all(|t| t.tag_name().name() == "g"));
        for p in g.board().tiles() {
            let (x, y) = (p.pos.x.to_string(), p.pos.y.to_string());
            let id = &g.rules().tile(p.tile).id;
            assert!(
                tiles.iter().any(|t| t.attribute("data-x") == Some(&x)
                    && t.attribute("data-y") == Some(&y)
                    && t.attribute("data-id") == Some(id)),
                "{record}: no tile group for {id} at ({x},{y})"
            );
        }
        let figures = with_class(&doc, "figure");
        assert_eq!(figures.len(), g.figures().len(), "{record}");
        for f in g.figures() {
            let (pos, spot) = g.figure_spot(f);
            let owner = f.owner.to_string();
            assert!(
                figures
                    .iter()
                    .any(|n| n.attribute("data-player") == Some(&owner)
                        && n.attribute("data-spot") == Some(spot.name())
                        && n.attribute("data-x") == Some(&pos.x.to_string())
                        && n.attribute("data-y") == Some(&pos.y.to_string())),
                "{record}: no figure of seat {owner} at {pos} {spot}"
            );
        }
        assert_eq!(with_class(&doc, "dragon").len(), g.dragon().iter().count());
        assert_eq!(with_class(&doc, "fairy").len(), g.fairy().iter().count());
        // The legend names every player with their score.
        for (name, score) in g.setup().players.iter().zip(g.scores()) {
            assert!(with_class(&doc, "player").iter().any(|n| {
                n.attribute("data-score") == Some(&score.to_string())
                    && n.descendants()
                        .any(|t| t.text().is_some_and(|t| t.contains(name)))
            }));
        }
    }
}

#[test]
fn the_showcase_has_a_dragon_and_a_fairy() {
    let g = game(SHOWCASE, None);
    assert!(g.dragon().is_some() && g.fairy().is_some() && g.figures().len() >= 5);
}

#[test]
fn names_are_escaped_in_the_svg() {
    let mut r = Record::load(&root().join(SHOWCASE)).expect("the record loads");
    r.setup.players[0] = "<Ann & \"Co\">".into();
    let g = r.replay().expect("the record replays").game;
    let doc_text = svg::board_titled(&g, "a <caption> & more");
    let doc = roxmltree::Document::parse(&doc_text).expect("well-formed XML");
    assert!(
        doc.descendants()
            .any(|n| n.text() == Some("<Ann & \"Co\">: 0 points"))
    );
}

#[test]
fn png_pictures_start_with_the_png_signature() {
    let g = game(SHOWCASE, Some(10));
    let bytes = png::from_svg(&svg::board(&g)).expect("the PNG renders");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
}

#[test]
fn render_writes_an_svg_and_a_png() {
    let dir = scratch("files");
    let out = dir.join("board.svg");
    let o = castellan(&["render", SHOWCASE, "-o", out.to_str().unwrap(), "--png"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let svg = std::fs::read_to_string(&out).expect("the SVG is written");
    roxmltree::Document::parse(&svg).expect("the SVG is well-formed XML");
    let png = std::fs::read(dir.join("board.png")).expect("the PNG is written");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
    // A path ending in .png gets only the PNG.
    let only = dir.join("only.png");
    let o = castellan(&["render", SHOWCASE, "-o", only.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::read(&only).unwrap().starts_with(b"\x89PNG"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn render_upto_shows_the_first_actions() {
    let o = castellan(&["render", SHOWCASE, "--upto", "7"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8(o.stdout).unwrap();
    assert!(stdout.contains("after 7 of 40 actions"), "{stdout}");
    let g = game(SHOWCASE, Some(7));
    assert_eq!(g.history().len(), 7);
    assert!(stdout.contains(&text::board(&g, false)), "{stdout}");
    assert!(!stdout.contains(&text::board(&game(SHOWCASE, None), false)));
    // The SVG says how far it goes too.
    let dir = scratch("upto");
    let out = dir.join("b.svg");
    let o = castellan(&[
        "render",
        SHOWCASE,
        "--upto",
        "0",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.contains("after 0 of 40 actions"));
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(with_class(&doc, "tile").len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

fn fails_cleanly(o: &Output, says: &str) {
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.contains(says), "expected {says:?} in: {stderr}");
}

#[test]
fn render_refuses_bad_input_with_a_message() {
    fails_cleanly(
        &castellan(&["render", "tests/records/render/no-such-record.toml"]),
        "no-such-record.toml",
    );
    fails_cleanly(
        &castellan(&["render", SHOWCASE, "--upto", "41"]),
        "has only 40 actions",
    );
    fails_cleanly(&castellan(&["render", SHOWCASE, "--png"]), "--png needs -o");
    let dir = scratch("bad");
    let nowhere = dir.join("missing-dir").join("b.svg");
    fails_cleanly(
        &castellan(&["render", SHOWCASE, "-o", nowhere.to_str().unwrap()]),
        "cannot write",
    );
    // Issue 12: `-o x.jpg` wrote SVG text into a .jpg; unknown extensions are refused, and
    // nothing is written.
    for name in ["x.jpg", "x", "x.svg.txt"] {
        let out = dir.join(name);
        fails_cleanly(
            &castellan(&["render", SHOWCASE, "-o", out.to_str().unwrap()]),
            "castellan draws .svg and .png pictures only",
        );
        assert!(!out.exists(), "{name} was written");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
