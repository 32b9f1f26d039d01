//! A ruleset's scripts as data: their sources, the sandbox's limits (`[scripting]`) and the
//! values scripts read. Compiling them is the script layer's work
//! (`script::Scripts`, in `src/script/`); the data layer only reads and checks the files.

use std::path::PathBuf;

/// The scripts a ruleset names along its `extends` chain, read but not compiled.
#[derive(Clone, Debug)]
pub struct ScriptSources {
    /// `(path, text)` of each script, ancestors' first.
    pub files: Vec<(PathBuf, String)>,
    /// The sandbox's limits.
    pub limits: Limits,
    /// The merged ruleset table (what `vars(name)` and `rule(path)` read).
    pub values: toml::Table,
}

/// `[scripting]`: the sandbox's limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Operations one hook call may perform.
    pub max_operations: u64,
    /// Nested function calls.
    pub max_call_depth: usize,
    /// Characters in a string.
    pub max_string_size: usize,
    /// Elements in an array.
    pub max_array_size: usize,
    /// Entries in a map.
    pub max_map_size: usize,
    /// Wall-clock seconds the scripts may run over a whole game (its actions together): past
    /// them, the game stops.
    pub max_game_seconds: u64,
}

impl Limits {
    /// The range each limit must lie in: no limit can be switched off (0 is not "unlimited"),
    /// the call depth stays within what the native stack survives, and the sizes bound the
    /// memory a hook call can hold (rhai counts nested arrays and maps into their parent's
    /// size).
    pub const RANGES: [(&'static str, u64, u64); 6] = [
        ("max_operations", 1_000, 10_000_000),
        ("max_call_depth", 1, 64),
        ("max_string_size", 1, 1_000_000),
        ("max_array_size", 1, 100_000),
        ("max_map_size", 1, 100_000),
        ("max_game_seconds", 1, 60),
    ];

    /// The first limit outside its range: its key and what is wrong.
    pub fn check(&self) -> Result<(), (&'static str, String)> {
        let values = [
            self.max_operations,
            self.max_call_depth as u64,
            self.max_string_size as u64,
            self.max_array_size as u64,
            self.max_map_size as u64,
            self.max_game_seconds,
        ];
        for ((key, low, high), value) in Limits::RANGES.iter().zip(values) {
            if !(*low..=*high).contains(&value) {
                return Err((
                    key,
                    format!(
                        "scripting.{key} must be between {low} and {high}, not {value} (a ruleset cannot lift the sandbox's limits)"
                    ),
                ));
            }
        }
        Ok(())
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_operations: 200_000,
            max_call_depth: 32,
            max_string_size: 10_000,
            max_array_size: 10_000,
            max_map_size: 10_000,
            max_game_seconds: 60,
        }
    }
}
