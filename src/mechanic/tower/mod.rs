//! The Tower (expansion 4; RULES-MORE.md §1, TW-1 to TW-10): tiles with a tower foundation
//! (tag `tower_foundation`, `tiles/tower.toml`), floors each player builds on any foundation or
//! open tower, followers that close a tower from its top, and the capture a new floor allows.
//!
//! A floor or a follower on a tower answers the base game's deployment, as the abbot's recall
//! does, so it is the turn's one deploy action (TW-2, RULES.md §2.1: no fairy move that turn)
//! and it comes before the dragon moves. A follower on top of a tower stands on the tile,
//! not on a feature (`engine::custody`'s places): it scores nothing and no princess removes it
//! (TW-9, X-10). A capture takes a follower within the tower's reach into the captor's custody
//! (`engine::custody`), where it stays until exchanged (TW-7), bought back (TW-8) or the game
//! ends (TW-10). Before offering a capture it asks the other mechanics whether they protect
//! the figure ([`Mechanic::protects`] with [`Taking::Capture`]): P&D's fairy does only under its
//! house rule; the Tower names no other family.

pub mod rules;
pub mod show;
pub mod vocabulary;

use crate::data::ruleset::Ruleset;
use crate::data::section::{FamilyRules, Reader, Switch};
use crate::engine::action::{Action, Decision};
use crate::engine::event::Event;
use crate::engine::family::{Descriptor, Lineup};
use crate::engine::game::{Game, RuleError};
use crate::engine::mechanic::{Asked, Hooks, Mechanic, Phase, Shortcuts, Taking, Then};
use crate::engine::refusal::RuleId;
use crate::mechanic::Family;
use crate::mechanic::base::DEPLOY;
use crate::model::figure::{FigureKind, Place};
use crate::model::geometry::{Edge, Pos};
use rules::TowerRules;
use vocabulary::{TowerAction, TowerDecision, TowerEvent};

/// The Tower as the registry lists it: `[mechanics] tower`, its `[tower]` section, its floors,
/// captures and ransoms.
pub const FAMILY: Family = Family {
    core: Descriptor {
        name: "tower",
        rules: FamilyRules {
            switches: &[Switch {
                name: "tower",
                default: false,
            }],
            section: Some(&Reader::<TowerRules>::NEW),
        },
        vocabulary: Some(vocabulary::words),
        figures: &[],
        build,
    },
    show: Some(&show::Show),
    script: None,
};

/// The tag of a tile with a tower foundation (TW-C1).
pub const FOUNDATION: &str = "tower_foundation";

/// Its decision codes.
const CAPTURE: u8 = 0;
const RANSOM: u8 = 1;

/// Puts the Tower into the game's list when `[mechanics] tower` is on: it answers the base
/// game's deployment and asks its own capture and ransom.
fn build(rules: &Ruleset, list: &mut Lineup) {
    if !rules.switched_on("tower") {
        return;
    }
    let Some(base) = list.index_of("base") else {
        return;
    };
    let classes = &TowerRules::of(rules).top_figures;
    let top = (rules.figures.rows().iter())
        .filter(|r| r.follower.as_ref().is_some_and(|c| classes.contains(c)))
        .map(|r| r.kind)
        .collect();
    list.push(Tower {
        id: list.next(),
        deploy: Asked {
            by: base,
            kind: DEPLOY,
        },
        top,
    });
}

/// One tower: its tile, its floors, and whether a capture of its top left it closed for good
/// (`tower.reopen_after_capture = false`, Q-TW2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TowerAt {
    /// The tile with the foundation.
    pub pos: Pos,
    /// Floors on it (0: an empty foundation).
    pub height: u8,
    /// Closed for good after its top figure was captured.
    pub sealed: bool,
}

/// The Tower's own state.
#[derive(Clone, Debug, Default)]
pub struct Towers {
    /// Every foundation on the board, in the order laid.
    pub towers: Vec<TowerAt>,
    /// Each player's floors left (TW-C3).
    pub floors: Vec<u8>,
    /// The tower a floor was just put on, which may capture: the turn and its tile.
    capture: Option<(u32, Pos)>,
    /// The turn in which the active player bought a prisoner back (TW-8).
    ransomed: Option<u32>,
}

crate::own_state!(Towers);

/// The Tower's state in `g` (none before the family set it up or in a game without it).
pub fn state(g: &Game) -> Option<&Towers> {
    g.slots.get::<Towers>()
}

/// Whether the tower at `t` is closed: a figure stands on top, or a capture sealed it.
pub fn closed(g: &Game, t: &TowerAt) -> bool {
    t.sealed || g.figure_at_place(Place::Tile(t.pos)).is_some()
}

/// The towers of `s` with a figure on top, a bit each ([`topped_bit`]): one look at the
/// figures standing at places instead of one per tower.
fn topped(g: &Game, s: &Towers) -> u64 {
    let mut mask = 0;
    for (_, _, place) in g.figures_at_places() {
        if let Place::Tile(pos) = place {
            let i = s.towers.iter().position(|t| t.pos == pos);
            mask |= i.and_then(topped_bit).unwrap_or(0);
        }
    }
    mask
}

/// The bit of the `i`-th tower in [`topped`]'s mask (none past the 64th, which
/// [`closed`] checks one by one).
fn topped_bit(i: usize) -> Option<u64> {
    (i < 64).then(|| 1 << i)
}

/// The Tower (`[mechanics] tower`).
#[derive(Debug)]
pub struct Tower {
    /// Its index in the game's list.
    id: u8,
    /// The deployment decision, which a floor or a tower's top answers instead.
    deploy: Asked,
    /// The kinds that may close a tower (`tower.top_figures`, TW-3).
    top: Vec<FigureKind>,
}

impl Tower {
    fn asked(&self, kind: u8) -> Asked {
        Asked { by: self.id, kind }
    }

    /// Whether its actions answer `asked`: the deployment (floors and tops) or its own
    /// decisions (capture, ransom).
    fn answers(&self, asked: Asked) -> bool {
        asked == self.deploy || asked.by == self.id
    }

    /// The towers and the active player's floors left, when he may put a floor or a top this
    /// turn (a tile was laid and nothing closed the deployment).
    fn deploying<'g>(&self, g: &'g Game) -> Option<(&'g Towers, u8)> {
        let s = state(g)?;
        if g.now.placed.is_none() || s.towers.is_empty() || g.deploy_closed() {
            return None;
        }
        Some((s, s.floors.get(g.active).copied().unwrap_or(0)))
    }

    /// The kinds of [`Tower::top`] in the active player's supply, in their order.
    fn tops_in_supply<'a>(&'a self, g: &'a Game) -> impl Iterator<Item = FigureKind> + 'a {
        (self.top.iter().copied()).filter(|k| g.supply(g.active, *k) > 0)
    }

    /// Calls `found` with each open tower (in the order laid) and how many answers it gives
    /// (a floor if `floors` is not 0, then a top of each of `tops` kinds if it has a floor),
    /// until it returns `false`: the one walk that listing, counting and picking share.
    fn each_open(
        g: &Game,
        s: &Towers,
        floors: u8,
        tops: usize,
        mut found: impl FnMut(&TowerAt, usize) -> bool,
    ) {
        if floors == 0 && tops == 0 {
            return;
        }
        let topped = topped(g, s);
        for (i, t) in s.towers.iter().enumerate() {
            let open = match topped_bit(i) {
                Some(bit) => !t.sealed && topped & bit == 0,
                None => !closed(g, t),
            };
            let answers = usize::from(floors > 0) + if t.height > 0 { tops } else { 0 };
            if open && answers > 0 && !found(t, answers) {
                return;
            }
        }
    }

    /// Every floor and top the active player may put this turn (TW-2, TW-3, TW-4).
    fn deploys(&self, g: &Game, out: &mut Vec<Action>) {
        let Some((s, floors)) = self.deploying(g) else {
            return;
        };
        let tops = self.tops_in_supply(g).count();
        Tower::each_open(g, s, floors, tops, |t, _| {
            if floors > 0 {
                out.push(TowerAction::Floor { pos: t.pos }.into());
            }
            if t.height > 0 {
                for figure in self.tops_in_supply(g) {
                    out.push(TowerAction::Top { pos: t.pos, figure }.into());
                }
            }
            true
        });
    }

    /// How many floors and tops [`Tower::deploys`] lists.
    fn count_deploys(&self, g: &Game) -> usize {
        let Some((s, floors)) = self.deploying(g) else {
            return 0;
        };
        let mut count = 0;
        Tower::each_open(g, s, floors, self.tops_in_supply(g).count(), |_, n| {
            count += n;
            true
        });
        count
    }

    /// The `n`-th answer [`Tower::deploys`] lists.
    fn nth_deploy(&self, g: &Game, mut n: usize) -> Option<Action> {
        let (s, floors) = self.deploying(g)?;
        let mut at = None;
        Tower::each_open(g, s, floors, self.tops_in_supply(g).count(), |t, here| {
            if n < here {
                at = Some(t.pos);
                return false;
            }
            n -= here;
            true
        });
        let pos = at?;
        if floors > 0 {
            if n == 0 {
                return Some(TowerAction::Floor { pos }.into());
            }
            n -= 1;
        }
        let figure = self.tops_in_supply(g).nth(n)?;
        Some(TowerAction::Top { pos, figure }.into())
    }

    /// Whether the figure of `owner` of `kind` may be taken (TW-6, `tower.capture_own`).
    fn capturable(g: &Game, owner: usize, kind: FigureKind) -> bool {
        let own_ok = owner != g.active || TowerRules::of(&g.rules).capture_own;
        own_ok && (g.rules.figures.row(kind)).is_some_and(|r| r.follower.is_some())
    }

    /// Calls `found` with each capture the tower at `at` allows now (TW-5, TW-6), its tile's
    /// rank in [`reach`]'s order and whether it takes a tower's top, until it returns `false`:
    /// the followers on the tiles in its row and column no farther than its height, in the
    /// board's order, then the figures on those tiles' towers. The board's figures are looked
    /// at once each, not once a tile.
    fn each_capture(g: &Game, at: Pos, mut found: impl FnMut(u32, bool, Action) -> bool) {
        let Some(t) = state(g).and_then(|s| s.towers.iter().find(|t| t.pos == at)) else {
            return;
        };
        // Another family may keep a figure from a capture (P&D's fairy, by a house rule).
        let shielded = |pos: Pos, figure: Option<u32>| {
            (g.mechanics.on(Hooks::ROAMER)).any(|m| m.protects(g, Taking::Capture, pos, figure))
        };
        for f in g.figures.iter() {
            let (pos, spot) = g.figure_spot(f);
            let Some(rank) = reach_rank(t.pos, t.height, pos) else {
                continue;
            };
            if shielded(pos, Some(f.id)) || !Tower::capturable(g, f.owner, f.kind) {
                continue;
            }
            let action = TowerAction::Capture {
                pos,
                spot,
                owner: u8::try_from(f.owner).unwrap_or(u8::MAX),
                figure: f.kind,
            };
            if !found(rank, false, action.into()) {
                return;
            }
        }
        for (_, _, place) in g.figures_at_places() {
            let Place::Tile(pos) = place else { continue };
            let Some(rank) = reach_rank(t.pos, t.height, pos) else {
                continue;
            };
            // The figure the tile's tower shows (the first put there).
            let Some((owner, kind)) = g.figure_at_place(place) else {
                continue;
            };
            let action = TowerAction::CaptureTop { pos }.into();
            if Tower::capturable(g, owner, kind)
                && !shielded(pos, None)
                && !found(rank, true, action)
            {
                return;
            }
        }
    }

    /// Every capture the tower at `at` allows now ([`Tower::each_capture`]): tile by tile in
    /// [`reach`]'s order, on each tile its followers in the board's order, then the figure on
    /// its tower.
    fn captures(g: &Game, at: Pos, out: &mut Vec<Action>) {
        // Each answer with its tile's rank in the reach; a tower's figure after the followers.
        let mut found: Vec<(u32, bool, Action)> = Vec::new();
        Tower::each_capture(g, at, |rank, top, action| {
            found.push((rank, top, action));
            true
        });
        found.sort_by_key(|&(rank, top, _)| (rank, top));
        let from = out.len();
        for (_, _, action) in found {
            if !out[from..].contains(&action) {
                out.push(action);
            }
        }
    }

    /// Every ransom the active player may pay now (TW-8): one per captor and kind of his
    /// figures it holds, if he has the points and paid none this turn.
    fn ransoms(g: &Game) -> impl Iterator<Item = Action> + '_ {
        let points = TowerRules::of(&g.rules).ransom_points;
        let this_turn = |t: u32| t == g.turn || (g.is_extra_turn() && t + 1 == g.turn);
        let open = state(g)
            .is_some_and(|s| !s.ransomed.is_some_and(this_turn) && g.scores[g.active] >= points);
        let prisoners = open.then(|| g.each_prisoner()).into_iter().flatten();
        prisoners
            .filter(|&(holder, owner, _, _)| owner == g.active && holder != owner)
            .map(|(holder, _, figure, _)| {
                let holder = u8::try_from(holder).unwrap_or(u8::MAX);
                TowerAction::Ransom { holder, figure }.into()
            })
    }

    /// Puts a floor on the tower at `pos` and opens the capture it allows.
    fn floor(g: &mut Game, pos: Pos, events: &mut Vec<Event>) {
        let (player, turn) = (g.active, g.turn);
        let s = g.slots.entry::<Towers>();
        let Some(t) = s.towers.iter_mut().find(|t| t.pos == pos) else {
            return;
        };
        t.height = t.height.saturating_add(1);
        let height = u32::from(t.height);
        if let Some(n) = s.floors.get_mut(player) {
            *n = n.saturating_sub(1);
        }
        s.capture = Some((turn, pos));
        events.push(
            TowerEvent::Floor {
                player,
                x: pos.x,
                y: pos.y,
                height,
            }
            .into(),
        );
    }

    /// Puts the active player's `figure` on top of the tower at `pos` (checked by the caller).
    fn close(g: &mut Game, pos: Pos, figure: FigureKind, events: &mut Vec<Event>) {
        if g.put_at(g.active, figure, Place::Tile(pos)).is_ok() {
            events.push(
                TowerEvent::Closed {
                    player: g.active,
                    figure,
                    x: pos.x,
                    y: pos.y,
                }
                .into(),
            );
        }
    }

    /// Carries out a checked capture.
    fn capture(g: &mut Game, action: TowerAction, events: &mut Vec<Event>) {
        let captor = g.active;
        let (owner, kind) = match action {
            TowerAction::Capture {
                pos,
                spot,
                owner,
                figure,
            } => {
                let Some(id) = (g.figures.iter())
                    .find(|f| {
                        usize::from(owner) == f.owner
                            && f.kind == figure
                            && g.figure_spot(f) == (pos, spot)
                    })
                    .map(|f| f.id)
                else {
                    return;
                };
                events.push(captured_event(captor, usize::from(owner), figure, pos));
                g.return_figures(|_, f| f.id == id, vocabulary::captured(), events);
                (usize::from(owner), figure)
            }
            TowerAction::CaptureTop { pos } => {
                let Some((owner, kind)) = g.lift_from(Place::Tile(pos), vocabulary::captured())
                else {
                    return;
                };
                if !TowerRules::of(&g.rules).reopen_after_capture {
                    let s = g.slots.entry::<Towers>();
                    if let Some(t) = s.towers.iter_mut().find(|t| t.pos == pos) {
                        t.sealed = true;
                    }
                }
                events.push(captured_event(captor, owner, kind, pos));
                (owner, kind)
            }
            _ => return,
        };
        if owner != captor && g.hold_in_custody(captor, owner, kind).is_ok() {
            exchange(g, captor, owner, kind, events);
        }
    }

    /// Carries out a checked ransom (TW-8).
    fn ransom(g: &mut Game, holder: usize, figure: FigureKind, events: &mut Vec<Event>) {
        let player = g.active;
        let points = TowerRules::of(&g.rules).ransom_points;
        if g.free_from_custody(holder, player, figure).is_err() {
            return;
        }
        g.scores[player] -= points;
        g.scores[holder] += points;
        g.slots.entry::<Towers>().ransomed = Some(g.turn);
        events.push(
            TowerEvent::Ransomed {
                player,
                holder,
                figure,
                points,
            }
            .into(),
        );
    }

    /// Why `action` is refused, with its rule's id.
    fn refusal(&self, action: &Action, rule: &'static str, why: &str) -> RuleError {
        let what = TowerAction::of(action).map_or_else(
            || "this".to_string(),
            |a| crate::engine::vocabulary::ActionWords::words(&a),
        );
        RuleError::IllegalAction {
            rule: RuleId(rule),
            reason: format!("cannot {what}: {why}"),
        }
    }

    /// Checks `action` against the legal list of `asked`.
    fn check_in(&self, g: &Game, asked: Asked, action: &Action) -> Result<(), RuleError> {
        let mut legal = Vec::new();
        self.actions(g, asked, &mut legal);
        if legal.contains(action) {
            return Ok(());
        }
        Err(match (asked.kind, TowerAction::of(action)) {
            (_, None) => self.refusal(action, "TW-2", "it is no action of the Tower"),
            (_, Some(TowerAction::Ransom { .. })) => self.refusal(
                action,
                "TW-8",
                "no such prisoner of yours, not enough points, or a ransom was paid this turn",
            ),
            (CAPTURE, Some(_)) => self.refusal(
                action,
                "TW-5",
                "no follower it may take stands there within the tower's reach",
            ),
            _ if g.deploy_closed() => self.refusal(
                action,
                "PR5",
                "the princess removed a knight this turn, so nothing may be deployed",
            ),
            _ => self.refusal(
                action,
                "TW-2",
                "no open tower there, or no floor or such figure left in your supply",
            ),
        })
    }
}

/// The tiles a tower at `pos` of `height` floors reaches: its own and, in each of the four
/// directions, up to `height` tiles (TW-5, TW-E1: 1 + 4 × height).
pub fn reach(pos: Pos, height: u8) -> impl Iterator<Item = Pos> {
    let h = i32::from(height);
    std::iter::once(pos).chain(Edge::ALL.into_iter().flat_map(move |e| {
        let (dx, dy) = match e {
            Edge::N => (0, -1),
            Edge::E => (1, 0),
            Edge::S => (0, 1),
            Edge::W => (-1, 0),
        };
        (1..=h).map(move |k| Pos::new(pos.x + dx * k, pos.y + dy * k))
    }))
}

/// The place of the tile at `pos` in [`reach`]'s order for a tower at `tower` of `height`
/// floors (0 its own tile, then the north, east, south and west arms, nearest first), if it
/// is within reach.
fn reach_rank(tower: Pos, height: u8, pos: Pos) -> Option<u32> {
    let h = u32::from(height);
    let (dx, dy) = (pos.x - tower.x, pos.y - tower.y);
    let (arm, k) = match (dx, dy) {
        (0, 0) => return Some(0),
        (0, d) if d < 0 => (0, d.unsigned_abs()),
        (d, 0) if d > 0 => (1, d.unsigned_abs()),
        (0, d) => (2, d.unsigned_abs()),
        (d, 0) => (3, d.unsigned_abs()),
        _ => return None,
    };
    (k <= h).then_some(arm * h + k)
}

fn captured_event(player: usize, owner: usize, figure: FigureKind, at: Pos) -> Event {
    TowerEvent::Captured {
        player,
        owner,
        figure,
        x: at.x,
        y: at.y,
    }
    .into()
}

/// After `captor` took `owner`'s `kind`: if `owner` holds a prisoner of `captor`, the two go
/// home at once (TW-7). `captor` gets back his strongest kind `owner` holds (Q-TW3, decided:
/// the figure its owner would choose; the first in the figure table among equals).
fn exchange(g: &mut Game, captor: usize, owner: usize, kind: FigureKind, events: &mut Vec<Event>) {
    let table = &g.rules.figures;
    let back = (g.custody(owner).into_iter())
        .filter(|(o, _, _)| *o == captor)
        .map(|(_, k, _)| k)
        .reduce(|best, k| {
            if table.strength(k) > table.strength(best) {
                k
            } else {
                best
            }
        });
    let Some(back) = back else {
        return;
    };
    if g.free_from_custody(captor, owner, kind).is_ok()
        && g.free_from_custody(owner, captor, back).is_ok()
    {
        events.push(
            TowerEvent::Exchanged {
                player: captor,
                figure: back,
                other: owner,
                other_figure: kind,
            }
            .into(),
        );
    }
}

impl Mechanic for Tower {
    fn name(&self) -> &'static str {
        "tower"
    }

    fn hooks(&self) -> Hooks {
        Hooks::SETUP | Hooks::STAGE | Hooks::PLACED | Hooks::ACTIONS | Hooks::ADDS | Hooks::FINAL
    }

    fn phases(&self) -> &[Phase] {
        &[Phase::AfterPlace, Phase::Deploy]
    }

    fn setup(&self, g: &mut Game, _events: &mut Vec<Event>) {
        let floors = TowerRules::of(&g.rules).floors(g.scores.len());
        g.slots.entry::<Towers>().floors = vec![floors; g.scores.len()];
    }

    fn placed(&self, g: &mut Game, _events: &mut Vec<Event>) {
        let Some(placed) = g.now.placed else {
            return;
        };
        let tile = g.board.placed(placed);
        if g.rules.tile(tile.tile).has_tag(FOUNDATION) {
            let pos = tile.pos;
            g.slots.entry::<Towers>().towers.push(TowerAt {
                pos,
                height: 0,
                sealed: false,
            });
        }
    }

    fn stage(&self, g: &mut Game, phase: Phase, _events: &mut Vec<Event>) -> Option<Asked> {
        // Asked when there is at least one answer, which is looked for without listing them.
        let (any, kind) = match phase {
            Phase::AfterPlace => (Tower::ransoms(g).next().is_some(), RANSOM),
            Phase::Deploy => {
                let (turn, at) = state(g)?.capture?;
                if turn != g.turn {
                    return None;
                }
                let mut any = false;
                Tower::each_capture(g, at, |_, _, _| {
                    any = true;
                    false
                });
                (any, CAPTURE)
            }
            _ => (false, RANSOM),
        };
        any.then(|| self.asked(kind))
    }

    fn decision(&self, g: &Game, asked: Asked) -> Option<Decision> {
        let kind = match asked.kind {
            CAPTURE => TowerDecision::Capture,
            _ => TowerDecision::Ransom,
        };
        Some(Decision {
            player: g.active,
            kind: kind.into(),
        })
    }

    fn actions(&self, g: &Game, asked: Asked, out: &mut Vec<Action>) {
        if asked == self.deploy {
            self.deploys(g, out);
        } else if asked == self.asked(RANSOM) {
            out.extend(Tower::ransoms(g));
        } else if asked == self.asked(CAPTURE) {
            if let Some((_, at)) = state(g).and_then(|s| s.capture) {
                Tower::captures(g, at, out);
            }
        }
    }

    fn may_pass(&self, _g: &Game, _asked: Asked) -> bool {
        true
    }

    fn hint(&self, asked: Asked) -> &'static str {
        match asked.kind {
            CAPTURE => "a capture (`capture`, `capture_top`) or pass",
            _ => "a ransom (`ransom`) or pass",
        }
    }

    fn check(&self, g: &Game, asked: Asked, action: &Action) -> Option<Result<(), RuleError>> {
        self.answers(asked).then(|| self.check_in(g, asked, action))
    }

    fn apply(
        &self,
        g: &mut Game,
        asked: Asked,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Option<Then> {
        if !self.answers(asked) {
            return None;
        }
        match TowerAction::of(action)? {
            TowerAction::Floor { pos } => Tower::floor(g, pos, events),
            TowerAction::Top { pos, figure } => Tower::close(g, pos, figure, events),
            TowerAction::Ransom { holder, figure } => {
                Tower::ransom(g, usize::from(holder), figure, events);
            }
            capture => Tower::capture(g, capture, events),
        }
        Some(Then::Next)
    }

    /// TW-10: prisoners go back to their owners; towers and their figures score nothing.
    fn game_end(&self, g: &mut Game, events: &mut Vec<Event>) {
        for (holder, player, figure, n) in g.prisoners() {
            for _ in 0..n {
                if g.free_from_custody(holder, player, figure).is_ok() {
                    events.push(
                        TowerEvent::Released {
                            player,
                            holder,
                            figure,
                        }
                        .into(),
                    );
                }
            }
        }
    }
}

impl Shortcuts for Tower {
    /// Its floors and tops answer the base game's deployment; its own decisions are its own.
    fn adds_to(&self, owner: u8) -> bool {
        owner == self.deploy.by
    }

    /// Its floors and tops are counted tower by tower, without building them; its own
    /// decisions are listed.
    fn count_actions(&self, g: &Game, asked: Asked) -> Option<usize> {
        (asked == self.deploy).then(|| self.count_deploys(g))
    }

    fn nth_action(&self, g: &Game, asked: Asked, n: usize, _count: usize) -> Option<Action> {
        (asked == self.deploy).then(|| self.nth_deploy(g, n))?
    }
}
