//! The engine and the model name no mechanic (issue 30 §1, §5): no identifier and no string
//! literal in `src/engine/**` or `src/model/**` names an expansion, a figure or a mechanic of
//! the shipped families or of the next boxes. Comments are not read (they may give an example);
//! code and strings are. An identifier is read by its parts (`bars_dragon`, `FairyMechanic`,
//! `DRAGON` all contain `dragon`); a part matches a word or its plural.
//!
//! The mechanics' names are in the families' folders (`src/mechanic/`), the data layer's
//! tables (`src/data/printed.rs`, `src/data/figures.*`) and the files they read.

use std::fs;
use std::path::{Path, PathBuf};

/// Every mechanic, figure and expansion word of the shipped families (P&D, Inns & Cathedrals,
/// Traders & Builders, the Abbot, the Count of Carcassonne) and of the next boxes (The Tower,
/// Abbey & Mayor, Hills & Sheep, Bridges, Castles & Bazaars). `count` and `quarter` are not
/// in it: they are everyday words of the engine (a tile's count, a quarter turn).
const WORDS: &[&str] = &[
    "dragon",
    "fairy",
    "princess",
    "portal",
    "volcano",
    "magic",
    "knight",
    "abbot",
    "big",
    "inn",
    "cathedral",
    "builder",
    "pig",
    "goods",
    "wine",
    "grain",
    "cloth",
    "trader",
    "tower",
    "ransom",
    "mayor",
    "wagon",
    "barn",
    "abbey",
    "sheep",
    "shepherd",
    "wolf",
    "hill",
    "vineyard",
    "castle",
    "bazaar",
    "bridge",
];

/// Names the engine may still hold, each to go with a named step (remove the entry with the
/// step; the test fails while an entry is no longer needed, so the list only shrinks). Empty:
/// the last one, the dragon's questions to the other mechanics, are the roamer's hooks
/// (`Hooks::ROAMER`, `Mechanic::bars_roamer`).
const STILL_NAMED: &[(&str, &str)] = &[];

/// The `.rs` files under `dir`, sorted.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).expect("a source folder reads") {
            let path = entry.expect("a folder entry reads").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The code and string literals of `line` with its comment taken away; `in_block` carries a
/// `/* … */` comment from line to line.
fn code_of(line: &str, in_block: &mut bool) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    let mut in_string = false;
    while i < chars.len() {
        let (c, next) = (chars[i], chars.get(i + 1).copied());
        if *in_block {
            if c == '*' && next == Some('/') {
                *in_block = false;
                i += 1;
            }
        } else if in_string {
            out.push(c);
            if c == '\\' {
                if let Some(n) = next {
                    out.push(n);
                }
                i += 1;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '/' && next == Some('/') {
            break;
        } else if c == '/' && next == Some('*') {
            *in_block = true;
            i += 1;
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            // A character literal such as '"' or '/': kept whole, not read as a quote.
            out.extend(&chars[i..i + 3]);
            i += 2;
        } else {
            out.push(c);
        }
        i += 1;
    }
    out
}

/// The lowercase parts of the words in `code`: split at anything not a letter or digit, at
/// `_`, and where a lowercase letter meets an uppercase one (`FairyMechanic`).
fn parts(code: &str) -> Vec<String> {
    let mut parts = Vec::new();
    for word in code.split(|c: char| !c.is_ascii_alphanumeric()) {
        let mut part = String::new();
        let mut last_lower = false;
        for c in word.chars() {
            if c.is_ascii_uppercase() && last_lower && !part.is_empty() {
                parts.push(std::mem::take(&mut part));
            }
            last_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
            part.push(c.to_ascii_lowercase());
        }
        if !part.is_empty() {
            parts.push(part);
        }
    }
    parts
}

/// The word of [`WORDS`] that `part` is (or is the plural of), if any.
fn named(part: &str) -> Option<&'static str> {
    WORDS.iter().copied().find(|w| {
        part == *w || part.strip_suffix('s') == Some(w) || part.strip_suffix("es") == Some(w)
    })
}

/// Every `(file, line, word)` naming a mechanic in the code and strings of `dirs`.
fn findings(root: &Path, dirs: &[&str]) -> Vec<(String, usize, &'static str)> {
    let mut found = Vec::new();
    for dir in dirs {
        for file in sources(&root.join(dir)) {
            let text = fs::read_to_string(&file).expect("a source file reads");
            let name = file
                .strip_prefix(root)
                .unwrap_or(&file)
                .to_string_lossy()
                .replace('\\', "/");
            let mut in_block = false;
            for (n, line) in text.lines().enumerate() {
                let code = code_of(line, &mut in_block);
                for word in parts(&code).iter().filter_map(|p| named(p)) {
                    found.push((name.clone(), n + 1, word));
                }
            }
        }
    }
    found
}

#[test]
fn engine_and_model_name_no_mechanic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let found = findings(root, &["src/engine", "src/model"]);
    let stray: Vec<String> = found
        .iter()
        .filter(|(file, _, word)| !STILL_NAMED.contains(&(file.as_str(), *word)))
        .map(|(file, line, word)| format!("{file}:{line}: names `{word}`"))
        .collect();
    assert!(
        stray.is_empty(),
        "src/engine and src/model name mechanics (move the name into its family or the data \
         layer):\n{}",
        stray.join("\n")
    );
    for (file, word) in STILL_NAMED {
        assert!(
            found.iter().any(|(f, _, w)| f == file && w == word),
            "{file} no longer names `{word}`: take the entry out of STILL_NAMED"
        );
    }
}

#[test]
fn the_scan_sees_identifiers_and_strings_but_not_comments() {
    let mut block = false;
    let code = code_of(
        r#"fn bars_dragon() { "the fairy" } // a princess"#,
        &mut block,
    );
    let words: Vec<&str> = parts(&code).iter().filter_map(|p| named(p)).collect();
    assert_eq!(words, ["dragon", "fairy"]);
    assert_eq!(
        parts("FairyMechanic INNS Hooks::DRAGON")
            .iter()
            .filter_map(|p| named(p))
            .collect::<Vec<_>>(),
        ["fairy", "inn", "dragon"]
    );
    let quote = code_of(r#"let q = '"'; let w = "wagon"; /* barn */ x"#, &mut block);
    assert_eq!(
        parts(&quote)
            .iter()
            .filter_map(|p| named(p))
            .collect::<Vec<_>>(),
        ["wagon"]
    );
    assert!(!block);
    // Everyday words that contain a mechanic's name are not that name.
    assert!(
        parts("bigger counting quarters inner begins towering")
            .iter()
            .all(|p| named(p).is_none())
    );
}
