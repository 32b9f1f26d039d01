//! Where things lie on one tile, worked out from the tile data alone.
//!
//! A tile is the unit square, x growing east and y growing south. Every feature gets a shape:
//! a city part is a polygon reaching the edges it touches, a road a line from the middle of an
//! edge to the middle of another (or to the centre, for a stub), a cloister a square in the
//! centre. Whatever no shape covers is field; which field a point belongs to is found on a
//! fine raster by growing every field outwards from the half-edges it touches. From the raster
//! come the points where figures stand (the point of each feature farthest inside it) and
//! where pennants, the princess and a printed symbol are drawn.

use crate::data::printed::{Drawn, Prints};
use crate::model::geometry::Edge;
use crate::model::tile::{CounterId, Counters};
use crate::model::tile::{FeatureKind, Oriented, Symbol};
use std::collections::VecDeque;

/// A point on the unit tile.
pub(crate) type Pt = (f64, f64);

/// Raster cells along one side of the tile.
const N: usize = 40;
/// Half the width of a road, for telling roads from fields on the raster.
pub(crate) const ROAD_HALF: f64 = 0.06;
/// Half the side of a cloister.
pub(crate) const CLOISTER_HALF: f64 = 0.17;
/// Raster cells beyond the tile border counted as "inside" for edge features, so a figure on a
/// city cap stands a little inside the tile rather than on its border.
const BORDER_SLACK: i32 = 4;
/// No feature on a raster cell.
const NONE: u8 = u8::MAX;

/// The drawable shape of one feature.
#[derive(Clone, Debug)]
pub(crate) enum Shape {
    /// A city part: the filled outline and the wall lines (the parts of the outline inside the
    /// tile).
    City {
        /// The outline.
        fill: Vec<Pt>,
        /// The walls.
        walls: Vec<Vec<Pt>>,
    },
    /// A road: a polyline. `through` roads cross the tile from edge to edge and are drawn over
    /// cities (the tunnel tile); stubs end on the tile and go under them.
    Road {
        /// The line.
        path: Vec<Pt>,
        /// From edge to edge.
        through: bool,
        /// For a curve: the same road as two straight pieces meeting in the centre (text
        /// draws curves this way).
        corner: Option<Vec<Pt>>,
    },
    /// A cloister, a square at the centre.
    Cloister,
    /// An Abbot garden: a hedged square on the field, not covering anything (its place is
    /// [`Layout::garden`]).
    Garden,
    /// A field: everything else.
    Field,
}

impl Shape {
    /// A road's line (its corner form with `corners`, when it has one); empty for others.
    pub(crate) fn line(&self, corners: bool) -> &[Pt] {
        match self {
            Shape::Road {
                corner: Some(c), ..
            } if corners => c,
            Shape::Road { path, .. } => path,
            _ => &[],
        }
    }
}

/// Everything needed to draw one tile type in one orientation.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    /// One shape per feature, in feature order.
    pub shapes: Vec<Shape>,
    /// Where a figure on each feature stands.
    pub spots: Vec<Pt>,
    /// Pennants: the point and the city part.
    pub pennants: Vec<(Pt, u8)>,
    /// Counters drawn with the pennants (the princess): the point, the city part and the counter.
    pub crests: Vec<(Pt, u8, CounterId)>,
    /// The printed symbol and where it is drawn.
    pub symbol: Option<(Symbol, Pt)>,
    /// The other counters (inns, cathedrals, goods): the point, the feature and the counter.
    pub marks: Vec<(Pt, u8, CounterId)>,
    /// The Abbot garden's centre: on the field, clear of roads and the other marks (a figure
    /// in the garden stands there too).
    pub garden: Option<Pt>,
    /// The wild edges (bit `e` for edge `e`): they fit anything and end what meets them, as
    /// the abbey's walls do.
    pub wild: u8,
    /// Feature of each raster cell, row by row.
    raster: Vec<u8>,
}

/// The middle of an edge.
pub(crate) fn edge_mid(e: Edge) -> Pt {
    match e {
        Edge::N => (0.5, 0.0),
        Edge::E => (1.0, 0.5),
        Edge::S => (0.5, 1.0),
        Edge::W => (0.0, 0.5),
    }
}

/// Where half-edge `h` (bit order of [`crate::model::geometry::HALF_NAMES`]) meets the border.
fn half_point(h: usize) -> Pt {
    [
        (0.25, 0.0),
        (0.75, 0.0),
        (1.0, 0.25),
        (1.0, 0.75),
        (0.75, 1.0),
        (0.25, 1.0),
        (0.0, 0.75),
        (0.0, 0.25),
    ][h % 8]
}

/// Turns a point clockwise by `quarters` quarter turns about the tile centre.
fn turn(p: Pt, quarters: usize) -> Pt {
    let mut p = p;
    for _ in 0..quarters % 4 {
        p = (1.0 - p.1, p.0);
    }
    p
}

/// Points of a quadratic Bézier curve from `a` to `b` bending towards `c`, both ends included.
fn curve(a: Pt, c: Pt, b: Pt, steps: usize) -> Vec<Pt> {
    (0..=steps)
        .map(|i| {
            let t = i as f64 / steps as f64;
            let (u, v) = ((1.0 - t) * (1.0 - t), 2.0 * t * (1.0 - t));
            let w = t * t;
            (u * a.0 + v * c.0 + w * b.0, u * a.1 + v * c.1 + w * b.1)
        })
        .collect()
}

/// The shape of a city part touching the edges in `mask`.
fn city_shape(mask: u8) -> Shape {
    let edges: Vec<usize> = (0..4).filter(|e| mask & (1 << e) != 0).collect();
    let turned = |fill: Vec<Pt>, walls: Vec<Vec<Pt>>, q: usize| Shape::City {
        fill: fill.into_iter().map(|p| turn(p, q)).collect(),
        walls: walls
            .into_iter()
            .map(|w| w.into_iter().map(|p| turn(p, q)).collect())
            .collect(),
    };
    match edges.as_slice() {
        // A cap on the north edge, turned to its edge.
        [e] => {
            let wall = curve((1.0, 0.0), (0.5, 0.6), (0.0, 0.0), 16);
            let mut fill = vec![(0.0, 0.0)];
            fill.extend(&wall);
            turned(fill, vec![wall], *e)
        }
        // Two neighbouring edges (north and east): the corner behind a curved wall.
        [a, b] if (a + 1) % 4 == *b || (b + 1) % 4 == *a => {
            let first = if (a + 1) % 4 == *b { *a } else { *b };
            let wall = curve((1.0, 1.0), (0.65, 0.35), (0.0, 0.0), 16);
            let mut fill = vec![(0.0, 0.0), (1.0, 0.0)];
            fill.extend(&wall);
            turned(fill, vec![wall], first)
        }
        // Two opposite edges (north and south): a band through the tile.
        [a, _] => {
            let east = curve((1.0, 0.0), (0.6, 0.5), (1.0, 1.0), 16);
            let west = curve((0.0, 1.0), (0.4, 0.5), (0.0, 0.0), 16);
            let mut fill = east.clone();
            fill.extend(&west);
            turned(fill, vec![east, west], *a)
        }
        // Three edges: everything but a cap of field on the fourth (south when turned 0).
        [_, _, _] => {
            let missing = (0..4).find(|e| mask & (1 << e) == 0).unwrap_or(2);
            let wall = curve((1.0, 1.0), (0.5, 0.3), (0.0, 1.0), 16);
            let mut fill = vec![(0.0, 0.0), (1.0, 0.0)];
            fill.extend(&wall);
            turned(fill, vec![wall], (missing + 2) % 4)
        }
        [_, _, _, _] => Shape::City {
            fill: vec![(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)],
            walls: Vec::new(),
        },
        // No edge at all (not in any shipped set): a small walled square.
        _ => {
            let sq = vec![(0.3, 0.3), (0.7, 0.3), (0.7, 0.7), (0.3, 0.7), (0.3, 0.3)];
            Shape::City {
                fill: sq.clone(),
                walls: vec![sq],
            }
        }
    }
}

/// The shape of a road reaching the edges in `mask`.
fn road_shape(mask: u8) -> Shape {
    let edges: Vec<Edge> = Edge::ALL
        .into_iter()
        .filter(|e| mask & (1 << *e as u8) != 0)
        .collect();
    let centre = (0.5, 0.5);
    match edges.as_slice() {
        [a, b] if a.opposite() == *b => Shape::Road {
            path: vec![edge_mid(*a), edge_mid(*b)],
            through: true,
            corner: None,
        },
        [a, b] => Shape::Road {
            path: curve(edge_mid(*a), centre, edge_mid(*b), 12),
            through: true,
            corner: Some(vec![edge_mid(*a), centre, edge_mid(*b)]),
        },
        [] => Shape::Road {
            path: vec![(0.4, 0.5), (0.6, 0.5)],
            through: false,
            corner: None,
        },
        // A stub ends in the centre; three or more edges meet there.
        many => {
            let mut path = Vec::new();
            for (i, e) in many.iter().enumerate() {
                if i > 0 {
                    path.push(centre);
                }
                path.push(edge_mid(*e));
            }
            path.push(centre);
            Shape::Road {
                path,
                through: false,
                corner: None,
            }
        }
    }
}

fn inside_polygon(p: Pt, poly: &[Pt]) -> bool {
    let mut inside = false;
    let n = poly.len();
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + n - 1) % n]);
        if (a.1 > p.1) != (b.1 > p.1) {
            let x = a.0 + (p.1 - a.1) / (b.1 - a.1) * (b.0 - a.0);
            if p.0 < x {
                inside = !inside;
            }
        }
    }
    inside
}

/// Distance from `p` to the segment `a`–`b`.
fn to_segment(p: Pt, a: Pt, b: Pt) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 == 0.0 {
        0.0
    } else {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    };
    let (x, y) = (a.0 + t * dx - p.0, a.1 + t * dy - p.1);
    (x * x + y * y).sqrt()
}

/// Distance from `p` to a polyline and the direction of its nearest piece.
pub(crate) fn to_path(p: Pt, path: &[Pt]) -> (f64, Pt) {
    let mut best = (f64::INFINITY, (1.0, 0.0));
    for w in path.windows(2) {
        let d = to_segment(p, w[0], w[1]);
        if d < best.0 {
            best = (d, (w[1].0 - w[0].0, w[1].1 - w[0].1));
        }
    }
    best
}

fn dist(a: Pt, b: Pt) -> f64 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

fn cell_centre(i: usize) -> Pt {
    (
        ((i % N) as f64 + 0.5) / N as f64,
        ((i / N) as f64 + 0.5) / N as f64,
    )
}

fn cell_of(p: Pt) -> usize {
    let c = |v: f64| ((v * N as f64).floor().max(0.0) as usize).min(N - 1);
    c(p.1) * N + c(p.0)
}

/// The 8 neighbours of a raster cell.
fn around(i: usize) -> impl Iterator<Item = usize> {
    let (x, y) = ((i % N) as i32, (i / N) as i32);
    (-1..=1)
        .flat_map(move |dy| (-1..=1).map(move |dx| (x + dx, y + dy)))
        .filter(move |&(a, b)| {
            (a, b) != (x, y) && a >= 0 && b >= 0 && (a as usize) < N && (b as usize) < N
        })
        .map(|(a, b)| b as usize * N + a as usize)
}

/// Raster distance (in cells, chessboard) from every cell to the nearest cell where `outside`
/// holds; the tile border counts as `BORDER_SLACK` cells away.
fn depth(raster: &[u8], outside: impl Fn(u8) -> bool) -> Vec<i32> {
    let mut d = vec![i32::MAX; N * N];
    let mut queue = VecDeque::new();
    for (i, l) in raster.iter().enumerate() {
        if outside(*l) {
            d[i] = 0;
            queue.push_back(i);
        }
    }
    while let Some(i) = queue.pop_front() {
        for j in around(i) {
            if d[j] == i32::MAX {
                d[j] = d[i] + 1;
                queue.push_back(j);
            }
        }
    }
    for (i, v) in d.iter_mut().enumerate() {
        let (x, y) = ((i % N) as i32, (i / N) as i32);
        let border = x.min(y).min(N as i32 - 1 - x).min(N as i32 - 1 - y) + 1 + BORDER_SLACK;
        *v = (*v).min(border);
    }
    d
}

impl Layout {
    /// Lays out one oriented tile with its printed symbol (`prints` says where each counter
    /// is drawn).
    pub(crate) fn new(o: &Oriented, symbol: Option<Symbol>, prints: &Prints) -> Layout {
        let shapes: Vec<Shape> = o
            .features
            .iter()
            .map(|f| match f.kind {
                FeatureKind::City => city_shape(f.edges),
                FeatureKind::Road => road_shape(f.edges),
                FeatureKind::Cloister => Shape::Cloister,
                FeatureKind::Garden => Shape::Garden,
                FeatureKind::Field => Shape::Field,
            })
            .collect();
        let mut layout = Layout {
            shapes,
            spots: Vec::new(),
            pennants: Vec::new(),
            crests: Vec::new(),
            symbol: None,
            marks: Vec::new(),
            garden: None,
            wild: o.wild,
            raster: Vec::new(),
        };
        layout.raster = (0..N * N)
            .map(|i| layout.solid_at(cell_centre(i), ROAD_HALF).unwrap_or(NONE))
            .collect();
        layout.grow_fields(o);
        layout.place(o, symbol, prints);
        layout
    }

    /// The city, road or cloister at `p`, taking roads `road_half` wide on each side.
    /// Cloisters lie over through roads, which lie over cities, which lie over stubs.
    pub(crate) fn solid_at(&self, p: Pt, road_half: f64) -> Option<u8> {
        self.solid_at_with(p, road_half, false)
    }

    /// Like [`Layout::solid_at`]; with `corners`, curved roads are taken as corners.
    pub(crate) fn solid_at_with(&self, p: Pt, road_half: f64, corners: bool) -> Option<u8> {
        let (dx, dy) = ((p.0 - 0.5).abs(), (p.1 - 0.5).abs());
        let mut stub = None;
        let mut city = None;
        let mut through = None;
        for (i, s) in self.shapes.iter().enumerate() {
            let i = i as u8;
            match s {
                Shape::Cloister if dx <= CLOISTER_HALF && dy <= CLOISTER_HALF => return Some(i),
                Shape::Road { .. } if to_path(p, s.line(corners)).0 <= road_half => {
                    let t = matches!(s, Shape::Road { through: true, .. });
                    if t {
                        through = through.or(Some(i));
                    } else {
                        stub = stub.or(Some(i));
                    }
                }
                Shape::City { fill, .. } if city.is_none() && inside_polygon(p, fill) => {
                    city = Some(i)
                }
                _ => {}
            }
        }
        through.or(city).or(stub)
    }

    /// The feature at `p`: a city, road or cloister (roads `road_half` wide on each side,
    /// curves as corners with `corners`), or else the field found on the raster.
    pub(crate) fn feature_at(&self, p: Pt, road_half: f64, corners: bool) -> Option<u8> {
        self.solid_at_with(p, road_half, corners).or_else(|| {
            let l = self.raster[cell_of(p)];
            (l != NONE && matches!(self.shapes[l as usize], Shape::Field)).then_some(l)
        })
    }

    /// Fills the free raster cells with fields, growing each field from its half-edges (an
    /// inner field from the centre); a cell goes to the nearest field.
    fn grow_fields(&mut self, o: &Oriented) {
        let mut queue = VecDeque::new();
        let free: Vec<usize> = (0..N * N).filter(|i| self.raster[*i] == NONE).collect();
        let nearest_free = |p: Pt| {
            free.iter()
                .copied()
                .min_by(|a, b| dist(cell_centre(*a), p).total_cmp(&dist(cell_centre(*b), p)))
        };
        let mut seeds: Vec<(usize, u8)> = Vec::new();
        for (i, f) in o.features.iter().enumerate() {
            if f.kind != FeatureKind::Field {
                continue;
            }
            let points: Vec<Pt> = if f.halves == 0 {
                vec![(0.5, 0.5)]
            } else {
                (0..8)
                    .filter(|h| f.halves & (1 << h) != 0)
                    .map(|h| {
                        // A little inside the tile from the half-edge's middle.
                        let (x, y) = half_point(h);
                        (x + (0.5 - x) * 0.05, y + (0.5 - y) * 0.05)
                    })
                    .collect()
            };
            for p in points {
                if let Some(c) = nearest_free(p) {
                    seeds.push((c, i as u8));
                }
            }
        }
        let mut grown = vec![false; N * N];
        for (c, f) in seeds {
            if !grown[c] {
                grown[c] = true;
                self.raster[c] = f;
                queue.push_back(c);
            }
        }
        while let Some(i) = queue.pop_front() {
            for j in around(i) {
                if !grown[j] && self.raster[j] == NONE {
                    grown[j] = true;
                    self.raster[j] = self.raster[i];
                    queue.push_back(j);
                }
            }
        }
    }

    /// Finds the figure spots, the decorations and the symbol's place.
    fn place(&mut self, o: &Oriented, symbol: Option<Symbol>, prints: &Prints) {
        let centre = (0.5, 0.5);
        // A symbol sits in the centre unless a city, cloister or through road is there; figures
        // then keep clear of it.
        let symbol_in_centre = symbol.is_some()
            && match self.solid_at(centre, ROAD_HALF) {
                None => true,
                Some(f) => matches!(self.shapes[f as usize], Shape::Road { through: false, .. }),
            };
        let mut depths = Vec::with_capacity(o.features.len());
        for (i, f) in o.features.iter().enumerate() {
            let i = i as u8;
            let mut d = depth(&self.raster, |l| l != i);
            if symbol_in_centre {
                for (c, v) in d.iter_mut().enumerate() {
                    if dist(cell_centre(c), centre) < 0.15 {
                        *v = 0;
                    }
                }
            }
            let cells: Vec<usize> = (0..N * N).filter(|c| self.raster[*c] == i).collect();
            let spot = if cells.is_empty() {
                fallback_spot(f.edges, f.halves)
            } else {
                let n = cells.len() as f64;
                let mid = cells.iter().fold((0.0, 0.0), |acc, c| {
                    let p = cell_centre(*c);
                    (acc.0 + p.0 / n, acc.1 + p.1 / n)
                });
                // Deep enough inside, then as central as possible: (chessboard) depth alone
                // would favour the straight ends of a curved road over its bend.
                let deepest = cells.iter().map(|c| d[*c]).max().unwrap_or(0);
                let enough = (deepest * 3 + 4) / 5;
                let best = cells
                    .iter()
                    .copied()
                    .max_by(|a, b| {
                        (d[*a] >= enough).cmp(&(d[*b] >= enough)).then_with(|| {
                            dist(cell_centre(*b), mid).total_cmp(&dist(cell_centre(*a), mid))
                        })
                    })
                    .unwrap_or(cells[0]);
                cell_centre(best)
            };
            self.spots.push(spot);
            depths.push(d);
        }
        let mut taken: Vec<Pt> = self.spots.clone();
        if symbol_in_centre {
            taken.push(centre);
        }
        self.place_garden(o, &mut taken);
        for (i, f) in o.features.iter().enumerate() {
            if f.kind != FeatureKind::City {
                continue;
            }
            let crests = drawn(f.counters, Drawn::WithPennants, prints).map(Some);
            for crest in std::iter::repeat_n(None, f.pennants as usize).chain(crests) {
                let p = self.free_point(&depths[i], |l| l == i as u8, &taken, self.spots[i]);
                taken.push(p);
                match crest {
                    None => self.pennants.push((p, i as u8)),
                    Some(id) => self.crests.push((p, i as u8, id)),
                }
            }
        }
        self.place_marks(o, &depths, &mut taken, prints);
        if let Some(s) = symbol {
            let p = if symbol_in_centre {
                centre
            } else {
                let fields = |l: u8| l == NONE || matches!(self.shapes[l as usize], Shape::Field);
                let d = depth(&self.raster, |l| !fields(l));
                self.free_point(&d, fields, &taken, centre)
            };
            self.symbol = Some((s, p));
        }
    }

    /// Puts the garden on the field as near the centre as there is room (the printed tiles
    /// show it beside the roads), and its figure spot with it.
    fn place_garden(&mut self, o: &Oriented, taken: &mut [Pt]) {
        let Some(i) = o
            .features
            .iter()
            .position(|f| f.kind == FeatureKind::Garden)
        else {
            return;
        };
        let fields = |l: u8| l == NONE || matches!(self.shapes[l as usize], Shape::Field);
        let d = depth(&self.raster, |l| !fields(l));
        let others: Vec<Pt> = taken
            .iter()
            .enumerate()
            .filter(|(k, _)| *k != i)
            .map(|(_, p)| *p)
            .collect();
        let p = self.free_point(&d, fields, &others, (0.5, 0.5));
        self.spots[i] = p;
        taken[i] = p;
        self.garden = Some(p);
    }

    /// Places the counters drawn in their feature part (cathedrals, goods), then those drawn on
    /// the field beside it (inns by their road).
    fn place_marks(
        &mut self,
        o: &Oriented,
        depths: &[Vec<i32>],
        taken: &mut Vec<Pt>,
        prints: &Prints,
    ) {
        let fields = |l: u8| l == NONE || matches!(self.shapes[l as usize], Shape::Field);
        let field_depth = depth(&self.raster, |l| !fields(l));
        for (i, f) in o.features.iter().enumerate() {
            for id in drawn(f.counters, Drawn::In, prints) {
                let p = self.free_point(&depths[i], |l| l == i as u8, taken, self.spots[i]);
                taken.push(p);
                self.marks.push((p, i as u8, id));
            }
            for id in drawn(f.counters, Drawn::Beside, prints) {
                let p = self.free_point(&field_depth, fields, taken, self.spots[i]);
                taken.push(p);
                self.marks.push((p, i as u8, id));
            }
        }
    }

    /// A point on cells where `on` holds, well inside them (by `depth`), as far as possible
    /// (up to a quarter tile) from the `taken` points, then as near `near` as possible.
    fn free_point(&self, depth: &[i32], on: impl Fn(u8) -> bool, taken: &[Pt], near: Pt) -> Pt {
        let cells: Vec<usize> = (0..N * N).filter(|c| on(self.raster[*c])).collect();
        let deepest = cells.iter().map(|c| depth[*c]).max().unwrap_or(0);
        let deep = |c: &usize| depth[*c] >= (deepest / 2).max(1).min(deepest);
        let room = |p: Pt| taken.iter().map(|t| dist(*t, p)).fold(0.25f64, f64::min);
        cells
            .iter()
            .copied()
            .filter(deep)
            .map(cell_centre)
            .max_by(|a, b| {
                room(*a)
                    .total_cmp(&room(*b))
                    .then_with(|| dist(*b, near).total_cmp(&dist(*a, near)))
            })
            .unwrap_or(near)
    }
}

/// A spot for a feature that has no raster cells (too thin to show).
fn fallback_spot(edges: u8, halves: u8) -> Pt {
    if edges != 0 {
        let e = Edge::from_index(edges.trailing_zeros() as usize);
        let m = edge_mid(e);
        return (m.0 * 0.8 + 0.1, m.1 * 0.8 + 0.1);
    }
    if halves != 0 {
        let h = half_point(halves.trailing_zeros() as usize);
        return (h.0 * 0.8 + 0.1, h.1 * 0.8 + 0.1);
    }
    (0.5, 0.5)
}

/// The counters of `counters` drawn `where`, each repeated as often as it is printed, in id
/// order.
fn drawn(
    counters: Counters,
    place: Drawn,
    prints: &Prints,
) -> impl Iterator<Item = CounterId> + '_ {
    prints
        .counters()
        .filter(move |(_, p)| p.place == place)
        .flat_map(move |(id, _)| std::iter::repeat_n(id, counters.get(id) as usize))
}
