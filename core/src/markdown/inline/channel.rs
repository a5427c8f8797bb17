//! Channel, topic and message links: `#**channel**`, `#**channel>topic**` and
//! `#**channel>topic@123**`, to channels named exactly (case included).

use super::{Elem, Engine, Found, Stashed, mention_may_start};
use crate::links::encode_hash_component;

/// What Zulip shows for the empty topic.
const EMPTY_TOPIC_NAME: &str = "general chat";

/// `#**` at byte `p` (allowed there): the byte offset after it.
fn opening(data: &str, p: usize) -> Option<usize> {
    (data[p..].starts_with("#**") && mention_may_start(data, p)).then_some(p + 3)
}

/// `#**channel>topic**` or, with `with_message`, `#**channel>topic@123**`:
/// (end, channel, topic, message id).
fn topic_syntax(data: &str, p: usize, with_message: bool) -> Option<(usize, &str, &str, Option<&str>)> {
    let start = opening(data, p)?;
    let channel_end = start + data[start..].find(['*', '>'])?;
    if channel_end == start || !data[channel_end..].starts_with('>') {
        return None;
    }
    let topic_start = channel_end + 1;
    let close = topic_start + data[topic_start..].find('*')?;
    if !data[close..].starts_with("**") {
        return None;
    }
    let channel = &data[start..channel_end];
    let region = &data[topic_start..close];
    if !with_message {
        return Some((close + 2, channel, region, None));
    }
    let at = region.rfind('@')?;
    let id = &region[at + 1..];
    (!id.is_empty() && id.chars().all(|c| c.is_ascii_digit())).then_some((
        close + 2,
        channel,
        &region[..at],
        Some(id),
    ))
}

/// `#**channel**`: (end, channel).
fn channel_syntax(data: &str, p: usize) -> Option<(usize, &str)> {
    let start = opening(data, p)?;
    let close = start + data[start..].find('*')?;
    (close > start && data[close..].starts_with("**")).then(|| (close + 2, &data[start..close]))
}

/// Successive candidate `#` positions with a match, as `finditer` visits them.
fn candidates<'d, T>(
    data: &'d str,
    from: usize,
    matcher: impl Fn(&'d str, usize) -> Option<(usize, T)> + 'd,
) -> impl Iterator<Item = (usize, usize, T)> + 'd {
    let mut from = from;
    std::iter::from_fn(move || {
        while let Some(offset) = data.get(from..)?.find('#') {
            let p = from + offset;
            if let Some((end, value)) = matcher(data, p) {
                from = end;
                return Some((p, end, value));
            }
            from = p + 1;
        }
        None
    })
}

/// `ID-slug`: the channel part of a `#narrow` URL.
fn channel_slug(id: u64, name: &str) -> String {
    format!("{id}-{}", encode_hash_component(&name.replace(' ', "-")))
}

/// Link text `#channel > topic`, with Zulip's name for the empty topic in italics.
fn topic_text(channel: &str, topic: &str, suffix: &str) -> String {
    if topic.is_empty() { format!("#{channel} > ") } else { format!("#{channel} > {topic}{suffix}") }
}

impl Engine<'_> {
    fn topic_link_element(
        &mut self,
        mut link: Elem,
        channel: &str,
        topic: &str,
        suffix: &str,
    ) -> Option<Elem> {
        link.text = topic_text(channel, topic, suffix);
        if topic.is_empty() {
            let em = self.stash_node(Stashed::Element(Elem::atomic("em", EMPTY_TOPIC_NAME)))?;
            link.text.push(em);
            link.text.push_str(suffix);
        }
        Some(link)
    }

    pub(super) fn message_link(&mut self, data: &str, from: usize) -> Option<Found> {
        let matches = candidates(data, from, |d, p| {
            topic_syntax(d, p, true)
                .map(|(end, channel, topic, id)| (end, (channel, topic, id.unwrap_or_default())))
        });
        for (start, end, (channel, topic, id)) in matches {
            let Some(stream) = self.ctx.stream_by_name(channel) else { continue };
            let href = format!(
                "/#narrow/channel/{}/topic/{}/near/{id}",
                channel_slug(stream.id, channel),
                encode_hash_component(topic)
            );
            let link = Elem::atomic("a", "").attr("class", "message-link").attr("href", href);
            let link = self.topic_link_element(link, channel, topic, " @ 💬")?;
            return Some(Found::new(start, end, Stashed::Element(link)));
        }
        None
    }

    pub(super) fn topic_link(&mut self, data: &str, from: usize) -> Option<Found> {
        let matches = candidates(data, from, |d, p| {
            topic_syntax(d, p, false).map(|(end, channel, topic, _)| (end, (channel, topic)))
        });
        for (start, end, (channel, topic)) in matches {
            let Some(stream) = self.ctx.stream_by_name(channel) else { continue };
            let mut href = format!(
                "/#narrow/channel/{}/topic/{}",
                channel_slug(stream.id, channel),
                encode_hash_component(topic)
            );
            if let Some(latest) = self.ctx.latest_message_in_topic(stream.id, topic) {
                href.push_str(&format!("/with/{latest}"));
            }
            let link = Elem::atomic("a", "")
                .attr("class", "stream-topic")
                .attr("data-stream-id", stream.id.to_string())
                .attr("href", href);
            let link = self.topic_link_element(link, channel, topic, "")?;
            return Some(Found::new(start, end, Stashed::Element(link)));
        }
        None
    }

    pub(super) fn channel_link(&mut self, data: &str, from: usize) -> Option<Found> {
        for (start, end, channel) in candidates(data, from, channel_syntax) {
            let Some(stream) = self.ctx.stream_by_name(channel) else { continue };
            let link = Elem::atomic("a", format!("#{channel}"))
                .attr("class", "stream")
                .attr("data-stream-id", stream.id.to_string())
                .attr("href", format!("/#narrow/channel/{}", channel_slug(stream.id, channel)));
            return Some(Found::new(start, end, Stashed::Element(link)));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topic_syntax_splits_like_zulip() {
        assert_eq!(topic_syntax("#**a>b**", 0, false), Some((8, "a", "b", None)));
        assert_eq!(topic_syntax("#**a>b@c@12**", 0, true), Some((13, "a", "b@c", Some("12"))));
        assert_eq!(topic_syntax("#**a>**", 0, false), Some((7, "a", "", None)));
        assert_eq!(topic_syntax("x#**a>b**", 1, false), None);
        assert_eq!(channel_syntax("#**a>b**", 0), Some((8, "a>b")));
    }
}
