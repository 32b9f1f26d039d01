//! Who may do what in a game played over the network: one secret token per seat, one for the
//! host and one for spectators.
//!
//! The tokens are made when the game is (128 bits each, from the operating system's random
//! source) and kept beside the record in the game's folder (`seats.toml`), never in the record
//! itself, so a record can be shared without giving a seat away and a restarted server keeps
//! them. A request shows its token in an `Authorization: Bearer TOKEN` header. The host's token
//! plays every seat (a hotseat game at one screen), hands seats to bots and back and removes the
//! game; a seat's token plays that seat only; the spectator's token (or none) only looks.

use super::store::StoreError;
use std::collections::BTreeMap;
use std::path::Path;

/// The file beside the record that keeps the tokens.
pub(super) const FILE: &str = "seats.toml";

/// The tokens of one game, and its table rules.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Seats {
    /// The host's token.
    host: String,
    /// The spectators' token.
    spectator: String,
    /// One token per seat, in turn order.
    players: Vec<String>,
    /// Seats the host handed to a bot: seat number (as text, TOML keys) to the bot's name.
    #[serde(default)]
    stand_ins: BTreeMap<String, String>,
    /// Whether players may take back their own steps of the turn (a table rule, chosen when
    /// the game is made).
    #[serde(default = "yes")]
    undo: bool,
}

fn yes() -> bool {
    true
}

/// What a token lets its holder do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The game's maker: plays every seat, hands seats to bots, removes the game.
    Host,
    /// One seat's player.
    Seat(usize),
    /// Looks only.
    Spectator,
}

impl Seats {
    /// Fresh tokens for a game of `seats` seats.
    pub fn new(seats: usize, undo: bool) -> Result<Seats, StoreError> {
        Ok(Seats {
            host: token()?,
            spectator: token()?,
            players: (0..seats).map(|_| token()).collect::<Result<_, _>>()?,
            stand_ins: BTreeMap::new(),
            undo,
        })
    }

    /// The tokens kept in a game's folder; a game made before seats existed (or opened from a
    /// record) gets fresh ones, saved there.
    pub fn load_or_make(dir: &Path, seats: usize) -> Result<Seats, StoreError> {
        match std::fs::read_to_string(dir.join(FILE)) {
            Ok(text) => {
                let kept: Seats = toml::from_str(&text).map_err(|e| {
                    StoreError::Disk(format!("{FILE} of this game is damaged: {}", e.message()))
                })?;
                if kept.players.len() != seats {
                    return Err(StoreError::Disk(format!(
                        "{FILE} of this game has {} seats, its record {seats}",
                        kept.players.len()
                    )));
                }
                Ok(kept)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let made = Seats::new(seats, true)?;
                made.save(dir)?;
                Ok(made)
            }
            Err(e) => Err(StoreError::Disk(format!("cannot read {FILE}: {e}"))),
        }
    }

    /// Writes the tokens beside the record (atomically).
    pub fn save(&self, dir: &Path) -> Result<(), StoreError> {
        let text = toml::to_string(self).map_err(|e| StoreError::Disk(e.to_string()))?;
        let tmp = dir.join("seats.toml.tmp");
        std::fs::write(&tmp, text)
            .and_then(|()| std::fs::rename(&tmp, dir.join(FILE)))
            .map_err(|e| StoreError::Disk(e.to_string()))
    }

    /// What `token` lets its holder do (no token, or an unknown one: look only).
    pub fn role(&self, token: Option<&str>) -> Role {
        let Some(token) = token else {
            return Role::Spectator;
        };
        if same(token, &self.host) {
            return Role::Host;
        }
        self.players
            .iter()
            .position(|t| same(token, t))
            .map_or(Role::Spectator, Role::Seat)
    }

    /// Refuses unless `role` may act for `seat`.
    pub fn may_act(role: Role, seat: usize, name: &str) -> Result<(), StoreError> {
        match role {
            Role::Host => Ok(()),
            Role::Seat(s) if s == seat => Ok(()),
            Role::Seat(_) => Err(StoreError::Forbidden(format!(
                "it is {name}'s turn: your page plays another seat"
            ))),
            Role::Spectator => Err(StoreError::Forbidden(
                "this page watches the game: only its players act".into(),
            )),
        }
    }

    /// Refuses unless `role` is the host's.
    pub fn host_only(role: Role, what: &str) -> Result<(), StoreError> {
        if role == Role::Host {
            Ok(())
        } else {
            Err(StoreError::Forbidden(format!(
                "only the game's host may {what}"
            )))
        }
    }

    /// The bot standing in for `seat`, if the host handed it one.
    pub fn stand_in(&self, seat: usize) -> Option<&str> {
        self.stand_ins.get(&seat.to_string()).map(String::as_str)
    }

    /// Hands `seat` to the bot `bot`, or back to its player (`None`).
    pub fn hand(&mut self, seat: usize, bot: Option<String>) {
        match bot {
            Some(b) => self.stand_ins.insert(seat.to_string(), b),
            None => self.stand_ins.remove(&seat.to_string()),
        };
    }

    /// Whether players may take back their steps.
    pub fn undo(&self) -> bool {
        self.undo
    }

    /// The links the host hands out: one per seat and one for spectators (paths with the
    /// token in the fragment, which browsers do not send to servers or put in logs).
    pub fn links(&self, id: &str) -> serde_json::Value {
        let link = |t: &str| format!("/#game={id}&token={t}");
        serde_json::json!({
            "host": link(&self.host),
            "seats": self.players.iter().map(|t| link(t)).collect::<Vec<_>>(),
            "spectator": link(&self.spectator),
        })
    }
}

/// Compares two tokens in time that does not depend on where they first differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// 128 random bits from the operating system, as 32 hexadecimal digits.
fn token() -> Result<String, StoreError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)
        .map_err(|e| StoreError::Disk(format!("no randomness for a token: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}
