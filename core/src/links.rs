//! Zulip's links to conversations: the Markdown that names them and the `#narrow` URLs the
//! web app understands.

use crate::ids::{MessageId, StreamId, UserId};

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

/// The `#narrow` fragment of a direct message: every participant's id, as Zulip's
/// `message_link_url` writes it.
pub fn direct_message_narrow(participants: &[UserId], near: MessageId) -> String {
    let ids: Vec<String> = participants.iter().map(ToString::to_string).collect();
    format!("#narrow/dm/{}/near/{near}", ids.join(","))
}

/// Whether a channel or topic name would break `#**channel>topic**` (Zulip's
/// `will_produce_broken_stream_topic_link`).
fn breaks_topic_syntax(name: &str) -> bool {
    name.contains(['`', '>', '*', '&', '[', ']']) || name.contains("$$")
}

/// HTML entities for the characters that break the syntax, for link text (Zulip's
/// `escape_invalid_stream_topic_characters`).
fn escape_topic_syntax(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut rest = name;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("$$") {
            out.push_str("&#36;&#36;");
            rest = after;
            continue;
        }
        match c {
            '`' => out.push_str("&#96;"),
            '>' => out.push_str("&gt;"),
            '*' => out.push_str("&#42;"),
            '&' => out.push_str("&amp;"),
            '[' => out.push_str("&#91;"),
            ']' => out.push_str("&#93;"),
            _ => out.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// `#**channel>topic@id**`, the Markdown that links a message; a plain Markdown link where the
/// names would break that syntax (Zulip's `get_message_link_syntax`).
pub fn message_link(stream_id: StreamId, stream_name: &str, topic: &str, message_id: MessageId) -> String {
    if !breaks_topic_syntax(stream_name) && !breaks_topic_syntax(topic) {
        return format!("#**{stream_name}>{topic}@{message_id}**");
    }
    let shown_topic = if topic.is_empty() { crate::wire::EMPTY_TOPIC_DISPLAY_NAME } else { topic };
    format!(
        "[#{} > {} @ 💬]({})",
        escape_topic_syntax(stream_name),
        escape_topic_syntax(shown_topic),
        topic_narrow(stream_id, stream_name, topic, Some(message_id))
    )
}

/// `@_**Full Name|id**`, a silent mention of a user.
pub fn silent_mention(full_name: &str, user_id: UserId) -> String {
    format!("@_**{full_name}|{user_id}**")
}

/// `%XX` as bytes; anything else as written (Zulip's `robust_url_decode`, Python's `unquote`):
/// bytes that are not UTF-8 become U+FFFD.
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes.get(i + 1..i + 3).filter(|h| bytes[i] == b'%' && h.iter().all(u8::is_ascii_hexdigit));
        match hex.and_then(|h| u8::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok()) {
            Some(byte) => {
                out.push(byte);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
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

    #[test]
    fn message_links_fall_back_to_markdown_links_as_zulip_does() {
        assert_eq!(message_link(StreamId(3), "Verona", "test", MessageId(5)), "#**Verona>test@5**");
        assert_eq!(
            message_link(StreamId(3), "a*b", "x > y $$", MessageId(5)),
            "[#a&#42;b > x &gt; y &#36;&#36; @ 💬](#narrow/channel/3-a*b/topic/x.20.3E.20y.20.24.24/near/5)"
        );
        assert_eq!(direct_message_narrow(&[UserId(10), UserId(12)], MessageId(7)), "#narrow/dm/10,12/near/7");
    }
}
