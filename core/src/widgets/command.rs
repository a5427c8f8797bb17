//! The widget a message makes when it is sent: from its content (`/poll`, `/todo`), or from the
//! `widget_content` an API client sends (Zulip's `zerver/lib/widget.py`: `get_widget_data`,
//! `do_widget_post_save_actions`; `check_widget_content` in `zerver/lib/validator.py`).

use serde::Serialize;
use serde_json::Value;

use super::check::check_widget_content;
use super::python_json::dumps;
use super::{is_python_space, python_splitlines, python_strip};

/// A widget a message's content asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WidgetCommand {
    /// `/poll QUESTION`, one option a line after it.
    Poll(PollExtraData),
    /// `/todo TITLE`, one `task: description` a line after it.
    Todo(TodoExtraData),
}

/// A poll's `extra_data`, as the command sets it up.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PollExtraData {
    pub question: String,
    pub options: Vec<String>,
}

/// A to-do list's `extra_data`, as the command sets it up.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TodoExtraData {
    pub task_list_title: String,
    pub tasks: Vec<TodoTask>,
}

/// One task a `/todo` command lists.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TodoTask {
    pub task: String,
    /// What follows the task's first `": "`, or empty.
    pub desc: String,
}

impl WidgetCommand {
    /// `poll` or `todo`.
    pub fn widget_type(&self) -> &'static str {
        match self {
            WidgetCommand::Poll(_) => "poll",
            WidgetCommand::Todo(_) => "todo",
        }
    }

    /// The content of the `widget` submessage Zulip stores for it, as Python's `json.dumps`
    /// writes `{"widget_type": ..., "extra_data": ...}`.
    pub fn submessage_content(&self) -> String {
        #[derive(Serialize)]
        struct Content<'a, T> {
            widget_type: &'a str,
            extra_data: &'a T,
        }
        match self {
            WidgetCommand::Poll(data) => dumps(&Content { widget_type: "poll", extra_data: data }),
            WidgetCommand::Todo(data) => dumps(&Content { widget_type: "todo", extra_data: data }),
        }
    }
}

/// The widget a message's (normalized) content asks for, if any: its first word, up to the
/// first whitespace, is `/poll` or `/todo`. The rest of the first line is the question or title
/// (stripped); each later line that is not blank, stripped and without one leading `-` or `*`
/// list marker, is an option or a task. Zulip's `get_widget_data`.
pub fn widget_command(content: &str) -> Option<WidgetCommand> {
    let token = content.split(is_python_space).next().unwrap_or_default();
    let rest = &content[token.len()..];
    match token {
        "/poll" => Some(WidgetCommand::Poll(poll_extra_data(rest))),
        "/todo" => Some(WidgetCommand::Todo(todo_extra_data(rest))),
        _ => None,
    }
}

/// The first line, if it is not empty, and the lines after it; an empty first line (the
/// command alone on its line) is kept among the items, where it is skipped as blank.
fn heading_and_items(rest: &str) -> (String, Vec<&str>) {
    let mut lines = python_splitlines(rest);
    match lines.first() {
        Some(first) if !first.is_empty() => {
            let heading = python_strip(first).to_owned();
            lines.remove(0);
            (heading, lines)
        }
        _ => (String::new(), lines),
    }
}

/// A line as an item: stripped, then without a leading list marker and the space after it
/// (Zulip removes the first match of `\s*[-*]?\s*`, which is at the start).
fn item(line: &str) -> &str {
    let stripped = python_strip(line);
    let unmarked = stripped.strip_prefix(['-', '*']).unwrap_or(stripped);
    unmarked.trim_start_matches(is_python_space)
}

fn poll_extra_data(rest: &str) -> PollExtraData {
    let (question, lines) = heading_and_items(rest);
    let options = lines.into_iter().map(item).filter(|o| !o.is_empty()).map(str::to_owned).collect();
    PollExtraData { question, options }
}

fn todo_extra_data(rest: &str) -> TodoExtraData {
    let (task_list_title, lines) = heading_and_items(rest);
    let tasks = lines
        .into_iter()
        .map(item)
        .filter(|t| !t.is_empty())
        .map(|text| match text.split_once(": ") {
            Some((task, desc)) => {
                TodoTask { task: python_strip(task).into(), desc: python_strip(desc).into() }
            }
            None => TodoTask { task: python_strip(text).into(), desc: String::new() },
        })
        .collect();
    TodoExtraData { task_list_title, tasks }
}

/// The `widget` submessage content for a send's `widget_content` parameter, checked as Zulip's
/// `check_message` does: not JSON, or not a widget Zulip accepts from clients (only `zform`),
/// is refused with Zulip's `Widgets: ...` message.
pub fn widget_content_submessage(raw: &str) -> Result<String, String> {
    let value: Value = serde_json::from_str(raw)
        .map_err(|_| "Widgets: API programmer sent invalid JSON content".to_owned())?;
    check_widget_content(&value).map_err(|msg| format!("Widgets: {msg}"))?;
    #[derive(Serialize)]
    struct Content<'a> {
        widget_type: &'a Value,
        extra_data: &'a Value,
    }
    Ok(dumps(&Content { widget_type: &value["widget_type"], extra_data: &value["extra_data"] }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn poll(question: &str, options: &[&str]) -> Option<WidgetCommand> {
        Some(WidgetCommand::Poll(PollExtraData {
            question: question.into(),
            options: options.iter().map(|o| (*o).to_owned()).collect(),
        }))
    }

    fn todo(title: &str, tasks: &[(&str, &str)]) -> Option<WidgetCommand> {
        Some(WidgetCommand::Todo(TodoExtraData {
            task_list_title: title.into(),
            tasks: tasks.iter().map(|(t, d)| TodoTask { task: (*t).into(), desc: (*d).into() }).collect(),
        }))
    }

    /// Zulip's `test_get_widget_data_for_non_widget_messages`, `test_poll_command_extra_data`,
    /// `test_todo`, `test_todo_command_extra_data`, and the edges of its parsing.
    #[test]
    fn commands_parse_as_zulip_parses_them() {
        let cases: Vec<(&str, Option<WidgetCommand>)> = vec![
            ("", None),
            ("     ", None),
            ("this is an ordinary message", None),
            ("/bogus_command", None),
            ("/me shrugs", None),
            ("use /poll", None),
            (" /poll leading space", None),
            ("/pollster", None),
            ("/Poll", None),
            ("/poll", poll("", &[])),
            ("/todo", todo("", &[])),
            ("/todo Title", todo("Title", &[])),
            ("/todo\nTask", todo("", &[("Task", "")])),
            ("/todo   School Work", todo("School Work", &[])),
            (
                "/poll What is your favorite color?\n\nRed\nGreen  \n\n   Blue\n - Yellow",
                poll("What is your favorite color?", &["Red", "Green", "Blue", "Yellow"]),
            ),
            ("/poll Preference?\n\nyes\nno", poll("Preference?", &["yes", "no"])),
            (
                "/todo Example Task List Title\n\n    task without description\ntask: with description    \n\n - task as list : also with description",
                todo(
                    "Example Task List Title",
                    &[
                        ("task without description", ""),
                        ("task", "with description"),
                        ("task as list", "also with description"),
                    ],
                ),
            ),
            (
                "/todo School Work\nchemistry homework: assignment 2\nstudy for english test: pages 56-67",
                todo(
                    "School Work",
                    &[("chemistry homework", "assignment 2"), ("study for english test", "pages 56-67")],
                ),
            ),
            // The command may end its first line with a tab or any other whitespace.
            ("/poll\tWhy?\r\n* a\r\n-b\r\n**c**\r\n-\r\n--d", poll("Why?", &["a", "b", "*c**", "-d"])),
            ("/poll   \nA\nA", poll("", &["A", "A"])),
            ("/poll\u{a0}Q\u{2028}x", poll("Q", &["x"])),
            (
                "/todo T\na:b: c\n: only desc\nx:  y: z",
                todo("T", &[("a:b", "c"), ("", "only desc"), ("x", "y: z")]),
            ),
            ("/todo\n\n\n", todo("", &[])),
        ];
        for (content, expected) in cases {
            assert_eq!(widget_command(content), expected, "{content:?}");
        }
    }

    #[test]
    fn the_submessage_is_written_as_zulip_writes_it() {
        let poll = widget_command("/poll Café?\nyes\nno").expect("a poll");
        assert_eq!(
            poll.submessage_content(),
            r#"{"widget_type": "poll", "extra_data": {"question": "Caf\u00e9?", "options": ["yes", "no"]}}"#
        );
        let todo = widget_command("/todo\nsleep: long").expect("a to-do list");
        assert_eq!(
            todo.submessage_content(),
            r#"{"widget_type": "todo", "extra_data": {"task_list_title": "", "tasks": [{"task": "sleep", "desc": "long"}]}}"#
        );
    }

    #[test]
    fn widget_content_is_checked_as_zulip_checks_it() {
        let zform = r#"{"widget_type": "zform", "extra_data": {"type": "choices", "heading": "Options:", "choices": []}}"#;
        assert_eq!(
            widget_content_submessage(zform).as_deref(),
            Ok(
                r#"{"widget_type": "zform", "extra_data": {"choices": [], "heading": "Options:", "type": "choices"}}"#
            )
        );
        let refused = [
            ("{{{{{{", "Widgets: API programmer sent invalid JSON content"),
            (r#"{"color": "red", "foo": "bar", "x": 2}"#, "Widgets: widget_type is not in widget_content"),
            (r#"{"widget_type": "poll", "extra_data": {}}"#, "Widgets: unknown widget type: poll"),
        ];
        for (raw, msg) in refused {
            assert_eq!(widget_content_submessage(raw), Err(msg.to_owned()), "{raw}");
        }
    }
}
