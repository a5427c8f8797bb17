//! Full-text search: how message text becomes index words, and how a query matches.
//!
//! A message is indexed under every distinct word of its content (Markdown source) and topic:
//! maximal runs of alphanumeric characters, lower-cased. A query's words must all be words of
//! the message; a quoted phrase must appear as a substring. Matching is exact per word (no
//! stemming): Zulip's PostgreSQL search stems English words, which Confab does not.

use std::collections::BTreeSet;

/// The longest word indexed; longer runs (hashes, base64) are not useful search terms.
pub const MAX_WORD_CHARS: usize = 40;

/// The distinct index words of a text.
pub fn words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty() && w.chars().count() <= MAX_WORD_CHARS)
        .map(str::to_lowercase)
        .collect()
}

/// The index words of a message: its content's and its topic's.
pub fn message_words(content: &str, topic: &str) -> BTreeSet<String> {
    let mut all = words(content);
    all.extend(words(topic));
    all
}

/// One part of a search query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchTerm {
    /// A word that must be an index word of the message.
    Word(String),
    /// A quoted phrase that must appear in the content or topic, case-insensitively.
    Phrase(String),
}

/// Splits a query into words and `"quoted phrases"`.
pub fn parse_query(query: &str) -> Vec<SearchTerm> {
    let mut terms = Vec::new();
    let push_words = |text: &str, terms: &mut Vec<SearchTerm>| {
        terms.extend(words(text).into_iter().map(SearchTerm::Word));
    };
    let mut rest = query;
    while let Some(start) = rest.find('"') {
        push_words(&rest[..start], &mut terms);
        let after = &rest[start + 1..];
        match after.find('"') {
            Some(end) => {
                let phrase = after[..end].trim().to_lowercase();
                if !phrase.is_empty() {
                    terms.push(SearchTerm::Phrase(phrase));
                }
                rest = &after[end + 1..];
            }
            None => rest = after,
        }
    }
    push_words(rest, &mut terms);
    terms
}

/// Whether a message's content and topic satisfy every term.
pub fn matches(terms: &[SearchTerm], content: &str, topic: &str) -> bool {
    let indexed = message_words(content, topic);
    let (content, topic) = (content.to_lowercase(), topic.to_lowercase());
    terms.iter().all(|term| match term {
        SearchTerm::Word(word) => indexed.contains(word),
        SearchTerm::Phrase(phrase) => content.contains(phrase.as_str()) || topic.contains(phrase.as_str()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_lowercased_alphanumeric_runs() {
        let found: Vec<String> = words("Lunch at 12:30, café? CAFÉ!").into_iter().collect();
        assert_eq!(found, vec!["12", "30", "at", "café", "lunch"]);
    }

    #[test]
    fn queries_split_into_words_and_phrases() {
        assert_eq!(
            parse_query(r#"Lunch "at noon" today"#),
            vec![
                SearchTerm::Word("lunch".into()),
                SearchTerm::Phrase("at noon".into()),
                SearchTerm::Word("today".into())
            ]
        );
    }

    #[test]
    fn every_term_must_match() {
        let terms = parse_query(r#"pizza "at noon""#);
        assert!(matches(&terms, "Pizza at noon?", "lunch"));
        assert!(!matches(&terms, "Pizza at 1pm", "lunch"));
        assert!(!matches(&parse_query("piz"), "pizza", ""), "words match whole, not as prefixes");
        assert!(matches(&parse_query("lunch"), "pizza", "Lunch plans"), "topics are searched too");
    }
}

/// Wraps each occurrence of a search term in `<span class="highlight">`, in the text of some
/// HTML (never inside tags), as Zulip's `match_content` does.
pub fn highlight_html(html: &str, terms: &[SearchTerm]) -> String {
    let needles: Vec<String> = terms
        .iter()
        .map(|t| match t {
            SearchTerm::Word(w) | SearchTerm::Phrase(w) => w.clone(),
        })
        .filter(|n| !n.is_empty())
        .collect();
    let mut out = String::with_capacity(html.len() + 32);
    let mut rest = html;
    while !rest.is_empty() {
        if rest.starts_with('<') {
            let end = rest.find('>').map_or(rest.len(), |i| i + 1);
            out.push_str(&rest[..end]);
            rest = &rest[end..];
            continue;
        }
        let end = rest.find('<').unwrap_or(rest.len());
        out.push_str(&highlight_text(&rest[..end], &needles));
        rest = &rest[end..];
    }
    out
}

/// Highlights the needles in plain text, matching whole words case-insensitively.
fn highlight_text(text: &str, needles: &[String]) -> String {
    let lower = text.to_lowercase();
    // Lower-casing can change byte lengths; fall back to no highlighting rather than misplace.
    if lower.len() != text.len() {
        return text.to_owned();
    }
    let mut marks: Vec<(usize, usize)> = Vec::new();
    for needle in needles {
        let mut from = 0;
        while let Some(found) = lower[from..].find(needle.as_str()) {
            let start = from + found;
            let end = start + needle.len();
            let before_ok = lower[..start].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
            let after_ok = lower[end..].chars().next().is_none_or(|c| !c.is_alphanumeric());
            if before_ok && after_ok {
                marks.push((start, end));
            }
            from = end;
        }
    }
    marks.sort_unstable();
    let mut out = String::with_capacity(text.len() + marks.len() * 32);
    let mut at = 0;
    for (start, end) in marks {
        if start < at {
            continue;
        }
        out.push_str(&text[at..start]);
        out.push_str("<span class=\"highlight\">");
        out.push_str(&text[start..end]);
        out.push_str("</span>");
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

#[cfg(test)]
mod highlight_tests {
    use super::*;

    #[test]
    fn highlights_whole_words_outside_tags() {
        let terms = parse_query("pizza");
        assert_eq!(
            highlight_html("<p>Pizza? <a href=\"pizza\">pizzas</a></p>", &terms),
            "<p><span class=\"highlight\">Pizza</span>? <a href=\"pizza\">pizzas</a></p>"
        );
    }
}
