//! Loading a ruleset compiles its scripts: the data layer reads and checks the files
//! ([`Ruleset::read`], with the families' sections the registry lists), this layer compiles the
//! scripts into the ruleset's `compiled` slot, so that a script that does not compile is
//! refused when the ruleset is loaded.

use crate::data::diagnostic::Diagnostic;
use crate::data::ruleset::Ruleset;
use crate::script::Scripts;

impl Ruleset {
    /// Compiles the ruleset's scripts into its `compiled` slot (nothing without scripts); the
    /// registry's `Ruleset::from_source` calls it once the files are read.
    pub(crate) fn compile_scripts(&self) -> Result<(), Diagnostic> {
        if let Some(sources) = &self.scripts {
            let scripts = Scripts::load(&sources.files, sources.limits, sources.values.clone())?;
            self.compiled.init(scripts);
        }
        Ok(())
    }

    /// The compiled scripts (none without scripts).
    pub(crate) fn compiled_scripts(&self) -> Option<&Scripts> {
        self.compiled.get::<Scripts>()
    }
}
