//! Messages: sending, fetching, and (in later issues) editing, flags and reactions.

mod access;
mod fetch;
mod send;

pub use access::visible_flags;
pub use fetch::{get_message, get_messages};
pub use send::{MAX_MESSAGE_LENGTH, MAX_TOPIC_LENGTH, send_message};
