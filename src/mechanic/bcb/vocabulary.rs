//! The vocabulary of Bridges, Castles & Bazaars: the bridge's actions (a tile laid with a bridge,
//! `bridge = [x, y, rotation, bx, by, "N"]` in records, or a bridge laid later in the turn,
//! `late_bridge = [x, y, "N"]`), its decision and event (`bridge_placed`), the
//! castle's actions (build one from a completed small city, choose the feature it scores), the
//! bazaar's actions (choose a revealed tile and bid, raise, buy or sell, take a tile), their
//! decisions and events, as typed values declared with the engine's generators
//! (`engine::vocabulary`); this file writes their words.

use crate::engine::event::{MechanicReason, Reason, ReturnReason};
use crate::engine::vocabulary::{
    ActionWords, EventWords, Family, MechanicId, Vocabulary, enlist, seat,
};
use crate::model::figure::FigureKind;
use crate::model::geometry::{Edge, Pos, Rotation, Spot};
use std::fmt;
use std::sync::Arc;

/// The family id of Bridges, Castles & Bazaars (the Count has 1, P&D 2, Traders & Builders 3,
/// the Abbot 4, The Tower 5, Abbey & Mayor 6).
pub const ID: MechanicId = MechanicId(7);

/// The vocabulary of Bridges, Castles & Bazaars.
static WORDS: Family<BcbAction, BcbDecision, BcbEvent> = Family::new(ID).with_reasons(&MOVED);

/// Its reasons for taking a figure off a feature or out of a castle, by code.
const MOVED: [Reason; 2] = [
    Reason {
        name: "into_castle",
        words: "{} moves into the castle",
        told: "{} moves into the castle built from its city",
        rule: "BCB-7",
    },
    Reason {
        name: "end_in_castle",
        words: "{} leaves its castle with no points",
        told: "{} leaves its castle at the end of the game with no points",
        rule: "BCB-13",
    },
];

/// A follower that leaves its completed small city to stand in the castle built from it
/// (BCB-7): it leaves the feature, to stand between the two tiles.
pub fn into_castle() -> ReturnReason {
    enlist(&WORDS);
    ReturnReason::Mechanic(MechanicReason {
        mechanic: ID,
        code: 0,
    })
}

/// A follower still in a castle when the game ends goes home with no points (BCB-13).
pub fn castle_left() -> ReturnReason {
    enlist(&WORDS);
    ReturnReason::Mechanic(MechanicReason {
        mechanic: ID,
        code: 1,
    })
}

/// The vocabulary of Bridges, Castles & Bazaars, for the registry's list.
pub fn words() -> &'static dyn Vocabulary {
    &WORDS
}

crate::mechanic_actions! {
    /// An action of Bridges, Castles & Bazaars.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum BcbAction for WORDS {
        /// Turn the completed small city whose part on the tile at `pos` is at `spot` into a
        /// castle instead of scoring it (BCB-7); `castle = [x, y, "N"]` in records.
        Castle {
            /// The tile just laid.
            pos: Pos,
            /// The city's part on it.
            spot: Spot,
        } = "castle",
        /// The castle whose named tile is `castle` scores the feature with a part at `spot` of
        /// the tile at `from` (BCB-10, BCB-11), or, with no spot, the castle named by `from`
        /// that scored this turn (BCB-12); `castle_scores = [x, y, fx, fy, "N"]` in records.
        Scores {
            /// The scoring castle's named tile (its west or south tile).
            castle: Pos,
            /// A tile of the feature, or the other castle's named tile.
            from: Pos,
            /// The feature's part on `from`; none for a castle.
            spot: Option<Spot>,
        } = "castle_scores",
        /// Lay the drawn tile at `pos` turned `rotation` and, with it, a bridge across the tile
        /// at `at` (the tile just laid or one beside it) from its edge `edge` to the opposite
        /// one (BCB-1, BCB-2, BCB-4, BCB-6 `with_tile`). `edge` is `N` for a bridge running
        /// north–south, `E` for one running east–west.
        Bridge {
            /// Where the tile goes.
            pos: Pos,
            /// How it is turned.
            rotation: Rotation,
            /// The tile the bridge crosses.
            at: Pos,
            /// The bridge's first edge: `N` (north–south) or `E` (east–west).
            edge: Spot,
        } = "bridge",
        /// Choose the revealed tile number `lot` (from 1, in the order revealed): as auctioneer,
        /// the tile put up for auction (BCB-18); without bidding, the tile taken (BCB-22,
        /// `bcb.bazaar.auction = false`); `bazaar_choose = lot` in records.
        BazaarChoose {
            /// The revealed tile, from 1.
            lot: u8,
        } = "bazaar_choose",
        /// As auctioneer, bid `bid` points for the tile chosen (BCB-18); `bazaar_bid = bid` in
        /// records.
        BazaarBid {
            /// The opening bid.
            bid: u8,
        } = "bazaar_bid",
        /// Raise the bid on the tile up for auction to `bid` points (BCB-18);
        /// `bazaar_raise = bid` in records (`pass = true` declines).
        BazaarRaise {
            /// The new highest bid.
            bid: u8,
        } = "bazaar_raise",
        /// As auctioneer, buy the tile: pay the highest bid to the highest bidder (BCB-19);
        /// `bazaar_buy = true` in records.
        BazaarBuy = "bazaar_buy",
        /// As auctioneer, sell the tile to the highest bidder for his bid (BCB-19);
        /// `bazaar_sell = true` in records.
        BazaarSell = "bazaar_sell",
        /// Lay a bridge after the tile placement, later in the turn, across the tile at `at`
        /// (the tile just laid or one beside it) from its edge `edge` to the opposite one
        /// (BCB-1, BCB-2, BCB-6 `any_time_in_turn`); `late_bridge = [x, y, "N"]` in records.
        LateBridge {
            /// The tile the bridge crosses.
            at: Pos,
            /// The bridge's first edge: `N` (north–south) or `E` (east–west).
            edge: Spot,
        } = "late_bridge",
    }
}

crate::mechanic_decisions! {
    /// A decision of Bridges, Castles & Bazaars.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum BcbDecision for WORDS {
        /// The tile completed a small city of two caps holding the player's follower: build a
        /// castle from it, or pass and score it (BCB-7).
        Castle = "castle",
        /// Several features completed in a castle's vicinity: which one it scores (BCB-11).
        Scores = "castle_scores",
        /// The auctioneer chooses a revealed tile to put up for auction (BCB-18), or, without
        /// bidding, each player in turn chooses a tile (BCB-22).
        BazaarChoose = "bazaar_choose",
        /// The auctioneer bids for the tile `lot` he chose (BCB-18).
        BazaarBid {
            /// The tile, from 1.
            lot: u8,
        } = "bazaar_bid",
        /// Raise the bid on the tile up for auction, or pass (BCB-18); `high` is the bid to beat.
        BazaarRaise {
            /// The highest bid so far.
            high: u32,
        } = "bazaar_raise",
        /// The auctioneer buys the tile or sells it to the highest bidder (BCB-19).
        BazaarBuyOrSell = "bazaar_buy_or_sell",
        /// Lay a bridge now, after the deploy action, or pass (BCB-6 `any_time_in_turn`: the
        /// player laid none with his tile).
        LateBridge = "late_bridge",
    }
}

crate::mechanic_events! {
    /// An event of Bridges, Castles & Bazaars. Seats are indices into the game's player list.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum BcbEvent for WORDS {
        /// A castle was built between the tiles at (`x`, `y`) and (`x2`, `y2`); `figure` stands
        /// in it (BCB-7).
        Built {
            /// Seat.
            player: usize,
            /// The follower in it.
            figure: FigureKind,
            /// Column of its named tile.
            x: i32,
            /// Row of its named tile.
            y: i32,
            /// Column of its other tile.
            x2: i32,
            /// Row of its other tile.
            y2: i32,
        } = "castle_built" => "BCB-7 castle built",
        /// The castle at (`x`, `y`) scored `points` for a feature completed in its vicinity
        /// (BCB-10) or another castle's score (BCB-12); its follower went home.
        Scored {
            /// Seat.
            player: usize,
            /// The follower that went home.
            figure: FigureKind,
            /// The points.
            points: u32,
            /// Column of its named tile.
            x: i32,
            /// Row of its named tile.
            y: i32,
        } = "castle_scored" => "BCB-10 castle scored",
        /// The game ended with a follower still in the castle at (`x`, `y`): it goes home and
        /// scores nothing (BCB-13).
        Left {
            /// Seat.
            player: usize,
            /// The follower.
            figure: FigureKind,
            /// Column of its named tile.
            x: i32,
            /// Row of its named tile.
            y: i32,
        } = "castle_left" => "BCB-13 castle left at the end",
        /// A player laid a bridge across the tile at (`x`, `y`) from its edge `edge` to the
        /// opposite one.
        BridgePlaced {
            /// Seat.
            player: usize,
            /// Column.
            x: i32,
            /// Row.
            y: i32,
            /// The bridge's first edge: `N` (north–south) or `E` (east–west).
            edge: Spot,
        } = "bridge_placed" => "BCB-1 bridge placed",
        /// After `player`'s bazaar, the tile numbered `lot` was revealed (BCB-18).
        BazaarRevealed {
            /// The seat that laid the bazaar.
            player: usize,
            /// Its number, from 1.
            lot: u8,
            /// Tile id.
            tile: Arc<str>,
        } = "bazaar_revealed" => "BCB-18 bazaar tile revealed",
        /// `player`'s bazaar starts no auction: fewer tiles are left than players (BCB-17).
        BazaarSkipped {
            /// The seat that laid the bazaar.
            player: usize,
            /// Tiles left in the bag.
            left: u32,
        } = "bazaar_skipped" => "BCB-17 bazaar without an auction",
        /// The auctioneer `player` put the tile `lot` up for auction with a bid of `bid` (BCB-18).
        BazaarBid {
            /// Seat.
            player: usize,
            /// The tile, from 1.
            lot: u8,
            /// The opening bid.
            bid: u32,
        } = "bazaar_bid" => "BCB-18 bazaar opening bid",
        /// `player` raised the bid to `bid` (BCB-18).
        BazaarRaised {
            /// Seat.
            player: usize,
            /// The new highest bid.
            bid: u32,
        } = "bazaar_raised" => "BCB-18 bazaar bid raised",
        /// `player` did not raise (BCB-18).
        BazaarPassed {
            /// Seat.
            player: usize,
        } = "bazaar_passed" => "BCB-18 bazaar bid passed",
        /// The auctioneer `player` bought the tile `lot`, paying `points` to `to` (BCB-19).
        BazaarBought {
            /// Seat.
            player: usize,
            /// The tile, from 1.
            lot: u8,
            /// The highest bidder, who was paid.
            to: usize,
            /// The points paid.
            points: u32,
        } = "bazaar_bought" => "BCB-19 bazaar tile bought by the auctioneer",
        /// The auctioneer `player` sold the tile `lot` to `to` for `points` (BCB-19).
        BazaarSold {
            /// Seat.
            player: usize,
            /// The tile, from 1.
            lot: u8,
            /// The highest bidder, who got the tile and paid.
            to: usize,
            /// The points paid to the auctioneer.
            points: u32,
        } = "bazaar_sold" => "BCB-19 bazaar tile sold by the auctioneer",
        /// Nobody raised: the auctioneer `player` took the tile `lot` and paid his bid,
        /// `points`, to the bank (BCB-19).
        BazaarBanked {
            /// Seat.
            player: usize,
            /// The tile, from 1.
            lot: u8,
            /// The points paid to the bank.
            points: u32,
        } = "bazaar_banked" => "BCB-19 bazaar tile paid to the bank",
        /// `player` got the tile `lot` without paying: the last tile to the last player
        /// (BCB-20), or a tile chosen without bidding (BCB-22).
        BazaarTaken {
            /// Seat.
            player: usize,
            /// The tile, from 1.
            lot: u8,
        } = "bazaar_taken" => "BCB-20 bazaar tile taken without paying",
    }
}

/// The words of a bridge's direction from its first edge.
pub fn axis_words(edge: Spot) -> &'static str {
    match edge {
        Spot::Edge(Edge::N | Edge::S) => "north–south",
        _ => "east–west",
    }
}

impl ActionWords for BcbAction {
    fn words(&self) -> String {
        match self {
            BcbAction::Castle { pos, spot } => {
                format!("build a castle from the small city at {pos} {spot}")
            }
            BcbAction::Scores {
                castle,
                from,
                spot: Some(spot),
            } => format!("let the castle at {castle} score the feature at {from} {spot}"),
            BcbAction::Scores { castle, from, .. } => {
                format!("let the castle at {castle} score as the castle at {from}")
            }
            BcbAction::Bridge {
                pos,
                rotation,
                at,
                edge,
            } => format!(
                "place the tile at {pos} turned {}° with a bridge {} across {at}",
                rotation.degrees(),
                axis_words(*edge)
            ),
            BcbAction::LateBridge { at, edge } => {
                format!("lay a bridge {} across {at}", axis_words(*edge))
            }
            BcbAction::BazaarChoose { lot } => format!("choose bazaar tile #{lot}"),
            BcbAction::BazaarBid { bid } => format!("bid {bid}"),
            BcbAction::BazaarRaise { bid } => format!("raise the bid to {bid}"),
            BcbAction::BazaarBuy => "buy the tile (pay the highest bid to its bidder)".into(),
            BcbAction::BazaarSell => "sell the tile to the highest bidder".into(),
        }
    }
}

impl EventWords for BcbEvent {
    fn words(&self, names: &[String], f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(said) = self.bazaar_words(names) {
            return f.write_str(&said);
        }
        match *self {
            BcbEvent::Built {
                player,
                figure,
                x,
                y,
                x2,
                y2,
            } => write!(
                f,
                "{} builds a castle between {} and {}; the {} stands in it (BCB-7)",
                seat(names, player),
                Pos::new(x, y),
                Pos::new(x2, y2),
                figure.noun()
            ),
            BcbEvent::Scored {
                player,
                figure,
                points,
                x,
                y,
            } => write!(
                f,
                "{}'s castle at {} scores {points} points; the {} goes home (BCB-10)",
                seat(names, player),
                Pos::new(x, y),
                figure.noun()
            ),
            BcbEvent::Left {
                player,
                figure,
                x,
                y,
            } => write!(
                f,
                "{}'s {} leaves the castle at {} without points (BCB-13)",
                seat(names, player),
                figure.noun(),
                Pos::new(x, y)
            ),
            BcbEvent::BridgePlaced { player, x, y, edge } => write!(
                f,
                "{} lays a bridge {} across the tile at {}",
                seat(names, player),
                axis_words(edge),
                Pos::new(x, y)
            ),
            _ => Ok(()),
        }
    }
}

impl BcbEvent {
    /// A bazaar's event in words (`None`: not one).
    fn bazaar_words(&self, names: &[String]) -> Option<String> {
        let who = |s: &usize| seat(names, *s).to_string();
        Some(match self {
            BcbEvent::BazaarRevealed { player, lot, tile } => {
                format!(
                    "{}'s bazaar: tile #{lot} revealed, {tile} (BCB-18)",
                    who(player)
                )
            }
            BcbEvent::BazaarSkipped { player, left } => format!(
                "{}'s bazaar holds no auction: fewer tiles are left ({left}) than players (BCB-17)",
                who(player)
            ),
            BcbEvent::BazaarBid { player, lot, bid } => format!(
                "{} puts bazaar tile #{lot} up for auction and bids {bid} (BCB-18)",
                who(player)
            ),
            BcbEvent::BazaarRaised { player, bid } => {
                format!("{} raises the bid to {bid} (BCB-18)", who(player))
            }
            BcbEvent::BazaarPassed { player } => {
                format!("{} does not raise (BCB-18)", who(player))
            }
            BcbEvent::BazaarBought {
                player,
                lot,
                to,
                points,
            } => format!(
                "{} buys bazaar tile #{lot} and pays {points} points to {} (BCB-19)",
                who(player),
                who(to)
            ),
            BcbEvent::BazaarSold {
                player,
                lot,
                to,
                points,
            } => format!(
                "{} sells bazaar tile #{lot} to {} for {points} points (BCB-19)",
                who(player),
                who(to)
            ),
            BcbEvent::BazaarBanked {
                player,
                lot,
                points,
            } => format!(
                "nobody raised: {} takes bazaar tile #{lot} and pays {points} points to the bank (BCB-19)",
                who(player)
            ),
            BcbEvent::BazaarTaken { player, lot } => {
                format!(
                    "{} takes bazaar tile #{lot} without paying (BCB-20, BCB-22)",
                    who(player)
                )
            }
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::action::Action;

    #[test]
    fn the_bridge_round_trips() {
        let action = Action::from(BcbAction::Bridge {
            pos: Pos::new(1, -2),
            rotation: Rotation::ALL[3],
            at: Pos::new(1, -1),
            edge: Spot::Edge(Edge::E),
        });
        let Action::Mechanic(m) = action else {
            panic!("a mechanic action")
        };
        let (key, value) = WORDS.record(&m);
        assert_eq!(key, "bridge");
        assert_eq!(value.to_string(), r#"[1, -2, 270, 1, -1, "E"]"#);
        let back = WORDS.parse(key, &value, None).expect("parses");
        assert_eq!(Action::Mechanic(back), action);
        assert!(WORDS.action_words(&m).contains("east–west"));
    }
}
