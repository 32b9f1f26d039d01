//! The board: placed tiles on a grid, and the frontier of open positions next to them, so
//! legal placements are found without scanning the board.

use crate::model::copylog::CopyLog;
use crate::model::geometry::{Edge, Pos, Rotation};
use crate::model::tile::TileId;
use crate::model::tile::{EdgeKind, Fits, Needs, Oriented, TileType};

/// Index of a placed tile, in placement order.
pub type PlacedId = u16;

/// A tile on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    /// The tile type.
    pub tile: TileId,
    /// Where it lies.
    pub pos: Pos,
    /// How it is turned.
    pub rotation: Rotation,
    /// Id of its first feature segment; its features are `seg_base..seg_base + n`.
    pub seg_base: u32,
}

/// A legal way to lay the drawn tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// Where.
    pub pos: Pos,
    /// Turned how.
    pub rotation: Rotation,
}

const NOT_FRONTIER: u16 = u16::MAX;

/// What the board knows about one grid cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cell {
    /// 0 = empty, else placed index + 1.
    tile: u16,
    /// Index into the frontier, or `NOT_FRONTIER`.
    slot: u16,
    /// How many of the 8 surrounding cells hold tiles (cloister completion).
    around: u8,
    /// For a placed tile, the edges an overlay road crosses ([`Board::add_overlay`]; bit `i`
    /// = edge `i`): 0 on almost every tile.
    overlay: u8,
}

impl Cell {
    /// Whether the cell holds a tile and all 8 cells around it do (a cloister or garden on
    /// it is complete).
    fn surrounded(self) -> bool {
        self.around == 8 && self.tile != 0
    }
}

const EMPTY: Cell = Cell {
    tile: 0,
    slot: NOT_FRONTIER,
    around: 0,
    overlay: 0,
};

/// An open position and what its placed neighbours require: kept up to date as tiles are laid
/// and stored contiguously, so finding every legal placement is a linear scan with one table
/// lookup (the tile type's [`crate::model::tile::Fits`]) per position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Open {
    pos: Pos,
    needs: Needs,
}

/// Radius of a new board; it doubles whenever a tile comes near the border.
const FIRST_RADIUS: i32 = 12;

/// The open position among `opens` that holds the `n`-th placement their `table` allows,
/// counting in their order, and that placement's place among the position's placements.
fn locate<'a>(
    table: &Fits,
    opens: impl Iterator<Item = &'a Open>,
    mut n: usize,
) -> Option<(&'a Open, usize)> {
    for open in opens {
        let here = table.count(open.needs);
        if n < here {
            return Some((open, n));
        }
        n -= here;
    }
    None
}

/// Placed tiles on a square grid centred on the origin that grows as needed.
#[derive(Debug)]
pub struct Board {
    radius: i32,
    width: usize,
    cells: Vec<Cell>,
    /// The positions whose cells may differ from [`EMPTY`]: those of the placed tiles and the
    /// ring around them (a copy copies only these).
    used: Span,
    frontier: Vec<Open>,
    placed: Vec<Placed>,
    /// Whether the newest tile surrounded a tile around it (made a cell of its ring
    /// [`Cell::surrounded`]).
    surrounded: bool,
    /// The overlay roads laid across placed tiles ([`Board::add_overlay`]), in the order they
    /// were laid: the tile and the segment of each (most games have none).
    overlays: Vec<(PlacedId, u32)>,
    /// The cells changed since the board was last copied.
    log: CopyLog,
}

/// A rectangle of positions, from `min` to `max` (both included); empty when `min` lies past
/// `max`.
#[derive(Clone, Copy, Debug)]
struct Span {
    min: Pos,
    max: Pos,
}

impl Span {
    /// No position.
    const NONE: Span = Span {
        min: Pos { x: 1, y: 1 },
        max: Pos { x: 0, y: 0 },
    };

    fn is_empty(self) -> bool {
        self.min.x > self.max.x
    }

    /// The smallest span holding the positions of both.
    fn union(self, other: Span) -> Span {
        if self.is_empty() {
            return other;
        }
        if other.is_empty() {
            return self;
        }
        Span {
            min: Pos::new(self.min.x.min(other.min.x), self.min.y.min(other.min.y)),
            max: Pos::new(self.max.x.max(other.max.x), self.max.y.max(other.max.y)),
        }
    }

    /// This span grown to hold `p` and the ring around it.
    fn around(self, p: Pos) -> Span {
        self.union(Span {
            min: Pos::new(p.x.saturating_sub(1), p.y.saturating_sub(1)),
            max: Pos::new(p.x.saturating_add(1), p.y.saturating_add(1)),
        })
    }
}

/// Copying a board: `clone_from` reuses the copy's memory and, on a grid of the same size,
/// copies only the cells that either board uses (the rest are empty on both). Copied again from
/// the same source (unchanged since), a copy rewrites only the cells it changed.
impl Clone for Board {
    fn clone(&self) -> Board {
        let mut copy = Board::empty();
        copy.clone_from(self);
        copy.forget_source();
        copy
    }

    fn clone_from(&mut self, source: &Board) {
        let Board {
            radius,
            width,
            cells,
            used,
            frontier,
            placed,
            surrounded,
            overlays,
            log,
        } = source;
        let id = log.id();
        if self.log.restorable(id) {
            for i in self.log.changed() {
                self.cells[*i as usize] = cells[*i as usize];
            }
            self.placed.truncate(placed.len());
        } else {
            if self.width == *width && self.radius == *radius {
                self.copy_cells(cells, self.used.union(*used));
            } else {
                self.cells.clone_from(cells);
            }
            self.placed.clone_from(placed);
        }
        self.log.copied(id, cells.len());
        self.radius = *radius;
        self.width = *width;
        self.used = *used;
        self.frontier.clone_from(frontier);
        self.surrounded = *surrounded;
        self.overlays.clone_from(overlays);
    }
}

impl Board {
    /// Stops logging changes for a cheap copy back from the source (for a fresh copy, seldom
    /// copied onto again).
    pub(crate) fn forget_source(&mut self) {
        self.log.stop();
    }

    /// Copies the cells of `span` from `cells`, a grid of the same size.
    fn copy_cells(&mut self, cells: &[Cell], span: Span) {
        if span.is_empty() {
            return;
        }
        let (Some(first), Some(last)) = (self.index(span.min), self.index(span.max)) else {
            // Outside the grid (never, as `reach` makes room): copy all of it.
            self.cells.clone_from_slice(cells);
            return;
        };
        let row = last % self.width - first % self.width + 1;
        for start in (first..=last).step_by(self.width) {
            self.cells[start..start + row].copy_from_slice(&cells[start..start + row]);
        }
    }

    /// An empty board with room for about `tiles` tiles.
    pub fn new(tiles: usize) -> Board {
        let radius = FIRST_RADIUS;
        let width = (2 * radius + 1) as usize;
        Board {
            radius,
            width,
            cells: vec![EMPTY; width * width],
            used: Span::NONE,
            frontier: Vec::with_capacity(tiles),
            placed: Vec::with_capacity(tiles),
            surrounded: false,
            overlays: Vec::new(),
            log: CopyLog::default(),
        }
    }

    /// A board with no grid at all (a stand-in that allocates nothing).
    pub(crate) fn empty() -> Board {
        Board {
            radius: 0,
            width: 0,
            cells: Vec::new(),
            used: Span::NONE,
            frontier: Vec::new(),
            placed: Vec::new(),
            surrounded: false,
            overlays: Vec::new(),
            log: CopyLog::default(),
        }
    }

    fn index(&self, p: Pos) -> Option<usize> {
        // A coordinate inside the grid lies in 0..width once shifted by the radius; any other
        // (below it, or wrapping past `i32::MAX`) ends up negative, so past `width` as unsigned.
        let x = p.x.wrapping_add(self.radius) as u32 as usize;
        let y = p.y.wrapping_add(self.radius) as u32 as usize;
        (x < self.width && y < self.width).then(|| y * self.width + x)
    }

    /// The cells next to cell `i` across each edge (in [`Edge::ALL`] order) and the ring of
    /// eight around it (in [`Pos::ring`] order), for a cell that [`Board::reach`] made room
    /// around.
    fn around(&self, i: usize) -> ([usize; 4], [usize; 8]) {
        let w = self.width;
        let (n, s) = (i - w, i + w);
        (
            [n, i + 1, s, i - 1],
            [n, n + 1, i + 1, s + 1, s, s - 1, i - 1, n - 1],
        )
    }

    /// Makes sure `p` and the ring around its neighbours lie inside the grid.
    fn reach(&mut self, p: Pos) {
        let need = p.x.unsigned_abs().max(p.y.unsigned_abs()).saturating_add(2);
        let need = i32::try_from(need).unwrap_or(i32::MAX);
        if need <= self.radius {
            return;
        }
        let mut radius = self.radius;
        while radius < need {
            radius *= 2;
        }
        self.log.change_all();
        let width = (2 * radius + 1) as usize;
        let mut cells = vec![EMPTY; width * width];
        // Each old row lands in the middle of a new one, `radius - self.radius` cells in.
        let shift = (radius - self.radius) as usize;
        for (y, row) in self.cells.chunks_exact(self.width).enumerate() {
            let start = (y + shift) * width + shift;
            cells[start..start + self.width].copy_from_slice(row);
        }
        self.radius = radius;
        self.width = width;
        self.cells = cells;
    }

    /// The tile at `p`, if any.
    pub fn at(&self, p: Pos) -> Option<PlacedId> {
        let i = self.index(p)?;
        match self.cells[i].tile {
            0 => None,
            v => Some(v - 1),
        }
    }

    /// A placed tile.
    pub fn placed(&self, id: PlacedId) -> &Placed {
        &self.placed[id as usize]
    }

    /// All placed tiles, in placement order.
    pub fn tiles(&self) -> &[Placed] {
        &self.placed
    }

    /// Open positions next to placed tiles.
    pub fn frontier(&self) -> impl Iterator<Item = Pos> + '_ {
        self.frontier.iter().map(|o| o.pos)
    }

    /// Open positions next to placed tiles, each with what its neighbours ask of a tile laid
    /// there.
    pub fn frontier_needs(&self) -> impl Iterator<Item = (Pos, Needs)> + '_ {
        self.frontier.iter().map(|o| (o.pos, o.needs))
    }

    /// Whether `p` is an open position next to a placed tile.
    pub fn is_open(&self, p: Pos) -> bool {
        self.index(p)
            .is_some_and(|i| self.cells[i].slot != NOT_FRONTIER)
    }

    /// Puts a tile on the board (legality is the caller's business) and returns its id.
    /// `oriented` is the tile in this rotation.
    pub fn put(
        &mut self,
        tile: TileId,
        pos: Pos,
        rotation: Rotation,
        seg_base: u32,
        oriented: &Oriented,
    ) -> PlacedId {
        self.reach(pos);
        self.log.grow();
        self.used = self.used.around(pos);
        let id = self.placed.len() as PlacedId;
        self.placed.push(Placed {
            tile,
            pos,
            rotation,
            seg_base,
        });
        // `reach` made room for the tile and the ring around its neighbours.
        let Some(i) = self.index(pos) else {
            self.surrounded = false;
            return id;
        };
        let (edges, ring) = self.around(i);
        self.log.changes([i]);
        self.log.changes(ring);
        self.cells[i].tile = id + 1;
        self.leave_frontier(i);
        // Borrowed apart, the grid and the frontier stay put while the other grows.
        let (cells, frontier) = (&mut self.cells[..], &mut self.frontier);
        for (e, i) in Edge::ALL.into_iter().zip(edges) {
            let cell = &mut cells[i];
            if cell.tile != 0 {
                continue;
            }
            if cell.slot == NOT_FRONTIER {
                cell.slot = frontier.len() as u16;
                frontier.push(Open {
                    pos: pos.step(e),
                    needs: Needs::NONE,
                });
            }
            // The side facing the new tile was empty until now.
            let open = &mut frontier[cell.slot as usize];
            open.needs = open.needs.with_digit(e.opposite(), oriented.need_digit(e));
        }
        let mut reached = 0;
        for i in ring {
            cells[i].around += 1;
            reached |= cells[i].around;
        }
        // No cell has more than 8 around: only a count of 8 sets bit 3.
        self.surrounded = reached & 8 != 0 && ring.iter().any(|&i| cells[i].surrounded());
        id
    }

    fn leave_frontier(&mut self, i: usize) {
        let slot = self.cells[i].slot;
        if slot == NOT_FRONTIER {
            return;
        }
        self.cells[i].slot = NOT_FRONTIER;
        self.frontier.swap_remove(slot as usize);
        if let Some(moved) = self.frontier.get(slot as usize)
            && let Some(j) = self.index(moved.pos)
        {
            self.log.changes([j]);
            self.cells[j].slot = slot;
        }
    }

    /// Whether the tile fits at `p` turned `r` (B-P1, B-P2): on the frontier and every
    /// abutting edge matches.
    pub fn fits(&self, tiles: &[TileType], tile: TileId, p: Pos, r: Rotation) -> bool {
        let Some(i) = self.index(p) else { return false };
        let Some(open) = self.frontier.get(self.cells[i].slot as usize) else {
            return false;
        };
        tiles[tile as usize].fits.rotations(open.needs) & (1 << r.quarters()) != 0
    }

    /// Calls `found` for every legal placement of `tile` (frontier order, then rotation) until
    /// it returns `false`.
    pub fn each_placement(
        &self,
        tiles: &[TileType],
        tile: TileId,
        mut found: impl FnMut(Placement) -> bool,
    ) {
        let table = &tiles[tile as usize].fits;
        for open in &self.frontier {
            let mut fits = table.rotations(open.needs);
            while fits != 0 {
                let r = fits.trailing_zeros() as usize;
                fits &= fits - 1;
                if !found(Placement {
                    pos: open.pos,
                    // `fits` has four bits: no bounds check is needed.
                    rotation: Rotation::ALL[r & 3],
                }) {
                    return;
                }
            }
        }
    }

    /// How many legal placements `tile` has (as many as [`Board::each_placement`] finds).
    pub fn count_placements(&self, tiles: &[TileType], tile: TileId) -> usize {
        let table = &tiles[tile as usize].fits;
        let count = |open: &Open| table.count(open.needs);
        // Summed four positions a step (the frontier is long, and the loop's own work is as
        // much as a lookup's).
        let mut fours = self.frontier.chunks_exact(4);
        let most: usize = fours
            .by_ref()
            .map(|o| count(&o[0]) + count(&o[1]) + count(&o[2]) + count(&o[3]))
            .sum();
        most + fours.remainder().iter().map(count).sum::<usize>()
    }

    /// The `n`-th of the `count` legal placements of `tile` ([`Board::count_placements`]) in
    /// the order of [`Board::each_placement`], looked for from the nearer end of the frontier.
    pub fn nth_placement(
        &self,
        tiles: &[TileType],
        tile: TileId,
        n: usize,
        count: usize,
    ) -> Option<Placement> {
        let table = &tiles[tile as usize].fits;
        let (open, k) = if n < count / 2 {
            locate(table, self.frontier.iter(), n)?
        } else {
            // The `count - 1 - n`-th from the end, its rotations taken from the last.
            let (open, k) = locate(table, self.frontier.iter().rev(), count.checked_sub(n + 1)?)?;
            (open, table.count(open.needs) - 1 - k)
        };
        let mut fits = table.rotations(open.needs);
        for _ in 0..k {
            fits &= fits - 1;
        }
        Some(Placement {
            pos: open.pos,
            // `fits` has four bits: no bounds check is needed.
            rotation: Rotation::ALL[fits.trailing_zeros() as usize & 3],
        })
    }

    /// Whether `tile` fits anywhere (B-P5).
    pub fn fits_somewhere(&self, tiles: &[TileType], tile: TileId) -> bool {
        let mut any = false;
        self.each_placement(tiles, tile, |_| {
            any = true;
            false
        });
        any
    }

    /// The oriented data of a placed tile.
    pub fn oriented<'r>(&self, tiles: &'r [TileType], id: PlacedId) -> &'r Oriented {
        let p = &self.placed[id as usize];
        tiles[p.tile as usize].at(p.rotation)
    }

    /// Calls `found` with each edge of the placed tile `id` that another tile lies across, and
    /// that tile, in [`Edge::ALL`] order.
    #[inline]
    pub fn each_beside(&self, id: PlacedId, mut found: impl FnMut(Edge, PlacedId)) {
        let Some(i) = self.index(self.placed[id as usize].pos) else {
            return;
        };
        // `reach` made room for the ring around every placed tile.
        let cells = &self.cells[..];
        for (e, j) in Edge::ALL.into_iter().zip(self.around(i).0) {
            if let Some(other) = cells[j].tile.checked_sub(1) {
                found(e, other);
            }
        }
    }

    /// Calls `found` with each tile on the 8 positions around the placed tile `id` whose own 8
    /// neighbours all hold tiles (the cloisters and gardens among them are complete), in
    /// [`Pos::ring`] order.
    pub fn each_surrounded_around(&self, id: PlacedId, mut found: impl FnMut(PlacedId)) {
        // Around the newest tile, whether there are any is known (most often none).
        if usize::from(id) + 1 == self.placed.len() && !self.newest_surrounded_any() {
            return;
        }
        let Some(i) = self.index(self.placed[id as usize].pos) else {
            return;
        };
        // `reach` made room for the ring around every placed tile.
        let cells = &self.cells[..];
        for j in self.around(i).1 {
            let cell = cells[j];
            if cell.surrounded() {
                found(cell.tile - 1);
            }
        }
    }

    /// How many of the 8 positions around `p` hold tiles.
    pub fn neighbours(&self, p: Pos) -> u32 {
        self.index(p).map_or(0, |i| self.cells[i].around as u32)
    }

    /// Whether the newest tile surrounded a tile around it (one that
    /// [`Board::each_surrounded_around`] finds).
    pub fn newest_surrounded_any(&self) -> bool {
        self.surrounded
    }

    /// Lays an overlay road across the placed tile `id`, over whatever is printed there: a
    /// road segment `seg` reaching the edges `edges` (bit `i` = edge `i`; field edges, which
    /// the caller checks). From now on those edges count as road edges: an open position
    /// beside one asks for a road, and [`Board::edge_kind`] says road. A tile carries at most
    /// one overlay (the caller checks).
    pub fn add_overlay(&mut self, tiles: &[TileType], id: PlacedId, edges: u8, seg: u32) {
        let Some(i) = self.index(self.placed[id as usize].pos) else {
            return;
        };
        self.log.changes([i]);
        self.cells[i].overlay = edges;
        self.overlays.push((id, seg));
        let (around, _) = self.around(i);
        for (e, j) in Edge::ALL.into_iter().zip(around) {
            if edges & (1 << e as u8) == 0 {
                continue;
            }
            // An open position beside the new road end now asks for a road there.
            let was = self.placed_edge_kind(tiles, id, e);
            if let Some(open) = self.frontier.get_mut(self.cells[j].slot as usize) {
                open.needs = open.needs.replaced(e.opposite(), was, EdgeKind::Road);
            }
        }
    }

    /// The edges of the placed tile `id` that an overlay road crosses (0: none).
    #[inline]
    pub fn overlay(&self, id: PlacedId) -> u8 {
        // Most games lay no overlay: one test tells.
        if self.overlays.is_empty() {
            return 0;
        }
        self.index(self.placed[id as usize].pos)
            .map_or(0, |i| self.cells[i].overlay)
    }

    /// Whether an overlay road lies anywhere on the board.
    #[inline]
    pub fn has_overlays(&self) -> bool {
        !self.overlays.is_empty()
    }

    /// The segment of the overlay road across the placed tile `id`, if it has one.
    #[inline]
    pub fn overlay_seg(&self, id: PlacedId) -> Option<u32> {
        if self.overlays.is_empty() || self.overlay(id) == 0 {
            return None;
        }
        (self.overlays.iter()).find_map(|&(t, seg)| (t == id).then_some(seg))
    }

    /// Every overlay road on the board: its tile and segment, in the order they were laid.
    pub fn overlays(&self) -> &[(PlacedId, u32)] {
        &self.overlays
    }

    /// What lies along edge `e` of the placed tile `id`: its printed kind, or a road where an
    /// overlay road crosses it.
    pub fn edge_kind(&self, tiles: &[TileType], id: PlacedId, e: Edge) -> EdgeKind {
        if self.overlay(id) & (1 << e as u8) != 0 {
            return EdgeKind::Road;
        }
        self.placed_edge_kind(tiles, id, e)
    }

    /// The printed kind of edge `e` of the placed tile `id`.
    fn placed_edge_kind(&self, tiles: &[TileType], id: PlacedId, e: Edge) -> EdgeKind {
        self.oriented(tiles, id).edge_kind(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_grows_and_keeps_its_tiles() {
        let mut b = Board::new(4);
        let [field, ..] = crate::model::tile::orientations(&[EdgeKind::Field; 4], &[]);
        b.put(0, Pos::new(0, 0), Rotation::default(), 0, &field);
        b.put(1, Pos::new(40, -3), Rotation::default(), 1, &field);
        assert_eq!(b.at(Pos::new(0, 0)), Some(0));
        assert_eq!(b.at(Pos::new(40, -3)), Some(1));
        assert!(b.is_open(Pos::new(0, 1)));
        assert!(b.is_open(Pos::new(41, -3)));
        assert_eq!(b.neighbours(Pos::new(1, 1)), 1);
        assert_eq!(b.frontier().count(), 8);
    }

    /// B-M5: the tiles surrounded are found around the tile that surrounded them, and around
    /// any older tile next to them, in a copy too; around the newest tile, none until then.
    #[test]
    fn surrounded_tiles_are_found_around_new_and_old_tiles() {
        let [field, ..] = crate::model::tile::orientations(&[EdgeKind::Field; 4], &[]);
        let mut b = Board::new(16);
        b.put(0, Pos::new(0, 0), Rotation::default(), 0, &field);
        let around = |b: &Board, id: PlacedId| {
            let mut found = Vec::new();
            b.each_surrounded_around(id, |t| found.push(t));
            found
        };
        for (i, p) in Pos::new(0, 0).ring().into_iter().enumerate() {
            let id = i as PlacedId + 1;
            assert_eq!(
                around(&b, id - 1),
                Vec::<PlacedId>::new(),
                "before tile {id}"
            );
            b.put(id, p, Rotation::default(), id as u32, &field);
        }
        assert_eq!(around(&b, 8), vec![0]);
        assert_eq!(around(&b, 3), vec![0]);
        let mut copy = Board::new(16);
        copy.clone_from(&b);
        assert_eq!(around(&copy, 8), vec![0]);
    }

    /// Issue 11, item 5: a copy made onto a board that went other ways (more tiles elsewhere,
    /// fewer, none) equals the original cell for cell, though only the cells in use (or, copied
    /// again from the same source, only those it changed) are copied.
    #[test]
    fn copying_onto_another_board_copies_every_cell_in_use() {
        let [field, ..] = crate::model::tile::orientations(&[EdgeKind::Field; 4], &[]);
        let line = |b: &mut Board, from: u16, to: u16, step: (i32, i32)| {
            for i in from..to {
                let p = Pos::new(step.0 * i as i32, step.1 * i as i32);
                b.put(i, p, Rotation::default(), i as u32, &field);
            }
        };
        let mut a = Board::new(16);
        line(&mut a, 0, 4, (1, 0));
        let mut b = a.clone();
        line(&mut b, 4, 8, (0, -1));
        let mut c = Board::new(16);
        line(&mut c, 0, 6, (-1, 1));
        for copy in [&mut b, &mut c] {
            copy.clone_from(&a);
            assert_eq!(copy.cells, a.cells);
            assert_eq!(copy.frontier, a.frontier);
            assert_eq!(copy.placed, a.placed);
        }
        let mut d = a.clone();
        line(&mut a, 4, 6, (0, 1));
        d.clone_from(&a);
        assert_eq!(d.cells, a.cells);
        assert_eq!(d.at(Pos::new(0, 5)), Some(5));
        // Copied onto again from the unchanged source: only the cells changed are rewritten,
        // whether the copy laid a tile nearby, grew its grid, or did nothing.
        for far in [5, 30, 0] {
            if far > 0 {
                d.put(9, Pos::new(far, 0), Rotation::default(), 9, &field);
            }
            d.clone_from(&a);
            assert_eq!((d.width, d.radius), (a.width, a.radius));
            assert_eq!(d.cells, a.cells);
            assert_eq!(d.frontier, a.frontier);
            assert_eq!(d.placed, a.placed);
        }
    }
}
