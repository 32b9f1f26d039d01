//! Figures are data: the figure table (`src/data/figures.toml` and a ruleset's
//! `[figures.NAME]` sections, rulesets/README.md "Figures") — its shipped rows, a ruleset's
//! overrides and new rows, located errors for bad rows, and rows that change outcomes
//! (RULES.md B-M1 strength in a majority, B-F2 the features a figure may take).

mod common;

use castellan::bot::{Bot, RandomBot};
use castellan::data::diagnostic::Diagnostic;
use castellan::data::ruleset::Ruleset;
use castellan::engine::action::Action;
use castellan::engine::event::Event;
use castellan::engine::game::{Game, RuleError, Setup};
use castellan::model::figure::FigureKind;
use castellan::model::geometry::Pos;
use castellan::model::tile::FeatureKind;
use castellan::record::{Record, Replay};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/figures")
}

fn load(path: &Path) -> Arc<Ruleset> {
    Ruleset::load(&path.display().to_string()).unwrap_or_else(|d| panic!("{d}"))
}

fn refused(name: &str, body: &str, words: &[&str]) -> Diagnostic {
    let d = match common::written("figures", name, body) {
        Ok(_) => panic!("{name} was accepted"),
        Err(d) => d,
    };
    let text = d.to_string();
    assert!(d.line_col().is_some(), "not located: {text}");
    for w in words {
        assert!(text.contains(w), "`{w}` missing from: {text}");
    }
    d
}

/// The shipped table: the plain follower (B-M1 strength 1, seven each, B-C2) first, the
/// Count's neutral figure as a row too.
#[test]
fn the_shipped_table_has_the_follower_and_the_count() {
    let rules = Ruleset::load("base").expect("base");
    let rows = rules.figures.rows();
    assert_eq!(rows[0].kind, FigureKind::Follower);
    assert_eq!((rows[0].per_player, rows[0].strength), (7, 1));
    for kind in [
        FeatureKind::Road,
        FeatureKind::City,
        FeatureKind::Cloister,
        FeatureKind::Field,
    ] {
        assert!(rows[0].stands_on.on(kind), "{kind:?}");
    }
    assert!(rows[0].can("princess") && rows[0].can("portal") && rows[0].can("fairy"));
    assert!(rows[0].has_tag("flesh_and_blood"));
    let count = rules
        .figures
        .row(FigureKind::parse("count").expect("the count row is named"))
        .expect("the Count's row");
    assert_eq!((count.per_player, count.strength), (0, 0));
    assert!(!count.can("princess") && !count.can("portal") && !count.can("fairy"));
}

/// `base.followers_per_player` (toggle #45) keeps working: it is the follower row's count;
/// `figures.follower.per_player` says the same in the table's words.
#[test]
fn followers_per_player_is_the_follower_rows_count() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let one = load(&root.join("tests/fixtures/base-one-follower.toml"));
    assert_eq!(one.figures.rows()[0].per_player, 1);
    let three =
        common::written("figures", "three", "[figures.follower]\nper_player = 3\n").expect("loads");
    assert_eq!(three.figures.rows()[0].per_player, 3);
    assert_eq!(
        castellan::mechanic::base::rules::BaseRules::of(&three).followers_per_player,
        3
    );
    let (game, _) = Game::new(three, Setup::new(vec!["A".into(), "B".into()], 1)).expect("game");
    assert_eq!(game.supply(0, FigureKind::Follower), 3);
}

/// A ruleset adds a row and changes a shipped one key by key.
/// The set of kinds a mechanic reads once from the table (the fairy's followers FA1–FA3, the
/// princess's knights PR2) answers as the rows do, for every row of the shipped P&D tables, and
/// holds no kind the table lacks.
#[test]
fn a_set_of_kinds_answers_as_the_table_rows() {
    for name in ["hig", "hig-full", "zman-full", "house-fairy-five"] {
        let rules = Ruleset::load(name).unwrap_or_else(|d| panic!("{d}"));
        let table = &rules.figures;
        let fairy = table.kinds(|r| r.can("fairy"));
        let knights = table.kinds(|r| r.can("princess"));
        for row in table.rows() {
            assert_eq!(
                fairy.contains(row.kind),
                row.can("fairy"),
                "{name}: {:?}",
                row.kind
            );
            assert_eq!(
                knights.contains(row.kind),
                row.can("princess"),
                "{name}: {:?}",
                row.kind
            );
        }
        assert!(
            table.rows().iter().any(|r| r.can("fairy")),
            "{name}: the fairy counts some kind"
        );
        let absent =
            FigureKind::named("not_in_any_table", "not in any table").expect("room for a name");
        assert!(!fairy.contains(absent) && !knights.contains(absent));
    }
}

#[test]
fn a_ruleset_adds_and_overrides_rows() {
    let rules = load(&fixtures().join("base-big-follower.toml"));
    let big = rules
        .figures
        .row(FigureKind::parse("big").expect("named"))
        .expect("the big row");
    assert_eq!((big.per_player, big.strength), (1, 2));
    // `follower = "big"` takes the P&D lists' answers (pd.princess.knight_kinds,
    // pd.portal.figures both list `big` by default).
    assert!(big.can("princess") && big.can("portal") && big.can("fairy"));
    let changed = common::written(
        "figures",
        "no-portal",
        "[figures.follower]\nportal = false\ntags = [\"follower\"]\n",
    )
    .expect("loads");
    let follower = &changed.figures.rows()[0];
    assert!(!follower.can("portal") && follower.can("princess"));
    assert_eq!(follower.strength, 1, "keys it does not write stay shipped");
    assert!(!follower.has_tag("flesh_and_blood"));
}

/// Bad rows are refused at the key, with file, line and column.
#[test]
fn bad_rows_are_located() {
    refused(
        "typo",
        "[figures.big]\nstrenght = 2\n",
        &["typo.toml", "strenght"],
    );
    refused(
        "strong",
        "[figures.big]\nstrength = 99\n",
        &["strong.toml", "strength must be 0 to 10, not 99"],
    );
    refused(
        "lake",
        "[figures.big]\nstands_on = [\"lake\"]\n",
        &["lake.toml", "lake"],
    );
    refused(
        "tags",
        "[figures.big]\ntags = [\"Big Tag\"]\n",
        &["tags.toml", "Big Tag"],
    );
    refused(
        "name",
        "[figures.Big]\nper_player = 1\n",
        &["name.toml", "figure `Big`"],
    );
    refused(
        "many",
        "[figures.a]\n[figures.b]\n[figures.c]\n[figures.d]\n[figures.e]\n[figures.f]\n[figures.g]\n[figures.h]\n",
        &["many.toml", "at most 16 kinds of figure"],
    );
    refused(
        "supply",
        "[figures.follower]\nper_player = 31\n",
        &["supply.toml", "per_player must be 0 to 30"],
    );
}

/// RULES.md T-B1, the big-follower half (B-M1 "normal 1, big 2", B-M2): a figure defined only by
/// the ruleset's table (`[figures.big] strength = 2`) wins the road a normal follower would
/// have tied (compare tests/records/base/t-b1-road-tie.toml: both +4).
#[test]
fn t_b1_a_ruleset_defined_big_follower_wins_the_majority() {
    let record =
        Record::load(&fixtures().join("t-b1-big-follower.toml")).unwrap_or_else(|d| panic!("{d}"));
    let Replay { game, events } = record.replay().unwrap_or_else(|e| panic!("{e}"));
    let big = FigureKind::parse("big").expect("named");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::FigureDeployed { player: 1, figure, .. } if *figure == big
    )));
    let scored: Vec<(usize, u32)> = events
        .iter()
        .filter_map(|e| match e {
            Event::Scored { player, points, .. } => Some((*player, *points)),
            _ => None,
        })
        .filter(|(_, p)| *p > 0)
        .collect();
    assert_eq!(scored, vec![(1, 4)], "Blue alone scores the road");
    assert_eq!(game.scores(), &[0, 4]);
    assert!(game.figures().is_empty(), "B-M3: both thieves return");
    assert_eq!(game.supply(1, big), 1, "the big follower is back");
    assert_eq!(game.supply(0, FigureKind::Follower), 7);
}

/// B-F2 read from the table: with `stands_on` leaving out fields, no deployment onto a field is
/// offered and one is refused, leaving the game unchanged; the base game offers them.
#[test]
fn stands_on_removes_the_deployments_it_leaves_out() {
    let base = Ruleset::load("base").expect("base");
    let no_fields = load(&fixtures().join("base-no-field-figures.toml"));
    let field_deploys = |rules: &Arc<Ruleset>| {
        let mut bot = RandomBot::new(3);
        let setup = Setup::new(vec!["A".into(), "B".into()], 3);
        let (mut game, _) = Game::new(Arc::clone(rules), setup).expect("game");
        let (mut offered, mut refused) = (0, 0);
        while !game.is_over() {
            let legal = game.legal();
            let on_field = |a: &Action| match *a {
                Action::Deploy { pos, spot, .. } => game
                    .seg_at(pos, spot)
                    .is_some_and(|s| game.features().segment(s).kind == FeatureKind::Field),
                _ => false,
            };
            offered += legal.iter().filter(|a| on_field(a)).count();
            if let Some(field) = field_spot(&game, &legal) {
                let before = game.legal();
                match game.apply(&field) {
                    Err(e @ RuleError::IllegalAction { .. }) => {
                        refused += 1;
                        assert_eq!(e.rule().map(|r| r.0), Some("figures.stands_on"), "{e}");
                        assert_eq!(game.legal(), before, "a refusal changes nothing");
                    }
                    Err(e) => panic!("{e}"),
                    Ok(_) => continue,
                }
            }
            let action = bot.choose(&game);
            game.apply(&action).expect("a legal action");
        }
        (offered, refused)
    };
    let (offered, refused) = field_deploys(&base);
    assert!(offered > 0 && refused == 0, "{offered} {refused}");
    let (offered, refused) = field_deploys(&no_fields);
    assert_eq!(offered, 0);
    assert!(refused > 0, "a field deployment was tried");
}

/// A deployment onto a field of the tile just laid, if the decision is a deployment with a
/// follower in supply and the tile has a free field.
fn field_spot(game: &Game, legal: &[Action]) -> Option<Action> {
    let placed = game.placed_this_turn()?;
    if !legal.iter().any(|a| matches!(a, Action::Deploy { .. })) {
        return None;
    }
    let p = game.board().placed(placed);
    let pos: Pos = p.pos;
    let features = &game.board().oriented(&game.rules().tiles, placed).features;
    (0..features.len()).find_map(|f| {
        let seg = p.seg_base + f as u32;
        let free = game.features().totals(seg).followers == 0;
        (game.features().segment(seg).kind == FeatureKind::Field && free).then(|| Action::Deploy {
            pos,
            spot: game.seg_spot(seg).1,
            figure: FigureKind::Follower,
        })
    })
}
