//! What the search suggestions and the compose typeaheads choose from, and the order among
//! equally good matches: people the user writes to first (Zulip's `compare_by_pms`), then
//! those who wrote last, then those online now, then by name; channels by Zulip's activity
//! score; topics newest first.

use std::collections::HashMap;

use serde_json::Value;

use super::Engine;
use super::directory::field;
use super::types::PresenceStatus;

/// An active person (or bot) of the organization, as the typeaheads see them.
pub(super) struct Person<'a> {
    pub record: &'a Value,
    /// The record's place in `realm_users`.
    pub position: usize,
    pub id: u64,
    pub name: &'a str,
    pub email: &'a str,
    pub folded_name: &'a str,
    pub folded_email: &'a str,
    pub is_bot: bool,
}

/// How to order people whose match is equally good: for each record of `realm_users`, its
/// place among the recent one-to-one conversations (0: the latest), the newest cached message
/// the person sent, and presence (0 active, 1 idle, 2 offline).
pub(super) struct PeopleOrder {
    by_position: Vec<(usize, std::cmp::Reverse<u64>, u8)>,
}

/// The order key of a person: conversation partner, recent sender, presence, name.
pub(super) type PersonKey<'a> = (usize, std::cmp::Reverse<u64>, u8, &'a str);

impl Engine {
    /// Everyone active: users and bots, not deactivated accounts.
    pub(super) fn people(&self) -> Vec<Person<'_>> {
        let records =
            self.state.get("realm_users").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        self.user_index()
            .people
            .iter()
            .filter_map(|person| {
                Some(Person {
                    record: records.get(person.position)?,
                    position: person.position,
                    id: person.id,
                    name: &person.name,
                    email: &person.email,
                    folded_name: &person.folded_name,
                    folded_email: &person.folded_email,
                    is_bot: person.is_bot,
                })
            })
            .collect()
    }

    pub(super) fn people_order(&self) -> PeopleOrder {
        let count = self.state.get("realm_users").and_then(Value::as_array).map_or(0, Vec::len);
        let mut by_position = vec![(usize::MAX, std::cmp::Reverse(0), 2); count];
        let position = |id: u64| self.realm_users_position(id);
        let conversations = self.state.get("recent_private_conversations").and_then(Value::as_array);
        for (rank, conversation) in conversations.into_iter().flatten().enumerate() {
            if let Some([user]) = conversation["user_ids"].as_array().map(Vec::as_slice)
                && let Some(order) = user.as_u64().and_then(position).and_then(|p| by_position.get_mut(p))
            {
                order.0 = order.0.min(rank);
            }
        }
        for message in self.cache.messages.values() {
            if let Some(order) = position(message.sender_id).and_then(|p| by_position.get_mut(p)) {
                order.1 = order.1.min(std::cmp::Reverse(message.id));
            }
        }
        let presences = self.state.get("presences").and_then(Value::as_object);
        for (id, _) in presences.into_iter().flatten() {
            let Ok(id) = id.parse() else { continue };
            let bucket = match self.presence_status(id) {
                PresenceStatus::Active => 0,
                PresenceStatus::Idle => 1,
                PresenceStatus::Offline => 2,
            };
            if let Some(order) = position(id).and_then(|p| by_position.get_mut(p)) {
                order.2 = bucket;
            }
        }
        PeopleOrder { by_position }
    }

    pub(super) fn person_key<'p>(&self, order: &PeopleOrder, person: &Person<'p>) -> PersonKey<'p> {
        let (partner, sender, presence) =
            order.by_position.get(person.position).copied().unwrap_or((usize::MAX, std::cmp::Reverse(0), 2));
        (partner, sender, presence, person.folded_name)
    }

    /// A channel's topics the engine knows (seen, unread or fetched), newest first.
    pub(super) fn topic_names(&self, stream_id: u64) -> Vec<String> {
        let mut known: HashMap<String, (&str, u64)> = HashMap::new();
        for (lower, (name, max_id)) in self.topics.get(&stream_id).into_iter().flatten() {
            known.insert(lower.clone(), (name, *max_id));
        }
        let unread = self.state.get("unread_msgs").and_then(|u| u["streams"].as_array());
        for entry in unread.into_iter().flatten().filter(|e| e["stream_id"] == stream_id) {
            let name = field(entry, "topic");
            let newest = entry["unread_message_ids"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_u64)
                .max()
                .unwrap_or_default();
            let slot = known.entry(name.to_lowercase()).or_insert((name, newest));
            slot.1 = slot.1.max(newest);
        }
        let mut topics: Vec<(&str, u64)> = known.into_values().collect();
        topics.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        topics.into_iter().map(|(name, _)| name.to_owned()).collect()
    }
}

/// Zulip's `activity_score` of a channel record, higher first: subscribed, then not muted,
/// then pinned (channels the user is not in last).
pub(super) fn activity_score(record: &Value, subscribed: bool) -> i32 {
    if !subscribed {
        return -1;
    }
    let mut score = 0;
    if record["is_muted"] != true {
        score += 4;
    }
    if record["pin_to_top"] == true {
        score += 2;
    }
    score
}

/// The `n` items with the smallest keys, in order, without sorting the rest.
pub(super) fn smallest<K: Ord, T>(mut items: Vec<(K, T)>, n: usize) -> Vec<T> {
    if n == 0 {
        return Vec::new();
    }
    if items.len() > n {
        items.select_nth_unstable_by(n - 1, |a, b| a.0.cmp(&b.0));
        items.truncate(n);
    }
    items.sort_by(|a, b| a.0.cmp(&b.0));
    items.into_iter().map(|(_, item)| item).collect()
}
