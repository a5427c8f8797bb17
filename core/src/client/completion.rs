//! The compose box's typeaheads: people (`@`-mentions, direct-message recipients), groups,
//! channels (`#`, the channel field) and topics, ranked as Zulip's `typeahead_helper.ts` ranks
//! them. A query matches a name anywhere when it is one word, at a word's start when it has
//! several; the better the match (the whole name, its start as typed, its start in any case, a
//! word's start) the higher, and among equal matches the order of [`super::candidates`].
//!
//! Deactivated users are not offered; wildcard mentions (`@**all**`) are the front end's to add.

use serde_json::Value;

use super::Engine;
use super::candidates::{activity_score, smallest};
use super::directory::field;
use super::matching::{Query, Tier, fold, matches_in_order, tier};
use super::types::{ChannelSummary, GroupSummary, UserSummary};

/// Where a match ranks (Zulip's `sort_recipients`): users by name, bots by name, users by
/// email, bots by email, then users and bots matching only inside a word.
fn person_class(name: Tier, email: Tier, is_bot: bool) -> (u8, u8) {
    let strength = |tier: Tier| u8::from(tier == Tier::WordBoundary);
    let bot = u8::from(is_bot);
    if name != Tier::Other {
        (bot, strength(name))
    } else if email != Tier::Other {
        (2 + bot, strength(email))
    } else {
        (4 + bot, 0)
    }
}

impl Engine {
    /// People for `@`-mentions and direct-message recipients: matching the query by name or
    /// email, best first, at most `limit`.
    pub fn complete_users(&self, query: &str, limit: usize) -> Vec<UserSummary> {
        let query = Query::new(query.trim());
        let people = self.people();
        let order = self.people_order();
        let matching: Vec<_> = people
            .iter()
            .filter(|p| {
                matches_in_order(&query, p.folded_name, ' ') || matches_in_order(&query, p.folded_email, ' ')
            })
            .map(|p| {
                let name = tier(&query, p.name, p.folded_name);
                let email = tier(&query, p.email, p.folded_email);
                ((person_class(name, email, p.is_bot), self.person_key(&order, p)), p)
            })
            .collect();
        smallest(matching, limit).into_iter().filter_map(|p| self.user_summary(p.record)).collect()
    }

    /// User groups to mention (`@*group*`): the organization's own, not deactivated, by how
    /// well their name matches, then by name. Zulip's role groups are not offered.
    pub fn complete_groups(&self, query: &str, limit: usize) -> Vec<GroupSummary> {
        let query = Query::new(query.trim());
        let groups = self.state.get("realm_user_groups").and_then(Value::as_array);
        let matching: Vec<_> = groups
            .into_iter()
            .flatten()
            .filter(|g| g["is_system_group"] != true && g["deactivated"] != true)
            .filter_map(|g| {
                let name = field(g, "name");
                let folded = fold(name);
                matches_in_order(&query, &folded, ' ').then(|| ((tier(&query, name, &folded), folded), g))
            })
            .collect();
        smallest(matching, limit)
            .into_iter()
            .filter_map(|g| {
                Some(GroupSummary {
                    id: g["id"].as_u64()?,
                    name: field(g, "name").to_owned(),
                    description: field(g, "description").to_owned(),
                    member_count: g["members"].as_array().map_or(0, |m| m.len() as u32),
                })
            })
            .collect()
    }

    /// Channels the user can see (not archived) whose name matches: best name matches first,
    /// then those whose description matches; among equals subscribed before the rest, unmuted
    /// before muted, pinned first, then busier, then by name (Zulip's `sort_streams`).
    pub fn complete_channels(&self, query: &str, limit: usize) -> Vec<ChannelSummary> {
        let query = Query::new(query.trim());
        let mut seen = std::collections::HashSet::new();
        let lists = [
            ("subscriptions", true),
            ("unsubscribed", false),
            ("never_subscribed", false),
            ("streams", false),
        ];
        let mut matching = Vec::new();
        for (list, subscribed) in lists {
            for record in self.state.get(list).and_then(Value::as_array).into_iter().flatten() {
                let name = field(record, "name");
                let folded = fold(name);
                let Some(id) = record["stream_id"].as_u64() else { continue };
                if record["is_archived"] == true
                    || !matches_in_order(&query, &folded, ' ')
                    || !seen.insert(id)
                {
                    continue;
                }
                let by_name = tier(&query, name, &folded);
                let rank = if by_name != Tier::Other {
                    (0, by_name)
                } else {
                    let description = field(record, "description");
                    (1, tier(&query, description, &fold(description)))
                };
                let traffic = record["stream_weekly_traffic"].as_i64().unwrap_or_default();
                let key = (rank, -activity_score(record, subscribed), -traffic, folded);
                matching.push((key, record));
            }
        }
        smallest(matching, limit).into_iter().filter_map(|record| self.channel_summary(record)).collect()
    }

    /// A channel's topics matching the query: newest first among equally good matches (all of
    /// them newest first for an empty query). The channel's topics are those the engine knows
    /// (`fetchTopics` asks the server for all of them).
    pub fn complete_topics(&self, stream_id: u64, query: &str, limit: usize) -> Vec<String> {
        let query = Query::new(query.trim());
        let matching: Vec<_> = self
            .topic_names(stream_id)
            .into_iter()
            .enumerate()
            .filter_map(|(recency, topic)| {
                let folded = fold(&topic);
                matches_in_order(&query, &folded, ' ')
                    .then(|| ((tier(&query, &topic, &folded), recency), topic))
            })
            .collect();
        smallest(matching, limit)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::fixture::*;
    use super::super::{Engine, Reply};

    fn users(engine: &Engine, query: &str) -> Vec<String> {
        engine.complete_users(query, 10).into_iter().map(|u| u.full_name).collect()
    }

    fn channels(engine: &Engine, query: &str) -> Vec<String> {
        engine.complete_channels(query, 10).into_iter().map(|c| c.name).collect()
    }

    #[test]
    fn people_rank_by_how_well_their_name_matches() {
        let mut state = state();
        state["realm_users"].as_array_mut().expect("users").extend([
            json!({"user_id": 30, "full_name": "Hamlet's Ghost", "email": "ghost@zulip.com", "is_active": true}),
            json!({"user_id": 31, "full_name": "Prince", "email": "hamlet.prince@zulip.com", "is_active": true}),
            json!({"user_id": 32, "full_name": "Old Hamlet", "email": "old@zulip.com", "is_active": false}),
        ]);
        let engine = engine_with(state);
        // The start of a name before a word's start, and a name before an email; no
        // deactivated users.
        assert_eq!(users(&engine, "ham"), ["Hamlet's Ghost", "King Hamlet", "Prince"]);
        // Case and diacritics aside.
        assert_eq!(users(&engine, "zoe"), ["Zoë Ashworth"]);
        // Several words: each at a word's start, in order.
        assert_eq!(users(&engine, "king ha"), ["King Hamlet"]);
        assert!(users(&engine, "ing ha").is_empty());
        // Bots after people who match as well, before those matching inside a word.
        assert_eq!(users(&engine, "w"), ["Welcome Bot", "Zoë Ashworth"]);
        assert_eq!(
            users(&engine, "o")[..3],
            ["Othello, the Moor of Venice", "Cordelia, Lear's daughter", "Desdemona"]
        );
    }

    #[test]
    fn people_one_writes_to_come_first() {
        let mut state = state();
        state["recent_private_conversations"] = json!([
            {"user_ids": [ZOE], "max_message_id": 90},
            {"user_ids": [OTHELLO], "max_message_id": 80},
        ]);
        state["presences"] =
            json!({HAMLET.to_string(): {"active_timestamp": 1_700_000_000, "idle_timestamp": 1_700_000_000}});
        let engine = engine_with(state);
        let everyone = users(&engine, "");
        assert_eq!(
            everyone[..4],
            ["Zoë Ashworth", "Othello, the Moor of Venice", "King Hamlet", "Cordelia, Lear's daughter"]
        );
        assert_eq!(everyone.last().map(String::as_str), Some("Welcome Bot"));
        assert_eq!(engine.complete_users("", 2).len(), 2);
    }

    #[test]
    fn channels_the_user_is_in_come_first() {
        let engine = engine();
        // Name matches by quality, subscribed before not, unmuted before muted, pinned first.
        assert_eq!(
            channels(&engine, ""),
            ["Rome", "general", "Verona", "design team", "Denmark", "Scotland"]
        );
        // One word matches anywhere, a word's start first.
        assert_eq!(channels(&engine, "d"), ["design team", "Denmark", "Scotland"]);
        assert_eq!(channels(&engine, "team"), ["design team"]);
        assert_eq!(channels(&engine, "e"), ["Rome", "general", "Verona", "design team", "Denmark"]);
        let denmark = &engine.complete_channels("denmark", 1)[0];
        assert_eq!((denmark.stream_id, denmark.description.as_str()), (DENMARK, "Something is rotten"));
    }

    #[test]
    fn topics_come_newest_first_among_equal_matches() {
        let mut engine = engine();
        let topics = json!({"result": "success", "msg": "", "topics": [
            {"name": "lunch", "max_id": 10}, {"name": "team lunch", "max_id": 30},
            {"name": "Lunch plans", "max_id": 20}, {"name": "brunch", "max_id": 40},
        ]});
        let serde_json::Value::Object(topics) = topics else { unreachable!() };
        engine.handle_topics(VERONA, Reply::Success(topics)).expect("topics");
        assert_eq!(engine.complete_topics(VERONA, "", 10), ["brunch", "team lunch", "Lunch plans", "lunch"]);
        assert_eq!(engine.complete_topics(VERONA, "lunch", 10), ["lunch", "Lunch plans", "team lunch"]);
        assert_eq!(
            engine.complete_topics(VERONA, "unch", 10),
            ["brunch", "team lunch", "Lunch plans", "lunch"]
        );
        assert_eq!(engine.complete_topics(VERONA, "lunch", 1), ["lunch"]);
        assert!(engine.complete_topics(GENERAL, "lunch", 10).is_empty());
    }

    #[test]
    fn groups_are_offered_by_name() {
        let mut state = state();
        state["realm_user_groups"] = json!([
            {"id": 1, "name": "role:members", "description": "Members", "members": [], "is_system_group": true},
            {"id": 2, "name": "backend", "description": "Server people", "members": [IAGO, HAMLET], "is_system_group": false},
            {"id": 3, "name": "frontend-team", "description": "", "members": [], "is_system_group": false},
            {"id": 4, "name": "old backend", "description": "", "members": [], "is_system_group": false, "deactivated": true},
        ]);
        let engine = engine_with(state);
        let names = |query| engine.complete_groups(query, 10).into_iter().map(|g| g.name).collect::<Vec<_>>();
        assert_eq!(names("team"), ["frontend-team"]);
        assert_eq!(names("end"), ["backend", "frontend-team"]);
        assert_eq!(engine.complete_groups("back", 10)[0].member_count, 2);
        assert!(engine.complete_groups("members", 10).is_empty());
    }
}
