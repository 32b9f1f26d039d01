//! Hills & Sheep as a script and data only (issue 32; RULES-MORE.md §3, HS-C1, HS-1..HS-13, and
//! the P&D interactions of §5): `scripts/hills-sheep.rhai`, `tiles/hills-sheep.toml` and the
//! presets `hig-hs`, `zman-hs`. Each record under `tests/records/hs/` says its scenario, its
//! sources and the expected outcome in its header; the tests below assert those outcomes (scores,
//! where the shepherds stand, what the bag holds), and random games check that the bag always
//! adds up (HS-C1: 16 sheep tokens of 37 sheep and 2 wolves, in the bag or in a flock).

use castellan::bot::{Bot, RandomBot};
use castellan::data::ruleset::Ruleset;
use castellan::engine::action::{Action, DecisionKind};
use castellan::engine::event::Event;
use castellan::engine::game::{Game, Setup};
use castellan::model::figure::{FigureKind, Place};
use castellan::model::geometry::Pos;
use castellan::model::tile::FeatureKind;
use castellan::record::Record;
use castellan::script;
use std::sync::Arc;

mod common;
use common::{before, run, scored};

#[path = "common/api.rs"]
mod api;

const A: usize = 0;
const B: usize = 1;

fn load(name: &str) -> Record {
    common::record("hs", name)
}

/// The shepherd's figure kind, as the preset's table names it.
fn shepherd(game: &Game) -> FigureKind {
    let kind = FigureKind::parse("shepherd").expect("a ruleset named the shepherd");
    assert!(
        game.rules().figures.row(kind).is_some(),
        "the preset has a shepherd"
    );
    kind
}

/// The shepherds standing on the board: (owner, tile).
fn shepherds(game: &Game) -> Vec<(usize, Pos)> {
    let kind = shepherd(game);
    (game.placed_figures().into_iter())
        .filter(|(_, k, _)| *k == kind)
        .map(|(p, _, place)| match place {
            Place::Tile(pos) => (p, pos),
            Place::Corner(pos) | Place::Side(pos, _) => panic!("a shepherd at the edge of {pos}"),
        })
        .collect()
}

/// What the sheep bag holds, as (token, count).
fn bag(game: &Game) -> Vec<(String, u32)> {
    game.bag_contents("flock")
}

fn twos(n: u32) -> Vec<(String, u32)> {
    vec![("sheep_2".to_string(), n)]
}

/// The names of the script actions on offer.
fn offered(game: &Game) -> Vec<String> {
    (game.legal().into_iter())
        .filter_map(|a| match a {
            Action::Script(id) => Some(script::action(id).name),
            _ => None,
        })
        .collect()
}

/// HS-1, HS-3, HS-4, HS-5, HS-E1: deploy (2 sheep), grow (4), herd (A scores 4).
#[test]
fn the_shepherd_grows_and_herds_its_flock() {
    let record = load("herd");
    // After A's deployment the flock stands at (1,0) and one token left the bag (HS-3).
    let game = before(record.clone(), 2);
    assert_eq!(shepherds(&game), [(A, Pos::new(1, 0))]);
    assert_eq!(bag(&game), twos(4));
    // B extends the field: B has no shepherd, so B is asked nothing (HS-4).
    let game = before(record.clone(), 4);
    assert_eq!(game.decision().player, A);
    // A extends his field and passes: the tending question offers exactly grow and herd.
    let game = before(record.clone(), 6);
    assert_eq!(offered(&game), ["grow", "herd"]);
    let game = before(record.clone(), 7);
    assert_eq!(bag(&game), twos(3), "growing drew a second token");
    let end = run(&record);
    assert_eq!(end.game.scores(), [4, 0], "HS-E1: the flock of 4 pays A 4");
    assert!(shepherds(&end.game).is_empty(), "the shepherd went home");
    assert_eq!(end.game.supply(A, shepherd(&end.game)), 1);
    assert_eq!(bag(&end.game), twos(5), "the flock's tokens are back");
}

/// HS-2, HS-5, HS-E2: herding pays every shepherd of the field the sheep of all its flocks.
#[test]
fn herding_pays_every_shepherd_of_the_field() {
    let record = load("merge");
    let game = before(record.clone(), 4);
    assert_eq!(
        shepherds(&game),
        [(A, Pos::new(1, 0)), (B, Pos::new(-1, 0))]
    );
    let end = run(&record);
    assert_eq!(end.game.scores(), [4, 4]);
    assert!(shepherds(&end.game).is_empty());
    assert_eq!(bag(&end.game), twos(5));
}

/// HS-2: no second shepherd in a field that has one; a field with a farmer takes one.
#[test]
fn a_field_takes_one_shepherd_and_farmers_may_join() {
    let record = load("herd");
    // B's turn 2: his tile extends A's shepherd's field, so no shepherd is offered to B.
    let game = before(record.clone(), 3);
    assert_eq!(game.decision().player, B);
    assert!(!offered(&game).contains(&"shepherd".to_string()));
    // ... but the base game still lets B put a farmer into that field (the shepherd stands on
    // its tile, not on the field, HS-2).
    assert!(
        game.legal()
            .iter()
            .any(|a| matches!(a, Action::Deploy { .. }))
    );
    // A's turn 1: the empty field is offered.
    let game = before(record, 1);
    assert_eq!(offered(&game), ["shepherd"]);
}

/// HS-3: a wolf drawn at deployment sends the shepherd home; the wolf goes back.
#[test]
fn a_wolf_at_deployment_sends_the_shepherd_home() {
    let end = run(&load("wolf"));
    assert!(shepherds(&end.game).is_empty());
    assert_eq!(end.game.supply(A, shepherd(&end.game)), 1);
    assert_eq!(bag(&end.game), vec![("wolf".to_string(), 2)]);
    assert_eq!(end.game.scores(), [0, 0]);
}

/// HS-4a, HS-E3: growing draws a wolf: every shepherd of the field goes home, all tokens back
/// into the bag, nobody scores. The bag holds two 2-sheep tokens and a wolf; the test looks for
/// a seed whose two deployments drew sheep, so the wolf is the only token left to grow with.
#[test]
fn a_wolf_when_growing_ends_every_flock_of_the_field() {
    let mut record = common::under(load("merge"), "hs-wolf-among-twos.toml");
    // The merge record ends with A herding: grow instead.
    let grow = record.actions.len() - 1;
    let seed = (0..64)
        .find(|seed| {
            let mut r = record.clone();
            r.setup.seed = *seed;
            r.actions.truncate(4);
            r.replay().is_ok_and(|end| shepherds(&end.game).len() == 2)
        })
        .expect("a seed whose two deployments drew sheep");
    record.setup.seed = seed;
    let mut game = before(record, grow);
    assert_eq!(bag(&game), vec![("wolf".to_string(), 1)]);
    let grow = (game.legal().into_iter())
        .find(|a| matches!(a, Action::Script(id) if script::action(*id).name == "grow"))
        .expect("grow is offered");
    game.apply(&grow).expect("grow");
    assert!(
        shepherds(&game).is_empty(),
        "A's and B's shepherds went home"
    );
    assert_eq!(game.scores(), [0, 0]);
    assert_eq!(
        bag(&game),
        vec![("sheep_2".to_string(), 2), ("wolf".to_string(), 1)]
    );
}

/// HS-6: a field the tile encloses is herded at once, in any player's turn.
#[test]
fn an_enclosed_field_is_herded_at_once() {
    let end = run(&load("closed"));
    assert_eq!(end.game.scores(), [2, 0]);
    assert!(shepherds(&end.game).is_empty());
    let rules: Vec<&str> = (end.events.iter())
        .filter_map(|e| match e {
            Event::ScriptPoints { rule, .. } => Some(rule.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(rules, ["HS-6"]);
}

/// HS-7 and its toggle: flocks still out at the end score nothing by default, and are herded
/// in the final scoring under `hs.shepherd.endgame_scores = true`.
#[test]
fn flocks_at_the_end_score_only_under_the_toggle() {
    let mut record = load("herd");
    record.actions.truncate(2); // A's shepherd stands with 2 sheep when the draws run out
    record.setup.draw = Some(record.setup.draw.clone().expect("draws")[..1].to_vec());
    let end = run(&record);
    assert!(end.game.is_over());
    assert_eq!(end.game.scores(), [0, 0], "HS-7");
    let end = run(&common::under(record, "hs-endgame-scores.toml"));
    assert_eq!(end.game.scores(), [2, 0], "endgame_scores = true");
}

/// HS-13, HS-E4: a completed monastery with three vineyards around it scores 9 + 3 × 3.
#[test]
fn vineyards_add_three_to_a_completed_monastery() {
    let end = run(&load("vineyards"));
    assert_eq!(scored(&end.events), [(A, 18, FeatureKind::Cloister)]);
}

/// HS-9: the tile after a hill goes out of the game unseen.
#[test]
fn a_hill_takes_the_next_tile_out_unseen() {
    let record = load("hill");
    let first = before(record.clone(), 0);
    let left = first.tiles_left();
    let game = before(record.clone(), 2);
    let DecisionKind::PlaceTile { tile } = game.decision().kind else {
        panic!("B places a tile");
    };
    assert_eq!(
        &*game.rules().tile(tile).id,
        "SY/FIELD",
        "SY/CAP went under the hill"
    );
    assert_eq!(game.tiles_left(), left - 2);
    // Nobody is told which tile it was: no event names it.
    let end = run(&record);
    let text = format!("{:?}", end.events);
    assert!(!text.contains("SY/CAP"), "{text}");
}

/// HS-11, HS-E5: a 1–1 city tie goes to the player with a knight on a hill tile, under both
/// values of `hs.hill.tiebreak`; without the script both would score.
#[test]
fn a_follower_on_a_hill_breaks_a_tie() {
    for fixture in ["hs-synthetic.toml", "hs-tiebreak-count.toml"] {
        let end = run(&common::under(load("tiebreak"), fixture));
        assert_eq!(
            scored(&end.events),
            [(A, 6, FeatureKind::City)],
            "{fixture}"
        );
    }
}

/// HS-11 (RULES-MORE.md §3.3, §3.5): the two values of `hs.hill.tiebreak` part ways on a 2–2
/// city tie where A has one knight on a hill tile and B two: with "at_least_one" both tied
/// players have a knight on a hill and both score; with "count_followers_on_hills" B, with more
/// knights on hills, scores alone.
#[test]
fn the_hill_tiebreak_values_part_ways_on_a_two_two_tie() {
    let record = load("tiebreak-count");
    let at_least_one = run(&record);
    assert_eq!(
        scored(&at_least_one.events),
        [(A, 12, FeatureKind::City), (B, 12, FeatureKind::City)]
    );
    let counted = run(&common::under(record, "hs-tiebreak-count.toml"));
    assert_eq!(scored(&counted.events), [(B, 12, FeatureKind::City)]);
    assert_eq!(counted.game.scores(), [0, 12]);
}

/// X-1, X-13, Q-HS5: the tending comes before the dragon's journey; the dragon eats the
/// shepherd and its flock goes back into the bag.
#[test]
fn the_dragon_eats_the_shepherd_and_its_flock_goes_back() {
    let record = load("dragon");
    let end = run(&record);
    assert!(shepherds(&end.game).is_empty());
    assert_eq!(bag(&end.game), twos(5));
    assert_eq!(end.game.scores(), [0, 0]);
    let grew = (end.events.iter())
        .position(|e| matches!(e, Event::ScriptLog { text, .. } if text.contains("grows")))
        .expect("the flock grew");
    let ate = (end.events.iter())
        .position(|e| matches!(e, Event::FigureReturned { player: 0, .. }))
        .expect("the shepherd was eaten");
    assert!(
        grew < ate,
        "X-13: the shepherd action before the dragon moves"
    );
}

/// X-12: no shepherd on a volcano tile (B lays the volcano with his shepherd in supply).
#[test]
fn no_shepherd_on_a_volcano() {
    let game = before(load("dragon"), 3);
    assert_eq!(game.decision().player, B);
    assert_eq!(game.supply(B, shepherd(&game)), 1);
    assert!(offered(&game).is_empty());
}

/// X-9: after the princess removed a knight, no shepherd (seed 002 §PRINCESS Exp. 9): the
/// P&D scenario T-P1 played under hig-hs leaves only the pass.
#[test]
fn no_shepherd_after_the_princess() {
    let record = common::under(
        common::record("pd/princess", "t-p1-remove"),
        "hs-synthetic.toml",
    );
    let game = before(record.clone(), 6);
    assert_eq!(game.legal(), [Action::Pass]);
    // Had Red kept the knight, the shepherd would have been offered on the free fields.
    let mut game = before(record, 5);
    game.apply(&Action::Pass).expect("no removal");
    assert!(offered(&game).contains(&"shepherd".to_string()));
}

/// The tokens of the flocks in the script's state: (token count, sheep).
fn in_flocks(game: &Game) -> (u32, u32) {
    let state = game.script_state();
    let Some(flocks) = state.as_object() else {
        return (0, 0);
    };
    let mut tokens = 0;
    let mut sheep = 0;
    for f in flocks.values() {
        for v in f["sheep"].as_array().expect("sheep") {
            tokens += 1;
            sheep += v.as_u64().expect("a token's sheep") as u32;
        }
    }
    (tokens, sheep)
}

/// HS-C1, property: in random games of both presets, after every action the bag and the flocks
/// hold the 18 tokens together (4 × 1 + 5 × 2 + 5 × 3 + 2 × 4 = 37 sheep: the dossier's "38" is
/// a slip of its sum; both wolves in the bag), and every flock has its shepherd on the board;
/// every part of the box is reached.
#[test]
fn the_bag_always_adds_up() {
    let mut chosen = std::collections::BTreeMap::<String, usize>::new();
    for name in ["hig-hs", "zman-hs"] {
        let rules = Ruleset::load(name).expect("loads");
        for seed in 0..30u64 {
            let players = 2 + (seed % 3) as usize;
            let names = (0..players).map(|i| format!("P{i}")).collect();
            let (mut game, _) =
                Game::new(Arc::clone(&rules), Setup::new(names, seed)).expect("starts");
            let mut bot = RandomBot::new(seed * 17 + 3);
            while !game.is_over() {
                let action = bot.choose(&game);
                if let Action::Script(id) = action {
                    *chosen.entry(script::action(id).name).or_default() += 1;
                }
                game.apply(&action)
                    .unwrap_or_else(|e| panic!("{name} seed {seed}: {e}"));
                let (tokens, sheep) = in_flocks(&game);
                let contents = bag(&game);
                let count = |t: &str| contents.iter().find(|(k, _)| k == t).map_or(0, |c| c.1);
                let bag_sheep: u32 = (1..=4).map(|v| v * count(&format!("sheep_{v}"))).sum();
                let bag_tokens: u32 = contents.iter().map(|c| c.1).sum();
                assert_eq!(bag_tokens + tokens, 18, "{name} seed {seed}");
                assert_eq!(bag_sheep + sheep, 37, "{name} seed {seed}");
                assert_eq!(count("wolf"), 2, "{name} seed {seed}");
                let flocks = game.script_state().as_object().map_or(0, |f| f.len());
                assert_eq!(shepherds(&game).len(), flocks, "{name} seed {seed}");
            }
        }
    }
    common::all_chosen(&chosen, &["shepherd", "grow", "herd"]);
}

/// Same games (issue 32): seeded hig-hs games between a greedy and a random bot give the same
/// lines, byte for byte, on one thread and on two; the greedy bot plays the box (it deploys,
/// and its games pay flocks).
#[test]
fn seeded_games_do_not_depend_on_the_threads() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hs-threads");
    std::fs::create_dir_all(&dir).expect("dir");
    let run = |threads: &str| {
        let out = dir.join(format!("games-{threads}.jsonl"));
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_castellan"))
            .args(["simulate", "-r", "hig-hs", "-g", "4", "-b", "greedy,random"])
            .args(["-t", threads, "--out"])
            .arg(&out)
            .current_dir(common::root())
            .status()
            .expect("castellan runs");
        assert!(status.success());
        std::fs::read_to_string(out).expect("lines")
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert!(one.contains("\"HS-"), "flocks were paid: {one}");
}

/// A seeded game saved as a record replays to the same record, events and scores.
#[test]
fn a_saved_game_replays_the_same() {
    let rules = Ruleset::load("hig-hs").expect("loads");
    let names = vec!["A".to_string(), "B".to_string(), "C".to_string()];
    let (mut game, mut events) = Game::new(rules, Setup::new(names, 11)).expect("starts");
    let mut bot = RandomBot::new(5);
    while !game.is_over() {
        let action = bot.choose(&game);
        events.extend(game.apply(&action).expect("legal"));
    }
    let text = castellan::record::write(&game, "hig-hs");
    let path = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hs-saved.toml");
    std::fs::write(&path, &text).expect("write");
    let replay = run(&Record::load(&path).expect("loads"));
    assert_eq!(castellan::record::write(&replay.game, "hig-hs"), text);
    assert_eq!(replay.game.scores(), game.scores());
    let json = |e: &[Event]| serde_json::to_string(e).expect("json");
    assert_eq!(json(&replay.events), json(&events));
}

/// TILES-MORE.md §3 "Summary" and HS-C1: 18 land tiles of 16 types, 8 hills, 8 vineyards and 2
/// monasteries, the marks declared by the set itself.
#[test]
fn the_tile_set_has_the_published_totals() {
    let rules = Ruleset::load("hig-hs").expect("loads");
    let set: Vec<_> = (rules.tiles.iter())
        .filter(|t| t.id.starts_with("HS/"))
        .collect();
    let count = |keep: &dyn Fn(&&castellan::model::tile::TileType) -> bool| -> u32 {
        set.iter().filter(|t| keep(t)).map(|t| t.count).sum()
    };
    assert_eq!(set.len(), 16);
    assert_eq!(count(&|_| true), 18);
    let marked = |name: &str| {
        let symbol = rules
            .prints
            .symbol_named(name)
            .expect("the set declares it");
        count(&|t| t.symbol == Some(symbol))
    };
    assert_eq!(marked("hill"), 8);
    assert_eq!(marked("vineyard"), 8);
    assert_eq!(count(&|t| t.has_cloister()), 2);
}

/// Issue 32's test of "variants without recompiling": no Rust source of castellan names the
/// box's pieces; the script, the tile set and the presets are all of it.
#[test]
fn no_rust_file_names_the_box() {
    const WORDS: [&str; 8] = [
        "shepherd",
        "sheep",
        "wolf",
        "wolves",
        "flock",
        "hill",
        "vineyard",
        "hills_sheep",
    ];
    let mut dirs = vec![common::root().join("src")];
    let mut found = Vec::new();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("src").flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("read").to_lowercase();
                let words = text.split(|c: char| !c.is_ascii_alphanumeric() && c != '_');
                for w in words.filter(|w| WORDS.contains(w) || w.starts_with("hills")) {
                    found.push(format!("{}: {w}", path.display()));
                }
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

/// The text board shows the shepherd with its row's letter beside its owner's number, as the
/// board's key says ("1s a shepherd of seat 1").
#[test]
fn the_text_board_shows_the_shepherd() {
    let game = before(load("herd"), 7);
    let board = castellan::ui::render::text::board(&game, false);
    assert!(board.contains("s1") || board.contains("1s"), "{board}");
}

/// The web page plays `hig-hs` (RULES-MORE.md §3): two bots play a whole game through the
/// server's API; its record replays to the same scores and bag; the page's SVG draws the hills
/// and vineyards laid and every shepherd standing on its tile, and the standing shows each
/// flock beside its owner.
#[tokio::test]
async fn the_server_plays_a_game_of_hig_hs() {
    let app = api::app(&api::data("hills_sheep", "serve"));
    let mut flock_shown = false;
    let (game, replay) = api::bot_game(&app, "hig-hs", &["greedy", "random"], 7, |g| {
        flock_shown |= g["standing"].to_string().contains("sheep");
    })
    .await;
    assert!(
        flock_shown,
        "a flock was shown beside its owner during the game"
    );
    let svg = game["board"].as_str().expect("the board's SVG");
    for mark in ["hill", "vineyard"] {
        let rules = replay.game.rules();
        let laid = (replay.game.board().tiles().iter())
            .filter_map(|p| rules.tile(p.tile).symbol)
            .filter(|s| rules.prints.symbol_name(*s) == mark)
            .count();
        assert!(laid > 0, "a {mark} tile was laid");
        assert_eq!(
            svg.matches(&format!(r#"class="mark {mark}""#)).count(),
            laid,
            "{mark}"
        );
    }
    let standing = shepherds(&replay.game);
    assert!(!standing.is_empty(), "seed 7 ends with a shepherd out");
    for (owner, pos) in standing {
        let drawn = format!(
            r#"data-player="{owner}" data-place="tile" data-x="{}" data-y="{}" data-kind="shepherd""#,
            pos.x, pos.y
        );
        assert!(svg.contains(&drawn), "shepherd of seat {owner} not drawn");
    }
}
