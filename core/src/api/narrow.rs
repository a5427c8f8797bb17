//! Narrows: parsing both wire forms, resolving operands against the store, choosing an index,
//! and the one predicate that decides whether a message matches.

use serde_json::Value;

use crate::command::Actor;
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::ids::{MessageId, RealmId, RecipientId, StreamId, UserId};
use crate::model::{IndexedFlag, Message, MessageFlags, MessageKind};
use crate::search::{self, SearchTerm};
use crate::store::{MessageIndex, Store};

use super::streams::{has_content_access, stream_by_name, stream_in_realm};

/// One term as a client sent it.
#[derive(Clone, Debug, PartialEq)]
pub struct RawTerm {
    pub operator: String,
    pub operand: Value,
    pub negated: bool,
}

fn bad_narrow(msg: impl Into<String>) -> ApiError {
    ApiError::new(ErrorCode::BadNarrow, msg)
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
}

/// A term resolved against the store.
#[derive(Clone, Debug, PartialEq)]
pub enum Condition {
    Stream {
        id: StreamId,
        recipient: RecipientId,
    },
    Topic(String),
    /// A direct-message conversation: the recipient id as the viewer sees it. `None` names a
    /// conversation that has never existed, which matches nothing.
    Conversation(Option<RecipientId>),
    /// Direct messages that include this user.
    DmIncluding(UserId),
    Sender(UserId),
    Is(IsOperand),
    Id(MessageId),
    /// Words and quoted phrases that must all appear in the content or topic.
    Search(Vec<SearchTerm>),
    /// Operators that filter nothing on the server (`near`, `in:all`, `in:home` until muting).
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
    /// `include_history`): a channel whose history the viewer may read, and no `is:` term.
    pub include_history: bool,
}

fn operand_str(term: &RawTerm) -> ApiResult<&str> {
    term.operand.as_str().ok_or_else(|| bad_narrow(format!("Invalid narrow operand for {}", term.operator)))
}

fn resolve_user(store: &impl Store, actor: &Actor, operand: &Value) -> ApiResult<Option<UserId>> {
    let user = match operand {
        Value::Number(n) => n.as_u64().map(UserId).and_then(|id| store.user(id).ok().flatten()),
        Value::String(s) => match s.trim().parse::<u64>() {
            Ok(id) => store.user(UserId(id))?,
            Err(_) => match store.user_by_email(actor.realm.id, s.trim())? {
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

/// Resolves raw terms for the actor. Unknown operators and operands are `BAD_NARROW`.
pub fn resolve(store: &impl Store, actor: &Actor, raw: &[RawTerm]) -> ApiResult<Narrow> {
    let mut terms = Vec::with_capacity(raw.len());
    let mut has_channel_term = false;
    let mut has_dm_term = false;
    let mut readable_channel = false;
    let mut has_is_term = false;
    for term in raw {
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
                    readable_channel = readable_channel
                        || (stream.history_public_to_subscribers
                            && has_content_access(store, &actor.user, &stream)?);
                }
                Condition::Stream { id: stream.id, recipient: stream.recipient_id }
            }
            "topic" | "subject" => Condition::Topic(operand_str(term)?.trim().to_lowercase()),
            "dm" | "pm-with" | "pm_with" => {
                if !term.negated {
                    has_dm_term = true;
                }
                Condition::Conversation(resolve_conversation(store, actor, &term.operand)?)
            }
            "dm-including" | "group-pm-with" | "group_pm_with" => {
                if !term.negated {
                    has_dm_term = true;
                }
                let user = resolve_user(store, actor, &term.operand)?
                    .ok_or_else(|| bad_narrow("Invalid narrow operator: unknown user"))?;
                Condition::DmIncluding(user)
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
                    other => {
                        return Err(bad_narrow(format!(
                            "Invalid narrow operator: unknown 'is' operand {other}"
                        )));
                    }
                };
                if operand == IsOperand::Private && !term.negated {
                    has_dm_term = true;
                }
                if operand == IsOperand::Private && term.negated {
                    has_channel_term = true;
                }
                if operand != IsOperand::Resolved {
                    has_is_term = true;
                }
                Condition::Is(operand)
            }
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
            "in" => match operand_str(term)? {
                "all" | "home" => Condition::Always,
                other => {
                    return Err(bad_narrow(format!("Invalid narrow operator: unknown 'in' operand {other}")));
                }
            },
            other => return Err(bad_narrow(format!("Invalid narrow operator: unknown operator {other}"))),
        };
        terms.push(Term { condition, negated: term.negated });
    }
    if has_channel_term && has_dm_term {
        return Err(bad_narrow("No message can be both a channel message and direct message"));
    }
    Ok(Narrow {
        viewer: actor.user.id,
        realm: actor.realm.id,
        terms,
        include_history: readable_channel && !has_is_term,
    })
}

impl Narrow {
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
        MessageIndex::UserHistory(self.viewer)
    }

    /// Whether the message matches every term. `flags` are the viewer's flags, or `None` if the
    /// viewer never received it. `conversation` is the message's recipient id as the viewer sees
    /// it (see [`crate::wire::conversation_recipient`]).
    pub fn matches(&self, msg: &Message, flags: Option<MessageFlags>, conversation: RecipientId) -> bool {
        let flags_value = flags.unwrap_or(MessageFlags::READ.with(MessageFlags::HISTORICAL));
        self.terms.iter().all(|term| {
            let holds = match &term.condition {
                Condition::Stream { id, .. } => msg.stream_id() == Some(*id),
                Condition::Topic(topic) => !msg.is_direct() && msg.topic().to_lowercase() == *topic,
                Condition::Conversation(Some(r)) => msg.is_direct() && conversation == *r,
                Condition::Conversation(None) => false,
                Condition::DmIncluding(user) => match &msg.kind {
                    MessageKind::Direct { participants } => participants.contains(user),
                    MessageKind::Stream { .. } => false,
                },
                Condition::Sender(user) => msg.sender_id == *user,
                Condition::Is(IsOperand::Private) => msg.is_direct(),
                Condition::Is(IsOperand::Starred) => flags_value.contains(MessageFlags::STARRED),
                Condition::Is(IsOperand::Mentioned) => flags_value.intersects(MessageFlags::any_mention()),
                Condition::Is(IsOperand::Unread) => !flags_value.contains(MessageFlags::READ),
                Condition::Is(IsOperand::Alerted) => flags_value.contains(MessageFlags::HAS_ALERT_WORD),
                Condition::Is(IsOperand::Resolved) => !msg.is_direct() && msg.topic().starts_with("✔ "),
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
