//! A message's rendered HTML, held as the JSON string literal it is stored and sent as.
//!
//! Why: Zulip's markup for highlighted code puts a quoted class name every few bytes, so a page
//! of 100 code-heavy messages is megabytes of HTML that JSON escapes densely. Kept as a `String`,
//! every `GET /messages` unescaped it out of the stored record and escaped it again into the
//! answer. Held as the literal, a read copies it: the server's message records keep it apart
//! from their JSON (`host-native/src/store/codec.rs`), and a page of messages splices it into
//! the answer as it is ([`crate::raw_json`]). `README.md`, "Syntax highlighting", has the figures.

use std::fmt;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

/// Rendered HTML as a JSON string literal (quotes and escapes included).
///
/// Through serde it is the plain string (in records of the write-ahead log, in `json!`); only
/// [`StoredHtml::json_literal`] gives the literal, for writers that splice it.
#[derive(Clone)]
pub struct StoredHtml(Box<[u8]>);

impl StoredHtml {
    pub fn new(html: &str) -> Self {
        Self(serde_json::to_vec(html).expect("a string always serializes").into_boxed_slice())
    }

    /// A literal read back from a record this program wrote with [`StoredHtml::json_literal`].
    /// Only its quotes are checked: checking the escapes (or even the UTF-8) inside would scan
    /// every byte, the cost this type exists to avoid. A record damaged inside its HTML would
    /// reach clients as broken JSON rather than as an error.
    pub fn from_stored_literal(literal: &[u8]) -> Option<Self> {
        let quoted = literal.len() >= 2 && literal.starts_with(b"\"") && literal.ends_with(b"\"");
        quoted.then(|| Self(literal.into()))
    }

    /// The HTML itself.
    pub fn html(&self) -> String {
        // The literal is a JSON string by construction (`new`) or by check (`deserialize`).
        serde_json::from_slice(&self.0).unwrap_or_default()
    }

    /// The JSON string literal, to be written as it is.
    pub fn json_literal(&self) -> &[u8] {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        &*self.0 == b"\"\""
    }
}

impl Default for StoredHtml {
    fn default() -> Self {
        Self::new("")
    }
}

impl From<&str> for StoredHtml {
    fn from(html: &str) -> Self {
        Self::new(html)
    }
}

impl From<String> for StoredHtml {
    fn from(html: String) -> Self {
        Self::new(&html)
    }
}

impl PartialEq for StoredHtml {
    /// Equal HTML, whichever way each literal escapes it.
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0 || self.html() == other.html()
    }
}

impl fmt::Debug for StoredHtml {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        String::from_utf8_lossy(&self.0).fmt(f)
    }
}

impl Serialize for StoredHtml {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.html())
    }
}

impl<'de> Deserialize<'de> for StoredHtml {
    /// Reads a JSON string, keeping it as written (escapes and all).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let literal = Box::<RawValue>::deserialize(deserializer)?;
        if !literal.get().starts_with('"') {
            return Err(D::Error::custom("rendered HTML must be a JSON string"));
        }
        Ok(Self(Box::<str>::from(literal).into_boxed_bytes()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const HTML: &str = "<div class=\"codehilite\"><pre><span class=\"k\">fn</span>\n</pre></div>";

    #[test]
    fn keeps_the_html_it_was_made_from() {
        assert_eq!(StoredHtml::new(HTML).html(), HTML);
    }

    #[test]
    fn serializes_as_the_string_a_string_field_wrote() {
        let stored = serde_json::to_string(&StoredHtml::new(HTML)).expect("valid JSON");
        assert_eq!(stored, serde_json::to_string(HTML).expect("valid JSON"));
        let read: StoredHtml = serde_json::from_str(&stored).expect("valid JSON");
        assert_eq!(read.html(), HTML);
    }

    #[test]
    fn becomes_a_plain_string_in_a_json_value() {
        assert_eq!(json!({ "content": StoredHtml::new(HTML) }), json!({ "content": HTML }));
        let from_value: StoredHtml = serde_json::from_value(json!(HTML)).expect("valid JSON");
        assert_eq!(from_value.html(), HTML);
    }

    #[test]
    fn refuses_anything_but_a_string() {
        assert!(serde_json::from_str::<StoredHtml>("42").is_err());
        assert!(serde_json::from_str::<StoredHtml>("{\"a\":1}").is_err());
    }

    #[test]
    fn a_stored_literal_must_be_quoted() {
        let literal = StoredHtml::new(HTML);
        let read = StoredHtml::from_stored_literal(literal.json_literal()).expect("a literal");
        assert_eq!(read.html(), HTML);
        assert!(StoredHtml::from_stored_literal(b"<p>").is_none());
        assert!(StoredHtml::from_stored_literal(b"\"").is_none());
    }

    #[test]
    fn compares_the_html_not_the_escaping() {
        let escaped: StoredHtml = serde_json::from_str("\"\\u003cp>\"").expect("valid JSON");
        assert_eq!(escaped, StoredHtml::new("<p>"));
    }
}
