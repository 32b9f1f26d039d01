//! The base game (RULES.md §1): turns, drawing and laying tiles, deploying followers, scoring
//! roads, cities and cloisters (§1.6–§1.8) and farms (§1.9). The base game is a mechanic like
//! any other: its stages are the turn's skeleton, and the other mechanics hook around them.

pub mod farm;
pub mod rules;
pub mod scoring;
pub mod show;

use crate::data::ruleset::Ruleset;
use crate::data::section::{FamilyRules, Reader, Switch};
use crate::engine::action::{Action, Decision, DecisionKind};
use crate::engine::event::{Event, ReturnReason};
use crate::engine::family::{Descriptor, Lineup};
use crate::engine::game::{Game, RuleError};
use crate::engine::mechanic::{Asked, Hooks, Mechanic, Phase, Shortcuts, Then};
use crate::engine::opening::Opening;
use crate::engine::refusal::Refusal;
use crate::mechanic::Family;
use crate::mechanic::base::rules::BaseRules;
use crate::model::board::PlacedId;
use crate::model::feature::SegId;
use crate::model::figure::{FigureKind, FigureRow, MAX_FIGURES, Stands};
use crate::model::geometry::{Pos, Rotation, Spot};
use crate::model::tile::{FeatureKind, TileId};

/// The base game as the registry lists it: `[mechanics] farmers`, the `[base]` section, the
/// follower. It is in every game.
pub const FAMILY: Family = Family {
    core: Descriptor {
        name: "base",
        rules: FamilyRules {
            switches: SWITCHES,
            section: Some(&Reader::<rules::BaseRules>::NEW),
        },
        vocabulary: None,
        figures: &["follower"],
        build,
    },
    show: Some(&show::Show),
    script: None,
};

/// The switches of the base game: farmers (§1.9), on unless a ruleset switches them off.
const SWITCHES: &[Switch] = &[Switch {
    name: "farmers",
    default: true,
}];

/// Puts the base game into the game's list.
fn build(_rules: &Ruleset, list: &mut Lineup) {
    list.push(Base::new(list.next()));
}

/// The base game's decision: lay the drawn tile.
pub const PLACE: u8 = 0;
/// The base game's decision: deploy a figure (or what other mechanics add), or pass.
pub const DEPLOY: u8 = 1;
/// The base game's decision: lay a tile of a mechanic's own instead of drawing, or pass (and
/// draw; in the last round, let the turn go by).
const OWN: u8 = 2;

/// The base game.
#[derive(Debug)]
pub struct Base {
    id: u8,
}

impl Base {
    /// The base game as mechanic number `id` of a game.
    pub fn new(id: u8) -> Base {
        Base { id }
    }

    fn asked(&self, kind: u8) -> Asked {
        Asked { by: self.id, kind }
    }

    /// A new turn: the same player again (a turn a mechanic gave him), a turn a mechanic
    /// inserted, the next seat, or the last round (or the end of the game) when nothing is left
    /// to draw.
    fn turn_start(&self, g: &mut Game, events: &mut Vec<Event>) -> Option<Asked> {
        let drawing = g.last_round.is_none() && !g.bag.is_empty() && !g.draw_limit_reached();
        // A mechanic may give the player who just played another turn (a builder's).
        let extra = g.implementing(Hooks::EXTRA_TURN).filter(|_| drawing);
        let again = g.turn > 0
            && extra
                .iter()
                .flat_map(|m| m.on(Hooks::EXTRA_TURN))
                .any(|m| m.extra_turn(g));
        if !again && g.mechanics.any(Hooks::INSERTED) && insert_turn(g) {
            begin_turn(g, false, events);
            return None;
        }
        if !drawing {
            return self.last_round_turn(g, events);
        }
        if !again {
            g.active = (g.active + 1) % g.scores.len();
        }
        begin_turn(g, again, events);
        None
    }

    /// A turn of the last round, after the last tile was drawn: the next seat clockwise that
    /// holds a tile of a mechanic's own that fits somewhere ([`Mechanic::own_tile`]), each seat
    /// once, starting after the player who laid the last tile; then the end of the game.
    fn last_round_turn(&self, g: &mut Game, events: &mut Vec<Event>) -> Option<Asked> {
        let seats = g.scores.len();
        let mut left = match g.last_round {
            Some(left) => left,
            None if g.mechanics.any(Hooks::OWN_TILE) => seats as u8,
            None => return g.finish(events),
        };
        while left > 0 {
            left -= 1;
            g.active = (g.active + 1) % seats;
            g.last_round = Some(left);
            if g.own_tile(g.active).is_some() {
                begin_turn(g, false, events);
                return None;
            }
        }
        g.finish(events)
    }

    /// The draw (RULES.md §2.1), unless the player lays a tile of a mechanic's own instead,
    /// which he is offered first. With nothing left to draw the last round begins, at this
    /// seat (or the game ends when no mechanic has tiles of its own).
    fn draw_stage(&self, g: &mut Game, events: &mut Vec<Event>) -> Option<Asked> {
        let inserted = in_inserted_turn(g);
        if g.mechanics.any(Hooks::OWN_TILE) && !g.now.offered && !inserted {
            g.now.offered = true;
            if g.own_tile(g.active).is_some() {
                return Some(self.asked(OWN));
            }
        }
        // An inserted turn whose dealt tile fits nowhere, with nothing left to draw, goes by.
        if g.in_last_round() || g.draw(events) || inserted {
            return None;
        }
        if !g.mechanics.any(Hooks::OWN_TILE) {
            return g.finish(events);
        }
        // This seat is the first of the last round.
        g.last_round = Some(g.scores.len() as u8 - 1);
        g.own_tile(g.active).map(|_| self.asked(OWN))
    }

    /// Lays a tile of a mechanic's own (checked), as the drawn tile would be, and tells the
    /// mechanics that it left its holder's hands.
    fn lay_own(&self, g: &mut Game, pos: Pos, rotation: Rotation, events: &mut Vec<Event>) {
        let Some(tile) = g.own_tile(g.active) else {
            return;
        };
        g.tile = Some(tile);
        self.place(g, pos, rotation, events);
        let mechanics = g.implementing(Hooks::OWN_TILE);
        for m in mechanics.iter().flat_map(|m| m.on(Hooks::OWN_TILE)) {
            m.own_tile_laid(g, tile, events);
        }
    }

    /// Every legal placement of the tile `tile` (drawn or a mechanic's own), the mechanics'
    /// placement filters applied.
    fn placements_of(&self, g: &Game, tile: Option<TileId>, out: &mut Vec<Action>) {
        let Some(tile) = tile else {
            return;
        };
        let filtered = g.mechanics.any(Hooks::PLACEMENT);
        g.board.each_placement(&g.rules.tiles, tile, |p| {
            if !filtered
                || g.tile_placement_problem(Some(tile), p.pos, p.rotation)
                    .is_none()
            {
                out.push(Action::Place {
                    pos: p.pos,
                    rotation: p.rotation,
                });
            }
            true
        });
    }
}

/// Where normal play resumes after the turns the mechanics insert ([`Mechanic::inserted_turn`]):
/// after the seat whose turn it was before the first of them.
#[derive(Clone, Copy, Debug, Default)]
struct Inserted {
    resume_after: Option<usize>,
}

crate::own_state!(Inserted);

/// Gives the turn to the seat a mechanic inserts a turn for, if one does (remembering where
/// normal play resumes); when none does any longer, puts the turn order back where it stood.
/// Returns whether a turn was inserted.
fn insert_turn(g: &mut Game) -> bool {
    let mechanics = std::sync::Arc::clone(&g.mechanics);
    let seat = (mechanics.on(Hooks::INSERTED)).find_map(|m| m.inserted_turn(g));
    let active = g.active;
    let state = g.slots.entry::<Inserted>();
    match seat {
        Some(seat) => {
            state.resume_after.get_or_insert(active);
            g.active = seat;
            true
        }
        None => {
            if let Some(seat) = state.resume_after.take() {
                g.active = seat;
            }
            false
        }
    }
}

/// Whether this turn is one a mechanic inserted ([`Mechanic::inserted_turn`]): not a turn a
/// mechanic gave its player right after one of those (a builder's second tile), which is a turn
/// of his own, drawn from the bag.
fn in_inserted_turn(g: &Game) -> bool {
    !g.now.extra
        && g.mechanics.any(Hooks::INSERTED)
        && (g.slots.get::<Inserted>()).is_some_and(|s| s.resume_after.is_some())
}

/// Starts the active player's turn (`again`: one a mechanic gave him right after his last).
#[inline(always)]
fn begin_turn(g: &mut Game, again: bool, events: &mut Vec<Event>) {
    g.turn += 1;
    g.now = Default::default();
    g.now.extra = again;
    events.push(Event::TurnStarted {
        turn: g.turn,
        player: g.active,
    });
    let begun = g.implementing(Hooks::TURN_BEGUN);
    for m in begun.iter().flat_map(|m| m.on(Hooks::TURN_BEGUN)) {
        m.turn_begun(g, events);
    }
}

impl Base {
    /// Lays the drawn tile (checked) and tells the mechanics.
    #[inline(always)]
    fn place(&self, g: &mut Game, pos: Pos, rotation: Rotation, events: &mut Vec<Event>) {
        if lay_drawn(g, pos, rotation, events).is_some() {
            tell_placed(g, events);
        }
    }

    /// Every legal placement of the drawn tile, the mechanics' placement filters applied.
    fn placements(&self, g: &Game, out: &mut Vec<Action>) {
        self.placements_of(g, g.tile, out);
    }

    /// Whether `asked` is the placement and no mechanic filters placements, so the edge rules
    /// alone decide and the board counts them.
    fn counts_placements(&self, g: &Game, asked: Asked) -> bool {
        asked == self.asked(PLACE) && !g.mechanics.any(Hooks::PLACEMENT)
    }

    /// Every legal deployment: on the tile just laid, or on any tile when a mechanic opens the
    /// whole board (the magic portal); with `near`, only those on the tile at that position.
    fn deployments(&self, g: &Game, near: Option<Pos>, out: &mut Vec<Action>) {
        let Some(placed) = g.now.placed else {
            return;
        };
        // Only the kinds the player has in supply (B-F4) are worth checking: with none left,
        // nothing is.
        let kinds = Candidates::in_supply(g);
        if kinds.is_empty() {
            return;
        }
        let opened = Opened::of(g, &kinds);
        let vetoes = g.mechanics.select(Hooks::DEPLOY, |m| m.vetoes_deploy(g));
        // The tile just laid (B-F2), or every tile when a mechanic opens the board.
        let mut tiles = if opened.is_some() {
            0..g.board.tiles().len() as PlacedId
        } else {
            placed..placed + 1
        };
        if let Some(pos) = near {
            tiles = match g.board.at(pos) {
                Some(t) if tiles.contains(&t) => t..t + 1,
                _ => 0..0,
            };
        }
        // Room for every answer at once (with the portal, one per feature of the board): the
        // tiles' segments are numbered in a row, from the first one's first segment up to the
        // next tile's (no pass over the board to count them).
        let first_seg = |t: PlacedId| {
            g.board
                .tiles()
                .get(t as usize)
                .map_or(g.features.len(), |p| p.seg_base as usize)
        };
        let segments = first_seg(tiles.end).saturating_sub(first_seg(tiles.start));
        make_room(out, segments * kinds.len());
        // The features holding one of the player's followers, for the figures that join one.
        let mut own: Vec<SegId> = Vec::new();
        if kinds.joining != 0 {
            own.reserve_exact(g.figures.len());
            own.extend(own_follower_roots(g, g.active));
        }
        let all = kinds.all();
        for t in tiles {
            let p = g.board.placed(t);
            let own_tile = t == placed;
            // On the other tiles of an opened board the opening's limits are applied here,
            // its mechanic's veto is not asked again for each feature.
            let through = opened.as_ref().filter(|_| !own_tile);
            let (vetoes, open_to) = match through {
                Some(o) if o.opening.shut_tile(p.pos).is_some() => continue,
                Some(o) => (vetoes & !o.by, o.lets_through),
                None => (vetoes, all),
            };
            let oriented = g.board.oriented(&g.rules.tiles, t);
            let features = oriented.features.iter().zip(&oriented.spots);
            let here = Here {
                g,
                kinds: &kinds,
                own: &own,
                open_to,
                through,
                vetoes,
                own_tile,
                pos: p.pos,
            };
            for (seg, (def, &spot)) in (p.seg_base..).zip(features) {
                here.consider(seg, def.kind, spot, out);
            }
            // A road laid across the tile after it was placed (an overlay) is a road too.
            if let Some(seg) = g.board.overlay_seg(t) {
                here.consider(seg, FeatureKind::Road, g.seg_spot(seg).1, out);
            }
        }
    }

    fn check_deploy(
        &self,
        g: &Game,
        pos: Pos,
        spot: Spot,
        figure: FigureKind,
    ) -> Result<(), RuleError> {
        let err = |why: Refusal| RuleError::IllegalAction {
            rule: why.rule,
            reason: format!("cannot deploy at {pos} {spot}: {why}"),
        };
        let seg = g.seg_at(pos, spot).ok_or_else(|| {
            err(Refusal::new(
                "B-F2",
                "there is no tile with a feature there",
            ))
        })?;
        match deploy_problem(g, seg, figure) {
            Some(why) => Err(err(why)),
            None => Ok(()),
        }
    }

    /// Scores what the tile laid this turn completed (unless a mechanic scored it its way).
    fn score(&self, g: &mut Game, events: &mut Vec<Event>) {
        if g.now.scored {
            return;
        }
        let Some(placed) = g.now.placed else {
            return;
        };
        // Most tiles complete nothing, which is told without listing.
        if g.completes_nothing(placed) {
            return;
        }
        for &seg in g.completed_by(placed).iter() {
            score_feature(g, seg, true, events);
        }
    }
}

/// One tile of the listing of deployments ([`Base::deployments`]), with what the listing
/// worked out once for all its features.
struct Here<'a> {
    g: &'a Game,
    kinds: &'a Candidates,
    /// The features holding one of the player's followers, for the figures that join one.
    own: &'a [SegId],
    /// The kinds the board's opening lets through (all when it is the tile just laid).
    open_to: KindSet,
    /// The opening of the board, when the tile is not the one just laid.
    through: Option<&'a Opened>,
    vetoes: u32,
    own_tile: bool,
    pos: Pos,
}

impl Here<'_> {
    /// Lists the deployments on the segment `seg` of the tile, a feature of `kind` at `spot`
    /// (inlined: the loop over a tile's features is the listing's hot path).
    #[inline(always)]
    fn consider(&self, seg: SegId, kind: FeatureKind, spot: Spot, out: &mut Vec<Action>) {
        let (g, kinds) = (self.g, self.kinds);
        let (root, totals) = g.features.root_totals(seg);
        // `occupancy_problem`, with the player's followers found once: one of them stands in
        // the feature only if it is occupied (with the portal, most are).
        let occupied = totals.followers > 0;
        let joinable = || joins(self.own, root);
        let fit = kinds.on(kind) & self.open_to & kinds.free(occupied, joinable);
        let shut = |o: &Opened| {
            o.opening
                .shut_feature(g, seg, kind, &totals, self.pos)
                .is_some()
        };
        if fit == 0 || self.through.is_some_and(shut) {
            return;
        }
        // Every check of `problem` but these follows.
        for figure in kinds.among(fit) {
            if veto_problem(g, seg, figure, self.own_tile, self.vetoes).is_none() {
                out.push(Action::Deploy {
                    pos: self.pos,
                    spot,
                    figure,
                });
            }
        }
    }
}

/// Lays the drawn tile at `pos` turned `rotation` (checked by the caller) as this turn's tile,
/// without telling the mechanics yet ([`tell_placed`]): for a mechanic that answers the
/// placement with more than the tile (a bridge laid with it) and finishes its part first.
/// Returns the placed tile, or `None` when no tile was drawn.
#[inline(always)]
pub fn lay_drawn(
    g: &mut Game,
    pos: Pos,
    rotation: Rotation,
    events: &mut Vec<Event>,
) -> Option<PlacedId> {
    let tile = g.tile.take()?;
    let placed = g.lay(tile, pos, rotation);
    g.now.placed = Some(placed);
    g.now.symbol = g.rules.tile(tile).symbol;
    events.push(Event::TilePlaced {
        player: g.active,
        tile: g.tile_name(tile),
        x: pos.x,
        y: pos.y,
        rotation: rotation.degrees(),
    });
    Some(placed)
}

/// Tells the mechanics that this turn's tile was laid ([`Mechanic::placed`]).
#[inline(always)]
pub fn tell_placed(g: &mut Game, events: &mut Vec<Event>) {
    let mechanics = g.implementing(Hooks::PLACED);
    for m in mechanics.iter().flat_map(|m| m.on(Hooks::PLACED)) {
        m.placed(g, events);
    }
}

/// Why `figure` may not go on segment `seg` now, if it may not: the supply (B-F4), the
/// mechanics' vetoes, farmers switched off, an occupied feature (B-F3), and the tile just laid
/// (B-F2) unless a mechanic opens the board.
pub fn deploy_problem(g: &Game, seg: SegId, figure: FigureKind) -> Option<Refusal> {
    let anywhere = g
        .mechanics
        .find_map(Hooks::ANYWHERE, |m| m.opening(g))
        .is_some();
    problem(
        g,
        seg,
        figure,
        g.mechanics.select(Hooks::DEPLOY, |_| true),
        anywhere,
    )
}

/// [`deploy_problem`] with the mechanics that may object (`vetoes`) and whether the whole board
/// is open (`anywhere`) worked out by the caller.
fn problem(
    g: &Game,
    seg: SegId,
    figure: FigureKind,
    vetoes: u32,
    anywhere: bool,
) -> Option<Refusal> {
    let placed = g.now.placed?;
    let Some((slot, row)) = g.rules.figures.find(figure) else {
        return Some(Refusal::new(
            "figures.table",
            "this ruleset has no such figure (its figure table)",
        ));
    };
    if g.supply[g.active][slot] == 0 {
        return Some(Refusal::new("B-F4", "no follower left in supply"));
    }
    let s = *g.features.segment(seg);
    if let Some(why) = figure_problem(g, row, s.kind) {
        return Some(why);
    }
    if let Some(why) = occupancy_problem(g, row, seg) {
        return Some(why);
    }
    let own_tile = s.placed == placed;
    if let Some(why) = veto_problem(g, seg, figure, own_tile, vetoes) {
        return Some(why);
    }
    (!own_tile && !anywhere).then_some(Refusal::new("B-F2", "figures go on the tile just placed"))
}

/// Why the figure of `row` may not join the feature of `seg` as it stands: an occupied feature
/// (B-F3), or for a figure that joins its owner's follower (a builder, a pig) no such follower.
fn occupancy_problem(g: &Game, row: &FigureRow, seg: SegId) -> Option<Refusal> {
    if row.joins_own {
        return (!has_own_follower(g, g.active, seg)).then_some(Refusal::new(
            "figures.joins_own",
            "this figure goes only into a feature that holds one of your followers",
        ));
    }
    (g.features.totals(seg).followers > 0)
        .then_some(Refusal::new("B-F3", "the feature already has a follower"))
}

/// The features a figure of `row` may stand on at all: those of its figure table, less fields
/// when farmers are switched off (why it may not stand on the others: [`figure_problem`]).
fn stands_on(g: &Game, row: &FigureRow) -> Stands {
    if g.rules.switched_on("farmers") {
        row.stands_on
    } else {
        row.stands_on.without(FeatureKind::Field)
    }
}

/// Why the figure of `row` may not stand on a feature of `kind` at all: its figure table, or
/// farmers switched off (the features it may stand on: [`stands_on`]).
fn figure_problem(g: &Game, row: &FigureRow, kind: FeatureKind) -> Option<Refusal> {
    if !row.stands_on.on(kind) {
        return Some(Refusal::new(
            "figures.stands_on",
            "this figure may not stand on that feature (its figure table)",
        ));
    }
    (kind == FeatureKind::Field && !g.rules.switched_on("farmers")).then_some(Refusal::new(
        "mechanics.farmers",
        "farmers are switched off in this ruleset",
    ))
}

/// Why one of the mechanics of `vetoes` objects to `figure` on the segment `seg` (on the tile
/// laid this turn if `own_tile`), if one does.
fn veto_problem(
    g: &Game,
    seg: SegId,
    figure: FigureKind,
    own_tile: bool,
    vetoes: u32,
) -> Option<Refusal> {
    g.mechanics
        .among(vetoes)
        .find_map(|m| m.deploy_problem(g, seg, figure, own_tile))
}

/// Whether the feature of `root` is among the features `own` where the player has a follower
/// (asked only of an occupied feature, when the player has a figure that joins one: kept out of
/// the listing's loop over segments, which then holds fewer values at once).
#[inline(never)]
fn joins(own: &[SegId], root: SegId) -> bool {
    own.contains(&root)
}

/// Whether `player` has a follower (a figure tagged `follower`) in the feature of `seg`.
pub fn has_own_follower(g: &Game, player: usize, seg: SegId) -> bool {
    let root = g.features.root(seg);
    own_follower_roots(g, player).any(|r| r == root)
}

/// A set of the [`Candidates`] kinds, bit `i` for the `i`-th (room for [`MAX_FIGURES`]).
type KindSet = u16;

/// The figure kinds a player has in supply (B-F4), in table order, and what the listing of
/// deployments asks of each, kept as sets of them (bit `i` for the `i`-th kind) so that a
/// feature is matched against all of them at once.
struct Candidates {
    kinds: [FigureKind; MAX_FIGURES],
    len: usize,
    /// The kinds that may stand on a feature of each kind ([`stands_on`]), by
    /// [`FeatureKind`] index.
    on: [KindSet; FeatureKind::ALL.len()],
    /// The kinds that join their owner's follower (a builder, a pig).
    joining: KindSet,
}

/// The board opened to this turn's deployment ([`Opening`]), as the listing of deployments
/// reads it.
struct Opened {
    opening: Opening,
    /// The mechanic that opened it (its bit in the set of vetoes).
    by: u32,
    /// The kinds of the [`Candidates`] that may go through.
    lets_through: KindSet,
}

impl Opened {
    /// The first opening of the board a mechanic gives this turn, if any.
    fn of(g: &Game, kinds: &Candidates) -> Option<Opened> {
        let (by, opening) = g.mechanics.find_map(Hooks::ANYWHERE, |m| m.opening(g))?;
        Some(Opened {
            opening,
            by,
            lets_through: kinds.which(|kind| opening.lets_through.contains(kind)),
        })
    }
}

impl Candidates {
    /// The kinds the active player has in supply.
    fn in_supply(g: &Game) -> Candidates {
        let mut candidates = Candidates {
            kinds: [FigureKind::Follower; MAX_FIGURES],
            len: 0,
            on: [0; FeatureKind::ALL.len()],
            joining: 0,
        };
        // The rows the player has figures of, found in one look at the whole supply: most
        // rows of the table are kinds nobody has in this game, and late in a game the player
        // often has none left.
        let mut held = held_rows(&g.supply[g.active]);
        let rows = g.rules.figures.rows();
        while held != 0 {
            let i = held.trailing_zeros() as usize;
            held &= held - 1;
            let (Some(row), Some(slot)) = (rows.get(i), candidates.kinds.get_mut(candidates.len))
            else {
                break;
            };
            *slot = row.kind;
            let bit: KindSet = 1 << candidates.len;
            let stands = stands_on(g, row);
            for (on, feature) in candidates.on.iter_mut().zip(FeatureKind::ALL) {
                if stands.on(feature) {
                    *on |= bit;
                }
            }
            if row.joins_own {
                candidates.joining |= bit;
            }
            candidates.len += 1;
        }
        candidates
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn len(&self) -> usize {
        self.len
    }

    /// All the kinds.
    fn all(&self) -> KindSet {
        self.which(|_| true)
    }

    /// The kinds for which `keep` holds.
    fn which(&self, keep: impl Fn(FigureKind) -> bool) -> KindSet {
        let kinds = self.kinds[..self.len].iter().enumerate();
        kinds
            .filter(|(_, kind)| keep(**kind))
            .fold(0, |set, (i, _)| set | 1 << i)
    }

    /// The kinds that may stand on a feature of `kind`.
    fn on(&self, kind: FeatureKind) -> KindSet {
        self.on[kind as usize]
    }

    /// The kinds that may go into a feature as it stands (B-F3): a free one takes any but
    /// those that join their owner's follower, an occupied one only those, and only if
    /// `joinable` (it holds one of the player's followers).
    fn free(&self, occupied: bool, joinable: impl FnOnce() -> bool) -> KindSet {
        match occupied {
            false => !self.joining,
            true if self.joining != 0 && joinable() => self.joining,
            true => 0,
        }
    }

    /// The kinds of a set, in table order.
    fn among(&self, set: KindSet) -> impl Iterator<Item = FigureKind> + '_ {
        let mut set = set;
        std::iter::from_fn(move || {
            (set != 0).then(|| {
                let i = set.trailing_zeros() as usize;
                set &= set - 1;
                self.kinds[i]
            })
        })
    }
}

/// The rows of the figure table of which `supply` holds at least one: bit `i` for row `i`.
/// Read as two words, a byte at a time in parallel (asked at every deployment): the top bit of
/// each byte of `(b & 0x7f) + 0x7f | b` is set where `b` is not 0, and one multiplication
/// gathers a word's eight top bits into its last byte.
fn held_rows(supply: &[u8; MAX_FIGURES]) -> KindSet {
    const _: () = assert!(MAX_FIGURES == 16 && KindSet::BITS == 16);
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let word = |bytes: &[u8]| {
        let mut b = [0u8; 8];
        b.copy_from_slice(bytes);
        let x = u64::from_le_bytes(b);
        let tops = (((x & LOW) + LOW) | x) & !LOW;
        ((tops >> 7).wrapping_mul(GATHER) >> 56) as KindSet
    };
    let (low, high) = supply.split_at(MAX_FIGURES / 2);
    word(low) | word(high) << 8
}

/// Makes room for `more` actions in `out`. An empty list too small for them is made anew
/// rather than grown: growing copies all the old room (a bot's scratch list, cleared, with
/// nothing in it worth copying; with the portal open a deployment lists the whole board).
fn make_room(out: &mut Vec<Action>, more: usize) {
    if out.is_empty() && out.capacity() < more {
        // Twice the old room at least, as growing gives, so that a list reused turn after
        // turn is made anew only a few times a game.
        *out = Vec::with_capacity(more.max(2 * out.capacity()));
    } else {
        out.reserve(more);
    }
}

/// The features (their root segments) where `player` has a follower (a figure tagged
/// `follower`), once for each follower.
fn own_follower_roots(g: &Game, player: usize) -> impl Iterator<Item = SegId> + '_ {
    // The kinds tagged `follower`, read from the table once.
    let followers = g.rules.figures.kinds(|r| r.has_tag("follower"));
    g.figures
        .iter()
        .filter(move |f| f.owner == player && followers.contains(f.kind))
        .map(|f| g.features.root(f.seg))
}

/// Puts a figure from the active player's supply on the feature at `spot` of the tile at
/// `pos` (checked by the caller).
pub fn deploy(g: &mut Game, pos: Pos, spot: Spot, figure: FigureKind, events: &mut Vec<Event>) {
    let Some(seg) = g.seg_at(pos, spot) else {
        return;
    };
    let active = g.active;
    if let Some(s) = g.supply_mut(active, figure) {
        *s -= 1;
    }
    g.put_figure(active, figure, seg);
    g.now.deployed = Some(figure);
    events.push(Event::FigureDeployed {
        player: active,
        figure,
        x: pos.x,
        y: pos.y,
        feature: g.features.segment(seg).kind,
        spot: g.seg_spot(seg).1,
    });
}

/// Scores one road, city or cloister (RULES.md §1.6–§1.7): its majority is paid, then the
/// mechanics' bonuses ([`Mechanic::feature_scored`]); a completed feature's figures go home
/// (B-M3).
pub fn score_feature(g: &mut Game, seg: SegId, completed: bool, events: &mut Vec<Event>) {
    let kind = g.features.segment(seg).kind;
    let at = g.seg_pos(seg);
    let size = g.size(seg);
    if completed {
        events.push(Event::FeatureCompleted {
            feature: kind,
            tiles: size.tiles,
            x: at.x,
            y: at.y,
        });
    }
    let mut points = scoring::value(
        kind,
        size,
        completed,
        BaseRules::of(&g.rules).small_city_two_tiles,
    );
    if g.mechanics.any(Hooks::POINTS) {
        let mechanics = std::sync::Arc::clone(&g.mechanics);
        for m in mechanics.on(Hooks::POINTS) {
            m.feature_points(g, seg, kind, completed, size, &mut points);
        }
    }
    let strength = g.strength(seg);
    let rule = match (kind, completed) {
        (FeatureKind::Road, true) => "§1.6 completed road",
        (FeatureKind::City, true) => "§1.6 completed city",
        (FeatureKind::Cloister, true) => "§1.6 completed cloister",
        (FeatureKind::Garden, true) => "§1.6 completed garden",
        (FeatureKind::Garden, false) => "§1.8 incomplete garden",
        (FeatureKind::Road, false) => "§1.8 incomplete road",
        (FeatureKind::City, false) => "§1.8 incomplete city",
        _ => "§1.8 incomplete cloister",
    };
    g.pay(&strength, points, kind, rule, at, events);
    scored(g, seg, completed, events);
    // The totals count every figure in the feature: most features have none to send home.
    if completed && g.features.totals(seg).followers > 0 {
        g.return_figures(|f, g| f.same(g.seg, seg), ReturnReason::Scored, events);
    }
}

/// Tells the mechanics that the feature of `seg` was scored.
pub(crate) fn scored(g: &mut Game, seg: SegId, completed: bool, events: &mut Vec<Event>) {
    let mechanics = g.implementing(Hooks::SCORED);
    for m in mechanics.iter().flat_map(|m| m.on(Hooks::SCORED)) {
        m.feature_scored(g, seg, completed, events);
    }
}

impl Mechanic for Base {
    fn name(&self) -> &'static str {
        "base"
    }

    fn hooks(&self) -> Hooks {
        Hooks::STAGE | Hooks::ACTIONS | Hooks::FINAL
    }

    fn phases(&self) -> &[Phase] {
        &[
            Phase::TurnStart,
            Phase::Draw,
            Phase::Place,
            Phase::Deploy,
            Phase::Score,
        ]
    }

    fn stage(&self, g: &mut Game, phase: Phase, events: &mut Vec<Event>) -> Option<Asked> {
        match phase {
            Phase::TurnStart => self.turn_start(g, events),
            Phase::Draw => self.draw_stage(g, events),
            // A turn of the last round that the player let go by has nothing to lay or deploy.
            Phase::Place if g.tile.is_some() => Some(self.asked(PLACE)),
            Phase::Deploy if g.now.placed.is_some() => Some(self.asked(DEPLOY)),
            Phase::Score => {
                self.score(g, events);
                None
            }
            _ => None,
        }
    }

    fn decision(&self, g: &Game, asked: Asked) -> Option<Decision> {
        let kind = match asked.kind {
            PLACE => DecisionKind::PlaceTile {
                tile: g.tile.unwrap_or_default(),
            },
            OWN => DecisionKind::PlaceTile {
                tile: g.own_tile(g.active).unwrap_or_default(),
            },
            _ => DecisionKind::Deploy,
        };
        Some(Decision {
            player: g.active,
            kind,
        })
    }

    fn actions(&self, g: &Game, asked: Asked, out: &mut Vec<Action>) {
        match (asked.by == self.id, asked.kind) {
            (true, PLACE) => self.placements(g, out),
            (true, OWN) => self.placements_of(g, g.own_tile(g.active), out),
            (true, _) => self.deployments(g, None, out),
            _ => {}
        }
    }

    fn may_pass(&self, _g: &Game, asked: Asked) -> bool {
        asked.kind != PLACE
    }

    fn hint(&self, asked: Asked) -> &'static str {
        match asked.kind {
            PLACE => "the drawn tile must be placed first (`place = [x, y, rotation]`)",
            OWN => {
                "lay your own tile (`place = [x, y, rotation]`) or `pass = true` (draw, or let the last round's turn go by)"
            }
            _ => {
                "deploy (`deploy = [x, y, \"N\"]`), move the fairy (`fairy = [x, y, \"N\"]`) or `pass = true`"
            }
        }
    }

    /// Placements, deployments and passes reach it only at its own decisions (the engine
    /// routes them).
    fn check(&self, g: &Game, asked: Asked, action: &Action) -> Option<Result<(), RuleError>> {
        match (asked.kind, *action) {
            (PLACE, Action::Place { pos, rotation }) => {
                Some(match g.placement_problem(pos, rotation) {
                    None => Ok(()),
                    Some(why) => Err(RuleError::IllegalPlacement {
                        pos,
                        degrees: rotation.degrees(),
                        why,
                    }),
                })
            }
            (DEPLOY, Action::Deploy { pos, spot, figure }) => {
                Some(self.check_deploy(g, pos, spot, figure))
            }
            (OWN, Action::Place { pos, rotation }) => Some(
                match g.tile_placement_problem(g.own_tile(g.active), pos, rotation) {
                    None => Ok(()),
                    Some(why) => Err(RuleError::IllegalPlacement {
                        pos,
                        degrees: rotation.degrees(),
                        why,
                    }),
                },
            ),
            _ => None,
        }
    }

    fn apply(
        &self,
        g: &mut Game,
        asked: Asked,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Option<Then> {
        match (asked.kind, *action) {
            (PLACE, Action::Place { pos, rotation }) => self.place(g, pos, rotation, events),
            (DEPLOY, Action::Deploy { pos, spot, figure }) => deploy(g, pos, spot, figure, events),
            (OWN, Action::Place { pos, rotation }) => self.lay_own(g, pos, rotation, events),
            // Declined: the draw stage goes on to draw (or lets the turn go by).
            (OWN, _) => return Some(Then::Again),
            _ => {}
        }
        Some(Then::Next)
    }

    /// Final scoring (RULES.md §1.8): incomplete roads, cities and cloisters, then farms.
    fn final_scoring(&self, g: &mut Game, events: &mut Vec<Event>) -> Option<Asked> {
        let mut scored: Vec<SegId> = Vec::new();
        for i in 0..g.figures.len() {
            let seg = g.figures[i].seg;
            let root = g.features.root(seg);
            if g.features.segment(seg).kind != FeatureKind::Field && !scored.contains(&root) {
                scored.push(root);
                score_feature(g, seg, false, events);
            }
        }
        if g.rules.switched_on("farmers") {
            farm::score(g, events);
        }
        None
    }
}

impl Shortcuts for Base {
    fn actions_near(&self, g: &Game, asked: Asked, pos: Pos, out: &mut Vec<Action>) -> bool {
        match (asked.by == self.id, asked.kind) {
            (true, PLACE) => self.placements(g, out),
            (true, OWN) => return false,
            (true, _) => self.deployments(g, Some(pos), out),
            _ => {}
        }
        true
    }

    fn count_actions(&self, g: &Game, asked: Asked) -> Option<usize> {
        self.counts_placements(g, asked).then(|| {
            g.tile
                .map_or(0, |t| g.board.count_placements(&g.rules.tiles, t))
        })
    }

    fn nth_action(&self, g: &Game, asked: Asked, n: usize, count: usize) -> Option<Action> {
        let tile = g.tile.filter(|_| self.counts_placements(g, asked))?;
        let p = g.board.nth_placement(&g.rules.tiles, tile, n, count)?;
        Some(Action::Place {
            pos: p.pos,
            rotation: p.rotation,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{KindSet, MAX_FIGURES, held_rows};

    /// The rows held, read a word at a time, are those a look at each row finds: empty, full,
    /// and random supplies with counts of 1, 128 and anything else.
    #[test]
    fn held_rows_are_the_rows_with_figures() {
        let naive = |supply: &[u8; MAX_FIGURES]| {
            (supply.iter().enumerate())
                .fold(0, |set: KindSet, (i, &n)| set | KindSet::from(n != 0) << i)
        };
        let mut supplies = vec![[0u8; MAX_FIGURES], [255u8; MAX_FIGURES], [1u8; MAX_FIGURES]];
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..10_000 {
            let mut supply = [0u8; MAX_FIGURES];
            for n in supply.iter_mut() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                *n = match seed % 4 {
                    0 => 0,
                    1 => 1,
                    2 => 0x80,
                    _ => (seed >> 8) as u8,
                };
            }
            supplies.push(supply);
        }
        for supply in &supplies {
            assert_eq!(held_rows(supply), naive(supply), "{supply:?}");
        }
    }
}
