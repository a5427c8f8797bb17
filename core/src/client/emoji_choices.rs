//! The emoji typeahead and picker: Zulip's Unicode catalogue (names and aliases), the
//! organization's custom emoji and Zulip's own, ranked as Zulip's `sort_emojis`: the name
//! typed exactly, then the popular few whose name has a word starting with the query, then
//! matches by how good (custom emoji before Unicode ones in each), then the rest. One name per
//! Unicode emoji (the best-ranked; the canonical name among equals), and none whose name a
//! custom emoji has taken.
//!
//! Zulip's catalogue has categories for its picker; the catalogue core carries does not, so an
//! empty query lists the popular emoji, the custom ones, then the rest by name.

use std::collections::HashSet;

use crate::api::emoji::ZULIP_EMOJI;
use crate::markdown::{OrganizationSnapshot, unicode_emoji_catalogue, unicode_emoji_name};

use super::Engine;
use super::candidates::smallest;
use super::matching::{Query, Tier, matches_in_order, tier};
use super::types::{EmojiChoice, EmojiType};

/// Zulip's `popular_emojis`: +1, tada, smile, heart, working_on_it, octopus.
const POPULAR: [&str; 6] = ["1f44d", "1f389", "1f642", "2764", "1f6e0", "1f419"];

/// An emoji of the catalogue, with what ranks it.
struct Candidate {
    choice: EmojiChoice,
    /// An alias, not the emoji's canonical name.
    alias: bool,
}

impl Engine {
    /// Emoji whose name matches the query (spaces read as `_`; an emoji character typed finds
    /// itself), best first, at most `limit`. An empty query with a large limit is the whole
    /// catalogue, for a picker.
    pub fn complete_emoji(&self, query: &str, limit: usize) -> Vec<EmojiChoice> {
        let query = Query::new(&query.trim().replace(' ', "_").to_lowercase());
        let literal = emoji_code_of(&query.typed);
        let custom = OrganizationSnapshot::custom_emoji_from_register(
            self.state.get("realm_emoji").unwrap_or(&serde_json::Value::Null),
        );
        let custom_names: HashSet<&str> = custom.iter().map(|e| e.name.as_str()).collect();
        let custom = custom.iter().map(|e| Candidate {
            choice: EmojiChoice {
                name: e.name.clone(),
                code: e.id.to_string(),
                reaction_type: EmojiType::RealmEmoji,
                url: Some(e.source_url.clone()),
            },
            alias: false,
        });
        let zulip = Candidate {
            choice: EmojiChoice {
                name: ZULIP_EMOJI.to_owned(),
                code: ZULIP_EMOJI.to_owned(),
                reaction_type: EmojiType::ZulipExtraEmoji,
                url: None,
            },
            alias: false,
        };
        let unicode = unicode_emoji_catalogue().iter().filter(|(name, _)| !custom_names.contains(name)).map(
            |(name, code)| Candidate {
                choice: EmojiChoice {
                    name: (*name).to_owned(),
                    code: (*code).to_owned(),
                    reaction_type: EmojiType::UnicodeEmoji,
                    url: None,
                },
                alias: unicode_emoji_name(code) != Some(*name),
            },
        );
        let ranked: Vec<_> = custom
            .chain(std::iter::once(zulip))
            .chain(unicode)
            .enumerate()
            .filter(|(_, c)| {
                literal.as_deref() == Some(c.choice.code.as_str())
                    && c.choice.reaction_type == EmojiType::UnicodeEmoji
                    || matches_in_order(&query, &c.choice.name, '_')
            })
            .map(|(index, candidate)| (rank(&query, &candidate, index), candidate))
            .collect();
        // Every match is ranked (a picker asks for hundreds); the aliases are dropped after.
        let mut seen_codes = HashSet::new();
        smallest(ranked, usize::MAX)
            .into_iter()
            .filter(|c| {
                c.choice.reaction_type != EmojiType::UnicodeEmoji || seen_codes.insert(c.choice.code.clone())
            })
            .take(limit)
            .map(|c| c.choice)
            .collect()
    }
}

/// The sort key of a matching emoji (Zulip's `sort_emojis`).
fn rank(query: &Query, candidate: &Candidate, index: usize) -> (u8, usize, bool, Tier, bool, usize) {
    let choice = &candidate.choice;
    let unicode = choice.reaction_type == EmojiType::UnicodeEmoji;
    if choice.name == query.typed {
        return (0, 0, false, Tier::Exact, candidate.alias, index);
    }
    if let Some(place) = POPULAR.iter().position(|code| unicode && *code == choice.code)
        && choice.name.split('_').any(|piece| piece.starts_with(&query.typed))
    {
        return (1, place, false, Tier::Exact, candidate.alias, index);
    }
    // Emoji names are lower-case ASCII: folded already.
    let tier = tier(query, &choice.name, &choice.name);
    let group = if tier == Tier::Other { 3 } else { 2 };
    (group, 0, unicode, tier, candidate.alias, index)
}

/// The catalogue code of an emoji character typed as the query (`👍` is `1f44d`).
fn emoji_code_of(query: &str) -> Option<String> {
    if query.is_empty() || query.is_ascii() {
        return None;
    }
    let parts: Vec<String> =
        query.chars().filter(|c| *c != '\u{FE0F}').map(|c| format!("{:x}", c as u32)).collect();
    Some(parts.join("-"))
}

#[cfg(test)]
mod tests {
    use super::super::fixture::*;
    use super::*;

    fn names(query: &str, limit: usize) -> Vec<String> {
        engine().complete_emoji(query, limit).into_iter().map(|e| e.name).collect()
    }

    #[test]
    fn emoji_rank_as_zulip_sorts_them() {
        // The exact name first, then a popular one, then by how well the name matches.
        assert_eq!(names("thumbs_up", 3)[0], "thumbs_up");
        // 👍 is popular: "th" finds it by its name thumbs_up, "+" by +1.
        assert_eq!(names("th", 1), ["thumbs_up"]);
        assert_eq!(names("+", 1), ["+1"]);
        assert_eq!(names("octo", 2), ["octopus"]);
        let heart = names("heart", 4);
        assert_eq!(heart[0], "heart");
        assert!(heart[1..].iter().all(|name| name.starts_with("heart")), "{heart:?}");
        // Spaces are underscores; an emoji character finds itself.
        assert_eq!(names("thumbs up", 1), ["thumbs_up"]);
        assert_eq!(names("🐙", 1), ["octopus"]);
    }

    #[test]
    fn custom_emoji_come_first_and_carry_their_image() {
        let engine = engine();
        let green = engine.complete_emoji("green", 5);
        // The exact name first (Unicode's `green`), then the custom emoji.
        assert_eq!(green[0].name, "green");
        assert_eq!(green[1].name, "green_tick");
        assert_eq!(green[1].reaction_type, EmojiType::RealmEmoji);
        assert_eq!(green[1].code, "1");
        assert_eq!(green[1].url.as_deref(), Some("/user_avatars/2/emoji/images/1.png"));
        assert!(green[2..].iter().all(|e| e.reaction_type == EmojiType::UnicodeEmoji && e.url.is_none()));
        // Deactivated ones are gone; Zulip's own is there.
        assert!(engine.complete_emoji("old_logo", 5).iter().all(|e| e.name != "old_logo"));
        let zulip = &engine.complete_emoji("zulip", 1)[0];
        assert_eq!((zulip.code.as_str(), zulip.reaction_type), ("zulip", EmojiType::ZulipExtraEmoji));
    }

    #[test]
    fn each_emoji_appears_once() {
        let all = engine().complete_emoji("", usize::MAX);
        let mut codes: Vec<(&str, EmojiType)> =
            all.iter().map(|e| (e.code.as_str(), e.reaction_type)).collect();
        let count = codes.len();
        codes.sort_by_key(|(code, _)| *code);
        codes.dedup();
        assert_eq!(codes.len(), count);
        // The picker's order: the popular ones, then the custom ones, then the rest by name
        // (canonical names, not aliases: 👍 is +1).
        let first: Vec<&str> = all[..8].iter().map(|e| e.name.as_str()).collect();
        assert_eq!(
            first,
            ["+1", "tada", "smile", "heart", "working_on_it", "octopus", "green_tick", "zulip"]
        );
        assert!(all.len() > 1500, "{}", all.len());
    }
}
