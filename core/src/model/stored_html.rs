//! A message's rendered HTML, held as the JSON string literal it is stored and sent as.
//!
//! Why: Zulip's markup for highlighted code puts a quoted class name every few bytes, so a page
//! of 100 code-heavy messages is megabytes of HTML that JSON escapes densely. Kept as a `String`,
//! every `GET /messages` unescaped it out of the stored record and escaped it again into the
//! answer, and those two passes were most of the read's cost. Held as the literal, a read copies
//! it and an answer written by serde_json writes it as is (`README.md`, "Syntax highlighting",
//! has the figures). The stored record is unchanged: the literal is the same JSON string a
//! `String` field wrote.

use std::fmt;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

/// Rendered HTML as a JSON string literal (quotes and escapes included).
///
/// It serializes as that literal only through serde_json, which every store record and every
/// answer uses; into a `serde_json::Value` (`json!`) it becomes the plain string.
#[derive(Clone)]
pub struct StoredHtml(Box<RawValue>);

impl StoredHtml {
    pub fn new(html: &str) -> Self {
        Self(serde_json::value::to_raw_value(html).expect("a string always serializes"))
    }

    /// The HTML itself.
    pub fn html(&self) -> String {
        // The literal is a JSON string by construction (`new`) or by check (`deserialize`).
        serde_json::from_str(self.0.get()).unwrap_or_default()
    }

    /// The JSON string literal, to be written into an answer as is.
    pub fn json_literal(&self) -> &RawValue {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.get() == "\"\""
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
        self.0.get() == other.0.get() || self.html() == other.html()
    }
}

impl fmt::Debug for StoredHtml {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.get().fmt(f)
    }
}

impl Serialize for StoredHtml {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for StoredHtml {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let literal = Box::<RawValue>::deserialize(deserializer)?;
        if !literal.get().starts_with('"') {
            return Err(D::Error::custom("rendered HTML must be a JSON string"));
        }
        Ok(Self(literal))
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
    fn compares_the_html_not_the_escaping() {
        let escaped: StoredHtml = serde_json::from_str("\"\\u003cp>\"").expect("valid JSON");
        assert_eq!(escaped, StoredHtml::new("<p>"));
    }
}
