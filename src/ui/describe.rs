//! Actions in plain words, for people choosing among them (built on the one path to words,
//! [`crate::engine::words`], with what the pending decision shows): "knight on the city to the north",
//! "move the dragon east to (3,0) — eats Bob's farmer", "the princess sends Bob's knight at
//! (0,0) home".
//!
//! Descriptions are written from the point of view of the player who decides (their own
//! figures are "your …"). [`actions`] describes a whole list of legal actions and makes sure
//! no two entries read the same.

use crate::engine::action::{Action, DecisionKind};
use crate::engine::event::Event;
use crate::engine::game::Game;
use crate::engine::words;
use crate::mechanic::count::vocabulary::{CountAction, CountDecision, how_many};
use crate::mechanic::pd::vocabulary::EATEN;
use crate::mechanic::pd::vocabulary::{PdAction, PdDecision};
use crate::model::figure::{Figure, FigureKind};
use crate::model::geometry::{Edge, Pos, Spot};
use crate::model::tile::{FeatureDef, FeatureKind};

/// What a follower is called on a feature of this kind: knight, thief, monk or farmer.
pub fn role(kind: FeatureKind) -> &'static str {
    match kind {
        FeatureKind::City => "knight",
        FeatureKind::Road => "thief",
        FeatureKind::Cloister => "monk",
        FeatureKind::Garden => "abbot",
        FeatureKind::Field => "farmer",
    }
}

/// The lowercase name of an edge's direction.
pub fn side(edge: Edge) -> &'static str {
    match edge {
        Edge::N => "north",
        Edge::E => "east",
        Edge::S => "south",
        Edge::W => "west",
    }
}

/// The compass direction of a step from one position to another (`y` grows south), e.g.
/// "north-east"; "here" for no step.
pub fn direction(from: Pos, to: Pos) -> &'static str {
    let (dx, dy) = ((to.x - from.x).signum(), (to.y - from.y).signum());
    match (dx, dy) {
        (0, -1) => "north",
        (1, -1) => "north-east",
        (1, 0) => "east",
        (1, 1) => "south-east",
        (0, 1) => "south",
        (-1, 1) => "south-west",
        (-1, 0) => "west",
        (-1, -1) => "north-west",
        _ => "here",
    }
}

/// Where on its tile a feature lies, in words: "to the north", "to the north and south",
/// "on all four sides", "to the south-west", "all around", "in the middle".
fn area(def: &FeatureDef) -> String {
    match def.kind {
        FeatureKind::Cloister | FeatureKind::Garden => "in the middle".to_string(),
        FeatureKind::Road | FeatureKind::City => {
            let sides: Vec<&str> = Edge::ALL
                .iter()
                .filter(|e| def.edges & (1 << **e as u8) != 0)
                .map(|e| side(*e))
                .collect();
            match sides.len() {
                0 => "in the middle".to_string(),
                4 => "on all four sides".to_string(),
                _ => format!("to the {}", and_list(&sides)),
            }
        }
        FeatureKind::Field => field_area(def.halves),
    }
}

/// A field's direction from the tile centre: the mean of the half-edges it touches.
fn field_area(halves: u8) -> String {
    // Midpoints of the half-edges NL NR EL ER SL SR WL WR (x east, y south).
    const AT: [(f64, f64); 8] = [
        (-0.25, -0.5),
        (0.25, -0.5),
        (0.5, -0.25),
        (0.5, 0.25),
        (0.25, 0.5),
        (-0.25, 0.5),
        (-0.5, 0.25),
        (-0.5, -0.25),
    ];
    if halves == 0 {
        return "in the middle".to_string();
    }
    // Two halves around one corner: the small field inside a curve.
    const CORNERS: [(u8, &str); 4] = [
        (0b0000_0110, "north-east"),
        (0b0001_1000, "south-east"),
        (0b0110_0000, "south-west"),
        (0b1000_0001, "north-west"),
    ];
    if let Some((_, name)) = CORNERS.iter().find(|(mask, _)| *mask == halves) {
        return format!("in the {name} corner");
    }
    let n = halves.count_ones() as f64;
    let (x, y) = (0..8)
        .filter(|h| halves & (1 << h) != 0)
        .fold((0.0, 0.0), |(x, y), h| (x + AT[h].0 / n, y + AT[h].1 / n));
    if x.hypot(y) < 0.08 {
        return "all around".to_string();
    }
    const NAMES: [&str; 8] = [
        "east",
        "north-east",
        "north",
        "north-west",
        "west",
        "south-west",
        "south",
        "south-east",
    ];
    let eighth = (-y).atan2(x) / std::f64::consts::FRAC_PI_4;
    let i = (eighth.round() as i64).rem_euclid(8) as usize;
    format!("to the {}", NAMES[i])
}

/// The edges a field touches, exactly: "along the north, the east (north half) and the south
/// (west half)".
fn field_edges(halves: u8) -> String {
    // Which half of each side the left and right half-edges are (looking out from the centre).
    const HALF: [[&str; 2]; 4] = [
        ["west", "east"],
        ["north", "south"],
        ["east", "west"],
        ["south", "north"],
    ];
    let parts: Vec<String> = Edge::ALL
        .iter()
        .filter_map(|e| {
            let bits = (halves >> (2 * *e as u8)) & 3;
            match bits {
                0 => None,
                3 => Some(format!("the {}", side(*e))),
                b => Some(format!(
                    "the {} ({} half)",
                    side(*e),
                    HALF[*e as usize][(b >> 1) as usize]
                )),
            }
        })
        .collect();
    format!("along {}", and_list(&parts))
}

/// "a", "a and b", "a, b and c".
fn and_list<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [rest @ .., last] => {
            let rest: Vec<&str> = rest.iter().map(AsRef::as_ref).collect();
            format!("{} and {}", rest.join(", "), last.as_ref())
        }
    }
}

/// The feature at `spot` of the tile at `pos`, in words: "the city to the north", "the field
/// to the south-west", "the cloister", "the garden".
pub fn feature(game: &Game, pos: Pos, spot: Spot) -> String {
    match feature_def(game, pos, spot) {
        Some(def) if def.is_centre() => format!("the {}", def.kind.name()),
        Some(def) => format!("the {} {}", def.kind.name(), area(def)),
        None => format!("the feature {spot}"),
    }
}

/// Like [`feature`], but a field names exactly the edges it touches.
fn feature_long(game: &Game, pos: Pos, spot: Spot) -> String {
    match feature_def(game, pos, spot) {
        Some(def) if def.kind == FeatureKind::Field && def.halves != 0 => {
            format!("the field {}", field_edges(def.halves))
        }
        _ => feature(game, pos, spot),
    }
}

fn feature_def(game: &Game, pos: Pos, spot: Spot) -> Option<&FeatureDef> {
    let board = game.board();
    let placed = board.at(pos)?;
    let oriented = board.oriented(&game.rules().tiles, placed);
    let f = oriented.feature_at(spot)?;
    oriented.features.get(f as usize)
}

fn feature_kind(game: &Game, pos: Pos, spot: Spot) -> Option<FeatureKind> {
    feature_def(game, pos, spot).map(|d| d.kind)
}

/// What a figure is called where it stands ("knight", "farmer", …); a figure other than the
/// normal follower is named by its figure table row ("big knight"), and one whose name is
/// already a role stands for itself (the abbot in a cloister or garden is "abbot").
pub fn figure_role(kind: FigureKind, feature: Option<FeatureKind>) -> String {
    let role = feature.map_or("follower", role);
    if kind == FigureKind::Follower {
        role.to_string()
    } else if kind.name() == "abbot" {
        kind.noun()
    } else {
        format!("{} {role}", kind.name())
    }
}

/// Whose a figure is, seen by the deciding player: "your" or "Bob's".
fn whose(owner: usize, me: usize, names: &[String]) -> String {
    if owner == me {
        "your".to_string()
    } else {
        format!("{}'s", names.get(owner).map_or("?", String::as_str))
    }
}

/// The tile laid this turn: the last placement in the history.
fn placed_this_turn(game: &Game) -> Option<Pos> {
    game.history().iter().rev().find_map(|a| match a {
        Action::Place { pos, .. } => Some(*pos),
        _ => None,
    })
}

/// The figure standing at `spot` of the tile at `pos`.
fn figure_at(game: &Game, pos: Pos, spot: Spot) -> Option<Figure> {
    let seg = game.seg_at(pos, spot)?;
    game.figures().iter().find(|f| f.seg == seg).copied()
}

/// A figure in words, seen by the deciding player: "Bob's knight".
fn figure_words(game: &Game, f: &Figure, me: usize, names: &[String]) -> String {
    let kind = game.features().segment(f.seg).kind;
    format!(
        "{} {}",
        whose(f.owner, me, names),
        figure_role(f.kind, Some(kind))
    )
}

/// How much to say: `Short` is the usual entry; `Long` adds detail to tell apart entries
/// that would otherwise read the same.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Detail {
    Short,
    Long,
}

/// One legal action in words, seen by the player who decides now. `names` are the players'
/// names by seat.
pub fn action(game: &Game, action: &Action, names: &[String]) -> String {
    words(game, action, names, Detail::Short)
}

/// Every action of `list` in words; entries that would read the same get more detail (and,
/// as a last resort, the record notation of their spot), so each line names one action.
pub fn actions(game: &Game, list: &[Action], names: &[String]) -> Vec<String> {
    let mut out: Vec<String> = list
        .iter()
        .map(|a| words(game, a, names, Detail::Short))
        .collect();
    let repeated = |out: &[String], i: usize| out.iter().filter(|o| **o == out[i]).count() > 1;
    let clash: Vec<usize> = (0..out.len()).filter(|i| repeated(&out, *i)).collect();
    for i in &clash {
        out[*i] = words(game, &list[*i], names, Detail::Long);
    }
    let clash: Vec<usize> = (0..out.len()).filter(|i| repeated(&out, *i)).collect();
    for i in clash {
        if let Some(spot) = spot_of(&list[i]) {
            out[i] = format!("{} [{spot}]", out[i]);
        }
    }
    out
}

fn spot_of(action: &Action) -> Option<Spot> {
    match *action {
        Action::Deploy { spot, .. } => Some(spot),
        _ => match (PdAction::of(action), CountAction::of(action)) {
            (Some(PdAction::Remove { spot, .. }), _)
            | (
                Some(PdAction::Fairy {
                    spot: Some(spot), ..
                }),
                _,
            )
            | (_, Some(CountAction::Score { spot, .. })) => Some(spot),
            _ => None,
        },
    }
}

fn words(game: &Game, action: &Action, names: &[String], detail: Detail) -> String {
    let decision = game.decision();
    match *action {
        Action::Place { pos, rotation } => words::placement(pos, rotation),
        Action::Deploy { pos, spot, figure } => {
            let who = figure_role(figure, feature_kind(game, pos, spot));
            let what = match detail {
                Detail::Short => feature(game, pos, spot),
                Detail::Long => feature_long(game, pos, spot),
            };
            if placed_this_turn(game) == Some(pos) {
                format!("{who} on {what}")
            } else {
                format!("portal: {who} on {what} at {pos}")
            }
        }
        Action::Mechanic(_) => {
            if let Some(a) = PdAction::of(action) {
                pd_words(game, a, action, names, detail)
            } else if let Some(a) = CountAction::of(action) {
                count_words(game, a)
            } else {
                words::action(action)
            }
        }
        Action::Script(_) => words::action(action),
        Action::Pass => match (decision.kind, PdDecision::of(&decision.kind)) {
            (DecisionKind::Deploy, _) => "pass (deploy nothing)".to_string(),
            (_, Some(PdDecision::Princess)) => "pass (the knights stay)".to_string(),
            (_, Some(PdDecision::ClaimFairyPoint)) => {
                "pass (give up the fairy's point)".to_string()
            }
            (_, Some(PdDecision::FairyMove)) => "pass (the fairy stays)".to_string(),
            _ => "pass".to_string(),
        },
    }
}

/// A P&D action in words, seen by the player who decides now.
fn pd_words(game: &Game, a: PdAction, action: &Action, names: &[String], detail: Detail) -> String {
    let me = game.decision().player;
    match a {
        PdAction::Fairy {
            pos,
            spot: Some(spot),
        } => {
            let who = figure_at(game, pos, spot).map_or_else(
                || format!("your follower {spot}"),
                |f| figure_words(game, &f, me, names),
            );
            match detail {
                Detail::Short => format!("move the fairy next to {who} at {pos}"),
                Detail::Long => format!(
                    "move the fairy next to {who} on {} at {pos}",
                    feature_long(game, pos, spot)
                ),
            }
        }
        PdAction::Fairy { pos, spot: None } => format!("move the fairy to {pos}"),
        PdAction::Dragon { pos } => {
            let way = game.dragon().map_or("", |from| direction(from, pos));
            let eaten = dragon_eats(game, action, pos, me, names);
            let step = format!("move the dragon {way} to {pos}").replace("  ", " ");
            if eaten.is_empty() {
                step
            } else {
                format!("{step} — eats {}", and_list(&eaten))
            }
        }
        PdAction::Remove { pos, spot } => {
            let who = figure_at(game, pos, spot).map_or_else(
                || "the knight".to_string(),
                |f| figure_words(game, &f, me, names),
            );
            match detail {
                Detail::Short => format!("the princess sends {who} at {pos} home"),
                Detail::Long => format!(
                    "the princess sends {who} on {} at {pos} home",
                    feature_long(game, pos, spot)
                ),
            }
        }
        PdAction::Claim => "claim the fairy's point".to_string(),
    }
}

/// An action of the Count in words, seen by the player who decides now.
fn count_words(game: &Game, a: CountAction) -> String {
    match a {
        CountAction::Quarter { quarter, figure } => {
            format!(
                "put {} into the {} of Carcassonne",
                figure.words(),
                quarter.name()
            )
        }
        CountAction::Count { quarter } => format!("move the Count to the {}", quarter.name()),
        CountAction::Leave {
            quarter,
            count,
            figure,
        } => {
            let into = match CountDecision::of(&game.decision().kind) {
                Some(CountDecision::Leave { x, y, .. }) => {
                    format!(" into the feature at ({x},{y})")
                }
                _ => String::new(),
            };
            format!(
                "move {} out of the {}{into}",
                how_many(count, figure),
                quarter.name()
            )
        }
        CountAction::Score { pos, spot } => {
            format!("score {} at {pos} next", feature(game, pos, spot))
        }
    }
}

/// The figures a dragon step onto `pos` would eat, in words, found by trying the step on a
/// copy of the game.
fn dragon_eats(game: &Game, step: &Action, pos: Pos, me: usize, names: &[String]) -> Vec<String> {
    let mut copy = game.clone();
    let Ok(events) = copy.apply(step) else {
        return Vec::new();
    };
    let eaten = events
        .iter()
        .filter(|e| matches!(e, Event::FigureReturned { reason: EATEN, .. }))
        .count();
    let on_tile: Vec<&Figure> = game
        .figures()
        .iter()
        .filter(|f| game.figure_spot(f).0 == pos)
        .collect();
    if eaten == 0 {
        return Vec::new();
    }
    if eaten == on_tile.len() {
        return on_tile
            .iter()
            .map(|f| figure_words(game, f, me, names))
            .collect();
    }
    events
        .iter()
        .filter_map(|e| match e {
            Event::FigureReturned {
                player,
                figure,
                reason: EATEN,
                ..
            } => Some(format!(
                "{} {}",
                whose(*player, me, names),
                figure_role(*figure, None)
            )),
            _ => None,
        })
        .collect()
}

/// An event's words for a player named "You" (the default human of `play` and the web page): the verb agrees ("You draw",
/// not "You draws") and "You's" is "your". Other names are left as they are.
pub fn second_person(text: &str) -> String {
    const VERBS: [(&str, &str); 6] = [
        ("You draws", "You draw"),
        ("You places", "You place"),
        ("You puts", "You put"),
        ("You scores", "You score"),
        ("You moves", "You move"),
        ("You does", "You do"),
    ];
    if !text.contains("You") {
        return text.to_string();
    }
    let mut out = text.replace("You's", "your");
    for (third, second) in VERBS {
        out = out.replace(third, second);
    }
    match out.strip_prefix("your") {
        Some(rest) => format!("Your{rest}"),
        None => out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_named_by_where_they_lie() {
        // NR + EL: the inside of a curve to the north-east.
        assert_eq!(field_area(0b0000_0110), "in the north-east corner");
        // EL + SR: between a city in the north-west and a curve in the south-east.
        assert_eq!(field_area(0b0010_0100), "to the south-east");
        assert_eq!(
            field_edges(0b0010_0100),
            "along the east (north half) and the south (west half)"
        );
        assert_eq!(field_edges(0b0000_0011), "along the north");
        // Everything but the north edge: below a city cap.
        assert_eq!(field_area(0b1111_1100), "to the south");
        assert_eq!(field_area(0xFF), "all around");
        // NR EL ER SL: east of a north–south road.
        assert_eq!(field_area(0b0001_1110), "to the east");
    }

    #[test]
    fn lists_read_naturally() {
        assert_eq!(and_list(&["north"]), "north");
        assert_eq!(and_list(&["north", "south"]), "north and south");
        assert_eq!(and_list(&["north", "east", "west"]), "north, east and west");
        assert_eq!(direction(Pos::new(0, 0), Pos::new(0, -1)), "north");
        assert_eq!(direction(Pos::new(2, 0), Pos::new(3, 0)), "east");
    }
}
