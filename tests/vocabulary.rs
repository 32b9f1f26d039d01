//! A mechanic with its own action, decision and event, declared outside the crate as a
//! contributor would: the second worked example of docs/adding-a-mechanic.md. Its decision
//! has its name, its action and event their words, record notation and JSON form, with no
//! change to the engine's types.

use castellan::bot::{Bot, RandomBot};
use castellan::data::ruleset::Ruleset;
use castellan::engine::event::Event;
use castellan::engine::game::{Game, Setup};
use castellan::engine::mechanic::Mechanics;
use castellan::engine::words;
use castellan::mechanic::base::Base;
use castellan::mechanic::pd::vocabulary::{PdAction, PdEvent};
use castellan::model::geometry::Spot;
use castellan::ui::report;
use std::sync::Arc;

// vocabulary guide: begin
use castellan::engine::action::{Action, Decision};
use castellan::engine::game::RuleError;
use castellan::engine::mechanic::{Asked, Hooks, Mechanic, Phase, Shortcuts, Then};
use castellan::engine::refusal::RuleId;
use castellan::engine::vocabulary::{ActionWords, EventWords, Family, MechanicId, seat};
use castellan::model::geometry::Pos;
use std::fmt;

/// House rule "beacons": after laying a tile, its placer may light a beacon on it.
#[derive(Debug)]
struct Beacons {
    /// Its index in the game's list of mechanics.
    id: u8,
}

/// The family's fixed id (the built-in families use 1 to 4: the Count, P&D, T&B, the Abbot).
const BEACONS: MechanicId = MechanicId(30);

/// The beacons' vocabulary: their typed actions, decisions and events.
static WORDS: Family<BeaconAction, BeaconDecision, BeaconEvent> = Family::new(BEACONS);

castellan::mechanic_actions! {
    /// An action of the beacons.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    enum BeaconAction for WORDS {
        /// Light a beacon on the tile at `pos` (`beacon = [x, y]` in records).
        Light {
            /// The tile.
            pos: Pos,
        } = "beacon",
    }
}

castellan::mechanic_decisions! {
    /// A decision of the beacons.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum BeaconDecision for WORDS {
        /// Light a beacon on the tile just laid, or pass.
        Beacon = "beacon",
    }
}

castellan::mechanic_events! {
    /// An event of the beacons.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum BeaconEvent for WORDS {
        /// A beacon was lit (`{"event": "beacon_lit", "player": …, "x": …, "y": …}`); reports
        /// (`compare`) count it under the rule after `=>`.
        Lit {
            /// Seat.
            player: usize,
            /// Column.
            x: i32,
            /// Row.
            y: i32,
        } = "beacon_lit" => "BEACON-1 beacon lit",
    }
}

impl ActionWords for BeaconAction {
    fn words(&self) -> String {
        let BeaconAction::Light { pos } = self;
        format!("light a beacon at {pos}")
    }
}

impl EventWords for BeaconEvent {
    fn words(&self, names: &[String], f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let BeaconEvent::Lit { player, x, y } = *self;
        write!(
            f,
            "{} lights a beacon at {}",
            seat(names, player),
            Pos::new(x, y)
        )
    }
}

/// Light a beacon on the tile at `pos`.
fn light(pos: Pos) -> Action {
    BeaconAction::Light { pos }.into()
}

/// A beacon was lit.
fn lit(player: usize, pos: Pos) -> Event {
    BeaconEvent::Lit {
        player,
        x: pos.x,
        y: pos.y,
    }
    .into()
}

impl Mechanic for Beacons {
    fn name(&self) -> &'static str {
        "beacons"
    }

    fn hooks(&self) -> Hooks {
        Hooks::STAGE | Hooks::ACTIONS
    }

    fn phases(&self) -> &[Phase] {
        &[Phase::AfterPlace]
    }

    fn stage(&self, g: &mut Game, _phase: Phase, _events: &mut Vec<Event>) -> Option<Asked> {
        g.placed_this_turn()?;
        Some(Asked {
            by: self.id,
            kind: 0,
        })
    }

    fn decision(&self, g: &Game, _asked: Asked) -> Option<Decision> {
        Some(Decision {
            player: g.active(),
            kind: BeaconDecision::Beacon.into(),
        })
    }

    fn actions(&self, g: &Game, asked: Asked, out: &mut Vec<Action>) {
        if let (true, Some(placed)) = (asked.by == self.id, g.placed_this_turn()) {
            out.push(light(g.board().placed(placed).pos));
        }
    }

    fn may_pass(&self, _g: &Game, _asked: Asked) -> bool {
        true
    }

    fn check(&self, g: &Game, asked: Asked, action: &Action) -> Option<Result<(), RuleError>> {
        if BeaconAction::of(action).is_none() || asked.by != self.id {
            return None;
        }
        let mut legal = Vec::new();
        self.actions(g, asked, &mut legal);
        Some(if legal.contains(action) {
            Ok(())
        } else {
            Err(RuleError::IllegalAction {
                rule: RuleId("house.beacons"),
                reason: "a beacon goes on the tile just laid".into(),
            })
        })
    }

    fn apply(
        &self,
        g: &mut Game,
        asked: Asked,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Option<Then> {
        match BeaconAction::of(action) {
            Some(BeaconAction::Light { pos }) if asked.by == self.id => {
                events.push(lit(g.active(), pos));
                Some(Then::Next)
            }
            _ => None,
        }
    }
}

impl Shortcuts for Beacons {}
// vocabulary guide: end

fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A game of the base ruleset with beacons.
fn beacon_game(seed: u64) -> (Game, Vec<Event>) {
    let base = Ruleset::load("base").expect("loads");
    let mechanics: Vec<Box<dyn Mechanic>> =
        vec![Box::new(Base::new(0)), Box::new(Beacons { id: 1 })];
    let players = Setup::new(vec!["Ann".into(), "Bob".into()], seed);
    Game::with_mechanics(base, players, Arc::new(Mechanics::new(mechanics))).expect("starts")
}

/// After every placement the placer is asked for a beacon, named as the vocabulary says; the
/// one answer besides passing lights it on the new tile; its event reads, and has its JSON, as
/// the vocabulary says; its record notation is the vocabulary's.
#[test]
fn a_mechanic_declares_its_own_action_decision_and_event() {
    let (mut game, mut events) = beacon_game(3);
    let mut bot = RandomBot::new(3);
    let mut asked = 0;
    let names = game.setup().players.clone();
    while !game.is_over() && game.turn() < 12 {
        let decision = game.decision();
        if decision.kind.name() == "beacon" {
            asked += 1;
            let placed = game.placed_this_turn().expect("a tile this turn");
            let pos = game.board().placed(placed).pos;
            assert_eq!(game.legal(), vec![light(pos), Action::Pass]);
            assert_eq!(
                words::action(&light(pos)),
                format!("light a beacon at {pos}")
            );
            let table = castellan::record::action_table(&light(pos));
            assert_eq!(
                table.to_string().trim(),
                format!("beacon = [{}, {}]", pos.x, pos.y)
            );
            let new = game.apply(&light(pos)).expect("legal");
            assert_eq!(new, vec![lit(decision.player, pos)]);
            let json = report::event_json(&new[0], &names);
            let who = &names[decision.player];
            assert_eq!(
                json,
                serde_json::json!({"event": "beacon_lit", "player": who, "x": pos.x, "y": pos.y})
            );
            assert_eq!(
                words::event(&new[0], &names).to_string(),
                format!("{who} lights a beacon at {pos}")
            );
            assert_eq!(
                castellan::lab::firings::family_rule(&new[0]).as_deref(),
                Some("BEACON-1 beacon lit")
            );
            events.extend(new);
        } else {
            let action = bot.choose(&game);
            events.extend(game.apply(&action).expect("legal"));
        }
    }
    assert!(asked >= 10, "asked {asked} times");
    // A beacon elsewhere is refused with the house rule's id.
    while game.decision().kind.name() != "beacon" {
        let action = bot.choose(&game);
        game.apply(&action).expect("legal");
    }
    let err = game
        .apply(&light(Pos::new(99, 99)))
        .expect_err("not listed");
    assert_eq!(err.rule(), Some(RuleId("house.beacons")));
}

/// The built-in families' typed values convert to the engine's arms and back unchanged.
#[test]
fn typed_values_round_trip_through_the_arms() {
    let pos = Pos::new(-3, 7);
    let actions = [
        PdAction::Fairy {
            pos,
            spot: Spot::parse("NL"),
        },
        PdAction::Fairy { pos, spot: None },
        PdAction::Dragon { pos },
        PdAction::Remove {
            pos,
            spot: Spot::parse("C").expect("a spot"),
        },
        PdAction::Claim,
    ];
    for a in actions {
        assert_eq!(PdAction::of(&Action::from(a)), Some(a));
    }
    let event = PdEvent::FairyMoved {
        player: 1,
        x: 2,
        y: -2,
        spot: Spot::parse("W"),
    };
    assert_eq!(PdEvent::of(&Event::from(event.clone())), Some(event));
    assert_eq!(PdAction::of(&light(pos)), None);
}

/// The guide quotes this example exactly as it is compiled here.
#[test]
fn the_guide_quotes_the_vocabulary_example() {
    let test = std::fs::read_to_string(root().join("tests/vocabulary.rs")).expect("readable");
    let begin = "// vocabulary guide: begin\n";
    let start = test.find(begin).expect("marker") + begin.len();
    let end = test.find("// vocabulary guide: end").expect("marker");
    let guide = std::fs::read_to_string(root().join("docs/adding-a-mechanic.md")).expect("guide");
    assert!(
        guide.contains(&test[start..end]),
        "the guide's vocabulary example differs"
    );
}

/// `registry::vocabularies_in` names the families a ruleset's mechanics use: every action its
/// games offer belongs to one of them (the Python environment lays its action space out by
/// them).
#[test]
fn a_ruleset_names_the_vocabularies_of_its_actions() {
    use castellan::registry::vocabularies_in;
    let keys = |name: &str| -> Vec<&'static str> {
        let rules = Ruleset::load(name).unwrap();
        vocabularies_in(&rules)
            .iter()
            .flat_map(|v| v.record_keys().iter().map(|k| k.key))
            .collect()
    };
    assert!(keys("base").is_empty());
    assert_eq!(keys("hig"), ["fairy", "dragon", "remove", "claim"]);
    assert!(keys("count").contains(&"quarter"));
    assert!(keys("hig-abbot").contains(&"recall"));
    for name in ["hig", "count", "hig-full", "dungeon"] {
        let rules = Ruleset::load(name).unwrap();
        let families: Vec<_> = vocabularies_in(&rules).iter().map(|v| v.id()).collect();
        let players = vec!["A".to_string(), "B".to_string()];
        let (mut game, _) = Game::new(Arc::clone(&rules), Setup::new(players, 3)).unwrap();
        let mut bot = RandomBot::new(3);
        while !game.is_over() {
            for a in game.legal() {
                if let Action::Mechanic(m) = a {
                    assert!(families.contains(&m.mechanic), "{name}: {a:?}");
                }
            }
            let action = bot.choose(&game);
            game.apply(&action).unwrap();
        }
    }
}

/// `record::parse_action` reads what `record::action_table` writes: every legal action of a
/// few games of rulesets with mechanics' actions and scripts comes back as itself, and a table
/// with the wrong number of values or no known key is refused with a reason.
#[test]
fn an_action_table_reads_back_as_its_action() {
    use castellan::record::{action_table, parse_action};
    for name in ["hig", "count", "hig-abbot", "dungeon"] {
        let rules = Ruleset::load(name).unwrap();
        let players = vec!["A".to_string(), "B".to_string()];
        let (mut game, _) = Game::new(Arc::clone(&rules), Setup::new(players, 5)).unwrap();
        let mut bot = RandomBot::new(5);
        while !game.is_over() {
            for a in game.legal() {
                assert_eq!(parse_action(&action_table(&a)), Ok(a), "{name}");
            }
            let action = bot.choose(&game);
            game.apply(&action).unwrap();
        }
    }
    let table = |text: &str| text.parse::<toml::Table>().unwrap();
    assert_eq!(
        parse_action(&table("place = [0, 1]")),
        Err("`place` takes 3 values, not 2".to_string())
    );
    assert!(
        parse_action(&table("jump = 1"))
            .unwrap_err()
            .contains("unknown key `jump`")
    );
    assert!(
        parse_action(&table("place = [0, 1, 45]"))
            .unwrap_err()
            .contains("rotation")
    );
}
