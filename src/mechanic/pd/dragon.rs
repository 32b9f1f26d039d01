//! The dragon (RULES.md §2.3–§2.4, D0–D12): dragon tiles drawn before the first volcano are set
//! aside; once in play, every dragon tile sends the dragon on a journey of up to six steps, each
//! step chosen by the next player clockwise, eating the figures on every tile it enters.

use super::rules::{DragonRules, Menu, MoverOrder, PreVolcano, Timing};
use super::vocabulary::{PdAction, PdDecision, PdEvent};
use crate::data::printed::DRAGON;
use crate::engine::action::{Action, Decision};
use crate::engine::event::Event;
use crate::engine::game::{Game, RuleError, TileSegs};
use crate::engine::mechanic::{Asked, Drawn, Hooks, Mechanic, Phase, Shortcuts, Taking, Then};
use crate::engine::refusal::RuleId;
use crate::mechanic::pd::rules::PdRules;
use crate::mechanic::pd::vocabulary::{EATEN, sent_home};
use crate::model::figure::{Figure, Place};
use crate::model::geometry::{Edge, Pos};
use crate::model::tile::TileId;

/// The dragon's own state (D0–D12), kept with the game: whether it is in play, where it
/// stands, the dragon tiles set aside and the journey of this turn. Other rules read it
/// through [`Game::dragon`] and its siblings.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct DragonState {
    /// Where the dragon stands, if it is on the board.
    pub at: Option<Pos>,
    /// The dragon has entered play (it may be off the board, hidden by a script).
    pub in_play: bool,
    /// Dragon tiles set aside while the dragon is not in play (D0).
    pub set_aside: Vec<TileId>,
    /// The turn on which a journey is due (D2): on no other turn is one due.
    pub due: Option<u32>,
    /// The journey under way.
    pub journey: Option<Journey>,
}

crate::own_state!(DragonState);

/// Copied field by field: a copy made onto another game's state (bots copy a game for every
/// candidate they try) reuses its lists' memory.
impl Clone for DragonState {
    fn clone(&self) -> DragonState {
        let mut copy = DragonState::default();
        copy.clone_from(self);
        copy
    }

    fn clone_from(&mut self, source: &DragonState) {
        // Every field is named, so a new field cannot be forgotten here.
        let DragonState {
            at,
            in_play,
            set_aside,
            due,
            journey,
        } = source;
        self.at = *at;
        self.in_play = *in_play;
        self.set_aside.clone_from(set_aside);
        self.due = *due;
        self.journey.clone_from(journey);
    }
}

/// A dragon journey in progress.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Journey {
    /// Steps taken so far.
    pub steps: u32,
    /// Tiles the dragon may not enter again.
    pub visited: Vec<Pos>,
    /// The edges the dragon may step across next (bit `i` for `Edge::ALL[i]`) as its stage
    /// found them, with the length of the history then: good while no action is taken since.
    pub open: Option<(usize, u8)>,
}

/// Copied field by field, as [`DragonState`].
impl Clone for Journey {
    fn clone(&self) -> Journey {
        let Journey {
            steps,
            visited,
            open,
        } = self;
        Journey {
            steps: *steps,
            visited: visited.clone(),
            open: *open,
        }
    }

    fn clone_from(&mut self, source: &Journey) {
        let Journey {
            steps,
            visited,
            open,
        } = source;
        self.steps = *steps;
        self.visited.clone_from(visited);
        self.open = *open;
    }
}

/// The dragon's state in `g`, if the dragon has any yet.
#[inline]
pub(crate) fn state(g: &Game) -> Option<&DragonState> {
    g.slots.get::<DragonState>()
}

/// The dragon's state in `g` to change (made on first use).
#[inline]
pub(crate) fn state_mut(g: &mut Game) -> &mut DragonState {
    g.slots.entry::<DragonState>()
}

/// Where the dragon stands in `g`, if it is on the board.
#[inline]
pub(crate) fn at(g: &Game) -> Option<Pos> {
    state(g).and_then(|s| s.at)
}

/// Whether the dragon has entered play in `g`.
#[inline]
pub(crate) fn in_play(g: &Game) -> bool {
    state(g).is_some_and(|s| s.in_play)
}

/// The journey under way in `g`.
pub(crate) fn journey(g: &Game) -> Option<&Journey> {
    state(g)?.journey.as_ref()
}

/// Whether a journey is due this turn (D2).
#[inline]
fn journey_due(g: &Game) -> bool {
    state(g).is_some_and(|s| s.due == Some(g.turn))
}

/// Makes a journey due this turn (D2), or none.
pub(crate) fn set_due(g: &mut Game, due: bool) {
    let turn = g.turn;
    let s = state_mut(g);
    s.due = due.then_some(turn);
    if due {
        // A journey left over from an earlier turn is no journey of this one.
        s.journey = None;
    }
}

/// The dragon enters play (if it was not yet) on the tile at `pos`.
pub(crate) fn put(g: &mut Game, pos: Pos) {
    let s = state_mut(g);
    s.at = Some(pos);
    s.in_play = true;
}

/// The dragon leaves the board (it stays in play).
pub(crate) fn hide(g: &mut Game) {
    state_mut(g).at = None;
}

/// The dragon.
#[derive(Debug)]
pub struct Dragon {
    id: u8,
    phase: Phase,
    /// The game's `[pd.dragon]`, read once (asked before every draw and at every step).
    rules: DragonRules,
}

impl Dragon {
    /// The dragon as mechanic number `id` of a game under `rules` (its stage where
    /// `rules.timing` puts it).
    pub fn new(id: u8, rules: &DragonRules) -> Dragon {
        let phase = match rules.timing {
            Timing::AfterTile => Phase::AfterPlace,
            Timing::BeforeScoring => Phase::AfterDeploy,
            Timing::AfterScoring => Phase::AfterScore,
        };
        Dragon {
            id,
            phase,
            rules: *rules,
        }
    }
}

fn is_dragon_tile(g: &Game, tile: TileId) -> bool {
    g.rules.tile(tile).symbol == Some(DRAGON)
}

/// D0: the dragon tile `tile`, drawn before the dragon is in play, is set aside (or, under the
/// house rule, put back into the bag). Out of line, as few draws are such tiles: the look at
/// every draw stays short.
#[cold]
fn put_off(g: &mut Game, tile: TileId, events: &mut Vec<Event>) {
    let name = g.tile_name(tile);
    match PdRules::of(&g.rules).dragon.pre_volcano {
        PreVolcano::SetAsideReshuffle => {
            state_mut(g).set_aside.push(tile);
            events.push(
                PdEvent::TileSetAside {
                    player: g.active,
                    tile: name,
                }
                .into(),
            );
        }
        PreVolcano::ReturnAndRedraw => {
            g.insert_at_random(tile);
            events.push(
                PdEvent::TileReturned {
                    player: g.active,
                    tile: name,
                }
                .into(),
            );
        }
    }
}

/// The seat that makes step `step` (from 1) of the journey (D4) under `order`
/// (`pd.dragon.mover_order`, which the dragon keeps: every step asks).
pub fn mover(g: &Game, order: MoverOrder, step: u32) -> usize {
    match order {
        MoverOrder::ClockwiseFromActive => (g.active + step as usize - 1) % g.scores.len(),
        MoverOrder::ActiveOnly => g.active,
    }
}

/// Tiles the dragon may step onto now (D5): orthogonal neighbours that hold a tile, were not
/// visited on this journey and that no mechanic bars (the fairy, FA6; the Count, D5c). In edge
/// order; nothing is allocated.
pub fn steps(g: &Game) -> impl Iterator<Item = Pos> + '_ {
    let (at, open) = open_now(g);
    (Edge::ALL.into_iter())
        .filter(move |e| open >> *e as u8 & 1 != 0)
        .map(move |e| at.step(e))
}

/// The dragon's tile and the edges it may step across now (none when it is on no tile): what
/// the dragon's stage found, unless an action was taken since (a script's decision that came
/// first).
fn open_now(g: &Game) -> (Pos, u8) {
    let Some((s, at)) = state(g).and_then(|s| Some((s, s.at?))) else {
        return (Pos::new(0, 0), 0);
    };
    let open = match s.journey.as_ref().and_then(|j| j.open) {
        Some((when, open)) if when == g.history.len() => open,
        _ => open_edges(g),
    };
    (at, open)
}

/// The edges across which the dragon may step now ([`steps`]), bit `i` for `Edge::ALL[i]`.
fn open_edges(g: &Game) -> u8 {
    let Some((at, journey)) = state(g).and_then(|s| s.at.zip(s.journey.as_ref())) else {
        return 0;
    };
    let mut open = 0;
    for (i, e) in Edge::ALL.into_iter().enumerate() {
        let q = at.step(e);
        if g.board.at(q).is_some()
            && !journey.visited.contains(&q)
            && !g.mechanics.on(Hooks::ROAMER).any(|m| m.bars_roamer(g, q))
        {
            open |= 1 << i;
        }
    }
    open
}

/// The dragon eats every figure on the tile at `pos` that is on its menu (D7,
/// `pd.dragon.menu`: the figure table's tags `follower`, `builder`, `pig`, `flesh_and_blood`),
/// unless a mechanic protects it (the fairy, FA6) or keeps some figures off the menu; a
/// figure standing on the tile itself (on no feature) is eaten the same way.
pub fn eat(g: &mut Game, pos: Pos, events: &mut Vec<Event>) {
    let Some(tile) = g.board.at(pos) else {
        return;
    };
    // Most tiles the dragon enters hold no figure: nothing else needs looking at. Whether a
    // figure stands there its segment's number tells (a tile's segments are numbered together).
    let segs = g.tile_segs(tile);
    if g.figures.iter().any(|f| segs.contains(&f.seg)) {
        eat_on(g, pos, segs, events);
    }
    if g.figure_at_place(Place::Tile(pos)).is_some() {
        eat_on_tile(g, pos, events);
    }
}

/// The figure table's tags the dragon's menu eats (D7, `pd.dragon.menu`).
fn menu(g: &Game) -> &'static [&'static str] {
    match PdRules::of(&g.rules).dragon.menu {
        Menu::Followers => &["follower"][..],
        Menu::FollowersBuilderPig => &["follower", "builder", "pig"][..],
        Menu::FleshAndBlood => &["flesh_and_blood"][..],
    }
}

/// Whether a mechanic keeps the dragon from eating on the tile at `pos` (FA6's house rule).
fn protected(g: &Game, pos: Pos) -> bool {
    (g.mechanics.on(Hooks::ROAMER)).any(|m| m.protects(g, Taking::Roamer, pos, None))
}

/// [`eat`] of the figure standing on the tile at `pos` itself, on no feature (a follower on
/// top of a tower, RULES-MORE.md X-1), when it is on the menu and nothing protects the tile.
#[inline(never)]
fn eat_on_tile(g: &mut Game, pos: Pos, events: &mut Vec<Event>) {
    if protected(g, pos) {
        return;
    }
    let Some((_, kind)) = g.figure_at_place(Place::Tile(pos)) else {
        return;
    };
    let menu = menu(g);
    let table = &g.rules.figures;
    if !(table.row(kind)).is_some_and(|r| menu.iter().any(|t| r.has_tag(t))) {
        return;
    }
    let reason = sent_home(EATEN);
    if let Some((player, figure)) = g.lift_from(Place::Tile(pos), reason) {
        events.push(Event::FigureReturned {
            player,
            figure,
            x: pos.x,
            y: pos.y,
            reason,
        });
    }
}

/// [`eat`] on the tile at `pos` whose segments are `segs`, where figures stand. Out of line:
/// the look at every tile entered stays short.
#[inline(never)]
fn eat_on(g: &mut Game, pos: Pos, segs: TileSegs, events: &mut Vec<Event>) {
    if protected(g, pos) {
        return;
    }
    let on_tile = |f: &Figure| segs.contains(&f.seg);
    let menu = menu(g);
    let table = &g.rules.figures;
    let mut eaten: Vec<u32> = g
        .figures
        .iter()
        .filter(|f| on_tile(f))
        .filter(|f| {
            table
                .row(f.kind)
                .is_some_and(|r| menu.iter().any(|t| r.has_tag(t)))
        })
        .map(|f| f.id)
        .collect();
    if eaten.is_empty() {
        return;
    }
    let mechanics = g.implementing(Hooks::ROAMER);
    for m in mechanics.iter().flat_map(|m| m.on(Hooks::ROAMER)) {
        m.filter_eaten(g, pos, &mut eaten);
    }
    g.return_figures(|_, f| eaten.contains(&f.id), sent_home(EATEN), events);
}

impl Dragon {
    /// The dragon's stage when a journey is due: start it, ask for the next step, or end it at
    /// a dead end (D6) or after the last step (D3). Out of line: most turns pass the stage with
    /// no journey due, and that check stays short.
    #[inline(never)]
    fn journey(&self, g: &mut Game, events: &mut Vec<Event>) -> Option<Asked> {
        let rules = self.rules;
        let s = state_mut(g);
        let Some(at) = s.at else {
            s.due = None;
            return None;
        };
        let fresh = s.journey.is_none();
        if fresh {
            // Room for every tile of the journey: one allocation, none per step.
            let mut visited = Vec::with_capacity(rules.steps as usize + 1);
            if rules.start_tile_visited {
                visited.push(at);
            }
            s.journey = Some(Journey {
                steps: 0,
                visited,
                open: None,
            });
        }
        let steps_taken = s.journey.as_ref().map_or(0, |j| j.steps);
        if fresh && rules.eat_on_start {
            eat(g, at, events);
        }
        // Found once for the step's legal list and its check too.
        let open = (steps_taken < rules.steps).then(|| open_edges(g));
        let history = g.history.len();
        let s = state_mut(g);
        let reason = match open {
            None => "steps_done",
            Some(0) => "dead_end",
            Some(open) => {
                if let Some(journey) = s.journey.as_mut() {
                    journey.open = Some((history, open));
                }
                return Some(Asked {
                    by: self.id,
                    kind: 0,
                });
            }
        };
        s.due = None;
        s.journey = None;
        events.push(
            PdEvent::JourneyEnded {
                steps: steps_taken,
                reason,
            }
            .into(),
        );
        None
    }

    /// One step of the journey onto `pos` (already checked), eating what is there (D7).
    fn step(&self, g: &mut Game, pos: Pos, events: &mut Vec<Event>) {
        let s = state_mut(g);
        let Some(journey) = s.journey.as_mut() else {
            return;
        };
        journey.steps += 1;
        journey.visited.push(pos);
        let step = journey.steps;
        s.at = Some(pos);
        events.push(
            PdEvent::DragonMoved {
                player: mover(g, self.rules.mover_order, step),
                x: pos.x,
                y: pos.y,
                step,
            }
            .into(),
        );
        eat(g, pos, events);
    }
}

impl Mechanic for Dragon {
    fn name(&self) -> &'static str {
        "dragon"
    }

    fn hooks(&self) -> Hooks {
        Hooks::STAGE | Hooks::DRAW | Hooks::PLACED | Hooks::ACTIONS
    }

    fn phases(&self) -> &[Phase] {
        std::slice::from_ref(&self.phase)
    }

    fn stage(&self, g: &mut Game, _phase: Phase, events: &mut Vec<Event>) -> Option<Asked> {
        if !journey_due(g) {
            return None;
        }
        self.journey(g, events)
    }

    /// D0.3 under the house rule: only dragon tiles are left and no volcano can come, so the
    /// game ends instead of redrawing for ever.
    fn draw_over(&self, g: &Game) -> bool {
        // Asked before every draw: once the dragon is in play nothing else needs reading.
        !in_play(g)
            && self.rules.pre_volcano == PreVolcano::ReturnAndRedraw
            && !g.bag.is_empty()
            && g.bag.iter().all(|t| is_dragon_tile(g, *t))
    }

    /// D0: a dragon tile drawn while the dragon is not in play is set aside (or, under the
    /// house rule, put back into the bag).
    fn held_tiles<'g>(&self, g: &'g Game) -> &'g [TileId] {
        state(g).map_or(&[], |s| &s.set_aside)
    }

    fn drawn(&self, g: &mut Game, tile: TileId, events: &mut Vec<Event>) -> Drawn {
        if !is_dragon_tile(g, tile) || in_play(g) {
            return Drawn::Keep;
        }
        put_off(g, tile, events);
        Drawn::Out
    }

    /// D2: a dragon tile sends the dragon (if on the board) on a journey.
    fn placed(&self, g: &mut Game, _events: &mut Vec<Event>) {
        if g.placed_symbol(DRAGON) && at(g).is_some() {
            set_due(g, true);
        }
    }

    fn decision(&self, g: &Game, _asked: Asked) -> Option<Decision> {
        let step = journey(g).map_or(0, |j| j.steps) + 1;
        Some(Decision {
            player: mover(g, self.rules.mover_order, step),
            kind: PdDecision::DragonStep { step }.into(),
        })
    }

    fn actions(&self, g: &Game, asked: Asked, out: &mut Vec<Action>) {
        if asked.by == self.id {
            // At most one step across each edge: room for all at once, then plain pushes.
            out.reserve(Edge::ALL.len());
            for pos in steps(g) {
                out.push(PdAction::Dragon { pos }.into());
            }
        }
    }

    fn hint(&self, _asked: Asked) -> &'static str {
        "the dragon must move (`dragon = [x, y]`)"
    }

    /// Its steps reach it only at its own decision (the engine routes them).
    fn check(&self, g: &Game, _asked: Asked, action: &Action) -> Option<Result<(), RuleError>> {
        match PdAction::of(action) {
            Some(PdAction::Dragon { pos }) => Some(if steps(g).any(|q| q == pos) {
                Ok(())
            } else {
                g.check_listed(action, RuleId("D5"))
            }),
            _ => None,
        }
    }

    fn apply(
        &self,
        g: &mut Game,
        _asked: Asked,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Option<Then> {
        match PdAction::of(action) {
            Some(PdAction::Dragon { pos }) => self.step(g, pos, events),
            _ => return None,
        }
        // The journey goes on within the same stage.
        Some(Then::Again)
    }
}

/// A random bot counts the dragon's steps and builds only the one it picks: no list of them.
impl Shortcuts for Dragon {
    fn count_actions(&self, g: &Game, asked: Asked) -> Option<usize> {
        Some(if asked.by == self.id {
            open_now(g).1.count_ones() as usize
        } else {
            0
        })
    }

    fn nth_action(&self, g: &Game, asked: Asked, n: usize, _count: usize) -> Option<Action> {
        let pos = steps(g).nth(n).filter(|_| asked.by == self.id)?;
        Some(PdAction::Dragon { pos }.into())
    }
}

#[cfg(test)]
mod tests {
    use super::super::vocabulary::PdDecision;
    use crate::data::ruleset::Ruleset;
    use crate::engine::action::Action;
    use crate::engine::budget::allocations;
    use crate::engine::event::Event;
    use crate::engine::game::{Game, Setup};
    use std::sync::Arc;

    /// A dragon's state copied onto another game's (as bots copy games) equals its source,
    /// whatever the copy held before: with or without a journey, with tiles set aside or not.
    #[test]
    fn a_dragon_state_copied_in_place_equals_its_source() {
        use super::{DragonState, Journey};
        use crate::model::geometry::Pos;
        let journey = |steps: u32, visited: &[(i32, i32)], open| Journey {
            steps,
            visited: visited.iter().map(|&(x, y)| Pos::new(x, y)).collect(),
            open,
        };
        let sources = [
            DragonState {
                at: Some(Pos::new(1, -2)),
                in_play: true,
                set_aside: vec![3, 7],
                due: Some(12),
                journey: Some(journey(2, &[(0, 0), (1, -1), (1, -2)], Some((40, 0b1010)))),
            },
            DragonState {
                at: None,
                in_play: false,
                set_aside: vec![5],
                due: None,
                journey: None,
            },
        ];
        for source in &sources {
            for before in &sources {
                let mut copy = before.clone();
                copy.clone_from(source);
                assert_eq!(&copy, source);
            }
            assert_eq!(&source.clone(), source);
        }
    }

    /// D5–D7 without the heap (issue 11, item 5): listing the dragon's steps and taking one that
    /// eats nothing and leaves the journey going allocates nothing.
    #[test]
    fn a_dragon_step_allocates_nothing() {
        let rules = Ruleset::load("hig").expect("hig loads");
        let mut checked = 0;
        for seed in 0..30u64 {
            let players = vec!["A".to_string(), "B".to_string()];
            let (mut game, _) =
                Game::new(Arc::clone(&rules), Setup::new(players, seed)).expect("the game starts");
            game.history.reserve(1000);
            let (mut events, mut legal) = (Vec::with_capacity(256), Vec::with_capacity(256));
            let mut pick = seed;
            while !game.is_over() {
                let dragon = matches!(
                    PdDecision::of(&game.decision().kind),
                    Some(PdDecision::DragonStep { .. })
                );
                legal.clear();
                events.clear();
                pick = pick
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let before = allocations();
                game.legal_actions(&mut legal);
                let i = (pick >> 33) as usize % legal.len().max(1);
                let action = legal.get(i).copied().unwrap_or(Action::Pass);
                game.apply_legal(&action, &mut events)
                    .expect("a legal action");
                let made = allocations() - before;
                let going = matches!(
                    PdDecision::of(&game.decision().kind),
                    Some(PdDecision::DragonStep { .. })
                );
                let ate = events
                    .iter()
                    .any(|e| matches!(e, Event::FigureReturned { .. }));
                if dragon && going && !ate {
                    assert_eq!(made, 0, "seed {seed}: {action:?} allocated");
                    checked += 1;
                }
            }
        }
        assert!(checked >= 10, "only {checked} dragon steps were looked at");
    }
}
