//! How a family presents itself to people: the words of its actions and decisions, the lines
//! it adds to a game's narration, the sources its points are tallied under, the tone of its
//! events, what a player holds of its tokens, its state as JSON and its pieces' pictures.
//!
//! Each family with something to show implements [`Presenter`] in its `show.rs`; the registry
//! lists them (`registry::presenters`) and the user interfaces (`ui/`) ask that list, so no
//! interface names a family. Every method has a default that shows nothing, and each answers
//! only for the family's own actions, decisions and events (`None` for the others).
//!
//! A family's words are built from the interface's generic phrases ([`Phrases`]: a feature, a
//! figure, a player's name), so they read like the rest.

use crate::engine::action::{Action, DecisionKind};
use crate::engine::event::Event;
use crate::engine::game::Game;
use crate::model::feature::SegId;
use crate::model::figure::FigureKind;
use crate::model::geometry::{Pos, Spot};
use crate::model::tile::FeatureKind;
use serde_json::Value;

/// The generic phrases a family's words are made of, supplied by the interface that describes
/// (seen by the player who decides, if any).
pub trait Phrases {
    /// The game described.
    fn game(&self) -> &Game;
    /// Whether entries that would read the same are being told apart (say more).
    fn detailed(&self) -> bool;
    /// The feature at `spot` of the tile at `pos`: "the city to the north".
    fn feature(&self, pos: Pos, spot: Spot) -> String;
    /// Like [`Phrases::feature`], but a field names exactly the edges it touches.
    fn feature_exactly(&self, pos: Pos, spot: Spot) -> String;
    /// A figure by its role on a feature of `feature`'s kind: "knight", "big farmer".
    fn role(&self, kind: FigureKind, feature: Option<FeatureKind>) -> String;
    /// A figure of `owner` seen by the player who decides: "your knight", "Bob's farmer".
    fn figure(&self, owner: usize, kind: FigureKind, feature: Option<FeatureKind>) -> String;
    /// The figure standing at `spot` of the tile at `pos`, as [`Phrases::figure`] says it.
    fn figure_at(&self, pos: Pos, spot: Spot) -> Option<String>;
    /// A seat's name: "Bob".
    fn name(&self, seat: usize) -> String;
}

/// How an event feels to the players, for an interface that colours its log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// Someone gains (points).
    Gain,
    /// Someone is threatened or loses figures.
    Loss,
}

/// One of a family's pieces on the board that stands on no feature (a neutral figure).
#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    /// Its name, also the picture's class on the page (a word).
    pub name: &'static str,
    /// The tile it stands on.
    pub pos: Pos,
    /// The figure it stands beside, if any (by figure id).
    pub beside: Option<u32>,
    /// Its picture in the text board: one character.
    pub letter: char,
    /// The terminal's colour for its letter: an ANSI escape sequence ("\x1b[0;1;91;40m").
    pub ansi: &'static str,
    /// Its picture in SVG: the markup of a group centred on the origin, about 30 units wide.
    pub svg: &'static str,
}

/// A family's presentation (see the module's header). Every method has a default that shows
/// nothing.
pub trait Presenter: Sync {
    /// One of the family's actions in words, seen by the player who decides now.
    fn action_words(&self, _action: &Action, _say: &dyn Phrases) -> Option<String> {
        None
    }

    /// The spot one of the family's actions points at, to tell apart entries that read the same.
    fn action_spot(&self, _action: &Action) -> Option<Spot> {
        None
    }

    /// What passing one of the family's decisions means, in parentheses after "pass".
    fn pass_words(&self, _decision: &DecisionKind) -> Option<&'static str> {
        None
    }

    /// One of the family's decisions in words, for a prompt.
    fn decision_words(&self, _decision: &DecisionKind) -> Option<String> {
        None
    }

    /// One of the family's events in the players' words, where it says more than
    /// `engine::words` (which speaks otherwise); no rule id.
    fn narrate(&self, _event: &Event, _say: &dyn Phrases) -> Option<String> {
        None
    }

    /// The points an event pays that the family accounts for: (seat, points, source), the
    /// source as a tally names it.
    fn payment(&self, _event: &Event) -> Option<(usize, u32, &'static str)> {
        None
    }

    /// How one of the family's events feels.
    fn tone(&self, _event: &Event) -> Option<Tone> {
        None
    }

    /// What `seat` holds of the family's tokens, in words ("NAME: 2 KIND, …").
    fn tokens_words(&self, _game: &Game, _seat: usize) -> Option<String> {
        None
    }

    /// The family's state in a game's JSON: (key, value) pairs, written whether or not the
    /// family plays (its value then says so, as `null`); `names` are the players' by seat.
    fn state_json(&self, _game: &Game, _names: &[String]) -> Vec<(&'static str, Value)> {
        Vec::new()
    }

    /// The family's pieces on the board that stand on no feature, in drawing order.
    fn pieces(&self, _game: &Game) -> Vec<Piece> {
        Vec::new()
    }

    /// The board key's entries for the pieces `game` may show (their letter and name), whether
    /// or not they are on the board yet.
    fn key(&self, _game: &Game) -> Vec<(char, &'static str)> {
        Vec::new()
    }

    /// What the feature whose root is `root` would pay its majority if scored now, incomplete
    /// (`held`: some figure stands on it); `sizes` is one copy of `game` to read sizes on.
    fn worth_now(&self, _game: &Game, _sizes: &mut Game, _root: SegId, _held: bool) -> Option<u32> {
        None
    }

    /// The events of scoring every farm now, on a copy of the game.
    fn farms_now(&self, _game: &Game) -> Option<Vec<Event>> {
        None
    }
}

/// "a", "a and b", "a, b and c".
pub fn and_list<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [rest @ .., last] => {
            let rest: Vec<&str> = rest.iter().map(AsRef::as_ref).collect();
            format!("{} and {}", rest.join(", "), last.as_ref())
        }
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

/// The first answer of the presenters in `list` to `ask`.
pub fn first<T>(
    list: &[&'static dyn Presenter],
    ask: impl Fn(&dyn Presenter) -> Option<T>,
) -> Option<T> {
    list.iter().find_map(|p| ask(*p))
}
