//! How Bridges, Castles & Bazaars shows itself (`engine::show`): the bridge's and the castle's
//! actions and decisions in words, castle scores in a tally, the bridges on the board and the
//! castles (where, whose, occupied) in a game's JSON, each player's bridges and castle tokens
//! in the score panel, and the castle tokens as pieces on the board (the follower in a castle
//! is drawn on the side two tiles share, as every figure at a place is; the bridges are drawn
//! by the boards as the overlay roads they are).

use super::bazaar::{bidding, on_offer, to_lay};
use super::bridge::left;
use super::castle::{castles, tokens_left};
use super::vocabulary::{BcbAction, BcbDecision, BcbEvent, axis_words};
use crate::engine::action::{Action, DecisionKind};
use crate::engine::event::Event;
use crate::engine::game::Game;
use crate::engine::show::{Phrases, Piece, Presenter, Tone};
use crate::model::geometry::{Edge, Spot};
use serde_json::{Value, json};

/// The presentation of Bridges, Castles & Bazaars.
pub struct Show;

/// A castle token on the board: a small keep with two towers.
const CASTLE: &str = concat!(
    r##"<path d="M-12,8 L-12,-8 L-8,-8 L-8,-4 L-4,-4 L-4,-8 L4,-8 L4,-4 L8,-4 L8,-8 L12,-8 L12,8 Z" fill="#b8a27a" stroke="#333" stroke-width="1.5"/>"##,
    r##"<path d="M-2,8 L-2,2 A2,2 0 0 1 2,2 L2,8 Z" fill="#333"/>"##
);

impl Presenter for Show {
    fn action_words(&self, action: &Action, say: &dyn Phrases) -> Option<String> {
        Some(match BcbAction::of(action)? {
            BcbAction::Castle { pos, spot } => format!(
                "build a castle from {} (it scores nothing now)",
                say.feature(pos, spot)
            ),
            BcbAction::Scores {
                castle,
                from,
                spot: Some(spot),
            } => format!(
                "let your castle at {castle} score {}",
                say.feature(from, spot)
            ),
            BcbAction::Scores { castle, from, .. } => {
                format!("let your castle at {castle} score what the castle at {from} scored")
            }
            BcbAction::Bridge {
                pos,
                rotation,
                at,
                edge,
            } => {
                let on = if at == pos {
                    "it".to_string()
                } else {
                    format!("the tile at {at}")
                };
                format!(
                    "place the tile at {pos} turned {}° and lay a bridge {} across {on}",
                    rotation.degrees(),
                    axis_words(edge)
                )
            }
            BcbAction::LateBridge { at, edge } => {
                format!("lay a bridge {} across the tile at {at}", axis_words(edge))
            }
            BcbAction::BazaarChoose { lot } => {
                let game = say.game();
                let tile = (on_offer(game).get(usize::from(lot).wrapping_sub(1)))
                    .map_or_else(String::new, |(t, _)| {
                        format!(" ({})", game.rules().tile(*t).id)
                    });
                format!("choose bazaar tile #{lot}{tile}")
            }
            BcbAction::BazaarBid { bid: 1 } => "bid 1 point for it".into(),
            BcbAction::BazaarBid { bid } => format!("bid {bid} points for it"),
            BcbAction::BazaarRaise { bid } => format!("raise the bid to {bid}"),
            BcbAction::BazaarBuy => "buy the tile: pay the highest bid to its bidder".into(),
            BcbAction::BazaarSell => "sell the tile to the highest bidder for his bid".into(),
        })
    }

    fn action_spot(&self, action: &Action) -> Option<Spot> {
        match BcbAction::of(action)? {
            BcbAction::Castle { spot, .. } => Some(spot),
            BcbAction::Scores { spot, .. } => spot,
            BcbAction::Bridge { edge, .. } | BcbAction::LateBridge { edge, .. } => Some(edge),
            _ => None,
        }
    }

    fn pass_words(&self, decision: &DecisionKind) -> Option<&'static str> {
        match BcbDecision::of(decision)? {
            BcbDecision::Castle => Some("pass (score the city)"),
            BcbDecision::LateBridge => Some("pass (lay no bridge this turn)"),
            BcbDecision::BazaarRaise { .. } => Some("pass (do not raise)"),
            _ => None,
        }
    }

    fn decision_words(&self, decision: &DecisionKind) -> Option<String> {
        Some(match BcbDecision::of(decision)? {
            BcbDecision::Castle => "build a castle from the small city, or score it".into(),
            BcbDecision::Scores => "choose the feature your castle scores".into(),
            BcbDecision::LateBridge => "lay a bridge now, or pass".into(),
            BcbDecision::BazaarChoose => "choose a revealed bazaar tile".into(),
            BcbDecision::BazaarBid { lot } => format!("bid for bazaar tile #{lot}"),
            BcbDecision::BazaarRaise { high } => {
                format!("raise the bazaar bid above {high}, or pass")
            }
            BcbDecision::BazaarBuyOrSell => {
                "buy the bazaar tile or sell it to the highest bidder".into()
            }
        })
    }

    fn tone(&self, event: &Event) -> Option<Tone> {
        match BcbEvent::of(event)? {
            BcbEvent::Scored { .. } => Some(Tone::Gain),
            _ => None,
        }
    }

    fn tokens_words(&self, game: &Game, seat: usize) -> Option<String> {
        game.rules()
            .switched_on("bridges_castles_bazaars")
            .then(|| {
                let mut words = format!(
                    "bridges: {}, castles: {}",
                    left(game, seat),
                    tokens_left(game, seat)
                );
                words.push_str(&bazaar_words(game, seat));
                words
            })
    }

    fn state_json(&self, game: &Game, _names: &[String]) -> Vec<(&'static str, Value)> {
        if !game.rules().switched_on("bridges_castles_bazaars") {
            return vec![
                ("bridges", Value::Null),
                ("castles", Value::Null),
                ("bazaar", Value::Null),
            ];
        }
        let list: Vec<Value> = (castles(game).iter())
            .map(|c| {
                let [a, b] = c.tiles();
                json!({
                    "tiles": [[a.x, a.y], [b.x, b.y]],
                    "player": c.owner,
                    "figure": c.occupied.then_some(c.figure),
                })
            })
            .collect();
        let tokens: Vec<u8> = (0..game.scores().len())
            .map(|seat| tokens_left(game, seat))
            .collect();
        vec![
            ("bridges", bridges_json(game)),
            ("castles", json!({"castles": list, "tokens": tokens})),
            ("bazaar", bazaar_json(game)),
        ]
    }

    fn pieces(&self, game: &Game) -> Vec<Piece> {
        (castles(game).iter())
            .map(|c| Piece {
                name: "castle",
                pos: c.pos(),
                beside: None,
                letter: 'K',
                ansi: "\x1b[0;1;93;40m",
                svg: CASTLE,
            })
            .collect()
    }

    fn key(&self, game: &Game) -> Vec<(char, &'static str)> {
        let on = game.rules().switched_on("bridges_castles_bazaars");
        on.then_some(('K', "castle token")).into_iter().collect()
    }
}

/// The bridges on the board (tile and direction) and each player's bridges left.
fn bridges_json(game: &Game) -> Value {
    let board = game.board();
    let on_board: Vec<Value> = (board.overlays().iter())
        .map(|&(id, _)| {
            let pos = board.placed(id).pos;
            let edge = if board.overlay(id) & 1 != 0 {
                Edge::N
            } else {
                Edge::E
            };
            json!({"x": pos.x, "y": pos.y, "edge": edge.name()})
        })
        .collect();
    let supply: Vec<u8> = (0..game.scores().len()).map(|s| left(game, s)).collect();
    json!({"on_board": on_board, "supply": supply})
}

/// A seat's part in the bazaar now: the tile he won and has still to lay, or the highest bid
/// when it is his.
fn bazaar_words(game: &Game, seat: usize) -> String {
    let name = |t| game.rules().tile(t).id.clone();
    if let Some((_, tile)) = to_lay(game).into_iter().find(|(s, _)| *s == seat) {
        return format!("; bazaar tile to lay: {}", name(tile));
    }
    let offer = on_offer(game);
    if let Some(i) = offer.iter().position(|(_, o)| *o == Some(seat)) {
        return format!("; bazaar tile #{} won: {}", i + 1, name(offer[i].0));
    }
    match bidding(game) {
        Some((lot, bid, bidder)) if bidder == seat => {
            format!("; highest bid: {bid} on bazaar tile #{lot}")
        }
        _ => String::new(),
    }
}

/// The bazaar in a game's JSON: the revealed tiles (and who got each), the bid on the table,
/// the won tiles still to be laid.
fn bazaar_json(game: &Game) -> Value {
    let name = |t| game.rules().tile(t).id.clone();
    let lots: Vec<Value> = (on_offer(game).into_iter())
        .map(|(t, owner)| json!({"tile": name(t), "player": owner}))
        .collect();
    let bid = bidding(game)
        .map(|(lot, points, player)| json!({"tile": lot, "points": points, "player": player}));
    let to_lay: Vec<Value> = (to_lay(game).into_iter())
        .map(|(seat, t)| json!({"player": seat, "tile": name(t)}))
        .collect();
    json!({"revealed": lots, "bid": bid, "to_lay": to_lay})
}
