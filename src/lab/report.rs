//! A comparison for people and programs: a terminal table, JSON lines of games (shard files)
//! and a self-contained HTML page with plots drawn by `plotters` as inline SVG.

use crate::lab::metrics::{Estimate, Metric, Summary};
use crate::lab::{GameResult, LabError};
use crate::ui::render::svg::esc;
use plotters::prelude::*;
use std::fmt::Write as _;
use std::path::Path;

/// Results files larger than this are refused (a shard of a million games is far smaller).
pub const MAX_RESULTS_BYTES: u64 = 1 << 30;

/// Reads the game results of a JSON-lines file (one [`GameResult`] per line; blank lines are
/// skipped). Errors name the file and line.
pub fn read_results(path: &Path) -> Result<Vec<GameResult>, LabError> {
    let file = path.display().to_string();
    let bad = |line: usize, why: String| LabError::BadLine {
        file: file.clone(),
        line,
        why,
    };
    let size = std::fs::metadata(path)
        .map_err(|e| bad(0, e.to_string()))?
        .len();
    if size > MAX_RESULTS_BYTES {
        return Err(bad(0, format!("larger than {MAX_RESULTS_BYTES} bytes")));
    }
    let text = std::fs::read_to_string(path).map_err(|e| bad(0, e.to_string()))?;
    parse_results(&text, &file)
}

/// Reads the game results of JSON-lines text (as [`read_results`] reads a file; `file` names
/// the text in errors).
pub fn parse_results(text: &str, file: &str) -> Result<Vec<GameResult>, LabError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|e| LabError::BadLine {
                file: file.to_string(),
                line: i + 1,
                why: e.to_string(),
            })
        })
        .collect()
}

/// The results as JSON lines, one game a line.
pub fn write_results(results: &[GameResult]) -> String {
    let mut out = String::new();
    for r in results {
        // A result is plain data (strings, numbers, maps with string keys): it always converts.
        if let Ok(line) = serde_json::to_string(r) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

/// `12.34 [11.78, 12.90]` (or the mean alone without an interval).
fn show(e: &Estimate) -> String {
    match e.interval {
        Some((low, high)) => format!("{:.2} [{low:.2}, {high:.2}]", e.mean),
        None => format!("{:.2}", e.mean),
    }
}

/// `+1.23 [0.78, 1.68] *`: a difference, starred when its interval excludes zero.
fn show_difference(d: &Estimate) -> String {
    let star = if d.excludes_zero() { " *" } else { "" };
    match d.interval {
        Some((low, high)) => format!("{:+.2} [{low:+.2}, {high:+.2}]{star}", d.mean),
        None => format!("{:+.2}", d.mean),
    }
}

/// The cells of one metric's row: each ruleset's value, with its difference from the first
/// (after the first ruleset).
fn cells(m: &Metric) -> Vec<(String, Option<String>)> {
    m.values
        .iter()
        .zip(&m.differences)
        .map(|(v, d)| (show(v), d.as_ref().map(show_difference)))
        .collect()
}

/// The comparison as a text table: a row per metric, a column per ruleset with its
/// difference from the first in brackets, `*` where the 95% interval of the difference
/// excludes zero.
pub fn table(s: &Summary) -> String {
    let mut out = String::new();
    for line in preamble(s) {
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(
        out,
        "{} games per ruleset, bots {} (95% intervals; in brackets: the difference from `{}`, paired by seed, * where its interval excludes 0)",
        s.games
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join("/"),
        s.bots.join(","),
        s.rulesets.first().map_or("", String::as_str)
    );
    // Columns: each ruleset's value, then after the first its difference; a ruleset's name
    // heads its value column.
    let rows: Vec<(String, Vec<String>)> = s
        .metrics
        .iter()
        .map(|m| {
            let flat = cells(m)
                .into_iter()
                .enumerate()
                .flat_map(|(k, (v, d))| {
                    std::iter::once(v)
                        .chain((k > 0).then(|| d.map_or_else(String::new, |d| format!("({d})"))))
                })
                .collect();
            (m.label.clone(), flat)
        })
        .collect();
    let label_width = rows
        .iter()
        .map(|(l, _)| l.chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    let columns = (s.rulesets.len() * 2).saturating_sub(1);
    let is_value = |c: usize| c == 0 || c % 2 == 1;
    let heading = |c: usize| is_value(c).then(|| s.rulesets[c.div_ceil(2)].as_str());
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .map(|(_, cells)| cells.get(c).map_or(0, |x| x.chars().count()))
                .chain(heading(c).map(|h| h.chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut line = format!("{:label_width$}", "metric");
    for (c, w) in widths.iter().enumerate() {
        let _ = write!(line, "  {:>w$}", heading(c).unwrap_or(""));
    }
    let _ = writeln!(out, "{}", line.trim_end());
    for (label, cells) in &rows {
        let mut line = format!("{label:label_width$}");
        for (c, (cell, w)) in cells.iter().zip(&widths).enumerate() {
            if is_value(c) {
                let _ = write!(line, "  {cell:>w$}");
            } else {
                let _ = write!(line, "  {cell:<w$}");
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    let verdict = verdict(s);
    if !verdict.is_empty() {
        out.push('\n');
    }
    for line in verdict {
        let _ = writeln!(out, "{line}");
    }
    out
}

/// The groups an ablation's verdict speaks of (points by seat and rule firings are in the table).
const VERDICT_GROUPS: [&str; 8] = [
    "score",
    "win_rate",
    "margin",
    "length",
    "ties",
    "lead_changes",
    "decided_turn",
    "points_gap",
];

/// An ablation's verdict, for people: for the variant and for each ruleset that takes it
/// apart, the metrics it moves (the difference from the base, where its 95% interval excludes
/// zero). Empty unless the summary is an ablation.
pub fn verdict(s: &Summary) -> Vec<String> {
    let mut lines = Vec::new();
    if !s.ablation {
        return lines;
    }
    let base = s.rulesets.first().map_or("", String::as_str);
    lines.push(format!(
        "Which setting moves what: each ruleset's difference from `{base}` (paired by seed, 95% interval), where the interval excludes 0"
    ));
    for (k, name) in s.rulesets.iter().enumerate().skip(1) {
        let what = match s.about.get(k) {
            Some(a) if k > 1 => a
                .changes
                .iter()
                .map(|c| change_words(c, base))
                .collect::<Vec<_>>()
                .join("; "),
            _ => "every setting".to_string(),
        };
        let moved: Vec<String> = s
            .metrics
            .iter()
            .filter(|m| VERDICT_GROUPS.contains(&m.group))
            .filter_map(|m| {
                let d = m.differences.get(k).copied().flatten()?;
                d.excludes_zero()
                    .then(|| format!("    {}: {}", m.label, show_difference(&d)))
            })
            .collect();
        lines.push(format!("{name} ({what}):"));
        if moved.is_empty() {
            lines.push("    moves nothing measured".to_string());
        }
        lines.extend(moved);
    }
    lines
}

/// The lines before the table: what is missing from the run, then what each ruleset is and
/// the settings in which it differs from the first.
fn preamble(s: &Summary) -> Vec<String> {
    let mut lines: Vec<String> = s
        .missing
        .iter()
        .map(|m| format!("warning: incomplete run: {m}"))
        .collect();
    let first = s.rulesets.first().map_or("", String::as_str);
    for a in &s.about {
        let described = if a.description.is_empty() {
            String::new()
        } else {
            format!(": {}", a.description)
        };
        lines.push(format!("{}{described}", a.ruleset));
        for c in &a.changes {
            lines.push(format!("    {}", change_words(c, first)));
        }
    }
    if !s.about.is_empty() {
        lines.push(String::new());
    }
    lines
}

/// `pd.fairy.turn_bonus = 0 (hig: 1)`, with `default` for a value not set.
fn change_words(c: &crate::lab::changes::Change, first: &str) -> String {
    let or_default = |v: &Option<String>| v.clone().unwrap_or_else(|| "default".into());
    format!(
        "{} = {} ({first}: {})",
        c.key,
        or_default(&c.value),
        or_default(&c.base)
    )
}

/// The width of every plot, in pixels.
const WIDTH: u32 = 900;

/// A drawing error, as text.
type Drawn<T> = Result<T, Box<dyn std::error::Error>>;

/// The comparison as one HTML page that needs nothing else: the table, the distributions of
/// final scores, win rates per seat with their intervals, points by source and rule firings.
pub fn html(s: &Summary) -> Result<String, LabError> {
    page(s).map_err(|e| LabError::Plot(e.to_string()))
}

fn page(s: &Summary) -> Drawn<String> {
    let mut out = String::new();
    let title = format!("castellan compare: {}", s.rulesets.join(" vs "));
    write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\n\
         <style>body{{font-family:sans-serif;margin:2em;max-width:1100px}}\
         table{{border-collapse:collapse;font-size:13px}}td,th{{padding:2px 8px;text-align:right;border-bottom:1px solid #ddd;white-space:nowrap}}\
         td:first-child,th:first-child{{text-align:left}}.sig{{font-weight:bold;color:#a40}}svg{{display:block;margin:1em 0}}</style>\n\
         </head><body>\n<h1>{}</h1>\n<p>{} games per ruleset; bots: {}. Means with 95% confidence intervals; \
         beside each, the difference from <b>{}</b> over the same seeds, <span class=\"sig\">bold</span> where its interval excludes zero.</p>\n",
        esc(&title),
        esc(&title),
        s.games
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join("/"),
        esc(&s.bots.join(", ")),
        esc(s.rulesets.first().map_or("", String::as_str)),
    )?;
    let first = s.rulesets.first().cloned().unwrap_or_default();
    for line in &s.missing {
        writeln!(out, "<p class=\"sig\">Incomplete run: {}</p>", esc(line))?;
    }
    if !s.about.is_empty() {
        out.push_str("<ul>\n");
        for a in &s.about {
            write!(
                out,
                "<li><b>{}</b>: {}",
                esc(&a.ruleset),
                esc(&a.description)
            )?;
            if !a.changes.is_empty() {
                out.push_str("<ul>");
                for c in &a.changes {
                    write!(
                        out,
                        "<li><code>{}</code></li>",
                        esc(&change_words(c, &first))
                    )?;
                }
                out.push_str("</ul>");
            }
            out.push_str("</li>\n");
        }
        out.push_str("</ul>\n");
    }
    out.push_str("<table><tr><th>metric</th>");
    for (k, r) in s.rulesets.iter().enumerate() {
        write!(out, "<th>{}</th>", esc(r))?;
        if k > 0 {
            write!(out, "<th>vs {}</th>", esc(&first))?;
        }
    }
    out.push_str("</tr>\n");
    for m in &s.metrics {
        write!(out, "<tr><td>{}</td>", esc(&m.label))?;
        for ((value, difference), d) in cells(m).iter().zip(&m.differences) {
            let class = if d.is_some_and(|d| d.excludes_zero()) {
                " class=\"sig\""
            } else {
                ""
            };
            write!(out, "<td{class}>{}</td>", esc(value))?;
            if let Some(diff) = difference {
                write!(out, "<td{class}>{}</td>", esc(diff))?;
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
    let verdict = verdict(s);
    if let Some((head, rest)) = verdict.split_first() {
        writeln!(
            out,
            "<h2>{}</h2>\n<pre>{}</pre>",
            esc(head),
            esc(&rest.join("\n"))
        )?;
    }
    out.push_str("<h2>Final scores</h2>\n");
    out.push_str(&distribution(s)?);
    for (group, heading, axis) in [
        (
            "win_rate",
            "Win rate per seat",
            "share of games won outright",
        ),
        ("points", "Points by source and seat", "points per game"),
        (
            "points_gap",
            "Seat gap by source",
            "seat 1's points minus the other seats' (mean), per game",
        ),
        ("firings", "Rule firings", "times per game"),
    ] {
        let metrics: Vec<&Metric> = s.metrics.iter().filter(|m| m.group == group).collect();
        if metrics.is_empty() {
            continue;
        }
        writeln!(out, "<h2>{heading}</h2>")?;
        out.push_str(&bars(s, &metrics, axis)?);
    }
    out.push_str("</body></html>\n");
    Ok(out)
}

/// How many final scores fall in each bin, per ruleset, drawn as outlines.
fn distribution(s: &Summary) -> Drawn<String> {
    let all = s.scores.iter().flatten().copied();
    let (lo, hi) = all.fold((u32::MAX, 0), |(lo, hi), x| (lo.min(x), hi.max(x)));
    let (lo, hi) = if lo > hi { (0, 1) } else { (lo, hi) };
    let width = (hi - lo) / 30 + 1;
    let bins = ((hi - lo) / width + 1) as usize;
    let counts: Vec<Vec<f64>> = s
        .scores
        .iter()
        .map(|scores| {
            let mut c = vec![0.0; bins];
            for x in scores {
                c[((x - lo) / width) as usize] += 1.0 / scores.len().max(1) as f64;
            }
            c
        })
        .collect();
    let top = counts.iter().flatten().copied().fold(0.0, f64::max) * 1.1 + 1e-9;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, 360)).into_drawing_area();
        root.fill(&WHITE)?;
        let x_end = (lo + width * bins as u32) as f64;
        let mut chart = ChartBuilder::on(&root)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(lo as f64..x_end, 0.0..top)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc("final score (every seat)")
            .y_desc("share of scores")
            .draw()?;
        for (k, (name, c)) in s.rulesets.iter().zip(&counts).enumerate() {
            let color = Palette99::pick(k).to_rgba();
            let mut points = vec![(lo as f64, 0.0)];
            for (b, v) in c.iter().enumerate() {
                let x0 = (lo + width * b as u32) as f64;
                points.push((x0, *v));
                points.push((x0 + width as f64, *v));
            }
            points.push((x_end, 0.0));
            chart
                .draw_series(std::iter::once(PathElement::new(
                    points,
                    color.stroke_width(2),
                )))?
                .label(name.as_str())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2))
                });
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()?;
        root.present()?;
    }
    Ok(svg)
}

/// Horizontal grouped bars: a group per metric, a bar per ruleset, with the 95% interval as a
/// line across the bar's end.
fn bars(s: &Summary, metrics: &[&Metric], axis: &str) -> Drawn<String> {
    let rulesets = s.rulesets.len().max(1);
    let labels: Vec<String> = metrics
        .iter()
        .map(|m| {
            m.label
                .split_once(": ")
                .map_or(m.label.clone(), |(_, rest)| rest.to_string())
        })
        .collect();
    let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(4);
    let label_area = (longest as u32 * 7 + 12).clamp(60, 360);
    let height = (metrics.len() as u32 * (10 + 14 * rulesets as u32) + 90).min(4000);
    // The legend sits at the right, beside the bars: the axis runs on past the longest bar by
    // the legend's width.
    let widest = metrics
        .iter()
        .flat_map(|m| m.values.iter().map(Estimate::high))
        .fold(0.0, f64::max)
        * 1.05
        + 1e-9;
    let legend_px = s
        .rulesets
        .iter()
        .map(|r| r.chars().count())
        .max()
        .unwrap_or(4) as f64
        * 7.0
        + 80.0;
    let plot_px = (WIDTH - label_area - 24) as f64;
    // Gaps may be negative: the axis then starts below zero.
    let lowest = metrics
        .iter()
        .flat_map(|m| {
            m.values
                .iter()
                .map(|v| v.interval.map_or(v.mean, |(low, _)| low))
        })
        .fold(0.0, f64::min)
        * 1.05;
    let top = lowest + (widest - lowest) * plot_px / (plot_px - legend_px).max(plot_px / 3.0);
    let n = metrics.len() as f64;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(label_area)
            .build_cartesian_2d(lowest..top, -0.5..n - 0.5)?;
        let name_of = |y: &f64| {
            let i = y.round();
            if (y - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < labels.len() {
                labels[i as usize].clone()
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(metrics.len() * 2 + 1)
            .y_label_formatter(&name_of)
            .x_desc(axis)
            .draw()?;
        let slot = 0.8 / rulesets as f64;
        for (k, name) in s.rulesets.iter().enumerate() {
            let color = Palette99::pick(k).to_rgba();
            let place = |i: usize| i as f64 - 0.4 + slot * k as f64;
            chart
                .draw_series(metrics.iter().enumerate().filter_map(|(i, m)| {
                    let v = m.values.get(k)?;
                    Some(Rectangle::new(
                        [(0.0, place(i)), (v.mean, place(i) + slot * 0.9)],
                        color.filled(),
                    ))
                }))?
                .label(name.as_str())
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.filled())
                });
            chart.draw_series(metrics.iter().enumerate().filter_map(|(i, m)| {
                let v = m.values.get(k)?;
                let (low, high) = v.interval?;
                let y = place(i) + slot * 0.45;
                Some(PathElement::new(
                    vec![(low.max(lowest), y), (high, y)],
                    BLACK.stroke_width(2),
                ))
            }))?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()?;
        root.present()?;
    }
    Ok(svg)
}
