//! Loading a ruleset compiles its scripts: the data layer reads and checks the files
//! ([`Ruleset::read`]), this layer compiles the scripts into the ruleset's `compiled` slot, so
//! that a script that does not compile is refused when the ruleset is loaded.

use crate::data::diagnostic::Diagnostic;
use crate::data::files::Named;
use crate::data::library::{self, Kind};
use crate::data::ruleset::Ruleset;
use crate::script::Scripts;
use std::path::Path;
use std::sync::Arc;

impl Ruleset {
    /// Loads a ruleset the user names: by name (`rulesets/NAME.toml` or built in) or by path.
    pub fn load(reference: &str) -> Result<Arc<Ruleset>, Diagnostic> {
        let source = library::find(Kind::Ruleset, reference, Named::ByUser)
            .map_err(|msg| Diagnostic::new(Path::new(reference), &Arc::from(""), None, msg))?;
        Ruleset::from_source(source).map(Arc::new)
    }

    /// Loads a ruleset from a file's text and compiles its scripts.
    pub fn from_source(source: library::Source) -> Result<Ruleset, Diagnostic> {
        let rules = Ruleset::read(source)?;
        if let Some(sources) = &rules.scripts {
            let scripts = Scripts::load(&sources.files, sources.limits, sources.values.clone())?;
            rules.compiled.init(scripts);
        }
        Ok(rules)
    }

    /// The compiled scripts (none without scripts).
    pub(crate) fn compiled_scripts(&self) -> Option<&Scripts> {
        self.compiled.get::<Scripts>()
    }
}
