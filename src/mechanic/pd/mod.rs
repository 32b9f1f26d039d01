//! The Princess & the Dragon: the volcano, the dragon, the fairy, the princess and the magic
//! portal (RULES.md §2).

pub mod dragon;
pub mod fairy;
pub mod portal;
pub mod princess;
pub mod rules;
pub mod vocabulary;
pub mod volcano;
