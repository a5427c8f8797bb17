//! Line preprocessors that run before block parsing, in Zulip's order: hanging lists, then
//! whitespace normalization (then fenced blocks, in `fence.rs`).

use std::sync::LazyLock;

use regex::Regex;

use super::fence::FENCE_RE;

/// A list item line, for the hanging-list rule (a single digit before the dot, as Zulip has it).
static LIST_ITEM_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^ *([*+-]|\d\.) +").expect("static regex"));

/// Zulip's `MarkdownListPreprocessor`: a list that directly follows a line of text (or a list of
/// the other kind) gets a blank line before it, so it starts a list instead of continuing the
/// paragraph. Lines inside fenced blocks other than quotes are left alone.
pub(crate) fn hanging_lists(lines: Vec<String>) -> Vec<String> {
    struct Fence {
        fence: String,
        is_code: bool,
    }
    let mut open: Vec<Fence> = Vec::new();
    let mut in_code = false;
    let mut out = Vec::with_capacity(lines.len() + 4);
    for i in 0..lines.len() {
        let line = &lines[i];
        if let Some(m) = FENCE_RE.captures(line) {
            let fence = m.name("fence").map_or("", |f| f.as_str());
            let lang = m.name("lang").map(|l| l.as_str());
            let is_code = !matches!(lang, Some("quote" | "quoted"));
            let closes = lang.is_none() && open.last().is_some_and(|f| f.fence == fence);
            if closes {
                open.pop();
            } else {
                open.push(Fence { fence: fence.to_owned(), is_code });
            }
            in_code = open.iter().any(|f| f.is_code);
        }
        out.push(line.clone());
        let Some(next) = lines.get(i + 1) else { continue };
        let this_item = LIST_ITEM_RE.captures(line);
        let next_item = LIST_ITEM_RE.captures(next);
        let hangs = match (&this_item, &next_item) {
            (None, Some(_)) => true,
            (Some(a), Some(b)) => (a[1].len() == 1) != (b[1].len() == 1),
            _ => false,
        };
        if !in_code && !line.is_empty() && hangs {
            out.push(String::new());
        }
    }
    out
}

/// Python-Markdown's `NormalizeWhitespace`: one kind of line ending, tabs expanded to columns
/// of 4, lines of spaces emptied (all but the first), two blank lines at the end.
pub(crate) fn normalize_whitespace(lines: Vec<String>) -> Vec<String> {
    let source =
        lines.join("\n").replace(['\u{2}', '\u{3}'], "").replace("\r\n", "\n").replace('\r', "\n") + "\n\n";
    source
        .split('\n')
        .enumerate()
        .map(|(i, line)| {
            let line = expand_tabs(line, 4);
            if i > 0 && !line.is_empty() && line.bytes().all(|b| b == b' ') { String::new() } else { line }
        })
        .collect()
}

fn expand_tabs(line: &str, width: usize) -> String {
    if !line.contains('\t') {
        return line.to_owned();
    }
    let mut out = String::with_capacity(line.len() + 8);
    let mut column = 0;
    for c in line.chars() {
        if c == '\t' {
            let spaces = width - column % width;
            out.extend(std::iter::repeat_n(' ', spaces));
            column += spaces;
        } else {
            out.push(c);
            column += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<String> {
        s.split('\n').map(str::to_owned).collect()
    }

    #[test]
    fn hanging_lists_get_a_blank_line() {
        assert_eq!(hanging_lists(lines("Intro\n* a\n* b")), lines("Intro\n\n* a\n* b"));
        assert_eq!(hanging_lists(lines("* a\n1. b")), lines("* a\n\n1. b"));
        assert_eq!(hanging_lists(lines("```\nIntro\n* a\n```")), lines("```\nIntro\n* a\n```"));
        assert_eq!(hanging_lists(lines("```quote\nIntro\n* a\n```")), lines("```quote\nIntro\n\n* a\n```"));
        assert_eq!(hanging_lists(lines("Intro\n10. a")), lines("Intro\n10. a"));
    }

    #[test]
    fn whitespace_is_normalized() {
        assert_eq!(normalize_whitespace(lines("a\tb\r\n  \n\tc")), lines("a   b\n\n    c\n\n"));
        assert_eq!(normalize_whitespace(lines("  ")), lines("  \n\n"));
    }
}
