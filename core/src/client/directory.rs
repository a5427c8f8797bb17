//! Users and channels looked up in the register state by id, email or name: what narrow URLs,
//! the search syntax and the typeaheads translate between (names for people, ids for the
//! server).

use std::collections::HashMap;

use serde_json::Value;

use super::Engine;
use super::matching::fold;

/// The state's lists of channels: subscribed first, then those the user left, then the rest.
const CHANNEL_LISTS: [&str; 4] = ["subscriptions", "unsubscribed", "never_subscribed", "streams"];
/// The state's lists of users: active ones, deactivated ones, other organizations' bots.
const USER_LISTS: [&str; 3] = ["realm_users", "realm_non_active_users", "cross_realm_bots"];

/// A JSON record's string field, or `""`.
pub(super) fn field<'a>(record: &'a Value, key: &str) -> &'a str {
    record.get(key).and_then(Value::as_str).unwrap_or_default()
}

/// Where a record is: which list of the state, and where in it.
#[derive(Clone, Copy, Debug)]
struct Slot {
    list: usize,
    position: usize,
}

/// The users of the state by id, email and name, and the active ones with their names folded
/// for the typeaheads. Built when first asked after the users change, so that a key stroke
/// neither walks nor folds 10,000 records.
#[derive(Debug, Default)]
pub(crate) struct UserIndex {
    by_id: HashMap<u64, Slot>,
    /// Lower-cased shown and real emails.
    by_email: HashMap<String, u64>,
    /// Lower-cased full names, with every user who has one.
    by_name: HashMap<String, Vec<u64>>,
    /// Active users and bots, in the order of `realm_users`.
    pub(super) people: Vec<IndexedPerson>,
}

/// An active person with what matching reads.
#[derive(Debug)]
pub(super) struct IndexedPerson {
    pub position: usize,
    pub id: u64,
    pub name: String,
    pub email: String,
    pub folded_name: String,
    pub folded_email: String,
    pub is_bot: bool,
}

/// The channels of the state by id and by lower-cased name (the first list that has one).
#[derive(Debug, Default)]
pub(crate) struct ChannelIndex {
    by_id: HashMap<u64, Slot>,
    by_name: HashMap<String, u64>,
}

impl Engine {
    fn list(&self, key: &str) -> &[Value] {
        self.state.get(key).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default()
    }

    fn at(&self, lists: &[&str], slot: Slot) -> Option<&Value> {
        self.list(lists.get(slot.list)?).get(slot.position)
    }

    pub(super) fn user_index(&self) -> &UserIndex {
        self.user_index.get_or_init(|| {
            let mut index = UserIndex::default();
            for (list, key) in USER_LISTS.iter().enumerate() {
                for (position, user) in self.list(key).iter().enumerate() {
                    let Some(id) = user["user_id"].as_u64() else { continue };
                    index.by_id.entry(id).or_insert(Slot { list, position });
                    for email in [field(user, "email"), field(user, "delivery_email")] {
                        if !email.is_empty() {
                            index.by_email.entry(email.to_lowercase()).or_insert(id);
                        }
                    }
                    index.by_name.entry(field(user, "full_name").to_lowercase()).or_default().push(id);
                    if list == 0 && user["is_active"] != false {
                        let (name, email) = (field(user, "full_name"), field(user, "email"));
                        index.people.push(IndexedPerson {
                            position,
                            id,
                            name: name.to_owned(),
                            email: email.to_owned(),
                            folded_name: fold(name),
                            folded_email: fold(email),
                            is_bot: user["is_bot"] == true,
                        });
                    }
                }
            }
            index
        })
    }

    fn channel_index(&self) -> &ChannelIndex {
        self.channel_index.get_or_init(|| {
            let mut index = ChannelIndex::default();
            for (list, key) in CHANNEL_LISTS.iter().enumerate() {
                for (position, channel) in self.list(key).iter().enumerate() {
                    let Some(id) = channel["stream_id"].as_u64() else { continue };
                    index.by_id.entry(id).or_insert(Slot { list, position });
                    index.by_name.entry(field(channel, "name").to_lowercase()).or_insert(id);
                }
            }
            index
        })
    }

    /// A channel's record, from the first list of the state that has it.
    pub(super) fn channel_record(&self, id: u64) -> Option<&Value> {
        self.at(&CHANNEL_LISTS, *self.channel_index().by_id.get(&id)?)
    }

    /// A channel by name, ignoring case (as the server's channel lookup does).
    pub(super) fn channel_id_by_name(&self, name: &str) -> Option<u64> {
        self.channel_index().by_name.get(&name.trim().to_lowercase()).copied()
    }

    /// A user's place in `realm_users`.
    pub(super) fn realm_users_position(&self, id: u64) -> Option<usize> {
        self.user_index().by_id.get(&id).filter(|slot| slot.list == 0).map(|slot| slot.position)
    }

    pub(super) fn user_record(&self, id: u64) -> Option<&Value> {
        self.at(&USER_LISTS, *self.user_index().by_id.get(&id)?)
    }

    /// A user by the email the organization shows, ignoring case, or by the real one.
    pub(super) fn user_id_by_email(&self, email: &str) -> Option<u64> {
        self.user_index().by_email.get(&email.trim().to_lowercase()).copied()
    }

    /// A user named by a search operand or a URL: `me`, an id, an email, a full name that only
    /// one user has, or Zulip's `Full Name|id`.
    pub(super) fn user_id_by_operand(&self, text: &str) -> Option<u64> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("me") {
            return Some(self.user_id);
        }
        if let Ok(id) = text.parse::<u64>() {
            return self.user_record(id).map(|_| id);
        }
        if let Some((_, id)) = text.rsplit_once('|')
            && let Ok(id) = id.parse::<u64>()
        {
            return self.user_record(id).map(|_| id);
        }
        if text.contains('@')
            && let Some(id) = self.user_id_by_email(text)
        {
            return Some(id);
        }
        match self.user_index().by_name.get(&text.to_lowercase()).map(Vec::as_slice) {
            Some([only]) => Some(*only),
            _ => None,
        }
    }

    /// The email a user is shown with, if the state has the user.
    pub(super) fn user_email(&self, id: u64) -> Option<&str> {
        self.user_record(id).map(|u| field(u, "email"))
    }

    pub(super) fn user_full_name(&self, id: u64) -> Option<&str> {
        self.user_record(id).map(|u| field(u, "full_name"))
    }
}

impl Engine {
    /// The channel a narrow operand names: an id, or a name (a name that looks like an id
    /// counts as a name when a channel has it, as the server reads it).
    pub(super) fn channel_id_of_operand(&self, operand: &Value) -> Option<u64> {
        match operand {
            Value::Number(n) => n.as_u64(),
            Value::String(s) => self.channel_id_by_name(s).or_else(|| s.trim().parse().ok()),
            _ => None,
        }
    }

    /// The users a `dm`, `sender` or `dm-including` operand names (ids, emails, or a
    /// comma-separated string of them), if the state knows every one.
    pub(super) fn user_ids_of_operand(&self, operand: &Value) -> Option<Vec<u64>> {
        let named: Vec<Option<u64>> = match operand {
            Value::Number(n) => vec![n.as_u64()],
            Value::String(s) => {
                s.split(',').filter(|p| !p.trim().is_empty()).map(|p| self.user_id_by_operand(p)).collect()
            }
            Value::Array(items) => items
                .iter()
                .map(|item| match item {
                    Value::Number(n) => n.as_u64(),
                    Value::String(s) => self.user_id_by_operand(s),
                    _ => None,
                })
                .collect(),
            _ => return None,
        };
        if named.is_empty() {
            return None;
        }
        named.into_iter().collect()
    }
}
