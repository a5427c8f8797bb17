//! Formatting patterns with Zulip's exact rules: code spans keep their spaces; only `*` makes
//! emphasis (`_x_` and `__x__` stay as typed); strong text may not span lines; `$$…$$` is math;
//! entities pass through; every newline inside a paragraph is a `<br>`. Each function finds
//! the match Python's regular expression would (leftmost; lookarounds written out by hand).

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

use super::{Elem, Engine, Found, Stashed, is_space, is_word};
use crate::markdown::math::{self, MathRenderer};
use crate::markdown::tree::Escape;

static ENTITY_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"&(?:#[0-9]+|#x[0-9a-fA-F]+|[a-zA-Z0-9]+);").expect("static regex"));
static NOT_STRONG_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|\s)[*_](?:\s|$)").expect("static regex"));

/// The backtick runs of a text, found once for all the code spans of a pass over it (finding
/// them again for each span made a text of many spans quadratic).
pub(super) struct CodeSpans {
    /// The start of each maximal run of backticks, by the run's length, in text order.
    runs_by_length: HashMap<usize, Vec<usize>>,
}

impl CodeSpans {
    pub(super) fn new(data: &str) -> CodeSpans {
        let bytes = data.as_bytes();
        let mut runs_by_length: HashMap<usize, Vec<usize>> = HashMap::new();
        let mut i = 0;
        while let Some(offset) = bytes[i..].iter().position(|b| *b == b'`') {
            let start = i + offset;
            let len = bytes[start..].iter().take_while(|b| **b == b'`').count();
            runs_by_length.entry(len).or_default().push(start);
            i = start + len;
        }
        CodeSpans { runs_by_length }
    }

    /// The first run of exactly `len` backticks that starts after byte `content`.
    fn closer(&self, len: usize, content: usize) -> Option<usize> {
        let starts = self.runs_by_length.get(&len)?;
        starts.get(starts.partition_point(|start| *start <= content)).copied()
    }

    /// Code spans: a run of backticks, at least one character (newlines included), the same
    /// number of backticks. A run of backslashes before backticks (an even number) is halved,
    /// as Python-Markdown does. The first at or after byte `from`.
    pub(super) fn find(&self, data: &str, from: usize) -> Option<Found> {
        if self.runs_by_length.is_empty() {
            return None;
        }
        let bytes = data.as_bytes();
        let mut p = from;
        while p < bytes.len() {
            let Some(offset) = bytes[p..].iter().position(|b| matches!(b, b'`' | b'\\')) else { break };
            p += offset;
            let escaped = p > 0 && bytes[p - 1] == b'\\';
            if bytes[p] == b'\\' && !escaped {
                let slashes = bytes[p..].iter().take_while(|b| **b == b'\\').count();
                if slashes % 2 == 0 && bytes.get(p + slashes) == Some(&b'`') {
                    let text = "\\".repeat(slashes / 2);
                    return Some(Found::new(p, p + slashes, Stashed::Text(text)));
                }
            }
            if bytes[p] == b'`' && !escaped {
                let available = bytes[p..].iter().take_while(|b| **b == b'`').count();
                for len in (1..=available).rev() {
                    let content = p + len;
                    if let Some(start) = self.closer(len, content) {
                        let code =
                            Elem { escape: Escape::Code, ..Elem::atomic("code", &data[content..start]) };
                        return Some(Found::new(p, start + len, Stashed::Element(code)));
                    }
                }
            }
            p += 1;
        }
        None
    }
}

/// The end of a run of characters that emphasis content may hold (not `*`, `^` or newline).
fn emphasis_run_end(data: &str, from: usize) -> usize {
    data[from..].find(['*', '^', '\n']).map_or(data.len(), |i| from + i)
}

/// Whether the emphasis content `data[start..end]` neither starts nor ends with whitespace.
fn trimmed_content(data: &str, start: usize, end: usize) -> bool {
    let content = &data[start..end];
    !content.is_empty()
        && !content.chars().next().is_some_and(is_space)
        && !content.chars().next_back().is_some_and(is_space)
}

impl Engine<'_> {
    /// `***text***`: strong around emphasis.
    pub(super) fn strong_em(&mut self, data: &str, from: usize, index: usize) -> Option<Found> {
        let mut from = from;
        while let Some(offset) = data[from..].find("***") {
            let p = from + offset;
            let content = p + 3;
            let end = emphasis_run_end(data, content);
            if data[end..].starts_with("***") && trimmed_content(data, content, end) {
                let inner = self.handle(data[content..end].to_owned(), index + 1);
                let em = self.stash_node(Stashed::Element(Elem::atomic("em", inner)))?;
                let strong = Elem::atomic("strong", em.to_string());
                return Some(Found::new(p, end + 3, Stashed::Element(strong)));
            }
            from = p + 1;
        }
        None
    }
}

/// `$$tex$$` on one line, not touching other dollars or word characters: KaTeX's HTML, or the
/// source in a `tex-error` span when KaTeX rejects it (or there is none, or the body holds
/// another pattern's placeholder, which KaTeX would see as Zulip's placeholder text).
pub(super) fn tex(data: &str, from: usize, katex: Option<&dyn MathRenderer>) -> Option<Found> {
    let bytes = data.as_bytes();
    let mut from = from;
    while let Some(offset) = data[from..].find("$$") {
        let p = from + offset;
        from = p + 1;
        let before = super::char_before(data, p);
        if before.is_some_and(|c| c == '$' || is_word(c)) {
            continue;
        }
        let body = p + 2;
        match bytes.get(body) {
            None | Some(b'\n' | b'_' | b'$') => continue,
            Some(_) => {}
        }
        // The body runs to the first unescaped `$` or newline; it may end at any `$$` reachable
        // with `\$` read as an escape or as a backslash. Python tries the longest body first.
        let mut candidates = Vec::new();
        let mut i = body + data[body..].chars().next().map_or(1, char::len_utf8);
        loop {
            if data[i..].starts_with("$$") {
                candidates.push(i);
            }
            match bytes.get(i) {
                None | Some(b'\n' | b'$') => break,
                Some(b'\\') if bytes.get(i + 1) == Some(&b'$') => {
                    if data[i + 1..].starts_with("$$") {
                        candidates.push(i + 1);
                    }
                    i += 2;
                }
                Some(_) => i += data[i..].chars().next().map_or(1, char::len_utf8),
            }
        }
        for close in candidates.into_iter().rev() {
            let after = close + 2;
            if bytes.get(after) == Some(&b'$') {
                continue;
            }
            if data[after..].chars().next().is_some_and(is_word) {
                continue;
            }
            let source = &data[p..after];
            let body = &source[2..source.len() - 2];
            let katex = katex.filter(|_| !body.chars().any(super::is_placeholder));
            if let Some(html) = math::inline_html(body, katex) {
                return Some(Found::new(p, after, Stashed::Raw(html)));
            }
            let span = Elem::atomic("span", source).attr("class", "tex-error");
            return Some(Found::new(p, after, Stashed::Element(span)));
        }
    }
    None
}

pub(super) fn entity(data: &str, from: usize) -> Option<Found> {
    let m = ENTITY_RE.find_at(data, from)?;
    Some(Found::new(m.start(), m.end(), Stashed::Raw(m.as_str().to_owned())))
}

/// `**text**` on one line (the text may hold single asterisks).
pub(super) fn strong(data: &str, from: usize) -> Option<Found> {
    let mut from = from;
    // The end of the line of the last candidate, found once per line.
    let mut line_end = 0;
    while let Some(offset) = data[from..].find("**") {
        let p = from + offset;
        from = p + 1;
        if p >= line_end {
            line_end = data[p..].find('\n').map_or(data.len(), |i| p + i);
        }
        let content = p + 2;
        // At least one character of content, then the closing pair.
        let Some(first) = data[content..line_end].chars().next() else { continue };
        let search_from = content + first.len_utf8();
        if let Some(close) = data[search_from..line_end].find("**") {
            let close = search_from + close;
            let elem = Elem::new("strong", &data[content..close]);
            return Some(Found::new(p, close + 2, Stashed::Element(elem)));
        }
    }
    None
}

/// `*text*` whose text has no `*`, `^` or newline and does not start or end with whitespace.
pub(super) fn emphasis(data: &str, from: usize) -> Option<Found> {
    let mut from = from;
    while let Some(offset) = data[from..].find('*') {
        let p = from + offset;
        from = p + 1;
        let content = p + 1;
        let end = emphasis_run_end(data, content);
        if data[end..].starts_with('*') && trimmed_content(data, content, end) {
            let elem = Elem::new("em", &data[content..end]);
            return Some(Found::new(p, end + 1, Stashed::Element(elem)));
        }
    }
    None
}

/// `~~text~~` on one line, not part of a longer run of tildes.
pub(super) fn del(data: &str, from: usize) -> Option<Found> {
    let mut from = from;
    while let Some(offset) = data[from..].find("~~") {
        let p = from + offset;
        from = p + 1;
        if super::char_before(data, p) == Some('~') {
            continue;
        }
        let content = p + 2;
        let end = data[content..].find(['~', '\n']).map_or(data.len(), |i| content + i);
        if end > content && data[end..].starts_with("~~") && !data[end + 2..].starts_with('~') {
            let elem = Elem::new("del", &data[content..end]);
            return Some(Found::new(p, end + 2, Stashed::Element(elem)));
        }
    }
    None
}

/// A lone `*` or `_` between spaces stays as typed (with the spaces around it).
pub(super) fn not_strong(data: &str, from: usize) -> Option<Found> {
    let m = NOT_STRONG_RE.find_at(data, from)?;
    Some(Found::new(m.start(), m.end(), Stashed::Text(m.as_str().to_owned())))
}

/// Every newline is a `<br>` (Zulip's `nl2br`).
pub(super) fn line_break(data: &str, from: usize) -> Option<Found> {
    let p = from + data[from..].find('\n')?;
    Some(Found::new(p, p + 1, Stashed::Element(Elem::atomic("br", ""))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code_span(data: &str) -> Option<Found> {
        CodeSpans::new(data).find(data, 0)
    }

    fn span(found: Option<Found>) -> Option<(usize, usize)> {
        found.map(|f| (f.start, f.end))
    }

    #[test]
    fn code_spans_match_like_python_markdown() {
        assert_eq!(span(code_span("a `b` c")), Some((2, 5)));
        assert_eq!(span(code_span("``a`")), Some((0, 4)));
        assert_eq!(span(code_span("\\`a`")), None);
        assert_eq!(span(code_span("``` x ```")), Some((0, 9)));
        assert_eq!(span(code_span("`a``")), None);
    }

    #[test]
    fn emphasis_needs_trimmed_content() {
        assert_eq!(span(emphasis("const char *x = (char *)y", 0)), None);
        assert_eq!(span(emphasis("a *b c* d", 0)), Some((2, 7)));
        assert_eq!(span(emphasis("*a^b*", 0)), None);
        assert_eq!(span(strong("**a*b**", 0)), Some((0, 7)));
        assert_eq!(span(strong("**a\nb**", 0)), None);
        assert_eq!(span(del("~~~a~~", 0)), None);
        assert_eq!(span(del("~~a~~", 0)), Some((0, 5)));
    }

    #[test]
    fn math_follows_zulips_boundaries() {
        assert_eq!(span(tex("$$x$$", 0, None)), Some((0, 5)));
        assert_eq!(span(tex("a$$x$$", 0, None)), None);
        assert_eq!(span(tex("$$_$$", 0, None)), None);
        assert_eq!(span(tex("($$x \\approx 5\\$$$)", 0, None)), Some((1, 18)));
        assert_eq!(span(tex("$$$ and $$$$", 0, None)), None);
        assert_eq!(span(tex("$$x\ny$$", 0, None)), None);
    }
}
