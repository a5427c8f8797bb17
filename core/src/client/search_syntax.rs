//! Zulip's search syntax (`filter.ts` `Filter.parse` and `Filter.unparse`): `operator:operand`
//! terms, `-` to negate one, `"quoted operands"` or `+` for spaces, and the rest free text.
//!
//! The text becomes [`TextTerm`]s (operands as typed), which [`Engine::parse_search`] turns
//! into a narrow the server accepts: channel names become ids, people become user ids (`me`
//! too), and a term whose operand cannot be valid (`is:everything`, `id:abc`) is searched for
//! as text, as an unknown operator is (`https://example.com`). All free text becomes one
//! `search` term, last. A channel or person the state does not know keeps its name or email,
//! so that the server's refusal ("unknown channel") tells the user, rather than a search for
//! the words.

use serde_json::Value;

use super::Engine;
use super::directory::field;
use super::narrow_terms::canonical_operator;
use super::types::NarrowTerm;

/// One term as the search bar holds it: the operand as text (Zulip's `NarrowTermSuggestion`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct TextTerm {
    pub operator: String,
    pub operand: String,
    pub negated: bool,
}

impl TextTerm {
    pub fn new(operator: &str, operand: &str, negated: bool) -> TextTerm {
        TextTerm { operator: operator.to_owned(), operand: operand.to_owned(), negated }
    }
}

/// Operators the search bar knows (others are text). `from` and `mentions:me` are Zulip's
/// spellings of `sender` and `is:mentioned`.
const OPERATORS: [&str; 20] = [
    "channel",
    "stream",
    "channels",
    "streams",
    "topic",
    "subject",
    "dm",
    "pm-with",
    "dm-including",
    "group-pm-with",
    "sender",
    "from",
    "is",
    "has",
    "in",
    "id",
    "near",
    "with",
    "search",
    "mentions",
];

/// Operators whose operands are emails, in which `+` is a plus.
const PEOPLE_OPERATORS: [&str; 6] = ["dm", "pm-with", "dm-including", "group-pm-with", "sender", "from"];

/// Splits search text into terms, in order, as Zulip's `Filter.parse` does: free text between
/// operators is one `search` term each. Operators come out in their current names and operands
/// as Zulip canonicalizes them (`is:private` is `is:dm`, `has:images` is `has:image`).
pub(super) fn tokenize(query: &str) -> Vec<TextTerm> {
    let mut terms = Vec::new();
    let mut text: Vec<&str> = Vec::new();
    let flush = |text: &mut Vec<&str>, terms: &mut Vec<TextTerm>| {
        if !text.is_empty() {
            terms.push(TextTerm::new("search", &text.join(" "), false));
            text.clear();
        }
    };
    for token in tokens(query) {
        let Some((operator, operand)) = token.split_once(':').filter(|_| !token.starts_with('"')) else {
            text.push(token);
            continue;
        };
        let operator = operator.to_lowercase();
        let (negated, operator) = match operator.strip_prefix('-') {
            Some(rest) => (true, rest.to_owned()),
            None => (false, operator),
        };
        if !OPERATORS.contains(&operator.as_str()) {
            text.push(token);
            continue;
        }
        flush(&mut text, &mut terms);
        let operand = decode_operand(operand, &operator);
        terms.push(canonical_text_term(&operator, operand, negated));
    }
    flush(&mut text, &mut terms);
    terms
}

/// Zulip's `canonicalize_term` on text: current operator names, and operands as compared.
fn canonical_text_term(operator: &str, operand: String, negated: bool) -> TextTerm {
    let operator = match canonical_operator(operator) {
        "from" => "sender",
        other => other,
    };
    let operand = match operator {
        "is" if operand.eq_ignore_ascii_case("private") => "dm".to_owned(),
        "has" => operand.to_lowercase().trim_end_matches('s').to_owned(),
        // Curly quotes (macOS substitutes them) do not make phrases.
        "search" => operand.replace(['\u{201C}', '\u{201D}'], "\""),
        "is" | "in" | "channels" | "id" | "near" | "with" | "mentions" => operand.to_lowercase(),
        _ => operand,
    };
    TextTerm { operator: operator.to_owned(), operand, negated }
}

/// The tokens of Zulip's `([^\s:]+:)?("[^"]+"?|\S+)`: an optional `operator:`, then a quoted
/// operand (which may hold spaces, and may be left open) or a run without spaces.
fn tokens(query: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    let mut rest = query.trim_start();
    while !rest.is_empty() {
        let with_operator = operator_len(rest).and_then(|at| Some(at + operand_len(&rest[at..])?));
        // A run not starting with white space is never empty.
        let end = with_operator.or_else(|| operand_len(rest)).unwrap_or(rest.len());
        tokens.push(&rest[..end]);
        rest = rest[end..].trim_start();
    }
    tokens
}

/// The length of `[^\s:]+:` at the start of the text.
fn operator_len(text: &str) -> Option<usize> {
    let at = text.find(|c: char| c.is_whitespace() || c == ':')?;
    (at > 0 && text[at..].starts_with(':')).then_some(at + 1)
}

/// The length of `"[^"]+"?|\S+` at the start of the text.
fn operand_len(text: &str) -> Option<usize> {
    quoted_end(text).or_else(|| Some(run_end(text)).filter(|len| *len > 0))
}

/// The length of `"[^"]+"?` at the start of the text.
fn quoted_end(text: &str) -> Option<usize> {
    let inner = text.strip_prefix('"')?;
    let close = inner.find('"').unwrap_or(inner.len());
    if close == 0 {
        return None;
    }
    let closing = usize::from(close < inner.len());
    Some(1 + close + closing)
}

fn run_end(text: &str) -> usize {
    text.find(char::is_whitespace).unwrap_or(text.len())
}

/// Zulip's `Filter.decodeOperand`: quotes dropped, `+` a space (but in emails), `%XX` bytes.
fn decode_operand(encoded: &str, operator: &str) -> String {
    let mut text = encoded.trim().replace('"', "");
    if !PEOPLE_OPERATORS.contains(&operator) {
        text = text.replace('+', " ");
    }
    crate::links::percent_decode(&text)
}

/// Zulip's `Filter.encodeOperand`: spaces as `+`; other white space, `"`, `%` and `+` as `%XX`.
fn encode_operand(operand: &str) -> String {
    let mut out = String::with_capacity(operand.len());
    for c in operand.chars() {
        match c {
            ' ' => out.push('+'),
            c if c.is_whitespace() || matches!(c, '"' | '%' | '+') => {
                let mut buf = [0; 4];
                for byte in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("%{byte:02X}"));
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// The text of terms (Zulip's `Filter.unparse`): free text as it is, other terms as
/// `[-]operator:operand`.
pub(super) fn unparse(terms: &[TextTerm]) -> String {
    let parts: Vec<String> = terms
        .iter()
        .map(|term| match term.operator.as_str() {
            "search" | "" => term.operand.clone(),
            operator => {
                let sign = if term.negated { "-" } else { "" };
                format!("{sign}{operator}:{}", encode_operand(&term.operand))
            }
        })
        .collect();
    parts.join(" ")
}

impl Engine {
    /// The narrow a search text asks for (see the module documentation).
    pub fn parse_search(&self, query: &str) -> Vec<NarrowTerm> {
        self.narrow_of_text_terms(&tokenize(query))
    }

    /// A narrow of text terms: each resolved, the free text (and what did not resolve) one
    /// `search` term at the end.
    pub(super) fn narrow_of_text_terms(&self, terms: &[TextTerm]) -> Vec<NarrowTerm> {
        let mut narrow = Vec::new();
        let mut text: Vec<String> = Vec::new();
        for term in terms {
            if term.operator == "search" {
                if !term.operand.trim().is_empty() {
                    text.push(term.operand.clone());
                }
                continue;
            }
            match self.resolve_text_term(term) {
                Some(resolved) => narrow.push(resolved),
                None => text.push(unparse(std::slice::from_ref(term))),
            }
        }
        if !text.is_empty() {
            narrow.push(NarrowTerm {
                operator: "search".into(),
                operand: Value::from(text.join(" ")),
                negated: false,
            });
        }
        narrow
    }

    /// A text term as the server takes it, or `None` if its operand cannot be valid.
    pub(super) fn resolve_text_term(&self, term: &TextTerm) -> Option<NarrowTerm> {
        let text = term.operand.trim();
        let operand = match term.operator.as_str() {
            "channel" if !text.is_empty() => match self.channel_id_of_operand(&Value::from(text)) {
                Some(id) if self.channel_record(id).is_some() => Value::from(id),
                _ => Value::from(text),
            },
            "channels" if ["public", "web-public"].contains(&text) => Value::from(text),
            "topic" => Value::from(term.operand.as_str()),
            "sender" | "dm-including" | "group-pm-with" if !text.is_empty() => {
                match self.user_id_by_operand(text) {
                    Some(id) => Value::from(id),
                    None => Value::from(text),
                }
            }
            "dm" if !text.is_empty() => match self.user_ids_of_operand(&Value::from(text)) {
                Some(ids) => Value::from(ids),
                None => Value::from(text),
            },
            "is" if IS_OPERANDS.contains(&text) => Value::from(text),
            "has" if ["link", "image", "attachment", "reaction"].contains(&text) => Value::from(text),
            "in" if ["home", "all"].contains(&text) => Value::from(text),
            "id" | "near" | "with" if !term.negated => Value::from(text.parse::<u64>().ok()?),
            "mentions" if text == "me" => {
                return Some(NarrowTerm {
                    operator: "is".into(),
                    operand: Value::from("mentioned"),
                    negated: term.negated,
                });
            }
            _ => return None,
        };
        Some(NarrowTerm { operator: term.operator.clone(), operand, negated: term.negated })
    }

    /// The search text that shows a narrow (Zulip's `Filter.unparse` of its terms): channels
    /// by name, people by email.
    pub fn search_text(&self, narrow: &[NarrowTerm]) -> String {
        let terms: Vec<TextTerm> = narrow.iter().map(|term| self.text_term(term)).collect();
        unparse(&terms)
    }

    /// A narrow term as text: ids become the names a person would type.
    pub(super) fn text_term(&self, term: &NarrowTerm) -> TextTerm {
        let operator = canonical_operator(&term.operator);
        let plain = match &term.operand {
            Value::String(text) => text.clone(),
            Value::Array(items) => items.iter().map(value_text).collect::<Vec<_>>().join(","),
            other => value_text(other),
        };
        let operand = match operator {
            "channel" => self
                .channel_id_of_operand(&term.operand)
                .and_then(|id| self.channel_record(id))
                .map_or(plain, |channel| field(channel, "name").to_owned()),
            "sender" | "dm" | "dm-including" | "group-pm-with" => {
                match self.user_ids_of_operand(&term.operand) {
                    Some(mut ids) => {
                        if ids.len() > 1 {
                            ids.retain(|id| *id != self.user_id);
                        }
                        let emails: Option<Vec<&str>> = ids.iter().map(|id| self.user_email(*id)).collect();
                        emails.map_or(plain, |emails| emails.join(","))
                    }
                    None => plain,
                }
            }
            "is" if plain == "private" => "dm".to_owned(),
            _ => plain,
        };
        TextTerm { operator: operator.to_owned(), operand, negated: term.negated }
    }
}

/// The `is:` operands the server knows.
pub(super) const IS_OPERANDS: [&str; 8] =
    ["dm", "starred", "mentioned", "unread", "alerted", "resolved", "followed", "muted"];

fn value_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::fixture::*;
    use super::*;

    fn text(operator: &str, operand: &str) -> TextTerm {
        TextTerm::new(operator, operand, false)
    }

    #[test]
    fn text_splits_into_terms_as_zulip_parses_it() {
        // Zulip's filter tests.
        let cases: Vec<(&str, Vec<TextTerm>)> = vec![
            (
                "channel:Foo topic:Bar yo",
                vec![text("channel", "Foo"), text("topic", "Bar"), text("search", "yo")],
            ),
            ("pm-with:leo+test@zulip.com", vec![text("dm", "leo+test@zulip.com")]),
            ("sender:leo+test@zulip.com", vec![text("sender", "leo+test@zulip.com")]),
            ("channel:With+Space", vec![text("channel", "With Space")]),
            (
                "channel:\"with quoted space\" topic:and separate",
                vec![text("channel", "with quoted space"), text("topic", "and"), text("search", "separate")],
            ),
            ("channel:\"unclosed quote", vec![text("channel", "unclosed quote")]),
            ("https://www.google.com", vec![text("search", "https://www.google.com")]),
            ("\"Jeff Bezos\" is:starred", vec![text("search", "\"Jeff Bezos\""), text("is", "starred")]),
            ("foo:bar -baz", vec![text("search", "foo:bar -baz")]),
            ("-is:resolved", vec![TextTerm::new("is", "resolved", true)]),
            (
                "is:private has:Images from:me",
                vec![text("is", "dm"), text("has", "image"), text("sender", "me")],
            ),
            (
                "stream:Verona subject:lunch%20plans",
                vec![text("channel", "Verona"), text("topic", "lunch plans")],
            ),
            ("topic:a:b", vec![text("topic", "a:b")]),
            ("channel: lunch", vec![text("channel", ""), text("search", "lunch")]),
            ("one channel:x two", vec![text("search", "one"), text("channel", "x"), text("search", "two")]),
            ("\u{201C}quoted\u{201D}", vec![text("search", "\u{201C}quoted\u{201D}")]),
            ("   ", vec![]),
        ];
        for (query, terms) in cases {
            assert_eq!(tokenize(query), terms, "{query}");
        }
    }

    #[test]
    fn search_text_becomes_a_narrow_the_server_takes() {
        let engine = engine();
        let cases: Vec<(&str, Vec<NarrowTerm>)> = vec![
            (
                "channel:general topic:greetings",
                vec![term("channel", json!(GENERAL)), term("topic", json!("greetings"))],
            ),
            (
                "stream:VERONA subject:lunch",
                vec![term("channel", json!(VERONA)), term("topic", json!("lunch"))],
            ),
            ("channel:design+team", vec![term("channel", json!(DESIGN))]),
            (
                "channel:\"design team\" -is:resolved",
                vec![term("channel", json!(DESIGN)), not("is", json!("resolved"))],
            ),
            ("sender:me", vec![term("sender", json!(ME))]),
            ("sender:iago@zulip.com", vec![term("sender", json!(IAGO))]),
            ("sender:Iago", vec![term("sender", json!(IAGO))]),
            ("-sender:8", vec![not("sender", json!(IAGO))]),
            ("dm:iago@zulip.com,hamlet@zulip.com", vec![term("dm", json!([IAGO, HAMLET]))]),
            ("dm-including:zoe@zulip.com", vec![term("dm-including", json!(ZOE))]),
            (
                "is:dm is:starred is:mentioned is:unread",
                vec![
                    term("is", json!("dm")),
                    term("is", json!("starred")),
                    term("is", json!("mentioned")),
                    term("is", json!("unread")),
                ],
            ),
            (
                "is:resolved is:followed is:muted is:alerted",
                vec![
                    term("is", json!("resolved")),
                    term("is", json!("followed")),
                    term("is", json!("muted")),
                    term("is", json!("alerted")),
                ],
            ),
            (
                "has:link has:images has:attachment has:reactions",
                vec![
                    term("has", json!("link")),
                    term("has", json!("image")),
                    term("has", json!("attachment")),
                    term("has", json!("reaction")),
                ],
            ),
            ("in:home", vec![term("in", json!("home"))]),
            (
                "in:all near:42 id:7",
                vec![term("in", json!("all")), term("near", json!(42)), term("id", json!(7))],
            ),
            ("mentions:me", vec![term("is", json!("mentioned"))]),
            ("channels:public", vec![term("channels", json!("public"))]),
            // Free text, wherever it is, is one search, last.
            (
                "lunch channel:general \"fish and chips\"",
                vec![term("channel", json!(GENERAL)), term("search", json!("lunch \"fish and chips\""))],
            ),
            // What cannot be valid is searched for as text.
            ("is:everything party", vec![term("search", json!("is:everything party"))]),
            ("near:soon", vec![term("search", json!("near:soon"))]),
            ("channel:", vec![term("search", json!("channel:"))]),
            // What the state does not know is left for the server to refuse.
            ("channel:atlantis", vec![term("channel", json!("atlantis"))]),
            ("sender:nobody@zulip.com", vec![term("sender", json!("nobody@zulip.com"))]),
            ("", vec![]),
        ];
        for (query, narrow) in cases {
            let parsed = engine.parse_search(query);
            assert_eq!(parsed, narrow, "{query}");
            let wire = Value::Array(
                parsed
                    .iter()
                    .map(|t| json!({"operator": t.operator, "operand": t.operand, "negated": t.negated}))
                    .collect(),
            );
            assert!(crate::api::narrow::parse_terms(&wire).is_ok(), "{query}");
        }
    }

    #[test]
    fn a_narrow_shows_as_the_text_that_asks_for_it() {
        let engine = engine();
        let cases: Vec<(Vec<NarrowTerm>, &str)> = vec![
            (
                vec![
                    term("channel", json!(GENERAL)),
                    term("topic", json!("greetings")),
                    term("search", json!("yo")),
                ],
                "channel:general topic:greetings yo",
            ),
            (
                vec![term("channel", json!(DESIGN)), term("topic", json!("100% \"done\""))],
                "channel:design+team topic:100%25+%22done%22",
            ),
            (
                vec![term("sender", json!(IAGO)), not("is", json!("resolved"))],
                "sender:iago@zulip.com -is:resolved",
            ),
            (vec![term("dm", json!([ME, IAGO, HAMLET]))], "dm:iago@zulip.com,hamlet@zulip.com"),
            (vec![term("pm-with", json!([IAGO]))], "dm:iago@zulip.com"),
            (
                vec![term("stream", json!("Verona")), term("subject", json!("a+b"))],
                "channel:Verona topic:a%2Bb",
            ),
            (vec![term("id", json!(123))], "id:123"),
            (vec![term("is", json!("private"))], "is:dm"),
            (vec![term("channel", json!(99))], "channel:99"),
        ];
        for (narrow, shown) in cases {
            assert_eq!(engine.search_text(&narrow), shown, "{narrow:?}");
        }
    }

    #[test]
    fn what_is_shown_parses_back() {
        let engine = engine();
        let narrows = vec![
            vec![
                term("channel", json!(DESIGN)),
                term("topic", json!("100% \"done\" + more\ttabs")),
                term("search", json!("lunch")),
            ],
            vec![not("dm", json!([HAMLET, ZOE])), term("has", json!("image"))],
            vec![term("sender", json!(OTHELLO)), term("near", json!(5)), not("is", json!("muted"))],
        ];
        for narrow in narrows {
            assert_eq!(engine.parse_search(&engine.search_text(&narrow)), narrow);
        }
    }
}
