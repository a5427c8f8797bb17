//! Narrows: parsing both wire forms, resolving operands against the store, choosing an index,
//! and the one predicate that decides whether a message matches.

use serde_json::Value;

use crate::command::Actor;
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::ids::{MessageId, RealmId, RecipientId, StreamId, UserId};
use crate::model::{IndexedFlag, Message, MessageFlags, MessageKind};
use crate::params::{FromParam, Json, Params};
use crate::search::{self, SearchTerm};
use crate::store::{MessageIndex, Store};

use super::streams::{has_content_access, stream_by_name, stream_in_realm};
use super::user_topics::{FOLLOWED, MUTED, TopicPolicies, UNMUTED};

/// One term as a client sent it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RawTerm {
    pub operator: String,
    pub operand: Value,
    pub negated: bool,
}

fn bad_narrow(msg: impl Into<String>) -> ApiError {
    ApiError::new(ErrorCode::BadNarrow, msg)
}

/// The most terms a narrow may have. Zulip sets no limit; its clients send a handful (the
/// search bar's terms plus the view's). A hundred is far beyond any search a person types,
/// and bounds what one request or one event queue's narrow can make the server hold.
pub const MAX_NARROW_TERMS: usize = 100;
/// The longest operand a narrow term may have, in characters: ten times a topic or channel
/// name (60) and longer than any search typed; a message (10,000) is the longest text a
/// search could match whole, but no one searches with a pasted message.
pub const MAX_NARROW_OPERAND_LENGTH: usize = 1_000;
/// The longest `narrow` parameter read, in bytes: room for the most terms with the longest
/// operands, JSON escapes included. A longer one is refused before it is parsed, so a narrow
/// of megabytes costs no more than its bytes (parsed, a 10 MB narrow held 266-350 MB).
pub const MAX_NARROW_PARAM_BYTES: usize = 256 * 1024;

/// A request's `narrow` parameter as JSON, refused before parsing when it is longer than any
/// narrow within the limits could be.
pub fn narrow_param(params: &Params) -> ApiResult<Option<Value>> {
    let Some(raw) = params.raw("narrow") else { return Ok(None) };
    if raw.len() > MAX_NARROW_PARAM_BYTES {
        return Err(ApiError::bad_request(format!(
            "narrow is too long (limit: {MAX_NARROW_PARAM_BYTES} bytes)"
        )));
    }
    let Json(value) = Json::<Value>::from_param("narrow", raw)?;
    check_narrow_size(&value)?;
    Ok(Some(value))
}

/// A narrow's terms and operands within [`MAX_NARROW_TERMS`] and [`MAX_NARROW_OPERAND_LENGTH`]
/// (in either wire form; what is not a narrow is left to the parsers to refuse).
pub fn check_narrow_size(narrow: &Value) -> ApiResult<()> {
    let Value::Array(terms) = narrow else { return Ok(()) };
    if terms.len() > MAX_NARROW_TERMS {
        return Err(ApiError::bad_request(format!("narrow has too many terms (limit: {MAX_NARROW_TERMS})")));
    }
    for (index, term) in terms.iter().enumerate() {
        let operand = match term {
            Value::Array(pair) => pair.get(1),
            Value::Object(fields) => fields.get("operand"),
            _ => None,
        };
        let length = match operand {
            Some(Value::String(text)) => text.chars().count(),
            Some(Value::Array(items)) => items.len(),
            _ => 0,
        };
        if length > MAX_NARROW_OPERAND_LENGTH {
            return Err(ApiError::bad_request(format!(
                "narrow[{index}] operand is too long (limit: {MAX_NARROW_OPERAND_LENGTH} characters)"
            )));
        }
    }
    Ok(())
}

/// Parses a narrow in either wire form: `[{"operator":..,"operand":..,"negated":..}]` or
/// `[["operator","operand"]]`.
pub fn parse_terms(narrow: &Value) -> ApiResult<Vec<RawTerm>> {
    let Value::Array(items) = narrow else {
        return Err(ApiError::bad_request("narrow is not a list"));
    };
    items
        .iter()
        .enumerate()
        .map(|(index, item)| match item {
            Value::Array(pair) if pair.len() == 2 => match (&pair[0], &pair[1]) {
                (Value::String(op), operand) => {
                    Ok(RawTerm { operator: op.clone(), operand: operand.clone(), negated: false })
                }
                _ => Err(ApiError::bad_request(format!("narrow[{index}] is not a valid narrow term"))),
            },
            Value::Object(fields) => {
                let operator = match fields.get("operator") {
                    Some(Value::String(op)) => op.clone(),
                    _ => return Err(ApiError::bad_request(format!("narrow[{index}] is missing 'operator'"))),
                };
                let operand = match fields.get("operand") {
                    Some(Value::Null) | None => {
                        return Err(ApiError::bad_request(format!("narrow[{index}] is missing 'operand'")));
                    }
                    Some(v) => v.clone(),
                };
                let negated = match fields.get("negated") {
                    None | Some(Value::Null) => false,
                    Some(Value::Bool(b)) => *b,
                    Some(_) => {
                        return Err(ApiError::bad_request(format!(
                            "narrow[{index}][\"negated\"] is not a boolean"
                        )));
                    }
                };
                Ok(RawTerm { operator, operand, negated })
            }
            _ => Err(ApiError::bad_request(format!("narrow[{index}] is not a valid narrow term"))),
        })
        .collect()
}

/// What an `is:` operand asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IsOperand {
    Private,
    Starred,
    Mentioned,
    Unread,
    Alerted,
    Resolved,
    Followed,
    Muted,
}

/// What a `has:` operand asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HasOperand {
    Link,
    Image,
    Attachment,
    Reaction,
}

/// A user's visibility policy for a topic (Zulip's `UserTopic.VisibilityPolicy`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TopicVisibility {
    #[default]
    Inherit,
    Muted,
    Unmuted,
    Followed,
}

impl TopicVisibility {
    /// The policy a stored or sent `visibility_policy` number names (0 and unknown: inherit).
    pub fn from_policy(policy: i64) -> Self {
        match policy {
            MUTED => TopicVisibility::Muted,
            UNMUTED => TopicVisibility::Unmuted,
            FOLLOWED => TopicVisibility::Followed,
            _ => TopicVisibility::Inherit,
        }
    }

    /// Whether a topic with this policy is muted for the viewer, given whether its channel is:
    /// a muted topic, or a muted channel's topic the viewer did not unmute or follow (Zulip's
    /// `exclude_stream_and_topic_mutes`).
    pub fn mutes(self, channel_muted: bool) -> bool {
        match self {
            TopicVisibility::Muted => true,
            TopicVisibility::Unmuted | TopicVisibility::Followed => false,
            TopicVisibility::Inherit => channel_muted,
        }
    }
}

/// A term resolved against the store.
#[derive(Clone, Debug, PartialEq)]
pub enum Condition {
    Stream {
        id: StreamId,
        recipient: RecipientId,
    },
    /// `channels:public` (`web_public: false`) or `channels:web-public`.
    Channels {
        web_public: bool,
    },
    Topic(String),
    /// A direct-message conversation: the recipient id as the viewer sees it. `None` names a
    /// conversation that has never existed, which matches nothing.
    Conversation(Option<RecipientId>),
    /// Direct messages that include this user (all direct messages when it is the viewer).
    DmIncluding(UserId),
    /// Group direct messages (three or more people) that include this user.
    GroupDmWith(UserId),
    Sender(UserId),
    Is(IsOperand),
    Has(HasOperand),
    /// `in:home`: not in a muted channel or topic.
    InHome,
    /// Not in a topic the viewer muted, whatever the channel's muting: how the first unread
    /// message is found within one channel's view.
    NotInMutedTopic,
    Id(MessageId),
    /// Words and quoted phrases that must all appear in the content or topic.
    Search(Vec<SearchTerm>),
    /// Operators that filter nothing on the server (`near`, `in:all`).
    Always,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Term {
    pub condition: Condition,
    pub negated: bool,
}

/// A resolved narrow, for one viewer.
#[derive(Clone, Debug, PartialEq)]
pub struct Narrow {
    pub viewer: UserId,
    pub realm: RealmId,
    pub terms: Vec<Term>,
    /// Whether channel history the viewer never received may be shown (Zulip's
    /// `include_history`): a channel (or `channels:public`) whose history the viewer may read,
    /// and no `is:` term but `is:resolved`.
    pub include_history: bool,
    /// The viewer's topic preferences, read only when a term depends on them.
    pub topic_policies: TopicPolicies,
}

/// What the predicate knows about one message, for one viewer. The caller fills it (see
/// [`facts`]); the predicate itself reads nothing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MessageFacts {
    /// The viewer's flags, or `None` if the viewer never received the message.
    pub flags: Option<MessageFlags>,
    /// The message's recipient id as the viewer sees it.
    pub conversation: RecipientId,
    pub has_reaction: bool,
    /// The message's channel is public with shared history / is web-public.
    pub public_channel: bool,
    pub web_public_channel: bool,
    /// The viewer muted the message's channel (and is still subscribed to it).
    pub channel_muted: bool,
    /// The viewer's policy for the message's topic.
    pub topic_visibility: TopicVisibility,
}

/// Gathers the facts a narrow needs about a message; lookups the narrow does not need are
/// skipped.
pub fn facts(store: &impl Store, narrow: &Narrow, message: &Message) -> ApiResult<MessageFacts> {
    let mut facts = MessageFacts {
        flags: store.message_flags(narrow.viewer, message.id)?,
        conversation: crate::wire::conversation_recipient(store, message, narrow.viewer)?,
        ..MessageFacts::default()
    };
    let needs = |wanted: fn(&Condition) -> bool| narrow.terms.iter().any(|t| wanted(&t.condition));
    if needs(|c| matches!(c, Condition::Has(HasOperand::Reaction))) {
        facts.has_reaction = !store.reactions(message.id)?.is_empty();
    }
    if let Some(stream_id) = message.stream_id() {
        if needs(|c| matches!(c, Condition::Channels { .. }))
            && let Some(stream) = store.stream(stream_id)?
        {
            facts.public_channel = !stream.invite_only && stream.history_public_to_subscribers;
            facts.web_public_channel = stream.is_web_public;
        }
        if needs(|c| matches!(c, Condition::InHome | Condition::Is(IsOperand::Muted))) {
            facts.channel_muted =
                store.subscription(narrow.viewer, stream_id)?.is_some_and(|s| s.active && s.is_muted);
        }
        if needs(depends_on_topic_policies) {
            facts.topic_visibility = narrow.topic_policies.of(stream_id, message.topic());
        }
    }
    Ok(facts)
}

/// Whether deciding a condition needs the viewer's topic preferences.
fn depends_on_topic_policies(condition: &Condition) -> bool {
    matches!(
        condition,
        Condition::InHome
            | Condition::NotInMutedTopic
            | Condition::Is(IsOperand::Muted)
            | Condition::Is(IsOperand::Followed)
    )
}

fn operand_str(term: &RawTerm) -> ApiResult<&str> {
    term.operand.as_str().ok_or_else(|| bad_narrow(format!("Invalid narrow operand for {}", term.operator)))
}

fn resolve_user(store: &impl Store, actor: &Actor, operand: &Value) -> ApiResult<Option<UserId>> {
    let user = match operand {
        Value::Number(n) => n.as_u64().map(UserId).and_then(|id| store.user(id).ok().flatten()),
        Value::String(s) => match s.trim().parse::<u64>() {
            Ok(id) => store.user(UserId(id))?,
            Err(_) => match crate::api::users::user_by_api_email(store, actor.realm.id, s.trim())? {
                Some(id) => store.user(id)?,
                None => None,
            },
        },
        _ => None,
    };
    Ok(user.filter(|u| u.realm_id == actor.realm.id).map(|u| u.id))
}

/// The conversation recipient of a `dm` operand, as the viewer sees it.
fn resolve_conversation(
    store: &impl Store,
    actor: &Actor,
    operand: &Value,
) -> ApiResult<Option<RecipientId>> {
    let members: Vec<Value> = match operand {
        Value::Array(items) => items.clone(),
        Value::Number(_) => vec![operand.clone()],
        Value::String(s) => {
            s.split(',').map(|e| Value::String(e.trim().to_owned())).filter(|v| v != "").collect()
        }
        _ => return Err(bad_narrow("Invalid narrow operand for dm")),
    };
    let mut ids = Vec::with_capacity(members.len() + 1);
    for member in &members {
        let id =
            resolve_user(store, actor, member)?.ok_or_else(|| bad_narrow("Invalid user in dm narrow"))?;
        ids.push(id);
    }
    if ids.is_empty() {
        return Ok(None);
    }
    ids.push(actor.user.id);
    ids.sort_unstable();
    ids.dedup();
    match ids.as_slice() {
        [me] => Ok(store.user(*me)?.map(|u| u.personal_recipient)),
        [a, b] => {
            let other = if *a == actor.user.id { *b } else { *a };
            Ok(store.user(other)?.map(|u| u.personal_recipient))
        }
        _ => store.direct_group(&crate::model::direct_group_key(&ids)),
    }
}

/// Zulip's `with` operator: a message id standing for its conversation. When the viewer can
/// read that message, the conversation terms are replaced by the message's current channel and
/// topic (or direct-message participants), so links keep working after a move.
fn rewrite_with(store: &impl Store, actor: &Actor, raw: &[RawTerm]) -> ApiResult<Vec<RawTerm>> {
    let with: Vec<&RawTerm> = raw.iter().filter(|t| t.operator == "with").collect();
    let [with] = with.as_slice() else {
        if with.len() > 1 {
            return Err(bad_narrow("Duplicate 'with' operators."));
        }
        return Ok(raw.to_vec());
    };
    let id = match &with.operand {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse::<u64>().ok(),
        _ => None,
    };
    let message = match id {
        Some(id) => store.message(MessageId(id))?,
        None => None,
    };
    let readable = match &message {
        Some(m) => crate::api::messages::visible_flags(store, &actor.user, m)?.is_some(),
        None => false,
    };
    let conversation_ops = ["channel", "stream", "topic", "subject", "dm", "pm-with", "pm_with"];
    let rest: Vec<RawTerm> = raw.iter().filter(|t| t.operator != "with").cloned().collect();
    let Some(message) = message.filter(|_| readable) else {
        let has = |ops: &[&str]| rest.iter().any(|t| !t.negated && ops.contains(&t.operator.as_str()));
        if has(&["dm", "pm-with", "pm_with"]) || (has(&["channel", "stream"]) && has(&["topic", "subject"])) {
            return Ok(rest);
        }
        return Err(bad_narrow("Invalid 'with' operator"));
    };
    let mut rewritten: Vec<RawTerm> = match &message.kind {
        MessageKind::Stream { stream_id, topic } => vec![
            RawTerm { operator: "channel".into(), operand: Value::from(stream_id.0), negated: false },
            RawTerm { operator: "topic".into(), operand: Value::from(topic.clone()), negated: false },
        ],
        MessageKind::Direct { participants } => {
            let others: Vec<Value> =
                participants.iter().filter(|u| **u != actor.user.id).map(|u| Value::from(u.0)).collect();
            let operand = if others.is_empty() { vec![Value::from(actor.user.id.0)] } else { others };
            vec![RawTerm { operator: "dm".into(), operand: Value::Array(operand), negated: false }]
        }
    };
    rewritten.extend(rest.into_iter().filter(|t| !conversation_ops.contains(&t.operator.as_str())));
    Ok(rewritten)
}

/// Resolves raw terms for the actor. Unknown operators and operands are `BAD_NARROW`.
pub fn resolve(store: &impl Store, actor: &Actor, raw: &[RawTerm]) -> ApiResult<Narrow> {
    let raw = rewrite_with(store, actor, raw)?;
    let mut terms = Vec::with_capacity(raw.len());
    let mut has_channel_term = false;
    let mut has_dm_term = false;
    let mut readable_history = false;
    let mut has_is_term = false;
    for term in &raw {
        let condition = match term.operator.as_str() {
            "channel" | "stream" => {
                let stream = match &term.operand {
                    Value::Number(n) => match n.as_u64() {
                        Some(id) => stream_in_realm(store, actor, StreamId(id))?,
                        None => None,
                    },
                    Value::String(s) => match s.trim().parse::<u64>() {
                        Ok(id) if stream_by_name(store, actor, s)?.is_none() => {
                            stream_in_realm(store, actor, StreamId(id))?
                        }
                        _ => stream_by_name(store, actor, s)?,
                    },
                    _ => None,
                };
                let stream = stream.ok_or_else(|| bad_narrow("Invalid narrow operator: unknown channel"))?;
                if !term.negated {
                    has_channel_term = true;
                    readable_history = readable_history
                        || (stream.history_public_to_subscribers
                            && has_content_access(store, &actor.user, &stream)?);
                }
                Condition::Stream { id: stream.id, recipient: stream.recipient_id }
            }
            "channels" | "streams" => {
                let web_public = match operand_str(term)? {
                    "public" => false,
                    "web-public" => true,
                    other => {
                        return Err(bad_narrow(format!(
                            "Invalid narrow operand: unknown channels operand {other}"
                        )));
                    }
                };
                if !term.negated {
                    has_channel_term = true;
                    // Spectators read web-public channels only.
                    let readable =
                        if actor.user.is_spectator() { web_public } else { !actor.user.is_guest() };
                    readable_history = readable_history || readable;
                }
                Condition::Channels { web_public }
            }
            "topic" | "subject" => Condition::Topic(operand_str(term)?.trim().to_lowercase()),
            "dm" | "pm-with" | "pm_with" => {
                if !term.negated {
                    has_dm_term = true;
                }
                Condition::Conversation(resolve_conversation(store, actor, &term.operand)?)
            }
            "dm-including" => {
                if !term.negated {
                    has_dm_term = true;
                }
                Condition::DmIncluding(
                    resolve_user(store, actor, &term.operand)?
                        .ok_or_else(|| bad_narrow("Invalid narrow operator: unknown user"))?,
                )
            }
            "group-pm-with" | "group_pm_with" => {
                if !term.negated {
                    has_dm_term = true;
                }
                Condition::GroupDmWith(
                    resolve_user(store, actor, &term.operand)?
                        .ok_or_else(|| bad_narrow("Invalid narrow operator: unknown user"))?,
                )
            }
            "sender" => Condition::Sender(
                resolve_user(store, actor, &term.operand)?
                    .ok_or_else(|| bad_narrow("Invalid narrow operator: unknown user"))?,
            ),
            "is" => {
                let operand = match operand_str(term)? {
                    "dm" | "private" => IsOperand::Private,
                    "starred" => IsOperand::Starred,
                    "mentioned" => IsOperand::Mentioned,
                    "unread" => IsOperand::Unread,
                    "alerted" => IsOperand::Alerted,
                    "resolved" => IsOperand::Resolved,
                    "followed" => IsOperand::Followed,
                    "muted" => IsOperand::Muted,
                    other => {
                        return Err(bad_narrow(format!(
                            "Invalid narrow operator: unknown 'is' operand {other}"
                        )));
                    }
                };
                if operand == IsOperand::Private {
                    if term.negated {
                        has_channel_term = true;
                    } else {
                        has_dm_term = true;
                    }
                }
                if operand != IsOperand::Resolved {
                    has_is_term = true;
                }
                Condition::Is(operand)
            }
            "has" => Condition::Has(match operand_str(term)? {
                "link" => HasOperand::Link,
                "image" => HasOperand::Image,
                "attachment" => HasOperand::Attachment,
                "reaction" => HasOperand::Reaction,
                other => {
                    return Err(bad_narrow(format!(
                        "Invalid narrow operator: unknown 'has' operand {other}"
                    )));
                }
            }),
            "in" => match operand_str(term)? {
                "home" => Condition::InHome,
                "all" => Condition::Always,
                other => {
                    return Err(bad_narrow(format!("Invalid narrow operator: unknown 'in' operand {other}")));
                }
            },
            "id" => {
                let id = match &term.operand {
                    Value::Number(n) => n.as_u64(),
                    Value::String(s) => s.trim().parse::<u64>().ok(),
                    _ => None,
                };
                match id {
                    Some(id) if id <= i32::MAX as u64 => Condition::Id(MessageId(id)),
                    _ => return Err(bad_narrow("Invalid message ID")),
                }
            }
            "search" => {
                let query = operand_str(term)?;
                if query.trim().is_empty() {
                    return Err(bad_narrow("Invalid narrow operand for search"));
                }
                Condition::Search(search::parse_query(query))
            }
            "near" => Condition::Always,
            other => return Err(bad_narrow(format!("Invalid narrow operator: unknown operator {other}"))),
        };
        terms.push(Term { condition, negated: term.negated });
    }
    if has_channel_term && has_dm_term {
        return Err(bad_narrow("No message can be both a channel message and direct message"));
    }
    let topic_policies = if terms.iter().any(|t| depends_on_topic_policies(&t.condition)) {
        TopicPolicies::load(store, actor.user.id)?
    } else {
        TopicPolicies::default()
    };
    Ok(Narrow {
        viewer: actor.user.id,
        realm: actor.realm.id,
        terms,
        include_history: readable_history && !has_is_term,
        topic_policies,
    })
}

impl Narrow {
    /// The narrow without what the viewer muted, as Zulip looks for the first unread message
    /// (`exclude_muting_conditions`): in a channel's view only that channel's muted topics are
    /// left out, since a muted channel is still read from its own view; elsewhere muted
    /// channels are too, except topics the viewer unmuted or followed.
    pub fn without_muted(mut self, store: &impl Store) -> ApiResult<Narrow> {
        let in_channel = self.terms.iter().any(|t| matches!(t.condition, Condition::Stream { .. }));
        let condition = if in_channel { Condition::NotInMutedTopic } else { Condition::InHome };
        self.terms.push(Term { condition, negated: false });
        self.topic_policies = TopicPolicies::load(store, self.viewer)?;
        Ok(self)
    }

    /// The narrowest index that holds every match, so fetching never scans all messages.
    pub fn index(&self) -> MessageIndex {
        let positive = || self.terms.iter().filter(|t| !t.negated).map(|t| &t.condition);
        if let Some(conversation) = positive().find_map(|c| match c {
            Condition::Conversation(Some(r)) => Some(*r),
            _ => None,
        }) {
            return MessageIndex::UserConversation(self.viewer, conversation);
        }
        if let Some(recipient) = positive().find_map(|c| match c {
            Condition::Stream { recipient, .. } => Some(*recipient),
            _ => None,
        }) {
            return match positive().find_map(|c| match c {
                Condition::Topic(t) => Some(t.clone()),
                _ => None,
            }) {
                Some(topic) if self.include_history => MessageIndex::Topic(recipient, topic),
                None if self.include_history => MessageIndex::Recipient(recipient),
                _ => MessageIndex::UserHistory(self.viewer),
            };
        }
        for condition in positive() {
            let flag = match condition {
                Condition::Is(IsOperand::Unread) => IndexedFlag::Unread,
                Condition::Is(IsOperand::Starred) => IndexedFlag::Starred,
                Condition::Is(IsOperand::Mentioned) => IndexedFlag::Mentioned,
                Condition::Is(IsOperand::Alerted) => IndexedFlag::HasAlertWord,
                Condition::Is(IsOperand::Private) => IndexedFlag::Private,
                _ => continue,
            };
            return MessageIndex::UserFlag(self.viewer, flag);
        }
        if let Some(word) = positive().find_map(|c| match c {
            Condition::Search(terms) => terms.iter().find_map(|t| match t {
                SearchTerm::Word(w) => Some(w.clone()),
                SearchTerm::Phrase(_) => None,
            }),
            _ => None,
        }) {
            return MessageIndex::Word(self.realm, word);
        }
        if let Some(sender) = positive().find_map(|c| match c {
            Condition::Sender(u) => Some(*u),
            _ => None,
        }) {
            return MessageIndex::Sender(sender);
        }
        if self.include_history && positive().any(|c| matches!(c, Condition::Channels { .. })) {
            return MessageIndex::Realm(self.realm);
        }
        MessageIndex::UserHistory(self.viewer)
    }

    /// Whether the message matches every term, given what is known about it for the viewer.
    pub fn matches(&self, msg: &Message, facts: &MessageFacts) -> bool {
        let flags = facts.flags.unwrap_or(MessageFlags::READ.with(MessageFlags::HISTORICAL));
        let muted = !msg.is_direct() && facts.topic_visibility.mutes(facts.channel_muted);
        let in_muted_topic = !msg.is_direct() && facts.topic_visibility == TopicVisibility::Muted;
        self.terms.iter().all(|term| {
            let holds = match &term.condition {
                Condition::Stream { id, .. } => msg.stream_id() == Some(*id),
                Condition::Channels { web_public: false } => facts.public_channel,
                Condition::Channels { web_public: true } => facts.web_public_channel,
                Condition::Topic(topic) => !msg.is_direct() && msg.topic().to_lowercase() == *topic,
                Condition::Conversation(Some(r)) => msg.is_direct() && facts.conversation == *r,
                Condition::Conversation(None) => false,
                Condition::DmIncluding(user) => match &msg.kind {
                    MessageKind::Direct { participants } => {
                        *user == self.viewer || participants.contains(user)
                    }
                    MessageKind::Stream { .. } => false,
                },
                Condition::GroupDmWith(user) => match &msg.kind {
                    MessageKind::Direct { participants } => {
                        participants.len() > 2 && participants.contains(user)
                    }
                    MessageKind::Stream { .. } => false,
                },
                Condition::Sender(user) => msg.sender_id == *user,
                Condition::Is(IsOperand::Private) => msg.is_direct(),
                Condition::Is(IsOperand::Starred) => flags.contains(MessageFlags::STARRED),
                Condition::Is(IsOperand::Mentioned) => flags.intersects(MessageFlags::any_mention()),
                Condition::Is(IsOperand::Unread) => !flags.contains(MessageFlags::READ),
                Condition::Is(IsOperand::Alerted) => flags.contains(MessageFlags::HAS_ALERT_WORD),
                Condition::Is(IsOperand::Resolved) => {
                    !msg.is_direct() && msg.topic().starts_with(crate::api::messages::RESOLVED_TOPIC_PREFIX)
                }
                Condition::Is(IsOperand::Followed) => {
                    !msg.is_direct() && facts.topic_visibility == TopicVisibility::Followed
                }
                Condition::Is(IsOperand::Muted) => muted,
                Condition::InHome => !muted,
                Condition::NotInMutedTopic => !in_muted_topic,
                Condition::Has(HasOperand::Link) => msg.has_link,
                Condition::Has(HasOperand::Image) => msg.has_image,
                Condition::Has(HasOperand::Attachment) => msg.has_attachment,
                Condition::Has(HasOperand::Reaction) => facts.has_reaction,
                Condition::Id(id) => msg.id == *id,
                Condition::Search(terms) => search::matches(terms, &msg.content, msg.topic()),
                Condition::Always => true,
            };
            holds != term.negated
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn both_wire_forms_parse_to_the_same_terms() {
        let legacy = parse_terms(&json!([["stream", "general"], ["topic", "lunch"]])).unwrap_or_default();
        let modern = parse_terms(&json!([
            {"operator": "stream", "operand": "general"},
            {"operator": "topic", "operand": "lunch", "negated": false}
        ]))
        .unwrap_or_default();
        assert_eq!(legacy.len(), 2);
        assert_eq!(legacy, modern);
    }

    #[test]
    fn malformed_narrows_are_bad_requests() {
        for bad in
            [json!({}), json!([1]), json!([["a"]]), json!([{"operand": "x"}]), json!([{"operator": "is"}])]
        {
            assert!(parse_terms(&bad).is_err(), "{bad}");
        }
    }
}
