//! A game's history: the actions applied since its set-up, in order. It only grows (a failed
//! action is undone by rebuilding the game), so a copy copied onto again from the same unchanged
//! game need not copy the history anew: it cuts its own back to the source's length
//! ([`CopyLog`]).

use crate::engine::action::Action;
use crate::model::copylog::CopyLog;

/// The actions applied to a game, in order.
#[derive(Default)]
pub(crate) struct History {
    actions: Vec<Action>,
    /// Whether this history is another's with actions added (see [`CopyLog`]).
    log: CopyLog,
}

/// Prints as the list of actions.
impl std::fmt::Debug for History {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(&self.actions).finish()
    }
}

impl Clone for History {
    fn clone(&self) -> History {
        // A fresh copy logs nothing: it is seldom copied onto again.
        History {
            actions: self.actions.clone(),
            log: CopyLog::default(),
        }
    }

    fn clone_from(&mut self, source: &History) {
        let id = source.log.id();
        if self.log.restorable(id) {
            // This history is the source's with actions added since: cut them off.
            self.actions.truncate(source.actions.len());
        } else {
            self.actions.clone_from(&source.actions);
        }
        self.log.copied(id, source.actions.len());
    }
}

impl From<Vec<Action>> for History {
    fn from(actions: Vec<Action>) -> History {
        History {
            actions,
            log: CopyLog::default(),
        }
    }
}

impl std::ops::Deref for History {
    type Target = [Action];

    fn deref(&self) -> &[Action] {
        &self.actions
    }
}

impl History {
    /// Adds an action at the end.
    pub(crate) fn push(&mut self, action: Action) {
        self.log.grow();
        self.actions.push(action);
    }

    /// Makes room for `n` more actions (for tests that count allocations).
    #[cfg(test)]
    pub(crate) fn reserve(&mut self, n: usize) {
        self.actions.reserve(n);
    }

    /// The actions, taking them out of the history.
    pub(crate) fn into_actions(self) -> Vec<Action> {
        self.actions
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::geometry::{Pos, Rotation};

    fn place(x: i32) -> Action {
        Action::Place {
            pos: Pos { x, y: 0 },
            rotation: Rotation::ALL[0],
        }
    }

    fn of(xs: &[i32]) -> History {
        let mut h = History::default();
        xs.iter().for_each(|&x| h.push(place(x)));
        h
    }

    /// A copy copied onto again, from its unchanged source or from another history, or after
    /// the source grew, equals a fresh copy of that source: cutting back takes exactly the
    /// actions added since.
    #[test]
    fn a_copy_copied_onto_again_equals_a_fresh_copy() {
        let (mut source, other) = (of(&[1, 2, 3]), of(&[7, 8]));
        let mut copy = History::default();
        copy.clone_from(&source);
        for round in 0..3 {
            copy.push(place(10 + round));
            copy.push(place(20 + round));
            copy.clone_from(&source);
            assert_eq!(&*copy, &*source.clone(), "round {round}");
        }
        // The source grows: its content is new, the copy takes it whole.
        source.push(place(4));
        copy.push(place(5));
        copy.clone_from(&source);
        assert_eq!(&*copy, &[place(1), place(2), place(3), place(4)]);
        // Another history, then back.
        copy.clone_from(&other);
        assert_eq!(&*copy, &*other);
        copy.push(place(9));
        copy.clone_from(&source);
        assert_eq!(&*copy, &*source);
        // A history rebuilt from a list (as a failed script's undo does) is copied whole.
        let mut rebuilt: History = copy.clone().into_actions().into();
        rebuilt.clone_from(&source);
        rebuilt.push(place(6));
        rebuilt.clone_from(&other);
        assert_eq!(&*rebuilt, &*other);
    }
}
