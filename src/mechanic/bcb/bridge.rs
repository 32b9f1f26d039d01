//! The bridges of Bridges, Castles & Bazaars (RULES-MORE.md §4.2, BCB-1 to BCB-6).
//!
//! A bridge is laid with the tile placement (BCB-6 `with_tile`, the 2nd edition): the answer to
//! the base game's placement decision is then "this tile, there, turned so, and a bridge across
//! this tile" ([`BcbAction::Bridge`]), listed beside the plain placements. The bridge crosses
//! the tile just laid or a placed tile beside it, north–south or east–west, both ends on field
//! edges of that tile, at most one bridge a tile (BCB-1, BCB-2); after the tile and the bridge
//! every edge must match, the bridge's ends counting as road edges, which is how a tile may be
//! laid with a road against a field edge when the bridge continues it (BCB-4). The bridge is
//! the engine's overlay road (`Game::add_overlay_road`): a road segment of its own across the
//! tile, joined to the roads it meets, over fields and cities that stay whole (BCB-3). It is no
//! figure and no deploy action: the player may still deploy, and on the tile just laid a
//! follower may stand on the bridge as on any road (BCB-5); the bridge scores as a road tile
//! and never leaves the board (no dragon eats it, X-2). On a volcano tile a bridge is laid
//! like anywhere else.

use super::rules::BcbRules;
use super::vocabulary::{BcbAction, BcbEvent};
use crate::engine::action::{Action, DecisionKind};
use crate::engine::event::Event;
use crate::engine::game::{Game, RuleError};
use crate::engine::mechanic::{Asked, Hooks, Mechanic, Shortcuts, Then};
use crate::engine::refusal::Refusal;
use crate::mechanic::base::{lay_drawn, tell_placed};
use crate::model::figure::MAX_PLAYERS;
use crate::model::geometry::{Edge, Pos, Rotation, Spot};
use crate::model::tile::{EdgeKind, TileId};

/// The players' bridges still in supply (BCB-C2), by seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Supply {
    left: [u8; MAX_PLAYERS],
}

crate::own_state!(Supply);

/// How many bridges `seat` has left (none in a game without bridges).
pub fn left(g: &Game, seat: usize) -> u8 {
    (g.slots.get::<Supply>()).map_or(0, |s| s.left.get(seat).copied().unwrap_or(0))
}

/// The two ways a bridge runs: its first edge as its name, and the edges it reaches.
const AXES: [(Spot, u8); 2] = [(Spot::Edge(Edge::N), 0b0101), (Spot::Edge(Edge::E), 0b1010)];

/// The edges a bridge named by `edge` reaches (`N`/`S`: north–south, `E`/`W`: east–west).
fn reach(edge: Spot) -> Option<u8> {
    match edge {
        Spot::Edge(Edge::N | Edge::S) => Some(0b0101),
        Spot::Edge(Edge::E | Edge::W) => Some(0b1010),
        _ => None,
    }
}

/// The edges of a mask, in [`Edge::ALL`] order.
fn edges_of(mask: u8) -> impl Iterator<Item = Edge> {
    Edge::ALL
        .into_iter()
        .filter(move |e| mask & (1 << *e as u8) != 0)
}

/// The bridges (`[mechanics] bridges_castles_bazaars`): laid with the base game's placement.
#[derive(Debug)]
pub struct Bridges {
    /// The base game's placement decision, which a tile laid with a bridge answers.
    place: Asked,
}

impl Bridges {
    /// The bridges, offered in `place` (the base game's placement decision).
    pub fn new(place: Asked) -> Bridges {
        Bridges { place }
    }
}

/// Why laying `tile` at `pos` turned `rotation` with a bridge across the tile at `at` reaching
/// the edges `mask` is refused, if it is (B-P1, BCB-1, BCB-2, B-P2 with the bridge's ends as
/// road edges, BCB-4, and the other mechanics' placement filters).
pub fn problem(
    g: &Game,
    tile: TileId,
    pos: Pos,
    rotation: Rotation,
    at: Pos,
    mask: u8,
) -> Option<Refusal> {
    let (board, tiles) = (&g.board, &g.rules.tiles);
    if board.at(pos).is_some() {
        return Some(Refusal::new("B-P1", "that position is taken"));
    }
    if !board.is_open(pos) {
        return Some(Refusal::new(
            "B-P1",
            "it must share an edge with a placed tile",
        ));
    }
    let oriented = tiles[usize::from(tile)].at(rotation);
    let on_new = at == pos;
    let host = if on_new {
        None
    } else {
        let beside = Edge::ALL.iter().any(|e| pos.step(*e) == at);
        let Some(id) = board.at(at).filter(|_| beside) else {
            return Some(Refusal::new(
                "BCB-1",
                "a bridge goes on the tile just placed or on a placed tile beside it",
            ));
        };
        if board.overlay(id) != 0 {
            return Some(Refusal::new("BCB-1", "that tile has a bridge already"));
        }
        Some(id)
    };
    let kind_under = |e: Edge| match host {
        None => oriented.edge_kind(e),
        Some(id) => board.edge_kind(tiles, id, e),
    };
    if edges_of(mask).any(|e| kind_under(e) != EdgeKind::Field) {
        return Some(Refusal::new(
            "BCB-2",
            "both ends of a bridge lie on field edges of its tile",
        ));
    }
    // Every edge of the new tile matches its neighbour's, the bridge's ends as road edges.
    for e in Edge::ALL {
        let beside = pos.step(e);
        let Some(other) = board.at(beside) else {
            continue;
        };
        let mine = if on_new && mask & (1 << e as u8) != 0 {
            EdgeKind::Road
        } else {
            oriented.edge_kind(e)
        };
        let theirs = if beside == at && mask & (1 << e.opposite() as u8) != 0 {
            EdgeKind::Road
        } else {
            board.edge_kind(tiles, other, e.opposite())
        };
        if mine != theirs {
            return Some(Refusal::new(
                "B-P2",
                "an edge does not match its neighbour, even with the bridge",
            ));
        }
    }
    // The far ends of a bridge on a placed tile meet a road or an open side.
    if host.is_some() {
        for e in edges_of(mask) {
            let beside = at.step(e);
            let Some(other) = board.at(beside).filter(|_| beside != pos) else {
                continue;
            };
            if board.edge_kind(tiles, other, e.opposite()) != EdgeKind::Road {
                return Some(Refusal::new(
                    "B-P2",
                    "an end of the bridge meets a tile edge that is no road",
                ));
            }
        }
    }
    g.mechanics
        .on(Hooks::PLACEMENT)
        .find_map(|m| m.placement_allowed(g, tile, pos, rotation))
}

/// Calls `found` with every legal way to lay `tile` with a bridge (frontier order, then
/// rotation, then the bridge's tile: the new one, then those beside it from the north
/// clockwise, then north–south before east–west) until it returns `false`. The edges are
/// compared first, so that [`problem`] is asked only of the bridges that may make them match.
fn each_bridged(g: &Game, tile: TileId, mut found: impl FnMut(Action) -> bool) {
    let (board, tiles) = (&g.board, &g.rules.tiles);
    for pos in board.frontier() {
        // What each placed neighbour shows towards `pos`.
        let facing = Edge::ALL.map(|e| {
            (board.at(pos.step(e))).map(|other| board.edge_kind(tiles, other, e.opposite()))
        });
        for rotation in Rotation::ALL {
            let oriented = tiles[usize::from(tile)].at(rotation);
            let mine = Edge::ALL.map(|e| oriented.edge_kind(e));
            // The sides whose edges do not match as printed.
            let mismatch = (Edge::ALL.into_iter())
                .filter(|e| facing[*e as usize].is_some_and(|k| k != mine[*e as usize]))
                .fold(0u8, |m, e| m | 1 << e as u8);
            let hosts =
                std::iter::once((pos, None)).chain(Edge::ALL.map(|e| (pos.step(e), Some(e))));
            for (at, side) in hosts {
                if side.is_some_and(|e| facing[e as usize].is_none()) {
                    continue;
                }
                for (edge, mask) in AXES {
                    let may = match side {
                        // On the new tile: field ends meeting roads or open sides, and every
                        // other side matching.
                        None => {
                            mismatch & !mask == 0
                                && edges_of(mask).all(|e| {
                                    mine[e as usize] == EdgeKind::Field
                                        && facing[e as usize].is_none_or(|k| k == EdgeKind::Road)
                                })
                        }
                        // On a tile beside: the new tile's road against its field edge is the
                        // one side that may not match (along the bridge), or none (across).
                        Some(e) if mask & (1 << e.opposite() as u8) != 0 => {
                            mismatch == 1 << e as u8 && mine[e as usize] == EdgeKind::Road
                        }
                        Some(_) => mismatch == 0,
                    };
                    if !may || problem(g, tile, pos, rotation, at, mask).is_some() {
                        continue;
                    }
                    let action = BcbAction::Bridge {
                        pos,
                        rotation,
                        at,
                        edge,
                    };
                    if !found(action.into()) {
                        return;
                    }
                }
            }
        }
    }
}

/// Whether the active player may lay a bridge now: he has one left (BCB-C2).
fn has_bridge(g: &Game) -> bool {
    left(g, g.active) > 0
}

/// The drawn tile, when the pending decision is its placement.
fn drawn(g: &Game) -> Option<TileId> {
    match g.decision().kind {
        DecisionKind::PlaceTile { tile } => Some(tile),
        _ => None,
    }
}

/// A tile laid with a bridge: the fields of [`BcbAction::Bridge`].
#[derive(Clone, Copy)]
struct Laid {
    pos: Pos,
    rotation: Rotation,
    at: Pos,
    edge: Spot,
}

impl Laid {
    /// The bridge laid by `action`, if it is one (the family's other actions are the castles').
    fn of(action: &Action) -> Option<Laid> {
        match BcbAction::of(action)? {
            BcbAction::Bridge {
                pos,
                rotation,
                at,
                edge,
            } => Some(Laid {
                pos,
                rotation,
                at,
                edge,
            }),
            _ => None,
        }
    }
}

/// Why the bridge action is refused, if it is.
fn check_bridge(g: &Game, laid: Laid) -> Result<(), RuleError> {
    let Laid {
        pos,
        rotation,
        at,
        edge,
    } = laid;
    let err = |why: Refusal| RuleError::IllegalAction {
        rule: why.rule,
        reason: format!(
            "cannot place the tile at {pos} turned {}° with a bridge across {at}: {why}",
            rotation.degrees()
        ),
    };
    let tile = drawn(g).ok_or_else(|| {
        err(Refusal::new(
            "BCB-6",
            "a bridge is laid with the tile placement (`bcb.bridge.timing = \"with_tile\"`)",
        ))
    })?;
    if !has_bridge(g) {
        return Err(err(Refusal::new("BCB-C2", "you have no bridge left")));
    }
    let mask = reach(edge).ok_or_else(|| {
        err(Refusal::new(
            "BCB-2",
            "a bridge runs north–south (`N`) or east–west (`E`)",
        ))
    })?;
    match problem(g, tile, pos, rotation, at, mask) {
        Some(why) => Err(err(why)),
        None => Ok(()),
    }
}

/// Lays the drawn tile and the bridge with it (checked by the caller), then tells the
/// mechanics that the tile was laid.
fn lay_bridged(g: &mut Game, laid: Laid, events: &mut Vec<Event>) {
    let Laid {
        pos,
        rotation,
        at,
        edge,
    } = laid;
    let Some(mask) = reach(edge) else { return };
    if lay_drawn(g, pos, rotation, events).is_none() {
        return;
    }
    let Some(host) = g.board.at(at) else { return };
    g.add_overlay_road(host, mask);
    let seat = g.active;
    if let Some(n) = (g.slots.get_mut::<Supply>()).and_then(|s| s.left.get_mut(seat)) {
        *n = n.saturating_sub(1);
    }
    events.push(
        BcbEvent::BridgePlaced {
            player: seat,
            x: at.x,
            y: at.y,
            edge,
        }
        .into(),
    );
    tell_placed(g, events);
}

impl Mechanic for Bridges {
    fn name(&self) -> &'static str {
        "bridges"
    }

    fn hooks(&self) -> Hooks {
        Hooks::SETUP | Hooks::DRAW | Hooks::ACTIONS | Hooks::ADDS
    }

    /// BCB-C2: each player's bridges.
    fn setup(&self, g: &mut Game, _events: &mut Vec<Event>) {
        let n = BcbRules::of(&g.rules).bridge.bridges(g.scores.len());
        g.slots.set(Supply {
            left: [n; MAX_PLAYERS],
        });
    }

    /// BCB-4: a tile that fits nowhere by its edges alone is kept when a bridge makes it fit.
    fn fits_otherwise(&self, g: &Game, tile: TileId) -> bool {
        let mut any = false;
        if has_bridge(g) {
            each_bridged(g, tile, |_| {
                any = true;
                false
            });
        }
        any
    }

    fn actions(&self, g: &Game, asked: Asked, out: &mut Vec<Action>) {
        if asked != self.place || !has_bridge(g) {
            return;
        }
        if let Some(tile) = g.tile {
            each_bridged(g, tile, |a| {
                out.push(a);
                true
            });
        }
    }

    /// A bridge's first edge is named `N` or `E`.
    fn canonical(&self, _g: &Game, action: &Action) -> Option<Action> {
        let BcbAction::Bridge {
            pos,
            rotation,
            at,
            edge,
        } = BcbAction::of(action)?
        else {
            return None;
        };
        let edge = match edge {
            Spot::Edge(Edge::S) => Spot::Edge(Edge::N),
            Spot::Edge(Edge::W) => Spot::Edge(Edge::E),
            other => other,
        };
        Some(
            BcbAction::Bridge {
                pos,
                rotation,
                at,
                edge,
            }
            .into(),
        )
    }

    fn check(&self, g: &Game, asked: Asked, action: &Action) -> Option<Result<(), RuleError>> {
        let bridge = Laid::of(action)?;
        if asked != self.place {
            return Some(Err(RuleError::IllegalAction {
                rule: crate::engine::refusal::RuleId("BCB-6"),
                reason: "a bridge is laid with the tile placement (`bcb.bridge.timing = \
                         \"with_tile\"`), not now"
                    .to_string(),
            }));
        }
        Some(check_bridge(g, bridge))
    }

    fn apply(
        &self,
        g: &mut Game,
        asked: Asked,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Option<Then> {
        let bridge = Laid::of(action)?;
        if asked != self.place {
            return None;
        }
        lay_bridged(g, bridge, events);
        Some(Then::Next)
    }
}

impl Shortcuts for Bridges {
    /// Only the placement takes a bridge.
    fn adds_to(&self, owner: u8) -> bool {
        owner == self.place.by
    }
}
