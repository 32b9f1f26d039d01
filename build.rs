//! Builds the list of shipped data files (`rulesets/*.toml`, `tiles/*.toml`, `scripts/*.rhai`)
//! that the binary carries, so that shipping a new data file needs no Rust edit.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let root = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let mut list = String::from("&[\n");
    for (folder, extension) in [("tiles", "toml"), ("rulesets", "toml"), ("scripts", "rhai")] {
        println!("cargo:rerun-if-changed={folder}");
        let dir = Path::new(&root).join(folder);
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|n| n.ends_with(&format!(".{extension}")))
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        for name in names {
            let path = dir.join(&name);
            let _ = writeln!(
                list,
                "    ({:?}, include_str!({:?})),",
                format!("{folder}/{name}"),
                path.display().to_string()
            );
        }
    }
    list.push(']');
    let out = std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into());
    if let Err(e) = std::fs::write(Path::new(&out).join("builtin.rs"), list) {
        panic!("cannot write the list of shipped data files: {e}");
    }
}
