//! Record encoding: one format-version byte, then JSON. The version lets a later format be read
//! beside this one; the schema version in `meta` covers table layout.
//!
//! Messages have a format of their own (2): the rendered HTML's JSON literal stands apart,
//! length first, before the JSON of the other fields. Inside the JSON, reading the record would
//! scan every byte of the HTML for the end of the string, and code-heavy HTML has an escaped
//! quote every few bytes: that scan was a third of serving `GET /messages`. Apart, a read copies
//! it (`confab_core::model::StoredHtml`). Messages stored in format 1 are still read.

use confab_core::ApiError;
use confab_core::model::{Message, StoredHtml};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// The format version written today for every record but messages.
const FORMAT_V1: u8 = 1;
/// Messages: the HTML literal's length (u32, little-endian), the literal, then the JSON.
const FORMAT_MESSAGE: u8 = 2;

pub fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, ApiError> {
    let mut bytes = vec![FORMAT_V1];
    serde_json::to_writer(&mut bytes, value).map_err(ApiError::internal)?;
    Ok(bytes)
}

pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    match bytes.split_first() {
        Some((&FORMAT_V1, json)) => serde_json::from_slice(json).map_err(ApiError::internal),
        // Read as anything but a message, it would come without its HTML.
        Some((&FORMAT_MESSAGE, _)) => Err(ApiError::internal("a message record read as another record")),
        Some((version, _)) => Err(ApiError::internal(format!("unknown record format {version}"))),
        None => Err(ApiError::internal("empty record")),
    }
}

pub fn encode_message(message: &Message) -> Result<Vec<u8>, ApiError> {
    let literal = message.rendered_content.json_literal();
    let length = u32::try_from(literal.len()).map_err(ApiError::internal)?;
    let mut bytes = Vec::with_capacity(literal.len() + message.content.len() + 512);
    bytes.push(FORMAT_MESSAGE);
    bytes.extend_from_slice(&length.to_le_bytes());
    bytes.extend_from_slice(literal);
    serde_json::to_writer(&mut bytes, &without_html(message)).map_err(ApiError::internal)?;
    Ok(bytes)
}

pub fn decode_message(bytes: &[u8]) -> Result<Message, ApiError> {
    let (html, json) = split_message(bytes)?;
    let mut message: Message = serde_json::from_slice(json).map_err(ApiError::internal)?;
    if let Some(literal) = html {
        message.rendered_content = StoredHtml::from_stored_literal(literal)
            .ok_or_else(|| ApiError::internal("a message record's HTML is not a JSON string"))?;
    }
    Ok(message)
}

/// Some fields of a message record, read without copying its HTML or content (such as its kind).
pub fn decode_message_fields<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let (_, json) = split_message(bytes)?;
    serde_json::from_slice(json).map_err(ApiError::internal)
}

/// A message record's HTML literal (format 2; in format 1 it is inside the JSON) and its JSON.
fn split_message(bytes: &[u8]) -> Result<(Option<&[u8]>, &[u8]), ApiError> {
    match bytes.split_first() {
        Some((&FORMAT_V1, json)) => Ok((None, json)),
        Some((&FORMAT_MESSAGE, rest)) => {
            let truncated = || ApiError::internal("truncated message record");
            let (length, rest) = rest.split_first_chunk::<4>().ok_or_else(truncated)?;
            let length = usize::try_from(u32::from_le_bytes(*length)).map_err(ApiError::internal)?;
            let (literal, json) = rest.split_at_checked(length).ok_or_else(truncated)?;
            Ok((Some(literal), json))
        }
        Some((version, _)) => Err(ApiError::internal(format!("unknown record format {version}"))),
        None => Err(ApiError::internal("empty record")),
    }
}

/// The message with empty HTML, for the JSON part of its record. Every field is named, so a
/// field added to `Message` is a compile error here rather than a field lost from the store.
fn without_html(message: &Message) -> Message {
    let Message {
        id,
        realm_id,
        sender_id,
        recipient_id,
        kind,
        content,
        rendered_content: _,
        timestamp,
        client,
        is_me_message,
        has_link,
        has_image,
        has_attachment,
        last_edit_timestamp,
        last_moved_timestamp,
        edit_history,
    } = message;
    Message {
        id: *id,
        realm_id: *realm_id,
        sender_id: *sender_id,
        recipient_id: *recipient_id,
        kind: kind.clone(),
        content: content.clone(),
        rendered_content: StoredHtml::default(),
        timestamp: *timestamp,
        client: client.clone(),
        is_me_message: *is_me_message,
        has_link: *has_link,
        has_image: *has_image,
        has_attachment: *has_attachment,
        last_edit_timestamp: *last_edit_timestamp,
        last_moved_timestamp: *last_moved_timestamp,
        edit_history: edit_history.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use confab_core::ids::{MessageId, RealmId, RecipientId, UserId};
    use confab_core::model::MessageKind;

    fn message() -> Message {
        Message {
            id: MessageId(7),
            realm_id: RealmId(1),
            sender_id: UserId(2),
            recipient_id: RecipientId(3),
            kind: MessageKind::Stream { stream_id: confab_core::ids::StreamId(4), topic: "t".into() },
            content: "```py\nprint(\"hi\")\n```".into(),
            rendered_content: "<div class=\"codehilite\"><pre><span class=\"nb\">print</span></pre></div>"
                .into(),
            timestamp: 1_700_000_000,
            client: "test".into(),
            is_me_message: false,
            has_link: false,
            has_image: false,
            has_attachment: false,
            last_edit_timestamp: Some(1_700_000_100),
            last_moved_timestamp: None,
            edit_history: vec![confab_core::model::EditRecord {
                user_id: UserId(2),
                timestamp: 1_700_000_100,
                prev_content: Some("before".into()),
                prev_rendered_content: Some("<p>before</p>".into()),
                ..Default::default()
            }],
        }
    }

    #[test]
    fn a_message_reads_back_whole() {
        let original = message();
        let read = decode_message(&encode_message(&original).expect("encodes")).expect("decodes");
        assert_eq!(read, original);
        assert_eq!(read.rendered_content.json_literal(), original.rendered_content.json_literal());
    }

    #[test]
    fn a_message_of_format_1_still_reads() {
        let original = message();
        assert_eq!(decode_message(&encode(&original).expect("encodes")).expect("decodes"), original);
    }

    #[test]
    fn a_message_record_is_not_read_as_another_record() {
        let bytes = encode_message(&message()).expect("encodes");
        assert!(decode::<Message>(&bytes).is_err());
        #[derive(serde::Deserialize)]
        struct Kind {
            kind: MessageKind,
        }
        let kind: Kind = decode_message_fields(&bytes).expect("decodes");
        assert_eq!(kind.kind, message().kind);
    }

    #[test]
    fn a_damaged_message_record_is_an_error_not_a_panic() {
        let bytes = encode_message(&message()).expect("encodes");
        for cut in [1, 3, 5, 20, bytes.len() - 1] {
            assert!(decode_message(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        assert!(decode_message(&[FORMAT_MESSAGE, 255, 255, 255, 255]).is_err());
    }
}
