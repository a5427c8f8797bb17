//! Messages: sending, fetching, editing, flags, reactions and submessages (widgets).

mod access;
mod automatic_follow;
mod delete;
mod direct_permissions;
mod edit;
mod fetch;
mod flags;
mod history;
mod matches;
mod notices;
mod preferences_on_move;
mod reactions;
mod rendering;
mod report;
mod send;
mod submessages;

pub use access::{readable_message, visible_flags};
pub use delete::{delete_message, delete_topic, get_stream_topics};
pub use edit::{
    PropagateMode, RESOLVED_TOPIC_PREFIX, TopicChange, check_can_edit_content, classify_topic_change,
    update_message,
};
pub(crate) use fetch::one_message;
pub use fetch::{get_message, get_messages};
pub use flags::{
    mark_all_as_read, mark_stream_as_read, mark_topic_as_read, read_on_leaving, update_message_flags,
    update_message_flags_for_narrow,
};
pub use history::{edit_history_json, get_message_history};
pub use matches::{check_messages_match_narrow, render};
pub use notices::{CHANNEL_EVENTS_TOPIC, ChannelNotice, NoticeIds, post_channel_notice, send_direct_notice};
pub use reactions::{add_reaction, remove_reaction};
pub use rendering::{is_me_message, markdown_linkifiers, render_message};
pub use report::report_message;
pub use send::{
    MAX_MESSAGE_LENGTH, MAX_TOPIC_LENGTH, check_content, check_topic, send_message, truncate_topic,
};
pub(crate) use send::{check_message, interactive_client, notify_user, truncate};
pub use submessages::process_submessage;
