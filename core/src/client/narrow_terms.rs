//! Narrows as the client keeps them: one canonical spelling per narrow (its key), and which
//! kinds of change can move a message in or out of it.

use serde_json::Value;

use crate::api::narrow::{RawTerm, parse_terms};
use crate::error::ApiResult;

use super::types::NarrowTerm;

/// What a change to a message (or to the user's muting) can alter, as far as narrows care.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Aspects {
    pub flags: bool,
    /// Channel and topic (a move).
    pub place: bool,
    pub muting: bool,
    pub reactions: bool,
    /// The text and what the server learned from it (links, images, attachments, words).
    pub content: bool,
}

impl Aspects {
    pub fn intersects(self, other: Aspects) -> bool {
        (self.flags && other.flags)
            || (self.place && other.place)
            || (self.muting && other.muting)
            || (self.reactions && other.reactions)
            || (self.content && other.content)
    }
}

/// A narrow in canonical terms, with its key.
#[derive(Clone, Debug, PartialEq)]
pub struct CanonicalNarrow {
    pub key: String,
    pub terms: Vec<RawTerm>,
}

/// Parses and canonicalizes a narrow: operator synonyms become Zulip's current names, string
/// operands are trimmed, `dm` lists are sorted, and terms are ordered, so one narrow has one key.
pub fn canonical(terms: &[NarrowTerm]) -> ApiResult<CanonicalNarrow> {
    let wire: Vec<Value> = terms
        .iter()
        .map(|t| serde_json::json!({"operator": t.operator, "operand": t.operand, "negated": t.negated}))
        .collect();
    let mut raw = parse_terms(&Value::Array(wire))?;
    for term in &mut raw {
        term.operator = canonical_operator(&term.operator).to_owned();
        match &mut term.operand {
            Value::String(s) if term.operator != "search" => *s = s.trim().to_owned(),
            Value::Array(ids) => ids.sort_by_key(Value::to_string),
            _ => {}
        }
    }
    raw.sort_by(|a, b| {
        (&a.operator, a.operand.to_string(), a.negated).cmp(&(&b.operator, b.operand.to_string(), b.negated))
    });
    let key = Value::Array(
        raw.iter()
            .map(|t| serde_json::json!({"operator": t.operator, "operand": t.operand, "negated": t.negated}))
            .collect(),
    )
    .to_string();
    Ok(CanonicalNarrow { key, terms: raw })
}

/// Zulip's current name of an operator (`stream` is `channel`, `subject` is `topic`,
/// `pm-with` is `dm`...); names it does not rename are returned as given.
pub fn canonical_operator(operator: &str) -> &str {
    match operator {
        "stream" => "channel",
        "streams" => "channels",
        "subject" => "topic",
        "pm-with" | "pm_with" => "dm",
        "group_pm_with" => "group-pm-with",
        other => other,
    }
}

/// What a narrow's membership depends on.
pub fn dependencies(terms: &[RawTerm]) -> Aspects {
    let mut aspects = Aspects::default();
    for term in terms {
        let operand = term.operand.as_str().unwrap_or_default();
        match (term.operator.as_str(), operand) {
            ("is", "starred" | "unread" | "mentioned" | "alerted") => aspects.flags = true,
            ("is", "resolved") | ("channel" | "channels" | "topic", _) => aspects.place = true,
            ("is", "followed" | "muted") | ("in", "home") => aspects.muting = true,
            ("has", "reaction") => aspects.reactions = true,
            ("has", _) | ("search", _) => aspects.content = true,
            _ => {}
        }
    }
    // Muting is per topic, so a move changes it too.
    if aspects.muting {
        aspects.place = true;
    }
    aspects
}

/// Whether the client can decide membership itself. The server decides `has:link`, `has:image`,
/// `has:attachment` and `search:` from the Markdown source, which clients do not receive, so
/// such narrows are refetched instead.
pub fn decidable_locally(terms: &[RawTerm]) -> bool {
    !dependencies(terms).content
}

#[cfg(test)]
mod tests {
    use super::super::fixture::term;
    use super::*;
    use serde_json::json;

    #[test]
    fn synonyms_and_order_give_one_key() {
        let a = canonical(&[term("stream", json!(" general ")), term("subject", json!("lunch"))])
            .expect("canonical");
        let b = canonical(&[term("topic", json!("lunch")), term("channel", json!("general"))])
            .expect("canonical");
        assert_eq!(a.key, b.key);
        let c = canonical(&[term("dm", json!([9, 3]))]).expect("canonical");
        let d = canonical(&[term("pm-with", json!([3, 9]))]).expect("canonical");
        assert_eq!(c.key, d.key);
    }

    #[test]
    fn search_and_content_filters_are_left_to_the_server() {
        let search = canonical(&[term("search", json!("lunch"))]).expect("canonical");
        assert!(!decidable_locally(&search.terms));
        let starred = canonical(&[term("is", json!("starred"))]).expect("canonical");
        assert!(decidable_locally(&starred.terms));
        assert!(dependencies(&starred.terms).flags);
        let home = canonical(&[term("in", json!("home"))]).expect("canonical");
        assert!(dependencies(&home.terms).muting && dependencies(&home.terms).place);
    }
}
