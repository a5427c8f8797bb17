//! `field_data`: the options of a list field and the service of an external-account field,
//! checked as Zulip's `validate_select_field_data` and `validate_external_account_field_data`
//! do, and kept as JSON text in the order the administrator sent (clients show options in
//! their `order`, but Zulip stores the object as sent).

use serde::Deserialize;
use serde::de::{self, MapAccess, Visitor};
use serde_json::{Map, Value};

use crate::error::{ApiError, ApiResult};
use crate::params::{BadValue, Params};

use super::external_accounts::default_account;
use super::url::is_url;

/// One value of `field_data`: text, or an object of texts (an option's `text` and `order`).
#[derive(Clone, Debug, PartialEq)]
pub enum FieldDataValue {
    Text(String),
    Object(Vec<(String, String)>),
}

/// A `field_data` object, its keys in the order sent.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FieldData(pub Vec<(String, FieldDataValue)>);

impl FieldData {
    /// Reads the `field_data` parameter, if sent.
    pub fn from_params(params: &Params) -> ApiResult<Option<FieldData>> {
        let Some(raw) = params.raw("field_data") else { return Ok(None) };
        let value: Value =
            serde_json::from_str(raw).map_err(|_| BadValue::NotValidJson.error("field_data"))?;
        if !value.is_object() {
            return Err(BadValue::NotADict.error("field_data"));
        }
        // Parsing the text again keeps its key order, which `Value` does not.
        let ordered: Ordered =
            serde_json::from_str(raw).map_err(|_| BadValue::Invalid.error("field_data"))?;
        Ok(Some(FieldData(ordered.0)))
    }

    /// Stored `field_data` text read back (empty text is an empty object).
    pub fn from_stored(text: &str) -> FieldData {
        if text.is_empty() {
            return FieldData::default();
        }
        serde_json::from_str::<Ordered>(text).map(|o| FieldData(o.0)).unwrap_or_default()
    }

    fn get(&self, key: &str) -> Option<&FieldDataValue> {
        self.0.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The option keys of a list field.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(k, _)| k.as_str())
    }

    /// A text value (`subtype` of an external account).
    pub fn text(&self, key: &str) -> Option<&str> {
        match self.get(key) {
            Some(FieldDataValue::Text(text)) => Some(text),
            _ => None,
        }
    }

    /// Compact JSON, as Zulip's `orjson.dumps` writes it.
    pub fn to_json_text(&self) -> String {
        let quote = |s: &str| serde_json::to_string(s).unwrap_or_default();
        let items: Vec<String> = self
            .0
            .iter()
            .map(|(key, value)| {
                let value = match value {
                    FieldDataValue::Text(text) => quote(text),
                    FieldDataValue::Object(pairs) => {
                        let inner: Vec<String> =
                            pairs.iter().map(|(k, v)| format!("{}:{}", quote(k), quote(v))).collect();
                        format!("{{{}}}", inner.join(","))
                    }
                };
                format!("{}:{}", quote(key), value)
            })
            .collect();
        format!("{{{}}}", items.join(","))
    }

    /// As a JSON value, for comparing two `field_data` regardless of key order.
    pub fn to_value(&self) -> Value {
        serde_json::from_str(&self.to_json_text()).unwrap_or(Value::Object(Map::new()))
    }
}

/// `field_data` of a list field: at least one option, each `{"text", "order"}` with neither
/// blank, under a key that is not blank, and no two options with the same text.
pub fn validate_select_field_data(data: &FieldData) -> ApiResult<()> {
    if data.is_empty() {
        return Err(ApiError::bad_request("Field must have at least one choice."));
    }
    let mut texts = Vec::new();
    for (key, value) in &data.0 {
        if key.trim().is_empty() {
            return Err(ApiError::bad_request("'value' cannot be blank."));
        }
        let FieldDataValue::Object(pairs) = value else {
            return Err(ApiError::bad_request("field_data is not a dict"));
        };
        let get = |name: &str| pairs.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
        for name in ["text", "order"] {
            match get(name) {
                None => return Err(ApiError::bad_request(format!("{name} key is missing from field_data"))),
                Some(v) if v.trim().is_empty() => {
                    return Err(ApiError::bad_request(format!("field_data[\"{name}\"] cannot be blank.")));
                }
                Some(_) => {}
            }
        }
        unexpected_keys(pairs.iter().map(|(k, _)| k.as_str()), &["text", "order"])?;
        let text = get("text").unwrap_or_default();
        if !texts.contains(&text) {
            texts.push(text);
        }
    }
    if texts.len() != data.len() {
        return Err(ApiError::bad_request("Field must not have duplicate choices."));
    }
    Ok(())
}

/// `field_data` of an external-account field: a `subtype` naming a default service or
/// `custom`, and for custom ones an optional `url_pattern` holding `%(username)s` once.
pub fn validate_external_account_field_data(data: &FieldData) -> ApiResult<()> {
    let not_a_string = |key: &str| ApiError::bad_request(format!("field_data[\"{key}\"] is not a string"));
    let subtype = match data.get("subtype") {
        None => return Err(ApiError::bad_request("subtype key is missing from field_data")),
        Some(FieldDataValue::Object(_)) => return Err(not_a_string("subtype")),
        Some(FieldDataValue::Text(subtype)) => subtype,
    };
    if subtype.trim().is_empty() {
        return Err(ApiError::bad_request("field_data[\"subtype\"] cannot be blank."));
    }
    match data.get("url_pattern") {
        None => {}
        Some(FieldDataValue::Object(_)) => return Err(not_a_string("url_pattern")),
        Some(FieldDataValue::Text(pattern)) => {
            if pattern.matches("%(username)s").count() != 1 {
                return Err(ApiError::bad_request("URL pattern must contain '%(username)s'."));
            }
            if !is_url(&pattern.replace("%(username)s", "username")) {
                return Err(ApiError::bad_request("field_data[\"url_pattern\"] is not a URL"));
            }
        }
    }
    unexpected_keys(data.keys(), &["subtype", "url_pattern"])?;
    if default_account(subtype).is_none() && subtype != "custom" {
        return Err(ApiError::bad_request("Invalid external account type"));
    }
    Ok(())
}

/// Zulip's `check_dict_only`: keys beyond the listed ones are refused, named in the error.
fn unexpected_keys<'a>(keys: impl Iterator<Item = &'a str>, allowed: &[&str]) -> ApiResult<()> {
    let mut extra: Vec<&str> = keys.filter(|k| !allowed.contains(k)).collect();
    extra.dedup();
    if extra.is_empty() {
        Ok(())
    } else {
        Err(ApiError::bad_request(format!("Unexpected arguments: {}", extra.join(", "))))
    }
}

/// An object read with its key order, values text or objects of text.
struct Ordered(Vec<(String, FieldDataValue)>);

impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(OrderedVisitor)
    }
}

struct OrderedVisitor;

impl<'de> Visitor<'de> for OrderedVisitor {
    type Value = Ordered;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered, A::Error> {
        let mut entries: Vec<(String, FieldDataValue)> = Vec::new();
        while let Some((key, value)) = map.next_entry::<String, ValueOrObject>()? {
            // A repeated key keeps its first place and its last value, as a Python dict does.
            match entries.iter_mut().find(|(k, _)| *k == key) {
                Some(entry) => entry.1 = value.0,
                None => entries.push((key, value.0)),
            }
        }
        Ok(Ordered(entries))
    }
}

struct ValueOrObject(FieldDataValue);

impl<'de> Deserialize<'de> for ValueOrObject {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ValueOrObjectVisitor)
    }
}

struct ValueOrObjectVisitor;

impl<'de> Visitor<'de> for ValueOrObjectVisitor {
    type Value = ValueOrObject;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a string or an object of strings")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<ValueOrObject, E> {
        Ok(ValueOrObject(FieldDataValue::Text(text.to_owned())))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ValueOrObject, A::Error> {
        let mut pairs: Vec<(String, String)> = Vec::new();
        while let Some((key, value)) = map.next_entry::<String, String>()? {
            match pairs.iter_mut().find(|(k, _)| *k == key) {
                Some(pair) => pair.1 = value,
                None => pairs.push((key, value)),
            }
        }
        Ok(ValueOrObject(FieldDataValue::Object(pairs)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(text: &str) -> FieldData {
        FieldData::from_stored(text)
    }

    #[test]
    fn field_data_keeps_the_order_sent() {
        let text = r#"{"vim":{"text":"Vim","order":"2"},"emacs":{"text":"Emacs","order":"1"}}"#;
        assert_eq!(data(text).to_json_text(), text);
        assert_eq!(data(r#"{ "subtype" : "github" }"#).to_json_text(), r#"{"subtype":"github"}"#);
    }

    #[test]
    fn select_options_are_checked_as_zulip_does() {
        let error = |text: &str| validate_select_field_data(&data(text)).err().map(|e| e.msg);
        assert_eq!(error("{}").as_deref(), Some("Field must have at least one choice."));
        assert_eq!(error(r#"{" ":{"text":"a","order":"1"}}"#).as_deref(), Some("'value' cannot be blank."));
        assert_eq!(error(r#"{"a":{"order":"1"}}"#).as_deref(), Some("text key is missing from field_data"));
        assert_eq!(
            error(r#"{"a":{"text":" ","order":"1"}}"#).as_deref(),
            Some("field_data[\"text\"] cannot be blank.")
        );
        assert_eq!(
            error(r#"{"a":{"text":"A","order":"1","x":"y"}}"#).as_deref(),
            Some("Unexpected arguments: x")
        );
        assert_eq!(
            error(r#"{"a":{"text":"A","order":"1"},"b":{"text":"A","order":"2"}}"#).as_deref(),
            Some("Field must not have duplicate choices.")
        );
        assert_eq!(error(r#"{"a":{"text":"A","order":"1"}}"#), None);
    }

    #[test]
    fn external_accounts_name_a_known_service_or_a_pattern() {
        let error = |text: &str| validate_external_account_field_data(&data(text)).err().map(|e| e.msg);
        assert_eq!(error(r#"{"subtype":"github"}"#), None);
        assert_eq!(error(r#"{"subtype":"custom","url_pattern":"https://x.com/%(username)s"}"#), None);
        assert_eq!(error("{}").as_deref(), Some("subtype key is missing from field_data"));
        assert_eq!(error(r#"{"subtype":"myspace"}"#).as_deref(), Some("Invalid external account type"));
        assert_eq!(
            error(r#"{"subtype":"custom","url_pattern":"https://x.com/"}"#).as_deref(),
            Some("URL pattern must contain '%(username)s'.")
        );
        assert_eq!(
            error(r#"{"subtype":"custom","url_pattern":"x%(username)s"}"#).as_deref(),
            Some("field_data[\"url_pattern\"] is not a URL")
        );
    }
}
