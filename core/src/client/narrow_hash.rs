//! Narrows as the URL fragments Zulip's web app writes and reads (`hash_util.ts`
//! `search_terms_to_hash` and `parse_narrow`): `#narrow/channel/12-general/topic/greetings`,
//! `#narrow/dm/8,9-group`, `#narrow/sender/8-Iago`, `#narrow/-is/starred`, with `.XX` for what a
//! fragment cannot hold. Channels and people are written by id with a readable slug after it,
//! and read by that id; the older spellings links still carry (`stream`, `subject`, `pm-with`,
//! channel names, emails) are read too. The web app's other views (`#feed`, `#recent`,
//! `#inbox`, `#drafts`...) are not narrows: they are the front end's own.

use serde_json::Value;

use crate::links::encode_hash_component;

use super::Engine;
use super::narrow_terms::canonical_operator;
use super::types::NarrowTerm;

/// Operators whose operand names people, written as `ids-slug` (Zulip's `encode_operand`).
const PEOPLE_OPERATORS: [&str; 4] = ["dm", "dm-including", "group-pm-with", "sender"];

impl Engine {
    /// The `#narrow/...` fragment of a narrow, as Zulip's web app writes it.
    pub fn narrow_to_hash(&self, narrow: &[NarrowTerm]) -> String {
        let mut hash = String::from("#narrow");
        for term in narrow {
            let operator = canonical_operator(&term.operator);
            hash.push('/');
            if term.negated {
                hash.push('-');
            }
            hash.push_str(&encode_hash_component(operator));
            hash.push('/');
            hash.push_str(&self.encode_operand(operator, &term.operand));
        }
        hash
    }

    fn encode_operand(&self, operator: &str, operand: &Value) -> String {
        if operator == "channel"
            && let Some(id) = self.channel_id_of_operand(operand)
        {
            let name = self.channel_name(id).unwrap_or_default();
            return encode_hash_component(&format!("{id}-{}", name.replace(' ', "-")));
        }
        if PEOPLE_OPERATORS.contains(&operator)
            && let Some(ids) = self.user_ids_of_operand(operand)
        {
            return self.people_slug(operator, ids);
        }
        match operand {
            Value::String(text) => encode_hash_component(text),
            Value::Array(items) => {
                let parts: Vec<String> = items.iter().map(operand_text).collect();
                encode_hash_component(&parts.join(","))
            }
            other => encode_hash_component(&operand_text(other)),
        }
    }

    /// `8-Iago` for one person, `8,9-group` for several (Zulip's `emails_to_slug`); the user
    /// leaves a conversation's list unless alone in it.
    fn people_slug(&self, operator: &str, mut ids: Vec<u64>) -> String {
        if operator == "dm" && ids.len() > 1 {
            ids.retain(|id| *id != self.user_id);
        }
        ids.sort_unstable();
        ids.dedup();
        let list: Vec<String> = ids.iter().map(u64::to_string).collect();
        let slug = match ids.as_slice() {
            [one] => match self.user_full_name(*one) {
                Some(name) => slugify_name(name),
                None => return list.join(","),
            },
            _ => "group".to_owned(),
        };
        format!("{}-{slug}", list.join(","))
    }

    /// The narrow a `#narrow/...` fragment names, or `None` for a fragment that is not a narrow
    /// (another view, or an operator without its operand). Operators come back in their current
    /// names, channels and people as ids where the state knows them (else as written, for the
    /// server to refuse).
    pub fn hash_to_narrow(&self, hash: &str) -> Option<Vec<NarrowTerm>> {
        let hash = hash.strip_prefix('#').unwrap_or(hash);
        let mut parts = hash.split('/');
        if parts.next() != Some("narrow") {
            return None;
        }
        let parts: Vec<&str> = parts.collect();
        let mut narrow = Vec::new();
        for pair in parts.chunks(2) {
            let written = decode_hash_component(pair[0]);
            // An empty operator ends the narrow (a trailing slash).
            if written.is_empty() {
                break;
            }
            let raw_operand = *pair.get(1)?;
            let (negated, written) = match written.strip_prefix('-') {
                Some(rest) => (true, rest),
                None => (false, written.as_str()),
            };
            let operator = canonical_operator(written);
            // Only a topic may be empty (Zulip's "general chat").
            if raw_operand.is_empty() && operator != "topic" {
                return None;
            }
            let operand = self.decode_operand(operator, raw_operand);
            narrow.push(NarrowTerm { operator: operator.to_owned(), operand, negated });
        }
        Some(narrow)
    }

    fn decode_operand(&self, operator: &str, raw: &str) -> Value {
        if PEOPLE_OPERATORS.contains(&operator)
            && let Some(ids) = self.ids_of_people_slug(raw)
        {
            return people_operand(operator, ids);
        }
        let text = decode_hash_component(raw);
        match operator {
            "channel" => match self.channel_id_of_slug(&text) {
                Some(id) => Value::from(id),
                None => Value::String(text),
            },
            _ if PEOPLE_OPERATORS.contains(&operator) => {
                match self.user_ids_of_operand(&Value::String(text.clone())) {
                    Some(ids) => people_operand(operator, ids),
                    None => Value::String(text),
                }
            }
            "near" | "id" | "with" => text.parse::<u64>().map_or(Value::String(text), Value::from),
            "is" if text == "private" => Value::String("dm".into()),
            _ => Value::String(text),
        }
    }

    /// `12-general` or `12` is channel 12 when the state knows it; a name that some channel has
    /// (the links of 2017) names that channel; an unknown id is still that id (Zulip's
    /// `slug_to_stream_id`).
    fn channel_id_of_slug(&self, slug: &str) -> Option<u64> {
        let digits: String = slug.chars().take_while(char::is_ascii_digit).collect();
        let rest = &slug[digits.len()..];
        let id = digits.parse::<u64>().ok().filter(|_| rest.is_empty() || rest.starts_with('-'));
        if let Some(id) = id
            && self.channel_record(id).is_some()
        {
            return Some(id);
        }
        self.channel_id_by_name(slug).or(id)
    }

    /// The ids of `8-Iago` or `8,9-group`, the user left out unless alone (Zulip's
    /// `slug_to_emails`).
    fn ids_of_people_slug(&self, slug: &str) -> Option<Vec<u64>> {
        let list: String = slug.chars().take_while(|c| c.is_ascii_digit() || *c == ',').collect();
        let rest = &slug[list.len()..];
        if list.is_empty() || !(rest.is_empty() || rest.starts_with('-')) {
            return None;
        }
        let mut ids: Vec<u64> = list.split(',').filter_map(|id| id.parse().ok()).collect();
        if ids.len() > 1 {
            ids.retain(|id| *id != self.user_id);
        }
        (!ids.is_empty()).then_some(ids)
    }
}

/// A people operator's operand: a list for `dm`, one id for the others.
fn people_operand(operator: &str, ids: Vec<u64>) -> Value {
    match (operator, ids.as_slice()) {
        ("dm", _) => Value::from(ids),
        (_, [one]) => Value::from(*one),
        _ => Value::from(ids.iter().map(u64::to_string).collect::<Vec<_>>().join(",")),
    }
}

fn operand_text(operand: &Value) -> String {
    match operand {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// A name as a URL slug: runs of spaces, quotes, `%`, `/`, `<`, `>`, backquotes and invisible
/// characters become one `-` (Zulip's `emails_to_slug`).
fn slugify_name(name: &str) -> String {
    let mut slug = String::with_capacity(name.len());
    let mut in_run = false;
    for c in name.chars() {
        let breaks = matches!(c, ' ' | '"' | '%' | '/' | '<' | '>' | '`') || is_invisible(c);
        if breaks {
            if !in_run {
                slug.push('-');
            }
        } else {
            slug.push(c);
        }
        in_run = breaks;
    }
    slug
}

/// Control and format characters (Unicode's `C` categories that names can hold).
fn is_invisible(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{AD}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}')
}

/// Zulip's `decodeHashComponent`: `.XX` (and `%XX`) are bytes. Unlike Zulip, which gives up on
/// a fragment that does not decode, a `.` or `%` not followed by two hex digits is kept as
/// written (hand-written links such as `topic/v1.2`).
pub fn decode_hash_component(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = matches!(bytes[i], b'.' | b'%')
            && i + 2 < bytes.len()
            && bytes[i + 1].is_ascii_hexdigit()
            && bytes[i + 2].is_ascii_hexdigit();
        if escaped {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("00");
            out.push(u8::from_str_radix(hex, 16).unwrap_or(b'?'));
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::fixture::*;

    #[test]
    fn narrows_are_written_as_the_web_app_writes_them() {
        let engine = engine();
        let cases = [
            (
                vec![term("channel", json!(GENERAL)), term("topic", json!("greetings"))],
                "#narrow/channel/12-general/topic/greetings",
            ),
            (vec![term("stream", json!("design team"))], "#narrow/channel/14-design-team"),
            (vec![term("dm", json!([OTHELLO, IAGO]))], "#narrow/dm/8,9-group"),
            (vec![term("dm", json!([IAGO]))], "#narrow/dm/8-Iago"),
            (vec![term("pm-with", json!("iago@zulip.com,desdemona@zulip.com"))], "#narrow/dm/8-Iago"),
            (vec![term("dm", json!([OTHELLO]))], "#narrow/dm/9-Othello,-the-Moor-of-Venice"),
            (vec![term("dm", json!([ME]))], "#narrow/dm/10-Desdemona"),
            (vec![term("is", json!("starred"))], "#narrow/is/starred"),
            (vec![term("is", json!("mentioned"))], "#narrow/is/mentioned"),
            (vec![term("search", json!("foo"))], "#narrow/search/foo"),
            (vec![term("search", json!("lunch plans?"))], "#narrow/search/lunch.20plans.3F"),
            (vec![term("sender", json!(IAGO))], "#narrow/sender/8-Iago"),
            (vec![term("sender", json!("iago@zulip.com"))], "#narrow/sender/8-Iago"),
            (
                vec![
                    term("channel", json!(VERONA)),
                    term("subject", json!("café.v2")),
                    term("near", json!(42)),
                ],
                "#narrow/channel/13-Verona/topic/caf.C3.A9.2Ev2/near/42",
            ),
            (
                vec![term("channel", json!(ROME)), not("is", json!("resolved"))],
                "#narrow/channel/17-Rome/-is/resolved",
            ),
            (vec![term("channel", json!("nowhere"))], "#narrow/channel/nowhere"),
            (vec![], "#narrow"),
        ];
        for (narrow, hash) in cases {
            assert_eq!(engine.narrow_to_hash(&narrow), hash, "{narrow:?}");
        }
    }

    #[test]
    fn fragments_are_read_back_into_the_narrows_they_name() {
        let engine = engine();
        let cases = [
            (
                "#narrow/channel/12-general/topic/greetings",
                vec![term("channel", json!(GENERAL)), term("topic", json!("greetings"))],
            ),
            ("#narrow/dm/8,9-group", vec![term("dm", json!([IAGO, OTHELLO]))]),
            ("#narrow/dm/8-Iago", vec![term("dm", json!([IAGO]))]),
            // The user leaves the list, unless alone in it.
            ("#narrow/dm/8,10-group", vec![term("dm", json!([IAGO]))]),
            ("#narrow/dm/10-Desdemona", vec![term("dm", json!([ME]))]),
            ("#narrow/is/starred", vec![term("is", json!("starred"))]),
            ("#narrow/-is/resolved", vec![not("is", json!("resolved"))]),
            ("#narrow/search/lunch.20plans.3F", vec![term("search", json!("lunch plans?"))]),
            ("#narrow/sender/8-Iago", vec![term("sender", json!(IAGO))]),
            (
                "#narrow/channel/13-Verona/topic/caf.C3.A9.2Ev2/near/42",
                vec![
                    term("channel", json!(VERONA)),
                    term("topic", json!("café.v2")),
                    term("near", json!(42)),
                ],
            ),
            // The older spellings links still carry.
            (
                "#narrow/stream/Verona/subject/lunch",
                vec![term("channel", json!(VERONA)), term("topic", json!("lunch"))],
            ),
            ("#narrow/stream/13-verona", vec![term("channel", json!(VERONA))]),
            ("#narrow/pm-with/iago@zulip.com", vec![term("dm", json!([IAGO]))]),
            ("#narrow/pm-with/8-iago", vec![term("dm", json!([IAGO]))]),
            ("#narrow/is/private", vec![term("is", json!("dm"))]),
            ("narrow/is/mentioned", vec![term("is", json!("mentioned"))]),
            // Unknown channels: an id stays an id, a name stays a name (the server refuses them).
            ("#narrow/channel/99-gone", vec![term("channel", json!(99))]),
            ("#narrow/channel/gone", vec![term("channel", json!("gone"))]),
            // Zulip's empty topic; a trailing slash ends the narrow.
            (
                "#narrow/channel/12-general/topic/",
                vec![term("channel", json!(GENERAL)), term("topic", json!(""))],
            ),
            ("#narrow/is/starred/", vec![term("is", json!("starred"))]),
            // A hand-written dot that is not an escape stays.
            ("#narrow/topic/v1.2", vec![term("topic", json!("v1.2"))]),
            ("#narrow", vec![]),
        ];
        for (hash, narrow) in cases {
            assert_eq!(engine.hash_to_narrow(hash), Some(narrow), "{hash}");
        }
    }

    #[test]
    fn other_views_and_broken_fragments_are_not_narrows() {
        let engine = engine();
        for hash in [
            "#feed",
            "#recent",
            "#inbox",
            "#drafts",
            "#all_messages",
            "",
            "#",
            "#narrow/is/starred/near",
            "#narrow/is/",
        ] {
            assert_eq!(engine.hash_to_narrow(hash), None, "{hash}");
        }
    }

    #[test]
    fn what_is_written_reads_back() {
        let engine = engine();
        let narrows = [
            vec![
                term("channel", json!(DESIGN)),
                term("topic", json!("100% (done) / ✔ shipped")),
                term("near", json!(7)),
            ],
            vec![term("dm", json!([IAGO, HAMLET, ZOE])), term("search", json!("\"exact phrase\" -minus"))],
            vec![not("sender", json!(CORDELIA)), term("has", json!("image")), term("in", json!("home"))],
            vec![term("dm-including", json!(ZOE)), term("is", json!("unread"))],
        ];
        for narrow in narrows {
            assert_eq!(engine.hash_to_narrow(&engine.narrow_to_hash(&narrow)), Some(narrow));
        }
    }
}
