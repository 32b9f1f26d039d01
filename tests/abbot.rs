//! The Abbot of the new base game (`[mechanics] abbot`, RULES.md §1.10, [ext:B8]): the abbot
//! stands on cloisters and gardens only; instead of deploying, its owner may recall it and score
//! its cloister or garden at once as at final scoring. With The Princess & the Dragon: the
//! fairy's +3 for an early recall (FA10, `pd.fairy.abbot_recall_bonus`), the princess's removal
//! forbidding the recall (PR5, `pd.princess.removal_blocks`), the magic portal (MP5,
//! `pd.portal.figures`) and the dragon's menu (D7). Each record under `tests/records/abbot/`
//! says its scenario and expected outcome in its header.

use castellan::data::ruleset::Ruleset;
use castellan::engine::action::Action;
use castellan::engine::event::{Event, ReturnReason};
use castellan::engine::game::{Game, RuleError};
use castellan::engine::refusal::RuleId;
use castellan::mechanic::abbot::vocabulary::{AbbotAction, AbbotEvent};
use castellan::mechanic::pd::vocabulary::EATEN;
use castellan::model::figure::FigureKind;
use castellan::model::geometry::{Pos, Spot};
use castellan::model::tile::FeatureKind;
use castellan::record::{self, Record, Replay};

mod common;
use common::{before, run};

const RED: usize = 0;
const BLUE: usize = 1;

fn load(name: &str) -> Record {
    common::record("abbot", name)
}

/// The record played under another fixture ruleset (one toggle changed).
fn under(name: &str, fixture: &str) -> Record {
    common::under(load(name), fixture)
}

fn abbot() -> FigureKind {
    FigureKind::parse("abbot").expect("the shipped abbot row is named")
}

fn recall(x: i32, y: i32) -> Action {
    AbbotAction::Recall {
        pos: Pos::new(x, y),
    }
    .into()
}

fn abbot_to(x: i32, y: i32, spot: &str) -> Action {
    Action::Deploy {
        pos: Pos::new(x, y),
        spot: Spot::parse(spot).expect("spot"),
        figure: abbot(),
    }
}

/// Every positive score as (player, points, feature, rule).
fn scored(events: &[Event]) -> Vec<(usize, u32, FeatureKind, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Scored {
                player,
                points,
                feature,
                rule,
                ..
            } if *points > 0 => Some((*player, *points, *feature, rule.to_string())),
            _ => None,
        })
        .collect()
}

/// Applies an action that must be refused and checks that the game did not change.
fn refused(game: &mut Game, action: Action) -> RuleError {
    let saved = record::write(game, "x");
    let legal = game.legal();
    let err = game.apply(&action).expect_err("refused");
    assert_eq!(
        record::write(game, "x"),
        saved,
        "{action:?} changed the game"
    );
    assert_eq!(game.legal(), legal);
    err
}

/// [ext:B8]: the recall scores the cloister at once as at the end of the game (itself and the
/// four laid neighbours: 5) and sends the abbot home; FA10 (seed 004 "Opat"): the fairy next to
/// the abbot gives no +3 for it; the fairy's turn point (FA7) still came at the turn's start.
#[test]
fn the_recall_scores_the_cloister_at_once_without_the_fairy_bonus() {
    let record = load("recall-fairy");
    let n = record.actions.len();
    let game = before(load("recall-fairy"), n - 1);
    assert!(
        game.legal().contains(&recall(1, 0)),
        "the recall is offered"
    );
    let Replay { game, events } = run(&record);
    let at = events
        .iter()
        .position(|e| AbbotEvent::of(e).is_some())
        .expect("the recall event");
    assert_eq!(
        AbbotEvent::of(&events[at]),
        Some(AbbotEvent::Recalled {
            player: RED,
            x: 1,
            y: 0
        })
    );
    let after = &events[at..];
    assert_eq!(
        scored(after),
        vec![(
            RED,
            5,
            FeatureKind::Cloister,
            "§1.8 incomplete cloister".into()
        )]
    );
    assert!(after.iter().any(|e| matches!(
        e,
        Event::FigureReturned {
            player: RED,
            x: 1,
            y: 0,
            reason: ReturnReason::Scored,
            ..
        }
    )));
    assert_eq!(game.scores(), &[6, 0], "1 fairy point + 5 for the cloister");
    assert!(game.figures().is_empty());
    assert_eq!(game.supply(RED, abbot()), 1, "the abbot is home");
    let fairy = game.fairy().expect("the fairy stays");
    assert_eq!((fairy.pos, fairy.follower), (Pos::new(1, 0), None), "FA11");
}

/// FA10's other value (`pd.fairy.abbot_recall_bonus = true`, RULES.md §3.1 #30): the recall
/// earns the fairy's +3 too.
#[test]
fn abbot_recall_bonus_true_pays_the_fairy_bonus() {
    let Replay { game, events } = run(&under("recall-fairy", "abbot-recall-bonus.toml"));
    assert_eq!(game.scores(), &[9, 0], "1 + 5 + 3");
    assert!(
        scored(&events)
            .iter()
            .any(|s| *s == (RED, 3, FeatureKind::Cloister, "FA8 fairy bonus".into()))
    );
}

/// Bad input: a recall where the player has no abbot, or of another player's abbot, is
/// refused with a clear message naming the spot, and the game is unchanged.
#[test]
fn a_recall_without_the_players_abbot_is_refused() {
    let n = load("recall-fairy").actions.len();
    let mut red = before(load("recall-fairy"), n - 1);
    let err = refused(&mut red, recall(0, 1));
    assert_eq!(err.rule(), Some(RuleId("mechanics.abbot")));
    let text = err.to_string();
    assert!(
        text.contains("(0,1)") && text.contains("no abbot of yours"),
        "{text}"
    );
    // Blue's turn 4: Red's abbot is on (1,0), but it is not Blue's.
    let mut blue = before(load("recall-fairy"), 7);
    assert_eq!(blue.active(), BLUE);
    assert!(!blue.legal().iter().any(|a| AbbotAction::of(a).is_some()));
    let err = refused(&mut blue, recall(1, 0));
    assert_eq!(err.rule(), Some(RuleId("mechanics.abbot")));
}

/// The abbot's row (src/data/figures.toml): it may stand on a cloister or a garden only; the
/// normal follower may not stand in a garden (tiles/base-garden.toml).
#[test]
fn the_abbot_stands_on_cloisters_and_gardens_only() {
    let cloister = before(load("recall-fairy"), 1);
    let abbot_deploys: Vec<Action> = cloister
        .legal()
        .into_iter()
        .filter(|a| matches!(a, Action::Deploy { figure, .. } if *figure == abbot()))
        .collect();
    assert_eq!(abbot_deploys, vec![abbot_to(1, 0, "C")]);
    let garden = before(load("portal"), 1);
    let in_garden: Vec<Action> = garden
        .legal()
        .into_iter()
        .filter(
            |a| matches!(a, Action::Deploy { spot, .. } if *spot == Spot::parse("C").expect("C")),
        )
        .collect();
    assert_eq!(in_garden, vec![abbot_to(1, 0, "C")], "the abbot only");
}

/// MP5 (RULES.md §2.5; seeds 002 and 004): the abbot may use the magic portal, to a cloister or
/// garden only; the garden is then scored at the end as a cloister would be (1 + neighbours).
#[test]
fn mp5_the_abbot_goes_through_the_portal_into_a_garden() {
    let record = load("portal");
    let n = record.actions.len();
    let game = before(load("portal"), n - 1);
    let abbot_deploys: Vec<Action> = game
        .legal()
        .into_iter()
        .filter(|a| matches!(a, Action::Deploy { figure, .. } if *figure == abbot()))
        .collect();
    assert_eq!(abbot_deploys, vec![abbot_to(1, 0, "C")]);
    let Replay { game, events } = run(&record);
    assert!(game.is_over());
    assert_eq!(
        scored(&events),
        vec![(RED, 3, FeatureKind::Garden, "§1.8 incomplete garden".into())]
    );
    assert_eq!(game.scores(), &[3, 0]);
}

/// MP5 with the abbot left out of `pd.portal.figures` (RULES.md §3.1 #35): the abbot may not
/// use the portal.
#[test]
fn mp5_portal_figures_without_the_abbot_refuses_it() {
    let n = load("portal").actions.len();
    let mut game = before(under("portal", "abbot-no-portal.toml"), n - 1);
    assert!(!game.legal().contains(&abbot_to(1, 0, "C")));
    let err = refused(&mut game, abbot_to(1, 0, "C"));
    assert_eq!(err.rule(), Some(RuleId("pd.portal.figures")));
}

/// PR5 (RULES.md §2.6, §3.1 #2) under the default `all_figures_and_fairy` (seeds 002 and 004):
/// after the princess's removal the recall, a deploy action, is not offered and is refused;
/// the abbot stays and its cloister scores only at the end (3).
#[test]
fn pr5_all_figures_and_fairy_forbids_the_recall() {
    let mut game = before(load("recall-princess"), 6);
    assert_eq!(game.legal(), vec![Action::Pass]);
    let err = refused(&mut game, recall(-1, 1));
    assert_eq!(err.rule(), Some(RuleId("PR5")));
    let Replay { game, events } = run(&load("recall-princess"));
    assert!(!events.iter().any(|e| AbbotEvent::of(e).is_some()));
    assert_eq!(
        scored(&events),
        vec![(
            RED,
            3,
            FeatureKind::Cloister,
            "§1.8 incomplete cloister".into()
        )],
        "the cloister scores at the end"
    );
    assert_eq!(game.scores(), &[3, 0]);
}

/// PR5 under `follower_on_tile` (seeds 000, 001): only the princess tile is closed, so the
/// abbot may be recalled right after the removal: the cloister scores 3 at once.
#[test]
fn pr5_follower_on_tile_allows_the_recall() {
    let mut game = before(under("recall-princess", "abbot-princess-tile-only.toml"), 6);
    assert!(game.legal().contains(&recall(-1, 1)));
    let events = game.apply(&recall(-1, 1)).expect("the recall");
    assert_eq!(
        scored(&events),
        vec![(
            RED,
            3,
            FeatureKind::Cloister,
            "§1.8 incomplete cloister".into()
        )]
    );
    assert_eq!(game.scores(), &[3, 0]);
    assert_eq!(game.supply(RED, abbot()), 1);
    assert!(
        game.figures().is_empty(),
        "Blue's knight and Red's abbot are home"
    );
}

/// D7 (RULES.md §2.4, A9; seed 002 "1b. The dragon's menu"): the dragon eats the abbot.
#[test]
fn d7_the_dragon_eats_the_abbot() {
    let Replay { game, events } = run(&load("dragon-eats-abbot"));
    assert!(events.iter().any(|e| matches!(
        e,
        Event::FigureReturned { player: 0, figure, x: 0, y: 1, reason: EATEN, .. }
            if *figure == abbot()
    )));
    assert!(game.figures().is_empty());
    assert_eq!(game.supply(0, abbot()), 1);
    assert_eq!(game.dragon(), Some(Pos::new(0, 1)));
}

/// The shipped abbot presets: one abbot each, the recall on, the garden tiles in the bag.
#[test]
fn the_abbot_presets_hand_out_one_abbot_each() {
    for name in ["hig-abbot", "zman-abbot"] {
        let rules = Ruleset::load(name).unwrap_or_else(|d| panic!("{d}"));
        assert!(rules.switched_on("abbot"), "{name}");
        let row = rules.figures.row(abbot()).expect("the abbot row");
        assert_eq!((row.per_player, row.strength), (1, 1), "{name}");
        assert!(row.stands_on.on(FeatureKind::Garden) && !row.stands_on.on(FeatureKind::Road));
        assert!(
            rules
                .tiles
                .iter()
                .any(|t| t.has_feature(FeatureKind::Garden)),
            "{name} has gardens"
        );
    }
}

/// Pictures: the SVG draws the abbot with its cross (`data-kind="abbot"`); the terminal writes
/// `a` beside its seat number; the garden is drawn (`class="garden"`).
#[test]
fn the_abbot_is_drawn_apart() {
    use castellan::ui::render::{svg, text};
    let Replay { game, .. } = run(&load("portal"));
    let picture = svg::board(&game);
    let abbot = picture
        .lines()
        .find(|l| l.contains(r#"data-kind="abbot""#))
        .expect("the abbot is drawn");
    // The cross is the abbot row's `badge` in the figure table.
    assert!(abbot.contains(r#"class="badge abbot""#), "{abbot}");
    assert!(picture.contains(r#"class="garden""#));
    let board = text::board(&game, false);
    assert!(board.contains("1a") || board.contains("a1"), "{board}");
    assert!(text::legend(&game, false).contains("0 abbots in supply"));
}
