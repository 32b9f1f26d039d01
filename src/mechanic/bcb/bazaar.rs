//! The bazaars of Bridges, Castles & Bazaars (RULES-MORE.md §4.4, BCB-16..BCB-22).
//!
//! After the turn of a player who laid a bazaar tile (after its scoring, and after a builder's
//! second tile, BCB-16) as many tiles as players are revealed from the bag, drawn as any tile
//! is (BCB-18; skipped when fewer are left, BCB-17). From the player after him, each player
//! still without a tile is auctioneer: he chooses a revealed tile and bids; clockwise, every
//! other player still without a tile may raise once; he then buys or sells (BCB-19); the last
//! player gets the last tile free (BCB-20). Under `bcb.bazaar.auction = false` each player just
//! chooses a tile in that order (BCB-22). Then each player lays his tile in a full turn of his
//! own, in turn order from the player after the one who laid the bazaar, before normal play
//! resumes (BCB-21): turns inserted with the engine's [`Mechanic::inserted_turn`] and
//! [`Mechanic::dealt_tile`]. A tile won so starts no auction of its own (Q-BCB3).
//!
//! Every choice is a decision of the seat that makes it (the auctioneer's tile and bid, each
//! raise, buy or sell). Decisions taken here (rulesets/README.md §3.16):
//!
//! - **Bids** lie between 0 and the bidder's score, at most [`MAX_BID`]: castellan's scores
//!   never go below 0, as The Tower's ransom needs the points it costs (so Q-BCB4's
//!   "bid more than one has" is not played). An auctioneer whose score is below the highest bid
//!   cannot buy: he sells. A player who cannot raise (his score is not above the highest bid)
//!   is not asked.
//! - **A won tile that fits nowhere** is discarded as a drawn one is (B-P5) and its player
//!   draws from the bag instead; with nothing left to draw his turn goes by.
//! - When fewer tiles than players can be revealed after all (the draw limit, or dragon tiles
//!   set aside as they are drawn, D0), those revealed go back on top of the bag in their order
//!   and there is no auction.

use super::vocabulary::{BcbAction, BcbDecision, BcbEvent};
use crate::engine::action::{Action, Decision};
use crate::engine::event::Event;
use crate::engine::game::{Game, RuleError};
use crate::engine::mechanic::{Asked, Hooks, Mechanic, Phase, Shortcuts, Then};
use crate::engine::refusal::RuleId;
use crate::model::tile::{Symbol, TileId};

/// The most points one bid may be (a bid is one byte in an action).
pub const MAX_BID: u32 = u8::MAX as u32;

/// Its decision: the auctioneer's tile (or, without bidding, a player's tile).
const CHOOSE: u8 = 0;
/// Its decision: the auctioneer's bid.
const BID: u8 = 3;
/// Its decision: raise or pass.
const RAISE: u8 = 1;
/// Its decision: buy or sell.
const SETTLE: u8 = 2;

/// The bazaars (`[mechanics] bridges_castles_bazaars`, with tiles marked `bazaar`).
#[derive(Debug)]
pub struct Bazaars {
    id: u8,
    /// The tiles' mark.
    bazaar: Symbol,
    /// `bcb.bazaar.auction`.
    auction: bool,
}

/// Where an auction stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// The auctioneer chooses a tile.
    Choose,
    /// The auctioneer bids for it.
    Bid,
    /// The seat may raise.
    Raise(usize),
    /// The auctioneer buys or sells.
    Settle,
}

/// An auction in progress (BCB-18..BCB-20).
#[derive(Clone, Debug)]
struct Auction {
    /// The seat that laid the bazaar.
    layer: usize,
    /// The revealed tiles, in the order revealed.
    lots: Vec<TileId>,
    /// Who got each one.
    owner: Vec<Option<usize>>,
    /// The auctioneer now.
    auctioneer: usize,
    /// The tile up for auction (its index in `lots`).
    lot: usize,
    /// The highest bid and its bidder.
    high: (u32, usize),
    step: Step,
}

impl Auction {
    /// Whether `seat` has a tile of this auction.
    fn has_tile(&self, seat: usize) -> bool {
        self.owner.contains(&Some(seat))
    }

    /// The seats still without a tile, clockwise from the one after `from`.
    fn without_tile(&self, from: usize) -> impl Iterator<Item = usize> + '_ {
        let n = self.lots.len();
        (1..=n)
            .map(move |k| (from + k) % n)
            .filter(|s| !self.has_tile(*s))
    }

    /// The tiles not given yet, by index.
    fn open_lots(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.lots.len()).filter(|i| self.owner[*i].is_none())
    }
}

/// The bazaars' state in the game's slot.
#[derive(Clone, Debug, Default)]
struct Market {
    /// The seat that laid a bazaar tile this turn (or in the first half of this double turn):
    /// the auction follows the turn.
    due: Option<usize>,
    /// The auction being held.
    auction: Option<Auction>,
    /// The won tiles still to be laid, in turn order: seat and tile.
    turns: Vec<(usize, TileId)>,
    /// The tile to deal the seat of the turn just inserted.
    deal: Option<(usize, TileId)>,
    /// The turn whose tile was dealt (Q-BCB3: its bazaar starts no auction).
    dealt: Option<u32>,
    /// Every revealed tile not yet dealt ([`Mechanic::held_tiles`]).
    held: Vec<TileId>,
}

crate::own_state!(Market);

/// The tiles revealed at the bazaar now, with the seat that got each one (none yet) — for
/// boards and the web page; empty when no auction is being held.
pub fn on_offer(g: &Game) -> Vec<(TileId, Option<usize>)> {
    let auction = g.slots.get::<Market>().and_then(|m| m.auction.as_ref());
    auction.map_or_else(Vec::new, |a| {
        a.lots
            .iter()
            .copied()
            .zip(a.owner.iter().copied())
            .collect()
    })
}

/// The bid on the table (the tile up for auction, from 1, the highest bid and its bidder),
/// while the players raise or the auctioneer settles.
pub fn bidding(g: &Game) -> Option<(u8, u32, usize)> {
    let a = g.slots.get::<Market>()?.auction.as_ref()?;
    let lot = u8::try_from(a.lot + 1).ok()?;
    matches!(a.step, Step::Raise(_) | Step::Settle).then_some((lot, a.high.0, a.high.1))
}

/// The won tiles still to be laid: seat and tile, in the order they will be laid.
pub fn to_lay(g: &Game) -> Vec<(usize, TileId)> {
    let Some(m) = g.slots.get::<Market>() else {
        return Vec::new();
    };
    m.deal.iter().chain(&m.turns).copied().collect()
}

/// The most `seat` may bid (his score, at most [`MAX_BID`]).
fn cap(g: &Game, seat: usize) -> u32 {
    g.scores.get(seat).copied().unwrap_or(0).min(MAX_BID)
}

/// A refusal of a bazaar's action under `rule`.
fn refuse(rule: &'static str, reason: String) -> RuleError {
    RuleError::IllegalAction {
        rule: RuleId(rule),
        reason,
    }
}

impl Bazaars {
    /// The bazaars as mechanic number `id`, for tiles marked `bazaar`.
    pub fn new(id: u8, bazaar: Symbol, auction: bool) -> Bazaars {
        Bazaars {
            id,
            bazaar,
            auction,
        }
    }

    fn asked(&self, kind: u8) -> Asked {
        Asked { by: self.id, kind }
    }

    fn auction(g: &Game) -> Option<&Auction> {
        g.slots.get::<Market>()?.auction.as_ref()
    }

    fn auction_mut(g: &mut Game) -> Option<&mut Auction> {
        g.slots.get_mut::<Market>()?.auction.as_mut()
    }

    /// Reveals as many tiles as players for the bazaar `layer` laid, or says why not (BCB-17).
    fn open(&self, g: &mut Game, layer: usize, events: &mut Vec<Event>) -> bool {
        let n = g.scores.len();
        let mut lots = Vec::with_capacity(n);
        if g.bag.len() >= n {
            while lots.len() < n {
                let Some(tile) = g.take_from_bag(events) else {
                    break;
                };
                lots.push(tile);
            }
        }
        if lots.len() < n {
            let left = g.bag.len() + lots.len();
            // Not enough to go round: what was revealed goes back on top, in order, undrawn
            // (a set-up's draw limit, `end_after`, counts only tiles that stay out).
            g.draws = g
                .draws
                .saturating_sub(u32::try_from(lots.len()).unwrap_or(u32::MAX));
            g.bag.extend(lots.into_iter().rev());
            events.push(
                BcbEvent::BazaarSkipped {
                    player: layer,
                    left: u32::try_from(left).unwrap_or(u32::MAX),
                }
                .into(),
            );
            return false;
        }
        for (i, &tile) in lots.iter().enumerate() {
            events.push(
                BcbEvent::BazaarRevealed {
                    player: layer,
                    lot: u8::try_from(i + 1).unwrap_or(u8::MAX),
                    tile: g.tile_name(tile),
                }
                .into(),
            );
        }
        let market = g.slots.entry::<Market>();
        market.held.extend_from_slice(&lots);
        market.auction = Some(Auction {
            layer,
            owner: vec![None; lots.len()],
            lots,
            auctioneer: layer,
            lot: 0,
            high: (0, layer),
            step: Step::Choose,
        });
        true
    }

    /// Runs the auction on to the next decision, or to its end: the next auctioneer, the next
    /// seat that may raise, the settling; the last tile to the last player.
    fn go_on(&self, g: &mut Game, events: &mut Vec<Event>) -> Option<Asked> {
        loop {
            let a = Self::auction(g)?;
            match a.step {
                Step::Choose => {
                    let seats: Vec<usize> = a.without_tile(a.auctioneer).take(2).collect();
                    let lot = a.open_lots().next();
                    match (&seats[..], lot) {
                        (&[next, _], _) => {
                            Self::auction_mut(g)?.auctioneer = next;
                            return Some(self.asked(CHOOSE));
                        }
                        (&[last], Some(lot)) => {
                            give(g, lot, last);
                            let lot = lot_no(lot);
                            events.push(BcbEvent::BazaarTaken { player: last, lot }.into());
                        }
                        _ => return self.close(g),
                    }
                }
                Step::Bid => return Some(self.asked(BID)),
                Step::Raise(seat) => {
                    if cap(g, seat) > a.high.0 {
                        return Some(self.asked(RAISE));
                    }
                    // He cannot raise: the next one may.
                    let next = next_raiser(a, seat);
                    Self::auction_mut(g)?.step = next;
                }
                Step::Settle => {
                    let (bid, bidder) = a.high;
                    let (auctioneer, lot) = (a.auctioneer, a.lot);
                    if bidder == auctioneer {
                        pay(g, auctioneer, None, bid);
                        give(g, lot, auctioneer);
                        events.push(
                            BcbEvent::BazaarBanked {
                                player: auctioneer,
                                lot: lot_no(lot),
                                points: bid,
                            }
                            .into(),
                        );
                    } else if g.scores[auctioneer] < bid {
                        self.sell(g, events);
                    } else {
                        return Some(self.asked(SETTLE));
                    }
                }
            }
        }
    }

    /// Ends the auction: every player lays his tile in turn order from the player after the
    /// one who laid the bazaar (BCB-21).
    fn close(&self, g: &mut Game) -> Option<Asked> {
        let market = g.slots.get_mut::<Market>()?;
        let a = market.auction.take()?;
        let n = a.lots.len();
        for seat in (1..=n).map(|k| (a.layer + k) % n) {
            if let Some(i) = a.owner.iter().position(|o| *o == Some(seat)) {
                market.turns.push((seat, a.lots[i]));
            }
        }
        None
    }

    /// The auctioneer sells the tile to the highest bidder (BCB-19).
    fn sell(&self, g: &mut Game, events: &mut Vec<Event>) {
        let Some(a) = Self::auction(g) else {
            return;
        };
        let ((bid, bidder), auctioneer, lot) = (a.high, a.auctioneer, a.lot);
        pay(g, bidder, Some(auctioneer), bid);
        give(g, lot, bidder);
        events.push(
            BcbEvent::BazaarSold {
                player: auctioneer,
                lot: lot_no(lot),
                to: bidder,
                points: bid,
            }
            .into(),
        );
    }

    /// The auctioneer buys the tile from the highest bidder's bid (BCB-19).
    fn buy(&self, g: &mut Game, events: &mut Vec<Event>) {
        let Some(a) = Self::auction(g) else {
            return;
        };
        let ((bid, bidder), auctioneer, lot) = (a.high, a.auctioneer, a.lot);
        pay(g, auctioneer, Some(bidder), bid);
        give(g, lot, auctioneer);
        events.push(
            BcbEvent::BazaarBought {
                player: auctioneer,
                lot: lot_no(lot),
                to: bidder,
                points: bid,
            }
            .into(),
        );
    }

    /// Why `action` is no answer to the bazaar's decision `kind` now, if it is not.
    fn problem(&self, g: &Game, kind: u8, action: &Action) -> Option<RuleError> {
        let a = Self::auction(g)?;
        let open = |lot: u8| {
            let i = usize::from(lot).checked_sub(1)?;
            a.owner.get(i)?.is_none().then_some(i)
        };
        let offered = || {
            let list: Vec<String> = a.open_lots().map(|i| format!("#{}", i + 1)).collect();
            list.join(", ")
        };
        match (kind, BcbAction::of(action)?) {
            (CHOOSE, BcbAction::BazaarChoose { lot }) => open(lot).is_none().then(|| {
                let rule = if self.auction { "BCB-18" } else { "BCB-22" };
                let offered = offered();
                refuse(
                    rule,
                    format!("tile #{lot} is not on offer; the tiles on offer: {offered}"),
                )
            }),
            (BID, BcbAction::BazaarBid { bid }) => {
                let max = cap(g, a.auctioneer);
                (u32::from(bid) > max).then(|| {
                    refuse(
                        "BCB-18",
                        format!(
                            "a bid of {bid} is more than your {max} points (castellan's scores never go below 0)"
                        ),
                    )
                })
            }
            (RAISE, BcbAction::BazaarRaise { bid }) => {
                let Step::Raise(seat) = a.step else {
                    return Some(refuse("BCB-18", "nobody raises now".into()));
                };
                let (high, max) = (a.high.0, cap(g, seat));
                let bid = u32::from(bid);
                (bid <= high || bid > max).then(|| {
                    refuse("BCB-18", format!("a raise must be more than the highest bid, {high}, and at most your {max} points, not {bid}"))
                })
            }
            (SETTLE, BcbAction::BazaarBuy) => (g.scores[a.auctioneer] < a.high.0).then(|| {
                refuse(
                    "BCB-19",
                    format!(
                        "buying costs {} points, more than your {}: sell",
                        a.high.0, g.scores[a.auctioneer]
                    ),
                )
            }),
            (SETTLE, BcbAction::BazaarSell) => None,
            _ => Some(RuleError::WrongDecision(self.hint(self.asked(kind)).into())),
        }
    }
}

/// The number of the tile at `lot` in words and records (from 1).
fn lot_no(lot: usize) -> u8 {
    u8::try_from(lot + 1).unwrap_or(u8::MAX)
}

/// The tile at `lot` goes to `seat`.
fn give(g: &mut Game, lot: usize, seat: usize) {
    if let Some(a) = Bazaars::auction_mut(g)
        && let Some(o) = a.owner.get_mut(lot)
    {
        *o = Some(seat);
        a.step = Step::Choose;
    }
}

/// `from` pays `points` to `to` (or to the bank); never below 0 (bids are capped by scores).
fn pay(g: &mut Game, from: usize, to: Option<usize>, points: u32) {
    if let Some(s) = g.scores.get_mut(from) {
        *s = s.saturating_sub(points);
    }
    if let Some(s) = to.and_then(|t| g.scores.get_mut(t)) {
        *s += points;
    }
}

/// After `seat` raised or passed: the next seat clockwise still without a tile, or the
/// settling once every other one was asked.
fn next_raiser(a: &Auction, seat: usize) -> Step {
    let n = a.lots.len();
    let next = (1..n)
        .map(|k| (seat + k) % n)
        .take_while(|s| *s != a.auctioneer)
        .find(|s| !a.has_tile(*s));
    next.map_or(Step::Settle, Step::Raise)
}

impl Mechanic for Bazaars {
    fn name(&self) -> &'static str {
        "bazaar"
    }

    fn hooks(&self) -> Hooks {
        Hooks::STAGE | Hooks::PLACED | Hooks::ACTIONS | Hooks::DRAW | Hooks::INSERTED
    }

    fn phases(&self) -> &[Phase] {
        &[Phase::TurnEnd]
    }

    /// BCB-16: a bazaar laid from the bag (not one won at a bazaar, Q-BCB3).
    fn placed(&self, g: &mut Game, _events: &mut Vec<Event>) {
        if !g.placed_symbol(self.bazaar) {
            return;
        }
        let (turn, active) = (g.turn, g.active);
        let market = g.slots.entry::<Market>();
        if market.dealt != Some(turn) {
            market.due = Some(active);
        }
    }

    /// The auction, after the turn (and after a builder's second tile, BCB-16).
    fn stage(&self, g: &mut Game, _phase: Phase, events: &mut Vec<Event>) -> Option<Asked> {
        let market = g.slots.get::<Market>()?;
        if market.auction.is_none() {
            let layer = market.due?;
            if g.is_half_turn() && !g.is_extra_turn() {
                return None;
            }
            g.slots.entry::<Market>().due = None;
            if !self.open(g, layer, events) {
                return None;
            }
        }
        self.go_on(g, events)
    }

    fn decision(&self, g: &Game, asked: Asked) -> Option<Decision> {
        let a = Self::auction(g)?;
        let (player, kind) = match (asked.kind, a.step) {
            (RAISE, Step::Raise(seat)) => {
                (seat, BcbDecision::BazaarRaise { high: a.high.0 }.into())
            }
            (SETTLE, _) => (a.auctioneer, BcbDecision::BazaarBuyOrSell.into()),
            (BID, _) => (
                a.auctioneer,
                BcbDecision::BazaarBid { lot: lot_no(a.lot) }.into(),
            ),
            _ => (a.auctioneer, BcbDecision::BazaarChoose.into()),
        };
        Some(Decision { player, kind })
    }

    fn actions(&self, g: &Game, asked: Asked, out: &mut Vec<Action>) {
        let Some(a) = Self::auction(g) else {
            return;
        };
        match (asked.kind, a.step) {
            (CHOOSE, _) => out.extend(
                (a.open_lots()).map(|i| Action::from(BcbAction::BazaarChoose { lot: lot_no(i) })),
            ),
            (BID, _) => {
                let max = cap(g, a.auctioneer) as u8;
                out.extend((0..=max).map(|bid| Action::from(BcbAction::BazaarBid { bid })));
            }
            (RAISE, Step::Raise(seat)) => {
                let (low, max) = (a.high.0 + 1, cap(g, seat));
                out.extend(
                    (low..=max).map(|bid| Action::from(BcbAction::BazaarRaise { bid: bid as u8 })),
                );
            }
            (SETTLE, _) => {
                if g.scores[a.auctioneer] >= a.high.0 {
                    out.push(BcbAction::BazaarBuy.into());
                }
                out.push(BcbAction::BazaarSell.into());
            }
            _ => {}
        }
    }

    fn may_pass(&self, _g: &Game, asked: Asked) -> bool {
        asked.kind == RAISE
    }

    fn hint(&self, asked: Asked) -> &'static str {
        match asked.kind {
            CHOOSE => "a revealed tile (`bazaar_choose = tile`)",
            BID => "your bid (`bazaar_bid = points`)",
            RAISE => "a higher bid (`bazaar_raise = bid`) or `pass = true`",
            _ => "buy (`bazaar_buy = true`) or sell (`bazaar_sell = true`)",
        }
    }

    fn check(&self, g: &Game, asked: Asked, action: &Action) -> Option<Result<(), RuleError>> {
        BcbAction::of(action)?;
        Some(self.problem(g, asked.kind, action).map_or(Ok(()), Err))
    }

    fn apply(
        &self,
        g: &mut Game,
        asked: Asked,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Option<Then> {
        let a = Self::auction(g)?;
        let (auctioneer, step) = (a.auctioneer, a.step);
        match (BcbAction::of(action), step) {
            (Some(BcbAction::BazaarChoose { lot }), _) if self.auction => {
                let a = Self::auction_mut(g)?;
                (a.lot, a.step) = (usize::from(lot) - 1, Step::Bid);
            }
            (Some(BcbAction::BazaarChoose { lot }), _) => {
                give(g, usize::from(lot) - 1, auctioneer);
                events.push(
                    BcbEvent::BazaarTaken {
                        player: auctioneer,
                        lot,
                    }
                    .into(),
                );
            }
            (Some(BcbAction::BazaarBid { bid }), _) => {
                let bid = u32::from(bid);
                let a = Self::auction_mut(g)?;
                a.high = (bid, auctioneer);
                a.step = next_raiser(a, auctioneer);
                let lot = lot_no(a.lot);
                events.push(
                    BcbEvent::BazaarBid {
                        player: auctioneer,
                        lot,
                        bid,
                    }
                    .into(),
                );
            }
            (Some(BcbAction::BazaarRaise { bid }), Step::Raise(seat)) => {
                let bid = u32::from(bid);
                let a = Self::auction_mut(g)?;
                a.high = (bid, seat);
                a.step = next_raiser(a, seat);
                events.push(BcbEvent::BazaarRaised { player: seat, bid }.into());
            }
            (None, Step::Raise(seat)) if asked.kind == RAISE => {
                let a = Self::auction_mut(g)?;
                a.step = next_raiser(a, seat);
                events.push(BcbEvent::BazaarPassed { player: seat }.into());
            }
            (Some(BcbAction::BazaarBuy), _) => self.buy(g, events),
            (Some(BcbAction::BazaarSell), _) => self.sell(g, events),
            _ => return None,
        }
        Some(Then::Again)
    }

    /// The revealed tiles not yet laid are still to come ([`Game::count_to_come`]).
    fn held_tiles<'g>(&self, g: &'g Game) -> &'g [TileId] {
        g.slots.get::<Market>().map_or(&[], |m| &m.held)
    }

    /// BCB-21: the next player with a won tile.
    fn inserted_turn(&self, g: &mut Game) -> Option<usize> {
        let market = g.slots.get_mut::<Market>()?;
        if market.turns.is_empty() {
            return None;
        }
        let (seat, tile) = market.turns.remove(0);
        market.deal = Some((seat, tile));
        Some(seat)
    }

    /// BCB-21: his won tile, in the turn inserted for him.
    fn dealt_tile(&self, g: &mut Game) -> Option<TileId> {
        let (turn, active) = (g.turn, g.active);
        let market = g.slots.get_mut::<Market>()?;
        let (seat, tile) = market.deal.take()?;
        if seat != active {
            return None;
        }
        market.dealt = Some(turn);
        if let Some(i) = market.held.iter().position(|t| *t == tile) {
            market.held.remove(i);
        }
        Some(tile)
    }
}

impl Shortcuts for Bazaars {}
