//! Features across tiles: every feature part of a placed tile is a segment; segments joined
//! across tile borders form a feature.
//!
//! The segments are the nodes of a petgraph graph (an edge per border joint) so that a feature
//! can be walked, and an incremental union-find (`Sets`, cheap to copy) keeps per-feature
//! totals (open edges, pennants, inns, cathedrals, goods, followers) at its root, so
//! completion and occupancy are O(1) to read.

use crate::model::board::PlacedId;
use crate::model::tile::{FeatureKind, Marks};
use petgraph::graph::{NodeIndex, UnGraph};

/// Id of a segment (one feature part of one placed tile).
pub type SegId = u32;

/// A segment's fixed facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// The tile it is on.
    pub placed: PlacedId,
    /// Its feature index on that tile.
    pub feature: u8,
    /// Road, city, cloister or field.
    pub kind: FeatureKind,
}

/// Totals kept at the root of each feature.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Edges (road, city) or half-edges (field) not yet matched by a neighbour; 0 means a
    /// closed road or city, or a fully enclosed field.
    pub open: u32,
    /// Pennants in a city.
    pub pennants: u32,
    /// Inns on a road, cathedrals and goods in a city.
    pub marks: Marks,
    /// Followers standing in the feature.
    pub followers: u32,
}

/// All segments on the board and how they connect.
#[derive(Debug, Default)]
pub struct Features {
    segments: Vec<Segment>,
    graph: UnGraph<(), ()>,
    sets: Sets,
    totals: Vec<Totals>,
    stamp: Vec<u32>,
    epoch: u32,
}

/// Copying the features: `clone_from` reuses the copy's memory.
impl Clone for Features {
    fn clone(&self) -> Features {
        let mut copy = Features::default();
        copy.clone_from(self);
        copy
    }

    fn clone_from(&mut self, source: &Features) {
        let Features {
            segments,
            graph,
            sets,
            totals,
            stamp,
            epoch,
        } = source;
        self.segments.clone_from(segments);
        self.graph.clone_from(graph);
        self.sets.clone_from(sets);
        self.totals.clone_from(totals);
        self.stamp.clone_from(stamp);
        self.epoch = *epoch;
    }
}

impl Features {
    /// Room for about `segments` segments.
    pub fn with_capacity(segments: usize) -> Features {
        Features {
            segments: Vec::with_capacity(segments),
            graph: UnGraph::with_capacity(segments, segments * 2),
            sets: Sets::with_capacity(segments),
            totals: Vec::with_capacity(segments),
            stamp: Vec::with_capacity(segments),
            epoch: 0,
        }
    }

    /// Adds a segment with its own totals and returns its id.
    pub fn add(&mut self, segment: Segment, open: u32, pennants: u32, marks: Marks) -> SegId {
        let id = self.sets.new_set();
        self.graph.add_node(());
        self.segments.push(segment);
        self.totals.push(Totals {
            open,
            pennants,
            marks,
            followers: 0,
        });
        self.stamp.push(0);
        id
    }

    /// Number of segments.
    pub fn len(&self) -> usize {
        self.segments.len()
    }

    /// Whether there are no segments.
    pub fn is_empty(&self) -> bool {
        self.segments.is_empty()
    }

    /// A segment's facts.
    pub fn segment(&self, s: SegId) -> &Segment {
        &self.segments[s as usize]
    }

    /// The feature's representative segment.
    pub fn root(&self, s: SegId) -> SegId {
        self.sets.find(s)
    }

    /// The feature's totals.
    pub fn totals(&self, s: SegId) -> Totals {
        self.totals[self.sets.find(s) as usize]
    }

    /// The feature's representative segment and how many followers stand in it.
    pub fn root_followers(&self, s: SegId) -> (SegId, u32) {
        let root = self.sets.find(s);
        (root, self.totals[root as usize].followers)
    }

    /// Whether two segments belong to the same feature.
    pub fn same(&self, a: SegId, b: SegId) -> bool {
        self.sets.find(a) == self.sets.find(b)
    }

    /// Whether a road or city is closed, or a field enclosed (cloisters are judged by their
    /// neighbours).
    pub fn closed(&self, s: SegId) -> bool {
        self.totals(s).open == 0
    }

    /// Joins two segments across a border (an edge for roads and cities, a half-edge for
    /// fields); each side loses one open edge.
    pub fn join(&mut self, a: SegId, b: SegId) {
        self.graph
            .add_edge(NodeIndex::new(a as usize), NodeIndex::new(b as usize), ());
        let ra = self.sets.find_mut(a);
        let rb = self.sets.find_mut(b);
        self.totals[ra as usize].open -= 1;
        self.totals[rb as usize].open -= 1;
        if ra != rb {
            let (ta, tb) = (self.totals[ra as usize], self.totals[rb as usize]);
            self.sets.union(ra, rb);
            let root = self.sets.find_mut(ra);
            self.totals[root as usize] = Totals {
                open: ta.open + tb.open,
                pennants: ta.pennants + tb.pennants,
                marks: ta.marks.plus(tb.marks),
                followers: ta.followers + tb.followers,
            };
        }
    }

    /// Records a follower arriving (`+1`) or leaving (`-1`) the feature of `s`.
    pub fn add_followers(&mut self, s: SegId, delta: i32) {
        let r = self.sets.find_mut(s) as usize;
        self.totals[r].followers = self.totals[r].followers.saturating_add_signed(delta);
    }

    /// Walks the feature containing `s` and appends its segments to `out`.
    pub fn members(&mut self, s: SegId, out: &mut Vec<SegId>) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.iter_mut().for_each(|v| *v = 0);
            self.epoch = 1;
        }
        let start = out.len();
        out.push(s);
        self.stamp[s as usize] = self.epoch;
        let mut i = start;
        while i < out.len() {
            let cur = out[i];
            for n in self.graph.neighbors(NodeIndex::new(cur as usize)) {
                let n = n.index() as SegId;
                if self.stamp[n as usize] != self.epoch {
                    self.stamp[n as usize] = self.epoch;
                    out.push(n);
                }
            }
            i += 1;
        }
    }
}

/// Which segments form one feature: a union-find over segment ids (union by rank, paths
/// halved when searched with `find_mut`). Its `clone_from` reuses the copy's memory, so copying
/// a game for a bot's look-ahead allocates nothing once warm.
#[derive(Debug, Default)]
struct Sets {
    parent: Vec<SegId>,
    rank: Vec<u8>,
}

impl Clone for Sets {
    fn clone(&self) -> Sets {
        Sets {
            parent: self.parent.clone(),
            rank: self.rank.clone(),
        }
    }

    fn clone_from(&mut self, source: &Sets) {
        self.parent.clone_from(&source.parent);
        self.rank.clone_from(&source.rank);
    }
}

impl Sets {
    fn with_capacity(n: usize) -> Sets {
        Sets {
            parent: Vec::with_capacity(n),
            rank: Vec::with_capacity(n),
        }
    }

    /// A new set of its own.
    fn new_set(&mut self) -> SegId {
        let id = self.parent.len() as SegId;
        self.parent.push(id);
        self.rank.push(0);
        id
    }

    /// The representative of `x`'s set.
    fn find(&self, mut x: SegId) -> SegId {
        loop {
            let up = self.parent[x as usize];
            if up == x {
                return x;
            }
            x = up;
        }
    }

    /// The representative of `x`'s set, pointing each segment on the way at its grandparent.
    fn find_mut(&mut self, mut x: SegId) -> SegId {
        let mut up = self.parent[x as usize];
        while up != x {
            let grand = self.parent[up as usize];
            self.parent[x as usize] = grand;
            x = up;
            up = grand;
        }
        x
    }

    /// Merges the sets of `x` and `y`: the lower-ranked root goes under the other, `x`'s root
    /// stays on top when ranks are equal.
    fn union(&mut self, x: SegId, y: SegId) {
        let (rx, ry) = (self.find_mut(x), self.find_mut(y));
        if rx == ry {
            return;
        }
        let (ix, iy) = (rx as usize, ry as usize);
        match self.rank[ix].cmp(&self.rank[iy]) {
            std::cmp::Ordering::Less => self.parent[ix] = ry,
            std::cmp::Ordering::Greater => self.parent[iy] = rx,
            std::cmp::Ordering::Equal => {
                self.parent[iy] = rx;
                self.rank[ix] += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(placed: PlacedId) -> Segment {
        Segment {
            placed,
            feature: 0,
            kind: FeatureKind::City,
        }
    }

    #[test]
    fn totals_follow_unions_and_loops() {
        let mut f = Features::with_capacity(4);
        let inn = Marks {
            inns: 1,
            ..Marks::default()
        };
        let a = f.add(seg(0), 2, 1, inn);
        let b = f.add(seg(1), 2, 0, Marks::default());
        let c = f.add(seg(2), 2, 1, inn);
        f.join(a, b);
        assert_eq!(f.totals(a).open, 2);
        f.join(b, c);
        assert_eq!(f.totals(c).open, 2);
        assert_eq!(f.totals(c).pennants, 2);
        assert_eq!(f.totals(b).marks.inns, 2);
        // Closing the loop inside one feature takes two open edges away.
        f.join(c, a);
        assert!(f.closed(a));
        f.add_followers(b, 1);
        assert_eq!(f.totals(a).followers, 1);
        let mut out = Vec::new();
        f.members(c, &mut out);
        out.sort();
        assert_eq!(out, vec![a, b, c]);
    }
}
