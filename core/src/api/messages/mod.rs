//! Messages: sending, fetching, and (in later issues) editing, flags and reactions.

mod access;
mod fetch;
mod flags;
mod send;

pub use access::visible_flags;
pub use fetch::{get_message, get_messages};
pub use flags::{
    mark_all_as_read, mark_stream_as_read, mark_topic_as_read, update_message_flags,
    update_message_flags_for_narrow,
};
pub use send::{MAX_MESSAGE_LENGTH, MAX_TOPIC_LENGTH, check_topic, send_message};
