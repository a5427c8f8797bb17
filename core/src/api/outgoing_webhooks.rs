//! Outgoing webhooks (spec 4.22): a new message that mentions an outgoing-webhook bot in a
//! channel, or is a direct message to one, makes the server post the message to the bot's
//! service. The service's answer may make the bot reply in the same conversation.
//!
//! Core decides everything; the host carries the request. [`triggers`] runs when a message is
//! composed and yields `Event::OutgoingWebhook`s, which the host takes after the commit.
//! [`request`] builds what to post; [`answer`] turns the service's answer into the bot's reply,
//! and [`failure_notice`] into a note to the bot's owner when the service cannot be reached.

use serde_json::{Value, json};

use crate::command::{Actor, Event, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::ids::{MessageId, UserId};
use crate::model::{BotService, BotType, Message, MessageFlags, MessageKind, User};
use crate::params::Params;
use crate::store::Store;
use crate::wire::{self, MessageOptions};

/// What about a message woke the bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trigger {
    Mention,
    DirectMessage,
}

impl Trigger {
    pub fn as_str(self) -> &'static str {
        match self {
            Trigger::Mention => "mention",
            Trigger::DirectMessage => "direct_message",
        }
    }
}

/// Zulip's `Service` interface for Slack-compatible services; any other (1) is Zulip's own.
const INTERFACE_SLACK: u8 = 2;

/// The outgoing-webhook bots a new message wakes: bots mentioned in a channel message, bots
/// among the participants of a direct message. Messages from bots wake nobody, so two bots
/// cannot answer each other forever.
pub fn triggers(
    store: &impl Store,
    sender: &User,
    message: &Message,
    mentioned: impl IntoIterator<Item = UserId>,
) -> ApiResult<Vec<Event>> {
    if sender.is_bot() {
        return Ok(Vec::new());
    }
    let (candidates, trigger): (Vec<UserId>, Trigger) = match &message.kind {
        MessageKind::Stream { .. } => (mentioned.into_iter().collect(), Trigger::Mention),
        MessageKind::Direct { participants } => (participants.clone(), Trigger::DirectMessage),
    };
    let mut events = Vec::new();
    for id in candidates {
        let Some(bot) = store.user(id)? else { continue };
        let is_service = bot.bot_type == Some(BotType::OutgoingWebhook) && bot.is_active;
        if is_service && bot.realm_id == message.realm_id && store.bot_service(bot.id)?.is_some() {
            events.push(Event::OutgoingWebhook { bot: bot.id, message: message.id, trigger });
        }
    }
    Ok(events)
}

/// How the host posts a payload.
#[derive(Clone, Debug, PartialEq)]
pub enum Body {
    Json(Value),
    /// `application/x-www-form-urlencoded`, for Slack-compatible services.
    Form(Vec<(String, String)>),
}

/// A request for the host to make.
#[derive(Clone, Debug, PartialEq)]
pub struct WebhookRequest {
    pub url: String,
    pub body: Body,
    /// The bot's service interface, which decides how its answer reads.
    pub interface: u8,
}

/// The request that tells `bot`'s service about `message`, or `None` when the bot, its service
/// or the message is gone.
pub fn request(
    store: &impl Store,
    realm_url: &str,
    bot: UserId,
    message: MessageId,
    trigger: Trigger,
) -> ApiResult<Option<WebhookRequest>> {
    let (Some(bot), Some(service), Some(message)) =
        (store.user(bot)?, store.bot_service(bot)?, store.message(message)?)
    else {
        return Ok(None);
    };
    let Some(realm) = store.realm(message.realm_id)? else { return Ok(None) };
    let body = match service.interface {
        INTERFACE_SLACK => Body::Form(slack_form(store, &bot, &service, &message, trigger)?),
        _ => {
            let flags = store.message_flags(bot.id, message.id)?.unwrap_or(MessageFlags::empty());
            let options = MessageOptions {
                apply_markdown: false,
                client_gravatar: false,
                allow_empty_topic_name: true,
            };
            let mut shown = wire::message(store, &realm, &message, bot.id, flags, options)?;
            if let Value::Object(fields) = &mut shown {
                fields.remove("flags");
                fields.insert("rendered_content".into(), message.rendered_content.html().into());
                if let Some(Value::String(avatar)) = fields.get_mut("avatar_url") {
                    *avatar = format!("{realm_url}{avatar}");
                }
            }
            Body::Json(json!({
                "bot_email": bot.email,
                "bot_full_name": bot.full_name,
                "data": message.content,
                "trigger": trigger.as_str(),
                "token": service.token,
                "message": shown,
            }))
        }
    };
    Ok(Some(WebhookRequest { url: service.base_url, body, interface: service.interface }))
}

/// Zulip's `SlackOutgoingWebhookService` form fields.
fn slack_form(
    store: &impl Store,
    bot: &User,
    service: &BotService,
    message: &Message,
    trigger: Trigger,
) -> ApiResult<Vec<(String, String)>> {
    let sender = store.user(message.sender_id)?;
    let (channel_id, channel_name) = match &message.kind {
        MessageKind::Stream { stream_id, .. } => {
            let name = store.stream(*stream_id)?.map(|s| s.name).unwrap_or_default();
            (stream_id.to_string(), name)
        }
        MessageKind::Direct { .. } => (String::new(), String::new()),
    };
    let realm = store.realm(message.realm_id)?;
    let pairs = [
        ("token", service.token.clone()),
        ("team_id", realm.as_ref().map(|r| r.string_id().to_owned()).unwrap_or_default()),
        ("team_domain", realm.as_ref().map(|r| r.name.clone()).unwrap_or_default()),
        ("channel_id", channel_id),
        ("channel_name", channel_name),
        ("timestamp", message.timestamp.to_string()),
        ("user_id", message.sender_id.to_string()),
        ("user_name", sender.map(|s| s.full_name).unwrap_or_default()),
        ("text", message.content.clone()),
        ("trigger_word", trigger.as_str().to_owned()),
        ("service_id", bot.id.to_string()),
    ];
    Ok(pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

/// The bot's reply to the service's answer (a 2xx response body): Zulip's `{"content": ...}`
/// (Slack's `{"text": ...}`) is posted by the bot in the message's conversation;
/// `{"response_not_required": true}`, an empty content or a body that is not JSON posts nothing.
pub fn answer(
    store: &impl Store,
    bot: &Actor,
    message: MessageId,
    interface: u8,
    body: &str,
    now: i64,
) -> ApiResult<Outcome> {
    let Some(message) = store.message(message)? else { return Ok(Outcome::default()) };
    let Ok(answer) = serde_json::from_str::<Value>(body) else { return Ok(Outcome::default()) };
    if answer.get("response_not_required").and_then(Value::as_bool) == Some(true) {
        return Ok(Outcome::default());
    }
    let key = if interface == INTERFACE_SLACK { "text" } else { "content" };
    let content = match answer.get(key).and_then(Value::as_str) {
        Some(content) if !content.trim().is_empty() => content.to_owned(),
        _ => return Ok(Outcome::default()),
    };
    let mut pairs: Vec<(String, String)> = vec![("content".into(), content)];
    match &message.kind {
        MessageKind::Stream { stream_id, topic } => {
            pairs.extend([
                ("type".into(), "stream".into()),
                ("to".into(), stream_id.to_string()),
                ("topic".into(), topic.clone()),
            ]);
        }
        MessageKind::Direct { participants } => {
            let others: Vec<UserId> = participants.iter().copied().filter(|id| *id != bot.user.id).collect();
            pairs.extend([("type".into(), "private".into()), ("to".into(), json!(others).to_string())]);
        }
    }
    super::messages::send_message(store, bot, &Params::from_pairs(pairs), now)
}

/// Why a service's answer did not count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The service answered with an error status (and maybe a body).
    Status { code: u16, body: String },
    /// The request failed before an answer: connection refused, timeout, refused address.
    Unreachable(String),
}

/// Zulip's note to a bot's owner when its service failed: a direct message from the
/// notification bot. Nothing when the organization has no notification bot or the bot no owner.
pub fn failure_notice(
    store: &impl Store,
    notification_bot: &Actor,
    bot: UserId,
    message: MessageId,
    failure: &Failure,
    now: i64,
) -> ApiResult<Outcome> {
    let (Some(bot), Some(message)) = (store.user(bot)?, store.message(message)?) else {
        return Ok(Outcome::default());
    };
    let Some(owner) =
        bot.bot_owner_id.map(|id| store.user(id)).transpose()?.flatten().filter(|o| o.is_active)
    else {
        return Ok(Outcome::default());
    };
    let link = near_message_link(store, &notification_bot.realm_url, &message)?;
    let mut text = format!(
        "[A message]({link}) to your bot {} triggered an outgoing webhook.",
        crate::links::silent_mention(&bot.full_name, bot.id)
    );
    match failure {
        Failure::Unreachable(reason) => text.push_str(&format!(
            "\nWhen trying to send a request to the webhook service, an exception occurred:\n```\n{reason}\n```"
        )),
        Failure::Status { code, body } => {
            text.push_str(&format!("\nThe webhook got a response with status code *{code}*."));
            if !body.is_empty() {
                text.push_str(&format!("\nThe response contains the following payload:\n```\n{body}\n```"));
            }
        }
    }
    let pairs = [("type", "private".to_owned()), ("to", json!([owner.id]).to_string()), ("content", text)];
    let params = Params::from_pairs(pairs.into_iter().map(|(k, v)| (k.to_owned(), v)));
    // The owner may refuse direct messages; the host then only logs the failure.
    super::messages::send_message(store, notification_bot, &params, now)
        .map_err(|e| ApiError::bad_request(format!("cannot notify the bot's owner: {}", e.msg)))
}

/// A link to the message in its conversation, as Zulip's `near_message_url`.
fn near_message_link(store: &impl Store, realm_url: &str, message: &Message) -> ApiResult<String> {
    let fragment = match &message.kind {
        MessageKind::Stream { stream_id, topic } => {
            let name = store.stream(*stream_id)?.map(|s| s.name).unwrap_or_default();
            crate::links::topic_narrow(*stream_id, &name, topic, Some(message.id))
        }
        MessageKind::Direct { participants } => {
            let ids: Vec<String> = participants.iter().map(ToString::to_string).collect();
            format!("#narrow/dm/{}/near/{}", ids.join(","), message.id)
        }
    };
    Ok(format!("{realm_url}/{fragment}"))
}
