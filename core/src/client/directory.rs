//! Users and channels looked up in the register state by id, email or name: what narrow URLs,
//! the search syntax and the typeaheads translate between (names for people, ids for the
//! server).

use serde_json::Value;

use super::Engine;

/// The state's lists of channels: subscribed first, then those the user left, then the rest.
const CHANNEL_LISTS: [&str; 4] = ["subscriptions", "unsubscribed", "never_subscribed", "streams"];
/// The state's lists of users: active ones, deactivated ones, other organizations' bots.
const USER_LISTS: [&str; 3] = ["realm_users", "realm_non_active_users", "cross_realm_bots"];

/// A JSON record's string field, or `""`.
pub(super) fn field<'a>(record: &'a Value, key: &str) -> &'a str {
    record.get(key).and_then(Value::as_str).unwrap_or_default()
}

impl Engine {
    fn listed(&self, lists: &'static [&'static str]) -> impl Iterator<Item = &Value> {
        lists.iter().flat_map(|key| self.state.get(*key).and_then(Value::as_array).into_iter().flatten())
    }

    /// Every channel record the state has (a channel may be listed twice: as a subscription and
    /// in `streams`).
    pub(super) fn channel_records(&self) -> impl Iterator<Item = &Value> {
        self.listed(&CHANNEL_LISTS)
    }

    pub(super) fn channel_record(&self, id: u64) -> Option<&Value> {
        self.channel_records().find(|c| c["stream_id"] == id)
    }

    /// A channel by name, ignoring case (as the server's channel lookup does).
    pub(super) fn channel_id_by_name(&self, name: &str) -> Option<u64> {
        let name = name.trim().to_lowercase();
        self.channel_records()
            .find(|c| field(c, "name").to_lowercase() == name)
            .and_then(|c| c["stream_id"].as_u64())
    }

    /// Every user record the state has.
    pub(super) fn user_records(&self) -> impl Iterator<Item = &Value> {
        self.listed(&USER_LISTS)
    }

    pub(super) fn user_record(&self, id: u64) -> Option<&Value> {
        self.user_records().find(|u| u["user_id"] == id)
    }

    /// A user by the email the organization shows, ignoring case, or by the real one.
    pub(super) fn user_id_by_email(&self, email: &str) -> Option<u64> {
        let email = email.trim();
        self.user_records()
            .find(|u| {
                field(u, "email").eq_ignore_ascii_case(email)
                    || field(u, "delivery_email").eq_ignore_ascii_case(email)
            })
            .and_then(|u| u["user_id"].as_u64())
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
        let lower = text.to_lowercase();
        let mut named = self.user_records().filter(|u| field(u, "full_name").to_lowercase() == lower);
        match (named.next(), named.next()) {
            (Some(only), None) => only["user_id"].as_u64(),
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
