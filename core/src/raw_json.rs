//! JSON objects with fields written as they are: serde_json's own writer for the ordinary
//! fields, then text that is JSON already (a page of messages, a message's stored HTML)
//! appended without being parsed or escaped again.
//!
//! Why not `serde_json::value::RawValue`: making one from text checks the text by scanning
//! every byte, and a page of code-heavy messages is megabytes whose escapes come every few
//! bytes; that scan was a third of `GET /messages`. The texts spliced here come from serde_json
//! itself (or a stored record it wrote), so they are valid by construction.

use serde::Serialize;

/// Writes `fields` as a JSON object into `out`, followed by `raw` members whose values are
/// JSON texts, valid already, written as they are.
pub fn write_object<'a>(
    out: &mut Vec<u8>,
    fields: &impl Serialize,
    raw: impl IntoIterator<Item = (&'a str, &'a [u8])>,
) -> serde_json::Result<()> {
    let mut empty = open_object(out, fields)?;
    for (key, json) in raw {
        write_key(out, key, &mut empty)?;
        out.extend_from_slice(json);
    }
    out.push(b'}');
    Ok(())
}

/// The same object as [`write_object`], as parts to be sent one after another: each raw
/// member's JSON is a part of its own, moved rather than copied (a page of messages is
/// megabytes).
pub fn object_parts(
    fields: &impl Serialize,
    raw: impl IntoIterator<Item = (String, Vec<u8>)>,
) -> serde_json::Result<Vec<Vec<u8>>> {
    let mut parts = Vec::new();
    let mut part = Vec::with_capacity(1024);
    let mut empty = open_object(&mut part, fields)?;
    for (key, json) in raw {
        write_key(&mut part, &key, &mut empty)?;
        parts.push(std::mem::take(&mut part));
        parts.push(json);
    }
    part.push(b'}');
    parts.push(part);
    Ok(parts)
}

/// Writes `fields` as an object left open; true if it has no members.
fn open_object(out: &mut Vec<u8>, fields: &impl Serialize) -> serde_json::Result<bool> {
    let start = out.len();
    serde_json::to_writer(&mut *out, fields)?;
    let Some(b'}') = out.last() else {
        return Err(serde::ser::Error::custom("raw members go into a JSON object"));
    };
    out.pop();
    Ok(out.len() == start + 1)
}

fn write_key(out: &mut Vec<u8>, key: &str, empty: &mut bool) -> serde_json::Result<()> {
    if !*empty {
        out.push(b',');
    }
    *empty = false;
    serde_json::to_writer(&mut *out, key)?;
    out.push(b':');
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn written(fields: Value, raw: &[(&str, &[u8])]) -> Value {
        let mut out = Vec::new();
        write_object(&mut out, &fields, raw.iter().copied()).expect("an object");
        serde_json::from_slice(&out).expect("valid JSON")
    }

    #[test]
    fn appends_raw_members_after_the_fields() {
        let value = written(json!({"id": 1}), &[("content", b"\"<p>\\\"hi\\\"</p>\""), ("n", b"[1,2]")]);
        assert_eq!(value, json!({"id": 1, "content": "<p>\"hi\"</p>", "n": [1, 2]}));
    }

    #[test]
    fn an_empty_object_takes_raw_members_without_a_leading_comma() {
        assert_eq!(written(json!({}), &[("a", b"true")]), json!({"a": true}));
        assert_eq!(written(json!({}), &[]), json!({}));
    }

    #[test]
    fn keys_are_escaped() {
        assert_eq!(written(json!({}), &[("a\"b", b"1")]), json!({"a\"b": 1}));
    }

    #[test]
    fn parts_make_the_same_object() {
        let fields = json!({"result": "success"});
        let raw = [("messages".to_owned(), b"[{\"id\":1}]".to_vec()), ("n".to_owned(), b"2".to_vec())];
        let parts = object_parts(&fields, raw.clone()).expect("an object");
        assert_eq!(parts.len(), 5, "the fields, then each raw member's key and JSON, then the end");
        let mut whole = Vec::new();
        write_object(&mut whole, &fields, raw.iter().map(|(k, j)| (k.as_str(), j.as_slice())))
            .expect("an object");
        assert_eq!(parts.concat(), whole);
    }

    #[test]
    fn refuses_what_is_not_an_object() {
        assert!(write_object(&mut Vec::new(), &json!([1]), []).is_err());
    }
}
