//! What scripts may spend during one action: wall-clock time and memory.
//!
//! rhai's own limits (`[scripting]`) bound the operations of one hook call, the call depth and
//! the size of one value. They do not bound the whole: one operation may be costly (sorting a
//! large array), and a map's keys are not counted in any size. So every action also has a
//! budget, checked by rhai's progress callback after each operation:
//!
//! - **memory**: the bytes allocated and not yet freed on the action's thread since the action
//!   began may not exceed [`ACTION_MEMORY`]. Every allocation of the process is counted by a
//!   counting allocator (a thread-local addition per allocation), so the bound holds whatever
//!   the script builds. The count depends only on what the program allocates, not on the
//!   machine, so it is deterministic.
//! - **time**: scripts may run until [`ACTION_TIME`] after the action began. This is the one
//!   limit that depends on the machine; a normal script spends microseconds per action (the
//!   operation limit stops loops long before), so it never comes near it.
//!
//! A script stopped by either gets a script error naming its file, line and hook, and the
//! action is refused (the game stays as it was).
//!
//! A game as a whole has a budget too ([`GameClock`]): its scripts may run
//! `[scripting] max_game_seconds` (at most a minute) over all its actions. Whoever plays a game
//! (`simulate`, `play`, the server) charges each action's time to it and stops the game past it.

use crate::data::ruleset::Ruleset;
use mimalloc::MiMalloc;
use rhai::Dynamic;
use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::time::{Duration, Instant};

/// The wall-clock time scripts may run during one action.
pub const ACTION_TIME: Duration = Duration::from_secs(5);

/// The memory (bytes) scripts may hold at once during one action, beyond what the game held
/// when the action began.
pub const ACTION_MEMORY: isize = 256 << 20;

/// How many operations pass between two looks at the clock (reading it costs more than an
/// operation).
const CLOCK_EVERY: u64 = 1024;

thread_local! {
    /// Bytes allocated minus bytes freed on this thread since it started.
    static LIVE: Cell<isize> = const { Cell::new(0) };
    /// The running action's budget on this thread.
    static CURRENT: Cell<Option<Limit>> = const { Cell::new(None) };
    /// Allocations and growths on this thread since it started (for tests that keep hot paths
    /// free of them).
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

/// The allocator that counts, around mimalloc (faster than the system's for the many
/// short-lived games of a simulation).
struct Counting;

// SAFETY: every call is passed on unchanged to mimalloc; counting touches only a
// thread-local integer and never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as isize);
        // SAFETY: the caller's contract is passed on.
        unsafe { MiMalloc.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as isize);
        // SAFETY: the caller's contract is passed on.
        unsafe { MiMalloc.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as isize));
        // SAFETY: the caller's contract is passed on.
        unsafe { MiMalloc.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size as isize - layout.size() as isize);
        // SAFETY: the caller's contract is passed on.
        unsafe { MiMalloc.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn count(bytes: isize) {
    // A thread being torn down has no counter any more: nothing to count there.
    let _ = LIVE.try_with(|live| live.set(live.get().wrapping_add(bytes)));
    if bytes > 0 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get().wrapping_add(1)));
    }
}

/// Allocations (and growths of an allocation) made on this thread so far.
#[cfg(test)]
pub(crate) fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

/// Where one action's budget ends.
#[derive(Clone, Copy)]
struct Limit {
    /// When the action's time is up: set at the first look at the clock (most actions' scripts
    /// run too few operations to look at it at all, and reading it costs more than a short
    /// hook), so the time counts from the action's first [`CLOCK_EVERY`] operations on.
    deadline: Option<Instant>,
    /// The live bytes when the action began.
    mark: isize,
}

/// The budget of the running action, while this value lives: a budget that began an action
/// puts back the one before it when it ends; one lent to a hook of the running action leaves
/// that action's budget (with its deadline) as it is.
pub(crate) struct Budget {
    restore: Option<Option<Limit>>,
}

impl Budget {
    /// A fresh budget: an action begins (a replayed action gets its own).
    pub(crate) fn action() -> Budget {
        let limit = Limit {
            deadline: None,
            mark: LIVE.with(Cell::get),
        };
        Budget {
            restore: Some(CURRENT.replace(Some(limit))),
        }
    }

    /// The running action's budget, or a fresh one when no action runs (the hooks of a game's
    /// set-up).
    pub(crate) fn hook() -> Budget {
        match CURRENT.get() {
            Some(_) => Budget { restore: None },
            None => Budget::action(),
        }
    }
}

impl Drop for Budget {
    fn drop(&mut self) {
        if let Some(previous) = self.restore {
            CURRENT.set(previous);
        }
    }
}

/// rhai's progress callback: stops the script when the action's budget is spent.
pub(crate) fn progress(operations: u64) -> Option<Dynamic> {
    let limit = CURRENT.get()?;
    if LIVE.with(Cell::get).wrapping_sub(limit.mark) > ACTION_MEMORY {
        return Some(Dynamic::from(format!(
            "the scripts hold more than {} MiB during one action (stopped)",
            ACTION_MEMORY >> 20
        )));
    }
    if operations % CLOCK_EVERY != 0 {
        return None;
    }
    let now = Instant::now();
    match limit.deadline {
        None => CURRENT.set(Some(Limit {
            deadline: Some(now + ACTION_TIME),
            ..limit
        })),
        Some(deadline) if now > deadline => {
            return Some(Dynamic::from(format!(
                "the scripts ran longer than {} s during one action (stopped)",
                ACTION_TIME.as_secs()
            )));
        }
        Some(_) => {}
    }
    None
}

/// The time a scripted game's actions have spent, against what its ruleset lets a whole game
/// spend (`[scripting] max_game_seconds`). A game without scripts is never stopped.
#[derive(Clone, Debug)]
pub struct GameClock {
    spent: Duration,
    /// The limit and the scripts' files, for a game with scripts.
    limit: Option<(Duration, String)>,
    actions: usize,
}

/// A game's scripts spent the time a whole game may spend: the game stops (every action up to
/// the last one charged stays taken).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{files}: the scripts ran longer than the {seconds} s a whole game may spend \
     (scripting.max_game_seconds) over {actions} actions: the game stops"
)]
pub struct OverTime {
    /// The ruleset's script files.
    pub files: String,
    /// The game's limit, in seconds.
    pub seconds: u64,
    /// The actions charged.
    pub actions: usize,
}

impl GameClock {
    /// A clock for a game under `rules`, nothing spent yet.
    pub fn new(rules: &Ruleset) -> GameClock {
        let limit = rules.scripts.as_ref().map(|s| {
            let files: Vec<String> = s
                .files
                .iter()
                .map(|(path, _)| path.display().to_string())
                .collect();
            (
                Duration::from_secs(s.limits.max_game_seconds),
                files.join(", "),
            )
        });
        GameClock {
            spent: Duration::ZERO,
            limit,
            actions: 0,
        }
    }

    /// Whether the game has scripts whose time counts (without them, nothing need be timed).
    pub fn limited(&self) -> bool {
        self.limit.is_some()
    }

    /// Charges an action that began at `started`; refuses when the game's scripts have now
    /// spent more than its limit.
    pub fn charge(&mut self, started: Instant) -> Result<(), OverTime> {
        self.charge_until(started, Instant::now())
    }

    /// Charges an action that ran from `started` to `ended` (a caller that runs actions back to
    /// back reads the clock once between two: one's end is the next one's start).
    pub fn charge_until(&mut self, started: Instant, ended: Instant) -> Result<(), OverTime> {
        let Some((limit, files)) = &self.limit else {
            return Ok(());
        };
        self.spent += ended.saturating_duration_since(started);
        self.actions += 1;
        if self.spent <= *limit {
            return Ok(());
        }
        Err(OverTime {
            files: files.clone(),
            seconds: limit.as_secs(),
            actions: self.actions,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The action's deadline is set at its first look at the clock and lasts the whole action:
    /// a hook's budget does not start the time anew, and a new action does.
    #[test]
    fn an_action_keeps_its_deadline_across_its_hooks() {
        let deadline = || CURRENT.get().and_then(|l| l.deadline);
        let action = Budget::action();
        assert_eq!(deadline(), None, "no clock read before the first look");
        assert!(progress(CLOCK_EVERY - 1).is_none());
        assert_eq!(deadline(), None);
        assert!(progress(CLOCK_EVERY).is_none());
        let set = deadline().expect("the first look sets the deadline");
        {
            let _hook = Budget::hook();
            assert!(progress(2 * CLOCK_EVERY).is_none());
        }
        assert_eq!(deadline(), Some(set), "the hook kept the action's deadline");
        {
            let _replayed = Budget::action();
            assert_eq!(deadline(), None, "a new action's time starts anew");
        }
        assert_eq!(deadline(), Some(set));
        drop(action);
        assert!(CURRENT.get().is_none());
    }

    /// Past the deadline, the next look at the clock stops the scripts.
    #[test]
    fn a_look_past_the_deadline_stops_the_scripts() {
        let _action = Budget::action();
        let past = Instant::now() - Duration::from_secs(1);
        CURRENT.set(CURRENT.get().map(|l| Limit {
            deadline: Some(past),
            ..l
        }));
        assert!(progress(CLOCK_EVERY + 1).is_none(), "no look between two");
        let stopped = progress(2 * CLOCK_EVERY).expect("stopped");
        assert!(stopped.to_string().contains("ran longer than 5 s"));
    }
}
