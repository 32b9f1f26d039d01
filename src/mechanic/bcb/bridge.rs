//! The bridges of Bridges, Castles & Bazaars (RULES-MORE.md §4.2, BCB-1 to BCB-6).
//!
//! A bridge is laid with the tile placement (BCB-6 `with_tile`, the 2nd edition): the answer to
//! the base game's placement decision is then "this tile, there, turned so, and a bridge across
//! this tile" ([`BcbAction::Bridge`]), listed beside the plain placements. With the 1st
//! edition's timing (`any_time_in_turn`) a player who laid none with his tile is also asked,
//! after his deploy action, to lay one or pass ([`BcbAction::LateBridge`]); the tile is down
//! by then and its edges match as printed, so such a bridge ends on open sides only. The bridge crosses
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
//!
//! The placements with a bridge are many, and a random bot picks one answer of the whole
//! placement decision: they are counted and the picked one built without listing the others
//! ([`Shortcuts::count_actions`], [`Shortcuts::nth_action`]). Position by position, the new
//! tile's edges are weighed against what its neighbours show ([`Needs`]) in all four rotations
//! at once, and a placed tile beside is looked at only for the bridges the new tile's edges
//! leave possible; listing, counting and picking share that one walk, so they agree and keep
//! the order of the legal list (`tests/bridges.rs` checks it against [`problem`]).

use super::rules::BcbRules;
use super::rules::BridgeTiming;
use super::vocabulary::BcbDecision;
use super::vocabulary::{BcbAction, BcbEvent};
use crate::engine::action::{Action, Decision, DecisionKind};
use crate::engine::event::Event;
use crate::engine::game::{Game, RuleError};
use crate::engine::mechanic::{Asked, Hooks, Mechanic, Phase, Shortcuts, Then};
use crate::engine::refusal::Refusal;
use crate::mechanic::base::{lay_drawn, tell_placed};
use crate::model::board::PlacedId;
use crate::model::figure::MAX_PLAYERS;
use crate::model::geometry::{Edge, Pos, Rotation, Spot};
use crate::model::tile::{EdgeKind, Needs, Oriented, TileId};

/// The players' bridges still in supply (BCB-C2), by seat, and the tile whose placement the
/// last bridge went with (one bridge a tile placement, BCB-1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Supply {
    left: [u8; MAX_PLAYERS],
    laid_with: Option<PlacedId>,
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

/// The bridges (`[mechanics] bridges_castles_bazaars`): laid with the base game's placement,
/// and with the 1st edition's timing also later in the turn.
#[derive(Debug)]
pub struct Bridges {
    /// The base game's placement decision, which a tile laid with a bridge answers.
    place: Asked,
    /// Its own decision after the deploy action (`any_time_in_turn`), if the ruleset has it.
    late: Option<Asked>,
}

/// The bridges' own decision: lay one after the deploy action, or pass.
const LATE: u8 = 0;

impl Bridges {
    /// The bridges, offered in `place` (the base game's placement decision) and, with the
    /// `timing` `any_time_in_turn`, in a decision of their own as mechanic number `id`.
    pub fn new(place: Asked, id: u8, timing: BridgeTiming) -> Bridges {
        let late = (timing == BridgeTiming::AnyTimeInTurn).then_some(Asked { by: id, kind: LATE });
        Bridges { place, late }
    }

    /// Whether `asked` is the bridges' own decision.
    fn is_late(&self, asked: Asked) -> bool {
        self.late == Some(asked)
    }

    /// Why a bridge is refused at a decision that takes none (BCB-6).
    fn not_now(&self) -> Refusal {
        Refusal::new(
            "BCB-6",
            match self.late {
                None => {
                    "a bridge is laid with the tile placement (`bcb.bridge.timing = \
                     \"with_tile\"`), not now"
                }
                Some(_) => {
                    "a bridge is laid with the tile placement (`bridge`) or after the deploy \
                     action (`late_bridge`), not now"
                }
            },
        )
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
    if on_new {
        if edges_of(mask).any(|e| oriented.edge_kind(e) != EdgeKind::Field) {
            return Some(ends_off_fields());
        }
    } else {
        let beside = Edge::ALL.iter().any(|e| pos.step(*e) == at);
        let Some(id) = board.at(at).filter(|_| beside) else {
            return Some(not_beside());
        };
        if let Some(why) = host_problem(g, id, at, mask, pos) {
            return Some(why);
        }
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
        // A wild edge asks nothing of its neighbour (B-P2).
        if mine != theirs && theirs != EdgeKind::Wild {
            return Some(Refusal::new(
                "B-P2",
                "an edge does not match its neighbour, even with the bridge",
            ));
        }
    }
    g.mechanics
        .on(Hooks::PLACEMENT)
        .find_map(|m| m.placement_allowed(g, tile, pos, rotation))
}

/// BCB-2: a bridge named by no edge.
fn across() -> Refusal {
    Refusal::new(
        "BCB-2",
        "a bridge runs north–south (`N`) or east–west (`E`)",
    )
}

/// BCB-1: a bridge elsewhere.
fn not_beside() -> Refusal {
    Refusal::new(
        "BCB-1",
        "a bridge goes on the tile just placed or on a placed tile beside it",
    )
}

/// BCB-2: an end of the bridge on no field edge.
fn ends_off_fields() -> Refusal {
    Refusal::new(
        "BCB-2",
        "both ends of a bridge lie on field edges of its tile",
    )
}

/// Why a bridge across the placed tile `id` at `at`, reaching the edges `mask`, is refused, if
/// it is: a bridge there already (BCB-1), an end on no field edge of the tile (BCB-2), or an
/// end that meets a tile edge that is no road (B-P2; `pos`, where a new tile goes, is open).
fn host_problem(g: &Game, id: PlacedId, at: Pos, mask: u8, pos: Pos) -> Option<Refusal> {
    if g.board.overlay(id) != 0 {
        return Some(Refusal::new("BCB-1", "that tile has a bridge already"));
    }
    let kind = |e: Edge| g.board.edge_kind(&g.rules.tiles, id, e);
    if edges_of(mask).any(|e| kind(e) != EdgeKind::Field) {
        return Some(ends_off_fields());
    }
    (!edges_of(mask).all(|e| end_open(g, at, e, pos))).then_some(Refusal::new(
        "B-P2",
        "an end of the bridge meets a tile edge that is no road",
    ))
}

/// Whether the end at edge `e` of a bridge across the placed tile at `at` meets a road or an
/// open side (`pos`, where the new tile goes, is one).
fn end_open(g: &Game, at: Pos, e: Edge, pos: Pos) -> bool {
    let beside = at.step(e);
    beside == pos
        || (g.board.at(beside)).is_none_or(|other| {
            g.board.edge_kind(&g.rules.tiles, other, e.opposite()) == EdgeKind::Road
        })
}

/// The axes among `wanted` (bit 0 north–south, bit 1 east–west) along which the placed tile at
/// `at`, beside `pos` where the new tile goes, takes a bridge (BCB-1, BCB-2): it has none yet,
/// and both ends lie on its field edges and meet roads or open sides.
fn host_axes(g: &Game, at: Pos, pos: Pos, wanted: u8) -> u8 {
    let board = &g.board;
    let Some(id) = board.at(at) else {
        return 0;
    };
    let axes = field_axes(board.oriented(&g.rules.tiles, id)) & wanted;
    // A tile with a bridge on it takes no other (its bridged edges are no fields any more).
    if axes == 0 || board.overlay(id) != 0 {
        return 0;
    }
    (AXES.into_iter().enumerate())
        .filter(|(a, (_, axis))| {
            axes & 1 << a != 0 && edges_of(*axis).all(|e| end_open(g, at, e, pos))
        })
        .fold(0, |m, (a, _)| m | 1 << a)
}

/// Whether another mechanic refuses laying `tile` at `pos` turned `rotation`.
fn placement_refused(g: &Game, tile: TileId, pos: Pos, rotation: Rotation) -> bool {
    g.mechanics
        .on(Hooks::PLACEMENT)
        .any(|m| m.placement_allowed(g, tile, pos, rotation).is_some())
}

/// Four bits a side mask, spread to the four rotations of the drawn tile: bit `16 r + e` is
/// edge `e` of rotation `r` (so every rotation is weighed at once).
const LANES: u64 = 0x0001_0001_0001_0001;

/// `mask` (bit `e` for edge `e`) in every rotation's lane.
const fn in_lanes(mask: u8) -> u64 {
    mask as u64 * LANES
}

/// Bit `16 r` set where lane `r` of `x` has no bit among its four sides.
const fn none_in_lane(x: u64) -> u64 {
    !(x | x >> 1 | x >> 2 | x >> 3) & LANES
}

/// What the neighbours of an open position show, side by side (bit `e` for edge `e`): which
/// sides have one and which show a field or a road, and the same in lanes ([`LANES`]) with
/// the sides that show each of the kinds `Field`, `Road`, `City`, `Inner`.
#[derive(Clone, Copy)]
struct Facing {
    present: u8,
    field: u8,
    road: u8,
    present_lanes: u64,
    kind_lanes: [u64; 4],
}

/// [`Facing`] for every [`Needs`] (its index: base 5, digit `e` the kind the neighbour on side
/// `e` shows, or 4 for none; a wild edge asks nothing and reads as none).
static FACING: [Facing; Needs::COUNT] = {
    let mut all = [Facing {
        present: 0,
        field: 0,
        road: 0,
        present_lanes: 0,
        kind_lanes: [0; 4],
    }; Needs::COUNT];
    let mut i = 0;
    while i < Needs::COUNT {
        let (mut rest, mut e, mut kind) = (i, 0, [0u8; 4]);
        while e < 4 {
            let digit = rest % 5;
            if digit < 4 {
                all[i].present |= 1 << e;
                kind[digit] |= 1 << e;
            }
            rest /= 5;
            e += 1;
        }
        all[i].field = kind[EdgeKind::Field as usize];
        all[i].road = kind[EdgeKind::Road as usize];
        all[i].present_lanes = in_lanes(all[i].present);
        let mut k = 0;
        while k < 4 {
            all[i].kind_lanes[k] = in_lanes(kind[k]);
            k += 1;
        }
        i += 1;
    }
    all
};

/// For every packed edge code ([`Oriented::edge_code`]), the axes (bit 0 north–south, bit 1
/// east–west) whose two edges pack as fields.
static FIELD_AXES: [u8; 256] = {
    let mut all = [0u8; 256];
    let mut code = 0;
    while code < 256 {
        // Bits `2 e` of `field` are set where edge `e` packs as 0.
        let field = !(code | code >> 1);
        let north_south = field & 0b0001_0001 == 0b0001_0001;
        let east_west = field & 0b0100_0100 == 0b0100_0100;
        all[code] = north_south as u8 | (east_west as u8) << 1;
        code += 1;
    }
    all
};

/// The axes (bit 0 north–south, bit 1 east–west) whose two edges are printed fields on a tile
/// (a wild edge packs as a field but is none).
fn field_axes(printed: &Oriented) -> u8 {
    let axes = FIELD_AXES[usize::from(printed.edge_code)];
    if printed.wild == 0 {
        return axes;
    }
    axes & !(u8::from(printed.wild & 0b0101 != 0) | u8::from(printed.wild & 0b1010 != 0) << 1)
}

/// The drawn tile's edges of each kind (`Field`, `Road`, `City`, `Inner`; a wild edge is of
/// none) in its four rotations, as lanes ([`LANES`]).
struct Drawn {
    tile: TileId,
    kind: [u64; 4],
    /// For each axis of [`AXES`], the rotations (bit `16 r`) in which both its edges are
    /// fields: those a bridge across the new tile may take.
    field_axes: [u64; 2],
    /// Whether a mechanic filters placements ([`Hooks::PLACEMENT`]).
    filtered: bool,
}

impl Drawn {
    fn new(g: &Game, tile: TileId) -> Drawn {
        let mut kind = [0; 4];
        for r in Rotation::ALL {
            let oriented = g.rules.tiles[usize::from(tile)].at(r);
            for e in 0..4 {
                if oriented.wild & 1 << e == 0 {
                    let packed = usize::from(oriented.edge_code >> (2 * e) & 3);
                    kind[packed] |= 1 << (16 * r.quarters() + e);
                }
            }
        }
        let not_field = !kind[EdgeKind::Field as usize];
        Drawn {
            tile,
            kind,
            field_axes: AXES.map(|(_, axis)| none_in_lane(in_lanes(axis) & not_field)),
            filtered: g.mechanics.any(Hooks::PLACEMENT),
        }
    }
}

/// The legal ways to lay the drawn tile with a bridge at one open position: bit
/// `16 r + 2 h + a` for rotation `r`, the bridge's tile `h` (0 the new one, `1 + e` the placed
/// one on side `e`) and its axis `a` (0 north–south, 1 east–west): the order of the legal list.
/// The new tile's edges are weighed for all four rotations at once, and the tiles beside are
/// asked only about the bridges the new tile's edges leave possible.
#[inline(always)]
fn ways_at(g: &Game, drawn: &Drawn, pos: Pos, needs: Needs) -> u64 {
    let Some(facing) = FACING.get(needs.index()) else {
        return 0;
    };
    let matching =
        (facing.kind_lanes.iter().zip(drawn.kind)).fold(0, |m, (kind, mine)| m | kind & mine);
    let mismatch = facing.present_lanes & !matching;
    let plain = none_in_lane(mismatch);
    let mut ways = 0;
    for (a, (_, axis)) in AXES.into_iter().enumerate() {
        // Across the new tile: both ends on its field edges, meeting roads or open sides, and
        // every other side matching.
        let fields = drawn.field_axes[a];
        if fields != 0 && axis & facing.present & !facing.road == 0 {
            ways |= (fields & none_in_lane(mismatch & !in_lanes(axis))) << a;
        }
    }
    let mut beside = facing.present;
    while beside != 0 {
        let e = beside.trailing_zeros() as usize & 3;
        let side = 1 << e;
        beside &= beside - 1;
        // Along the tile beside: the new tile's road against its field edge is the one side
        // that does not match as printed.
        let along = if facing.field & side != 0 {
            let by_road = (drawn.kind[EdgeKind::Road as usize] >> e) & LANES;
            none_in_lane(mismatch ^ in_lanes(side)) & by_road
        } else {
            0
        };
        // Across the tile beside: every side matching.
        let (ns, ew) = if e & 1 == 0 {
            (along, plain)
        } else {
            (plain, along)
        };
        let wanted = u8::from(ns != 0) | u8::from(ew != 0) << 1;
        if wanted == 0 {
            continue;
        }
        let takes = host_axes(g, pos.step(Edge::from_index(e)), pos, wanted);
        let shift = 2 + 2 * e;
        if takes & 1 != 0 {
            ways |= ns << shift;
        }
        if takes & 2 != 0 {
            ways |= ew << (shift + 1);
        }
    }
    if ways != 0 && drawn.filtered {
        for r in Rotation::ALL {
            let lane = 0x3ff << (16 * r.quarters());
            if ways & lane != 0 && placement_refused(g, drawn.tile, pos, r) {
                ways &= !lane;
            }
        }
    }
    ways
}

/// Calls `found` with each open position (frontier order) where the drawn `tile` may be laid
/// with a bridge, and its ways ([`ways_at`]), until it returns `false`.
fn each_position(g: &Game, tile: TileId, mut found: impl FnMut(Pos, u64) -> bool) {
    let drawn = Drawn::new(g, tile);
    for (pos, needs) in g.board.frontier_needs() {
        let ways = ways_at(g, &drawn, pos, needs);
        if ways != 0 && !found(pos, ways) {
            return;
        }
    }
}

/// The action of the way `bit` of [`ways_at`] at `pos`.
fn way(pos: Pos, bit: u32) -> Action {
    let (r, h, a) = (bit / 16, bit % 16 / 2, bit % 2);
    let at = match h.checked_sub(1) {
        None => pos,
        Some(e) => pos.step(Edge::from_index(e as usize)),
    };
    BcbAction::Bridge {
        pos,
        rotation: Rotation::ALL[r as usize & 3],
        at,
        edge: AXES[a as usize].0,
    }
    .into()
}

/// The ways of `ways` at `pos` as actions, in order.
fn ways_of(pos: Pos, mut ways: u64) -> impl Iterator<Item = Action> {
    std::iter::from_fn(move || {
        (ways != 0).then(|| {
            let bit = ways.trailing_zeros();
            ways &= ways - 1;
            way(pos, bit)
        })
    })
}

/// Calls `found` with every legal way to lay `tile` with a bridge (frontier order, then
/// rotation, then the bridge's tile: the new one, then those beside it from the north
/// clockwise, then north–south before east–west) until it returns `false`.
fn each_bridged(g: &Game, tile: TileId, mut found: impl FnMut(Action) -> bool) {
    each_position(g, tile, |pos, ways| ways_of(pos, ways).all(&mut found));
}

/// How many legal ways there are to lay `tile` with a bridge.
#[inline(never)]
fn count_bridged(g: &Game, tile: TileId) -> usize {
    let mut count = 0;
    each_position(g, tile, |_, ways| {
        count += ways.count_ones() as usize;
        true
    });
    count
}

/// The `n`-th legal way to lay `tile` with a bridge, in the order of [`each_bridged`].
fn nth_bridged(g: &Game, tile: TileId, mut n: usize) -> Option<Action> {
    let mut picked = None;
    each_position(g, tile, |pos, ways| {
        let here = ways.count_ones() as usize;
        if n < here {
            picked = ways_of(pos, ways).nth(n);
            return false;
        }
        n -= here;
        true
    });
    picked
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
    let mask = reach(edge).ok_or_else(|| err(across()))?;
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
    lay_bridge(g, at, mask, edge, events);
    tell_placed(g, events);
}

/// Lays one of the active player's bridges across the tile at `at`, reaching the edges
/// `mask` (checked by the caller), with the tile placed this turn.
fn lay_bridge(g: &mut Game, at: Pos, mask: u8, edge: Spot, events: &mut Vec<Event>) {
    let Some(host) = g.board.at(at) else { return };
    g.add_overlay_road(host, mask);
    let (seat, placed) = (g.active, g.now.placed);
    if let Some(supply) = g.slots.get_mut::<Supply>() {
        if let Some(n) = supply.left.get_mut(seat) {
            *n = n.saturating_sub(1);
        }
        supply.laid_with = placed;
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
}

/// Whether a bridge went with the tile placed this turn already (BCB-1: one a placement).
fn bridged_this_turn(g: &Game) -> bool {
    let laid_with = g.slots.get::<Supply>().and_then(|s| s.laid_with);
    laid_with.is_some() && laid_with == g.now.placed
}

/// The tiles a bridge laid after the placement may cross: the tile placed this turn and the
/// placed tiles beside it (BCB-1), with its position.
fn late_hosts(g: &Game) -> impl Iterator<Item = Pos> + '_ {
    let placed = g.now.placed.map(|id| g.board.placed(id).pos);
    let around = placed
        .into_iter()
        .flat_map(|p| Edge::ALL.map(|e| p.step(e)));
    placed
        .into_iter()
        .chain(around.filter(|p| g.board.at(*p).is_some()))
}

/// Every bridge the active player may lay after his tile placement (BCB-6 `any_time_in_turn`):
/// across the tile laid or one beside it, none there yet, both ends on its field edges and
/// meeting roads or open sides (BCB-1, BCB-2); in the order of [`late_hosts`], north–south
/// first.
fn each_late_bridge(g: &Game, mut found: impl FnMut(Action)) {
    if !has_bridge(g) || bridged_this_turn(g) {
        return;
    }
    for at in late_hosts(g) {
        // Passing `at` as the new tile's position: no tile is still to come beside it.
        let axes = host_axes(g, at, at, 0b11);
        for (a, (edge, _)) in AXES.into_iter().enumerate() {
            if axes & 1 << a != 0 {
                found(BcbAction::LateBridge { at, edge }.into());
            }
        }
    }
}

/// Why a bridge across the tile at `at` from its edge `edge` may not be laid after the
/// placement now, if it may not.
fn late_problem(g: &Game, at: Pos, edge: Spot) -> Option<Refusal> {
    if !has_bridge(g) {
        return Some(Refusal::new("BCB-C2", "you have no bridge left"));
    }
    if bridged_this_turn(g) {
        return Some(Refusal::new(
            "BCB-1",
            "one bridge goes with a tile placement, and yours is laid",
        ));
    }
    let Some(mask) = reach(edge) else {
        return Some(across());
    };
    let Some(id) = g.board.at(at).filter(|_| late_hosts(g).any(|p| p == at)) else {
        return Some(not_beside());
    };
    // Passing `at` as the new tile's position: no tile is still to come beside it.
    host_problem(g, id, at, mask, at)
}

impl Mechanic for Bridges {
    fn name(&self) -> &'static str {
        "bridges"
    }

    fn hooks(&self) -> Hooks {
        let hooks = Hooks::SETUP | Hooks::DRAW | Hooks::ACTIONS | Hooks::ADDS;
        match self.late {
            Some(_) => hooks | Hooks::STAGE,
            None => hooks,
        }
    }

    /// With `any_time_in_turn`, its decision comes after the deploy action.
    fn phases(&self) -> &[Phase] {
        match self.late {
            Some(_) => &[Phase::AfterDeploy],
            None => &[],
        }
    }

    /// BCB-6 `any_time_in_turn`: a player who laid no bridge with his tile may lay one now.
    fn stage(&self, g: &mut Game, _phase: Phase, _events: &mut Vec<Event>) -> Option<Asked> {
        let mut any = false;
        each_late_bridge(g, |_| any = true);
        self.late.filter(|_| any)
    }

    fn decision(&self, g: &Game, asked: Asked) -> Option<Decision> {
        self.is_late(asked).then(|| Decision {
            player: g.active,
            kind: BcbDecision::LateBridge.into(),
        })
    }

    fn may_pass(&self, _g: &Game, asked: Asked) -> bool {
        self.is_late(asked)
    }

    fn hint(&self, _asked: Asked) -> &'static str {
        "a bridge (`late_bridge = [x, y, \"N\"]`) or `pass = true`"
    }

    /// BCB-C2: each player's bridges.
    fn setup(&self, g: &mut Game, _events: &mut Vec<Event>) {
        let n = BcbRules::of(&g.rules).bridge.bridges(g.scores.len());
        g.slots.set(Supply {
            left: [n; MAX_PLAYERS],
            laid_with: None,
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
        if self.is_late(asked) {
            return each_late_bridge(g, |a| out.push(a));
        }
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
        let first = |edge| match edge {
            Spot::Edge(Edge::S) => Spot::Edge(Edge::N),
            Spot::Edge(Edge::W) => Spot::Edge(Edge::E),
            other => other,
        };
        let canonical = match BcbAction::of(action)? {
            BcbAction::Bridge {
                pos,
                rotation,
                at,
                edge,
            } => BcbAction::Bridge {
                pos,
                rotation,
                at,
                edge: first(edge),
            },
            BcbAction::LateBridge { at, edge } => BcbAction::LateBridge {
                at,
                edge: first(edge),
            },
            _ => return None,
        };
        Some(canonical.into())
    }

    fn check(&self, g: &Game, asked: Asked, action: &Action) -> Option<Result<(), RuleError>> {
        if self.is_late(asked) && *action == Action::Pass {
            return Some(Ok(()));
        }
        if let Some(BcbAction::LateBridge { at, edge }) = BcbAction::of(action) {
            let why = if self.is_late(asked) {
                late_problem(g, at, edge)
            } else {
                Some(self.not_now())
            };
            return Some(why.map_or(Ok(()), |why| {
                Err(RuleError::IllegalAction {
                    rule: why.rule,
                    reason: format!("cannot lay a bridge across {at}: {why}"),
                })
            }));
        }
        let bridge = Laid::of(action)?;
        if asked != self.place {
            let why = self.not_now();
            return Some(Err(RuleError::IllegalAction {
                rule: why.rule,
                reason: why.to_string(),
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
        if self.is_late(asked) {
            if let Some(BcbAction::LateBridge { at, edge }) = BcbAction::of(action)
                && let Some(mask) = reach(edge)
            {
                lay_bridge(g, at, mask, edge, events);
            }
            return Some(Then::Next);
        }
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

    /// The ways to lay the drawn tile with a bridge are counted position by position, without
    /// building them.
    fn count_actions(&self, g: &Game, asked: Asked) -> Option<usize> {
        if self.is_late(asked) {
            return None;
        }
        let tile = g.tile.filter(|_| asked == self.place && has_bridge(g));
        Some(tile.map_or(0, |tile| count_bridged(g, tile)))
    }

    fn nth_action(&self, g: &Game, asked: Asked, n: usize, _count: usize) -> Option<Action> {
        let tile = g.tile.filter(|_| asked == self.place && has_bridge(g))?;
        nth_bridged(g, tile, n)
    }
}
