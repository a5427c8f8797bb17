//! `[text](url "title")` links, parsed as Python-Markdown does (nested brackets and parentheses
//! counted, an optional quoted title), then sanitized as Zulip does. Zulip has no images
//! (`![…](…)` is not a link, but an audio player for an audio file: `audio.rs`) and no
//! reference links.

use super::{Engine, Found, Stashed, audio, char_before};

/// The bracketed text starting after the `[` at `open`: (text, index after `]`).
fn link_text(data: &str, open: usize) -> Option<(&str, usize)> {
    let mut depth = 1usize;
    for (i, c) in data[open + 1..].char_indices() {
        match c {
            ']' => depth -= 1,
            '[' => depth += 1,
            _ => {}
        }
        if depth == 0 {
            let end = open + 1 + i;
            return Some((&data[open + 1..end], end + 1));
        }
    }
    None
}

fn dequote(s: &str) -> &str {
    let b = s.as_bytes();
    if b.len() >= 2 && b[0] == b[b.len() - 1] && matches!(b[0], b'"' | b'\'') {
        &s[1..s.len() - 1]
    } else {
        s
    }
}

/// The `(href "title")` part at `index`: (href, title, index after it).
fn link_target(data: &str, index: usize) -> Option<(String, Option<String>, usize)> {
    let rest = data.get(index..)?;
    let after_paren = rest.strip_prefix('(')?;
    let spaces = after_paren.len() - after_paren.trim_start_matches(super::is_space).len();
    let start = index + 1 + spaces;
    if let Some(angle) = angle_target(data, start) {
        return Some(angle);
    }
    // Python-Markdown's bracket and quote tracking.
    let mut bracket_count: i64 = 1;
    let mut backtrack_count: i64 = 1;
    let mut last_bracket: Option<usize> = None;
    let (mut quote, mut start_quote, mut exit_quote): (Option<char>, usize, Option<usize>) = (None, 0, None);
    let (mut alt_quote, mut start_alt, mut exit_alt): (Option<char>, usize, Option<usize>) = (None, 0, None);
    let mut ignore_matches = false;
    let mut last: Option<char> = None;
    let mut found: Option<(String, Option<String>, usize)> = None;
    for (offset, c) in data[start..].char_indices() {
        let pos = start + offset;
        let next = pos + c.len_utf8();
        match c {
            '(' => {
                if !ignore_matches {
                    bracket_count += 1;
                } else if backtrack_count > 0 {
                    backtrack_count -= 1;
                }
            }
            ')' => {
                if (exit_quote.is_some() && quote == last) || (exit_alt.is_some() && alt_quote == last) {
                    bracket_count = 0;
                } else if !ignore_matches {
                    bracket_count -= 1;
                } else if backtrack_count > 0 {
                    backtrack_count -= 1;
                    if backtrack_count == 0 {
                        last_bracket = Some(next);
                    }
                }
            }
            '\'' | '"' => {
                if quote.is_none() {
                    ignore_matches = true;
                    backtrack_count = bracket_count;
                    bracket_count = 1;
                    start_quote = next;
                    quote = Some(c);
                } else if Some(c) != quote && alt_quote.is_none() {
                    start_alt = next;
                    alt_quote = Some(c);
                } else if Some(c) == quote {
                    exit_quote = Some(next);
                } else if alt_quote == Some(c) {
                    exit_alt = Some(next);
                }
            }
            _ => {}
        }
        if bracket_count == 0 {
            let (href, title) = if let Some(exit) = exit_quote.filter(|_| quote == last) {
                (&data[start..start_quote - 1], Some(&data[start_quote..exit - 1]))
            } else if let Some(exit) = exit_alt.filter(|_| alt_quote == last) {
                (&data[start..start_alt - 1], Some(&data[start_alt..exit - 1]))
            } else {
                (&data[start..pos], None)
            };
            found = Some((href.to_owned(), title.map(str::to_owned), next));
            break;
        }
        if c != ' ' {
            last = Some(c);
        }
    }
    if found.is_none()
        && backtrack_count == 0
        && let Some(end) = last_bracket
    {
        found = Some((data[start..end - 1].to_owned(), None, end));
    }
    let (href, title, end) = found?;
    let title = title.map(|t| {
        dequote(t.trim()).chars().map(|c| if super::is_space(c) { ' ' } else { c }).collect::<String>()
    });
    Some((href.trim().to_owned(), title, end))
}

/// `(<href> "title")`.
fn angle_target(data: &str, start: usize) -> Option<(String, Option<String>, usize)> {
    let rest = data.get(start..)?.strip_prefix('<')?;
    let close = rest.find(['<', '>'])?;
    if !rest[close..].starts_with('>') {
        return None;
    }
    let href = rest[..close].trim().to_owned();
    let mut i = start + 1 + close + 1;
    i += data[i..].len() - data[i..].trim_start_matches(super::is_space).len();
    let mut title = None;
    if let Some(q) = data[i..].chars().next().filter(|c| *c == '"' || *c == '\'')
        && let Some(end) = data[i + 1..].find(q)
    {
        let t = &data[i + 1..i + 1 + end];
        title = Some(
            t.chars().map(|c| if super::is_space(c) { ' ' } else { c }).collect::<String>().trim().to_owned(),
        );
        i += end + 2;
        i += data[i..].len() - data[i..].trim_start_matches(super::is_space).len();
    }
    data[i..].starts_with(')').then(|| (href, title, i + 1))
}

impl Engine<'_> {
    pub(super) fn link(&mut self, data: &str, from: usize) -> Option<Found> {
        let from_start = from;
        let mut from = from;
        while let Some(offset) = data.get(from..)?.find('[') {
            let open = from + offset;
            from = open + 1;
            let Some((text, after_text)) = link_text(data, open) else { continue };
            let Some((href, title, end)) = link_target(data, after_text) else { continue };
            let href = self.plain_text(&href);
            if char_before(data, open) == Some('!') {
                let bang = open - 1;
                if bang >= from_start
                    && title.is_none()
                    && let Some(player) = self.audio(href.trim(), text)
                {
                    return Some(Found::new(bang, end, Stashed::Element(player)));
                }
                continue;
            }
            let Some(mut elem) = self.url_to_a(href.trim(), text.to_owned()) else { continue };
            if elem.text.trim().is_empty() {
                elem.text =
                    elem.attrs.iter().find(|(k, _)| *k == "href").map(|(_, v)| v.clone()).unwrap_or_default();
            }
            if let Some(title) = title {
                elem = elem.attr("title", self.plain_text(&title));
            }
            return Some(Found::new(open, end, Stashed::Element(elem)));
        }
        None
    }

    /// `![title](src)` as an audio player, when `src` is a safe URL of an audio file.
    fn audio(&self, src: &str, title: &str) -> Option<super::Elem> {
        let link = self.url_to_a(src, String::new())?;
        let src = link.attrs.into_iter().find(|(name, _)| *name == "href")?.1;
        audio::is_playable_audio(&src).then(|| audio::audio_player(src, &self.plain_text(title)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_parse_like_python_markdown() {
        let t = |s: &str| link_target(s, 0);
        assert_eq!(t("(http://a.b/c)"), Some(("http://a.b/c".into(), None, 14)));
        assert_eq!(t("(http://a.b/c_(d))x"), Some(("http://a.b/c_(d)".into(), None, 18)));
        assert_eq!(t("(http://a.b \"T\")"), Some(("http://a.b".into(), Some("T".into()), 16)));
        assert_eq!(t("(<http://a.b> 'T')"), Some(("http://a.b".into(), Some("T".into()), 18)));
        assert_eq!(t("(http://a.b"), None);
        assert_eq!(t("x"), None);
    }

    #[test]
    fn text_counts_brackets() {
        assert_eq!(link_text("[a [b] c](x)", 0), Some(("a [b] c", 9)));
        assert_eq!(link_text("[a", 0), None);
    }
}
