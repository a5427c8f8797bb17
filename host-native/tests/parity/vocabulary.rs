//! The small pools names, topics and texts come from. Small on purpose: collisions (two topics
//! that differ only in case, a word in both a topic and a message) are where indexes go wrong.

pub const SUBDOMAINS: [&str; 4] = ["", "lear", "glossy", "rivendell"];

/// Local parts of email addresses; `Dave` and `dave` are the same address.
pub const EMAIL_NAMES: [&str; 8] = ["alice", "Bob", "carol", "Dave", "dave", "erin", "FRANK", "grace"];

pub const EMAIL_DOMAIN: &str = "example.com";

pub const STREAM_NAMES: [&str; 7] = ["general", "design", "Design", "backend", "random", "Announce", "ops"];

pub const TOPICS: [&str; 6] = ["lunch", "Lunch", "release 1.0", "", "bugs", "design review"];

pub const CONTENTS: [&str; 6] = [
    "hello world",
    "Lunch at noon?",
    "the release is out",
    "bugs, bugs and more bugs",
    "Hello again, world",
    "see the design doc",
];

/// Event queue ids and client-side local ids of remembered sends.
pub const QUEUE_IDS: [&str; 2] = ["1518820930:0", "1518820930:1"];
pub const LOCAL_IDS: [&str; 3] = ["1.01", "1.02", "7"];

/// `(name, code, type)`: `+1` and `thumbs_up` are one emoji under two names.
pub const EMOJI: [(&str, &str, &str); 4] = [
    ("+1", "1f44d", "unicode_emoji"),
    ("tada", "1f389", "unicode_emoji"),
    ("thumbs_up", "1f44d", "unicode_emoji"),
    ("zulip", "zulip", "zulip_extra_emoji"),
];

/// `(msg_type, content)` of submessages: a widget and changes to it, and one of another type.
pub const SUBMESSAGES: [(&str, &str); 4] = [
    ("widget", r#"{"widget_type": "poll", "extra_data": {"question": "Lunch?", "options": ["soup"]}}"#),
    ("widget", r#"{"type": "vote", "key": "canned,0", "vote": 1}"#),
    ("widget", r#"{"type": "new_option", "idx": 1, "option": "caf\u00e9"}"#),
    ("whatever", r#"{"name": "alice", "salary": 20}"#),
];

pub const ALERT_WORDS: [&str; 4] = ["lunch", "release", "Bugs", "hello"];

pub const SETTINGS: [(&str, &str); 3] =
    [("twenty_four_hour_time", "true"), ("emojiset", "\"text\""), ("timezone", "\"Europe/Paris\"")];

/// Delivery times of scheduled messages: few, so that some tie.
pub const DELIVERY_TIMES: [i64; 3] = [5_000, 6_000, 7_000];

/// An email address from the pool.
pub fn email(name: u8) -> String {
    format!("{}@{EMAIL_DOMAIN}", EMAIL_NAMES[usize::from(name) % EMAIL_NAMES.len()])
}

/// One of a pool, by a generated number.
pub fn one<T: Copy>(pool: &[T], n: u8) -> T {
    pool[usize::from(n) % pool.len()]
}
