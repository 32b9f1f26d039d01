//! The Princess & the Dragon's toggles (`[pd.*]` of a ruleset, RULES.md §3.1): plain data read
//! from TOML, with the current Hans im Glück rules as defaults. No game logic.

use crate::data::figures::FollowerKind;
use crate::data::ruleset::Ruleset;
use crate::data::section::{FigureDefaults, Problem, Section, Switches};
use serde::Deserialize;
use std::sync::LazyLock;
use std::sync::atomic::AtomicUsize;

/// `pd.princess.removal` (RULES.md §3.1 #1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Removal {
    /// The player must remove a knight (RGG 2005, Devir, old ZMG).
    Must,
    /// The player may remove a knight (ZMG new edition, HiG since Big Box 2).
    #[default]
    May,
}

/// `pd.princess.removal_blocks` (RULES.md §3.1 #2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RemovalBlocks {
    /// No follower on the princess tile itself (RGG 2005 and Devir read literally); a portal
    /// deployment elsewhere and the fairy stay possible.
    FollowerOnTile,
    /// No deploy action at all this turn: no figure anywhere, no fairy move (ZMG, HiG).
    #[default]
    AllFiguresAndFairy,
}

/// `pd.princess.big_follower` (§3.1 #3, A16): when the princess may take a big follower.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BigFollower {
    /// A big follower is removed like any knight.
    #[default]
    Any,
    /// Only when no other knight is in the city (early FAQ).
    OnlyIfAlone,
}

/// `[pd.princess]`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PrincessRules {
    /// Must or may the knight be removed.
    pub removal: Removal,
    /// What a removal forbids for the rest of the turn.
    pub removal_blocks: RemovalBlocks,
    /// Big followers and the princess.
    pub big_follower: BigFollower,
    /// Which followers are knights.
    pub knight_kinds: Vec<FollowerKind>,
}

impl Default for PrincessRules {
    fn default() -> Self {
        PrincessRules {
            removal: Removal::May,
            removal_blocks: RemovalBlocks::AllFiguresAndFairy,
            big_follower: BigFollower::Any,
            knight_kinds: vec![
                FollowerKind::Normal,
                FollowerKind::Big,
                FollowerKind::Mayor,
                FollowerKind::Wagon,
            ],
        }
    }
}

/// `pd.dragon.timing` (§3.1 #5): where the journey sits in the turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Timing {
    /// Right after the tile (and the princess), before deployment (literal ZMG step "1b").
    AfterTile,
    /// After deployment, before scoring (HiG, ZMG text, FAQ).
    #[default]
    BeforeScoring,
    /// After scoring (RGG 2005 and Devir worked examples, RGG Big Box 1–3 section text).
    AfterScoring,
}

/// `pd.dragon.mover_order` (§3.1 #7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoverOrder {
    /// Step k is made by the player k−1 seats after the active player (all editions).
    #[default]
    ClockwiseFromActive,
    /// The active player makes every step (house rule).
    ActiveOnly,
}

/// `pd.dragon.pre_volcano` (§3.1 #9, D0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PreVolcano {
    /// Set the dragon tile aside and draw again; shuffle the set-aside tiles back in when the
    /// first volcano is placed.
    #[default]
    SetAsideReshuffle,
    /// House rule: put it back into the bag at random and draw again.
    ReturnAndRedraw,
}

/// `pd.dragon.set_aside_at_end` (§3.1 #10, D0.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SetAsideAtEnd {
    /// The game ends; set-aside tiles stay unplayed.
    #[default]
    Discard,
}

/// `pd.dragon.menu` (§3.1 #11, D7): what the dragon eats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Menu {
    /// Followers only (RGG 2005, Devir).
    Followers,
    /// Followers, builders and pigs (RGG Big Box).
    FollowersBuilderPig,
    /// Every figure of flesh and blood (2015 HiG FAQ, ZMG).
    #[default]
    FleshAndBlood,
}

/// `pd.dragon.count_city` (§3.1 #15) = `count.dragon_access` (§3.3 #52); takes effect with the
/// Count (`[mechanics] count`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CountCity {
    /// The dragon never enters the Count's tiles.
    Forbidden,
    /// It may cross the outer landscape of the Count's tiles but not the city.
    #[default]
    OuterLandscapeOnly,
}

/// `[pd.dragon]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DragonRules {
    /// When the journey happens.
    pub timing: Timing,
    /// Steps per journey (D3).
    pub steps: u32,
    /// Who makes each step (D4).
    pub mover_order: MoverOrder,
    /// The tile the journey starts from counts as visited (D5a).
    pub start_tile_visited: bool,
    /// Dragon tiles drawn before the first volcano (D0).
    pub pre_volcano: PreVolcano,
    /// Set-aside dragon tiles when the bag runs out (D0.3).
    pub set_aside_at_end: SetAsideAtEnd,
    /// What the dragon eats (D7).
    pub menu: Menu,
    /// It eats neutral figures too (§3.1 #12; none exist yet besides the fairy, never eaten).
    pub eats_neutral: bool,
    /// Eating a player's last knight/thief/farmer returns his builder/pig (D8, §3.1 #13).
    pub return_builder_pig: bool,
    /// The dragon eats on the tile it starts from (D10, §3.1 #14).
    pub eat_on_start: bool,
    /// The dragon and the Count's city (§3.1 #15).
    pub count_city: CountCity,
}

impl Default for DragonRules {
    fn default() -> Self {
        DragonRules {
            timing: Timing::BeforeScoring,
            steps: 6,
            mover_order: MoverOrder::ClockwiseFromActive,
            start_tile_visited: true,
            pre_volcano: PreVolcano::SetAsideReshuffle,
            set_aside_at_end: SetAsideAtEnd::Discard,
            menu: Menu::FleshAndBlood,
            eats_neutral: true,
            return_builder_pig: true,
            eat_on_start: false,
            count_city: CountCity::OuterLandscapeOnly,
        }
    }
}

/// `[pd.volcano]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VolcanoRules {
    /// Builder and pig may still go on the volcano tile (§3.1 #16; no effect until they exist).
    pub allow_builder_pig: bool,
    /// The fairy may be moved on a volcano turn (§3.1 #17, V4).
    pub fairy_move: bool,
    /// The dragon also makes a journey from the volcano it flew to (§3.1 #40; no edition does).
    pub dragon_journey: bool,
}

impl Default for VolcanoRules {
    fn default() -> Self {
        VolcanoRules {
            allow_builder_pig: false,
            fairy_move: true,
            dragon_journey: false,
        }
    }
}

/// `pd.fairy.attach` (§3.1 #18).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Attach {
    /// The fairy stands on a tile where the player has a follower (RGG 2005, Devir, old ZMG).
    Tile,
    /// The fairy stands next to one of the player's followers (ZMG new edition, HiG).
    #[default]
    Follower,
}

/// `pd.fairy.bonus_claim` (§3.1 #22).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BonusClaim {
    /// The turn point is paid automatically.
    #[default]
    Automatic,
    /// House rule: the player must claim it at the start of his turn (`claim = true`).
    ClaimBeforePass,
}

/// `pd.fairy.scoring_bonus_when` (§3.1 #24).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BonusWhen {
    /// Whenever the feature is scored, during the game or at the end.
    #[default]
    AnyScoring,
    /// Only when it is completed during the game.
    CompletedOnly,
}

/// `pd.fairy.move_condition` (§3.1 #28).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveCondition {
    /// Whenever the player places no follower (RGG 2005, Devir).
    NoFollowerPlaced,
    /// The fairy move is the turn's whole deploy action (ZMG, HiG).
    #[default]
    NoFigureAction,
}

/// `[pd.fairy]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FairyRules {
    /// Where the fairy stands.
    pub attach: Attach,
    /// Points at the start of a turn (FA7).
    pub turn_bonus: u32,
    /// The turn point at most once per turn (§3.1 #21; matters with builder double turns).
    pub turn_bonus_once_per_turn: bool,
    /// Automatic or claimed turn point.
    pub bonus_claim: BonusClaim,
    /// Points when the fairy's feature is scored (FA8).
    pub scoring_bonus: u32,
    /// Which scorings pay the bonus.
    pub scoring_bonus_when: BonusWhen,
    /// Tile mode: the bonus needs a follower of the player in the scored feature (A5).
    pub tile_mode_requires_follower_in_feature: bool,
    /// The dragon cannot enter the fairy's tile (FA6).
    pub blocks_dragon: bool,
    /// Figures on the fairy's tile are never eaten (FA6, house rule A22).
    pub protects_tile: bool,
    /// When the fairy may move (FA2).
    pub move_condition: MoveCondition,
    /// The fairy needs a follower of the player on the board (FA4).
    pub needs_follower_on_board: bool,
    /// An abbot recalled early gets the bonus (§3.1 #30; no abbot yet).
    pub abbot_recall_bonus: bool,
    /// The fairy protects against tower capture (§3.1 #31; no tower yet).
    pub protects_from_tower: bool,
    /// The fairy may stand by a follower on a tower (§3.1 #32; no tower yet).
    pub allow_tower_follower: bool,
    /// Follower mode: it may move to another follower on the same tile (A17).
    pub reassign_same_tile: bool,
    /// Fairy moves in each half of a builder's double turn (§3.1 #40b, A13): `1`, as that
    /// half's deploy action, or `0`, none in either half (the loader refuses more: a half has
    /// one deploy decision).
    pub moves_per_half_turn: u32,
}

impl Default for FairyRules {
    fn default() -> Self {
        FairyRules {
            attach: Attach::Follower,
            turn_bonus: 1,
            turn_bonus_once_per_turn: true,
            bonus_claim: BonusClaim::Automatic,
            scoring_bonus: 3,
            scoring_bonus_when: BonusWhen::AnyScoring,
            tile_mode_requires_follower_in_feature: true,
            blocks_dragon: true,
            protects_tile: true,
            move_condition: MoveCondition::NoFigureAction,
            needs_follower_on_board: true,
            abbot_recall_bonus: false,
            protects_from_tower: false,
            allow_tower_follower: true,
            reassign_same_tile: true,
            moves_per_half_turn: 1,
        }
    }
}

/// `[pd.portal]`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PortalRules {
    /// A feature completed by the portal tile but not yet scored is a legal target (§3.1 #34).
    pub allow_completed_unscored: bool,
    /// Which followers may be deployed through the portal (§3.1 #35).
    pub figures: Vec<FollowerKind>,
    /// The dragon's tile is no legal target (§3.1 #36, derived from V8).
    pub dragon_tile_forbidden: bool,
    /// On the portal tile itself the base rules apply, so a feature the tile completes is a
    /// legal target (§3.1 #37, B-F5).
    pub own_tile_base_rules: bool,
    /// Farms are always open, even when fully enclosed (§3.1 #38, MP4).
    pub farm_always_open: bool,
}

impl Default for PortalRules {
    fn default() -> Self {
        PortalRules {
            allow_completed_unscored: false,
            figures: vec![
                FollowerKind::Normal,
                FollowerKind::Big,
                FollowerKind::Abbot,
                FollowerKind::Mayor,
                FollowerKind::Wagon,
            ],
            dragon_tile_forbidden: true,
            own_tile_base_rules: true,
            farm_always_open: true,
        }
    }
}

/// `pd.tunnel.fields` (§3.1 #39): how the fields beside the tunnel road are split.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TunnelFields {
    /// As the tile set draws them (the shipped tunnel tile: the road does not cut the north
    /// field nor the south field, which are separate from each other; TU2).
    #[default]
    TileData,
}

/// `[pd.tunnel]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TunnelRules {
    /// Field split.
    pub fields: TunnelFields,
}

/// `[pd]`: every toggle of The Princess & the Dragon (RULES.md §3.1).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PdRules {
    /// `[pd.princess]`.
    pub princess: PrincessRules,
    /// `[pd.dragon]`.
    pub dragon: DragonRules,
    /// `[pd.volcano]`.
    pub volcano: VolcanoRules,
    /// `[pd.fairy]`.
    pub fairy: FairyRules,
    /// `[pd.portal]`.
    pub portal: PortalRules,
    /// `[pd.tunnel]`.
    pub tunnel: TunnelRules,
}

impl Section for PdRules {
    const KEY: &'static str = "pd";

    fn check(&self, switches: &Switches) -> Result<(), Problem> {
        if switches.on("dragon") && !switches.on("volcano") {
            return Err(Problem::at(
                &["mechanics", "dragon"],
                "the dragon enters play on a volcano (RULES.md V6): switch `volcano` on too",
            ));
        }
        if self.dragon.steps > 100 {
            return Err(Problem::at(
                &["pd", "dragon", "steps"],
                "a journey has at most 100 steps",
            ));
        }
        if self.fairy.moves_per_half_turn > 1 {
            return Err(Problem::at(
                &["pd", "fairy", "moves_per_half_turn"],
                "moves_per_half_turn is 1 (the fairy may be moved in each half of a builder's double turn) or 0 (in neither): a half has one deploy decision, so it cannot hold more moves (A13)",
            ));
        }
        Ok(())
    }

    /// A figure row is a knight or may use the portal by default when its follower kind is
    /// listed in `pd.princess.knight_kinds` or `pd.portal.figures`.
    fn figure_defaults(&self, defaults: &mut FigureDefaults) {
        defaults.knights.clone_from(&self.princess.knight_kinds);
        defaults.portal.clone_from(&self.portal.figures);
    }
}

impl PdRules {
    /// The ruleset's `[pd]` section (its defaults for a ruleset read without the family).
    #[inline]
    pub fn of(rules: &Ruleset) -> &PdRules {
        static DEFAULT: LazyLock<PdRules> = LazyLock::new(PdRules::default);
        static AT: AtomicUsize = AtomicUsize::new(0);
        (rules.sections.get_cached::<PdRules>(&AT)).unwrap_or_else(|| &DEFAULT)
    }
}
