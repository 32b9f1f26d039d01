//! Errors in user-written files (tile sets, rulesets, records, scripts), located by file, line
//! and column, and rendered like compiler diagnostics.

use annotate_snippets::{AnnotationKind, Level, Renderer, Snippet};
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A problem in a file a user wrote: where it is and what is wrong.
#[derive(Clone, Debug, thiserror::Error)]
pub struct Diagnostic {
    /// The file, as the user named it.
    pub file: PathBuf,
    /// The file's text (shared, so cloning a diagnostic is cheap).
    pub text: Arc<str>,
    /// Byte range of the offending text, when known.
    pub span: Option<Range<usize>>,
    /// What is wrong.
    pub message: String,
    /// What to do about it, when there is something useful to say.
    pub help: Option<String>,
}

impl Diagnostic {
    /// A diagnostic at `span` of `source`.
    pub fn new(
        file: &Path,
        source: &Arc<str>,
        span: Option<Range<usize>>,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            file: file.to_path_buf(),
            text: Arc::clone(source),
            span: span.map(|s| on_characters(source, s)),
            message: message.into(),
            help: None,
        }
    }

    /// A diagnostic about a whole file that could not be read.
    pub fn unreadable(file: &Path, err: &std::io::Error) -> Self {
        Diagnostic {
            file: file.to_path_buf(),
            text: Arc::from(""),
            span: None,
            message: format!("cannot read the file: {err}"),
            help: None,
        }
    }

    /// Wraps a TOML syntax or shape error.
    pub fn from_toml(file: &Path, source: &Arc<str>, err: &toml::de::Error) -> Self {
        let message = err.message().trim();
        // The reader refuses a key nested too deep without saying where: find it ourselves.
        if err.span().is_none() && message == "recursion limit" {
            if let Some((span, parts)) = deepest_key(source) {
                return Diagnostic::new(
                    file,
                    source,
                    Some(span),
                    format!(
                        "recursion limit: a key of {parts} dotted parts nests tables deeper than \
                         the TOML reader allows"
                    ),
                )
                .with_help("write the key with fewer dotted parts");
            }
        }
        Diagnostic::new(file, source, err.span(), message.to_string())
    }

    /// Adds advice.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// 1-based line and column of the start of the span.
    pub fn line_col(&self) -> Option<(usize, usize)> {
        let start = self.span.as_ref()?.start.min(self.text.len());
        let before = &self.text[..start];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Some((line, col))
    }

    /// The compiler-style rendering: `error: …`, `--> file:line:col`, the line and a caret.
    pub fn render(&self) -> String {
        let path = self.file.display().to_string();
        let mut snippet = Snippet::source(&*self.text).path(path.as_str()).fold(true);
        if let Some(span) = &self.span {
            // An empty span points at one character (a whole one).
            let at_least_one = span.start..span.end.max(span.start + 1);
            let Range { start, end } = on_characters(&self.text, at_least_one);
            snippet = snippet.annotation(AnnotationKind::Primary.span(start..end));
        }
        let title = Level::ERROR.primary_title(self.message.as_str());
        let mut group = title.element(snippet);
        if let Some(help) = &self.help {
            group = group.element(Level::HELP.message(help.as_str()));
        }
        if self.span.is_none() {
            return match &self.help {
                Some(help) => format!("error: {}\n  --> {path}\n  = help: {help}", self.message),
                None => format!("error: {}\n  --> {path}", self.message),
            };
        }
        Renderer::plain().render(&[group]).to_string()
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line_col() {
            Some((line, col)) => {
                write!(f, "{}:{line}:{col}: {}", self.file.display(), self.message)
            }
            None => write!(f, "{}: {}", self.file.display(), self.message),
        }
    }
}

/// Finds the byte span of the value at `path` (table keys and array indices) in a TOML text.
/// Used to point at a key whose value is wrong for reasons serde cannot see.
pub fn span_at(source: &str, path: &[PathPart<'_>]) -> Option<Range<usize>> {
    let doc = toml::de::DeTable::parse(source).ok()?;
    let mut span = doc.span();
    let mut value: Option<&toml::Spanned<toml::de::DeValue<'_>>> = None;
    for part in path {
        let next = match (part, value) {
            (PathPart::Key(k), None) => doc.get_ref().get(*k),
            (PathPart::Key(k), Some(v)) => v.get_ref().as_table().and_then(|t| t.get(*k)),
            (PathPart::Index(i), Some(v)) => v.get_ref().as_array().and_then(|a| a.get(*i)),
            (PathPart::Index(_), None) => None,
        };
        match next {
            Some(v) => {
                span = v.span();
                value = Some(v);
            }
            None => break,
        }
    }
    Some(span)
}

/// One step of a path into a TOML document.
#[derive(Clone, Copy, Debug)]
pub enum PathPart<'a> {
    /// A table key.
    Key(&'a str),
    /// An array index.
    Index(usize),
}

/// `span` widened to whole characters and kept inside `text` (a parser may point into the
/// middle of a multi-byte character; the renderer needs character boundaries).
fn on_characters(text: &str, span: Range<usize>) -> Range<usize> {
    let mut start = span.start.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = span.end.clamp(start, text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    start..end
}

/// The dotted key (a table header's or a key's) with the most parts in a TOML text, the first
/// of equals: its byte range and its number of parts. One pass outside strings and comments:
/// bare or quoted parts joined by dots (whitespace allowed) make a key; anything else ends it.
fn deepest_key(text: &str) -> Option<(Range<usize>, usize)> {
    let bytes = text.as_bytes();
    let mut best: Option<(Range<usize>, usize)> = None;
    // The key being read: where it starts, where its last part ends, how many dots so far.
    let mut key: Option<(usize, usize, usize)> = None;
    let mut close = |key: &mut Option<(usize, usize, usize)>| {
        if let Some((start, end, dots)) = key.take() {
            if best.as_ref().is_none_or(|(_, parts)| dots + 1 > *parts) {
                best = Some((start..end, dots + 1));
            }
        }
    };
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' | b'\'' => {
                let end = string_end(bytes, i);
                let (_, last, _) = key.get_or_insert((i, end, 0));
                *last = end;
                i = end;
                continue;
            }
            b'.' if key.is_some() => {
                if let Some((_, _, dots)) = &mut key {
                    *dots += 1;
                }
            }
            b' ' | b'\t' => {}
            c if c.is_ascii_alphanumeric() || c == b'_' || c == b'-' => {
                let (_, last, _) = key.get_or_insert((i, i + 1, 0));
                *last = i + 1;
            }
            b'#' => {
                close(&mut key);
                i = bytes[i..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(bytes.len(), |n| i + n);
                continue;
            }
            _ => close(&mut key),
        }
        i += 1;
    }
    close(&mut key);
    best
}

/// The byte just past the TOML string opening at `at` (basic or literal, one line or many);
/// the end of the line or text when it is not closed.
fn string_end(bytes: &[u8], at: usize) -> usize {
    let quote = bytes[at];
    let rest = &bytes[at..];
    if rest.len() >= 3 && rest[1] == quote && rest[2] == quote {
        let body = at + 3;
        let Some(n) = bytes[body..]
            .windows(3)
            .position(|w| w.iter().all(|&b| b == quote))
        else {
            return bytes.len();
        };
        // A closing run may hold up to two more quotes, which belong to the string.
        let mut end = body + n + 3;
        while end < bytes.len() && end < body + n + 5 && bytes[end] == quote {
            end += 1;
        }
        return end;
    }
    let mut j = at + 1;
    while j < bytes.len() {
        match bytes[j] {
            b'\\' if quote == b'"' => j += 1,
            b'\n' => return j,
            b if b == quote => return j + 1,
            _ => {}
        }
        j += 1;
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_are_widened_to_whole_characters() {
        let text = "a = \"§x\"";
        // A byte span inside `§` (bytes 5..7) becomes the whole character.
        assert_eq!(on_characters(text, 6..6), 5..7);
        assert_eq!(on_characters(text, 5..6), 5..7);
        assert_eq!(on_characters(text, 40..50), text.len()..text.len());
        let d = Diagnostic::new(Path::new("x.toml"), &Arc::from(text), Some(6..6), "m");
        assert!(d.render().contains("x.toml:1:6"), "{}", d.render());
    }

    #[test]
    fn the_deepest_key_is_found_outside_strings_and_comments() {
        let text = "a.b = \"x.y.z.w\" # c.d.e.f.g\n[t . 'q.r' . u]\nv = 1.5\n";
        let (span, parts) = deepest_key(text).unwrap();
        assert_eq!((&text[span], parts), ("t . 'q.r' . u", 3));
        let text = "s = \"\"\"\nx.y.z.w = 1\n\"\"\"\nk.l = 2\n";
        let (span, parts) = deepest_key(text).unwrap();
        assert_eq!((&text[span], parts), ("k.l", 2));
    }

    #[test]
    fn line_and_column_are_one_based() {
        let src: Arc<str> = Arc::from("a = 1\nbb = oops\n");
        let d = Diagnostic::new(Path::new("x.toml"), &src, Some(11..15), "bad value");
        assert_eq!(d.line_col(), Some((2, 6)));
        assert_eq!(d.to_string(), "x.toml:2:6: bad value");
        let text = d.render();
        assert!(text.contains("x.toml:2:6"), "{text}");
        assert!(text.contains("bb = oops"), "{text}");
        assert!(text.contains('^'), "{text}");
    }

    #[test]
    fn span_at_finds_nested_values() {
        let src = "[base]\nfarm_scoring = \"nope\"\n[[tiles]]\nset = \"x\"\n";
        let span = span_at(src, &[PathPart::Key("base"), PathPart::Key("farm_scoring")]).unwrap();
        assert_eq!(&src[span], "\"nope\"");
        let span = span_at(
            src,
            &[
                PathPart::Key("tiles"),
                PathPart::Index(0),
                PathPart::Key("set"),
            ],
        )
        .unwrap();
        assert_eq!(&src[span], "\"x\"");
    }
}
