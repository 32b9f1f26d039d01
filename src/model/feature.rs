//! Features across tiles: every feature part of a placed tile is a segment; segments joined
//! across tile borders form a feature.
//!
//! Each border joint between two segments is kept (a flat list of plain values, threaded on
//! lists headed in the segments' rows, so a copy is a few block copies) so that a feature can
//! be walked, and an incremental union-find over the same rows keeps per-feature totals (open
//! edges, pennants, the tile set's counters, followers) at its root, so completion and
//! occupancy are O(1) to read.

use crate::model::board::PlacedId;
use crate::model::copylog::CopyLog;
use crate::model::tile::{Counters, FeatureKind};

/// Id of a segment (one feature part of one placed tile).
pub type SegId = u32;

/// A segment's fixed facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// The tile it is on.
    pub placed: PlacedId,
    /// Its feature index on that tile; for an overlay road laid across the tile after it was
    /// placed, [`OVERLAY`] with the edges it reaches in the low four bits
    /// ([`Segment::overlay_edges`]).
    pub feature: u8,
    /// Road, city, cloister or field.
    pub kind: FeatureKind,
}

/// The mark of an overlay segment's [`Segment::feature`]: no printed feature of the tile (a
/// tile has at most [`crate::model::tile::MAX_TILE_FEATURES`]), but a road laid across it.
pub const OVERLAY: u8 = 0x80;

impl Segment {
    /// The edges an overlay segment reaches (bit `i` = edge `i`), or `None` for a feature
    /// printed on the tile.
    #[inline]
    pub fn overlay_edges(&self) -> Option<u8> {
        (self.feature & OVERLAY != 0).then_some(self.feature & 0x0F)
    }
}

/// Totals kept at the root of each feature.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Edges (road, city) or half-edges (field) not yet matched by a neighbour; 0 means a
    /// closed road or city, or a fully enclosed field.
    pub open: u32,
    /// Pennants in a city.
    pub pennants: u32,
    /// The counters its parts carry, summed.
    pub counters: Counters,
    /// Figures standing in the feature: its followers and any figure that joined them
    /// (occupancy, B-F3, reads it).
    pub followers: u32,
}

/// All segments on the board and how they connect.
#[derive(Debug, Default)]
pub struct Features {
    segments: Vec<Segment>,
    /// What changes of each segment, by segment id.
    rows: Vec<Row>,
    /// The border joints, threaded on lists headed in the rows (see [`Row::heads`]).
    joints: Vec<Joint>,
    /// Working memory of [`Features::members`]: the number of the walk that last visited each
    /// segment (never above `epoch`), grown to the segments' number as a walk starts.
    stamp: Vec<u32>,
    epoch: u32,
    /// Whether a join since segments were last added took a feature's open edges to 0 (closed
    /// a road or city, or enclosed a field): without one, none of the newest segments is in a
    /// closed road or city.
    closed_lately: bool,
    /// The segments whose rows changed since the features were last copied.
    log: CopyLog,
}

/// What changes of a segment as the board grows: the heads of its lists of joints, its link in
/// the union-find (union by rank, paths halved when searched with `find_mut`) and, at a root,
/// its feature's totals. One row a segment, so that adding a segment is one push, and taking
/// a change back one copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Row {
    /// The segment's newest joint as first end and as second end ([`NO_JOINT`]: none). Each
    /// joint is threaded on two lists, one of the joints it was added from (its first end)
    /// and one of those it was added to (its second end), newest first, so that a segment's
    /// neighbours come out in a fixed order: across the joints of its first list, then those
    /// of its second (the order in which features are walked, and so the order of events,
    /// depends on it).
    heads: [u32; 2],
    /// The segment's parent in the union-find: itself at a root.
    parent: SegId,
    /// The rank of the set, at a root.
    rank: u8,
    /// The feature's totals, at a root.
    totals: Totals,
}

/// One border joint between two segments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Joint {
    /// The segments it joins: the one it was added from, the one it was added to.
    ends: [SegId; 2],
    /// The next (older) joint on the list of each end.
    next: [u32; 2],
}

/// The end of a list of joints.
const NO_JOINT: u32 = u32::MAX;

/// Copying the features: `clone_from` reuses the copy's memory (plain values: block copies),
/// and keeps its own working memory of walks (only its length follows the source). Copied
/// again from the same source (unchanged since), a copy takes back only what it added and the
/// rows it changed.
impl Clone for Features {
    fn clone(&self) -> Features {
        let mut copy = Features::default();
        copy.clone_from(self);
        copy.forget_source();
        copy
    }

    fn clone_from(&mut self, source: &Features) {
        let Features {
            segments,
            rows,
            joints,
            stamp: _,
            epoch: _,
            closed_lately,
            log,
        } = source;
        let id = log.id();
        if self.log.restorable(id) {
            self.restore(source);
        } else {
            self.segments.clone_from(segments);
            self.rows.clone_from(rows);
            self.joints.clone_from(joints);
        }
        self.log.copied(id, segments.len());
        // Stamps never exceed the copy's own epoch, which a walk raises before it starts.
        self.stamp.resize(segments.len(), 0);
        self.closed_lately = *closed_lately;
    }
}

impl Features {
    /// Stops logging changes for a cheap copy back from the source (for a fresh copy, seldom
    /// copied onto again).
    pub(crate) fn forget_source(&mut self) {
        self.log.stop();
    }

    /// Makes these features, copied from `source`'s content and changed since only as logged,
    /// equal to `source` again.
    fn restore(&mut self, source: &Features) {
        let n = source.len();
        self.segments.truncate(n);
        self.rows.truncate(n);
        self.joints.truncate(source.joints.len());
        for s in self.log.changed() {
            let s = *s as usize;
            self.rows[s] = source.rows[s];
        }
    }

    /// Room for about `segments` segments.
    pub fn with_capacity(segments: usize) -> Features {
        Features {
            segments: Vec::with_capacity(segments),
            rows: Vec::with_capacity(segments),
            joints: Vec::with_capacity(segments * 2),
            stamp: Vec::with_capacity(segments),
            epoch: 0,
            closed_lately: false,
            log: CopyLog::default(),
        }
    }

    /// Adds segments, each with its own totals, and returns the id of the first (the others
    /// follow in order). `parts` is gone through twice (a tile's features: once for the facts,
    /// once for the rows, each extended in one go).
    #[inline]
    pub fn add(&mut self, parts: impl Iterator<Item = (Segment, Totals)> + Clone) -> SegId {
        self.log.grow();
        self.closed_lately = false;
        let first = self.segments.len() as SegId;
        self.segments
            .extend(parts.clone().map(|(segment, _)| segment));
        self.rows
            .extend(parts.enumerate().map(|(i, (_, totals))| Row {
                heads: [NO_JOINT; 2],
                parent: first + i as SegId,
                rank: 0,
                totals,
            }));
        first
    }

    /// Adds one segment laid over a tile already on the board (an overlay road), with its own
    /// totals, and returns its id. Unlike [`Features::add`], what the joins of the tile laid
    /// this turn closed stays known ([`Features::closed_lately`]).
    pub fn add_overlay(&mut self, segment: Segment, totals: Totals) -> SegId {
        let closed = self.closed_lately;
        let s = self.add(std::iter::once((segment, totals)));
        self.closed_lately = closed;
        s
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
        find(&self.rows, s)
    }

    /// The feature's totals.
    pub fn totals(&self, s: SegId) -> Totals {
        self.rows[find(&self.rows, s) as usize].totals
    }

    /// The feature's representative segment and its totals.
    pub fn root_totals(&self, s: SegId) -> (SegId, Totals) {
        let root = find(&self.rows, s);
        (root, self.rows[root as usize].totals)
    }

    /// Whether two segments belong to the same feature.
    pub fn same(&self, a: SegId, b: SegId) -> bool {
        find(&self.rows, a) == find(&self.rows, b)
    }

    /// Whether a road or city is closed, or a field enclosed (cloisters are judged by their
    /// neighbours).
    pub fn closed(&self, s: SegId) -> bool {
        self.totals(s).open == 0
    }

    /// Joins two segments across `borders` borders of one tile edge (the edge for roads and
    /// cities, one or both half-edges for fields); each side loses that many open edges. Both
    /// half-edges of an edge make one joint: a walk meets the same neighbours in the same order
    /// as across two.
    pub fn join(&mut self, a: SegId, b: SegId, borders: u32) {
        self.log_paths([a, b]);
        self.add_joint(a, b);
        // Borrowed apart from the log, the rows stay in hand while it grows.
        let rows = &mut self.rows[..];
        let ra = find_mut(rows, a);
        let rb = find_mut(rows, b);
        // The joint heads of `a` and `b` change, and the totals and union-find links of both
        // roots (one of which stays the root).
        self.log
            .changes([a as usize, b as usize, ra as usize, rb as usize]);
        rows[ra as usize].totals.open -= borders;
        rows[rb as usize].totals.open -= borders;
        let open = if ra != rb {
            let (ta, tb) = (rows[ra as usize].totals, rows[rb as usize].totals);
            let root = link(rows, ra, rb);
            rows[root as usize].totals = Totals {
                open: ta.open + tb.open,
                pennants: ta.pennants + tb.pennants,
                counters: ta.counters.plus(tb.counters),
                followers: ta.followers + tb.followers,
            };
            ta.open + tb.open
        } else {
            rows[ra as usize].totals.open
        };
        self.closed_lately |= open == 0;
    }

    /// Closes `borders` open edges of the feature of `s` without joining it to anything: the
    /// border ends there (a wild edge, `EdgeKind::Wild`, faces it).
    pub fn close(&mut self, s: SegId, borders: u32) {
        self.log_paths([s]);
        let r = find_mut(&mut self.rows, s) as usize;
        self.log.changes([r]);
        let open = &mut self.rows[r].totals.open;
        *open = open.saturating_sub(borders);
        self.closed_lately |= *open == 0;
    }

    /// Whether a join since segments were last added closed a feature (see
    /// [`Features::join`]): when not, no road or city of the newest segments is closed.
    pub fn closed_lately(&self) -> bool {
        self.closed_lately
    }

    /// Records a follower arriving (`+1`) or leaving (`-1`) the feature of `s`.
    pub fn add_followers(&mut self, s: SegId, delta: i32) {
        self.log_paths([s]);
        let r = find_mut(&mut self.rows, s) as usize;
        self.log.changes([r]);
        let followers = &mut self.rows[r].totals.followers;
        *followers = followers.saturating_add_signed(delta);
    }

    /// Logs the segments on the way from each of `from` to its root, which a search may point
    /// elsewhere, if changes are logged.
    fn log_paths<const N: usize>(&mut self, from: [SegId; N]) {
        if !self.log.logging() {
            return;
        }
        for mut x in from {
            let mut up = self.rows[x as usize].parent;
            while up != x {
                self.log.changes([x as usize]);
                x = up;
                up = self.rows[x as usize].parent;
            }
        }
    }

    /// Walks the feature containing `s` and appends its segments to `out`.
    pub fn members(&mut self, s: SegId, out: &mut Vec<SegId>) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.iter_mut().for_each(|v| *v = 0);
            self.epoch = 1;
        }
        // Segments added since the last walk start unvisited.
        self.stamp.resize(self.segments.len(), 0);
        let start = out.len();
        out.push(s);
        self.stamp[s as usize] = self.epoch;
        let mut i = start;
        while i < out.len() {
            let Features {
                rows,
                joints,
                stamp,
                epoch,
                ..
            } = self;
            each_neighbour(rows, joints, out[i], |n| {
                if stamp[n as usize] != *epoch {
                    stamp[n as usize] = *epoch;
                    out.push(n);
                }
            });
            i += 1;
        }
    }

    /// Joins `a` to `b` by a new joint, which heads `a`'s first list and `b`'s second.
    fn add_joint(&mut self, a: SegId, b: SegId) {
        let j = self.joints.len() as u32;
        let rows = &mut self.rows[..];
        let next = [rows[a as usize].heads[0], rows[b as usize].heads[1]];
        self.joints.push(Joint { ends: [a, b], next });
        rows[a as usize].heads[0] = j;
        rows[b as usize].heads[1] = j;
    }
}

/// The representative of `x`'s set in the union-find over `rows`.
fn find(rows: &[Row], mut x: SegId) -> SegId {
    loop {
        let up = rows[x as usize].parent;
        if up == x {
            return x;
        }
        x = up;
    }
}

/// The representative of `x`'s set in the union-find over `rows`, pointing each segment on the
/// way at its grandparent.
fn find_mut(rows: &mut [Row], mut x: SegId) -> SegId {
    let mut up = rows[x as usize].parent;
    while up != x {
        let grand = rows[up as usize].parent;
        rows[x as usize].parent = grand;
        x = up;
        up = grand;
    }
    x
}

/// Merges the sets of the roots `rx` and `ry` (two different sets) in the union-find over
/// `rows` and returns the root of the merged set: the lower-ranked root goes under the other,
/// `rx` stays on top when ranks are equal.
fn link(rows: &mut [Row], rx: SegId, ry: SegId) -> SegId {
    let (ix, iy) = (rx as usize, ry as usize);
    match rows[ix].rank.cmp(&rows[iy].rank) {
        std::cmp::Ordering::Less => {
            rows[ix].parent = ry;
            ry
        }
        std::cmp::Ordering::Greater => {
            rows[iy].parent = rx;
            rx
        }
        std::cmp::Ordering::Equal => {
            rows[iy].parent = rx;
            rows[ix].rank += 1;
            rx
        }
    }
}

/// Calls `visit` with each segment joined to `s`: across its first list, then across its
/// second (where a joint of `s` to itself, met again, is skipped).
fn each_neighbour(rows: &[Row], joints: &[Joint], s: SegId, mut visit: impl FnMut(SegId)) {
    let [mut first, mut second] = rows[s as usize].heads;
    while let Some(joint) = joints.get(first as usize) {
        first = joint.next[0];
        visit(joint.ends[1]);
    }
    while let Some(joint) = joints.get(second as usize) {
        second = joint.next[1];
        if joint.ends[0] != s {
            visit(joint.ends[0]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::tile::CounterId;

    fn seg(placed: PlacedId) -> Segment {
        Segment {
            placed,
            feature: 0,
            kind: FeatureKind::City,
        }
    }

    /// Adds one segment with `open` edges, `pennants` and `counters`.
    fn add_one(
        f: &mut Features,
        segment: Segment,
        open: u32,
        pennants: u32,
        counters: Counters,
    ) -> SegId {
        let totals = Totals {
            open,
            pennants,
            counters,
            followers: 0,
        };
        f.add(std::iter::once((segment, totals)))
    }

    #[test]
    fn totals_follow_unions_and_loops() {
        let mut f = Features::with_capacity(4);
        let one = CounterId::new(0);
        let marked = Counters::default().with(one, 1);
        let a = add_one(&mut f, seg(0), 2, 1, marked);
        let b = add_one(&mut f, seg(1), 2, 0, Counters::default());
        let c = add_one(&mut f, seg(2), 2, 1, marked);
        f.join(a, b, 1);
        assert_eq!(f.totals(a).open, 2);
        f.join(b, c, 1);
        assert_eq!(f.totals(c).open, 2);
        assert_eq!(f.totals(c).pennants, 2);
        assert_eq!(f.totals(b).counters.get(one), 2);
        // Closing the loop inside one feature takes two open edges away.
        f.join(c, a, 1);
        assert!(f.closed(a));
        f.add_followers(b, 1);
        assert_eq!(f.totals(a).followers, 1);
        let mut out = Vec::new();
        f.members(c, &mut out);
        out.sort();
        assert_eq!(out, vec![a, b, c]);
    }

    /// Issue 11: a field joined across both half-edges of an edge at once has the totals and
    /// walks it has when joined across each half-edge in turn.
    #[test]
    fn two_borders_at_once_equal_two_joins() {
        let build = |at_once: bool| {
            let mut f = Features::with_capacity(4);
            let s: Vec<SegId> = (0..4)
                .map(|i| add_one(&mut f, seg(i), 4, 0, Counters::default()))
                .collect();
            f.join(s[0], s[1], 1);
            if at_once {
                f.join(s[2], s[0], 2);
            } else {
                f.join(s[2], s[0], 1);
                f.join(s[2], s[0], 1);
            }
            f.join(s[3], s[2], 1);
            let walks: Vec<Vec<SegId>> = s
                .iter()
                .map(|&x| {
                    let mut out = Vec::new();
                    f.members(x, &mut out);
                    out
                })
                .collect();
            (f.totals(s[0]), walks)
        };
        let (totals, walks) = build(true);
        assert_eq!(totals.open, 16 - 2 * 4);
        assert_eq!((totals, walks), build(false));
    }

    /// B-M5: the features tell whether the joins since segments were last added closed one,
    /// which is what spares looking for a completed road or city when a tile closed none.
    #[test]
    fn joins_tell_whether_they_closed_a_feature() {
        let mut f = Features::with_capacity(4);
        let a = add_one(&mut f, seg(0), 2, 0, Counters::default());
        let b = add_one(&mut f, seg(1), 1, 0, Counters::default());
        assert!(!f.closed_lately());
        f.join(a, b, 1);
        assert!(!f.closed_lately(), "one open edge is left");
        let c = add_one(&mut f, seg(2), 1, 0, Counters::default());
        assert!(!f.closed_lately());
        f.join(c, a, 1);
        assert!(f.closed_lately() && f.closed(b));
        add_one(&mut f, seg(3), 1, 0, Counters::default());
        assert!(!f.closed_lately(), "new segments start afresh");
    }

    /// Whether two sets of features hold the same content (walk stamps aside).
    fn same_content(x: &Features, y: &Features) -> bool {
        x.segments == y.segments && x.rows == y.rows && x.joints == y.joints
    }

    /// Changes `f` at random: `steps` new segments, joins and followers.
    fn scramble(f: &mut Features, rng: &mut impl rand::RngExt, steps: usize) {
        for _ in 0..steps {
            let n = f.len() as SegId;
            match rng.random_range(0..4) {
                0 => {
                    add_one(f, seg(n as PlacedId), 4, 0, Counters::default());
                }
                1 | 2 if n > 1 => {
                    let (a, b) = (rng.random_range(0..n), rng.random_range(0..n));
                    if a != b {
                        f.join(a, b, 1);
                    }
                }
                _ if n > 0 => f.add_followers(rng.random_range(0..n), 1),
                _ => {}
            }
        }
    }

    /// Issue 11, item 5: a copy copied onto again from its unchanged source takes back only
    /// what it changed, and ends equal to the source all the same; so does a copy whose source
    /// changed, or that changed more than it logs (both copied whole).
    #[test]
    fn a_copy_copied_again_equals_its_source() {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut source = Features::with_capacity(8);
        scramble(&mut source, &mut rng, 200);
        let mut copy = source.clone();
        for round in 0..300 {
            // Mostly small changes (as a bot's candidate), now and then many.
            let steps = if round % 50 == 7 { 2_000 } else { round % 9 };
            scramble(&mut copy, &mut rng, steps);
            if round % 10 == 3 {
                scramble(&mut source, &mut rng, 3);
            }
            copy.clone_from(&source);
            assert!(same_content(&copy, &source), "round {round}");
            let mut walked = (Vec::new(), Vec::new());
            for s in 0..source.len() as SegId {
                walked.0.clear();
                walked.1.clear();
                copy.members(s, &mut walked.0);
                source.members(s, &mut walked.1);
                assert_eq!(walked.0, walked.1);
            }
        }
    }

    /// A feature is walked in a fixed order (the order of events depends on it): from each
    /// segment, across the joints it was joined from, newest first, then across those it was
    /// joined to, newest first.
    #[test]
    fn members_come_in_joint_order() {
        let mut f = Features::with_capacity(6);
        let s: Vec<SegId> = (0..6)
            .map(|i| add_one(&mut f, seg(i), 4, 0, Counters::default()))
            .collect();
        f.join(s[0], s[1], 1);
        f.join(s[2], s[0], 1);
        f.join(s[0], s[3], 1);
        f.join(s[4], s[0], 1);
        f.join(s[1], s[5], 1);
        let mut out = Vec::new();
        f.members(s[0], &mut out);
        assert_eq!(out, vec![s[0], s[3], s[1], s[4], s[2], s[5]]);
        out.clear();
        f.members(s[5], &mut out);
        assert_eq!(out, vec![s[5], s[1], s[0], s[3], s[4], s[2]]);
    }
}
