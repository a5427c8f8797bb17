//! What the Notification Bot says about channels, in Zulip's words: in a channel's
//! "channel events" topic when it is created or changed, in the organization's announcement
//! channel when a channel is created with `announce`, and to users whom someone else subscribed.

use crate::links::silent_mention;
use crate::model::{Stream, User};

/// Zulip's names of a channel's access policy.
pub fn policy_name(stream: &Stream) -> &'static str {
    match (stream.is_web_public, stream.invite_only, stream.history_public_to_subscribers) {
        (true, _, _) => "Web-public",
        (false, false, true) => "Public",
        (false, false, false) => "Public, protected history",
        (false, true, true) => "Private, shared history",
        (false, true, false) => "Private, protected history",
    }
}

fn quoted(description: &str) -> String {
    let text = if description.is_empty() { "*No description.*" } else { description };
    format!("\n```` quote\n{text}\n````")
}

fn by(user: &User) -> String {
    silent_mention(&user.full_name, user.id)
}

/// `#**name**`, the Markdown that links a channel.
fn channel_link(stream: &Stream) -> String {
    format!("#**{}**", stream.name)
}

/// In a new channel.
pub fn created(user: &User, stream: &Stream) -> String {
    format!(
        "**{}** channel created by {}. **Description:**{}",
        policy_name(stream),
        by(user),
        quoted(&stream.description)
    )
}

/// In the announcement channel, topic "new channels".
pub fn announced(user: &User, streams: &[&Stream]) -> String {
    let links: Vec<String> = streams.iter().map(|s| channel_link(s)).collect();
    if streams.len() > 1 {
        format!("{} created the following channels: {}.", by(user), links.join(", "))
    } else {
        format!("{} created a new channel {}.", by(user), links.join(", "))
    }
}

/// The topic of [`announced`].
pub const NEW_CHANNELS_TOPIC: &str = "new channels";

/// In a channel brought back from the archive (Zulip's `do_unarchive_stream`).
pub fn unarchived(stream: &Stream) -> String {
    format!("Channel {} has been unarchived.", channel_link(stream))
}

pub fn renamed(user: &User, old: &str, new: &str) -> String {
    format!("{} renamed channel **{old}** to **{new}**.", by(user))
}

pub fn description_changed(user: &User, old: &str, new: &str) -> String {
    format!(
        "{} changed the description for this channel.\n\n* **Old description:**{}\n* **New description:**{}",
        by(user),
        quoted(old),
        quoted(new)
    )
}

pub fn permission_changed(user: &User, old: &Stream, new: &Stream) -> String {
    format!(
        "{} changed the [access permissions](/help/channel-permissions) for this channel from **{}** to **{}**.",
        by(user),
        policy_name(old),
        policy_name(new)
    )
}

/// Retention in days; `None` inherits the organization's, which keeps messages forever.
pub fn retention_changed(user: &User, old: Option<i64>, new: Option<i64>) -> String {
    let forever = |days: Option<i64>| days.is_none_or(|d| d == -1);
    let period = |days: Option<i64>| {
        if forever(days) { "Forever".to_owned() } else { format!("{} days", days.unwrap_or_default()) }
    };
    let summary = if forever(new) {
        "Messages in this channel will now be retained forever.".to_owned()
    } else {
        format!(
            "Messages in this channel will now be automatically deleted {} days after they are sent.",
            new.unwrap_or_default()
        )
    };
    format!(
        "{} has changed the [message retention period](/help/message-retention-policy) for this channel:\n* **Old retention period**: {}\n* **New retention period**: {}\n\n{summary}",
        by(user),
        period(old),
        period(new)
    )
}

/// To a user someone else subscribed to existing channels.
pub fn subscribed_you(user: &User, streams: &[&Stream]) -> String {
    let mut names: Vec<&str> = streams.iter().map(|s| s.name.as_str()).collect();
    names.sort_unstable();
    if let [name] = names.as_slice() {
        return format!("{} subscribed you to #**{name}**.", by(user));
    }
    let mut text = format!("{} subscribed you to the following channels:\n\n", by(user));
    let items: Vec<String> = names.iter().map(|name| format!("* #**{name}**")).collect();
    text.push_str(&items.join("\n"));
    text
}
