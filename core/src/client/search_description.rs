//! What search terms find, in words, for the suggestions under the search bar (Zulip's
//! `Filter.parts_for_describe` and its template, as plain text): `#general > greetings`,
//! `sent by Iago`, `exclude starred messages`, `unresolved topics`.

use crate::wire::EMPTY_TOPIC_DISPLAY_NAME;

use super::Engine;
use super::directory::field;
use super::search_syntax::TextTerm;

impl Engine {
    /// The terms in words, joined by commas. A channel and topic that open the terms read as
    /// one `#channel > topic`. `operator_only`: the terms are operators awaiting their
    /// operands, described by what they will ask for.
    pub(super) fn describe(&self, terms: &[TextTerm], operator_only: bool) -> String {
        let mut parts = Vec::new();
        let mut rest = terms;
        if let [channel, topic, after @ ..] = terms
            && channel.operator == "channel"
            && topic.operator == "topic"
            && !channel.negated
            && !topic.negated
            && let Some(name) = self.known_channel_name(&channel.operand)
        {
            parts.push(format!("#{name} > {}", topic_display(&topic.operand)));
            rest = after;
        }
        parts.extend(rest.iter().map(|term| self.describe_term(term, operator_only)));
        parts.join(", ")
    }

    fn describe_term(&self, term: &TextTerm, operator_only: bool) -> String {
        let verb = if term.negated { "exclude " } else { "" };
        let operand = term.operand.as_str();
        let awaiting = operator_only && operand.is_empty();
        let with_operand = |prefix: &str, shown: String| {
            if awaiting { format!("{verb}{prefix}") } else { format!("{verb}{prefix} {shown}") }
        };
        match term.operator.as_str() {
            "search" => format!("search for {operand}"),
            "channel" if awaiting => format!("{verb}messages in a specific channel"),
            "channel" => {
                let name = self.known_channel_name(operand).unwrap_or(operand);
                format!("{verb}messages in #{name}")
            }
            "topic" => with_operand("topic", topic_display(operand).to_owned()),
            "sender" => with_operand("sent by", self.people_names(operand)),
            "dm" => with_operand("direct messages with", self.people_names(operand)),
            "dm-including" => with_operand("direct messages including", self.people_names(operand)),
            "group-pm-with" => with_operand("group direct messages including", self.people_names(operand)),
            "mentions" => with_operand("messages mentioning", self.people_names(operand)),
            "is" => describe_is(operand, term.negated),
            "has" => match operand {
                "link" | "image" | "attachment" | "reaction" => format!("{verb}messages with {operand}s"),
                _ => format!("invalid {operand} operand for has operator"),
            },
            "in" => with_operand("messages in", operand.to_owned()),
            "channels" => match operand {
                "web-public" => format!("{verb}all web-public channels"),
                _ => format!("{verb}all public channels"),
            },
            "id" => with_operand("message ID", operand.to_owned()),
            "near" => with_operand("messages around", operand.to_owned()),
            "with" => with_operand("the conversation of message", operand.to_owned()),
            _ => "unknown operator".to_owned(),
        }
    }

    fn known_channel_name<'a>(&'a self, operand: &str) -> Option<&'a str> {
        let id = self.channel_id_by_name(operand).or_else(|| operand.parse().ok())?;
        self.channel_record(id).map(|c| field(c, "name"))
    }

    /// People of an operand by name (the user as "me"), as typed when unknown.
    fn people_names(&self, operand: &str) -> String {
        let names: Vec<String> = operand
            .split(',')
            .filter(|part| !part.trim().is_empty())
            .map(|part| match part.trim() {
                me if me.eq_ignore_ascii_case("me") => "me".to_owned(),
                other => match self.user_id_by_operand(other) {
                    Some(id) if id == self.user_id => "me".to_owned(),
                    Some(id) => self.user_full_name(id).unwrap_or(other).to_owned(),
                    None => other.to_owned(),
                },
            })
            .collect();
        names.join(", ")
    }
}

/// An `is:` term in words; `-is:resolved` has its own ("unresolved topics").
fn describe_is(operand: &str, negated: bool) -> String {
    let words = match operand {
        "resolved" if negated => return "unresolved topics".to_owned(),
        "dm" => "direct messages",
        "starred" => "starred messages",
        "mentioned" => "@-mentions",
        "alerted" => "alerted messages",
        "unread" => "unread messages",
        "resolved" => "resolved topics",
        "followed" => "followed topics",
        "muted" => "muted messages",
        other => return format!("{}{other} messages", if negated { "exclude " } else { "" }),
    };
    if negated { format!("exclude {words}") } else { words.to_owned() }
}

/// A topic as shown: Zulip's empty topic is "general chat".
fn topic_display(topic: &str) -> &str {
    if topic.is_empty() { EMPTY_TOPIC_DISPLAY_NAME } else { topic }
}

/// The text with its first letter in capitals (each suggestion starts so).
pub(super) fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
