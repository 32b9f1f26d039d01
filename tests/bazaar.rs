//! The bazaars of Bridges, Castles & Bazaars (RULES-MORE.md §4.4, BCB-16..BCB-22, BCB-E3,
//! Q-BCB3, Q-BCB4, `bcb.bazaar.auction`). Each record under `tests/records/bcb/bazaar-*.toml`
//! says its scenario and expected outcome in its header.

use castellan::engine::action::{Action, DecisionKind};
use castellan::engine::event::Event;
use castellan::engine::game::{Game, RuleError, Setup};
use castellan::mechanic::bcb::bazaar::{bidding, on_offer, to_lay};
use castellan::mechanic::bcb::vocabulary::{BcbAction, BcbDecision, BcbEvent};
use castellan::record::Record;

mod common;
use common::{before, run};

const A: usize = 0;
const B: usize = 1;
const C: usize = 2;

fn load(name: &str) -> Record {
    common::record("bcb", &format!("bazaar-{name}"))
}

/// The family's bazaar events, in order.
fn bazaar_events(events: &[Event]) -> Vec<BcbEvent> {
    let bazaar = |e: &BcbEvent| {
        !matches!(
            e,
            BcbEvent::Built { .. }
                | BcbEvent::Scored { .. }
                | BcbEvent::Left { .. }
                | BcbEvent::BridgePlaced { .. }
        )
    };
    events
        .iter()
        .filter_map(BcbEvent::of)
        .filter(bazaar)
        .collect()
}

/// The seats whose turns began, in order.
fn turns(events: &[Event]) -> Vec<usize> {
    (events.iter())
        .filter_map(|e| match e {
            Event::TurnStarted { player, .. } => Some(*player),
            _ => None,
        })
        .collect()
}

/// The tiles drawn or dealt, by seat and tile id, in order.
fn drawn(events: &[Event]) -> Vec<(usize, String)> {
    (events.iter())
        .filter_map(|e| match e {
            Event::TileDrawn { player, tile } | Event::TileDealt { player, tile } => {
                Some((*player, tile.to_string()))
            }
            _ => None,
        })
        .collect()
}

/// The tiles dealt (won at a bazaar, laid instead of a draw), by seat and tile id, in order.
fn dealt(events: &[Event]) -> Vec<(usize, String)> {
    (events.iter())
        .filter_map(|e| match e {
            Event::TileDealt { player, tile } => Some((*player, tile.to_string())),
            _ => None,
        })
        .collect()
}

/// The tile ids of `list`.
fn ids(game: &Game, list: &[(usize, u16)]) -> Vec<(usize, String)> {
    (list.iter())
        .map(|(s, t)| (*s, game.rules().tile(*t).id.to_string()))
        .collect()
}

/// BCB-E3 (BCB-18, BCB-19): each choice and bid is a decision of the seat that makes it, in the
/// dossier's order: B chooses, C and A may raise, B buys or sells; then C chooses, A raises
/// (B, who has a tile, is not asked), C settles.
#[test]
fn e3_every_bid_is_its_seats_decision() {
    let record = load("e3");
    let expect: [(usize, usize, DecisionKind); 9] = [
        (11, B, BcbDecision::BazaarChoose.into()),
        (12, B, BcbDecision::BazaarBid { lot: 1 }.into()),
        (13, C, BcbDecision::BazaarRaise { high: 2 }.into()),
        (14, A, BcbDecision::BazaarRaise { high: 2 }.into()),
        (15, B, BcbDecision::BazaarBuyOrSell.into()),
        (16, C, BcbDecision::BazaarChoose.into()),
        (17, C, BcbDecision::BazaarBid { lot: 2 }.into()),
        (18, A, BcbDecision::BazaarRaise { high: 2 }.into()),
        (19, C, BcbDecision::BazaarBuyOrSell.into()),
    ];
    for (n, seat, kind) in expect {
        let game = before(record.clone(), n);
        let decision = game.decision();
        assert_eq!(
            (decision.player, decision.kind),
            (seat, kind),
            "before action {n}"
        );
        assert_eq!(game.active(), A, "A laid the bazaar: it is still his turn");
    }
    // Before the auction each player has his small city's 4 points.
    assert_eq!(before(record.clone(), 11).scores(), &[4, 4, 4]);
    // B bought #1 from A's bid of 3.
    assert_eq!(bidding(&before(record.clone(), 15)), Some((1, 3, A)));
    assert_eq!(before(record.clone(), 16).scores(), &[7, 1, 4]);
}

/// BCB-E3 (BCB-19, BCB-20, BCB-21): B buys (B −3, A +3), C sells to A (C +3, A −3), C gets the
/// last tile free; B, C and A lay FIELD, CLOISTER and ROAD_END in that order, then B plays on.
#[test]
fn e3_scores_and_tiles() {
    let replay = run(&load("e3"));
    assert_eq!(replay.game.scores(), &[4, 1, 7]);
    assert_eq!(
        bazaar_events(&replay.events)[3..],
        [
            BcbEvent::BazaarBid {
                player: B,
                lot: 1,
                bid: 2
            },
            BcbEvent::BazaarPassed { player: C },
            BcbEvent::BazaarRaised { player: A, bid: 3 },
            BcbEvent::BazaarBought {
                player: B,
                lot: 1,
                to: A,
                points: 3
            },
            BcbEvent::BazaarBid {
                player: C,
                lot: 2,
                bid: 2
            },
            BcbEvent::BazaarRaised { player: A, bid: 3 },
            BcbEvent::BazaarSold {
                player: C,
                lot: 2,
                to: A,
                points: 3
            },
            BcbEvent::BazaarTaken { player: C, lot: 3 },
        ]
    );
    let after_auction = before(load("e3"), 20);
    // B's turn began with his tile dealt; C's and A's wait.
    let decision = after_auction.decision();
    let DecisionKind::PlaceTile { tile } = decision.kind else {
        panic!("B lays his tile, not {decision:?}");
    };
    assert_eq!(
        (decision.player, &*after_auction.rules().tile(tile).id),
        (B, "SY/FIELD")
    );
    assert_eq!(
        ids(&after_auction, &to_lay(&after_auction)),
        vec![
            (C, "SY/CLOISTER".to_string()),
            (A, "SY/ROAD_END".to_string())
        ]
    );
    assert!(on_offer(&after_auction).is_empty());
    assert_eq!(turns(&replay.events), vec![A, B, C, A, B, C, A, B, C]);
    assert_eq!(
        drawn(&replay.events)[4..],
        [
            (B, "SY/FIELD".to_string()),
            (C, "SY/CLOISTER".to_string()),
            (A, "SY/ROAD_END".to_string()),
            (B, "SY/FIELD".to_string()),
            (C, "SY/FIELD".to_string()),
        ]
    );
    // The won tiles are dealt, not drawn: the bag gave them at the auction.
    assert_eq!(
        dealt(&replay.events),
        [
            (B, "SY/FIELD".to_string()),
            (C, "SY/CLOISTER".to_string()),
            (A, "SY/ROAD_END".to_string()),
        ]
    );
}

/// Bad bids and choices are refused with the rule and the reason, and change nothing.
#[test]
fn illegal_bids_are_refused_and_change_nothing() {
    let record = load("e3");
    let refused = |n: usize, action: Action, rule: Option<&str>, words: &str| {
        let mut game = before(record.clone(), n);
        let (scores, decision, legal) = (game.scores().to_vec(), game.decision(), game.legal());
        let history = game.history().len();
        let e = game.apply(&action).expect_err("refused");
        assert_eq!(e.rule().map(|r| r.0), rule, "{e}");
        assert!(e.to_string().contains(words), "{e}");
        assert_eq!(game.scores(), &scores[..]);
        assert_eq!(game.decision(), decision);
        assert_eq!(game.legal(), legal);
        assert_eq!(game.history().len(), history);
    };
    let choose = |lot| Action::from(BcbAction::BazaarChoose { lot });
    refused(11, choose(4), Some("BCB-18"), "tile #4 is not on offer");
    refused(11, choose(0), Some("BCB-18"), "tile #0 is not on offer");
    let raise = |bid| Action::from(BcbAction::BazaarRaise { bid });
    refused(11, raise(3), None, "a revealed tile");
    // B has 4 points: he may bid 0 to 4 (castellan's scores never go below 0).
    let bid = |bid| Action::from(BcbAction::BazaarBid { bid });
    refused(12, bid(5), Some("BCB-18"), "more than your 4 points");
    // A must beat 2, with at most his 4 points.
    refused(14, raise(2), Some("BCB-18"), "more than the highest bid, 2");
    refused(14, raise(5), Some("BCB-18"), "at most your 4 points");
    refused(15, Action::Pass, None, "buy");
    // #1 is B's now.
    refused(16, choose(1), Some("BCB-18"), "the tiles on offer: #2, #3");
    // The listed answers: tiles #1..#3 (named in words), then bids 0..4.
    let game = before(record.clone(), 11);
    assert_eq!(game.legal(), vec![choose(1), choose(2), choose(3)]);
    let names = ["A", "B", "C"].map(String::from);
    assert_eq!(
        castellan::ui::describe::actions(&game, &game.legal(), &names),
        [
            "choose bazaar tile #1 (SY/FIELD)",
            "choose bazaar tile #2 (SY/ROAD_END)",
            "choose bazaar tile #3 (SY/CLOISTER)",
        ]
    );
    assert_eq!(
        before(record.clone(), 12).legal(),
        (0..=4).map(bid).collect::<Vec<_>>()
    );
}

/// BCB-17: a bazaar laid with fewer tiles left than players holds no auction; the next player
/// draws as usual.
#[test]
fn too_few_tiles_skip_the_auction() {
    let replay = run(&load("skip"));
    assert_eq!(
        bazaar_events(&replay.events),
        vec![BcbEvent::BazaarSkipped { player: A, left: 1 }]
    );
    assert_eq!(
        drawn(&replay.events),
        vec![(A, "BB/F.b".to_string()), (B, "SY/FIELD".to_string())]
    );
    assert!(replay.game.is_over());
}

/// BCB-16: a bazaar tile that fits nowhere is discarded and triggers nothing.
#[test]
fn a_discarded_bazaar_triggers_nothing() {
    let replay = run(&load("discarded"));
    assert!(replay.events.iter().any(|e| matches!(
        e,
        Event::TileDiscarded { player: A, tile } if &**tile == "BB/Cccc.b"
    )));
    assert!(bazaar_events(&replay.events).is_empty());
    assert_eq!(turns(&replay.events), vec![A, B, A]);
    assert_eq!(replay.game.tiles_left(), 1);
}

/// BCB-21 and Q-BCB3: the won tiles are laid from the player after the one who laid the
/// bazaar (C, A, B); A's won bazaar starts no auction; normal play resumes with C. With no
/// points nobody can raise: each auctioneer pays his bid of 0 to the bank (BCB-19).
#[test]
fn won_tiles_are_laid_in_turn_order_and_start_no_auction() {
    let replay = run(&load("order"));
    let events = bazaar_events(&replay.events);
    let revealed = (events.iter())
        .filter(|e| matches!(e, BcbEvent::BazaarRevealed { .. }))
        .count();
    assert_eq!(revealed, 3, "one auction only: {events:?}");
    assert_eq!(
        events[3..],
        [
            BcbEvent::BazaarBid {
                player: C,
                lot: 1,
                bid: 0
            },
            BcbEvent::BazaarBanked {
                player: C,
                lot: 1,
                points: 0
            },
            BcbEvent::BazaarBid {
                player: A,
                lot: 2,
                bid: 0
            },
            BcbEvent::BazaarBanked {
                player: A,
                lot: 2,
                points: 0
            },
            BcbEvent::BazaarTaken { player: B, lot: 3 },
        ]
    );
    assert_eq!(turns(&replay.events), vec![A, B, C, A, B, C, A]);
    assert_eq!(
        drawn(&replay.events)[2..5],
        [
            (C, "SY/FIELD".to_string()),
            (A, "BB/F.b".to_string()),
            (B, "SY/FIELD".to_string()),
        ]
    );
    assert_eq!(replay.game.scores(), &[0, 0, 0]);
}

/// BCB-21 with Traders & Builders and Abbey & Mayor (`builder-abbey`): a builder's second tile
/// earned by a won tile is a turn of the player's own, so it starts with his abbey offered
/// (AM-1: instead of drawing), as any turn does; the inserted turn of a won tile offers none
/// (its player has his tile); normal play then resumes with the player after the bazaar's.
#[test]
fn a_builders_second_tile_among_the_won_tiles_offers_the_abbey() {
    let record = load("builder-abbey");
    let abbey_offered = |game: &Game| {
        let tile = match game.decision().kind {
            DecisionKind::PlaceTile { tile } => game.rules().tile(tile).id.to_string(),
            other => panic!("{other:?}"),
        };
        tile == "AM.A" && game.legal().contains(&Action::Pass)
    };
    // A's inserted turn with his won ROAD: no abbey offered.
    let game = before(record.clone(), 14);
    assert_eq!((game.turn(), game.active()), (5, A));
    assert!(!abbey_offered(&game));
    // His builder's second tile: the abbey first.
    let game = before(record.clone(), 16);
    assert_eq!((game.turn(), game.active()), (6, A));
    assert!(abbey_offered(&game), "{:?}", game.legal());
    // B's inserted turn: his won tile, no abbey.
    let game = before(record.clone(), 19);
    assert_eq!((game.turn(), game.active()), (7, B));
    assert!(!abbey_offered(&game));
    let replay = run(&record);
    assert_eq!(turns(&replay.events), vec![A, B, A, B, A, A, B, A]);
    assert_eq!(
        dealt(&replay.events),
        [(A, "SY/ROAD".to_string()), (B, "SY/FIELD".to_string())]
    );
    assert!(drawn(&replay.events).contains(&(A, "SY/FIELD".to_string())));
    assert!(abbey_offered(&replay.game), "turn 8");
}

/// BCB-22, `bcb.bazaar.auction = false`: each player in turn just takes a tile (only the
/// tiles are listed, no bid is asked, nobody pays); the tiles are laid in turn order and B's won bazaar starts nothing.
#[test]
fn without_bidding_each_player_takes_a_tile() {
    let record = load("no-auction");
    let game = before(record.clone(), 4);
    assert_eq!(game.decision().player, C);
    let take = |lot| Action::from(BcbAction::BazaarChoose { lot });
    assert_eq!(game.legal(), vec![take(1), take(2), take(3)]);
    let mut bid = game.clone();
    let e = bid
        .apply(&BcbAction::BazaarBid { bid: 0 }.into())
        .expect_err("no bids without the auction");
    assert!(matches!(e, RuleError::WrongDecision(_)), "{e}");
    let replay = run(&record);
    assert_eq!(
        bazaar_events(&replay.events)[3..],
        [
            BcbEvent::BazaarTaken { player: C, lot: 3 },
            BcbEvent::BazaarTaken { player: A, lot: 1 },
            BcbEvent::BazaarTaken { player: B, lot: 2 },
        ]
    );
    assert_eq!(turns(&replay.events), vec![A, B, C, A, B, C, A]);
    assert_eq!(
        drawn(&replay.events)[2..5],
        [
            (C, "SY/CLOISTER".to_string()),
            (A, "SY/FIELD".to_string()),
            (B, "BB/F.b".to_string()),
        ]
    );
    assert_eq!(replay.game.scores(), &[0, 0, 0]);
    // Under the auction the same choice puts the tile up for auction: C is asked to bid.
    let mut auction = common::under(record, "bcb-synthetic.toml");
    auction.actions.truncate(5);
    let game = run(&auction).game;
    assert_eq!(
        game.decision().kind,
        BcbDecision::BazaarBid { lot: 3 }.into()
    );
    assert_eq!(game.decision().player, C);
}

/// Tiles are conserved through bazaars (BCB-18, BCB-21): in seeded random games of `hig-bcb`
/// (3 and 5 players), at every decision the tiles still to come (bag, revealed, set aside, the
/// one drawn) plus those on the board plus those discarded add up to the game's tiles, and no
/// won tile is left at the end; auctions happen, and raises are asked of seats other than the
/// active one.
#[test]
fn random_games_conserve_tiles_through_bazaars() {
    let rules = castellan::data::ruleset::Ruleset::load("hig-bcb").expect("hig-bcb");
    let (mut auctions, mut asked_others) = (0, 0);
    for (seed, players) in (0..24u64).zip([3usize, 5].into_iter().cycle()) {
        let names = (0..players).map(|i| format!("P{i}")).collect();
        let (mut game, _) = Game::new(rules.clone(), Setup::new(names, seed)).expect("game");
        let mut counts = Vec::new();
        let total = |game: &Game, counts: &mut Vec<u16>, discarded: usize| {
            game.count_to_come(counts);
            let to_come: usize = counts.iter().map(|c| usize::from(*c)).sum();
            to_come + game.board().tiles().len() + discarded
        };
        let mut discarded = 0;
        let start = total(&game, &mut counts, 0);
        let mut rng = seed;
        while !game.is_over() {
            assert_eq!(total(&game, &mut counts, discarded), start, "seed {seed}");
            let decision = game.decision();
            if matches!(
                BcbDecision::of(&decision.kind),
                Some(BcbDecision::BazaarRaise { .. })
            ) {
                asked_others += usize::from(decision.player != game.active());
            }
            let legal = game.legal();
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let pick = legal[(rng >> 33) as usize % legal.len()];
            for e in game.apply(&pick).expect("legal") {
                discarded += usize::from(matches!(e, Event::TileDiscarded { .. }));
                if let Some(BcbEvent::BazaarRevealed { lot: 1, .. }) = BcbEvent::of(&e) {
                    auctions += 1;
                }
            }
        }
        assert!(
            to_lay(&game).is_empty(),
            "seed {seed}: every won tile was laid"
        );
        assert!(on_offer(&game).is_empty(), "seed {seed}");
    }
    assert!(auctions > 10, "{auctions} auctions");
    assert!(asked_others > 5, "{asked_others} raises asked");
}

#[path = "common/api.rs"]
mod api;

/// The web page plays bazaars: bots play whole games of `hig-bcb` through the server's API
/// (the auction's decisions answered by the seats that make them) and the records replay to
/// the same scores; the score panel shows a won tile still to lay.
#[tokio::test]
async fn the_server_plays_bazaars() {
    for seed in 0..10 {
        let app = api::app(&api::data("bazaar", &format!("serve-{seed}")));
        let mut shown = false;
        let (_, replay) = api::bot_game(&app, "hig-bcb", &["random", "greedy"], seed, |g| {
            shown |= g.to_string().contains("bazaar tile to lay");
        })
        .await;
        let auctions = (bazaar_events(&replay.events).iter())
            .filter(|e| matches!(e, BcbEvent::BazaarRevealed { lot: 1, .. }))
            .count();
        if auctions > 0 {
            assert!(shown, "seed {seed}: a won tile was never shown");
            return;
        }
    }
    panic!("no game of seeds 0..10 held an auction");
}
