//! Zulip's widgets: polls and to-do lists (and `zform`, which bots send), made of submessages.
//!
//! A widget is a message with submessages (Zulip's `SubMessage`). The first, of `msg_type`
//! `widget` and from the message's sender, says what the widget is
//! (`{"widget_type": "poll", "extra_data": {"question": ..., "options": [...]}}`); every later
//! one is a change to it (a vote, a new option, a struck task), which clients fold into what
//! they show. The server stores them and checks their shape; it never folds them.
//!
//! - [`command`]: the widget a message's content makes: a `/poll` or `/todo` first line, its
//!   following lines the options or tasks (Zulip's `get_widget_data`), or the `widget_content`
//!   an API client sends with it (`check_widget_content`, which knows only `zform`).
//! - [`check`]: the checks `POST /submessage` makes on a change to a poll or to-do list
//!   (`validate_poll_data`, `validate_todo_data`), with Zulip's messages; a port of the parts
//!   of Zulip's `zerver/lib/validator.py` they use.
//! - [`state`]: a widget's current state from its submessages (poll tallies, to-do items), as
//!   Zulip's web app folds them (`poll_data.ts`, `todo_widget.ts`), so that the browser shows
//!   what Zulip's clients show; confab-web exports it.
//!
//! Differences from Zulip, each on purpose:
//! - Where Zulip's server would raise a Python `TypeError` (an unknown `widget_type` or zform
//!   `type` that is not a string, concatenated into its message) and answer 500, the value is
//!   written as JSON in the message and the answer is the usual 400.
//! - When folding, a change that is not an object with a string `type` is skipped; Zulip's web
//!   app then shows no widget at all (its schema for the whole list fails).
//! - The submessage a command makes is written as Python's `json.dumps` writes it (separators
//!   `", "` and `": "`, non-ASCII escaped), byte for byte; the `extra_data` of a client's
//!   `widget_content` keeps its values but has its keys sorted.

pub mod check;
pub mod command;
mod python_json;
pub mod state;

pub use check::{check_submessage_content, check_widget_content};
pub use command::{
    PollExtraData, TodoExtraData, TodoTask, WidgetCommand, widget_command, widget_content_submessage,
};
pub use state::{PollOption, PollState, TodoItem, TodoState, WidgetState, widget_state};

use serde_json::Value;

use crate::model::Submessage;

/// The `msg_type` of the submessage that makes a message a widget, and of Zulip's changes to it.
pub const WIDGET_MSG_TYPE: &str = "widget";

/// The most options one user adds to a poll, or tasks to a to-do list (Zulip's `MAX_IDX`, the
/// highest `idx` or `key` a change may carry).
pub const MAX_IDX: i64 = 1000;

/// The widget type of a message's submessages (Zulip's `get_widget_type`): the `widget_type` of
/// the first `widget` submessage, if its content is a JSON object naming one as a string.
pub fn widget_type(submessages: &[Submessage]) -> Option<String> {
    let first = submessages.iter().find(|s| s.msg_type == WIDGET_MSG_TYPE)?;
    let data: Value = serde_json::from_str(&first.content).ok()?;
    data.get("widget_type")?.as_str().map(str::to_owned)
}

/// Whether Python's `str.isspace` holds, which is what its `\s` and `str.strip()` match:
/// Unicode's White_Space, and also the separators U+001C to U+001F.
fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `str.strip()`.
fn python_strip(s: &str) -> &str {
    s.trim_matches(is_python_space)
}

/// Python's `str.splitlines()`: split at every line boundary it knows (`\r\n` counting once),
/// with no empty last line for a trailing boundary.
fn python_splitlines(s: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut chars = s.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let boundary = matches!(
            c,
            '\n' | '\r'
                | '\u{b}'
                | '\u{c}'
                | '\u{1c}'
                | '\u{1d}'
                | '\u{1e}'
                | '\u{85}'
                | '\u{2028}'
                | '\u{2029}'
        );
        if !boundary {
            continue;
        }
        lines.push(&s[start..at]);
        let mut end = at + c.len_utf8();
        if c == '\r'
            && let Some(&(next_at, '\n')) = chars.peek()
        {
            chars.next();
            end = next_at + 1;
        }
        start = end;
    }
    if start < s.len() {
        lines.push(&s[start..]);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{MessageId, SubmessageId, UserId};

    #[test]
    fn lines_split_as_pythons_splitlines() {
        let cases: [(&str, &[&str]); 7] = [
            ("", &[]),
            ("\n", &[""]),
            ("a\nb\n", &["a", "b"]),
            ("a\r\nb\rc", &["a", "b", "c"]),
            ("a\n\nb", &["a", "", "b"]),
            ("a\u{2028}b\u{1e}c\u{1f}d", &["a", "b", "c\u{1f}d"]),
            ("\u{b}x\u{c}", &["", "x"]),
        ];
        for (text, lines) in cases {
            assert_eq!(python_splitlines(text), lines, "{text:?}");
        }
    }

    #[test]
    fn strip_takes_what_python_calls_space() {
        assert_eq!(python_strip("\u{1f}\u{a0} a b\u{3000}\t"), "a b");
        assert_eq!(python_strip("\u{200b}a"), "\u{200b}a");
    }

    #[test]
    fn the_widget_type_is_the_first_widget_submessages() {
        let sub = |id: u64, msg_type: &str, content: &str| Submessage {
            id: SubmessageId(id),
            message_id: MessageId(1),
            sender_id: UserId(2),
            msg_type: msg_type.into(),
            content: content.into(),
        };
        let poll = sub(1, "widget", r#"{"widget_type": "poll", "extra_data": {}}"#);
        assert_eq!(widget_type(std::slice::from_ref(&poll)).as_deref(), Some("poll"));
        assert_eq!(
            widget_type(&[sub(1, "other", r#"{"widget_type": "todo"}"#), poll]).as_deref(),
            Some("poll")
        );
        assert_eq!(widget_type(&[sub(1, "widget", "bogus non-json")]), None);
        assert_eq!(widget_type(&[sub(1, "widget", r#"{"bogus": 1}"#)]), None);
        assert_eq!(widget_type(&[sub(1, "widget", r#"{"widget_type": "todo"}"#)]).as_deref(), Some("todo"));
        assert_eq!(widget_type(&[sub(1, "widget", r#"[{"widget_type": "todo"}]"#)]), None);
        assert_eq!(widget_type(&[]), None);
    }
}
