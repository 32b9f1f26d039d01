//! The board as text: every tile a block of [`TILE_W`] × [`TILE_H`] characters drawn from the
//! tile data, x coordinates along the top and y coordinates down the left.
//!
//! | Character | Meaning |
//! |---|---|
//! | `#` | city |
//! | `=` `\|` `/` `\` `+` | road (`+` where roads meet) |
//! | `.` | field |
//! | `C` | cloister |
//! | `*` | pennant |
//! | `P` | the princess |
//! | `V` `D` `@` | volcano, dragon and magic-portal symbols |
//! | `G` | an Abbot garden |
//! | `%` | a wall along a wild edge (the abbey's) |
//! | `i` | an inn (beside its road) |
//! | `A` | a cathedral |
//! | `w` `g` `c` | wine, grain and cloth goods |
//! | `1`–`9` | a follower of that seat (1 = first player) |
//! | `b` `a` | beside a seat number: that figure is a big follower, an abbot |
//! | `B` `p` | a builder, a pig (in its owner's colour, near the follower it joins) |
//! | `&` | the dragon |
//! | `F` | the fairy |
//!
//! Empty board cells are blank.

use super::layout::{Layout, Pt, Shape, to_path};
use super::{Cache, figure_feature};
use crate::data::printed::{Drawn, Print, Prints};
use crate::data::ruleset::Ruleset;
use crate::engine::game::Game;
use crate::model::figure::Place;
use crate::model::geometry::{Edge, Rotation};
use crate::model::tile::TileId;

/// Width of a tile block in characters.
pub const TILE_W: usize = 7;
/// Height of a tile block in lines.
pub const TILE_H: usize = 5;
/// Half the width of a road when deciding which characters it covers.
const ROAD_HALF: f64 = 0.1;

/// How a character is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    Plain,
    Field,
    City,
    Road,
    Cloister,
    Garden,
    Marker,
    Pennant,
    /// A counter drawn with the pennants (`data::printed::Drawn::WithPennants`).
    Crest,
    Symbol,
    /// A wall along a wild edge.
    Wall,
    Player(usize),
    /// A family's piece, in the colour it gives (`engine::show::Piece::ansi`).
    Piece(&'static str),
}

impl Style {
    /// The ANSI escape sequence that starts this style.
    fn ansi(self) -> &'static str {
        match self {
            Style::Plain => "\x1b[0m",
            Style::Field => "\x1b[0;32m",
            Style::City => "\x1b[0;33m",
            Style::Road => "\x1b[0;37m",
            Style::Cloister => "\x1b[0;1;31m",
            Style::Garden => "\x1b[0;1;92m",
            Style::Marker => "\x1b[0;1;36m",
            Style::Pennant => "\x1b[0;1;34m",
            Style::Crest => "\x1b[0;1;35m",
            Style::Symbol => "\x1b[0;1;91m",
            Style::Wall => "\x1b[0;90m",
            Style::Player(seat) => match seat % 6 {
                0 => "\x1b[0;1;97;41m",
                1 => "\x1b[0;1;97;44m",
                2 => "\x1b[0;1;97;42m",
                3 => "\x1b[0;1;30;43m",
                4 => "\x1b[0;1;97;45m",
                _ => "\x1b[0;1;30;47m",
            },
            Style::Piece(ansi) => ansi,
        }
    }
}

/// One character cell.
type Cell = (char, Style);

/// A tile drawn as characters, with the cell where a figure on each feature goes.
#[derive(Clone, Debug)]
pub(crate) struct TextTile {
    cells: Vec<Vec<Cell>>,
    /// Per feature, the (column, row) of its figure.
    spots: Vec<(usize, usize)>,
    /// Cells taken by something printed on the tile.
    used: Vec<(usize, usize)>,
}

/// A wall (`%`) along each wild edge of `wild` (bit `e` for edge `e`), on the tile's outer
/// cells there: such an edge fits anything and ends what meets it, as the abbey's walls do
/// (AM-4). Figures and marks are placed afterwards and may stand on it.
fn wild_walls(cells: &mut [Vec<Cell>], wild: u8) {
    for e in Edge::ALL.into_iter().filter(|e| wild & 1 << *e as u8 != 0) {
        let (cols, rows) = match e {
            Edge::N => (0..TILE_W, 0..1),
            Edge::S => (0..TILE_W, TILE_H - 1..TILE_H),
            Edge::W => (0..1, 0..TILE_H),
            Edge::E => (TILE_W - 1..TILE_W, 0..TILE_H),
        };
        for r in rows {
            for c in cols.clone() {
                cells[r][c] = ('%', Style::Wall);
            }
        }
    }
}

/// The centre of character cell (`c`, `r`) on the unit tile.
fn centre(c: usize, r: usize) -> Pt {
    (
        (c as f64 + 0.5) / TILE_W as f64,
        (r as f64 + 0.5) / TILE_H as f64,
    )
}

/// Distance between a point and a cell's centre, counted in characters and lines.
fn cell_dist(p: Pt, c: usize, r: usize) -> f64 {
    let q = centre(c, r);
    let (dx, dy) = ((p.0 - q.0) * TILE_W as f64, (p.1 - q.1) * TILE_H as f64);
    // Lines are about twice as tall as characters are wide.
    (dx * dx + 4.0 * dy * dy).sqrt()
}

/// The cell nearest `p` among those that `ok` accepts.
fn nearest(p: Pt, ok: impl Fn(usize, usize) -> bool) -> Option<(usize, usize)> {
    (0..TILE_H)
        .flat_map(|r| (0..TILE_W).map(move |c| (c, r)))
        .filter(|&(c, r)| ok(c, r))
        .min_by(|a, b| cell_dist(p, a.0, a.1).total_cmp(&cell_dist(p, b.0, b.1)))
}

/// The character for a road whose nearest piece runs along `dir`.
fn road_char(dir: Pt) -> char {
    let (dx, dy) = (dir.0.abs(), dir.1.abs());
    if dx > 2.0 * dy {
        '='
    } else if dy > 2.0 * dx {
        '|'
    } else if (dir.0 > 0.0) == (dir.1 > 0.0) {
        '\\'
    } else {
        '/'
    }
}

impl TextTile {
    /// Draws a laid-out tile.
    pub(crate) fn new(layout: &Layout, prints: &Prints) -> TextTile {
        // Curves read best as corners, unless two of them would meet in the centre.
        let curves = layout
            .shapes
            .iter()
            .filter(|s| {
                matches!(
                    s,
                    Shape::Road {
                        corner: Some(_),
                        ..
                    }
                )
            })
            .count();
        let corners = curves < 2;
        let mut labels = vec![vec![None; TILE_W]; TILE_H];
        let mut cells = vec![vec![(' ', Style::Plain); TILE_W]; TILE_H];
        for (r, row) in cells.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                let p = centre(c, r);
                let label = layout.feature_at(p, ROAD_HALF, corners);
                labels[r][c] = label;
                *cell = match label.map(|f| &layout.shapes[f as usize]) {
                    Some(Shape::City { .. }) => ('#', Style::City),
                    Some(Shape::Cloister) => ('C', Style::Cloister),
                    Some(road @ Shape::Road { corner, .. }) => {
                        let near = |s: &Shape| to_path(p, s.line(corners)).0 <= ROAD_HALF;
                        let roads = layout.shapes.iter().filter(|s| near(s)).count();
                        let bend = corners && corner.is_some() && {
                            let (dx, dy) = (p.0 - 0.5, p.1 - 0.5);
                            (dx * dx + dy * dy).sqrt() <= ROAD_HALF
                        };
                        if roads > 1 || bend {
                            ('+', Style::Road)
                        } else {
                            (road_char(to_path(p, road.line(corners)).1), Style::Road)
                        }
                    }
                    Some(Shape::Field | Shape::Garden) | None => ('.', Style::Field),
                };
            }
        }
        wild_walls(&mut cells, layout.wild);
        let mut spots: Vec<(usize, usize)> = Vec::with_capacity(layout.spots.len());
        for (f, p) in layout.spots.iter().enumerate() {
            let free = |c: usize, r: usize| !spots.contains(&(c, r));
            let cell = nearest(*p, |c, r| free(c, r) && labels[r][c] == Some(f as u8))
                .or_else(|| nearest(*p, free))
                .unwrap_or((TILE_W / 2, TILE_H / 2));
            spots.push(cell);
        }
        let mut used: Vec<(usize, usize)> = Vec::new();
        let field = |c: usize, r: usize| {
            labels[r][c].is_none_or(|f| matches!(layout.shapes[f as usize], Shape::Field))
        };
        // Marks `p` on a free cell of `feature` (a field when `None`), else any free cell.
        let mut mark = |p: Pt, feature: Option<u8>, ch: char, style: Style| {
            let free = |c: usize, r: usize| !spots.contains(&(c, r)) && !used.contains(&(c, r));
            let on = |c: usize, r: usize| match feature {
                Some(_) => labels[r][c] == feature,
                None => field(c, r),
            };
            let cell = nearest(p, |c, r| free(c, r) && on(c, r)).or_else(|| nearest(p, free));
            if let Some((c, r)) = cell {
                cells[r][c] = (ch, style);
                used.push((c, r));
            }
        };
        for (p, f) in &layout.pennants {
            mark(*p, Some(*f), '*', Style::Pennant);
        }
        for (p, f, id) in &layout.crests {
            mark(*p, Some(*f), letter(prints.counter(*id)), Style::Crest);
        }
        if let Some(p) = layout.garden {
            mark(p, None, 'G', Style::Garden);
        }
        for (p, f, id) in &layout.marks {
            let print = prints.counter(*id);
            let on = print.is_some_and(|m| m.place == Drawn::In).then_some(*f);
            mark(*p, on, letter(print), Style::Marker);
        }
        if let Some((s, p)) = layout.symbol {
            mark(p, None, letter(prints.symbol(s)), Style::Symbol);
        }
        TextTile { cells, spots, used }
    }

    /// A cell near `p` for a piece: not on a figure spot, a printed mark or a cell in
    /// `taken`; a field cell if `field` and there is one.
    fn free_near(&self, p: Pt, taken: &[(usize, usize)], field: bool) -> Option<(usize, usize)> {
        let free = |c: usize, r: usize| {
            !self.spots.contains(&(c, r))
                && !self.used.contains(&(c, r))
                && !taken.contains(&(c, r))
        };
        let grass = |c: usize, r: usize| self.cells[r][c].1 == Style::Field;
        field
            .then(|| nearest(p, |c, r| free(c, r) && grass(c, r)))
            .flatten()
            .or_else(|| nearest(p, free))
    }
}

/// The letter its figure table row gives a figure, drawn beside its owner's seat number (`b`
/// a big follower, `a` an abbot); `None` for a figure without one or that joins a follower.
fn kind_letter(game: &Game, kind: crate::model::figure::FigureKind) -> Option<char> {
    let row = game.rules().figures.row(kind)?;
    (!row.joins_own).then_some(row.letter).flatten()
}

/// The character of a printed counter or symbol ('?' for one the table does not know).
fn letter(print: Option<&Print>) -> char {
    print.map_or('?', |p| p.letter)
}

/// One tile alone, as [`TILE_H`] lines of [`TILE_W`] characters (no colour): what a player
/// holding the tile sees.
pub fn tile(rules: &Ruleset, tile: TileId, rotation: Rotation) -> Vec<String> {
    let t = rules.tile(tile);
    let prints = &rules.prints;
    let text = TextTile::new(&Layout::new(t.at(rotation), t.symbol, prints), prints);
    text.cells
        .iter()
        .map(|row| row.iter().map(|c| c.0).collect())
        .collect()
}

/// Joins styled cells into a line, trimming blanks at the end.
fn line(cells: &[Cell], colour: bool) -> String {
    let end = cells.iter().rposition(|c| c.0 != ' ').map_or(0, |i| i + 1);
    let mut out = String::new();
    let mut style = Style::Plain;
    for (ch, s) in &cells[..end] {
        if colour && *s != style && *ch != ' ' {
            out.push_str(s.ansi());
            style = *s;
        }
        out.push(*ch);
    }
    if colour && style != Style::Plain {
        out.push_str(Style::Plain.ansi());
    }
    out
}

/// The board as text: tiles as blocks of characters (see the module documentation), x
/// coordinates along the top and y coordinates down the left, followers as seat numbers
/// (1 = first player), the dragon as `&` and the fairy as `F`. With `colour`, ANSI colours mark
/// the players' figures, the pieces and the terrain. Lines end without trailing blanks.
pub fn board(game: &Game, colour: bool) -> String {
    board_window(game, colour, None)
}

/// Part of the board: at most `cols` × `rows` tiles, centred on `centre` as far as the board
/// allows (a view that fits a terminal).
#[derive(Clone, Copy, Debug)]
pub struct Window {
    /// The position the view is centred on.
    pub centre: crate::model::geometry::Pos,
    /// Tiles across.
    pub cols: usize,
    /// Tiles down.
    pub rows: usize,
}

impl Window {
    /// The largest window whose text fits `width` × `height` characters (at least one tile).
    pub fn fitting(centre: crate::model::geometry::Pos, width: usize, height: usize) -> Window {
        // Four characters for the y labels, one line for the x labels.
        Window {
            centre,
            cols: (width.saturating_sub(4) / TILE_W).max(1),
            rows: (height.saturating_sub(1) / TILE_H).max(1),
        }
    }
}

/// The cells of an overlay road reaching the edges `edges` (bit `i` = edge `i`) across a tile
/// block, with their characters: the middle column north–south, the middle row east–west.
fn overlay_cells(edges: u8) -> Vec<(usize, usize, char)> {
    let mut cells = Vec::new();
    if edges & 0b0101 != 0 {
        cells.extend((0..TILE_H).map(|r| (TILE_W / 2, r, 'H')));
    }
    if edges & 0b1010 != 0 {
        cells.extend((0..TILE_W).map(|c| (c, TILE_H / 2, '=')));
    }
    cells
}

/// The cell of a figure on an overlay road (its segment's `feature` is the overlay mark with
/// its edges): on the road, off the tile's centre.
fn overlay_spot_cell(feature: u8) -> (usize, usize) {
    if feature & 0b0101 != 0 {
        (TILE_W / 2, 1)
    } else {
        (1, TILE_H / 2)
    }
}

/// The board's extent: (x0, x1, y0, y1) of its tiles, cut to `window` if any.
pub fn extent(game: &Game, window: Option<Window>) -> (i32, i32, i32, i32) {
    let placed = game.board().tiles();
    let x0 = placed.iter().map(|t| t.pos.x).min().unwrap_or(0);
    let x1 = placed.iter().map(|t| t.pos.x).max().unwrap_or(0);
    let y0 = placed.iter().map(|t| t.pos.y).min().unwrap_or(0);
    let y1 = placed.iter().map(|t| t.pos.y).max().unwrap_or(0);
    let Some(w) = window else {
        return (x0, x1, y0, y1);
    };
    let cut = |lo: i32, hi: i32, at: i32, n: usize| {
        let n = n.min((hi - lo + 1) as usize) as i32;
        let start = (at - (n - 1) / 2).clamp(lo, hi - n + 1);
        (start, start + n - 1)
    };
    let (x0, x1) = cut(x0, x1, w.centre.x, w.cols);
    let (y0, y1) = cut(y0, y1, w.centre.y, w.rows);
    (x0, x1, y0, y1)
}

/// [`board`], or only the part of it in `window`.
pub fn board_window(game: &Game, colour: bool, window: Option<Window>) -> String {
    let rules = game.rules();
    let placed = game.board().tiles();
    if placed.is_empty() {
        return String::new();
    }
    let (x0, x1, y0, y1) = extent(game, window);
    let shown =
        |pos: crate::model::geometry::Pos| (x0..=x1).contains(&pos.x) && (y0..=y1).contains(&pos.y);
    let cols = (x1 - x0 + 1) as usize;
    let rows = (y1 - y0 + 1) as usize;
    let mut grid = vec![vec![(' ', Style::Plain); cols * TILE_W]; rows * TILE_H];
    let origin = |x: i32, y: i32| ((x - x0) as usize * TILE_W, (y - y0) as usize * TILE_H);
    let mut cache: Cache<TextTile> = Cache::default();
    let mut tiles = Vec::with_capacity(placed.len());
    for p in placed {
        let t = cache
            .get(rules, p.tile, p.rotation, |l| {
                TextTile::new(l, &rules.prints)
            })
            .clone();
        if shown(p.pos) {
            let (ox, oy) = origin(p.pos.x, p.pos.y);
            for (r, row) in t.cells.iter().enumerate() {
                grid[oy + r][ox..ox + TILE_W].copy_from_slice(row);
            }
        }
        tiles.push(t);
    }
    // Roads laid across tiles after they were placed (overlays), over the tile.
    for &(id, _) in game.board().overlays() {
        let pos = placed[id as usize].pos;
        if !shown(pos) {
            continue;
        }
        let (ox, oy) = origin(pos.x, pos.y);
        for (c, r, ch) in overlay_cells(game.board().overlay(id)) {
            grid[oy + r][ox + c] = (ch, Style::Road);
        }
    }
    // Cells taken by pieces, per tile.
    let mut taken: Vec<Vec<(usize, usize)>> = vec![Vec::new(); placed.len()];
    let mut figure_cells = Vec::new();
    // Builders and pigs share their feature with a follower: they go beside it afterwards.
    let mut beside = Vec::new();
    for f in game.figures() {
        let (id, feature) = figure_feature(game, f);
        let p = &placed[id as usize];
        let cell = (tiles[id as usize].spots.get(usize::from(feature)))
            .copied()
            .unwrap_or_else(|| overlay_spot_cell(feature));
        if !shown(p.pos) {
            continue;
        }
        if let Some(ch) = special_mark(game, f) {
            beside.push((p.pos, cell, ch, f.owner));
            continue;
        }
        let (ox, oy) = origin(p.pos.x, p.pos.y);
        let ch = char::from_digit(f.owner as u32 + 1, 36).unwrap_or('?');
        grid[oy + cell.1][ox + cell.0] = (ch, Style::Player(f.owner));
        taken[id as usize].push(cell);
        figure_cells.push((f.id, id, cell));
    }
    // Draws `ch` in a free cell of the tile at `pos` (near `near`), and says which cell.
    let mut piece = |pos: crate::model::geometry::Pos, near: Option<(usize, usize)>, ch, style| {
        let id = game.board().at(pos).filter(|_| shown(pos))?;
        let p = near.map_or((0.5, 0.5), |(c, r)| centre(c, r));
        let t = &tiles[id as usize];
        let (c, r) = t.free_near(p, &taken[id as usize], near.is_none())?;
        let (ox, oy) = origin(pos.x, pos.y);
        grid[oy + r][ox + c] = (ch, style);
        taken[id as usize].push((c, r));
        Some((c, r))
    };
    for (pos, cell, ch, owner) in beside {
        let _ = piece(pos, Some(cell), ch, Style::Player(owner));
    }
    for p in crate::registry::presenters()
        .iter()
        .flat_map(|p| p.pieces(game))
    {
        let near = p.beside.and_then(|id| {
            figure_cells
                .iter()
                .find(|(f, _, _)| *f == id)
                .map(|(_, _, cell)| *cell)
        });
        let _ = piece(p.pos, near, p.letter, Style::Piece(p.ansi));
    }
    // Figures at a place that is no feature, by their owner's number: on a tile (beside the
    // piece drawn there, as a follower on a tower), at a corner where four tiles meet (in
    // the north-east corner of the tile named), or on a side two tiles share (in the middle
    // of the named tile's north or east border).
    // A kind with a letter has it drawn beside the number, as on a feature (`1s`).
    for (owner, kind, place) in game.placed_figures() {
        let ch = char::from_digit(owner as u32 + 1, 36).unwrap_or('?');
        let (pos, near) = match place {
            Place::Tile(pos) => (pos, None),
            Place::Corner(pos) => (pos, Some((TILE_W - 1, 0))),
            Place::Side(pos, Edge::N) => (pos, Some((TILE_W / 2, 0))),
            Place::Side(pos, _) => (pos, Some((TILE_W - 1, TILE_H / 2))),
        };
        let cell = piece(pos, near, ch, Style::Player(owner));
        if let Some((cell, letter)) = cell.zip(kind_letter(game, kind)) {
            piece(pos, Some(cell), letter, Style::Player(owner));
        }
    }
    // A big follower or an abbot: its kind's letter beside its seat number.
    for f in game.figures() {
        let Some(letter) = kind_letter(game, f.kind) else {
            continue;
        };
        let near = figure_cells
            .iter()
            .find(|(id, _, _)| *id == f.id)
            .map(|(_, _, cell)| *cell);
        if near.is_some() {
            let _ = piece(game.figure_spot(f).0, near, letter, Style::Player(f.owner));
        }
    }
    let margin = [y0, y1]
        .iter()
        .map(|y| y.to_string().len())
        .max()
        .unwrap_or(1)
        + 1;
    let mut out = " ".repeat(margin);
    let header: String = (x0..=x1).map(|x| format!("{x:^TILE_W$}")).collect();
    out.push_str(header.trim_end());
    out.push('\n');
    for (i, row) in grid.iter().enumerate() {
        let label = if i % TILE_H == TILE_H / 2 {
            format!("{:>w$} ", y0 + (i / TILE_H) as i32, w = margin - 1)
        } else {
            " ".repeat(margin)
        };
        let body = line(row, colour);
        if body.is_empty() {
            out.push_str(label.trim_end());
        } else {
            out.push_str(&label);
            out.push_str(&body);
        }
        out.push('\n');
    }
    out
}

/// The mark of a figure that joins its owner's follower, drawn beside it in the owner's colour
/// (its figure table `letter`: `B` a builder, `p` a pig); `None` for a figure shown as its
/// owner's seat number.
fn special_mark(game: &Game, f: &crate::model::figure::Figure) -> Option<char> {
    let row = game.rules().figures.row(f.kind)?;
    row.joins_own.then_some(row.letter).flatten()
}

/// "1 point", "2 points".
pub(crate) fn count(n: u32, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// What `seat` has in supply, every kind of figure the players were given, in figure table
/// order: "7 followers", "6 followers, 1 big follower, 1 builder, 1 pig".
pub fn supply_words(game: &Game, seat: usize) -> String {
    let rows = game.rules().figures.rows().iter();
    let kinds = rows.filter(|r| r.per_player > 0);
    let words: Vec<String> = kinds
        .map(|r| count(game.supply(seat, r.kind).into(), &r.kind.noun()))
        .collect();
    words.join(", ")
}

/// The tokens `seat` holds, as each family says them ("goods: 2 wine, 1 cloth"), joined by
/// "; "; `None` when none.
pub fn tokens_words(game: &Game, seat: usize) -> Option<String> {
    let words: Vec<String> = crate::registry::presenters()
        .iter()
        .filter_map(|p| p.tokens_words(game, seat))
        .collect();
    (!words.is_empty()).then(|| words.join("; "))
}

/// The board's key for `game`, line by line, its items two spaces apart: what the tiles print
/// (features, pennants, a garden, and the counters and symbols of this game's tiles), then the
/// families' pieces and the figures drawn with a letter (each only when the game has them).
pub fn key_lines(game: &Game) -> Vec<String> {
    [tile_key(game), figure_key(game)]
        .into_iter()
        .filter(|items| !items.is_empty())
        .map(|items| items.join("  "))
        .collect()
}

/// What the tiles of `game` print: the base features always, the rest when a tile has it.
fn tile_key(game: &Game) -> Vec<String> {
    let tiles = &game.rules().tiles;
    let features = || tiles.iter().flat_map(|t| t.features());
    let mut items: Vec<String> = ["# city", "= | road", ". field", "C cloister", "* pennant"]
        .map(String::from)
        .into();
    if features().any(|f| f.kind == crate::model::tile::FeatureKind::Garden) {
        items.push("G garden".into());
    }
    if tiles
        .iter()
        .any(|t| t.edges.contains(&crate::model::tile::EdgeKind::Wild))
    {
        items.push("% wall".into());
    }
    let prints = &game.rules().prints;
    for (id, print) in prints.counters() {
        if features().any(|f| f.counters.get(id) > 0) {
            items.push(format!("{} {}", print.letter, print.key));
        }
    }
    for (symbol, print) in prints.symbols() {
        if tiles.iter().any(|t| t.symbol == Some(symbol)) {
            items.push(format!("{} {}", print.letter, print.key));
        }
    }
    items
}

/// The families' pieces in play and the figures drawn with a letter: beside the follower they
/// join (`B builder`), or beside their owner's seat number (`1b a big follower of seat 1`).
fn figure_key(game: &Game) -> Vec<String> {
    let pieces = crate::registry::presenters()
        .iter()
        .flat_map(|p| p.key(game));
    let mut items: Vec<String> = pieces.map(|(c, what)| format!("{c} {what}")).collect();
    let rows = game.rules().figures.rows();
    let lettered = || {
        rows.iter()
            .filter(|r| r.per_player > 0)
            .filter_map(|r| r.letter.map(|c| (c, r)))
    };
    let joining = lettered().filter(|(_, r)| r.joins_own);
    items.extend(joining.map(|(c, r)| format!("{c} {}", r.kind.noun())));
    if lettered().any(|(_, r)| r.joins_own) {
        items.push("(in the owner's colour, beside the follower)".into());
    }
    let own = lettered().filter(|(_, r)| !r.joins_own);
    items.extend(own.map(|(c, r)| format!("1{c} a {} of seat 1", r.kind.noun())));
    items
}

/// The players with their seat numbers as the board shows them, colours, scores and figures
/// in supply, one line each, then a key to the characters.
pub fn legend(game: &Game, colour: bool) -> String {
    let mut out = String::new();
    for (seat, name) in game.setup().players.iter().enumerate() {
        let mark = (
            char::from_digit(seat as u32 + 1, 36).unwrap_or('?'),
            Style::Player(seat),
        );
        out.push_str(&line(&[mark], colour));
        let held = tokens_words(game, seat).map_or(String::new(), |h| format!("; {h}"));
        out.push_str(&format!(
            " {name}: {}, {} in supply{held}\n",
            count(game.scores()[seat], "point"),
            supply_words(game, seat)
        ));
    }
    for line in key_lines(game) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}
