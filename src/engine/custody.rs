//! Figures kept off the features, for any rule that needs them: figures in a player's
//! **custody** (prisoners, held by their captor until freed or exchanged) and figures standing
//! at a **place** that is no feature (on a tile, at a corner where four tiles meet in one field:
//! [`Game::corner_field`]).
//!
//! Both come from their owner's supply and go back to it, so every figure stays counted: a
//! player's figures are on the board, in supply, or here ([`Game::kept_off_features`]). The
//! built-in families and the scripts' host keep them through these operations alone (one piece
//! of code per idea); each logs its own events.

use crate::engine::event::ReturnReason;
use crate::engine::game::Game;
use crate::model::feature::SegId;
use crate::model::figure::{Departure, FigureKind, Place};
use crate::model::geometry::{Edge, Pos, Spot};
use crate::model::tile::FeatureKind;
use std::collections::BTreeMap;

/// Figures kept off the features: a state of the game's own, made when first used.
#[derive(Clone, Debug, Default)]
pub(crate) struct Kept {
    /// Figures in a player's custody: (holder, owner, the kind's place in the figure table)
    /// and how many.
    custody: BTreeMap<(usize, usize, usize), u8>,
    /// Figures at a place: owner, the kind's place in the figure table, place; in the order
    /// they were put.
    placed: Vec<(usize, usize, Place)>,
}

crate::own_state!(Kept);

impl Game {
    fn kept(&self) -> Option<&Kept> {
        self.slots.get::<Kept>()
    }

    /// The place of `kind` in the figure table, with its row known.
    fn table_index(&self, kind: FigureKind) -> Result<usize, String> {
        (self.rules.figures.find(kind).map(|(i, _)| i))
            .ok_or_else(|| format!("this game has no {}", kind.noun()))
    }

    /// Takes one of `owner`'s figures of `kind` from the supply into `holder`'s custody.
    pub(crate) fn hold_in_custody(
        &mut self,
        holder: usize,
        owner: usize,
        kind: FigureKind,
    ) -> Result<(), String> {
        let i = self.take_from_supply(owner, kind)?;
        let held = self.slots.entry::<Kept>().custody.entry((holder, owner, i));
        let held = held.or_default();
        *held = held.saturating_add(1);
        Ok(())
    }

    /// Frees one of `owner`'s figures of `kind` from `holder`'s custody to its owner's supply.
    pub(crate) fn free_from_custody(
        &mut self,
        holder: usize,
        owner: usize,
        kind: FigureKind,
    ) -> Result<(), String> {
        let i = self.table_index(kind)?;
        let custody = &mut self.slots.entry::<Kept>().custody;
        match custody.get_mut(&(holder, owner, i)) {
            Some(n) if *n > 1 => *n -= 1,
            Some(_) => {
                custody.remove(&(holder, owner, i));
            }
            None => {
                return Err(format!(
                    "player {holder} holds no {} of player {owner}",
                    kind.noun()
                ));
            }
        }
        self.supply[owner][i] += 1;
        Ok(())
    }

    /// The figures in `holder`'s custody: each owner and kind with how many, in seat and
    /// figure-table order.
    pub fn custody(&self, holder: usize) -> Vec<(usize, FigureKind, u8)> {
        (self.prisoners().into_iter())
            .filter(|p| p.0 == holder)
            .map(|(_, owner, kind, n)| (owner, kind, n))
            .collect()
    }

    /// Every figure in anyone's custody: holder, owner, kind and how many, in holder, seat and
    /// figure-table order.
    pub fn prisoners(&self) -> Vec<(usize, usize, FigureKind, u8)> {
        self.each_prisoner().collect()
    }

    /// [`Game::prisoners`] without a list made.
    pub fn each_prisoner(&self) -> impl Iterator<Item = (usize, usize, FigureKind, u8)> + '_ {
        let rows = self.rules.figures.rows();
        let custody = self.kept().map(|k| &k.custody);
        (custody.into_iter().flatten())
            .filter_map(|(&(holder, owner, i), n)| rows.get(i).map(|r| (holder, owner, r.kind, *n)))
    }

    /// Takes one of `owner`'s figures of `kind` out of the supply: its place in the figure
    /// table (and so in the supply).
    fn take_from_supply(&mut self, owner: usize, kind: FigureKind) -> Result<usize, String> {
        let i = self.table_index(kind)?;
        let supply = (self.supply.get_mut(owner)).ok_or_else(|| format!("no player {owner}"))?;
        if supply[i] == 0 {
            return Err(format!("player {owner} has no {} in supply", kind.noun()));
        }
        supply[i] -= 1;
        Ok(i)
    }

    /// Puts one of `owner`'s figures of `kind` from the supply at `place` (the caller checked
    /// that the place is free and may hold it).
    pub(crate) fn put_at(
        &mut self,
        owner: usize,
        kind: FigureKind,
        place: Place,
    ) -> Result<(), String> {
        let i = self.take_from_supply(owner, kind)?;
        self.slots.entry::<Kept>().placed.push((owner, i, place));
        Ok(())
    }

    /// Takes the figure at `place` off it, back to its owner's supply, for `reason` (the
    /// mechanics hear it as any figure that leaves the board): its owner and kind (none when
    /// nobody stands there).
    pub(crate) fn lift_from(
        &mut self,
        place: Place,
        reason: ReturnReason,
    ) -> Option<(usize, FigureKind)> {
        let placed = &mut self.slots.get_mut::<Kept>()?.placed;
        let at = placed.iter().position(|f| f.2 == place)?;
        let (owner, i, _) = placed.remove(at);
        self.supply[owner][i] += 1;
        let kind = self.rules.figures.rows()[i].kind;
        self.departed(&Departure::Place { owner, kind, place }, reason);
        Some((owner, kind))
    }

    /// The figure standing at `place`: its owner and kind. (Inline: asked of every tile the
    /// dragon enters, mostly in games where no figure stands at a place.)
    #[inline]
    pub fn figure_at_place(&self, place: Place) -> Option<(usize, FigureKind)> {
        self.find_at_place(self.kept()?, place)
    }

    /// [`Game::figure_at_place`] among the figures `kept`.
    fn find_at_place(&self, kept: &Kept, place: Place) -> Option<(usize, FigureKind)> {
        let (owner, i, _) = *kept.placed.iter().find(|f| f.2 == place)?;
        Some((owner, self.rules.figures.rows().get(i)?.kind))
    }

    /// The figures standing at places that are no feature: owner, kind and place, in the order
    /// they were put.
    pub fn placed_figures(&self) -> Vec<(usize, FigureKind, Place)> {
        self.figures_at_places().collect()
    }

    /// [`Game::placed_figures`] without a list made.
    pub fn figures_at_places(&self) -> impl Iterator<Item = (usize, FigureKind, Place)> + '_ {
        let rows = self.rules.figures.rows();
        let placed = self.kept().map_or(&[][..], |k| &k.placed[..]);
        (placed.iter()).filter_map(|&(owner, i, place)| rows.get(i).map(|r| (owner, r.kind, place)))
    }

    /// The field at the north-east corner of `pos` (a [`Place::Corner`]): one of its segments,
    /// if the four tiles that meet there are all placed and their eight half-edges beside
    /// that point are all field of one feature (a corner a barn may stand on).
    pub fn corner_field(&self, pos: Pos) -> Option<SegId> {
        // (tile, the two half-edges beside its corner at this point): NR+EL, ER+SL, SR+WL,
        // WR+NL (HALF_NAMES order NL NR EL ER SL SR WL WR).
        let quarters = [
            (pos, [1, 2]),
            (pos.step(Edge::N), [3, 4]),
            (pos.step(Edge::N).step(Edge::E), [5, 6]),
            (pos.step(Edge::E), [7, 0]),
        ];
        // Most corners of a tile just laid miss a tile: look for all four before any segment.
        if quarters
            .iter()
            .any(|(tile, _)| self.board.at(*tile).is_none())
        {
            return None;
        }
        let mut field = None;
        for (tile, halves) in quarters {
            for h in halves {
                let seg = self.seg_at(tile, Spot::Half(h))?;
                if self.features.segment(seg).kind != FeatureKind::Field {
                    return None;
                }
                match field {
                    None => field = Some(seg),
                    Some(f) if self.features.same(f, seg) => {}
                    Some(_) => return None,
                }
            }
        }
        field
    }

    /// How many figures stand at places.
    pub(crate) fn placed_count(&self) -> usize {
        self.kept().map_or(0, |k| k.placed.len())
    }

    /// Figures of `player` of the kind at `i` of the figure table in anyone's custody or at a
    /// place (`None`: of every kind).
    pub fn kept_off_features(&self, player: usize, i: Option<usize>) -> u32 {
        let Some(kept) = self.kept() else {
            return 0;
        };
        let kind_ok = |k: usize| i.is_none_or(|i| i == k);
        let custody: u32 = (kept.custody.iter())
            .filter(|((_, owner, k), _)| *owner == player && kind_ok(*k))
            .map(|(_, n)| u32::from(*n))
            .sum();
        let placed = (kept.placed.iter()).filter(|f| f.0 == player && kind_ok(f.1));
        custody + u32::try_from(placed.count()).unwrap_or(u32::MAX)
    }
}
