//! The edition matrix: the same games replayed under every shipped edition and house rule
//! (RULES.md §3.1, §7 and the presets of §9), each with the outcome that edition's rules give.
//!
//! The records live in `tests/records/pd/editions/` (plus three fairy records of
//! `tests/records/pd/fairy/`); each names an edition under which it plays to the end, and its
//! header comment explains the outcome per edition. [`MATRIX`] is the table of expected outcomes: final scores, or the
//! action that an edition refuses (a record that plays a "may" choice is illegal where the rule
//! says "must", and so on). The record's `ruleset = "…"` line is replaced by the edition's name
//! before parsing.
//!
//! The file also checks that every shipped ruleset loads and matches its §9 preset, that
//! `castellan validate` accepts the shipped data files (and this suite's fixtures and records),
//! and that `castellan replay --json` reports the dragon, the fairy and the figures.
//!
//! Coordinates are the engine's: x grows east, y grows south. Seat 0 is Red, seat 1 is Blue.

use castellan::data::library::{self, Kind, Source};
use castellan::data::ruleset::Ruleset;
use castellan::mechanic::pd::rules::{Attach, BonusClaim, BonusWhen, MoveCondition};
use castellan::mechanic::pd::rules::{Menu, PreVolcano, Timing};
use castellan::mechanic::pd::rules::{Removal, RemovalBlocks};
use castellan::record::{Record, RecordError};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The shipped editions and house rules, in the column order of [`MATRIX`].
const EDITIONS: [&str; 9] = [
    "hig",
    "rgg-2005",
    "devir",
    "zman",
    "rgg-bigbox1",
    "house-claim-fairy-point",
    "house-fairy-five",
    "house-fairy-shield",
    "house-redraw-dragon",
];

/// What a record gives under one edition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// The game ends with these scores (Red, Blue).
    Over([u32; 2]),
    /// The game ends with these scores, this many dragon tiles set aside and this many tiles
    /// still in the bag.
    Left([u32; 2], usize, usize),
    /// The action with this 1-based index is refused.
    Illegal(usize),
}

use Expect::{Illegal, Left, Over};

/// Expected outcome of each record (path under `tests/records/pd/`) per edition, in the order
/// of [`EDITIONS`]: hig, rgg-2005, devir, zman, rgg-bigbox1, house-claim-fairy-point,
/// house-fairy-five, house-fairy-shield, house-redraw-dragon.
const MATRIX: &[(&str, [Expect; 9])] = &[
    // T-F1 (RULES.md §4.2): 8 + 3 in either fairy mode; 8 + 5 with the five-point house rule.
    (
        "fairy/t-f1-city-bonus",
        [
            Over([11, 8]),
            Over([11, 8]),
            Over([11, 8]),
            Over([11, 8]),
            Over([11, 8]),
            Over([11, 8]),
            Over([13, 8]),
            Over([11, 8]),
            Over([11, 8]),
        ],
    ),
    // T-F2 (§4.2, FA7, A4): tile mode (rgg-2005, devir, rgg-bigbox1) pays Blue's farmer on the
    // fairy's tile 1 + 1 turn points and 3 at the end; the claim house rule asks Red to claim at
    // the start of turn 5, where the record lays a tile (action 9); the five-point rule pays no
    // turn point and 5 for the city.
    (
        "fairy/t-f2-turn-point",
        [
            Over([8, 3]),
            Over([8, 8]),
            Over([8, 8]),
            Over([8, 3]),
            Over([8, 8]),
            Illegal(9),
            Over([9, 3]),
            Over([8, 3]),
            Over([8, 3]),
        ],
    ),
    // T-F4 final half (§4.2, FA8): the farmer's fairy bonus at final scoring, except under the
    // five-point house rule (completed features only, A21); claim decision at action 9.
    (
        "fairy/t-f4-farm-no-majority",
        [
            Over([4, 6]),
            Over([4, 6]),
            Over([4, 6]),
            Over([4, 6]),
            Over([4, 6]),
            Illegal(9),
            Over([0, 6]),
            Over([4, 6]),
            Over([4, 6]),
        ],
    ),
    // PR3 / A2: keeping the knight (`pass`, action 6) is refused where removal is "must".
    (
        "editions/princess-keep",
        [
            Over([3, 2]),
            Illegal(6),
            Illegal(6),
            Over([3, 2]),
            Illegal(6),
            Over([3, 2]),
            Over([3, 2]),
            Over([3, 2]),
            Over([3, 2]),
        ],
    ),
    // PR5 / A3: after a removal the fairy move (action 7) is allowed only where the penalty is
    // "no follower on this tile" (rgg-2005, devir).
    (
        "editions/princess-remove-fairy",
        [
            Illegal(7),
            Over([7, 0]),
            Over([7, 0]),
            Illegal(7),
            Illegal(7),
            Illegal(7),
            Illegal(7),
            Illegal(7),
            Illegal(7),
        ],
    ),
    // D2 / A1: the dragon eats Blue's knight before the city is scored, or after.
    (
        "editions/dragon-timing",
        [
            Over([0, 0]),
            Over([0, 4]),
            Over([0, 4]),
            Over([0, 0]),
            Over([0, 4]),
            Over([0, 0]),
            Over([0, 0]),
            Over([0, 0]),
            Over([0, 0]),
        ],
    ),
    // FA6 / A22: the dragon's step onto the fairy's tile (action 10) exists only when the fairy
    // protects without blocking.
    (
        "editions/fairy-shield",
        [
            Illegal(10),
            Illegal(10),
            Illegal(10),
            Illegal(10),
            Illegal(10),
            Illegal(10),
            Illegal(10),
            Over([4, 0]),
            Illegal(10),
        ],
    ),
    // D0: the early dragon tile is set aside, or goes back into the bag (house rule).
    (
        "editions/dragon-pre-volcano",
        [
            Left([1, 0], 1, 0),
            Left([1, 0], 1, 0),
            Left([1, 0], 1, 0),
            Left([1, 0], 1, 0),
            Left([1, 0], 1, 0),
            Left([1, 0], 1, 0),
            Left([1, 0], 1, 0),
            Left([1, 0], 1, 0),
            Left([1, 0], 0, 1),
        ],
    ),
];

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn record_path(name: &str) -> PathBuf {
    crate_dir()
        .join("tests/records/pd")
        .join(format!("{name}.toml"))
}

/// The record with its `ruleset = "…"` line replaced by `edition`.
fn load_as(name: &str, edition: &str) -> Record {
    let path = record_path(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut replaced = 0;
    let text: String = text
        .lines()
        .map(|line| {
            if line.starts_with("ruleset = ") {
                replaced += 1;
                format!("ruleset = \"{edition}\"\n")
            } else {
                format!("{line}\n")
            }
        })
        .collect();
    assert_eq!(replaced, 1, "{name} must have one `ruleset = ` line");
    Record::parse(Source { path, text }).unwrap_or_else(|d| panic!("{name} as {edition}: {d}"))
}

/// What the record gives under `edition`, in the terms of the expectation `like`.
fn outcome(name: &str, edition: &str, like: Expect) -> Result<Expect, String> {
    let record = load_as(name, edition);
    match record.replay() {
        Ok(r) => {
            if !r.game.is_over() {
                return Err("the game is not over".into());
            }
            let scores: [u32; 2] = r
                .game
                .scores()
                .try_into()
                .map_err(|_| "not two players".to_string())?;
            Ok(match like {
                Left(..) => Left(scores, r.game.set_aside(), r.game.tiles_left()),
                _ => Over(scores),
            })
        }
        Err(RecordError::Illegal { index, .. }) => Ok(Illegal(index)),
        Err(e) => Err(e.diagnostic().to_string()),
    }
}

/// Replays `name` under every edition and compares with its row of [`MATRIX`].
fn check_row(name: &str) {
    let (_, row) = MATRIX
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("{name} is not in the matrix"));
    let mut wrong = Vec::new();
    for (edition, want) in EDITIONS.iter().zip(row) {
        match outcome(name, edition, *want) {
            Ok(got) if got == *want => {}
            Ok(got) => wrong.push(format!("  {edition}: expected {want:?}, got {got:?}")),
            Err(e) => wrong.push(format!("  {edition}: expected {want:?}, failed: {e}")),
        }
    }
    assert!(wrong.is_empty(), "{name}:\n{}", wrong.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// The matrix, one test per record.

/// T-F1 under every edition (RULES.md §4.2 T-F1, T-F7; §3.1 #18, #23; sources 000, 002, 004).
#[test]
fn matrix_t_f1_city_bonus() {
    check_row("fairy/t-f1-city-bonus");
}

/// T-F2 under every edition (RULES.md §4.2 T-F2, §7 A4, A23; §3.1 #18, #19, #22; 004 fn 5).
#[test]
fn matrix_t_f2_turn_point() {
    check_row("fairy/t-f2-turn-point");
}

/// T-F4 final half under every edition (RULES.md §4.2 T-F4, §7 A21; §3.1 #24; 002, 000).
#[test]
fn matrix_t_f4_farm_bonus() {
    check_row("fairy/t-f4-farm-no-majority");
}

/// The princess's "may" vs "must" (RULES.md §2.6 PR3, §7 A2, §3.1 #1; 000, 001, 002, 004 fn 25).
#[test]
fn matrix_princess_keep_the_knight() {
    check_row("editions/princess-keep");
}

/// What a princess removal forbids (RULES.md §2.6 PR5, §7 A3, §3.1 #2; 000, 001, 002, 004).
#[test]
fn matrix_princess_then_fairy() {
    check_row("editions/princess-remove-fairy");
}

/// Dragon before or after scoring (RULES.md §2.4 D2, §7 A1, §3.1 #5, T-D3; 000, 001, 002,
/// 004 fn 12).
#[test]
fn matrix_dragon_timing() {
    check_row("editions/dragon-timing");
}

/// The fairy blocks the dragon, or only protects (RULES.md §2.7 FA6, §7 A22, §3.1 #27, #40a;
/// 004 §House Rules).
#[test]
fn matrix_fairy_shield() {
    check_row("editions/fairy-shield");
}

/// Dragon tiles before the first volcano (RULES.md §2.3 D0.1–D0.3, §7 A12, §3.1 #9; 000, 001,
/// 002, 004 §Note and §House Rules).
#[test]
fn matrix_dragon_tile_before_the_volcano() {
    check_row("editions/dragon-pre-volcano");
}

/// Every record in `tests/records/pd/editions/` has a row in the matrix, and every row's record
/// exists (so a new record cannot be forgotten).
#[test]
fn matrix_covers_every_edition_record() {
    let dir = crate_dir().join("tests/records/pd/editions");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("the editions records")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| {
            format!(
                "editions/{}",
                p.file_stem().expect("a name").to_string_lossy()
            )
        })
        .collect();
    files.sort();
    for f in &files {
        assert!(MATRIX.iter().any(|(n, _)| n == f), "{f} has no matrix row");
    }
    for (name, _) in MATRIX {
        assert!(record_path(name).is_file(), "{name} is missing");
    }
}

// ---------------------------------------------------------------------------------------------
// The shipped rulesets.

/// The shipped ruleset files (`rulesets/*.toml`), as (stem, path).
fn shipped_rulesets() -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(crate_dir().join("rulesets"))
        .expect("rulesets/")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| {
            (
                p.file_stem()
                    .expect("a name")
                    .to_string_lossy()
                    .into_owned(),
                p,
            )
        })
        .collect();
    out.sort();
    out
}

/// Every file in `rulesets/` loads, by path and by name, carries its file name as its name, and
/// is built into the binary; every edition of [`EDITIONS`] is among them (RULES.md §9).
#[test]
fn every_shipped_ruleset_loads() {
    let shipped = shipped_rulesets();
    assert!(!shipped.is_empty());
    let builtin = library::builtin_names(Kind::Ruleset);
    for (stem, path) in &shipped {
        let by_path = Ruleset::load(&path.to_string_lossy())
            .unwrap_or_else(|d| panic!("{}: {d}", path.display()));
        assert_eq!(&by_path.name, stem, "{}", path.display());
        let by_name = Ruleset::load(stem).unwrap_or_else(|d| panic!("{stem}: {d}"));
        assert_eq!(&by_name.name, stem);
        assert!(
            builtin.contains(&stem.as_str()),
            "{stem} is not built in (src/library.rs)"
        );
    }
    for edition in EDITIONS {
        assert!(
            shipped.iter().any(|(s, _)| s == edition),
            "{edition} is not shipped"
        );
    }
}

/// The P&D editions carry the toggles of their RULES.md §9 presets (and §3.1 columns): HiG /
/// ZMG current, RGG 2005 (Devir identical on every P&D key), RGG Big Box 1, and the house-rule
/// switches of 004 §House Rules each on top of HiG. Keys that a preset leaves open (Big Box 1:
/// #12 `eats_neutral`, #28 `move_condition`) are not checked.
#[test]
fn editions_match_their_presets() {
    let load = |name: &str| Ruleset::load(name).unwrap_or_else(|d| panic!("{name}: {d}"));
    for name in EDITIONS {
        let r = load(name);
        let on = [
            "volcano", "dragon", "fairy", "princess", "portal", "farmers",
        ];
        assert!(
            on.iter().all(|s| r.switched_on(s)),
            "{name}: every P&D mechanic is on"
        );
        let pd = castellan::mechanic::pd::rules::PdRules::of(&r);
        let tile_mode = matches!(name, "rgg-2005" | "devir" | "rgg-bigbox1");
        let must = tile_mode;
        let literal = matches!(name, "rgg-2005" | "devir");
        assert_eq!(
            pd.princess.removal,
            if must { Removal::Must } else { Removal::May },
            "{name}"
        );
        assert_eq!(
            pd.princess.removal_blocks,
            if literal {
                RemovalBlocks::FollowerOnTile
            } else {
                RemovalBlocks::AllFiguresAndFairy
            },
            "{name}"
        );
        assert_eq!(
            pd.dragon.timing,
            if tile_mode {
                Timing::AfterScoring
            } else {
                Timing::BeforeScoring
            },
            "{name}"
        );
        let menu = match name {
            "rgg-2005" | "devir" => Menu::Followers,
            "rgg-bigbox1" => Menu::FollowersBuilderPig,
            _ => Menu::FleshAndBlood,
        };
        assert_eq!(pd.dragon.menu, menu, "{name}");
        // #12: false before 3/2015 (the 2005 books); the Big Box 1 preset leaves it open.
        if name != "rgg-bigbox1" {
            assert_eq!(pd.dragon.eats_neutral, !literal, "{name}");
        }
        assert_eq!(pd.volcano.allow_builder_pig, tile_mode, "{name}");
        assert!(pd.volcano.fairy_move, "{name}");
        assert!(pd.dragon.start_tile_visited, "{name}");
        assert_eq!(
            pd.fairy.attach,
            if tile_mode {
                Attach::Tile
            } else {
                Attach::Follower
            },
            "{name}"
        );
        // #28: the Big Box 1 preset leaves it open (004 fn 2: its text only says "no follower").
        if name != "rgg-bigbox1" {
            assert_eq!(
                pd.fairy.move_condition,
                if literal {
                    MoveCondition::NoFollowerPlaced
                } else {
                    MoveCondition::NoFigureAction
                },
                "{name}"
            );
        }
        assert!(!pd.portal.allow_completed_unscored, "{name}");
        // The house rules, each alone on top of HiG.
        assert_eq!(
            pd.dragon.pre_volcano,
            if name == "house-redraw-dragon" {
                PreVolcano::ReturnAndRedraw
            } else {
                PreVolcano::SetAsideReshuffle
            },
            "{name}"
        );
        assert_eq!(
            pd.fairy.bonus_claim,
            if name == "house-claim-fairy-point" {
                BonusClaim::ClaimBeforePass
            } else {
                BonusClaim::Automatic
            },
            "{name}"
        );
        let five = name == "house-fairy-five";
        assert_eq!(pd.fairy.turn_bonus, if five { 0 } else { 1 }, "{name}");
        assert_eq!(pd.fairy.scoring_bonus, if five { 5 } else { 3 }, "{name}");
        assert_eq!(
            pd.fairy.scoring_bonus_when,
            if five {
                BonusWhen::CompletedOnly
            } else {
                BonusWhen::AnyScoring
            },
            "{name}"
        );
        assert_eq!(
            pd.fairy.blocks_dragon,
            name != "house-fairy-shield",
            "{name}"
        );
        assert!(pd.fairy.protects_tile, "{name}");
    }
}

// ---------------------------------------------------------------------------------------------
// The command line.

fn castellan(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_castellan"))
        .args(args)
        .current_dir(crate_dir())
        .output()
        .expect("the castellan binary runs")
}

/// The `.toml` files of a directory, relative to the crate root, sorted.
fn tomls(dir: &str, prefix: &str) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(crate_dir().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml") && n.starts_with(prefix))
        .map(|n| format!("{dir}/{n}"))
        .collect();
    out.sort();
    out
}

/// `castellan validate rulesets/*.toml tiles/*.toml`, run from the crate root, exits 0.
#[test]
fn validate_accepts_the_shipped_data() {
    let mut files = tomls("rulesets", "");
    files.extend(tomls("tiles", ""));
    assert!(files.len() >= 10, "{files:?}");
    let args: Vec<&str> = std::iter::once("validate")
        .chain(files.iter().map(String::as_str))
        .collect();
    let out = castellan(&args);
    assert!(
        out.status.success(),
        "castellan validate failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `castellan validate` also accepts this suite's fixtures (`tests/fixtures/pdf-*.toml`) and
/// replays every P&D record of `tests/pd_fairy.rs` and this file to its end under its own
/// ruleset.
#[test]
fn validate_accepts_the_pd_fixtures_and_records() {
    let mut files = tomls("tests/fixtures", "pdf-");
    for dir in ["fairy", "portal", "tiles", "editions"] {
        files.extend(tomls(&format!("tests/records/pd/{dir}"), ""));
    }
    let args: Vec<&str> = std::iter::once("validate")
        .chain(files.iter().map(String::as_str))
        .collect();
    let out = castellan(&args);
    assert!(
        out.status.success(),
        "castellan validate failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `castellan replay --json` of a record as a JSON value.
fn replay_json(record: &str) -> Value {
    let out = castellan(&["replay", "--json", record]);
    assert!(
        out.status.success(),
        "replay --json {record}:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{record}: {e}"))
}

fn int(v: &Value, key: &str) -> i64 {
    v.get(key)
        .and_then(Value::as_i64)
        .unwrap_or_else(|| panic!("`{key}` is not an integer in {v}"))
}

/// The `figures` entries as (player, kind, x, y, feature).
fn json_figures(v: &Value) -> Vec<(String, String, i64, i64, String)> {
    let text = |f: &Value, key: &str| {
        f.get(key)
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("`{key}` is not a string in {f}"))
            .to_string()
    };
    v.get("figures")
        .and_then(Value::as_array)
        .expect("`figures` is an array")
        .iter()
        .map(|f| {
            (
                text(f, "player"),
                text(f, "kind"),
                int(f, "x"),
                int(f, "y"),
                text(f, "feature"),
            )
        })
        .collect()
}

/// `replay --json` of P&D records (src/report.rs; RULES.md PD-0.3 "dragon and fairy start off
/// the board"): `dragon` is null or {x, y}; `fairy` is null or {x, y, follower} with follower
/// null or the follower it serves; `figures` lists player, kind, x, y and feature.
#[test]
fn replay_json_reports_dragon_fairy_and_figures() {
    // The volcano turn of fa2-volcano: dragon on (-1,1), the fairy next to Red's knight.
    let v = replay_json("tests/records/pd/fairy/fa2-volcano.toml");
    let dragon = v.get("dragon").expect("`dragon` key");
    assert_eq!((int(dragon, "x"), int(dragon, "y")), (-1, 1));
    let fairy = v.get("fairy").expect("`fairy` key");
    assert_eq!((int(fairy, "x"), int(fairy, "y")), (0, 0));
    let follower = fairy.get("follower").expect("`follower` key");
    assert!(follower.is_object(), "the fairy serves a follower: {fairy}");
    assert_eq!(follower.get("player").and_then(Value::as_str), Some("Red"));
    assert_eq!(
        json_figures(&v),
        vec![("Red".into(), "follower".into(), 0, 0, "city".into())]
    );

    // T-F1: no dragon, the fairy left unassigned on (2,0), no figures.
    let v = replay_json("tests/records/pd/fairy/t-f1-city-bonus.toml");
    assert!(v.get("dragon").expect("`dragon` key").is_null());
    let fairy = v.get("fairy").expect("`fairy` key");
    assert_eq!((int(fairy, "x"), int(fairy, "y")), (2, 0));
    assert!(fairy.get("follower").expect("`follower` key").is_null());
    assert!(json_figures(&v).is_empty());

    // Dragon timing: the dragon ends on (0,-1), the fairy never came.
    let v = replay_json("tests/records/pd/editions/dragon-timing.toml");
    let dragon = v.get("dragon").expect("`dragon` key");
    assert_eq!((int(dragon, "x"), int(dragon, "y")), (0, -1));
    assert!(v.get("fairy").expect("`fairy` key").is_null());

    // A farmer and a knight: T-F2 ends with Blue's farmer on (0,0).
    let v = replay_json("tests/records/pd/fairy/t-f2-turn-point.toml");
    assert_eq!(
        json_figures(&v),
        vec![("Blue".into(), "follower".into(), 0, 0, "field".into())]
    );
}
