//! Bringing a copy back to its source cheaply. A bot tries many candidates on one scratch copy
//! of a game: it copies the game, applies a candidate, copies the game again, and so on. The
//! second copy need not copy everything: the scratch holds the game's content but for what the
//! candidate changed, so it is enough to take back what was added and rewrite what was changed.
//!
//! A [`CopyLog`] lets a structure (the board, the features) know when that holds. Each content
//! that copies are made of gets an id, shared by its copies and forgotten as soon as the
//! content changes; a copy remembers the id it was made from and logs the entries it changed
//! since. When it is copied again from a structure whose content has that same id, it takes
//! back the logged entries only.

use std::sync::atomic::{AtomicU64, Ordering};

/// The next id to give a content (0 is none).
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// How many changed entries a copy logs; past that, the next copy is a whole one.
const LIMIT: usize = 256;

/// What a structure knows about where its content came from (see the module's text).
#[derive(Default)]
pub(crate) struct CopyLog {
    /// The id of this content, shared by its copies (0: none given since it last changed).
    id: AtomicU64,
    /// The id of the content this one was last made equal to (0: none, or more changes since
    /// than logged).
    base: u64,
    /// How many entries that content had: entries added since are not logged.
    base_len: usize,
    /// The entries (by index) changed since, with repeats.
    changed: Vec<u32>,
}

/// Nothing of a log tells about the content: two equal contents print alike.
impl std::fmt::Debug for CopyLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CopyLog")
    }
}

impl CopyLog {
    /// The id of the content holding this log, given now if it has none.
    pub(crate) fn id(&self) -> u64 {
        match self.id.load(Ordering::Relaxed) {
            0 => {
                let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
                self.id.store(id, Ordering::Relaxed);
                id
            }
            id => id,
        }
    }

    /// Whether the content holding this log is the content of id `source` but for the logged
    /// changes and for entries added since.
    pub(crate) fn restorable(&self, source: u64) -> bool {
        self.base != 0 && self.base == source
    }

    /// The content holding this log grows: entries are added (it is no longer the content of
    /// its id).
    #[inline(always)]
    pub(crate) fn grow(&mut self) {
        *self.id.get_mut() = 0;
    }

    /// Whether changes are logged (the content was copied onto, and not changed too much
    /// since).
    #[inline(always)]
    pub(crate) fn logging(&self) -> bool {
        self.base != 0
    }

    /// The content holding this log changes `entries` in place (it is no longer the content
    /// of its id).
    #[inline(always)]
    pub(crate) fn changes<const N: usize>(&mut self, entries: [usize; N]) {
        *self.id.get_mut() = 0;
        if self.base != 0 {
            entries.into_iter().for_each(|e| self.note(e));
        }
    }

    /// Logs a change of `entry`, unless it was added since the copy.
    fn note(&mut self, entry: usize) {
        if entry >= self.base_len {
            return;
        }
        if self.changed.len() == LIMIT {
            self.base = 0;
        } else {
            self.changed.push(entry as u32);
        }
    }

    /// The content holding this log changes in a way no log can take back.
    pub(crate) fn change_all(&mut self) {
        *self.id.get_mut() = 0;
        self.base = 0;
    }

    /// The entries changed in place since the content was made equal to its base.
    pub(crate) fn changed(&self) -> &[u32] {
        &self.changed
    }

    /// Stops logging changes until the next copy (for a copy that will not be copied onto
    /// again: a fresh one).
    pub(crate) fn stop(&mut self) {
        self.base = 0;
    }

    /// The content holding this log has just been made equal to the content of id `source`,
    /// which has `len` entries.
    pub(crate) fn copied(&mut self, source: u64, len: usize) {
        *self.id.get_mut() = source;
        self.base = source;
        self.base_len = len;
        self.changed.clear();
    }
}
