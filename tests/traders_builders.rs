//! Traders & Builders: the builder, the pig and the goods (`[mechanics] traders_builders`), and
//! their interactions with The Princess & the Dragon and the Count. Each record under
//! `tests/records/tb/` names its rule in its header; each test below names it again and asserts
//! scores and figure positions.
//!
//! Sources: RULES.md §1.9 (the T&B pig line), §1.10 ("T&B builder", "T&B pig"), B-M1, B-M3, B-E2
//! (goods), §2.4 D7/D8, §2.5 MP5, §2.6 PR5/PR7, §2.2 V3/A8, §2.7 FA7/A13, §5.3 CT-7; seeds 002
//! ("Rules for using this expansion with other expansions", "1b. The dragon's menu") and 004
//! (footnotes 6 and 8, "Other expansions"); [ext:X2] Wikicarpedia "Traders and Builders".

use castellan::data::printed::Good;
use castellan::data::ruleset::Ruleset;
use castellan::engine::action::Action;
use castellan::engine::event::{Event, ReturnReason};
use castellan::mechanic::pd::vocabulary::{EATEN, LAST_FOLLOWER, PRINCESS};
use castellan::mechanic::tb::{self, vocabulary::TbEvent};
use castellan::model::figure::FigureKind;
use castellan::model::geometry::{Pos, Spot};
use castellan::record::{Record, Replay};
use castellan::ui::render::text;

mod common;
use common::kind;

/// The record `tests/records/tb/NAME.toml`, under its own ruleset or the fixture `rules`.
fn record(name: &str, rules: Option<&str>) -> Record {
    let record = common::record("tb", name);
    match rules {
        Some(file) => common::under(record, file),
        None => record,
    }
}

fn replay(name: &str, rules: Option<&str>) -> Replay {
    common::run(&record(name, rules))
}

/// Where `player`'s figures of `name` stand.
fn standing(r: &Replay, player: usize, name: &str) -> Vec<(Pos, Spot)> {
    r.game
        .figures()
        .iter()
        .filter(|f| f.owner == player && f.kind == kind(name))
        .map(|f| r.game.figure_spot(f))
        .collect()
}

/// The seat of every turn, in order.
fn turns(events: &[Event]) -> Vec<usize> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::TurnStarted { player, .. } => Some(*player),
            _ => None,
        })
        .collect()
}

/// The returns of figures of `name`: (player, reason).
fn returns(events: &[Event], name: &str) -> Vec<(usize, ReturnReason)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::FigureReturned {
                player,
                figure,
                reason,
                ..
            } if *figure == kind(name) => Some((*player, *reason)),
            _ => None,
        })
        .collect()
}

/// Every `Scored` event as (player, points, rule).
fn scored(events: &[Event]) -> Vec<(usize, u32, &'static str)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Scored {
                player,
                points,
                rule,
                ..
            } => Some((*player, *points, *rule)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_builder_gives_a_double_turn_without_chaining() {
    // RULES.md §1.10 "T&B builder": a later tile of the player that extends the builder's road
    // gives a second tile right after; the second tile gives none (no chaining); a tile of
    // another player gives nothing. [ext:X3]
    let r = replay("builder-double-turn", None);
    assert!(r.game.is_over());
    assert_eq!(turns(&r.events), vec![0, 1, 0, 1, 0, 0, 1, 0, 0]);
    let doubles: Vec<TbEvent> = r.events.iter().filter_map(TbEvent::of).collect();
    assert_eq!(
        doubles,
        vec![
            TbEvent::DoubleTurn {
                player: 0,
                x: 3,
                y: 0
            },
            TbEvent::DoubleTurn {
                player: 0,
                x: 5,
                y: 0
            },
        ]
    );
    // B-M3: the completed 9-tile road pays the thief; the builder (strength 0) goes home with it.
    assert_eq!(r.game.scores(), &[9, 0]);
    assert_eq!(
        returns(&r.events, "builder"),
        vec![(0, ReturnReason::Scored)]
    );
    assert_eq!(r.game.supply(0, kind("builder")), 1);
    assert!(r.game.figures().is_empty());
}

#[test]
fn without_the_rule_a_builder_gives_no_double_turn() {
    // The switch: the same actions with the figures but not their rules; the seats simply
    // alternate (the record's "second tiles" are Blue's and Red's ordinary turns).
    let r = replay("builder-double-turn", Some("tb-figures-only.toml"));
    assert_eq!(turns(&r.events), vec![0, 1, 0, 1, 0, 1, 0, 1, 0]);
    assert!(r.events.iter().all(|e| TbEvent::of(e).is_none()));
}

#[test]
fn a_builder_needs_its_owners_follower_in_the_feature() {
    // RULES.md §1.10: the builder goes only into a road or city that holds one of the player's
    // followers. Refused with a clear reason, and the game is unchanged.
    let mut rec = record("builder-double-turn", None);
    rec.actions.truncate(1); // Red has laid U at (1,0) and not deployed yet.
    let r = rec
        .replay()
        .unwrap_or_else(|e| panic!("{}", e.diagnostic()));
    let mut game = r.game.clone();
    let legal = game.legal();
    let builder = Action::Deploy {
        pos: Pos::new(1, 0),
        spot: Spot::parse("E").expect("spot"),
        figure: kind("builder"),
    };
    assert!(!legal.contains(&builder));
    let err = game
        .apply(&builder)
        .expect_err("no follower of Red's in the road");
    assert_eq!(err.rule().map(|r| r.0), Some("figures.joins_own"));
    assert!(err.to_string().contains("one of your followers"), "{err}");
    assert_eq!(game.legal(), legal);
    assert_eq!(game.figures(), r.game.figures());
    assert_eq!(game.history(), r.game.history());
    assert_eq!(game.supply(0, kind("builder")), 1);
}

#[test]
fn a_pig_makes_each_city_worth_four_under_farm_centric_3() {
    // RULES.md §1.9 T&B pig line: 4 instead of 3 per completed city under farm_centric_3.
    let r = replay("pig", None);
    assert_eq!(standing(&r, 0, "pig"), vec![(Pos::new(-1, 0), spot("NL"))]);
    assert_eq!(r.game.scores(), &[4, 0]);
    assert_eq!(scored(&r.events), vec![(0, 4, "§1.9 farm_centric_3")]);
}

fn spot(name: &str) -> Spot {
    Spot::parse(name).expect("spot")
}

#[test]
fn a_pig_counts_under_farm_centric_3_once_too() {
    // RULES.md §1.9 farm_centric_3_once: the pig's 4 per city the owner may still collect.
    let r = replay("pig", Some("tb-farm-once.toml"));
    assert_eq!(scored(&r.events), vec![(0, 4, "§1.9 farm_centric_3_once")]);
}

#[test]
fn a_pig_changes_nothing_under_city_centric_4() {
    // RULES.md §1.9 city_centric_4: 4 per city to the majority; the T&B pig rule is stated for
    // the 3-point rules only, so the pig adds nothing (not 5).
    let r = replay("pig", Some("tb-farm-city4.toml"));
    assert_eq!(scored(&r.events), vec![(0, 4, "§1.9 city_centric_4")]);
}

#[test]
fn without_the_rule_a_pig_adds_nothing() {
    let r = replay("pig", Some("tb-figures-only.toml"));
    assert_eq!(scored(&r.events), vec![(0, 3, "§1.9 farm_centric_3")]);
}

#[test]
fn goods_go_to_the_completer_and_each_majority_scores_ten() {
    // [ext:X2], RULES.md B-E2: Blue completes Red's wine city without a follower there and
    // takes the wine; Red takes the second wine; 1 : 1 is a tie, both score 10.
    let r = replay("goods", None);
    let taken: Vec<TbEvent> = r
        .events
        .iter()
        .filter_map(TbEvent::of)
        .filter(|e| matches!(e, TbEvent::GoodsTaken { .. }))
        .collect();
    let wine = |player| TbEvent::GoodsTaken {
        player,
        good: Good::Wine,
        count: 1,
    };
    assert_eq!(taken, vec![wine(1), wine(0)]);
    assert_eq!(tb::goods(&r.game), vec![[1, 0, 0], [1, 0, 0]]);
    let majority = |player| TbEvent::GoodsMajority {
        player,
        good: Good::Wine,
        held: 1,
        points: 10,
    };
    let paid: Vec<TbEvent> = r
        .events
        .iter()
        .filter_map(TbEvent::of)
        .filter(|e| matches!(e, TbEvent::GoodsMajority { .. }))
        .collect();
    assert_eq!(paid, vec![majority(0), majority(1)]);
    // The majority is T&B's own event, no base-game `Scored` for a city.
    assert_eq!(scored(&r.events), vec![(0, 6, "§1.6 completed city")]);
    assert_eq!(r.game.scores(), &[16, 10]);
    let names = ["Red".to_string(), "Blue".to_string()];
    let words: Vec<String> = r
        .events
        .iter()
        .filter(|e| matches!(TbEvent::of(e), Some(TbEvent::GoodsMajority { .. })))
        .map(|e| castellan::engine::words::event(e, &names).to_string())
        .collect();
    assert_eq!(
        words[0],
        "Red scores 10 for the most wine tokens (1; T&B goods majority, B-E2)"
    );
    let json = castellan::ui::report::game_json(&r.game, &r.events);
    let logged = json["events"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|e| e["event"] == "goods_majority")
        .cloned();
    assert_eq!(
        logged,
        Some(
            serde_json::json!({"event": "goods_majority", "player": "Red", "good": "wine", "held": 1, "points": 10})
        )
    );
    // Without the rule: no goods, Red's 6 for the city only.
    let off = replay("goods", Some("tb-figures-only.toml"));
    assert_eq!(off.game.scores(), &[6, 0]);
    assert!(off.events.iter().all(|e| TbEvent::of(e).is_none()));
}

#[test]
fn the_terminal_legend_shows_builders_pigs_and_goods_held() {
    // What a player sees in `castellan play` and `castellan render`: the builder and pig in
    // supply beside the followers, the goods each player holds, and a key line for the builder
    // and pig marks.
    let r = replay("goods", None);
    let legend = text::legend(&r.game, false);
    assert!(
        legend.contains("1 builder, 1 pig in supply; goods: 1 wine"),
        "{legend}"
    );
    // The key comes from the figure table (the rows' letters and nouns).
    let key = "B builder  p pig  (in the owner's colour, beside the follower)";
    assert!(legend.contains(key), "{legend}");
    assert!(text::key_lines(&r.game).iter().any(|l| l.contains(key)));
    assert_eq!(
        text::tokens_words(&r.game, 1).as_deref(),
        Some("goods: 1 wine")
    );
    let off = replay("goods", Some("tb-figures-only.toml"));
    assert_eq!(text::tokens_words(&off.game, 0), None);
}

#[test]
fn builder_and_pig_are_strength_zero_non_followers() {
    // RULES.md B-M1 (builders, pigs weigh 0), MP5 (never through the portal), FA3 (the fairy
    // never takes them), PR2 (the princess cannot remove them).
    let rules = Ruleset::load("hig-tb").expect("hig-tb");
    for name in ["builder", "pig"] {
        let row = rules.figures.row(kind(name)).expect("row");
        assert_eq!((row.per_player, row.strength), (1, 0));
        assert!(!row.can("portal") && !row.can("fairy") && !row.can("princess") && row.joins_own);
        assert!(row.has_tag("flesh_and_blood") && row.has_tag(name));
        assert!(!row.has_tag("follower"));
    }
}

#[test]
fn pr7_the_princess_sends_the_builder_home_with_the_last_knight() {
    // RULES.md PR7 [002 §Rules for using… PRINCESS][004]; PR2: only the knight is offered.
    // The knight goes by the princess (PR3), the builder with it by PR7 (issue 30), and the
    // words say so.
    let r = replay("pr7-princess", None);
    assert_eq!(returns(&r.events, "follower"), vec![(0, PRINCESS)]);
    assert_eq!(returns(&r.events, "builder"), vec![(0, LAST_FOLLOWER)]);
    let words: Vec<String> = (r.events.iter())
        .filter(|e| matches!(e, Event::FigureReturned { .. }))
        .map(|e| castellan::engine::words::event(e, &[]).to_string())
        .collect();
    assert!(words[0].ends_with("home (PR3)"), "{words:?}");
    assert!(
        words[1].ends_with("with the last follower there (PR7)"),
        "{words:?}"
    );
    assert!(r.game.figures().is_empty());
    assert_eq!(r.game.supply(0, kind("builder")), 1);
    assert_eq!(r.game.scores(), &[0, 0]);
}

#[test]
fn d8_the_dragon_eating_the_last_knight_sends_the_builder_home() {
    // RULES.md D8 and scenario T-D6 (knight), `pd.dragon.return_builder_pig = true` (002, 004).
    let r = replay("d8-dragon", None);
    assert_eq!(returns(&r.events, "follower"), vec![(0, EATEN)]);
    assert_eq!(returns(&r.events, "builder"), vec![(0, EATEN)]);
    assert!(standing(&r, 0, "builder").is_empty());
}

#[test]
fn d8_without_return_builder_pig_the_builder_stays() {
    // RULES.md §3.1 #13 `pd.dragon.return_builder_pig = false`.
    let r = replay("d8-dragon", Some("tb-pd-no-return.toml"));
    assert_eq!(returns(&r.events, "follower"), vec![(0, EATEN)]);
    assert!(returns(&r.events, "builder").is_empty());
    assert_eq!(
        standing(&r, 0, "builder"),
        vec![(Pos::new(1, -1), spot("E"))]
    );
}

#[test]
fn d7_flesh_and_blood_and_big_box_menus_eat_the_builder() {
    // RULES.md D7: "flesh_and_blood" (002 §1b, 004 2015 FAQ) and "followers_builder_pig" (RGG
    // Big Box, [ext:P2]) eat builders; the knight elsewhere stays.
    for rules in [None, Some("tb-pd-menu-bigbox.toml")] {
        let r = replay("d7-menu", rules);
        assert_eq!(returns(&r.events, "builder"), vec![(0, EATEN)]);
        assert_eq!(
            standing(&r, 0, "follower"),
            vec![(Pos::new(0, -1), spot("E"))]
        );
    }
}

#[test]
fn d7_the_followers_menu_leaves_the_builder() {
    // RULES.md D7 "followers" (000/001): the builder is not on the menu.
    let r = replay("d7-menu", Some("tb-pd-menu-followers.toml"));
    assert!(returns(&r.events, "builder").is_empty());
    assert_eq!(
        standing(&r, 0, "builder"),
        vec![(Pos::new(1, -1), spot("E"))]
    );
}

#[test]
fn v3_no_builder_on_a_volcano_under_hig() {
    // RULES.md V3, A8: `pd.volcano.allow_builder_pig = false` (004 fn 8).
    match record("v3-volcano", None).replay() {
        Err(castellan::record::RecordError::Illegal { index, error, .. }) => {
            assert_eq!(index, 6);
            assert_eq!(error.rule().map(|r| r.0), Some("V3"));
            // The words name the figure refused, not a follower (issue 30).
            let words = error.to_string();
            assert!(
                words.contains("no builder or pig may stand on the volcano"),
                "{words}"
            );
            assert!(!words.contains("follower"), "{words}");
        }
        other => panic!("the builder must be refused: {:?}", other.is_ok()),
    }
}

#[test]
fn v3_a_builder_may_go_on_a_volcano_when_allowed() {
    // RULES.md V3, A8: `pd.volcano.allow_builder_pig = true` (000/001, before Big Box 2/3); it
    // shares the dragon's tile.
    // The volcano's cap closes the 3-tile city, so the builder goes home with it (B-M3).
    let r = replay("v3-volcano", Some("tb-pd-volcano-builders.toml"));
    let deployed = r.events.iter().any(|e| {
        matches!(e, Event::FigureDeployed { player: 0, figure, x: 1, y: -1, .. }
            if *figure == kind("builder"))
    });
    assert!(deployed);
    assert_eq!(r.game.dragon(), Some(Pos::new(1, -1)));
    assert_eq!(
        returns(&r.events, "builder"),
        vec![(0, ReturnReason::Scored)]
    );
    assert_eq!(r.game.scores(), &[6, 0]);
}

#[test]
fn mp5_the_portal_never_carries_a_builder() {
    // RULES.md MP5 [002 §Rules for using… MAGIC PORTAL]: followers may use the portal, the
    // builder may not.
    let r = replay("mp5-portal", None);
    let mut game = r.game.clone();
    let legal = game.legal();
    let through = |figure| Action::Deploy {
        pos: Pos::new(0, 0),
        spot: spot("E"),
        figure,
    };
    assert!(legal.contains(&through(FigureKind::Follower)));
    assert!(!legal.iter().any(|a| matches!(a,
        Action::Deploy { pos, figure, .. } if *figure == kind("builder") && *pos != Pos::new(-1, 0))));
    let into_city = Action::Deploy {
        pos: Pos::new(0, -1),
        spot: spot("S"),
        figure: kind("builder"),
    };
    let err = game
        .apply(&into_city)
        .expect_err("no builder through the portal");
    assert_eq!(err.rule().map(|r| r.0), Some("pd.portal.figures"));
    assert_eq!(game.legal(), legal);
    assert_eq!(game.figures(), r.game.figures());
}

/// The fairy's turn points of a replay.
fn fairy_points(r: &Replay) -> usize {
    r.events
        .iter()
        .filter(|e| {
            matches!(
                castellan::mechanic::pd::vocabulary::PdEvent::of(e),
                Some(castellan::mechanic::pd::vocabulary::PdEvent::FairyPoint { .. })
            )
        })
        .count()
}

#[test]
fn fa7_the_fairy_point_once_per_double_turn() {
    // RULES.md FA7, A13 and scenario T-F5, `pd.fairy.turn_bonus_once_per_turn = true` (002,
    // 004 fn 6).
    let r = replay("fa7-fairy-double-turn", None);
    assert_eq!(turns(&r.events), vec![0, 1, 0, 1, 0, 1, 0, 0]);
    assert_eq!(fairy_points(&r), 1);
    assert_eq!(r.game.scores(), &[12, 0]);
}

#[test]
fn fa7_the_fairy_point_in_both_halves_when_allowed() {
    // `pd.fairy.turn_bonus_once_per_turn = false`: the second half pays it again.
    let r = replay("fa7-fairy-double-turn", Some("tb-pd-fairy-twice.toml"));
    assert_eq!(fairy_points(&r), 2);
    assert_eq!(r.game.scores(), &[13, 0]);
}

/// Whether the legal list of `game`'s pending decision holds a fairy move.
fn fairy_may_move(game: &castellan::engine::game::Game) -> bool {
    game.legal().iter().any(|a| {
        matches!(
            castellan::mechanic::pd::vocabulary::PdAction::of(a),
            Some(castellan::mechanic::pd::vocabulary::PdAction::Fairy { .. })
        )
    })
}

/// Where the fairy stands: her tile and, in follower mode, the spot of her follower.
fn fairy_at(game: &castellan::engine::game::Game) -> Option<(Pos, Option<Spot>)> {
    let fairy = game.fairy()?;
    let spot = fairy.follower.and_then(|id| {
        let f = game.figures().iter().find(|f| f.id == id)?;
        Some(game.figure_spot(f).1)
    });
    Some((fairy.pos, spot))
}

// The double turn of a13-fairy-each-half: the deploy decisions of its two halves are actions
// 13 and 15; the normal turn 5's is action 9.
const FIRST_HALF: usize = 13;
const SECOND_HALF: usize = 15;
const NORMAL_TURN: usize = 9;

#[test]
fn a13_the_fairy_moves_in_each_half_of_a_double_turn() {
    // RULES.md §7 A13, §3.1 #40b `pd.fairy.moves_per_half_turn = 1` (hig-tb's default): each half
    // has its own deploy decision, and the fairy's move is that half's action.
    let first = common::before(record("a13-fairy-each-half", None), FIRST_HALF);
    assert!(first.is_half_turn() && !first.is_extra_turn());
    assert!(fairy_may_move(&first));
    let moved = common::before(record("a13-fairy-each-half", None), FIRST_HALF + 1);
    assert_eq!(fairy_at(&moved), Some((Pos::new(1, 0), Some(spot("E")))));
    let second = common::before(record("a13-fairy-each-half", None), SECOND_HALF);
    assert!(second.is_half_turn() && second.is_extra_turn());
    assert!(fairy_may_move(&second));
    let r = replay("a13-fairy-each-half", None);
    assert_eq!(turns(&r.events), vec![0, 1, 0, 1, 0, 1, 0, 0]);
    assert_eq!(fairy_at(&r.game), Some((Pos::new(0, 1), Some(spot("E")))));
    // The long road 8; the fairy's road 1 + her bonus 3.
    assert_eq!(
        scored(&r.events),
        vec![
            (0, 8, "§1.8 incomplete road"),
            (0, 1, "§1.8 incomplete road"),
            (0, 3, "FA8 fairy bonus")
        ]
    );
    // FA7 [002 "FAIRY – Exp. 2"; 004]: the fairy, moved next to player 0's follower in the
    // first half, pays her turn point at the second half's start: the first half's start did
    // not pay it, so this is no second point for one turn (issue 30).
    assert_eq!(fairy_points(&r), 1);
    assert_eq!(r.game.scores(), &[13, 0]);
}

#[test]
fn a13_moves_per_half_turn_0_keeps_the_fairy_still_in_a_double_turn() {
    // `pd.fairy.moves_per_half_turn = 0`: no fairy move in either half of a double turn; a
    // normal turn is no half, so there she still moves.
    let still = |n| {
        common::before(
            record("a13-fairy-each-half", Some("tb-pd-fairy-still.toml")),
            n,
        )
    };
    assert!(fairy_may_move(&still(NORMAL_TURN)));
    let mut first = still(FIRST_HALF);
    assert!(first.is_half_turn());
    assert!(!fairy_may_move(&first));
    // The record's first-half move is refused and changes nothing.
    let move_fairy = record("a13-fairy-each-half", None).actions[FIRST_HALF].0;
    let (history, scores) = (first.history().to_vec(), first.scores().to_vec());
    assert!(first.apply(&move_fairy).is_err());
    assert_eq!(
        (first.history(), first.scores()),
        (&history[..], &scores[..])
    );
    assert_eq!(first.fairy(), None);
    // Passing instead, the second half has no fairy move either; the fairy never comes in.
    let mut passing = record("a13-fairy-each-half", Some("tb-pd-fairy-still.toml"));
    for n in [FIRST_HALF, SECOND_HALF] {
        passing.actions[n].0 = Action::Pass;
    }
    let mut second = common::before(passing, SECOND_HALF);
    assert!(second.is_extra_turn() && !fairy_may_move(&second));
    second.apply(&Action::Pass).expect("pass");
    assert_eq!(second.fairy(), None);
    assert_eq!(second.scores(), &[9, 0]);
}

#[test]
fn a13_more_than_one_fairy_move_per_half_is_refused_with_its_place() {
    let text = "extends = \"hig-tb\"\nname = \"x\"\n[pd.fairy]\nmoves_per_half_turn = 2\n";
    let dir = std::env::temp_dir().join(format!("castellan-a13-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let file = dir.join("two.toml");
    std::fs::write(&file, text).expect("written");
    let e = Ruleset::load(file.to_str().expect("utf-8")).expect_err("2 is refused");
    let _ = std::fs::remove_dir_all(&dir);
    let shown = e.to_string();
    assert!(shown.contains("two.toml:4:"), "{shown}");
    assert!(shown.contains("moves_per_half_turn is 1"), "{shown}");
}

#[test]
fn ct7_each_tile_of_a_double_turn_earns_a_follower_in_the_city() {
    // RULES.md CT-7 and CO-1 (T&B line): both tiles of Blue's double turn score only for Red,
    // so Blue puts two followers into the City of Carcassonne.
    let r = replay("ct7-count-double-turn", None);
    assert_eq!(turns(&r.events), vec![0, 1, 0, 1, 0, 1, 1]);
    let city = castellan::mechanic::count::state(&r.game).expect("the Count is in play");
    assert_eq!((city.followers(0), city.followers(1)), (0, 2));
    assert_eq!(r.game.scores(), &[6, 3]);
}

#[test]
fn pr5_all_figures_and_fairy_bars_the_builder() {
    // RULES.md PR5 `removal_blocks = "all_figures_and_fairy"` (002, 004): no builder either.
    match record("pr5-builder-after-removal", None).replay() {
        Err(castellan::record::RecordError::Illegal { index, error, .. }) => {
            assert_eq!(index, 11);
            assert_eq!(error.rule().map(|r| r.0), Some("PR5"));
        }
        other => panic!("the builder must be refused: {:?}", other.is_ok()),
    }
}

#[test]
fn pr5_follower_on_tile_lets_the_builder_on_her_tile() {
    // RULES.md PR5 `removal_blocks = "follower_on_tile"` (000/001): a builder is no follower.
    let r = replay(
        "pr5-builder-after-removal",
        Some("tb-pd-princess-tile-only.toml"),
    );
    assert_eq!(returns(&r.events, "follower"), vec![(1, PRINCESS)]);
    assert_eq!(
        standing(&r, 0, "builder"),
        vec![(Pos::new(1, -1), spot("N"))]
    );
}

#[test]
fn d8_the_dragon_eating_the_last_farmer_sends_the_pig_home() {
    // RULES.md D8 and scenario T-D6 (farmer) (002, 004), §1.10 "T&B pig".
    let r = replay("d8-pig", None);
    assert_eq!(returns(&r.events, "follower"), vec![(0, EATEN)]);
    assert_eq!(returns(&r.events, "pig"), vec![(0, EATEN)]);
    assert!(r.game.figures().is_empty());
    assert_eq!(r.game.supply(0, kind("pig")), 1);
}

// The builder-then-fairy record: Red's thief deployment is action 1, his builder action 5, his
// fairy move action 6.
const THIEF: usize = 1;
const BUILDER: usize = 5;
const FAIRY_AFTER_BUILDER: usize = 6;

#[test]
fn a7_no_follower_placed_lets_the_fairy_move_after_a_builder() {
    // RULES.md §7 A7, FA2, §3.1 #28 `move_condition = "no_follower_placed"` (seeds 000 §The
    // Fairy, 001 §El Hada: "whenever a player places no follower"): a builder is no follower,
    // so after deploying it Red is asked whether to move the fairy too, and may pass.
    use castellan::mechanic::pd::vocabulary::PdDecision;
    let after_builder = common::before(record("a7-builder-then-fairy", None), FAIRY_AFTER_BUILDER);
    let decision = after_builder.decision();
    assert_eq!(decision.player, 0);
    assert_eq!(PdDecision::of(&decision.kind), Some(PdDecision::FairyMove));
    let mut legal = after_builder.legal();
    assert_eq!(legal.pop(), Some(Action::Pass));
    assert!(!legal.is_empty() && fairy_may_move(&after_builder));
    // Only the fairy or a pass answers it: a second deployment is refused, nothing changes.
    let mut refusing = common::before(record("a7-builder-then-fairy", None), FAIRY_AFTER_BUILDER);
    let again = Action::Deploy {
        pos: Pos::new(2, 0),
        spot: spot("NL"),
        figure: FigureKind::Follower,
    };
    assert!(refusing.apply(&again).is_err());
    assert_eq!(refusing.history(), after_builder.history());
    assert_eq!(refusing.figures(), after_builder.figures());
    assert_eq!(refusing.legal(), after_builder.legal());
    let mut passing = after_builder;
    passing.apply(&Action::Pass).expect("the fairy may stay");
    assert_eq!(passing.fairy(), None);
    assert_eq!(passing.active(), 1, "Blue's turn");

    let r = replay("a7-builder-then-fairy", None);
    assert_eq!(fairy_at(&r.game), Some((Pos::new(1, 0), Some(spot("E")))));
    assert_eq!(
        scored(&r.events),
        vec![(0, 5, "§1.8 incomplete road"), (0, 3, "FA8 fairy bonus")]
    );
    assert_eq!(fairy_points(&r), 1);
    assert_eq!(r.game.scores(), &[9, 0]);
}

#[test]
fn a7_no_follower_placed_a_follower_still_blocks_the_fairy() {
    // The same condition: after Red's thief (a follower) the turn goes on to Blue at once.
    let after_thief = common::before(record("a7-builder-then-fairy", None), THIEF + 1);
    assert_eq!(after_thief.active(), 1);
    assert_eq!(after_thief.decision().kind.name(), "place");
}

#[test]
fn a7_no_figure_action_the_builder_is_the_whole_deploy_action() {
    // RULES.md §7 A7 default `"no_figure_action"` (hig-tb; 002 "do not place (or move) a
    // meeple", 004 §Other expansions): after the builder the turn has moved on to Blue, and the
    // record's fairy move is refused without changing the game.
    let mut game = common::before(record("a7-builder-then-fairy", Some("hig-tb")), BUILDER + 1);
    assert_eq!(game.active(), 1);
    let fairy = record("a7-builder-then-fairy", None).actions[FAIRY_AFTER_BUILDER].0;
    let (history, scores) = (game.history().to_vec(), game.scores().to_vec());
    assert!(game.apply(&fairy).is_err());
    assert_eq!((game.history(), game.scores()), (&history[..], &scores[..]));
    assert_eq!(game.fairy(), None);
}
