//! The variant lab (issue 11): threads do not change results, shards merged equal one run,
//! `compare` and `report` on the command line (table, JSON, HTML), and bad input refused with
//! a clear message and exit code 1.

use castellan::bot::simulate;
use castellan::data::ruleset::Ruleset;
use castellan::lab::{self, Plan, Shard, metrics};
use std::process::{Command, Output};

fn plan(rulesets: &[&str], bots: &[&str], games: u64, shard: Shard, threads: usize) -> Plan {
    Plan {
        rulesets: rulesets
            .iter()
            .map(|r| {
                (
                    r.to_string(),
                    Ruleset::load(r).expect("shipped rulesets load"),
                )
            })
            .collect(),
        bots: bots.iter().map(|b| b.to_string()).collect(),
        games,
        seed: 40,
        shard,
        threads,
    }
}

#[test]
fn thread_count_does_not_change_results() {
    let rules = Ruleset::load("hig").expect("hig loads");
    let stats = |threads| {
        let mut s = simulate::run_bots_on(&rules, &["greedy", "random"], 6, 3, threads, |_| {})
            .expect("the games run");
        s.seconds = 0.0;
        s.games_per_second = 0.0;
        s
    };
    assert_eq!(stats(1), stats(2));
    let random = |threads| {
        let mut s = simulate::run_on(&rules, 3, 20, 3, threads, |_| {}).expect("the games run");
        s.seconds = 0.0;
        s.games_per_second = 0.0;
        s
    };
    assert_eq!(random(1), random(2));
    let p = |threads| {
        plan(
            &["hig", "house-pilgrims"],
            &["random", "greedy"],
            5,
            Shard::ALL,
            threads,
        )
    };
    assert_eq!(
        lab::run(&p(1), |_| {}).expect("runs"),
        lab::run(&p(2), |_| {}).expect("runs")
    );
}

#[test]
fn shards_merged_equal_one_run() {
    let rulesets = ["hig", "house-fairy-five"];
    let bots = ["random", "random", "greedy"];
    let whole = lab::run(&plan(&rulesets, &bots, 7, Shard::ALL, 2), |_| {}).expect("runs");
    let mut merged = Vec::new();
    // Shards are merged in any order.
    for index in [3, 1, 2] {
        let shard = Shard { index, count: 3 };
        merged.extend(lab::run(&plan(&rulesets, &bots, 7, shard, 1), |_| {}).expect("runs"));
    }
    let a = metrics::summarize(&whole).expect("one run");
    let b = metrics::summarize(&merged).expect("merged shards");
    assert_eq!(a, b);
    assert_eq!(a.games, vec![7, 7]);
    // And through the JSON lines of shard files.
    let lines = lab::report::write_results(&merged);
    let dir = std::env::temp_dir().join(format!("castellan-lab-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let file = dir.join("games.jsonl");
    std::fs::write(&file, lines).expect("written");
    let read = lab::report::read_results(&file).expect("read back");
    assert_eq!(metrics::summarize(&read).expect("merged"), a);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game's result agrees with the game itself: scores, turns, and the points by source add
/// up to the final scores (every point comes from an event that names its source).
#[test]
fn game_results_add_up() {
    let rules = Ruleset::load("house-fairy-five").expect("loads");
    for seed in 0..4 {
        let r = lab::play(&rules, &["greedy", "random"], seed, 0).expect("the game runs");
        let game = simulate::play_bots(&rules, &["greedy", "random"], seed).expect("runs");
        assert_eq!(r.scores, game.scores());
        assert_eq!(r.turns, game.turn());
        for seat in 0..2 {
            let sum: u32 = r.points.values().map(|p| p[seat]).sum();
            assert_eq!(
                sum, r.scores[seat],
                "seed {seed}, seat {seat}: {:?}",
                r.points
            );
        }
        if let Some(w) = r.winner() {
            assert!(r.decided_turn.is_some_and(|t| t <= r.turns));
            assert!(r.scores.iter().all(|s| *s <= r.scores[w]));
        }
    }
}

/// Traders & Builders' goods majorities (B-E2) are paid by an event of their own: their points
/// appear under their rule and words, in tens, and the sources still add up to the scores.
#[test]
fn goods_majorities_are_a_source_of_their_own() {
    let rules = Ruleset::load("hig-tb").expect("loads");
    let mut seen = false;
    for seed in 0..3 {
        let r = lab::play(&rules, &["random", "random"], seed, 0).expect("the game runs");
        for seat in 0..2 {
            let sum: u32 = r.points.values().map(|p| p[seat]).sum();
            assert_eq!(sum, r.scores[seat], "seed {seed}: {:?}", r.points);
        }
        if let Some(goods) = r.points.get("B-E2 goods majority at the end of the game") {
            assert!(goods.iter().all(|p| p % 10 == 0), "{goods:?}");
            seen |= goods.iter().any(|p| *p > 0);
        }
        assert!(
            !r.points.contains_key("goods_majority"),
            "no raw event names"
        );
    }
    assert!(seen, "some game of three pays a goods majority");
}

fn castellan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_castellan"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn compare_prints_a_table_json_and_an_html_page() {
    let dir = std::env::temp_dir().join(format!("castellan-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let html = dir.join("report.html");
    let html_arg = html.to_string_lossy().into_owned();
    let common = [
        "compare",
        "hig",
        "house-pilgrims",
        "--bots",
        "random,random",
        "--games",
        "6",
        "--seed",
        "2",
    ];
    let table = castellan(&[&common[..], &["--html", &html_arg]].concat());
    let out = text(&table.stdout);
    assert!(table.status.success(), "{}", text(&table.stderr));
    assert!(
        out.contains("win rate, seat 1") && out.contains("house-pilgrims"),
        "{out}"
    );
    let page = std::fs::read_to_string(&html).expect("the page is written");
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert_eq!(
        page.matches("<svg").count(),
        5,
        "score, win rate, points by seat, seat gap and firings plots"
    );
    assert!(!page.contains("src=\"http"), "self-contained");

    let json = castellan(&[&common[..], &["--json"]].concat());
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(
        value["rulesets"],
        serde_json::json!(["hig", "house-pilgrims"])
    );

    // Two shards written to files and merged by `report` give the same JSON.
    let mut files = Vec::new();
    for k in 1..=2 {
        let file = dir
            .join(format!("shard{k}.jsonl"))
            .to_string_lossy()
            .into_owned();
        let shard = format!("{k}/2");
        let run = castellan(&[&common[..], &["--shard", &shard, "--out", &file]].concat());
        assert!(run.status.success(), "{}", text(&run.stderr));
        files.push(file);
    }
    let merged = castellan(&["report", &files[0], &files[1], "--json"]);
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    let merged: serde_json::Value = serde_json::from_slice(&merged.stdout).expect("JSON");
    assert_eq!(merged, value);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Bad input: exit code 1, a message that says what is wrong, no panic.
#[test]
fn bad_input_is_refused_clearly() {
    let dir = std::env::temp_dir().join(format!("castellan-lab-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let garbage = dir.join("garbage.jsonl");
    std::fs::write(&garbage, "{\"ruleset\": 3}\n").expect("written");
    let garbage = garbage.to_string_lossy().into_owned();
    let cases: [(&[&str], &str); 7] = [
        (
            &["compare", "hig", "--bots", "mcts:abc,random"],
            "unknown bot `mcts:abc`",
        ),
        (
            &["compare", "hig", "--bots", "random", "--games", "0"],
            "--games must be at least 1",
        ),
        (
            &["compare", "hig", "--bots", "random", "--shard", "3/2"],
            "bad shard `3/2`",
        ),
        (
            &[
                "compare", "hig", "--games", "2", "--bots", "random", "--shard", "3/4",
            ],
            "holds no games",
        ),
        (
            &["compare", "no-such-ruleset", "--bots", "random"],
            "no-such-ruleset",
        ),
        (&["report", &garbage], "garbage.jsonl:1: not a game result"),
        (
            &["simulate", "--games", "2", "--shard", "0/2"],
            "bad shard `0/2`",
        ),
    ];
    for (args, message) in cases {
        let out = castellan(args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `compare --ablate` on a case whose answer is known (RULES.md §3.1 #24 and FA7): a variant of
/// `hig` that writes `pd.fairy.scoring_bonus_when = "any_scoring"` (the default, which `hig`
/// leaves unset: a key that does nothing) and `pd.fairy.turn_bonus = 0` (no fairy point: it
/// changes every score). The base with the first key alone plays exactly `hig`'s games, the
/// base with the second alone exactly the variant's; all-but-one the other way round.
#[test]
fn ablation_takes_a_variant_apart_key_by_key() {
    use castellan::lab::changes::{self, Ablate};
    let dir = std::env::temp_dir().join(format!("castellan-ablate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let file = dir.join("variant.toml");
    std::fs::write(
        &file,
        "extends = \"hig\"\nname = \"variant\"\ndescription = \"two changes\"\n\n[pd.fairy]\nscoring_bonus_when = \"any_scoring\"\nturn_bonus = 0\n",
    )
    .expect("written");
    let variant = file.to_string_lossy().into_owned();
    let ablation = changes::ablation("hig", &variant, Ablate::AllButOne).expect("ablation");
    let names: Vec<&str> = ablation.rulesets.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "hig",
            variant.as_str(),
            "+pd.fairy.scoring_bonus_when=\"any_scoring\"",
            "+pd.fairy.turn_bonus=0",
            "-pd.fairy.scoring_bonus_when",
            "-pd.fairy.turn_bonus",
        ]
    );
    let changed: Vec<(&str, Option<&str>, Option<&str>)> = ablation.about[1]
        .changes
        .iter()
        .map(|c| (c.key.as_str(), c.base.as_deref(), c.value.as_deref()))
        .collect();
    assert_eq!(
        changed,
        [
            ("pd.fairy.scoring_bonus_when", None, Some("\"any_scoring\"")),
            ("pd.fairy.turn_bonus", Some("1"), Some("0")),
        ]
    );
    let plan = Plan {
        rulesets: ablation.rulesets.clone(),
        bots: vec!["random".into(), "random".into()],
        games: 6,
        seed: 9,
        shard: Shard::ALL,
        threads: 2,
    };
    let results = lab::run(&plan, |_| {}).expect("runs");
    let games = |position: usize| -> Vec<_> {
        results
            .iter()
            .filter(|r| r.position == position)
            .map(|r| (r.scores.clone(), r.points.clone(), r.firings.clone()))
            .collect()
    };
    assert_ne!(games(0), games(1), "the turn point changes the games");
    assert_eq!(games(2), games(0), "a key set to its default does nothing");
    assert_eq!(
        games(3),
        games(1),
        "the turn point alone is the whole variant"
    );
    assert_eq!(games(4), games(1), "all but the default key: the variant");
    assert_eq!(games(5), games(0), "all but the turn point: the base");
    let mut summary = metrics::summarize(&results).expect("one run");
    summary.ablation = true;
    summary.about = ablation.about;
    let verdict = lab::report::verdict(&summary);
    let at = |name: &str| {
        verdict
            .iter()
            .position(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no {name} in {verdict:?}"))
    };
    let noop = at("+pd.fairy.scoring_bonus_when");
    assert_eq!(verdict[noop + 1], "    moves nothing measured");
    let turn = at("+pd.fairy.turn_bonus");
    assert!(
        verdict[turn + 1].starts_with("    mean score, seat 1: -"),
        "{verdict:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A ruleset that changes nothing cannot be taken apart; `--ablate` wants two rulesets.
#[test]
fn ablation_needs_two_rulesets_that_differ() {
    let same = castellan(&["compare", "hig", "hig", "--ablate", "--games", "2"]);
    assert_eq!(same.status.code(), Some(1));
    assert!(text(&same.stderr).contains("nothing to take apart"));
    let three = castellan(&["compare", "hig", "house-fairy-five", "devir", "--ablate"]);
    assert_eq!(three.status.code(), Some(1));
    assert!(text(&three.stderr).contains("exactly two rulesets"));
}

/// `castellan report` on one shard of two says that half the run is missing, and which half.
#[test]
fn a_merge_of_incomplete_shards_says_what_is_missing() {
    let dir = std::env::temp_dir().join(format!("castellan-missing-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let file = dir.join("shard1.jsonl").to_string_lossy().into_owned();
    let run = castellan(&[
        "compare",
        "hig",
        "--bots",
        "random,random",
        "--games",
        "6",
        "--shard",
        "1/2",
        "--out",
        &file,
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let report = castellan(&["report", &file]);
    assert!(report.status.success());
    let warning = "incomplete run: `hig` has 3 of its run's 6 games: missing shard 2/2 (games 3–5)";
    assert!(
        text(&report.stderr).contains(warning),
        "{}",
        text(&report.stderr)
    );
    assert!(text(&report.stdout).contains(warning));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `simulate` gives the same numbers on one thread and on two.
#[test]
fn simulate_does_not_depend_on_the_thread_count() {
    let run = |threads: &str| {
        let out = castellan(&[
            "simulate",
            "--games",
            "40",
            "--seed",
            "5",
            "--json",
            "--threads",
            threads,
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        v["seconds"] = 0.into();
        v["games_per_second"] = 0.into();
        v
    };
    assert_eq!(run("1"), run("2"));
}

/// Every event kind that random games of `rulesets` produce (as the engine's JSON names them).
fn event_kinds(rulesets: &[&str]) -> std::collections::BTreeSet<String> {
    use castellan::bot::{Bot, RandomBot};
    use castellan::engine::game::{Game, Setup};
    let mut kinds = std::collections::BTreeSet::new();
    for name in rulesets {
        let rules = Ruleset::load(name).expect("shipped rulesets load");
        for seed in 0..3 {
            let setup = Setup::new(vec!["A".into(), "B".into()], seed);
            let (mut game, mut events) = Game::new(rules.clone(), setup).expect("the game starts");
            let mut bot = RandomBot::for_game(seed);
            while !game.is_over() {
                let action = bot.choose(&game);
                game.apply_into(&action, &mut events)
                    .expect("a legal action");
            }
            for e in &events {
                let json = serde_json::to_value(e).expect("events serialise");
                kinds.insert(json["event"].as_str().expect("a kind").to_string());
            }
        }
    }
    kinds
}

/// Issue 34: the report names every source of points and every rule firing by a rule — its
/// RULES.md id and words (§1.6 completed city, D7 figure eaten by the dragon, FA8 fairy bonus at
/// final scoring), or the script that acted — and no event's name appears in the table, the
/// JSON or the HTML page, for rulesets whose games fire every mechanic shipped (a family's
/// events by the rules its vocabulary names: TW-2 floor put on a tower, BCB-19 …).
#[test]
fn the_report_speaks_of_rules_not_of_event_names() {
    let rulesets = [
        "hig-full",
        "dungeon-full",
        "hig-count-ic",
        "hig-abbot",
        "house-pilgrims",
        "house-claim-fairy-point",
        "house-redraw-dragon",
        "hig-big-box",
    ];
    let kinds = event_kinds(&rulesets);
    assert!(kinds.contains("tower_floor") && kinds.contains("bazaar_bid"));
    assert!(kinds.contains("figure_returned") && kinds.contains("dragon_moved"));
    let results = lab::run(
        &plan(&rulesets, &["random", "random"], 6, Shard::ALL, 0),
        |_| {},
    )
    .expect("the run plays");
    let named_by_rule = |key: &str| {
        let first = key.split_whitespace().next().unwrap_or("");
        let id = first.chars().any(|c| c.is_ascii_digit())
            && !first.chars().any(|c| c.is_ascii_lowercase());
        (id || key.starts_with("script")) && !key.contains("unlisted")
    };
    let mut firings = 0;
    for g in &results {
        for key in g.points.keys().chain(g.firings.keys()) {
            assert!(named_by_rule(key), "{key:?} in {}", g.ruleset);
        }
        firings += g.firings.len();
    }
    assert!(firings > 100, "the games fire rules: {firings}");
    let summary = metrics::summarize(&results).expect("one run");
    let table = lab::report::table(&summary);
    let json = serde_json::to_string(&summary).expect("JSON");
    let html = lab::report::html(&summary).expect("a page");
    assert!(table.contains("fired: D5 dragon's step"), "{table}");
    assert!(table.contains("fired: B-M3 figure returned after scoring"));
    assert!(json.contains("fired: PR3 knight removed by the princess"));
    assert!(
        table.contains("fired: TW-2 floor put on a tower"),
        "{table}"
    );
    assert!(table.contains("BCB-18 bazaar opening bid"), "{table}");
    for kind in kinds.iter().filter(|k| k.contains('_')) {
        for (what, text) in [("table", &table), ("JSON", &json), ("HTML", &html)] {
            assert!(
                !text.contains(kind.as_str()),
                "the {what} names event {kind}"
            );
        }
    }
}
