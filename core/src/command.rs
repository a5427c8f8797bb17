//! What every command takes and returns.
//!
//! A command checks everything first and then either fails with an [`ApiError`] having asked
//! for no writes, or succeeds with an [`Outcome`]: the writes to commit, the reply to send once
//! they are durable, and the events they cause.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::{ApiError, ApiResult};
use crate::ids::{MessageId, UserId};
use crate::model::{MessageFlags, Realm, SendOrigin, User};
use crate::store::{Change, Store};

/// The authenticated user a request acts for, with their organization.
#[derive(Clone, Debug)]
pub struct Actor {
    pub user: User,
    pub realm: Realm,
    /// The client name Zulip records on messages (from the User-Agent, as Zulip does).
    pub client: String,
    /// The organization's URL (`http://chat.example.com`), as the host serves it: Markdown
    /// makes links to it relative.
    pub realm_url: String,
}

/// Something that happened, for the event system to deliver once it is durable.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A new message, with the users who receive it and their flags, and where its send came
    /// from when the client named its event queue and local id: that queue's event carries
    /// `local_message_id`.
    /// Receivers who cannot see the sender get them as "Unknown user" (`hidden_sender`).
    Message {
        message: MessageId,
        receivers: Vec<(UserId, MessageFlags)>,
        origin: Option<SendOrigin>,
        hidden_sender: Option<crate::user_access::HiddenSender>,
    },
    /// Any other event: its body (`type` and payload, no `id`) and who receives it.
    Other { users: Vec<UserId>, body: Value },
    /// A message woke an outgoing-webhook bot: the host posts it to the bot's service (see
    /// `api::outgoing_webhooks`). No event queue sees this.
    OutgoingWebhook { bot: UserId, message: MessageId, trigger: crate::api::outgoing_webhooks::Trigger },
    /// An email to send (an invitation's): the host mails it, or logs its link when no mail
    /// server is configured. No event queue sees this.
    Email(crate::emails::OutgoingEmail),
    /// A user's batch of missed-message emails opened, due at `due` (UNIX seconds): the host
    /// sends it then (`api::missed_messages`). No event queue sees this.
    EmailsScheduled { user: UserId, due: i64 },
}

/// The result of a successful command.
#[derive(Debug, Default)]
pub struct Outcome {
    pub changes: Vec<Change>,
    /// Fields of the success response besides `result` and `msg`.
    pub reply: Map<String, Value>,
    /// More fields of the success response as JSON texts: the host writes them into the answer
    /// as they are ([`crate::raw_json`]). A page of messages goes here, so that its stored HTML
    /// is never unescaped into a `Value` and escaped again (see [`crate::model::StoredHtml`]).
    pub serialized_reply: Vec<(String, Vec<u8>)>,
    pub events: Vec<Event>,
}

impl Outcome {
    pub fn reply(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.reply.insert(key.to_owned(), value.into());
        self
    }

    /// A reply field serialized here, once, with serde_json.
    pub fn reply_serialized(self, key: &str, value: &impl Serialize) -> ApiResult<Self> {
        let json = serde_json::to_vec(value).map_err(ApiError::internal)?;
        Ok(self.reply_json(key, json))
    }

    /// A reply field written as JSON already, by serde_json or from what it wrote: the host
    /// sends it as it is, unchecked.
    pub fn reply_json(mut self, key: &str, json: Vec<u8>) -> Self {
        self.serialized_reply.push((key.to_owned(), json));
        self
    }

    /// Every reply field as a `Value`, the serialized ones parsed again: for callers in the
    /// same process, such as tests, that read the reply rather than send it.
    pub fn reply_values(self) -> Map<String, Value> {
        let mut reply = self.reply;
        for (key, json) in self.serialized_reply {
            reply.insert(key, serde_json::from_slice(&json).unwrap_or(Value::Null));
        }
        reply
    }
}

/// Zulip's client name: the `client` parameter if sent, else the User-Agent's product name (the
/// part before the first `/` or space, as in `ZulipPython/0.9.1 (Linux)`), at most 30
/// characters; `Unspecified` without either.
pub fn client_name(client_param: Option<&str>, user_agent: Option<&str>) -> String {
    let name: String = match client_param {
        Some(client) => client.chars().take(30).collect(),
        None => user_agent
            .unwrap_or_default()
            .split(['/', ' '])
            .next()
            .unwrap_or_default()
            .chars()
            .take(30)
            .collect(),
    };
    if name.is_empty() { "Unspecified".to_owned() } else { name }
}

/// Loads the user `id` if they exist, are active and belong to the actor's organization; other
/// organizations' users answer exactly like missing ones.
pub fn active_user_in_realm(store: &impl Store, actor: &Actor, id: UserId) -> ApiResult<Option<User>> {
    Ok(store.user(id)?.filter(|u| u.realm_id == actor.realm.id && u.is_active))
}

/// Every active user of an organization: who organization-wide events go to.
pub fn active_user_ids(store: &impl Store, realm: crate::ids::RealmId) -> ApiResult<Vec<UserId>> {
    Ok(store.realm_users(realm)?.iter().filter(|u| u.is_active).map(|u| u.id).collect())
}

/// Zulip's `human_users_only`: endpoints about a person's devices and presence refuse bots.
pub fn require_human(actor: &Actor) -> ApiResult<()> {
    if actor.user.is_bot() {
        return Err(ApiError::bad_request("This endpoint does not accept bot requests."));
    }
    Ok(())
}

/// Requires the actor to be an organization administrator.
pub fn require_admin(actor: &Actor) -> ApiResult<()> {
    if actor.user.is_admin() { Ok(()) } else { Err(ApiError::administrator_required()) }
}

#[cfg(test)]
mod tests {
    use super::client_name;

    #[test]
    fn client_names_come_from_the_parameter_or_the_user_agent() {
        assert_eq!(client_name(None, Some("ZulipPython/0.9.1 (Linux; 3.11)")), "ZulipPython");
        assert_eq!(client_name(None, Some("ZulipTerminal/0.7.0 Linux-6")), "ZulipTerminal");
        assert_eq!(client_name(Some("website"), Some("Mozilla/5.0")), "website");
        assert_eq!(client_name(None, None), "Unspecified");
        assert_eq!(client_name(Some(&"x".repeat(40)), None).len(), 30);
    }
}
