//! Taking back one's own steps of a turn (issue 33), for every way of playing (the web page,
//! the terminal game): built on the game as its set-up plus its actions, outside the engine.
//!
//! A person's step can be taken back until their turn ends: as long as it revealed nothing (no
//! tile drawn, no turn started) and left the decision with them. Any other step (a bot's, one
//! that reveals something or hands the decision on) makes every step before it final. Taking a
//! step back restores the game as it was before it, exactly (it is that game, kept), so the
//! record written from it no longer has the step.
//!
//! A table may forbid undo: the ruleset's `[table] undo = false`, `castellan play --no-undo`,
//! or a web game made with `"no_undo": true`. Its steps are then final as soon as they are
//! taken (and no game is kept to go back to).

use crate::engine::event::Event;
use crate::engine::game::Game;

/// The steps of the current turn that may still be taken back, last last.
pub struct Steps {
    /// The game before each step, and how many events the log had then.
    before: Vec<(Game, usize)>,
    /// Whether the table allows undo at all.
    allowed: bool,
}

impl Steps {
    /// No step yet, at a table that allows undo or not (`allowed`).
    pub fn new(allowed: bool) -> Steps {
        Steps {
            before: Vec::new(),
            allowed,
        }
    }

    /// Whether a game played under `game`'s ruleset, with the player's or host's own choice
    /// `forbidden` (`--no-undo`, `"no_undo": true`), allows undo: both must allow it.
    pub fn allowed_in(game: &Game, forbidden: bool) -> bool {
        !forbidden && game.rules().table.undo
    }

    /// Whether the table allows undo at all.
    pub fn allowed(&self) -> bool {
        self.allowed
    }

    /// Notes a step just taken: `before` is the game before it (with `logged` events in the
    /// log), `after` the game now, `events` what the step did, `by_person` whether a person
    /// (not a bot) took it.
    pub fn taken(
        &mut self,
        before: Game,
        logged: usize,
        after: &Game,
        events: &[Event],
        by_person: bool,
    ) {
        let reveals = events
            .iter()
            .any(|e| matches!(e, Event::TileDrawn { .. } | Event::TurnStarted { .. }));
        let same_seat = !after.is_over() && after.decision().player == before.decision().player;
        if self.allowed && by_person && !reveals && same_seat {
            self.before.push((before, logged));
        } else {
            self.before.clear();
        }
    }

    /// Takes the last step back: the game before it, and how many events the log had then.
    pub fn take_back(&mut self) -> Option<(Game, usize)> {
        self.before.pop()
    }

    /// Puts back a step taken back (when what followed failed, e.g. saving).
    pub fn put_back(&mut self, before: Game, logged: usize) {
        self.before.push((before, logged));
    }

    /// Makes every step final (a seat handed to a bot, say).
    pub fn clear(&mut self) {
        self.before.clear();
    }

    /// Whether a step can be taken back.
    pub fn any(&self) -> bool {
        !self.before.is_empty()
    }
}
