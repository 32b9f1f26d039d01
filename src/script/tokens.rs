//! Tokens a script says a player holds (`hold_tokens(p, group, token, n)`): kept with the
//! scripts' state and shown beside the player's score, as a built-in family shows its own
//! ("goods: 2 wine, 1 cloth"), so a box written as a script is seen like a native one.

use crate::engine::game::Game;
use crate::engine::show::Presenter;

/// How many groups of tokens scripts may name, and tokens in a group: a script cannot grow
/// the state a game carries (and copies for every bot candidate) without bound.
pub const MAX_NAMES: usize = 16;

/// The longest group or token name, in characters.
pub const MAX_NAME: usize = 24;

/// One group's tokens, in the order scripts first named them, each with how many every seat
/// holds.
type Group = Vec<(String, Vec<u32>)>;

/// The tokens of every group, in the order scripts first named the groups.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tokens(Vec<(String, Group)>);

impl Tokens {
    /// Sets how many `token`s of `group` seat `seat` (of `seats`) holds, naming the group and
    /// the token on first use.
    pub(crate) fn set(
        &mut self,
        seats: usize,
        seat: usize,
        group: &str,
        token: &str,
        count: u32,
    ) -> Result<(), String> {
        for name in [group, token] {
            if name.is_empty() || name.chars().count() > MAX_NAME {
                return Err(format!(
                    "a token group or token is named by 1 to {MAX_NAME} characters, not `{}`",
                    name.chars().take(MAX_NAME + 1).collect::<String>()
                ));
            }
        }
        let tokens = find_or_add(&mut self.0, group, Vec::new)?;
        let held = find_or_add(tokens, token, || vec![0; seats])?;
        if let Some(n) = held.get_mut(seat) {
            *n = count;
        }
        Ok(())
    }

    /// What `seat` holds, group by group ("goods: 2 wine, 1 cloth"), tokens it holds none of
    /// left out; `None` when it holds nothing.
    pub(crate) fn words(&self, seat: usize) -> Option<String> {
        let groups: Vec<String> = (self.0.iter())
            .filter_map(|(group, tokens)| {
                let held: Vec<String> = (tokens.iter())
                    .filter_map(|(token, held)| {
                        let n = *held.get(seat)?;
                        (n > 0).then(|| format!("{n} {token}"))
                    })
                    .collect();
                (!held.is_empty()).then(|| format!("{group}: {}", held.join(", ")))
            })
            .collect();
        (!groups.is_empty()).then(|| groups.join("; "))
    }
}

/// The entry named `name` of `list`, added (made by `make`) if there is none and room is left.
fn find_or_add<'a, T>(
    list: &'a mut Vec<(String, T)>,
    name: &str,
    make: impl FnOnce() -> T,
) -> Result<&'a mut T, String> {
    let i = match list.iter().position(|(n, _)| n == name) {
        Some(i) => i,
        None if list.len() < MAX_NAMES => {
            list.push((name.to_string(), make()));
            list.len() - 1
        }
        None => {
            return Err(format!(
                "scripts may name at most {MAX_NAMES} token groups, and {MAX_NAMES} tokens in a group"
            ));
        }
    };
    Ok(&mut list[i].1)
}

/// The scripts' presentation: the tokens players hold.
pub struct Show;

impl Presenter for Show {
    fn tokens_words(&self, game: &Game, seat: usize) -> Option<String> {
        game.script_tokens()?.words(seat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_said_per_seat_in_first_named_order_and_bounded() {
        let mut t = Tokens::default();
        t.set(2, 0, "goods", "wine", 2).unwrap();
        t.set(2, 1, "goods", "grain", 1).unwrap();
        t.set(2, 0, "goods", "cloth", 1).unwrap();
        t.set(2, 0, "pets", "cat", 3).unwrap();
        assert_eq!(
            t.words(0).as_deref(),
            Some("goods: 2 wine, 1 cloth; pets: 3 cat")
        );
        assert_eq!(t.words(1).as_deref(), Some("goods: 1 grain"));
        t.set(2, 1, "goods", "grain", 0).unwrap();
        assert_eq!(t.words(1), None);
        assert!(t.set(2, 0, "", "x", 1).is_err());
        assert!(t.set(2, 0, "g", &"x".repeat(MAX_NAME + 1), 1).is_err());
        for i in 0..MAX_NAMES - 3 {
            t.set(2, 0, "goods", &format!("t{i}"), 1).unwrap();
        }
        let refused = t.set(2, 0, "goods", "one-too-many", 1).unwrap_err();
        assert!(refused.contains("at most 16"), "{refused}");
    }
}
