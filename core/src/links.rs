//! Zulip's links to conversations: the Markdown that names them and the `#narrow` URLs the
//! web app understands.

use crate::ids::{MessageId, StreamId};

/// Zulip's `encode_hash_component`: URL-quote (keeping `*`), then `.` for `%` so that the
/// fragment survives browsers that decode it.
pub fn encode_hash_component(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'_' | b'-' | b'~' | b'*' => out.push(byte as char),
            _ => out.push_str(&format!(".{byte:02X}")),
        }
    }
    out
}

/// The `#narrow` fragment of a channel.
pub fn channel_narrow(stream_id: StreamId, stream_name: &str) -> String {
    format!("#narrow/channel/{}-{}", stream_id, encode_hash_component(&stream_name.replace(' ', "-")))
}

/// The `#narrow` fragment of a topic, optionally near a message.
pub fn topic_narrow(stream_id: StreamId, stream_name: &str, topic: &str, near: Option<MessageId>) -> String {
    let mut link =
        format!("{}/topic/{}", channel_narrow(stream_id, stream_name), encode_hash_component(topic));
    if let Some(id) = near {
        link.push_str(&format!("/near/{id}"));
    }
    link
}

/// `#**channel>topic**`, the Markdown that links a topic.
pub fn topic_mention(stream_name: &str, topic: &str) -> String {
    format!("#**{stream_name}>{topic}**")
}

/// `@_**Full Name|id**`, a silent mention of a user.
pub fn silent_mention(full_name: &str, user_id: crate::ids::UserId) -> String {
    format!("@_**{full_name}|{user_id}**")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_components_are_encoded_as_zulip_does() {
        assert_eq!(encode_hash_component("lunch plans"), "lunch.20plans");
        assert_eq!(encode_hash_component("a.b"), "a.2Eb");
        assert_eq!(encode_hash_component("café"), "caf.C3.A9");
        assert_eq!(
            topic_narrow(StreamId(7), "design team", "v2", Some(MessageId(9))),
            "#narrow/channel/7-design-team/topic/v2/near/9"
        );
    }
}
