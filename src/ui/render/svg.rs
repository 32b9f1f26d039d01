//! The board as an SVG picture, drawn from the tile data alone.
//!
//! Every tile is a 100 × 100 square in a `<g class="tile">` group with `data-x`, `data-y`,
//! `data-id` and `data-rotation` attributes: green field, tan city parts reaching the edges they
//! touch with a brown wall line, pennants as blue shields, the princess as a crown, roads as
//! light lines (to the centre when they are stubs), cloisters as small buildings, Abbot gardens
//! as hedged squares with a tree (`class="garden"`), inns as small houses with a red roof beside
//! their road (`class="inn"`), cathedrals as grey churches (`class="cathedral"`), goods as
//! tokens (`class="good wine"`, `grain`, `cloth`), the printed symbols (volcano, dragon,
//! magic portal), and a grey stone wall along each wild edge (`class="wall"`: the abbey's
//! four sides, which end whatever meets them). Above the tiles come the figures, each a
//! `<g class="figure">` with `data-player` (seat, from 0), `data-spot`, `data-x`, `data-y` and
//! `data-kind` (a big follower is drawn larger, an abbot with a white cross on its chest),
//! then the families' pieces that stand on no feature, each a `<g class="NAME">` with `data-x`
//! and `data-y` (`engine::show::Piece`: the dragon, the fairy), then the figures that stand at
//! a place that is no feature (`<g class="figure">` with `data-place` `tile`, drawn on top of
//! the tile's piece as a follower on a tower, or `corner`, at the corner where four tiles
//! meet, the north-east corner of the tile `data-x`, `data-y` names). Coordinates run
//! along the top and left; a legend below gives every player's colour, name and score.

use super::layout::{CLOISTER_HALF, Layout, Pt, ROAD_HALF, Shape};
use super::{Cache, figure_feature};
use crate::data::printed::{Print, Prints};
use crate::data::ruleset::Ruleset;
use crate::engine::game::Game;
use crate::model::figure::{FigureKind, Place};
use crate::model::geometry::{Edge, Pos, Rotation, Spot};
use crate::model::tile::{TileId, TileType};
use std::fmt::Write;
use std::sync::Arc;

/// Side of a tile in SVG units.
const TILE: f64 = 100.0;
/// Room left of the board (y coordinates).
const LEFT: f64 = 44.0;
/// Room above the board (title, x coordinates).
const TOP: f64 = 64.0;
/// Height of one legend line.
const LINE: f64 = 26.0;
/// The font, as the PNG renderer knows it.
pub(crate) const FONT: &str = "DejaVu Sans";

/// Player colours by seat.
const PLAYERS: [&str; 6] = [
    "#d62d20", "#1f5fbf", "#2e9e44", "#f2c80f", "#8e44ad", "#333333",
];

/// The colour of seat `seat`.
pub fn player_colour(seat: usize) -> &'static str {
    PLAYERS[seat % PLAYERS.len()]
}

/// How a figure of `kind` differs from its outline as its figure table row says: a scale
/// (`scale`: the big follower is larger) and a mark drawn over it (`badge`: the abbot's cross).
fn figure_look(game: &Game, kind: FigureKind) -> (String, String) {
    let Some(row) = game.rules().figures.row(kind) else {
        return (String::new(), String::new());
    };
    let scale = match row.scale_percent {
        100 => String::new(),
        p => format!(" scale({})", f64::from(p) / 100.0),
    };
    let badge = row.badge.as_deref().map_or(String::new(), |d| {
        format!(
            r##"<path class="badge {}" d="{d}" stroke="#ffffff" stroke-width="2.2"/>"##,
            kind.name()
        )
    });
    (scale, badge)
}

/// Escapes text for XML (and HTML) content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\t' && c != '\n' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A list of points scaled to a tile, for `points` attributes.
fn points(pts: &[Pt]) -> String {
    let mut s = String::new();
    for (i, p) in pts.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        let _ = write!(s, "{},{}", num(p.0 * TILE), num(p.1 * TILE));
    }
    s
}

/// A number with at most one decimal.
fn num(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// The drawing of one tile type in one orientation, in tile units, and its layout.
struct SvgTile {
    body: String,
    layout: Layout,
}

fn road(out: &mut String, pts: &[Pt], colour: &str, width: f64) {
    let _ = write!(
        out,
        r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="{}" stroke-linejoin="round"/>"#,
        points(pts),
        num(width)
    );
}

impl SvgTile {
    /// Draws a tile laid out as `layout`, its marks as `prints` draws them.
    fn new(layout: &Layout, prints: &Prints) -> SvgTile {
        let mut b = String::new();
        b.push_str(r##"<rect width="100" height="100" fill="#86b95b"/>"##);
        let road_w = 2.0 * ROAD_HALF * TILE * 0.8;
        let roads = |b: &mut String, through: bool| {
            for s in &layout.shapes {
                if let Shape::Road {
                    path, through: t, ..
                } = s
                    && *t == through
                {
                    road(b, path, "#6f5b3e", road_w + 3.0);
                }
            }
            for s in &layout.shapes {
                if let Shape::Road {
                    path, through: t, ..
                } = s
                    && *t == through
                {
                    road(b, path, "#f1e8cf", road_w);
                }
            }
        };
        roads(&mut b, false);
        let stubs = layout
            .shapes
            .iter()
            .filter(|s| matches!(s, Shape::Road { through: false, .. }))
            .count();
        let centre_free = layout.symbol.is_none_or(|(_, p)| p != (0.5, 0.5))
            && layout.solid_at((0.5, 0.5), ROAD_HALF).is_some_and(|f| {
                matches!(
                    layout.shapes[f as usize],
                    Shape::Road { through: false, .. }
                )
            });
        if stubs >= 2 || stubs == 1 && centre_free {
            // Where roads meet or end in the open: a small square.
            b.push_str(r##"<circle cx="50" cy="50" r="8" fill="#f1e8cf" stroke="#6f5b3e" stroke-width="1.5"/>"##);
        }
        for s in &layout.shapes {
            if let Shape::City { fill, walls } = s {
                let _ = write!(
                    b,
                    r##"<polygon class="city" points="{}" fill="#d9b57a"/>"##,
                    points(fill)
                );
                for w in walls {
                    let _ = write!(
                        b,
                        r##"<polyline points="{}" fill="none" stroke="#7a5230" stroke-width="3" stroke-linejoin="round"/>"##,
                        points(w)
                    );
                }
            }
        }
        roads(&mut b, true);
        if layout.shapes.iter().any(|s| matches!(s, Shape::Cloister)) {
            let h = CLOISTER_HALF * TILE;
            let _ = write!(
                b,
                concat!(
                    r##"<g class="cloister"><rect x="{x}" y="{x}" width="{w}" height="{w}" rx="3" "##,
                    r##"fill="#efe6d2" stroke="#7a5230" stroke-width="2"/>"##,
                    r##"<polygon points="{x},{mid} 50,{top} {r},{mid}" fill="#b5452c" stroke="#7a2a18" stroke-width="1.5"/>"##,
                    r##"<path d="M50,53 V63 M46,57 H54" stroke="#7a5230" stroke-width="2"/></g>"##
                ),
                x = num(50.0 - h),
                w = num(2.0 * h),
                r = num(50.0 + h),
                mid = num(50.0 - h / 4.0),
                top = num(50.0 - h - 2.0),
            );
        }
        if let Some(p) = layout.garden {
            let _ = write!(
                b,
                concat!(
                    r##"<g class="garden" transform="translate({},{})">"##,
                    r##"<rect x="-11" y="-11" width="22" height="22" rx="5" "##,
                    r##"fill="#9fd36b" stroke="#2f6b1f" stroke-width="3" stroke-dasharray="3 2"/>"##,
                    r##"<path d="M0,8 V0" stroke="#6b4a2a" stroke-width="2.5"/>"##,
                    r##"<circle cx="0" cy="-3" r="6" fill="#3f8f2a" stroke="#1f4f12" stroke-width="1.2"/></g>"##
                ),
                num(inside(p.0) * TILE),
                num(inside(p.1) * TILE)
            );
        }
        for (p, _, id) in &layout.marks {
            b.push_str(&print_svg(prints.counter(*id), *p));
        }
        for (p, _) in &layout.pennants {
            let _ = write!(
                b,
                concat!(
                    r##"<path class="pennant" transform="translate({},{})" d="M-6,-7 H6 V0 Q6,6 0,9 Q-6,6 -6,0 Z" "##,
                    r##"fill="#2850a0" stroke="#ffffff" stroke-width="1.5"/>"##
                ),
                num(inside(p.0) * TILE),
                num(inside(p.1) * TILE)
            );
        }
        for (p, _, id) in &layout.crests {
            b.push_str(&print_svg(prints.counter(*id), *p));
        }
        if let Some((s, p)) = layout.symbol {
            b.push_str(&print_svg(prints.symbol(s), p));
        }
        wild_walls(&mut b, layout.wild);
        b.push_str(r##"<rect width="100" height="100" fill="none" stroke="#000000" stroke-opacity="0.25"/>"##);
        SvgTile {
            body: b,
            layout: layout.clone(),
        }
    }
}

/// A stone wall along each wild edge of `wild` (bit `e` for edge `e`): such an edge fits
/// anything and ends every road, city and field that meets it (the abbey, AM-4).
fn wild_walls(b: &mut String, wild: u8) {
    for e in Edge::ALL.into_iter().filter(|e| wild & 1 << *e as u8 != 0) {
        let (x1, y1, x2, y2) = match e {
            Edge::N => (0.0, 2.5, 100.0, 2.5),
            Edge::E => (97.5, 0.0, 97.5, 100.0),
            Edge::S => (0.0, 97.5, 100.0, 97.5),
            Edge::W => (2.5, 0.0, 2.5, 100.0),
        };
        let _ = write!(
            b,
            r##"<line class="wall" x1="{}" y1="{}" x2="{}" y2="{}" stroke="#8c8377" stroke-width="5" stroke-dasharray="7 3"/>"##,
            num(x1),
            num(y1),
            num(x2),
            num(y2)
        );
    }
}

/// The picture of a printed counter or symbol (`data::printed`) at `p` of its tile (nothing for
/// one the table does not know).
fn print_svg(print: Option<&Print>, p: Pt) -> String {
    let (x, y) = (num(inside(p.0) * TILE), num(inside(p.1) * TILE));
    print.map_or(String::new(), |print| {
        print.svg.replace("{x}", &x).replace("{y}", &y)
    })
}

/// A meeple standing at the origin, about 24 units tall.
const MEEPLE: &str = "M0,-12 C3.2,-12 4.6,-9.6 4.2,-6.8 L10.5,-4 C12,-3.2 11.6,-0.6 10,-0.6 \
    L5.6,-0.8 L9.6,9.4 C10,10.6 9.2,11 8.4,11 L2.2,11 L0,6.4 L-2.2,11 L-8.4,11 \
    C-9.2,11 -10,10.6 -9.6,9.4 L-5.6,-0.8 L-10,-0.6 C-11.6,-0.6 -12,-3.2 -10.5,-4 \
    L-4.2,-6.8 C-4.6,-9.6 -3.2,-12 0,-12 Z";

/// The outline of a figure of `kind` from its figure table row (`shape`), or the meeple; and
/// whether it stands beside the follower it joins (`joins_own`).
fn figure_shape(game: &Game, kind: FigureKind) -> (&str, bool) {
    let row = game.rules().figures.row(kind);
    let shape = row.and_then(|r| r.shape.as_deref()).unwrap_or(MEEPLE);
    (shape, row.is_some_and(|r| r.joins_own))
}

/// An overlay road reaching the edges `edges` (bit `i` = edge `i`) drawn across a tile, in
/// tile units from its top left corner: a plank road from edge to edge with rails.
fn overlay_road(edges: u8) -> String {
    let (x1, y1, x2, y2) = if edges & 0b0101 != 0 {
        (TILE / 2.0, 0.0, TILE / 2.0, TILE)
    } else {
        (0.0, TILE / 2.0, TILE, TILE / 2.0)
    };
    format!(
        concat!(
            r##"<line x1="{a}" y1="{b}" x2="{c}" y2="{d}" stroke="#5a3a1a" stroke-width="16"/>"##,
            r##"<line x1="{a}" y1="{b}" x2="{c}" y2="{d}" stroke="#c8a060" stroke-width="10" stroke-dasharray="3 2"/>"##
        ),
        a = num(x1),
        b = num(y1),
        c = num(x2),
        d = num(y2)
    )
}

/// Where a figure on an overlay road stands (its segment's `feature` is the overlay mark with
/// its edges), as a fraction of the tile: on the road, off the tile's centre.
fn overlay_point(feature: u8) -> Pt {
    if feature & 0b0101 != 0 {
        (0.5, 0.3)
    } else {
        (0.3, 0.5)
    }
}

/// Keeps a piece's centre far enough inside its tile for the piece to stay on it.
fn inside(v: f64) -> f64 {
    v.clamp(0.13, 0.87)
}

/// A point on the tile for a piece about a quarter tile wide: on field if possible, away
/// from the `taken` points, near the centre.
fn free_point(layout: &Layout, taken: &[Pt]) -> Pt {
    let is_field = |p: Pt| {
        layout
            .feature_at(p, ROAD_HALF, false)
            .is_none_or(|f| matches!(layout.shapes[f as usize], Shape::Field))
    };
    let mut best = ((0.5, 0.5), f64::MIN);
    for j in 0..7 {
        for i in 0..7 {
            let p = (0.2 + 0.1 * i as f64, 0.2 + 0.1 * j as f64);
            let around = [
                (0.0, 0.0),
                (-0.12, 0.0),
                (0.12, 0.0),
                (0.0, -0.12),
                (0.0, 0.12),
            ];
            let grass = around
                .iter()
                .filter(|d| is_field((p.0 + d.0, p.1 + d.1)))
                .count() as f64
                / around.len() as f64;
            let room = taken
                .iter()
                .map(|t| ((t.0 - p.0).powi(2) + (t.1 - p.1).powi(2)).sqrt())
                .fold(0.3f64, f64::min);
            let centre = ((p.0 - 0.5).powi(2) + (p.1 - 0.5).powi(2)).sqrt();
            let score = room + 0.3 * grass - 0.1 * centre;
            if score > best.1 {
                best = (p, score);
            }
        }
    }
    best.0
}

/// The board as an SVG document (see the module documentation).
pub fn board(game: &Game) -> String {
    board_titled(game, "")
}

/// The board as an SVG document with a caption line (for example "after 12 of 40 actions").
pub fn board_titled(game: &Game, caption: &str) -> String {
    board_around(game, caption, &[]).0
}

/// Where board positions lie in a picture made by [`board_around`]: the tile at (`x`, `y`)
/// has its top left corner at (`left + (x - x0) * tile`, `top + (y - y0) * tile`).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Frame {
    /// The leftmost column drawn.
    pub x0: i32,
    /// The topmost row drawn.
    pub y0: i32,
    /// SVG units left of column `x0`.
    pub left: f64,
    /// SVG units above row `y0`.
    pub top: f64,
    /// The side of a tile in SVG units.
    pub tile: f64,
}

/// The board as [`board_titled`] draws it, widened so that the empty positions `around` (for
/// example where the drawn tile may go) fit in the picture, and the [`Frame`] that places
/// positions in it.
pub fn board_around(game: &Game, caption: &str, around: &[Pos]) -> (String, Frame) {
    let rules = game.rules();
    let placed = game.board().tiles();
    let all = || placed.iter().map(|t| t.pos).chain(around.iter().copied());
    let x0 = all().map(|p| p.x).min().unwrap_or(0);
    let x1 = all().map(|p| p.x).max().unwrap_or(0);
    let y0 = all().map(|p| p.y).min().unwrap_or(0);
    let y1 = all().map(|p| p.y).max().unwrap_or(0);
    let frame = Frame {
        x0,
        y0,
        left: LEFT,
        top: TOP,
        tile: TILE,
    };
    let cols = (x1 - x0 + 1) as f64;
    let rows = (y1 - y0 + 1) as f64;
    let players = &game.setup().players;
    let board_bottom = TOP + rows * TILE;
    let mut title = format!("{} ({})", rules.name, players.join(", "));
    if !caption.is_empty() {
        title.push_str(" \u{2014} ");
        title.push_str(caption);
    }
    // Room for the title and the legend, at a rough 9 units per character.
    let text_width = |chars: usize| LEFT + 40.0 + 9.0 * chars as f64;
    let longest_name = players.iter().map(|p| p.chars().count() + 12).max();
    let width = (LEFT + cols * TILE + 20.0)
        .max(text_width(title.chars().count()))
        .max(text_width(longest_name.unwrap_or(0)))
        .max(420.0);
    let height = board_bottom + 24.0 + LINE * (players.len() as f64 + 1.0);
    let origin = |p: Pos| {
        (
            LEFT + (p.x - x0) as f64 * TILE,
            TOP + (p.y - y0) as f64 * TILE,
        )
    };

    let mut s = String::new();
    let _ = write!(
        s,
        concat!(
            r#"<?xml version="1.0" encoding="UTF-8"?>"#,
            "\n",
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" "#,
            r#"font-family="{font}, sans-serif">"#,
            "\n"
        ),
        w = num(width),
        h = num(height),
        font = FONT
    );
    let _ = writeln!(
        s,
        r##"<rect class="background" width="{}" height="{}" fill="#f3efe4"/>"##,
        num(width),
        num(height)
    );
    let _ = writeln!(
        s,
        r##"<text class="title" x="{}" y="24" font-size="16" fill="#222222">{}</text>"##,
        num(LEFT),
        esc(&title)
    );
    let _ = writeln!(
        s,
        r##"<g class="coordinates" font-size="13" fill="#555555">"##
    );
    for x in x0..=x1 {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">{x}</text>"#,
            num(LEFT + (x - x0) as f64 * TILE + TILE / 2.0),
            num(TOP - 10.0)
        );
    }
    for y in y0..=y1 {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="end">{y}</text>"#,
            num(LEFT - 8.0),
            num(TOP + (y - y0) as f64 * TILE + TILE / 2.0 + 5.0)
        );
    }
    s.push_str("</g>\n<g class=\"tiles\">\n");

    let mut cache: Cache<SvgTile> = Cache::default();
    for p in placed {
        let t = cache.get(rules, p.tile, p.rotation, |l| {
            SvgTile::new(l, &rules.prints)
        });
        let (ox, oy) = origin(p.pos);
        let _ = writeln!(
            s,
            r#"<g class="tile" data-x="{}" data-y="{}" data-id="{}" data-rotation="{}" transform="translate({},{})">{}</g>"#,
            p.pos.x,
            p.pos.y,
            esc(&rules.tile(p.tile).id),
            p.rotation.degrees(),
            num(ox),
            num(oy),
            t.body
        );
    }
    // Roads laid across tiles after they were placed (overlays), over the tiles.
    for &(id, _) in game.board().overlays() {
        let pos = placed[id as usize].pos;
        let (ox, oy) = origin(pos);
        let _ = writeln!(
            s,
            r##"<g class="overlay-road" data-x="{}" data-y="{}" transform="translate({},{})">{}</g>"##,
            pos.x,
            pos.y,
            num(ox),
            num(oy),
            overlay_road(game.board().overlay(id))
        );
    }
    s.push_str("</g>\n<g class=\"pieces\">\n");

    // Figures, remembering where each stands for the pieces that come after.
    let mut at: Vec<(u32, Pos, Pt)> = Vec::new();
    for f in game.figures() {
        let (id, feature) = figure_feature(game, f);
        let p = &placed[id as usize];
        let layout = &cache
            .get(rules, p.tile, p.rotation, |l| {
                SvgTile::new(l, &rules.prints)
            })
            .layout;
        let spot = (layout.spots.get(usize::from(feature)).copied())
            .unwrap_or_else(|| overlay_point(feature));
        let field = (layout.shapes.get(usize::from(feature)))
            .is_some_and(|shape| matches!(shape, Shape::Field));
        let (ox, oy) = origin(p.pos);
        let (fx, fy) = (ox + inside(spot.0) * TILE, oy + inside(spot.1) * TILE);
        let (_, spot_name) = game.figure_spot(f);
        // A figure that joins its owner's follower (a builder, a pig) stands beside it.
        let (shape, (fx, fy)) = match figure_shape(game, f.kind) {
            (shape, true) => (shape, (fx + 12.0, fy + 10.0)),
            (shape, false) => (shape, (fx, fy)),
        };
        let (scale, badge) = figure_look(game, f.kind);
        let _ = writeln!(
            s,
            r##"<g class="figure" data-player="{}" data-spot="{}" data-x="{}" data-y="{}" data-kind="{}" transform="translate({},{}){}{scale}"><path d="{shape}" fill="{}" stroke="#1a1a1a" stroke-width="1.5"/>{badge}</g>"##,
            f.owner,
            spot_name,
            p.pos.x,
            p.pos.y,
            f.kind.name(),
            num(fx),
            num(fy),
            // Farmers lie down (a figure of another shape stands).
            if field && shape == MEEPLE {
                " rotate(90)"
            } else {
                ""
            },
            player_colour(f.owner)
        );
        at.push((f.id, p.pos, spot));
    }
    let taken_on = |pos: Pos, at: &[(u32, Pos, Pt)]| -> Vec<Pt> {
        at.iter()
            .filter(|(_, q, _)| *q == pos)
            .map(|(_, _, p)| *p)
            .collect()
    };
    // The families' pieces on no feature: beside their figure, or on a free point of their
    // tile away from the figures, the printed symbol and the pieces drawn before.
    let mut drawn: Vec<(Pos, Pt)> = Vec::new();
    for piece in crate::registry::presenters()
        .iter()
        .flat_map(|p| p.pieces(game))
    {
        let Some(id) = game.board().at(piece.pos) else {
            continue;
        };
        let p = &placed[id as usize];
        let layout = &cache
            .get(rules, p.tile, p.rotation, |l| {
                SvgTile::new(l, &rules.prints)
            })
            .layout;
        let beside = piece
            .beside
            .and_then(|f| at.iter().find(|(id, _, _)| *id == f))
            .map(|(_, _, q)| (q.0 + 0.13, q.1 - 0.1));
        let q = beside.unwrap_or_else(|| {
            let mut taken = taken_on(piece.pos, &at);
            taken.extend(layout.symbol.map(|(_, q)| q));
            taken.extend(
                drawn
                    .iter()
                    .filter(|(pos, _)| *pos == piece.pos)
                    .map(|(_, q)| *q),
            );
            free_point(layout, &taken)
        });
        drawn.push((piece.pos, q));
        let (ox, oy) = origin(piece.pos);
        let _ = writeln!(
            s,
            r##"<g class="{}" data-x="{}" data-y="{}" transform="translate({},{})">{}</g>"##,
            piece.name,
            piece.pos.x,
            piece.pos.y,
            num(ox + inside(q.0) * TILE),
            num(oy + inside(q.1) * TILE),
            piece.svg
        );
    }
    // Figures at a place that is no feature: on a tile (on top of the piece drawn there, as a
    // follower on a tower), at the corner where four tiles meet (the north-east corner of
    // the tile named) or on a side two tiles share (the named tile's north or east side).
    for (owner, kind, place) in game.placed_figures() {
        let (name, pos, (x, y)) = match place {
            Place::Tile(pos) => {
                let Some(id) = game.board().at(pos) else {
                    continue;
                };
                let p = &placed[id as usize];
                let layout = &cache
                    .get(rules, p.tile, p.rotation, |l| {
                        SvgTile::new(l, &rules.prints)
                    })
                    .layout;
                let on_piece = drawn.iter().find(|(at, _)| *at == pos);
                let q = on_piece.map_or_else(
                    || free_point(layout, &taken_on(pos, &at)),
                    |(_, q)| (q.0, q.1 - 0.14),
                );
                let (ox, oy) = origin(pos);
                (
                    "tile",
                    pos,
                    (ox + inside(q.0) * TILE, oy + inside(q.1) * TILE),
                )
            }
            Place::Corner(pos) => {
                let (ox, oy) = origin(pos);
                ("corner", pos, (ox + TILE, oy))
            }
            Place::Side(pos, edge) => {
                let (ox, oy) = origin(pos);
                let at = if edge == Edge::N {
                    (ox + TILE / 2.0, oy)
                } else {
                    (ox + TILE, oy + TILE / 2.0)
                };
                ("side", pos, at)
            }
        };
        let (shape, _) = figure_shape(game, kind);
        let (scale, badge) = figure_look(game, kind);
        let _ = writeln!(
            s,
            r##"<g class="figure" data-player="{owner}" data-place="{name}" data-x="{}" data-y="{}" data-kind="{}" transform="translate({},{}){scale}"><path d="{shape}" fill="{}" stroke="#1a1a1a" stroke-width="1.5"/>{badge}</g>"##,
            pos.x,
            pos.y,
            kind.name(),
            num(x),
            num(y),
            player_colour(owner)
        );
    }
    s.push_str("</g>\n");

    // The legend.
    let _ = writeln!(s, r##"<g class="legend" font-size="15" fill="#222222">"##);
    let mut y = board_bottom + 24.0 + LINE / 2.0;
    for (seat, name) in players.iter().enumerate() {
        let _ = writeln!(
            s,
            r##"<g class="player" data-player="{seat}" data-score="{score}"><path transform="translate({},{}) scale(0.8)" d="{MEEPLE}" fill="{}" stroke="#1a1a1a" stroke-width="1.5"/><text x="{}" y="{}">{}: {points}</text></g>"##,
            num(LEFT + 10.0),
            num(y),
            player_colour(seat),
            num(LEFT + 28.0),
            num(y + 5.0),
            esc(name),
            score = game.scores()[seat],
            points = super::text::count(game.scores()[seat], "point"),
        );
        y += LINE;
    }
    let _ = writeln!(
        s,
        r##"<text class="status" x="{}" y="{}" font-size="13" fill="#555555">{} tiles placed, {} left to draw{}</text>"##,
        num(LEFT),
        num(y + 5.0),
        placed.len(),
        game.tiles_left(),
        if game.is_over() { ", game over" } else { "" }
    );
    s.push_str("</g>\n</svg>\n");
    (s, frame)
}

/// Where a figure on the feature at `spot` of the placed tile at `pos` is drawn, as a fraction
/// of the tile from its top left corner; `None` when no tile or feature is there.
pub fn spot_point(game: &Game, pos: Pos, spot: Spot) -> Option<(f64, f64)> {
    let seg = game.seg_at(pos, spot)?;
    let s = game.features().segment(seg);
    let p = &game.board().tiles()[s.placed as usize];
    let layout = super::layout(game.rules(), p.tile, p.rotation);
    let at = (layout.spots.get(usize::from(s.feature)).copied())
        .unwrap_or_else(|| overlay_point(s.feature));
    Some((inside(at.0), inside(at.1)))
}

/// The tile type `tile` of `rules` turned `rotation`, drawn alone as [`tile_body`] draws it,
/// from the layout worked out once per process (a server draws the drawn tile at every step).
pub fn ruleset_tile_body(rules: &Arc<Ruleset>, tile: TileId, rotation: Rotation) -> String {
    SvgTile::new(&super::layout(rules, tile, rotation), &rules.prints).body
}

/// One tile type turned `rotation`, its marks as `prints` draws them (the table its tile set
/// was read into), drawn alone: the inside of a 100 × 100 SVG group, without the `<svg>`
/// element (wrap it, or place it on a board).
pub fn tile_body(tile: &TileType, rotation: Rotation, prints: &Prints) -> String {
    let layout = Layout::new(tile.at(rotation), tile.symbol, prints);
    SvgTile::new(&layout, prints).body
}
