//! The board: placed tiles on a grid, and the frontier of open positions next to them, so
//! legal placements are found without scanning the board.

use crate::geometry::{Edge, Pos, Rotation};
use crate::ruleset::{Ruleset, TileId};
use crate::tile::Oriented;

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

const EMPTY: u16 = 0;
const NOT_FRONTIER: u16 = u16::MAX;

/// Placed tiles on a square grid centred on the origin.
#[derive(Clone, Debug)]
pub struct Board {
    radius: i32,
    width: usize,
    /// 0 = empty, else placed index + 1.
    cells: Vec<u16>,
    /// Index into `frontier`, or `NOT_FRONTIER`.
    frontier_slot: Vec<u16>,
    frontier: Vec<Pos>,
    placed: Vec<Placed>,
}

impl Board {
    /// An empty board large enough for `tiles` tiles laid around start tiles within `reach`.
    pub fn new(tiles: usize, reach: i32) -> Board {
        let radius = reach + tiles as i32 + 2;
        let width = (2 * radius + 1) as usize;
        Board {
            radius,
            width,
            cells: vec![EMPTY; width * width],
            frontier_slot: vec![NOT_FRONTIER; width * width],
            frontier: Vec::new(),
            placed: Vec::with_capacity(tiles),
        }
    }

    fn index(&self, p: Pos) -> Option<usize> {
        let (x, y) = (p.x + self.radius, p.y + self.radius);
        (x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.width)
            .then(|| y as usize * self.width + x as usize)
    }

    /// The tile at `p`, if any.
    pub fn at(&self, p: Pos) -> Option<PlacedId> {
        let i = self.index(p)?;
        match self.cells[i] {
            EMPTY => None,
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

    /// Open positions next to placed tiles, in the order they opened.
    pub fn frontier(&self) -> &[Pos] {
        &self.frontier
    }

    /// Puts a tile on the board (legality is the caller's business) and returns its id.
    pub fn put(&mut self, tile: TileId, pos: Pos, rotation: Rotation, seg_base: u32) -> PlacedId {
        let id = self.placed.len() as PlacedId;
        self.placed.push(Placed {
            tile,
            pos,
            rotation,
            seg_base,
        });
        if let Some(i) = self.index(pos) {
            self.cells[i] = id + 1;
            self.leave_frontier(i);
        }
        for e in Edge::ALL {
            let n = pos.step(e);
            if let Some(i) = self.index(n)
                && self.cells[i] == EMPTY
                && self.frontier_slot[i] == NOT_FRONTIER
            {
                self.frontier_slot[i] = self.frontier.len() as u16;
                self.frontier.push(n);
            }
        }
        id
    }

    fn leave_frontier(&mut self, i: usize) {
        let slot = self.frontier_slot[i];
        if slot == NOT_FRONTIER {
            return;
        }
        self.frontier_slot[i] = NOT_FRONTIER;
        let last = self.frontier.len() - 1;
        self.frontier.swap(slot as usize, last);
        self.frontier.pop();
        if (slot as usize) < self.frontier.len() {
            let moved = self.frontier[slot as usize];
            if let Some(j) = self.index(moved) {
                self.frontier_slot[j] = slot;
            }
        }
    }

    /// What the neighbours of `p` require: (mask, wanted) over the packed edge code.
    fn requirement(&self, rules: &Ruleset, p: Pos) -> (u8, u8) {
        let mut mask = 0u8;
        let mut want = 0u8;
        for e in Edge::ALL {
            if let Some(n) = self.at(p.step(e)) {
                let placed = &self.placed[n as usize];
                let theirs = rules.tile(placed.tile).at(placed.rotation);
                let kind = theirs.edge_kind(e.opposite()) as u8;
                mask |= 3 << (2 * e as u8);
                want |= kind << (2 * e as u8);
            }
        }
        (mask, want)
    }

    /// Whether the tile fits at `p` turned `r` (B-P1, B-P2): on the frontier and every
    /// abutting edge matches.
    pub fn fits(&self, rules: &Ruleset, tile: TileId, p: Pos, r: Rotation) -> bool {
        let Some(i) = self.index(p) else { return false };
        if self.frontier_slot[i] == NOT_FRONTIER {
            return false;
        }
        let (mask, want) = self.requirement(rules, p);
        rules.tile(tile).at(r).edge_code & mask == want
    }

    /// Every legal placement of `tile`, appended to `out` (frontier order, then rotation).
    pub fn placements(&self, rules: &Ruleset, tile: TileId, out: &mut Vec<Placement>) {
        let t = rules.tile(tile);
        let codes: [u8; 4] = Rotation::ALL.map(|r| t.at(r).edge_code);
        for &p in &self.frontier {
            let (mask, want) = self.requirement(rules, p);
            for (r, code) in Rotation::ALL.iter().zip(codes) {
                if code & mask == want {
                    out.push(Placement {
                        pos: p,
                        rotation: *r,
                    });
                }
            }
        }
    }

    /// The oriented data of a placed tile.
    pub fn oriented<'r>(&self, rules: &'r Ruleset, id: PlacedId) -> &'r Oriented {
        let p = &self.placed[id as usize];
        rules.tile(p.tile).at(p.rotation)
    }

    /// How many of the 8 positions around `p` hold tiles.
    pub fn neighbours(&self, p: Pos) -> u32 {
        p.ring().iter().filter(|q| self.at(**q).is_some()).count() as u32
    }
}
