//! Board geometry: positions, the four edges, the eight half-edges, rotations and the names
//! of the places on a tile where a feature can be pointed at.
//!
//! Conventions (shared with the tile files and game records): x grows east, y grows south;
//! rotation is clockwise in quarter turns; half-edges are named clockwise from the north-west
//! corner `NL NR EL ER SL SR WL WR` ("left"/"right" as seen from the tile centre looking out).

use serde::{Deserialize, Serialize};
use std::fmt;

/// A board position (x east, y south).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Pos {
    /// Column, growing east.
    pub x: i32,
    /// Row, growing south.
    pub y: i32,
}

impl Pos {
    /// A position from its coordinates.
    pub const fn new(x: i32, y: i32) -> Self {
        Pos { x, y }
    }

    /// The orthogonal neighbour across `edge`.
    pub const fn step(self, edge: Edge) -> Pos {
        match edge {
            Edge::N => Pos::new(self.x, self.y - 1),
            Edge::E => Pos::new(self.x + 1, self.y),
            Edge::S => Pos::new(self.x, self.y + 1),
            Edge::W => Pos::new(self.x - 1, self.y),
        }
    }

    /// The eight surrounding positions (orthogonal and diagonal), clockwise from north.
    pub fn ring(self) -> [Pos; 8] {
        let (x, y) = (self.x, self.y);
        [
            Pos::new(x, y - 1),
            Pos::new(x + 1, y - 1),
            Pos::new(x + 1, y),
            Pos::new(x + 1, y + 1),
            Pos::new(x, y + 1),
            Pos::new(x - 1, y + 1),
            Pos::new(x - 1, y),
            Pos::new(x - 1, y - 1),
        ]
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

/// One of the four edges of a tile, clockwise from north.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Edge {
    /// North.
    N = 0,
    /// East.
    E = 1,
    /// South.
    S = 2,
    /// West.
    W = 3,
}

impl Edge {
    /// All edges in clockwise order from north.
    pub const ALL: [Edge; 4] = [Edge::N, Edge::E, Edge::S, Edge::W];

    /// The edge with index `i` (0 = N … 3 = W), taken modulo 4.
    pub const fn from_index(i: usize) -> Edge {
        Edge::ALL[i % 4]
    }

    /// The edge of the neighbouring tile that touches this one.
    pub const fn opposite(self) -> Edge {
        Edge::from_index(self as usize + 2)
    }

    /// The edge's one-letter name.
    pub const fn name(self) -> &'static str {
        ["N", "E", "S", "W"][self as usize]
    }
}

/// Names of the eight half-edges, in bit order.
pub const HALF_NAMES: [&str; 8] = ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"];

/// The half-edge across the border from half-edge `h` (NL↔SR, NR↔SL, EL↔WR, ER↔WL).
pub const fn facing_half(h: usize) -> usize {
    let edge = h / 2;
    let side = h % 2;
    2 * ((edge + 2) % 4) + (1 - side)
}

/// A clockwise rotation in quarter turns (0–3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Rotation(u8);

impl Rotation {
    /// The four rotations.
    pub const ALL: [Rotation; 4] = [Rotation(0), Rotation(1), Rotation(2), Rotation(3)];

    /// A rotation from degrees; only 0, 90, 180 and 270 are valid.
    pub fn from_degrees(degrees: i64) -> Option<Rotation> {
        match degrees {
            0 => Some(Rotation(0)),
            90 => Some(Rotation(1)),
            180 => Some(Rotation(2)),
            270 => Some(Rotation(3)),
            _ => None,
        }
    }

    /// Quarter turns clockwise.
    pub const fn quarters(self) -> usize {
        self.0 as usize
    }

    /// Degrees clockwise.
    pub const fn degrees(self) -> u32 {
        self.0 as u32 * 90
    }

    /// The board edge that a tile edge faces after this rotation.
    pub const fn turn(self, edge: Edge) -> Edge {
        Edge::from_index(edge as usize + self.0 as usize)
    }

    /// Rotates a 4-bit edge mask.
    pub const fn turn_edges(self, mask: u8) -> u8 {
        let r = self.0 as u32;
        (((mask as u32) << r | (mask as u32) >> ((4 - r) % 4)) & 0xF) as u8
    }

    /// Rotates an 8-bit half-edge mask.
    pub const fn turn_halves(self, mask: u8) -> u8 {
        mask.rotate_left(2 * self.0 as u32)
    }
}

/// A place on a tile, in board orientation, naming the feature there: an edge (the city or road
/// on it), a half-edge (the field touching it), the cloister, or the inner field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Spot {
    /// The city or road on an edge.
    Edge(Edge),
    /// The field touching a half-edge (index into [`HALF_NAMES`]).
    Half(u8),
    /// The cloister (`C`).
    Cloister,
    /// A field touching no edge (`I`).
    Inner,
}

impl Spot {
    /// Parses a spot name: `N E S W`, `NL … WR`, `C` or `I`.
    pub fn parse(name: &str) -> Option<Spot> {
        match name {
            "C" => Some(Spot::Cloister),
            "I" => Some(Spot::Inner),
            _ => {
                if let Some(i) = ["N", "E", "S", "W"].iter().position(|n| *n == name) {
                    return Some(Spot::Edge(Edge::from_index(i)));
                }
                HALF_NAMES
                    .iter()
                    .position(|n| *n == name)
                    .map(|i| Spot::Half(i as u8))
            }
        }
    }

    /// The spot's name as written in records.
    pub fn name(self) -> &'static str {
        match self {
            Spot::Edge(e) => e.name(),
            Spot::Half(h) => HALF_NAMES[h as usize],
            Spot::Cloister => "C",
            Spot::Inner => "I",
        }
    }
}

impl fmt::Display for Spot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Spot {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facing_halves_match_the_convention() {
        // TILES.md §0: NL↔SR, NR↔SL, EL↔WR, ER↔WL.
        let pairs = [(0, 5), (1, 4), (2, 7), (3, 6)];
        for (a, b) in pairs {
            assert_eq!(facing_half(a), b);
            assert_eq!(facing_half(b), a);
        }
    }

    #[test]
    fn rotation_moves_north_to_east() {
        let r90 = Rotation::from_degrees(90).unwrap();
        assert_eq!(r90.turn(Edge::N), Edge::E);
        assert_eq!(r90.turn(Edge::W), Edge::N);
        assert_eq!(r90.turn_edges(0b0001), 0b0010);
        assert_eq!(r90.turn_edges(0b1000), 0b0001);
        // NL (bit 0) → EL (bit 2); WR (bit 7) → NR (bit 1).
        assert_eq!(r90.turn_halves(0b0000_0001), 0b0000_0100);
        assert_eq!(r90.turn_halves(0b1000_0000), 0b0000_0010);
    }

    #[test]
    fn spots_round_trip() {
        for name in ["N", "E", "S", "W", "NL", "WR", "SL", "C", "I"] {
            assert_eq!(Spot::parse(name).unwrap().name(), name);
        }
        assert_eq!(Spot::parse("X"), None);
    }
}
