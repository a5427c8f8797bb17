//! Alert words: which users' words occur in a message, as Zulip's `AlertWordNotificationProcessor`
//! finds them: case-insensitively, in the source after fenced blocks are taken out (so words in
//! code blocks do not count, words in inline code do), with a space, newline or one of
//! `(".,';[*`>` before the word (or the start) and a space, newline or one of `)?:.,';]!*`` after
//! it (or the end). A `"` after the word does not count, as in Zulip.

use std::collections::{BTreeMap, BTreeSet};

use super::context::Rendering;

fn allowed_before(c: char) -> bool {
    matches!(c, ' ' | '\n' | '(' | '"' | '.' | ',' | '\'' | ';' | '[' | '*' | '`' | '>')
}

fn allowed_after(c: char) -> bool {
    matches!(c, ' ' | '\n' | ')' | '?' | ':' | '.' | ',' | '\'' | ';' | ']' | '!' | '*' | '`')
}

/// Whether `word` occurs in `content` with allowed characters around it.
fn occurs(content: &[char], word: &[char]) -> bool {
    if word.is_empty() || word.len() > content.len() {
        return false;
    }
    (0..=content.len() - word.len()).any(|start| {
        content[start..start + word.len()] == *word
            // Zulip checks the character before the word, accepting any at index 0 (a word
            // starting at the second character is always accepted).
            && (start <= 1 || allowed_before(content[start - 1]))
            && content.get(start + word.len()).is_none_or(|c| allowed_after(*c))
    })
}

/// Which of these users' alert words occur in the message.
pub fn alert_word_hits(rendering: &Rendering, words_by_user: &[(u64, Vec<String>)]) -> BTreeSet<u64> {
    let content: Vec<char> = rendering.alert_text.to_lowercase().chars().collect();
    let mut users_by_word: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    for (user, words) in words_by_user {
        for word in words {
            users_by_word.entry(word.to_lowercase()).or_default().push(*user);
        }
    }
    let mut hits = BTreeSet::new();
    for (word, users) in users_by_word {
        if users.iter().all(|u| hits.contains(u)) {
            continue;
        }
        let word: Vec<char> = word.chars().collect();
        if occurs(&content, &word) {
            hits.extend(users);
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hits(text: &str, words: &[(u64, &[&str])]) -> BTreeSet<u64> {
        let rendering = Rendering { alert_text: text.to_owned(), ..Rendering::default() };
        let words: Vec<(u64, Vec<String>)> =
            words.iter().map(|(u, w)| (*u, w.iter().map(|s| (*s).to_owned()).collect())).collect();
        alert_word_hits(&rendering, &words)
    }

    #[test]
    fn words_match_on_zulips_boundaries() {
        assert_eq!(hits("We have an ALERTWORD day", &[(1, &["alertword"]), (2, &["nothing"])]), [1].into());
        assert_eq!(hits("hello how are you", &[(1, &["how are you"]), (2, &["are yo"])]), [1].into());
        assert_eq!(hits("issue124 done", &[(1, &["issue12"])]), BTreeSet::new());
        assert_eq!(hits("(énormément) ok", &[(1, &["énormément"])]), [1].into());
        assert_eq!(hits("say \"word\"", &[(1, &["word"])]), BTreeSet::new());
    }
}
