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
