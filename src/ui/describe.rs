//! Actions in plain words, for people choosing among them (built on the one path to words,
//! [`crate::engine::words`], with what the pending decision shows): "knight on the city to the north",
//! "move the dragon east to (3,0) — eats Bob's farmer", "the princess sends Bob's knight at
//! (0,0) home".
//!
//! A family's own actions and passes are said in its words (`engine::show::Presenter`, listed
//! by `registry::presenters`), made of the phrases this module lends it (`Speaker`).
//!
//! Descriptions are written from the point of view of the player who decides (their own
//! figures are "your …"). [`actions`] describes a whole list of legal actions and makes sure
//! no two entries read the same.

use crate::engine::action::{Action, DecisionKind};
use crate::engine::game::Game;
use crate::engine::show::{self, Phrases, and_list};
use crate::engine::words;
use crate::model::figure::{Figure, FigureKind};
use crate::model::geometry::{Edge, Pos, Spot};
use crate::model::tile::{FeatureDef, FeatureKind};
use crate::registry;

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
fn whose(owner: usize, me: Option<usize>, names: &[String]) -> String {
    if Some(owner) == me {
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
        _ => show::first(registry::presenters(), |p| p.action_spot(action)),
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
            let say = Speaker {
                game,
                me: Some(decision.player),
                names,
                detail,
            };
            show::first(registry::presenters(), |p| p.action_words(action, &say))
                .unwrap_or_else(|| words::action(action))
        }
        Action::Script(_) => words::action(action),
        Action::Pass => match decision.kind {
            DecisionKind::Deploy => "pass (deploy nothing)".to_string(),
            kind => show::first(registry::presenters(), |p| p.pass_words(&kind))
                .unwrap_or("pass")
                .to_string(),
        },
    }
}

/// The generic phrases a family's words are made of ([`Phrases`]), seen by the player `me`
/// (none: by nobody in particular, as a narrator).
pub(crate) struct Speaker<'a> {
    /// The game described.
    pub game: &'a Game,
    /// The seat whose figures are "your …".
    pub me: Option<usize>,
    /// The players' names by seat.
    pub names: &'a [String],
    detail: Detail,
}

impl<'a> Speaker<'a> {
    /// A narrator of `game`: no figure is "your …".
    pub fn narrator(game: &'a Game, names: &'a [String]) -> Self {
        Speaker {
            game,
            me: None,
            names,
            detail: Detail::Short,
        }
    }
}

impl Phrases for Speaker<'_> {
    fn game(&self) -> &Game {
        self.game
    }

    fn detailed(&self) -> bool {
        self.detail == Detail::Long
    }

    fn feature(&self, pos: Pos, spot: Spot) -> String {
        feature(self.game, pos, spot)
    }

    fn feature_exactly(&self, pos: Pos, spot: Spot) -> String {
        feature_long(self.game, pos, spot)
    }

    fn role(&self, kind: FigureKind, feature: Option<FeatureKind>) -> String {
        figure_role(kind, feature)
    }

    fn figure(&self, owner: usize, kind: FigureKind, feature: Option<FeatureKind>) -> String {
        format!(
            "{} {}",
            whose(owner, self.me, self.names),
            figure_role(kind, feature)
        )
    }

    fn figure_at(&self, pos: Pos, spot: Spot) -> Option<String> {
        let f = figure_at(self.game, pos, spot)?;
        let kind = self.game.features().segment(f.seg).kind;
        Some(self.figure(f.owner, f.kind, Some(kind)))
    }

    fn name(&self, seat: usize) -> String {
        self.names.get(seat).map_or("?", String::as_str).to_string()
    }
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
    use crate::engine::show::direction;

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
