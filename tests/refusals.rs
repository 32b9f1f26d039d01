//! Refusals carry the rule that refuses as data (issue 9, "typed errors"): in seeded games of
//! every shipped ruleset, near misses of the legal actions (a placement moved or turned, a
//! figure on another spot, a dragon step too far) are refused, every refusal by a rule names
//! a rule id of RULES.md's form or a ruleset key, and its words say the same rule. The rules
//! of single refusals are asserted in the rule tests (base_rules, pd_dragon, pd_fairy, count,
//! bad_input).

use castellan::bot::{Bot, RandomBot};
use castellan::data::ruleset::Ruleset;
use castellan::engine::action::Action;
use castellan::engine::game::{Game, RuleError, Setup};
use castellan::engine::refusal::RuleId;
use castellan::mechanic::pd::vocabulary::PdAction;
use castellan::model::geometry::{Pos, Rotation, Spot};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

/// Whether `id` reads like a RULES.md id (`B-P1`, `PR3`, `D5`, `MP3`, `CO-6`, `FA2`), a ruleset
/// key (`mechanics.farmers`, `pd.portal.figures`) or `script`.
fn well_formed(id: RuleId) -> bool {
    let rules_md = |s: &str| {
        // RULES.md's CO- ids and RULES-MORE.md's (AM-16, TW-5, X-9): capitals, a dash, a number.
        if let Some((prefix, n)) = s.split_once('-').filter(|(p, _)| *p != "B") {
            return !prefix.is_empty()
                && prefix.chars().all(|c| c.is_ascii_uppercase())
                && !n.is_empty()
                && n.chars().all(|c| c.is_ascii_digit());
        }
        let s = s.strip_prefix("B-").unwrap_or(s);
        let letters = s.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
        !letters.is_empty()
            && letters.len() < s.len()
            && letters.chars().all(|c| c.is_ascii_uppercase())
    };
    let key = |s: &str| {
        s.contains('.')
            && s.split('.')
                .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
    };
    id.0 == "script" || rules_md(id.0) || key(id.0)
}

/// Near misses of a legal action: the same kind of answer, nudged.
fn near_misses(action: &Action) -> Vec<Action> {
    let spots = ["N", "E", "S", "W", "NL", "NR", "EL", "SR", "C"].map(Spot::parse);
    match *action {
        Action::Place { pos, .. } => [(0, 0), (1, 0), (3, 3), (0, -5)]
            .iter()
            .flat_map(|(dx, dy)| {
                (0..4).map(move |r| Action::Place {
                    pos: Pos::new(pos.x + dx, pos.y + dy),
                    rotation: Rotation::from_degrees(90 * r).expect("a rotation"),
                })
            })
            .collect(),
        Action::Deploy { pos, figure, .. } => spots
            .into_iter()
            .flatten()
            .flat_map(|spot| {
                [pos, Pos::new(pos.x + 2, pos.y)].map(|pos| Action::Deploy { pos, spot, figure })
            })
            .collect(),
        _ => match PdAction::of(action) {
            Some(PdAction::Dragon { pos }) => vec![
                Action::from(PdAction::Dragon {
                    pos: Pos::new(pos.x + 2, pos.y),
                }),
                Action::from(PdAction::Dragon {
                    pos: Pos::new(pos.x + 1, pos.y + 1),
                }),
            ],
            Some(PdAction::Remove { pos, .. }) => spots
                .into_iter()
                .flatten()
                .map(|spot| Action::from(PdAction::Remove { pos, spot }))
                .collect(),
            _ => vec![Action::Pass],
        },
    }
}

/// In seeded games of every shipped ruleset, every refusal by a rule names a well-formed rule
/// id, and its words name the same rule; the rules met are many.
#[test]
fn every_refusal_names_its_rule() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut met = BTreeSet::new();
    for entry in std::fs::read_dir(root.join("rulesets")).expect("the rulesets") {
        let path = entry.expect("an entry").path();
        if path.extension().is_none_or(|x| x != "toml") {
            continue;
        }
        let rules = Ruleset::load(&path.display().to_string()).expect("loads");
        let names = vec!["A".to_string(), "B".to_string(), "C".to_string()];
        let (mut game, _) = Game::new(Arc::clone(&rules), Setup::new(names, 5)).expect("starts");
        let mut bot = RandomBot::new(5);
        let mut decisions = 0;
        while !game.is_over() && decisions < 120 {
            decisions += 1;
            let legal = game.legal();
            for miss in legal.iter().take(3).flat_map(near_misses) {
                if legal.contains(&miss) {
                    continue;
                }
                let Err(error) = game.clone().apply(&miss) else {
                    continue;
                };
                let Some(rule) = error.rule() else {
                    continue;
                };
                assert!(well_formed(rule), "{path:?} {miss:?}: {rule:?}");
                let words = error.to_string();
                let listed = matches!(error, RuleError::IllegalAction { .. })
                    && words.contains("not among the legal choices");
                assert!(
                    listed || words.contains(rule.0),
                    "{path:?} {miss:?}: `{words}` does not name {rule}"
                );
                met.insert(rule.0);
            }
            let action = bot.choose(&game);
            game.apply(&action).expect("legal");
        }
    }
    for rule in ["B-P1", "B-P2", "B-F2", "B-F3", "D5", "PR3"] {
        assert!(met.contains(rule), "{rule} never refused: {met:?}");
    }
}

/// The form check itself: ids of every family pass, prose does not.
#[test]
fn rule_ids_are_recognised() {
    for good in [
        "B-P1",
        "PR3",
        "D5",
        "MP3",
        "CO-6",
        "FA2",
        "D0.1",
        "pd.portal.figures",
    ] {
        assert!(well_formed(RuleId(good)), "{good}");
    }
    for bad in ["", "B-", "the tile", "pr3", "PR", "a..b"] {
        assert!(!well_formed(RuleId(bad)), "{bad}");
    }
}
