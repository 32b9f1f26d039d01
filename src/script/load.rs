//! Loading a ruleset compiles its scripts: the data layer reads and checks the files
//! ([`Ruleset::read`], with the families' sections the registry lists), this layer compiles the scripts, with every family's script commands,
//! into the ruleset's `compiled` slot, so that a script that does not compile is refused when
//! the ruleset is loaded (`Ruleset::load`, in the registry, which knows the families).

use crate::data::diagnostic::Diagnostic;
use crate::data::ruleset::Ruleset;
use crate::script::Scripts;
use crate::script::family::ScriptApi;

impl Ruleset {
    /// Compiles the ruleset's scripts (if it has any) with the script commands of `families`
    /// (every `mechanic::Family`'s `script`).
    pub(crate) fn compile_scripts(
        &self,
        families: &[fn(&mut ScriptApi)],
    ) -> Result<(), Diagnostic> {
        if let Some(sources) = &self.scripts {
            let scripts = Scripts::load(
                &sources.files,
                sources.limits,
                sources.values.clone(),
                families,
            )?;
            self.compiled.init(scripts);
        }
        Ok(())
    }

    /// The compiled scripts (none without scripts).
    pub(crate) fn compiled_scripts(&self) -> Option<&Scripts> {
        self.compiled.get::<Scripts>()
    }
}
