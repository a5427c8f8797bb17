//! How a typed query matches a name, and how well: Zulip's typeahead rules
//! (`web/shared/src/typeahead.ts`, `common.phrase_match`), shared by the search suggestions and
//! the compose typeaheads.
//!
//! Zulip strips diacritics with Unicode NFKD; core has no normalization tables, so [`fold`]
//! folds the Latin letters of Latin-1 and Latin Extended-A (`é` → `e`, `ß` stays), which covers
//! the names Zulip's tests use.

/// How well a query matches a name, best first (Zulip's `triage_raw` groups).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tier {
    /// The whole name, ignoring case and diacritics.
    Exact,
    /// The name starts with the query as typed.
    Prefix,
    /// The name starts with the query, ignoring case and diacritics.
    PrefixFolded,
    /// A word of the name (after a space, `_`, `/` or `-`) starts with the query.
    WordBoundary,
    /// None of these (the name may still contain the query).
    Other,
}

/// Characters after which a word starts, for [`Tier::WordBoundary`].
const WORD_BOUNDARIES: [char; 4] = [' ', '_', '/', '-'];

/// Lower-cased, without the diacritics of Latin letters.
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
        } else if let Some(base) = latin_base(c) {
            out.push(base);
        } else {
            out.extend(c.to_lowercase());
        }
    }
    out
}

/// The base letter of a Latin letter with diacritics (lower-cased).
fn latin_base(c: char) -> Option<char> {
    // One letter per code point from U+00C0 to U+017F; `*` keeps the character.
    const LATIN_1: &str = "aaaaaaaceeeeiiiidnooooo*ouuuuyt*aaaaaaaceeeeiiiidnooooo*ouuuuyty";
    const EXTENDED_A: &str = "aaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiii**jjkkkllllllllllnnnnnnnnnoooooo**rrrrrrssssssssttttttuuuuuuuuuuuuwwyyyzzzzzzs";
    let code = c as u32;
    let letter = match code {
        0xC0..=0xFF => LATIN_1.as_bytes().get((code - 0xC0) as usize),
        0x100..=0x17F => EXTENDED_A.as_bytes().get((code - 0x100) as usize),
        _ => None,
    };
    letter.filter(|b| **b != b'*').map(|b| *b as char)
}

/// A query as typed and folded (folded once, compared with many names).
#[derive(Clone, Debug)]
pub struct Query {
    pub typed: String,
    pub folded: String,
}

impl Query {
    pub fn new(typed: &str) -> Query {
        Query { typed: typed.to_owned(), folded: fold(typed) }
    }

    pub fn is_empty(&self) -> bool {
        self.typed.is_empty()
    }
}

/// How well the query matches a name (`folded_name` is `fold(name)`).
pub fn tier(query: &Query, name: &str, folded_name: &str) -> Tier {
    if folded_name == query.folded {
        Tier::Exact
    } else if name.starts_with(&query.typed) {
        Tier::Prefix
    } else if folded_name.starts_with(&query.folded) {
        Tier::PrefixFolded
    } else if starts_a_word(folded_name, &query.folded) {
        Tier::WordBoundary
    } else {
        Tier::Other
    }
}

/// Whether `query` follows a word boundary somewhere in `text` (both folded).
fn starts_a_word(text: &str, query: &str) -> bool {
    text.match_indices(query).any(|(at, _)| text[..at].ends_with(WORD_BOUNDARIES))
}

/// Zulip's `query_matches_string_in_order`: a one-word query matches anywhere; a query with the
/// separator must start where a word of the source starts (`folded_source` is folded).
pub fn matches_in_order(query: &Query, folded_source: &str, separator: char) -> bool {
    let query = query.folded.as_str();
    if !query.contains(separator) {
        return folded_source.contains(query);
    }
    folded_source.starts_with(query)
        || folded_source.match_indices(query).any(|(at, _)| folded_source[..at].ends_with(separator))
}

/// Zulip's `phrase_match`: the phrase, or one of its words, starts with the query
/// (`folded_phrase` is folded).
pub fn phrase_match(query: &Query, folded_phrase: &str) -> bool {
    let query = query.folded.as_str();
    folded_phrase.starts_with(query) || folded_phrase.split(' ').any(|word| word.starts_with(query))
}

/// Zulip's person matcher for the search bar (`people.build_person_matcher`): every word of the
/// query starts a word of the name, or the email starts with the query (both folded).
pub fn person_matches(query: &Query, folded_name: &str, folded_email: &str) -> bool {
    let query = query.folded.trim();
    if folded_email.starts_with(query) {
        return true;
    }
    query.split_whitespace().all(|termlet| folded_name.split(' ').any(|word| word.starts_with(termlet)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tier_of(query: &str, name: &str) -> Tier {
        tier(&Query::new(query), name, &fold(name))
    }

    fn in_order(query: &str, source: &str, separator: char) -> bool {
        matches_in_order(&Query::new(query), &fold(source), separator)
    }

    fn phrase(query: &str, phrase: &str) -> bool {
        phrase_match(&Query::new(query), &fold(phrase))
    }

    fn person(query: &str, name: &str, email: &str) -> bool {
        person_matches(&Query::new(query), &fold(name), &fold(email))
    }

    #[test]
    fn names_are_triaged_as_zulip_does() {
        assert_eq!(tier_of("iago", "Iago"), Tier::Exact);
        assert_eq!(tier_of("Ia", "Iago"), Tier::Prefix);
        assert_eq!(tier_of("ia", "Iago"), Tier::PrefixFolded);
        assert_eq!(tier_of("ham", "King Hamlet"), Tier::WordBoundary);
        assert_eq!(tier_of("ive", "frontend-live"), Tier::Other);
        assert_eq!(tier_of("live", "frontend-live"), Tier::WordBoundary);
        assert_eq!(tier_of("jose", "José"), Tier::Exact);
    }

    #[test]
    fn in_order_matching_needs_word_starts_only_for_several_words() {
        // typeahead.ts's examples.
        assert!(in_order("cd ef", "ab cd ef", ' '));
        assert!(in_order("ab c", "ab cd ef", ' '));
        assert!(!in_order("b cd ef", "ab cd ef", ' '));
        assert!(in_order("mlet", "King Hamlet", ' '));
        assert!(in_order("thumbs_u", "thumbs_up", '_'));
    }

    #[test]
    fn phrases_match_at_word_starts() {
        // common.phrase_match: "tes" matches "test" and "stream test", not "hostess".
        assert!(phrase("tes", "test"));
        assert!(phrase("tes", "stream test"));
        assert!(!phrase("tes", "hostess"));
    }

    #[test]
    fn people_match_by_every_word_or_by_email() {
        assert!(person("king ha", "King Hamlet", "hamlet@zulip.com"));
        assert!(person("ham kin", "King Hamlet", "hamlet@zulip.com"));
        assert!(person("hamlet@", "King Hamlet", "hamlet@zulip.com"));
        assert!(!person("amlet", "King Hamlet", "hamlet@zulip.com"));
    }

    #[test]
    fn latin_diacritics_fold_away() {
        assert_eq!(fold("Ærøskøbing Çağlar Żółw"), "aroskobing caglar zolw");
        assert_eq!(fold("Straße"), "straße");
    }
}
