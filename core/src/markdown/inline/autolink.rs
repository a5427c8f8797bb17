//! Bare URLs, by Zulip's link regex written out as a matcher: `http(s)://host[/path]`, or
//! `name.name.tld[/path]` with a real top-level domain (`readme.md`, `views.py` stay text), or an
//! e-mail address, or a `bitcoin:` address. A link starts at the beginning of the text, after
//! whitespace or after one of `'"(,:<`; it must be followed by optional `!:;?),.'">` and then
//! whitespace or the end; paths may hold balanced parentheses up to 7 deep.

use std::collections::HashMap;

use super::{Engine, Found, Stashed, is_space, is_word};
use crate::markdown::data::tlds::{LONGEST_TLD, TLDS};
use crate::markdown::fence::HtmlStash;

/// Punctuation a link may be followed by before whitespace or the end.
fn is_trailing_punctuation(c: char) -> bool {
    matches!(c, '!' | ':' | ';' | '?' | ')' | ',' | '.' | '\'' | '"' | '>')
}

fn may_start_after(c: char) -> bool {
    is_space(c) || matches!(c, '\'' | '"' | '(' | ',' | ':' | '<')
}

fn is_host_char(c: char) -> bool {
    is_word(c) || matches!(c, '.' | ':' | '@' | '-')
}

fn is_tld(s: &str) -> bool {
    TLDS.binary_search(&s).is_ok()
}

/// The matcher works on byte offsets and looks only as far as it needs, so that searching from
/// an offset costs what it reads, not the length of the text.
struct Matcher<'t> {
    text: &'t str,
    /// Whether a link may end at an offset (memoized per run of trailing punctuation).
    ends: HashMap<usize, bool>,
    /// Path ends already computed, by the offset right after the `/`.
    path_ends: HashMap<usize, Option<usize>>,
}

impl<'t> Matcher<'t> {
    fn new(text: &'t str) -> Matcher<'t> {
        Matcher { text, ends: HashMap::new(), path_ends: HashMap::new() }
    }

    fn char_at(&self, i: usize) -> Option<char> {
        self.text.get(i..)?.chars().next()
    }

    /// Whether a link may end at `i`: optional trailing punctuation, then whitespace or the end.
    fn may_end(&mut self, i: usize) -> bool {
        if let Some(known) = self.ends.get(&i) {
            return *known;
        }
        let mut visited = vec![i];
        let mut j = i;
        let result = loop {
            match self.char_at(j) {
                None => break true,
                Some(c) if is_trailing_punctuation(c) => {
                    j += c.len_utf8();
                    if let Some(known) = self.ends.get(&j) {
                        break *known;
                    }
                    visited.push(j);
                }
                Some(c) => break is_space(c),
            }
        };
        for v in visited {
            self.ends.insert(v, result);
        }
        result
    }

    /// The byte length of the run of characters satisfying `f` from `i`.
    fn run(&self, i: usize, f: impl Fn(char) -> bool) -> usize {
        self.text.get(i..).map_or(0, |rest| rest.chars().take_while(|c| f(*c)).map(char::len_utf8).sum())
    }

    /// The first end of a path starting with the `/` at `slash`: balanced parentheses (7 deep at
    /// most), no whitespace or `"`, and a place where the link may end.
    fn path_end(&mut self, slash: usize) -> Option<usize> {
        let mut depth = 0usize;
        let mut visited = Vec::new();
        let mut q = slash + 1;
        let result = loop {
            if depth == 0 {
                if let Some(known) = self.path_ends.get(&q) {
                    break *known;
                }
                visited.push(q);
                if self.may_end(q) {
                    break Some(q);
                }
            }
            let Some(c) = self.char_at(q) else { break None };
            // Zulip would take a placeholder into the URL (and its href); we end the URL there.
            if is_space(c) || c == '"' || super::is_placeholder(c) || HtmlStash::is_marker(c) {
                break None;
            }
            match c {
                '(' if depth == 7 => break None,
                '(' => depth += 1,
                ')' if depth == 0 => break None,
                ')' => depth -= 1,
                _ => {}
            }
            q += c.len_utf8();
        };
        for v in visited {
            self.path_ends.insert(v, result);
        }
        result
    }

    /// The end of a link at `end` (after host or domain): with a path if one follows, else here.
    fn finish(&mut self, end: usize, path_allowed: bool) -> Option<usize> {
        if path_allowed
            && self.char_at(end) == Some('/')
            && let Some(e) = self.path_end(end)
        {
            return Some(e);
        }
        self.may_end(end).then_some(end)
    }

    fn http(&mut self, s: usize) -> Option<usize> {
        let rest = &self.text[s..];
        let host = if rest.starts_with("http://") {
            s + 7
        } else if rest.starts_with("https://") {
            s + 8
        } else {
            return None;
        };
        let run_end = host + self.run(host, is_host_char);
        // The host is matched lazily: the shortest one after which the link can end wins.
        let mut k = host;
        while let Some(c) = self.char_at(k).filter(|_| k < run_end) {
            k += c.len_utf8();
            if let Some(e) = self.finish(k, k == run_end) {
                return Some(e);
            }
        }
        None
    }

    fn domain(&mut self, s: usize) -> Option<usize> {
        // Ends of `word.` components, longest first.
        let mut component_ends = Vec::new();
        let mut i = s;
        loop {
            let run = self.run(i, |c| is_word(c) || c == '-');
            if run == 0 || self.char_at(i + run) != Some('.') {
                break;
            }
            i += run + 1;
            component_ends.push(i);
        }
        for &t in component_ends.iter().rev() {
            let candidate: String = self.text[t..].chars().take(LONGEST_TLD).collect();
            let mut lengths: Vec<usize> = candidate.char_indices().map(|(i, c)| i + c.len_utf8()).collect();
            lengths.reverse();
            for len in lengths {
                if !is_tld(&candidate[..len]) {
                    continue;
                }
                if let Some(e) = self.finish(t + len, true) {
                    return Some(e);
                }
            }
        }
        None
    }

    fn email(&mut self, s: usize) -> Option<usize> {
        let email_char = |c: char| is_word(c) || matches!(c, '.' | '-');
        let local = self.run(s, email_char);
        if local == 0 || self.char_at(s + local) != Some('@') {
            return None;
        }
        let d = s + local + 1;
        let run = self.run(d, email_char);
        let dots: Vec<usize> =
            self.text[d..d + run].match_indices('.').map(|(i, _)| d + i).filter(|i| *i > d).collect();
        for dot in dots.into_iter().rev() {
            let word = self.run(dot + 1, is_word);
            if word > 0 && self.may_end(dot + 1 + word) {
                return Some(dot + 1 + word);
            }
        }
        None
    }

    fn bitcoin(&mut self, s: usize) -> Option<usize> {
        let rest = &self.text[s..];
        if !rest.starts_with("bitcoin:") || !matches!(rest.as_bytes().get(8), Some(b'1' | b'3')) {
            return None;
        }
        let body = s + 9;
        let is_base58 = |c: char| c.is_ascii_alphanumeric() && !matches!(c, '0' | 'O' | 'I' | 'l');
        let run = self.run(body, is_base58).min(34);
        (25..=run).rev().map(|n| body + n).find(|e| self.may_end(*e))
    }

    fn at(&mut self, s: usize) -> Option<usize> {
        self.http(s).or_else(|| self.domain(s)).or_else(|| self.email(s)).or_else(|| self.bitcoin(s))
    }
}

/// The first link in `text` by Zulip's rules, as a byte range.
pub(crate) fn find_url(text: &str) -> Option<(usize, usize)> {
    find_url_from(text, 0)
}

/// The first link starting at or after byte `from`.
fn find_url_from(text: &str, from: usize) -> Option<(usize, usize)> {
    let mut matcher = Matcher::new(text);
    let mut before = super::char_before(text, from);
    for (offset, c) in text[from..].char_indices() {
        let s = from + offset;
        if before.is_none_or(may_start_after)
            && let Some(e) = matcher.at(s)
            && e > s
        {
            return Some((s, e));
        }
        before = Some(c);
    }
    None
}

impl Engine<'_> {
    pub(super) fn autolink(&mut self, data: &str, from: usize) -> Option<Found> {
        let (start, end) = find_url_from(data, from)?;
        let url = &data[start..end];
        let node = match self.url_to_a(url, url.to_owned()) {
            Some(a) => Stashed::Element(a),
            None => Stashed::Text(url.to_owned()),
        };
        Some(Found::new(start, end, node))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(text: &str) -> Option<&str> {
        find_url(text).map(|(s, e)| &text[s..e])
    }

    #[test]
    fn links_are_found_as_zulip_finds_them() {
        assert_eq!(url("see https://example.com/a_(b)."), Some("https://example.com/a_(b)"));
        assert_eq!(url("(http://example.com/x)"), Some("http://example.com/x"));
        assert_eq!(url("go to example.org please"), Some("example.org"));
        assert_eq!(url("t.co"), Some("t.co"));
        assert_eq!(url("readme.md"), None);
        assert_eq!(url("python views.py is"), None);
        assert_eq!(url("a.commandstuff()"), None);
        assert_eq!(url("love...it"), None);
        assert_eq!(url("http://localhost:9991/?x=1"), Some("http://localhost:9991/?x=1"));
        assert_eq!(url("mail a@b.com."), Some("a@b.com"));
        assert_eq!(url("a@b.com/foo"), None);
        assert_eq!(url("javascript:foo.com"), Some("foo.com"));
        assert_eq!(url("javascript://foo.com"), None);
        assert_eq!(url("x https://a.com/(1(2(3(4(5(6(7(8)))))))) y"), None);
        assert_eq!(
            url("x https://a.com/(1(2(3(4(5(6(7)))))))) y"),
            Some("https://a.com/(1(2(3(4(5(6(7)))))))")
        );
        assert_eq!(url("http://foo.com: bar"), Some("http://foo.com"));
        assert_eq!(
            url("bitcoin:1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa or"),
            Some("bitcoin:1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa")
        );
        assert_eq!(url("Example.COM"), None);
    }
}
