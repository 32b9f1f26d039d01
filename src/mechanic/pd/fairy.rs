//! The fairy (RULES.md §2.7, FA1–FA12): moved instead of deploying, it bars the dragon from its
//! tile, gives a point at the start of a turn and 3 points when its follower's feature is scored.

use super::rules::{Attach, BonusClaim, BonusWhen, FairyRules, MoveCondition};
use crate::mechanic::pd::rules::PdRules;

use super::vocabulary::{PdAction, PdDecision, PdEvent};
use crate::data::printed::VOLCANO;
use crate::engine::action::{Action, Decision};
use crate::engine::event::{Event, ReturnReason};
use crate::engine::game::{Game, RuleError};
use crate::engine::mechanic::{Asked, Hooks, Mechanic, Phase, Shortcuts, Taking, Then};
use crate::engine::refusal::Refusal;
use crate::model::feature::SegId;
use crate::model::figure::{Departure, Figure, FigureKind, FigureTable, Kinds, Place};
use crate::model::geometry::{Edge, Pos, Spot};

/// Where the fairy stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fairy {
    /// Its tile.
    pub pos: Pos,
    /// The follower (by [`Figure::id`]) it stands next to, in follower mode.
    pub follower: Option<u32>,
    /// That follower's owner and kind, kept with it: whose it is needs no search.
    pub(crate) held_by: Option<(usize, FigureKind)>,
}

impl Fairy {
    /// The fairy on the tile at `pos`, next to the figure `follower` if there is one.
    pub(crate) fn next_to(pos: Pos, follower: Option<&Figure>) -> Fairy {
        Fairy {
            pos,
            follower: follower.map(|f| f.id),
            held_by: follower.map(|f| (f.owner, f.kind)),
        }
    }

    /// The fairy on the tile at `pos`, beside the follower `held` (its owner and kind) that
    /// stands on the tile itself, on no feature (on top of a tower: X-6).
    pub(crate) fn beside_tile(pos: Pos, held: (usize, FigureKind)) -> Fairy {
        Fairy {
            pos,
            follower: None,
            held_by: Some(held),
        }
    }

    /// The follower it stands beside in `g` (its owner and kind): one on a feature, or one
    /// still standing on its tile (a follower there on no feature leaves no word when it goes).
    fn beside(&self, g: &Game) -> Option<(usize, FigureKind)> {
        let held = self.held_by?;
        (self.follower.is_some() || standing_at(g, self.pos).any(|f| f == held)).then_some(held)
    }

    /// The fairy left on its tile, next to no follower (FA11).
    pub(crate) fn unassign(&mut self) {
        self.follower = None;
        self.held_by = None;
    }
}

/// The fairy's own state, kept with the game: where it stands, if it is on the board, and the
/// last turn its turn point was paid. Other rules read it through [`Game::fairy`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct FairyState {
    /// Where it stands.
    at: Option<Fairy>,
    /// The last turn whose start paid its point (FA7).
    paid: Option<u32>,
}

crate::own_state!(FairyState);

/// Where the fairy stands in `g`, if it is on the board.
#[inline]
pub(crate) fn at(g: &Game) -> Option<Fairy> {
    g.slots.get::<FairyState>().and_then(|s| s.at)
}

/// Whether the fairy's turn point was paid at the start of `turn`.
fn paid_on(g: &Game, turn: u32) -> bool {
    g.slots
        .get::<FairyState>()
        .is_some_and(|s| s.paid == Some(turn))
}

/// Puts the fairy where `fairy` says, or off the board.
#[inline]
pub(crate) fn set(g: &mut Game, fairy: Option<Fairy>) {
    g.slots.entry::<FairyState>().at = fairy;
}

/// The rule named by the fairy's scoring bonus in [`Event::Scored`] (FA8).
pub(crate) const BONUS_RULE: &str = "FA8 fairy bonus";

fn fairy_on(g: &Game) -> bool {
    g.rules.switched_on("fairy")
}

/// Whether `player` earns the turn point now (FA7): follower mode, the fairy stands next to
/// one of his followers; tile mode, he has a follower (a kind the fairy `m` counts) on the
/// fairy's tile.
fn fairy_favours(g: &Game, m: &FairyMechanic, player: usize) -> bool {
    let Some(fairy) = at(g) else {
        return false;
    };
    match m.rules.attach {
        Attach::Follower => fairy.beside(g).is_some_and(|(owner, _)| owner == player),
        Attach::Tile => has_follower_on(g, &m.followers, player, fairy.pos),
    }
}

fn has_follower_on(g: &Game, followers: &Kinds, player: usize, pos: Pos) -> bool {
    g.figures
        .iter()
        .any(|f| f.owner == player && g.seg_pos(f.seg) == pos && followers.contains(f.kind))
        || standing_on_tiles(g, followers, player).any(|p| p == pos)
}

/// Where `player`'s followers (kinds in `followers`) stand on a tile itself, on no feature
/// (on top of a tower): the fairy may be moved there too (X-6, seed 004 §Fairy, Exp. 4).
fn standing_on_tiles<'a>(
    g: &'a Game,
    followers: &'a Kinds,
    player: usize,
) -> impl Iterator<Item = Pos> + 'a {
    g.figures_at_places()
        .filter_map(move |(owner, kind, place)| match place {
            Place::Tile(pos) | Place::Side(pos, _)
                if owner == player && followers.contains(kind) =>
            {
                Some(pos)
            }
            _ => None,
        })
}

/// The figures standing on the tile at `pos` itself, on no feature: on top of it (a tower) or
/// on a side it names, the one it shares with its north or east neighbour (a castle between
/// two tiles, RULES-MORE.md BCB-15: the fairy may stand beside its follower on that tile).
fn standing_at(g: &Game, pos: Pos) -> impl Iterator<Item = (usize, FigureKind)> + '_ {
    [
        Place::Tile(pos),
        Place::Side(pos, Edge::N),
        Place::Side(pos, Edge::E),
    ]
    .into_iter()
    .filter_map(move |place| g.figure_at_place(place))
}

/// FA7 at the start of a turn: pay the point, or ask for the claim (house rule A23).
/// FA7: the fairy's point at the start of a turn, paid or (A23) to be claimed; returns
/// whether the player must claim it.
fn fairy_turn_start(g: &mut Game, m: &FairyMechanic, events: &mut Vec<Event>) -> bool {
    let rules = m.rules;
    if rules.turn_bonus == 0 || !fairy_favours(g, m, g.active) {
        return false;
    }
    // FA7: not again in the second half of a builder's double turn (A13; seed 004): only
    // when the first half's start paid it (seed 002, "FAIRY – Exp. 2": the rule forbids
    // scoring it twice, so a fairy moved next to the player's follower in the first half pays
    // at the second half's start).
    if rules.turn_bonus_once_per_turn && g.is_extra_turn() && paid_on(g, g.turn - 1) {
        return false;
    }
    match rules.bonus_claim {
        BonusClaim::Automatic => {
            pay_fairy_turn_point(g, events);
            false
        }
        BonusClaim::ClaimBeforePass => true,
    }
}

/// Pays the active player the fairy's turn point.
pub(crate) fn pay_fairy_turn_point(g: &mut Game, events: &mut Vec<Event>) {
    let points = PdRules::of(&g.rules).fairy.turn_bonus;
    let player = g.active;
    let turn = g.turn;
    g.slots.entry::<FairyState>().paid = Some(turn);
    let event = PdEvent::FairyPoint { player, points }.into();
    g.credit(player, points, event, events);
}

/// Whether the fairy may be moved this turn (FA2, V4, PR5; in a half of a builder's double
/// turn only if `pd.fairy.moves_per_half_turn` is 1, A13).
pub fn fairy_may_move(g: &Game) -> bool {
    let pd = PdRules::of(&g.rules);
    fairy_on(g) && may_move(g, &pd.fairy, pd.volcano.fairy_move)
}

/// [`fairy_may_move`] for a fairy in play (switched on), under its `rules` and
/// `pd.volcano.fairy_move` (`on_volcano`): the cheap tests first, the questions to other
/// mechanics last.
fn may_move(g: &Game, rules: &FairyRules, on_volcano: bool) -> bool {
    g.now.placed.is_some()
        && (rules.moves_per_half_turn > 0 || !g.is_half_turn())
        && (on_volcano || !(g.placed_symbol(VOLCANO) && g.rules.switched_on("volcano")))
        && !g.deploy_closed()
}

/// Every legal fairy move (FA3–FA5, A17, A25); `followers` are the kinds it counts as followers.
pub(crate) fn fairy_actions(g: &Game, m: &FairyMechanic, out: &mut Vec<Action>) {
    if !m.may_move(g) {
        return;
    }
    let (rules, followers) = (m.rules, &m.followers);
    match rules.attach {
        Attach::Follower => out.extend(fairy_moves(g, m)),
        Attach::Tile => {
            let at = at(g).map(|f| f.pos);
            let mut tiles: Vec<Pos> = if rules.needs_follower_on_board {
                g.figures
                    .iter()
                    .filter(|f| f.owner == g.active && followers.contains(f.kind))
                    .map(|f| g.seg_pos(f.seg))
                    .chain(standing_on_tiles(g, followers, g.active))
                    .collect()
            } else {
                g.board.tiles().iter().map(|p| p.pos).collect()
            };
            tiles.sort_unstable();
            tiles.dedup();
            out.extend(
                tiles
                    .into_iter()
                    .filter(|p| Some(*p) != at)
                    .map(|pos| Action::from(PdAction::Fairy { pos, spot: None })),
            );
        }
    }
}

/// In follower mode, the followers (figures of a kind in `followers`) on features the fairy may
/// move next to (FA3, FA4, A25), in the order of the figures: the active player's, but the one
/// it stands next to (and, unless `pd.fairy.reassign_same_tile`, those on its tile). Those
/// standing on a tile itself follow them ([`fairy_tiles`]).
fn fairy_followers<'a>(g: &'a Game, m: &'a FairyMechanic) -> impl Iterator<Item = &'a Figure> {
    let fairy = at(g);
    let current = fairy.and_then(|f| f.follower);
    let followers = &m.followers;
    // The tile the fairy stands on, where it may not stay (unless the rules let it).
    let barred = fairy
        .filter(|_| !m.rules.reassign_same_tile)
        .and_then(|f| g.board.at(f.pos));
    let active = g.active;
    g.figures.iter().filter(move |f| {
        f.owner == active
            && current != Some(f.id)
            && followers.contains(f.kind)
            && barred.is_none_or(|t| g.features.segment(f.seg).placed != t)
    })
}

/// In follower mode, the tiles where one of the active player's followers stands on the tile
/// itself, on no feature (on top of a tower), that the fairy may be moved to (X-6, seed 004
/// §Fairy, Exp. 4): but the one it stands beside (and, unless `pd.fairy.reassign_same_tile`,
/// its own tile).
fn fairy_tiles<'a>(g: &'a Game, m: &'a FairyMechanic) -> impl Iterator<Item = Pos> + 'a {
    let fairy = at(g);
    let barred = fairy.filter(|_| !m.rules.reassign_same_tile).map(|f| f.pos);
    let beside = fairy
        .filter(|f| f.follower.is_none() && f.held_by.is_some() && f.beside(g).is_some())
        .map(|f| f.pos);
    standing_on_tiles(g, &m.followers, g.active)
        .filter(move |pos| Some(*pos) != barred && Some(*pos) != beside)
}

/// Every fairy move of follower mode: next to a follower on a feature, then beside one standing
/// on a tile.
fn fairy_moves<'a>(g: &'a Game, m: &'a FairyMechanic) -> impl Iterator<Item = Action> + 'a {
    let on_features = fairy_followers(g, m).map(|f| move_next_to(g, f));
    let on_tiles = fairy_tiles(g, m).map(|pos| PdAction::Fairy { pos, spot: None }.into());
    on_features.chain(on_tiles)
}

/// The fairy's move next to the follower `f`.
fn move_next_to(g: &Game, f: &Figure) -> Action {
    let (pos, spot) = g.figure_spot(f);
    PdAction::Fairy {
        pos,
        spot: Some(spot),
    }
    .into()
}

/// How many fairy moves [`fairy_actions`] lists, where they can be counted without listing
/// them (in follower mode); `slots` are the figure table's indices of the kinds in `followers`.
fn count_fairy_moves(g: &Game, m: &FairyMechanic) -> Option<usize> {
    if !m.may_move(g) {
        return Some(0);
    }
    if m.rules.attach != Attach::Follower {
        return None;
    }
    let fairy = at(g);
    if fairy.is_some() && !m.rules.reassign_same_tile {
        return Some(fairy_followers(g, m).count() + fairy_tiles(g, m).count());
    }
    let followers = &m.followers;
    // No tile is barred: [`fairy_followers`] are all the player's followers on the board but
    // the one the fairy stands next to, counted without a walk past every figure.
    let current = fairy
        .and_then(|f| f.beside(g))
        .is_some_and(|(owner, kind)| owner == g.active && followers.contains(kind));
    let standing = standing_on_tiles(g, followers, g.active).count();
    let count = g.on_board(g.active, &m.slots) + standing - usize::from(current);
    debug_assert_eq!(count, fairy_moves(g, m).count());
    Some(count)
}

/// The fairy move as the legal list writes it: the follower's canonical spot, or no spot in
/// tile mode.
pub(crate) fn fairy_canonical(g: &Game, m: &FairyMechanic, pos: Pos, spot: Option<Spot>) -> Action {
    let (_, spot) = fairy_target(g, m, pos, spot);
    PdAction::Fairy { pos, spot }.into()
}

/// Where a fairy move to `spot` of the tile at `pos` goes: in follower mode the segment there
/// and the canonical spot of its feature, in tile mode neither.
fn fairy_target(
    g: &Game,
    m: &FairyMechanic,
    pos: Pos,
    spot: Option<Spot>,
) -> (Option<SegId>, Option<Spot>) {
    match m.rules.attach {
        Attach::Tile => (None, None),
        Attach::Follower => {
            let found = spot.and_then(|s| g.seg_spot_at(pos, s));
            (found.map(|(seg, _)| seg), found.map(|(_, s)| s).or(spot))
        }
    }
}

pub(crate) fn check_fairy(
    g: &Game,
    m: &FairyMechanic,
    pos: Pos,
    spot: Option<Spot>,
) -> Result<(), RuleError> {
    let mut legal = Vec::new();
    fairy_actions(g, m, &mut legal);
    if legal.contains(&fairy_canonical(g, m, pos, spot)) {
        return Ok(());
    }
    let why = if !fairy_on(g) {
        Refusal::new(
            "mechanics.fairy",
            "the fairy is switched off in this ruleset",
        )
    } else if !fairy_may_move(g) {
        Refusal::new("FA2", "the fairy may not move this turn (see also V4, PR5)")
    } else if m.rules.attach == Attach::Follower && spot.is_none() {
        Refusal::new("FA3", "name the follower: fairy = [x, y, \"N\"]")
    } else {
        Refusal::new(
            "FA3",
            "the fairy must go to one of your followers (FA4, FA5)",
        )
    };
    Err(RuleError::IllegalAction {
        rule: why.rule,
        reason: format!("cannot move the fairy to {pos}: {why}"),
    })
}

/// Moves the fairy (already checked) next to the follower (a kind the fairy `m` counts) there.
pub(crate) fn move_fairy(
    g: &mut Game,
    m: &FairyMechanic,
    pos: Pos,
    spot: Option<Spot>,
    events: &mut Vec<Event>,
) {
    let (seg, spot) = fairy_target(g, m, pos, spot);
    let follower = seg.and_then(|seg| {
        g.figures
            .iter()
            .find(|f| f.seg == seg && f.owner == g.active && m.followers.contains(f.kind))
    });
    // in follower mode a move that names no feature goes beside the player's follower
    // standing on the tile itself (on top of a tower).
    let standing = (m.rules.attach == Attach::Follower && seg.is_none())
        .then(|| {
            standing_at(g, pos)
                .find(|&(owner, kind)| owner == g.active && m.followers.contains(kind))
        })
        .flatten();
    let fairy = match standing {
        Some(held) => Fairy::beside_tile(pos, held),
        None => Fairy::next_to(pos, follower),
    };
    put(g, fairy, spot, events);
}

/// Puts the fairy at `fairy` (its tile and follower) and logs the move, `spot` naming the
/// feature it stands by: the move of the rules and a script's `move_fairy` alike.
pub(crate) fn put(g: &mut Game, fairy: Fairy, spot: Option<Spot>, events: &mut Vec<Event>) {
    let pos = fairy.pos;
    set(g, Some(fairy));
    events.push(
        PdEvent::FairyMoved {
            player: g.active,
            x: pos.x,
            y: pos.y,
            spot,
        }
        .into(),
    );
}

/// FA8: the fairy's bonus when the feature of `seg` is scored (FA10: not for an abbot
/// recalled early unless `pd.fairy.abbot_recall_bonus`); in tile mode it goes to the owners of
/// followers (kinds the fairy `m` counts) on the fairy's tile.
pub(crate) fn fairy_scoring_bonus(
    g: &mut Game,
    m: &FairyMechanic,
    seg: SegId,
    completed: bool,
    events: &mut Vec<Event>,
) {
    let (rules, followers) = (m.rules, &m.followers);
    let Some(fairy) = at(g) else {
        return;
    };
    // Only the fairy in play (switched on) is asked.
    if rules.scoring_bonus == 0
        || (crate::mechanic::abbot::recalling(g) && !rules.abbot_recall_bonus)
        || (rules.scoring_bonus_when == BonusWhen::CompletedOnly && !completed)
    {
        return;
    }
    let kind = g.features.segment(seg).kind;
    let at = g.seg_pos(seg);
    let mut winners: Vec<usize> = Vec::new();
    match rules.attach {
        Attach::Follower => {
            if let Some(f) = fairy
                .follower
                .and_then(|id| g.figures.iter().find(|f| f.id == id))
                .filter(|f| g.features.same(f.seg, seg))
            {
                winners.push(f.owner);
            }
        }
        Attach::Tile => {
            let crosses = feature_crosses(g, seg, fairy.pos);
            for f in &g.figures {
                let on_tile = g.seg_pos(f.seg) == fairy.pos;
                let counts = if rules.tile_mode_requires_follower_in_feature {
                    g.features.same(f.seg, seg)
                } else {
                    crosses
                };
                if on_tile && counts && followers.contains(f.kind) && !winners.contains(&f.owner) {
                    winners.push(f.owner);
                }
            }
        }
    }
    for player in winners {
        g.award(player, rules.scoring_bonus, kind, BONUS_RULE, at, events);
    }
}

/// Whether the feature of `seg` has a part on the tile at `pos`.
fn feature_crosses(g: &Game, seg: SegId, pos: Pos) -> bool {
    g.board
        .at(pos)
        .is_some_and(|placed| g.tile_segs(placed).any(|s| g.features.same(s, seg)))
}

/// FA11: when the fairy's follower leaves, the fairy stays on its tile, unassigned.
pub(crate) fn fairy_follower_left(g: &mut Game, id: u32) {
    if let Some(fairy) = g.slots.get_mut::<FairyState>().and_then(|s| s.at.as_mut())
        && fairy.follower == Some(id)
    {
        fairy.unassign();
    }
}

/// The fairy's decision: claim the turn point (A23).
const CLAIM: u8 = 0;
/// The fairy's decision: move it after a builder or pig was deployed (FA2, A7).
const AFTER_FIGURE: u8 = 1;

/// Whether the player deployed a figure that is no follower this turn (a builder, a pig) and
/// may still move the fairy: under `pd.fairy.move_condition = "no_follower_placed"` only a
/// follower placed blocks the move (FA2, A7; seeds 000, 001 §The Fairy).
fn moves_after_figure(g: &Game, fairy: &FairyMechanic) -> bool {
    let other = g.now.deployed.is_some_and(|k| !fairy.tagged.contains(k));
    other
        && count_fairy_moves(g, fairy).map_or_else(
            || {
                let mut moves = Vec::new();
                fairy_actions(g, fairy, &mut moves);
                !moves.is_empty()
            },
            |n| n > 0,
        )
}

/// The fairy.
#[derive(Debug)]
pub struct FairyMechanic {
    id: u8,
    /// The deployment decision, where the fairy may be moved instead (FA2).
    deploy: Asked,
    /// Its stages: the turn start, and under `no_follower_placed` also right after the
    /// deployment (before the dragon, D1).
    phases: &'static [Phase],
    /// The figure kinds it counts as followers (their rows' `fairy`, FA1–FA3).
    followers: Kinds,
    /// The figure table's indices of those kinds that the players are given.
    slots: Vec<usize>,
    /// The kinds whose rows are tagged followers (a figure of another kind deployed still
    /// lets it move under `no_follower_placed`, FA2).
    tagged: Kinds,
    /// The game's `[pd.fairy]`, read once (the fairy's questions come at every move).
    rules: FairyRules,
    /// `pd.volcano.fairy_move`: it may move on the turn a volcano is laid (V4).
    on_volcano: bool,
}

impl FairyMechanic {
    /// The fairy as mechanic number `id` of a game; `deploy` is the decision (the base game's
    /// deployment) in which it may be moved instead of deploying a figure; `pd` is the game's
    /// `[pd]` (`pd.fairy.move_condition` says whether a builder or pig deployed there still
    /// lets it move, FA2); `table` is the game's figure table, whose rows say which kinds it
    /// counts as followers.
    pub fn new(id: u8, deploy: Asked, pd: &PdRules, table: &FigureTable) -> FairyMechanic {
        let phases: &'static [Phase] = match pd.fairy.move_condition {
            MoveCondition::NoFigureAction => &[Phase::TurnStart],
            MoveCondition::NoFollowerPlaced => &[Phase::TurnStart, Phase::Deploy],
        };
        FairyMechanic {
            id,
            deploy,
            phases,
            followers: table.kinds(|r| r.can("fairy")),
            // A kind no player is given (`per_player` 0) never stands on the board: its count
            // is left out of every count of the fairy's moves.
            slots: table.slots(|r| r.can("fairy") && r.per_player > 0),
            tagged: table.kinds(|r| r.has_tag("follower")),
            rules: pd.fairy,
            on_volcano: pd.volcano.fairy_move,
        }
    }

    /// Whether it may be moved this turn ([`fairy_may_move`], known to be in play).
    fn may_move(&self, g: &Game) -> bool {
        may_move(g, &self.rules, self.on_volcano)
    }

    fn asked(&self, kind: u8) -> Asked {
        Asked { by: self.id, kind }
    }

    /// Whether `asked` is a decision where the fairy may be moved.
    fn moves_at(&self, asked: Asked) -> bool {
        asked == self.deploy || asked == self.asked(AFTER_FIGURE)
    }

    /// Carries out `action` if it answers `asked` (its claim, its own decision or the
    /// deployment) as the fairy's: [`Mechanic::apply`].
    fn answer(
        &self,
        g: &mut Game,
        asked: Asked,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Option<Then> {
        let pass = *action == Action::Pass;
        match PdAction::of(action) {
            Some(PdAction::Claim) if asked == self.asked(CLAIM) => pay_fairy_turn_point(g, events),
            None if pass && asked == self.asked(CLAIM) => {
                events.push(PdEvent::FairyPointForfeited { player: g.active }.into())
            }
            // The fairy stays where it is.
            None if pass && asked == self.asked(AFTER_FIGURE) => {}
            Some(PdAction::Fairy { pos, spot }) if self.moves_at(asked) => {
                move_fairy(g, self, pos, spot, events)
            }
            _ => return None,
        }
        Some(Then::Next)
    }
}

impl Mechanic for FairyMechanic {
    fn name(&self) -> &'static str {
        "fairy"
    }

    fn hooks(&self) -> Hooks {
        Hooks::STAGE
            | Hooks::ACTIONS
            | Hooks::ADDS
            | Hooks::SCORED
            | Hooks::FIGURE_LEFT
            | Hooks::ROAMER
    }

    fn phases(&self) -> &[Phase] {
        self.phases
    }

    fn stage(&self, g: &mut Game, phase: Phase, events: &mut Vec<Event>) -> Option<Asked> {
        match phase {
            Phase::Deploy => moves_after_figure(g, self).then_some(self.asked(AFTER_FIGURE)),
            _ => fairy_turn_start(g, self, events).then_some(self.asked(CLAIM)),
        }
    }

    fn decision(&self, g: &Game, asked: Asked) -> Option<Decision> {
        let kind = match asked.kind {
            AFTER_FIGURE => PdDecision::FairyMove,
            _ => PdDecision::ClaimFairyPoint,
        };
        Some(Decision {
            player: g.active,
            kind: kind.into(),
        })
    }

    fn actions(&self, g: &Game, asked: Asked, out: &mut Vec<Action>) {
        if asked == self.asked(CLAIM) {
            out.push(PdAction::Claim.into());
        } else if self.moves_at(asked) {
            fairy_actions(g, self, out);
        }
    }

    fn may_pass(&self, _g: &Game, _asked: Asked) -> bool {
        true
    }

    fn hint(&self, asked: Asked) -> &'static str {
        match asked.kind {
            AFTER_FIGURE => "move the fairy (`fairy = [x, y, \"N\"]`) or `pass = true`",
            _ => "claim the fairy's point (`claim = true`) or `pass = true`",
        }
    }

    fn canonical(&self, g: &Game, action: &Action) -> Option<Action> {
        match PdAction::of(action) {
            Some(PdAction::Fairy { pos, spot }) => Some(fairy_canonical(g, self, pos, spot)),
            _ => None,
        }
    }

    fn check(&self, g: &Game, asked: Asked, action: &Action) -> Option<Result<(), RuleError>> {
        match PdAction::of(action) {
            Some(PdAction::Claim) if asked == self.asked(CLAIM) => Some(Ok(())),
            Some(PdAction::Fairy { pos, spot }) if self.moves_at(asked) => {
                Some(check_fairy(g, self, pos, spot))
            }
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
        // The engine routes to it only the P&D actions and passes of its own decisions and
        // the deployment's P&D actions.
        self.answer(g, asked, action, events)
    }

    fn feature_scored(&self, g: &mut Game, seg: SegId, completed: bool, events: &mut Vec<Event>) {
        fairy_scoring_bonus(g, self, seg, completed, events);
    }

    /// A follower on a feature that the fairy stood beside left it (FA11); one on a tile
    /// leaves it by itself (where the fairy stands beside it is read from the tile).
    fn figure_left(&self, g: &mut Game, left: &Departure, _reason: ReturnReason) {
        if let Some(figure) = left.on_feature() {
            fairy_follower_left(g, figure.id);
        }
    }

    /// FA6: under `pd.fairy.blocks_dragon` the dragon may not enter the fairy's tile.
    fn bars_roamer(&self, g: &Game, pos: Pos) -> bool {
        self.rules.blocks_dragon && at(g).is_some_and(|f| f.pos == pos)
    }

    /// FA6 (house rule): under `pd.fairy.protects_tile` the dragon eats nothing on the
    /// fairy's tile. Under `pd.fairy.protects_from_tower` (X-5 and FA10 say it does not) no
    /// capture takes the follower the fairy stands by, or, standing on a tile, that tile's
    /// followers.
    fn protects(&self, g: &Game, taking: Taking, pos: Pos, figure: Option<u32>) -> bool {
        let Some(fairy) = at(g) else {
            return false;
        };
        match taking {
            Taking::Roamer => self.rules.protects_tile && fairy.pos == pos,
            Taking::Capture => {
                self.rules.protects_from_tower
                    && match fairy.follower {
                        Some(id) => figure == Some(id),
                        None => fairy.pos == pos,
                    }
            }
        }
    }
}

impl Shortcuts for FairyMechanic {
    /// Its moves answer the deployment only (FA2).
    fn adds_to(&self, owner: u8) -> bool {
        owner == self.deploy.by
    }

    /// Not to tile laying.
    fn adds_at(&self, asked: Asked) -> bool {
        asked == self.deploy
    }

    fn actions_near(&self, g: &Game, asked: Asked, _pos: Pos, out: &mut Vec<Action>) -> bool {
        // Its moves are left out.
        if asked != self.deploy {
            self.actions(g, asked, out);
        }
        true
    }

    fn count_actions(&self, g: &Game, asked: Asked) -> Option<usize> {
        // Its claim and its moves answer only its own decisions and the deployment.
        if asked == self.asked(CLAIM) {
            Some(1)
        } else if self.moves_at(asked) {
            count_fairy_moves(g, self)
        } else {
            Some(0)
        }
    }

    fn nth_action(&self, g: &Game, asked: Asked, n: usize, _count: usize) -> Option<Action> {
        if asked == self.asked(CLAIM) {
            return (n == 0).then(|| PdAction::Claim.into());
        }
        // Counted moves are follower mode's, asked for only when there are some: the fairy may
        // move (its count is 0 otherwise).
        if !self.moves_at(asked) {
            return None;
        }
        // Next to a follower on a feature (nearly always), else beside one on a tile.
        if let Some(f) = fairy_followers(g, self).nth(n) {
            return Some(move_next_to(g, f));
        }
        let on_features = fairy_followers(g, self).count();
        let pos = fairy_tiles(g, self).nth(n.checked_sub(on_features)?)?;
        Some(PdAction::Fairy { pos, spot: None }.into())
    }
}
