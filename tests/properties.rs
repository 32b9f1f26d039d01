//! Property tests: rules invariants checked after every action of thousands of random games,
//! and round trips through the record (save-game) format.
//!
//! Every property runs over all rulesets in [`RULESETS`] and the house-rule variants in
//! [`VARIANTS`], with 2 to 5 players, a random bag seed and a random bot seed. A failing case
//! prints its `Spec`, which is enough to replay the game by hand.

use castellan::bot::simulate;
use castellan::bot::{Bot, RandomBot};
use castellan::data::library::Source;
use castellan::data::ruleset::{Ruleset, StartTile};
use castellan::engine::action::{Action, Decision, DecisionKind};
use castellan::engine::event::Event;
use castellan::engine::game::{Game, RuleError, Setup};
use castellan::mechanic::bcb::vocabulary::BcbEvent;
use castellan::mechanic::pd::Fairy;
use castellan::mechanic::pd::vocabulary::{PdAction, PdDecision, PdEvent};
use castellan::mechanic::tb::vocabulary::TbEvent;
use castellan::mechanic::tower::vocabulary::TowerEvent;
use castellan::model::figure::{Figure, FigureKind};
use castellan::model::geometry::{Pos, Rotation, Spot};
use castellan::model::tile::TileId;
use castellan::record::{self, Record, Replay};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::TestCaseError;
use std::fmt;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

/// Shipped rulesets, by name. A new edition or house rule is one more entry here.
const RULESETS: &[&str] = &[
    "base",
    "hig",
    "zman",
    "rgg-2005",
    "rgg-bigbox1",
    "devir",
    "house-redraw-dragon",
    "house-fairy-five",
    "house-fairy-shield",
    "house-claim-fairy-point",
    "house-fairy-five-script",
    "house-fairy-shield-script",
    "house-pilgrims",
    "count",
    "devir-count",
    "hig-count-ic",
    "hig-ic",
    "zman-ic",
    "hig-abbot",
    "zman-abbot",
    "hig-tb",
    "zman-tb",
    "hig-am",
    "zman-am",
    "hig-tower",
    "zman-tower",
    "hig-hs",
    "zman-hs",
    "hig-bcb",
    "zman-bcb",
    "hig-full",
    "zman-full",
    "hig-big-box",
    "dungeon-full",
];

/// House-rule variants written for these tests: (file name, TOML). They are written to a
/// temporary directory so that game records can name them by path.
const VARIANTS: &[(&str, &str)] = &[
    (
        "farm-once",
        "extends = \"base\"\n[base]\nfarm_scoring = \"farm_centric_3_once\"\n",
    ),
    (
        "farm-city-centric",
        "extends = \"base\"\n[base]\nfarm_scoring = \"city_centric_4\"\n",
    ),
    (
        "no-farmers",
        "extends = \"base\"\n[mechanics]\nfarmers = false\n",
    ),
    (
        "small-city-half",
        "extends = \"base\"\n[base]\nsmall_city_two_tiles = \"half\"\n",
    ),
    // The portal's switches the other way round (RULES.md §3.1 #34, #37, #38): the listing of
    // portal deployments reads the opening's limits itself, and must still agree with the
    // check. (#36 stays: the dragon's tile is barred, which the dragon's invariants assume.)
    (
        "portal-flipped",
        "extends = \"hig\"\n[pd.portal]\nallow_completed_unscored = true\n\
         own_tile_base_rules = false\nfarm_always_open = false\n",
    ),
    // One follower each: the supply runs dry at once, so B-F4 is exercised all game long.
    (
        "one-follower",
        "extends = \"base\"\n[base]\nfollowers_per_player = 1\n",
    ),
    // A walled start with mostly open-field tiles: most draws fit nowhere until a city cap
    // is laid, so discarding (B-P5) happens in nearly every game.
    (
        "discards",
        r#"extends = "base"
tiles = [{ set = "base", counts = { A = 0, B = 8, C = 1, D = 0, E = 2, F = 0, G = 0, H = 0, I = 0, J = 0, K = 0, L = 0, M = 0, N = 0, O = 0, P = 0, Q = 0, R = 0, S = 0, T = 0, U = 0, V = 0, W = 0, X = 0 } }]
start = [{ tile = "C", x = 0, y = 0, rotation = 0 }]
"#,
    ),
];

/// A ruleset under test: how records name it, and the loaded rules.
struct Rules {
    reference: String,
    rules: Arc<Ruleset>,
}

/// Every ruleset under test, loaded once.
fn all_rules() -> &'static [Rules] {
    static ALL: OnceLock<Vec<Rules>> = OnceLock::new();
    ALL.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("properties-rulesets");
        std::fs::create_dir_all(&dir).expect("create the variants directory");
        let mut refs: Vec<String> = RULESETS.iter().map(|r| r.to_string()).collect();
        for (name, text) in VARIANTS {
            let path = dir.join(format!("{name}.toml"));
            std::fs::write(&path, text).expect("write a variant ruleset");
            refs.push(path.to_string_lossy().into_owned());
        }
        refs.into_iter()
            .map(|reference| {
                let rules = Ruleset::load(&reference)
                    .unwrap_or_else(|d| panic!("ruleset `{reference}` must load:\n{}", d.render()));
                Rules { reference, rules }
            })
            .collect()
    })
}

/// One random game: which ruleset, how many players, the bag seed and the bot seed.
#[derive(Clone, Copy)]
struct Spec {
    ruleset: usize,
    players: usize,
    seed: u64,
    bot: u64,
}

impl fmt::Debug for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Spec {{ ruleset: {:?}, players: {}, seed: {}, bot: {} }}",
            self.rules().reference,
            self.players,
            self.seed,
            self.bot
        )
    }
}

impl Spec {
    fn rules(&self) -> &'static Rules {
        &all_rules()[self.ruleset]
    }

    fn setup(&self) -> Setup {
        let names = (1..=self.players).map(|i| format!("P{i}")).collect();
        Setup::new(names, self.seed)
    }

    /// The game after set-up, its set-up events, and the bot that will play every seat.
    fn start(&self) -> (Game, Vec<Event>, RandomBot) {
        let (game, events) =
            Game::new(Arc::clone(&self.rules().rules), self.setup()).expect("set-up succeeds");
        (game, events, RandomBot::new(self.bot))
    }
}

fn specs() -> impl Strategy<Value = Spec> {
    (0..all_rules().len(), 2usize..=6, any::<u64>(), any::<u64>()).prop_map(
        |(ruleset, players, seed, bot)| {
            // 2 to 6 players (6 with Inns & Cathedrals, B-C3), within what the ruleset allows.
            let (min, max) = all_rules()[ruleset].rules.players;
            let (lo, hi) = (min.max(2), max.min(6).max(min.max(2)));
            Spec {
                ruleset,
                players: lo + (players - 2) % (hi - lo + 1),
                seed,
                bot,
            }
        },
    )
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        // Keep proptest from writing regression files into the source tree.
        failure_persistence: None,
        max_shrink_iters: 256,
        ..ProptestConfig::default()
    }
}

/// More actions than any game can take: a game still running after this many is stuck.
const MAX_ACTIONS: usize = 5_000;

/// Lets the bot choose and applies the action; the action must be accepted.
fn step(game: &mut Game, bot: &mut RandomBot) -> Result<(Action, Vec<Event>), TestCaseError> {
    let action = bot.choose(game);
    match game.apply(&action) {
        Ok(events) => Ok((action, events)),
        Err(e) => Err(TestCaseError::fail(format!(
            "the bot's legal choice {action:?} was refused: {e}"
        ))),
    }
}

/// Plays a whole game, calling `check` after set-up and after every action.
fn play(
    spec: &Spec,
    mut check: impl FnMut(&Game, &[Event]) -> Result<(), TestCaseError>,
) -> Result<(Game, Vec<Event>), TestCaseError> {
    let (mut game, mut log, mut bot) = spec.start();
    check(&game, &log)?;
    let mut actions = 0;
    while !game.is_over() {
        actions += 1;
        prop_assert!(actions <= MAX_ACTIONS, "the game does not end");
        let (_, events) = step(&mut game, &mut bot)?;
        check(&game, &events)?;
        log.extend(events);
    }
    Ok((game, log))
}

/// The observable state that an action could change, cheap enough to take for every refused
/// action. `record` (the full record text) is only filled in by [`full_snapshot`].
#[derive(Debug, PartialEq)]
struct Snapshot {
    history: Vec<Action>,
    scores: Vec<u32>,
    supply: Vec<u8>,
    figures: Vec<Figure>,
    decision: Decision,
    legal: Vec<Action>,
    tiles_left: usize,
    set_aside: usize,
    tiles_on_board: usize,
    dragon: Option<Pos>,
    fairy: Option<Fairy>,
    turn: u32,
    over: bool,
    record: Option<String>,
}

fn snapshot(game: &Game) -> Snapshot {
    let players = game.scores().len();
    Snapshot {
        history: game.history().to_vec(),
        scores: game.scores().to_vec(),
        supply: (0..players)
            .map(|p| game.supply(p, FigureKind::Follower))
            .collect(),
        figures: game.figures().to_vec(),
        decision: game.decision(),
        legal: game.legal(),
        tiles_left: game.tiles_left(),
        set_aside: game.set_aside(),
        tiles_on_board: game.board().tiles().len(),
        dragon: game.dragon(),
        fairy: game.fairy(),
        turn: game.turn(),
        over: game.is_over(),
        record: None,
    }
}

fn full_snapshot(game: &Game, reference: &str) -> Snapshot {
    Snapshot {
        record: Some(record::write(game, reference)),
        ..snapshot(game)
    }
}

/// `action` must be refused and leave `game` exactly as `before` describes it.
fn assert_refused(
    game: &mut Game,
    action: &Action,
    before: &Snapshot,
    reference: &str,
) -> Result<RuleError, TestCaseError> {
    let error = match game.apply(action) {
        Ok(events) => {
            return Err(TestCaseError::fail(format!(
                "{action:?} is not among the legal actions {:?} but was accepted: {events:?}",
                before.legal
            )));
        }
        Err(e) => e,
    };
    let after = if before.record.is_some() {
        full_snapshot(game, reference)
    } else {
        snapshot(game)
    };
    prop_assert_eq!(
        &after,
        before,
        "refusing {:?} ({}) changed the game",
        action,
        error
    );
    Ok(error)
}

/// `action` must be refused; whether the game is unchanged is for the caller to compare
/// after a batch of these (a change would persist, so one comparison catches it).
fn refuse(game: &mut Game, action: &Action) -> Result<(), TestCaseError> {
    match game.apply(action) {
        Ok(events) => Err(TestCaseError::fail(format!(
            "{action:?} is not among the legal actions {:?} but was accepted: {events:?}",
            game.legal()
        ))),
        Err(_) => Ok(()),
    }
}

/// `action` must be accepted by a copy of `game`.
fn assert_accepted(game: &Game, action: &Action) -> Result<(), TestCaseError> {
    let mut copy = game.clone();
    match copy.apply(action) {
        Ok(_) => Ok(()),
        Err(e) => Err(TestCaseError::fail(format!(
            "{action:?} is legal (or names a legal feature) but was refused: {e}\nlegal: {:?}",
            game.legal()
        ))),
    }
}

/// The record of `game`, parsed back and replayed.
fn reload(game: &Game, reference: &str) -> Result<(Record, Replay), TestCaseError> {
    let text = record::write(game, reference);
    let parsed = Record::parse(Source {
        path: "mem.toml".into(),
        text: text.clone(),
    })
    .map_err(|d| TestCaseError::fail(format!("{}\n--- record ---\n{text}", d.render())))?;
    let replay = parsed.replay().map_err(|e| {
        TestCaseError::fail(format!(
            "{}\n--- record ---\n{text}",
            e.diagnostic().render()
        ))
    })?;
    Ok((parsed, replay))
}

const SPOT_NAMES: [&str; 14] = [
    "N", "E", "S", "W", "NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR", "C", "I",
];

/// Whether `action` is the kind of answer that decision `kind` asks for (`None` for a kind of
/// decision this file does not know yet).
fn answers(kind: DecisionKind, action: &Action) -> Option<bool> {
    let pass = *action == Action::Pass;
    let pd = PdAction::of(action);
    Some(match (kind, PdDecision::of(&kind)) {
        (DecisionKind::PlaceTile { .. }, _) => matches!(action, Action::Place { .. }),
        (DecisionKind::Deploy, _) => {
            matches!(action, Action::Deploy { .. } | Action::Pass)
                || matches!(pd, Some(PdAction::Fairy { .. }))
        }
        (_, Some(PdDecision::Princess)) => pass || matches!(pd, Some(PdAction::Remove { .. })),
        (_, Some(PdDecision::DragonStep { .. })) => matches!(pd, Some(PdAction::Dragon { .. })),
        (_, Some(PdDecision::ClaimFairyPoint)) => pass || pd == Some(PdAction::Claim),
        _ => return None,
    })
}

/// Checks the pending decision of `game`: every legal action is accepted (on a clone) and a
/// range of actions outside the list is refused without changing anything.
fn check_decision(game: &mut Game, reference: &str) -> Result<(), TestCaseError> {
    let legal = game.legal();
    for action in &legal {
        assert_accepted(game, action)?;
    }
    let before = snapshot(game);
    let full = full_snapshot(game, reference);
    let start = game.board().tiles()[0].pos;
    let kind = game.decision().kind;
    if game.is_over() {
        prop_assert!(legal.is_empty(), "a finished game offers {:?}", legal);
        for action in [
            Action::Pass,
            Action::Place {
                pos: Pos::new(0, 1),
                rotation: Rotation::default(),
            },
        ] {
            let e = assert_refused(game, &action, &full, reference)?;
            prop_assert_eq!(e, RuleError::GameOver);
        }
        return Ok(());
    }
    prop_assert!(!legal.is_empty(), "decision {:?} has no legal answer", kind);

    // One action of every kind, aimed where none can be legal (no tile is near `far`, and the
    // start position is taken), plus the bare `claim` and `pass`.
    let far = Pos::new(1000, -1000);
    let north = Spot::parse("N").expect("a known spot name");
    let probes = [
        Action::Place {
            pos: far,
            rotation: Rotation::default(),
        },
        Action::Place {
            pos: start,
            rotation: Rotation::default(),
        },
        Action::Deploy {
            pos: far,
            spot: Spot::Cloister,
            figure: FigureKind::Follower,
        },
        Action::from(PdAction::Fairy {
            pos: far,
            spot: None,
        }),
        Action::from(PdAction::Fairy {
            pos: far,
            spot: Some(north),
        }),
        Action::from(PdAction::Dragon { pos: far }),
        Action::from(PdAction::Remove {
            pos: far,
            spot: north,
        }),
        Action::from(PdAction::Claim),
        Action::Pass,
    ];
    let mut compare = Some(&full);
    for probe in &probes {
        if legal.contains(probe) {
            continue;
        }
        // The full snapshot (with the record text) is costly: compare it for the first probe.
        let e = assert_refused(game, probe, compare.take().unwrap_or(&before), reference)?;
        // With scripts the offered list alone decides, and every refusal is `Illegal`.
        if answers(kind, probe) == Some(false) && game.rules().scripts.is_none() {
            prop_assert!(
                matches!(e, RuleError::WrongDecision(_)),
                "{:?} answers no {:?} decision, yet the error is {:?}",
                probe,
                kind,
                e
            );
        }
    }

    match kind {
        DecisionKind::PlaceTile { .. } => {
            // Every frontier position in every rotation: accepted exactly when listed (B-P2).
            let frontier: Vec<Pos> = game.board().frontier().collect();
            for pos in frontier {
                for rotation in Rotation::ALL {
                    let action = Action::Place { pos, rotation };
                    if !legal.contains(&action) {
                        refuse(game, &action)?;
                    }
                }
            }
            // The last tile laid is taken too; a position just beyond the board touches
            // nothing (B-P1).
            let last = game.board().tiles().last().map_or(start, |t| t.pos);
            let east = game
                .board()
                .tiles()
                .iter()
                .map(|t| t.pos.x)
                .max()
                .unwrap_or(0);
            for pos in [last, Pos::new(east + 2, start.y)] {
                for rotation in Rotation::ALL {
                    let action = Action::Place { pos, rotation };
                    refuse(game, &action)?;
                }
            }
        }
        DecisionKind::Deploy => {
            prop_assert!(
                legal.contains(&Action::Pass),
                "passing must always be legal when deploying (B-F1)"
            );
            // Every spot name on the tile just laid and on the start tile: a follower there is
            // accepted exactly when it names a feature that a listed deployment of a follower
            // names (B-F2, B-F3, B-F4, the portal's MP rules; other figures stand elsewhere,
            // the abbot in a garden).
            let placed = game.board().tiles().last().map_or(start, |t| t.pos);
            let mut tiles = vec![placed];
            if start != placed {
                tiles.push(start);
            }
            for pos in tiles {
                // The features by their segments (a road laid across the tile, a bridge, too).
                // The follower's own deployments: other figures (an abbot on a garden, a
                // builder beside a follower) may stand where a follower may not.
                let allowed: Vec<castellan::model::feature::SegId> = legal
                    .iter()
                    .filter_map(|a| match a {
                        Action::Deploy {
                            pos: p,
                            spot,
                            figure,
                        } if *p == pos && *figure == FigureKind::Follower => {
                            game.seg_at(pos, *spot)
                        }
                        _ => None,
                    })
                    .collect();
                for name in SPOT_NAMES {
                    let spot = Spot::parse(name).expect("a known spot name");
                    let action = Action::Deploy {
                        pos,
                        spot,
                        figure: FigureKind::Follower,
                    };
                    match game.seg_at(pos, spot) {
                        Some(f) if allowed.contains(&f) => assert_accepted(game, &action)?,
                        _ => refuse(game, &action)?,
                    }
                }
            }
        }
        _ => {}
    }
    prop_assert_eq!(
        &snapshot(game),
        &before,
        "a refused placement or deployment changed the game"
    );
    Ok(())
}

proptest! {
    #![proptest_config(config(300))]

    /// RULES.md B-C2, B-F4, B-M3, CO-1, §1.10: each of a player's figures (followers, big
    /// followers, abbots: every row of the figure table) is always on the board, in supply,
    /// held by a script (any kind: the dungeon), in a player's custody or on a tower (The
    /// Tower's prisoners and tower tops, RULES-MORE.md TW-5, TW-9, and barns at field corners,
    /// AM-15: counted by `held_of`) or
    /// (followers of any kind, CT-6) in the City of Carcassonne, and together there are exactly the row's `per_player` of each kind.
    #[test]
    fn followers_are_conserved(spec in specs()) {
        let rows = spec.rules().rules.figures.rows().to_vec();
        play(&spec, |game, _| {
            for p in 0..spec.players {
                for row in &rows {
                    let kind = row.kind;
                    let on_board =
                        game.figures().iter().filter(|f| f.owner == p && f.kind == kind).count();
                    let supply = game.supply(p, kind) as usize;
                    let city = castellan::mechanic::count::state(game)
                        .map_or(0, |c| c.followers_of(p, kind)) as usize;
                    let held = game.held_of(p, kind) as usize;
                    prop_assert_eq!(
                        on_board + supply + city + held,
                        row.per_player as usize,
                        "player {} {}: {} on the board + {} in supply + {} in the City + {} held",
                        p,
                        kind.name(),
                        on_board,
                        supply,
                        city,
                        held
                    );
                }
            }
            prop_assert!(game.figures().iter().all(|f| f.owner < spec.players));
            Ok(())
        })?;
    }

    /// Bridges, Castles & Bazaars (RULES-MORE.md BCB-C2, BCB-7, BCB-10, BCB-13): castle tokens
    /// are conserved (tokens left + castles built = 3, or 2 with 5 or 6 players); a follower
    /// stands on a side two tiles share exactly while a castle there is occupied.
    #[test]
    fn castles_are_conserved(spec in specs()) {
        use castellan::mechanic::bcb::castle::{castles, tokens_left, tokens_per_player};
        use castellan::model::figure::Place;
        let on = spec.rules().rules.switched_on("bridges_castles_bazaars");
        play(&spec, |game, _| {
            let built = castles(game);
            if !on {
                prop_assert!(built.is_empty());
                return Ok(());
            }
            for p in 0..spec.players {
                let own = built.iter().filter(|c| c.owner == p).count();
                prop_assert_eq!(
                    usize::from(tokens_left(game, p)) + own,
                    usize::from(tokens_per_player(spec.players))
                );
            }
            let mut sides: Vec<Place> = (game.placed_figures().into_iter())
                .filter(|f| matches!(f.2, Place::Side(..)))
                .map(|f| f.2)
                .collect();
            let mut occupied: Vec<Place> =
                built.iter().filter(|c| c.occupied).map(|c| c.place()).collect();
            sides.sort();
            occupied.sort();
            prop_assert_eq!(sides, occupied);
            Ok(())
        })?;
    }

    /// Traders & Builders ([ext:X2], RULES.md §1.10): goods are conserved: at the end the
    /// players hold exactly the goods printed in the completed cities on the board (every
    /// completed city was scored and its goods taken once), and the `goods_taken` events add
    /// up to what they hold.
    #[test]
    fn goods_are_conserved(spec in specs()) {
        let (game, log) = play(&spec, |_, _| Ok(()))?;
        let held = castellan::mechanic::tb::goods(&game);
        if !game.rules().switched_on("traders_builders") {
            prop_assert!(held.is_empty());
            return Ok(());
        }
        let mut printed = [0u32; 3];
        for p in game.board().tiles() {
            let features = game.rules().tile(p.tile).features();
            for (i, f) in features.iter().enumerate() {
                let seg = p.seg_base + i as u32;
                if f.kind == castellan::model::tile::FeatureKind::City && game.is_complete(seg) {
                    for (total, n) in printed.iter_mut().zip(castellan::data::printed::Good::ALL.map(|g| f.counters.get(g.counter()))) {
                        *total += u32::from(n);
                    }
                }
            }
        }
        let mut logged = vec![[0u32; 3]; spec.players];
        for e in &log {
            if let Some(TbEvent::GoodsTaken { player, good, count }) = TbEvent::of(e) {
                logged[player][good as usize] += count;
            }
        }
        prop_assert_eq!(&logged, &held);
        let total = held.iter().fold([0u32; 3], |t, h| [t[0] + h[0], t[1] + h[1], t[2] + h[2]]);
        prop_assert_eq!(total, printed);
    }

    /// RULES.md §1.6–§1.9, B-M2, FA7–FA8: points are only ever added, so no score falls but by
    /// a ransom (The Tower, RULES-MORE.md TW-8: the owner pays his captor) or a bazaar's
    /// payment (BCB-19); the final scores are the sum of the `Scored`, `FairyPoint`,
    /// `GoodsMajority` and `ScriptScored` events and the ransoms' and bazaars' transfers, and
    /// are what `GameEnded` reports.
    #[test]
    fn scores_never_fall(spec in specs()) {
        let mut previous = vec![0u32; spec.players];
        let (game, log) = play(&spec, |game, events| {
            let mut paid = vec![0u32; spec.players];
            for e in events {
                if let Some(TowerEvent::Ransomed { player, points, .. }) = TowerEvent::of(e) {
                    paid[player] += points;
                }
                if let Some((payer, points)) = bazaar_payment(e) {
                    paid[payer] += points;
                }
            }
            for (p, (now, before)) in game.scores().iter().zip(&previous).enumerate() {
                prop_assert!(now + paid[p] >= *before, "player {}'s score fell from {} to {}", p, before, now);
            }
            previous = game.scores().to_vec();
            Ok(())
        })?;
        let mut summed = vec![0u32; spec.players];
        for e in &log {
            match (e, PdEvent::of(e)) {
                (
                    Event::Scored { player, points, .. }
                    | Event::ScriptScored { player, points, .. },
                    _,
                ) => {
                    summed[*player] += points;
                }
                (_, Some(PdEvent::FairyPoint { player, points })) => summed[player] += points,
                (Event::ScriptPoints { player, points, .. }, _) => {
                    summed[*player] = summed[*player].saturating_add_signed(*points as i32);
                }
                _ => {
                    if let Some(TbEvent::GoodsMajority { player, points, .. }) = TbEvent::of(e) {
                        summed[player] += points;
                    }
                    if let Some(TowerEvent::Ransomed { player, holder, points, .. }) =
                        TowerEvent::of(e)
                    {
                        summed[player] -= points;
                        summed[holder] += points;
                    }
                    if let Some((payer, points)) = bazaar_payment(e) {
                        summed[payer] -= points;
                    }
                    match BcbEvent::of(e) {
                        Some(BcbEvent::BazaarBought { to, points, .. }) => summed[to] += points,
                        Some(BcbEvent::BazaarSold { player, points, .. }) => summed[player] += points,
                        _ => {}
                    }
                }
            }
        }
        prop_assert_eq!(&summed[..], game.scores());
        match log.last() {
            Some(Event::GameEnded { scores }) => prop_assert_eq!(&scores[..], game.scores()),
            other => prop_assert!(false, "the log ends with {:?}, not GameEnded", other),
        }
    }

    /// RULES.md D7, V8, MP6, FA6, FA3, FA11 (The Princess & the Dragon; trivially true
    /// without it): when the dragon has moved, no figure stands on its tile unless the fairy
    /// is there too (house rules let her protect it) or a script asks whether they flee
    /// (DG-8b); no figure is deployed onto the dragon's
    /// tile; and the fairy's follower, when she has one, is on the board on her tile.
    #[test]
    fn dragon_and_fairy_stay_consistent(spec in specs()) {
        let mut dragon_before = None;
        play(&spec, |game, events| {
            for e in events {
                if let Event::FigureDeployed { x, y, .. } = e {
                    prop_assert!(
                        dragon_before != Some(Pos::new(*x, *y)),
                        "a figure was deployed on the dragon's tile ({}, {})",
                        x,
                        y
                    );
                }
            }
            let moved = events.iter().any(|e| matches!(PdEvent::of(e), Some(PdEvent::DragonMoved { .. })));
            // DG-8(b) (the dungeon, seed 003): on an entrance the owners decide whether their
            // followers flee before the dragon eats, so they share its tile while asked.
            let asked = game.decision().kind == castellan::engine::action::DecisionKind::Script;
            if let Some(dragon) = game.dragon()
                && moved
                && !asked
            {
                let shielded = game.fairy().is_some_and(|f| f.pos == dragon);
                for f in game.figures() {
                    let (pos, spot) = game.figure_spot(f);
                    prop_assert!(
                        pos != dragon || shielded,
                        "{:?} stands at {} {} with the dragon; events {:?}",
                        f,
                        pos,
                        spot,
                        events
                    );
                }
            }
            dragon_before = game.dragon();
            if let Some(fairy) = game.fairy()
                && let Some(id) = fairy.follower
            {
                let figure = game.figures().iter().find(|f| f.id == id);
                prop_assert!(figure.is_some(), "the fairy's follower {} is gone", id);
                if let Some(f) = figure {
                    prop_assert_eq!(game.figure_spot(f).0, fairy.pos);
                }
            }
            Ok(())
        })?;
    }

    /// RULES.md B-C1, B-P5, B-E1, D0: when the game ends, every tile of the ruleset was laid
    /// (at the start or in a turn) or discarded as unplaceable; only dragon tiles kept out
    /// while the dragon never came into play (D0.3) may be left over.
    #[test]
    fn every_tile_is_placed_or_discarded(spec in specs()) {
        let (game, log) = play(&spec, |_, _| Ok(()))?;
        let rules = &spec.rules().rules;
        // Tiles kept out of the bag (Abbey & Mayor's abbeys, RULES-MORE.md AM-C1) are held by
        // the players, not drawn: they are left out of this count.
        let total: u32 = rules.tiles.iter().filter(|t| t.in_bag).map(|t| t.count).sum();
        let count = |pick: &dyn Fn(&Event) -> bool| log.iter().filter(|e| pick(e)).count();
        let start = count(&|e| matches!(e, Event::StartTile { .. }));
        let placed = laid_from_bag(rules, &log);
        let laid = count(&|e| matches!(e, Event::TilePlaced { .. }));
        let discarded = count(&|e| {
            matches!(e, Event::TileDiscarded { .. } | Event::TileTakenUnseen { .. })
        });
        let left = game.set_aside() + game.tiles_left();
        prop_assert_eq!(start, rules.start.len());
        prop_assert_eq!(
            start + placed + discarded + left,
            total as usize,
            "{} start + {} placed + {} discarded + {} left over",
            start,
            placed,
            discarded,
            left
        );
        if left > 0 {
            prop_assert!(
                rules.switched_on("dragon") && game.dragon().is_none(),
                "{} tiles are left over, but they are not dragon tiles kept out (D0)",
                left
            );
        }
        prop_assert_eq!(game.board().tiles().len(), start + laid);
    }
}

proptest! {
    #![proptest_config(config(120))]

    /// RULES.md (game records): writing a finished game as a record, parsing it back and
    /// replaying it gives the identical event log, scores and record text.
    #[test]
    fn a_replayed_record_reproduces_the_game(spec in specs()) {
        let (game, log) = play(&spec, |_, _| Ok(()))?;
        let reference = &spec.rules().reference;
        let (parsed, replay) = reload(&game, reference)?;
        prop_assert_eq!(parsed.actions.len(), game.history().len());
        prop_assert!(replay.game.is_over());
        prop_assert_eq!(replay.game.scores(), game.scores());
        prop_assert!(replay.events == log, "the replayed event log differs");
        prop_assert_eq!(record::write(&replay.game, reference), record::write(&game, reference));
    }

    /// RULES.md (game records as save games): saving at any point, loading and playing on
    /// with the same decisions gives the same remaining events and final scores.
    #[test]
    fn saving_and_loading_mid_game_changes_nothing(spec in specs(), cut in any::<Index>()) {
        let (whole, _) = play(&spec, |_, _| Ok(()))?;
        let k = cut.index(whole.history().len() + 1);
        let (mut game, mut log, mut bot) = spec.start();
        for _ in 0..k {
            let (_, events) = step(&mut game, &mut bot)?;
            log.extend(events);
        }
        let reference = &spec.rules().reference;
        let (_, replay) = reload(&game, reference)?;
        prop_assert!(replay.events == log, "the reloaded game's events up to action {} differ", k);
        prop_assert_eq!(replay.game.scores(), game.scores());
        let mut loaded = replay.game;
        let mut loaded_bot = bot.clone();
        let mut actions = k;
        while !game.is_over() {
            actions += 1;
            prop_assert!(actions <= MAX_ACTIONS, "the game does not end");
            prop_assert!(!loaded.is_over(), "the reloaded game ended early, at action {}", actions);
            let (a, events) = step(&mut game, &mut bot)?;
            let (b, loaded_events) = step(&mut loaded, &mut loaded_bot)?;
            prop_assert_eq!(a, b, "the bots chose differently at action {}", actions);
            prop_assert!(
                events == loaded_events,
                "action {}: {:?}\n  original: {:?}\n  reloaded: {:?}",
                actions,
                a,
                events,
                loaded_events
            );
        }
        prop_assert!(loaded.is_over());
        prop_assert_eq!(loaded.scores(), game.scores());
        prop_assert_eq!(loaded.scores(), whole.scores());
    }

    /// Determinism (RULES.md B-M5 and the record format rely on it): the same ruleset, seed and
    /// bot seed give the same event log, even with the ruleset loaded afresh; and
    /// `simulate::play_random` gives the same game twice.
    #[test]
    fn the_same_seed_gives_the_same_game(spec in specs()) {
        let (first, first_log) = play(&spec, |_, _| Ok(()))?;
        let fresh = Ruleset::load(&spec.rules().reference).expect("the ruleset loads again");
        let (mut second, mut second_log) =
            Game::new(fresh, spec.setup()).expect("set-up succeeds");
        let mut bot = RandomBot::new(spec.bot);
        while !second.is_over() {
            let (_, events) = step(&mut second, &mut bot)?;
            second_log.extend(events);
        }
        prop_assert!(first_log == second_log, "two games from {:?} differ", spec);
        prop_assert_eq!(first.scores(), second.scores());

        let rules = &spec.rules().rules;
        let a = simulate::play_random(rules, spec.players, spec.seed).expect("set-up succeeds");
        let b = simulate::play_random(rules, spec.players, spec.seed).expect("set-up succeeds");
        prop_assert!(a.is_over() && b.is_over());
        prop_assert_eq!(a.scores(), b.scores());
        prop_assert_eq!(a.history(), b.history());
    }
}

/// A set-up beyond the ruleset's defaults, as records can write it.
#[derive(Clone, Debug)]
struct Custom {
    /// A forced draw order (indices into the ruleset's tile types).
    draw: Option<Vec<Index>>,
    /// End the game after this many draws.
    end_after: Option<u32>,
    /// The ruleset's start tiles moved by (x, y); a lone start tile is also turned.
    start: Option<(i32, i32, usize)>,
}

fn customs() -> impl Strategy<Value = Custom> {
    (
        prop::option::of(prop::collection::vec(any::<Index>(), 0..90)),
        prop::option::of(0u32..90),
        prop::option::of((-60i32..=60, -60i32..=60, 0usize..4)),
    )
        .prop_map(|(draw, end_after, start)| Custom {
            draw,
            end_after,
            start,
        })
}

/// Plays a game from a custom set-up, checks that every tile is accounted for, and round-trips
/// it through a record.
fn custom_round_trip(spec: &Spec, custom: &Custom) -> Result<(), TestCaseError> {
    let rules = &spec.rules().rules;
    // Tile types with copies left for the bag (some start tiles may only lie at the start).
    let bag_types: Vec<TileId> = (0..rules.tiles.len() as TileId)
        .filter(|t| {
            let at_start = rules.start.iter().filter(|s| s.tile == *t).count() as u32;
            rules.tile(*t).count > at_start
        })
        .collect();
    let mut setup = spec.setup();
    setup.draw = custom.draw.as_ref().map(|d| {
        d.iter()
            .map(|i| bag_types[i.index(bag_types.len())])
            .collect()
    });
    setup.end_after = custom.end_after;
    setup.start = custom.start.map(|(x, y, r)| {
        let lone = rules.start.len() == 1;
        rules
            .start
            .iter()
            .map(|s| StartTile {
                pos: Pos::new(s.pos.x + x, s.pos.y + y),
                rotation: if lone { Rotation::ALL[r] } else { s.rotation },
                ..*s
            })
            .collect()
    });
    let (mut game, mut log) = Game::new(Arc::clone(rules), setup.clone()).expect("set-up succeeds");
    let mut bot = RandomBot::new(spec.bot);
    while !game.is_over() {
        prop_assert!(game.history().len() <= MAX_ACTIONS, "the game does not end");
        let (_, events) = step(&mut game, &mut bot)?;
        log.extend(events);
    }
    // Each tile taken from the bag is drawn (and laid), discarded, taken out unseen by a script
    // (it counts as drawn, RULES-MORE.md Q-HS3), set aside, put back or revealed at a bazaar
    // (BCB-18; the tile dealt from it later, laid or discarded, was drawn then).
    let count = |pick: fn(&Event) -> bool| log.iter().filter(|e| pick(e)).count();
    let draws = (log.iter().enumerate())
        .filter(|&(i, e)| {
            let dealt = i > 0 && matches!(log[i - 1], Event::TileDealt { .. });
            matches!(e, Event::TileDrawn { .. } | Event::TileTakenUnseen { .. })
                || (matches!(e, Event::TileDiscarded { .. }) && !dealt)
                || matches!(
                    PdEvent::of(e),
                    Some(PdEvent::TileSetAside { .. } | PdEvent::TileReturned { .. })
                )
                || matches!(BcbEvent::of(e), Some(BcbEvent::BazaarRevealed { .. }))
        })
        .count();
    let placed = laid_from_bag(rules, &log);
    let discarded = count(|e| {
        matches!(
            e,
            Event::TileDiscarded { .. } | Event::TileTakenUnseen { .. }
        )
    });
    let bag = match &setup.draw {
        Some(d) => d.len(),
        None => {
            let total: u32 = rules
                .tiles
                .iter()
                .filter(|t| t.in_bag)
                .map(|t| t.count)
                .sum();
            total as usize - rules.start.len()
        }
    };
    prop_assert_eq!(
        placed + discarded + game.set_aside() + game.tiles_left(),
        bag,
        "tiles laid, discarded and left over"
    );
    if let Some(n) = custom.end_after {
        prop_assert!(
            draws <= n as usize,
            "{} draws after `end_after = {}`",
            draws,
            n
        );
    }
    let dragon_wait = rules.switched_on("dragon") && game.dragon().is_none();
    prop_assert!(
        game.tiles_left() == 0 || custom.end_after == Some(draws as u32) || dragon_wait,
        "the game ended with {} tiles in the bag after {} draws",
        game.tiles_left(),
        draws
    );

    let reference = &spec.rules().reference;
    let (parsed, replay) = reload(&game, reference)?;
    // The seed matters under a forced draw order too: it places the dragon tiles put back
    // into the bag (D0, V6).
    prop_assert_eq!(&parsed.setup, &setup);
    prop_assert!(replay.events == log, "the replayed event log differs");
    prop_assert_eq!(replay.game.scores(), game.scores());
    prop_assert_eq!(
        record::write(&replay.game, reference),
        record::write(&game, reference)
    );
    Ok(())
}

proptest! {
    #![proptest_config(config(150))]

    /// RULES.md B-P5, B-E1, D0, V6 and the record format: a forced draw order (with its seed),
    /// an early end and a moved start tile all survive a record round trip, and every tile is
    /// accounted for.
    #[test]
    fn custom_setups_round_trip(spec in specs(), custom in customs()) {
        custom_round_trip(&spec, &custom)?;
    }
}

proptest! {
    #![proptest_config(config(8))]

    /// RULES.md B-P1, B-P2, B-F1–B-F4, and `Game::apply`'s contract: at every decision each
    /// action in `legal()` is accepted; placements and deployments outside it, wrong kinds of
    /// action and any action after the end are refused, and a refused action changes nothing.
    #[test]
    fn legal_actions_are_accepted_and_others_refused(spec in specs()) {
        let (mut game, _, mut bot) = spec.start();
        let reference = spec.rules().reference.clone();
        let mut actions = 0;
        loop {
            check_decision(&mut game, &reference)?;
            if game.is_over() {
                break;
            }
            actions += 1;
            prop_assert!(actions <= MAX_ACTIONS, "the game does not end");
            step(&mut game, &mut bot)?;
        }
    }
}

/// Records hold the seed as a TOML integer; a game whose `u64` seed is above `i64::MAX` must
/// still round-trip through a record (save games must work for every seed `Setup` accepts).
#[test]
fn huge_seeds_survive_a_record() {
    let rules = Ruleset::load("base").expect("base loads");
    for seed in [i64::MAX as u64 + 1, u64::MAX] {
        let (mut game, mut log) = Game::new(
            Arc::clone(&rules),
            Setup::new(vec!["Ann".into(), "Bob".into()], seed),
        )
        .expect("set-up succeeds");
        let mut bot = RandomBot::new(seed);
        for _ in 0..10 {
            let action = bot.choose(&game);
            log.extend(game.apply(&action).expect("a legal action"));
        }
        let text = record::write(&game, "base");
        let parsed = Record::parse(Source {
            path: "mem.toml".into(),
            text: text.clone(),
        })
        .unwrap_or_else(|d| {
            panic!(
                "seed {seed}: the written record does not parse:\n{text}\n{}",
                d.render()
            )
        });
        let replay = parsed.replay().expect("the record replays");
        assert_eq!(replay.events, log, "seed {seed}");
    }
}

/// How many tiles of `log` were laid from the bag: every tile laid but those a player held out
/// of it (Abbey & Mayor's abbeys, RULES-MORE.md AM-1), which are laid without being drawn (a
/// custom draw order may still put such a tile into the bag: it is drawn then).
fn laid_from_bag(rules: &Ruleset, log: &[Event]) -> usize {
    let held = |tile: &str| (rules.tiles.iter()).any(|t| &*t.id == tile && !t.in_bag);
    let (mut laid, mut held_laid, mut held_drawn) = (0, 0, 0);
    for e in log {
        match e {
            Event::TilePlaced { tile, .. } => {
                laid += 1;
                held_laid += usize::from(held(tile));
            }
            Event::TileDrawn { tile, .. } => held_drawn += usize::from(held(tile)),
            _ => {}
        }
    }
    laid - (held_laid - held_drawn)
}

/// Who pays how many points in a bazaar's event (BCB-19): the buying auctioneer, the highest
/// bidder a tile is sold to, the auctioneer nobody outbid.
fn bazaar_payment(e: &Event) -> Option<(usize, u32)> {
    match BcbEvent::of(e)? {
        BcbEvent::BazaarBought { player, points, .. } => Some((player, points)),
        BcbEvent::BazaarSold { to, points, .. } => Some((to, points)),
        BcbEvent::BazaarBanked { player, points, .. } => Some((player, points)),
        _ => None,
    }
}
