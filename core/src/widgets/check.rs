//! The shape checks of widget data, with Zulip's messages: `check_widget_content` (a send's
//! `widget_content`), `validate_poll_data` and `validate_todo_data` (a change sent to
//! `POST /submessage`), over a port of the validators of Zulip's `zerver/lib/validator.py` they
//! are built from (`check_dict`, `check_dict_only`, `check_list`, `check_int_range`, ...).
//!
//! Only shapes are checked, as in Zulip: a vote for an option nobody added is accepted, and
//! clients ignore it when they fold the poll.

use serde_json::Value;

use super::MAX_IDX;

/// A Zulip `ValidationError` message.
type Checked = Result<(), String>;

/// One of Zulip's validators, as data.
#[derive(Clone, Copy, Debug)]
enum Check {
    /// `check_string`.
    Str,
    /// `check_bool`.
    Bool,
    /// `check_int_in`.
    IntIn(&'static [i64]),
    /// `check_int_range`, both ends allowed.
    IntRange(i64, i64),
    /// `check_list` of one validator.
    List(&'static Check),
    /// `check_dict` (other keys allowed) or, with `only`, `check_dict_only`.
    Dict { keys: &'static [(&'static str, Check)], only: bool },
}

impl Check {
    /// Checks `value`, which error messages call `var`.
    fn check(&self, var: &str, value: &Value) -> Checked {
        match *self {
            Check::Str => match value {
                Value::String(_) => Ok(()),
                _ => Err(format!("{var} is not a string")),
            },
            Check::Bool => match value {
                Value::Bool(_) => Ok(()),
                _ => Err(format!("{var} is not a boolean")),
            },
            Check::IntIn(allowed) => {
                let n = python_int(var, value)?;
                if allowed.iter().any(|a| i128::from(*a) == n) {
                    Ok(())
                } else {
                    Err(format!("Invalid {var}"))
                }
            }
            Check::IntRange(low, high) => {
                let n = python_int(var, value)?;
                if n < i128::from(low) {
                    Err(format!("{var} is too small"))
                } else if n > i128::from(high) {
                    Err(format!("{var} is too large"))
                } else {
                    Ok(())
                }
            }
            Check::List(item) => {
                let Value::Array(items) = value else { return Err(format!("{var} is not a list")) };
                for (i, value) in items.iter().enumerate() {
                    item.check(&format!("{var}[{i}]"), value)?;
                }
                Ok(())
            }
            Check::Dict { keys, only } => {
                let Value::Object(map) = value else { return Err(format!("{var} is not a dict")) };
                for (key, check) in keys {
                    let Some(value) = map.get(*key) else {
                        return Err(format!("{key} key is missing from {var}"));
                    };
                    check.check(&format!("{var}[\"{key}\"]"), value)?;
                }
                if only {
                    let unexpected: Vec<&str> = map
                        .keys()
                        .map(String::as_str)
                        .filter(|k| !keys.iter().any(|(known, _)| known == k))
                        .collect();
                    if !unexpected.is_empty() {
                        return Err(format!("Unexpected arguments: {}", unexpected.join(", ")));
                    }
                }
                Ok(())
            }
        }
    }
}

/// An integer as Python's `check_int` sees JSON: integers of any size, and `true` and `false`
/// as 1 and 0 (a Python `bool` is an `int`); floats are not.
fn python_int(var: &str, value: &Value) -> Result<i128, String> {
    match value {
        Value::Bool(b) => Ok(i128::from(*b)),
        Value::Number(n) => n
            .as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from))
            .ok_or_else(|| format!("{var} is not an integer")),
        _ => Err(format!("{var} is not an integer")),
    }
}

/// How Python's `str + value` would show a value Zulip concatenates into a message: text as it
/// is; anything else (where Zulip would fail with a `TypeError`) as JSON.
fn shown(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// What `POST /submessage` accepts as content for a widget of type `widget_type` (Zulip's
/// `process_submessage`): JSON, and for a poll or a to-do list the shape of one of its changes.
/// Other widgets, and messages that are no widget, take any JSON. Only the widget's author
/// (the message's sender) may change a poll's question or a to-do list's title. `Err` holds
/// Zulip's message.
pub fn check_submessage_content(
    widget_type: Option<&str>,
    content: &str,
    is_widget_author: bool,
) -> Result<(), String> {
    let data: Value = serde_json::from_str(content).map_err(|_| "Invalid json for submessage".to_owned())?;
    match widget_type {
        Some("poll") => validate_poll_data(&data, is_widget_author),
        Some("todo") => validate_todo_data(&data, is_widget_author),
        _ => Ok(()),
    }
}

/// The `type` every change names, checked as Zulip does before looking at it.
fn change_type<'v>(var: &str, data: &'v Value) -> Result<&'v str, String> {
    Check::Dict { keys: &[("type", Check::Str)], only: false }.check(var, data)?;
    Ok(data["type"].as_str().unwrap_or_default())
}

/// Zulip's `validate_poll_data`: a vote (`key`, `vote` 1 or -1), a question (its author's
/// only), or a new option (`option`, `idx` 0 to [`MAX_IDX`]), with no other fields.
fn validate_poll_data(data: &Value, is_widget_author: bool) -> Checked {
    const VAR: &str = "poll data";
    let keys: &'static [(&'static str, Check)] = match change_type(VAR, data)? {
        "vote" => &[("type", Check::Str), ("key", Check::Str), ("vote", Check::IntIn(&[1, -1]))],
        "question" => {
            if !is_widget_author {
                return Err("You can't edit a question unless you are the author.".into());
            }
            &[("type", Check::Str), ("question", Check::Str)]
        }
        "new_option" => &[("type", Check::Str), ("option", Check::Str), ("idx", Check::IntRange(0, MAX_IDX))],
        other => return Err(format!("Unknown type for poll data: {other}")),
    };
    Check::Dict { keys, only: true }.check(VAR, data)
}

/// Zulip's `validate_todo_data`: a new task (`key` 0 to [`MAX_IDX`], `task`, `desc`,
/// `completed`), a strike (`key`), or a new title (its author's only), with no other fields.
fn validate_todo_data(data: &Value, is_widget_author: bool) -> Checked {
    const VAR: &str = "todo data";
    let keys: &'static [(&'static str, Check)] = match change_type(VAR, data)? {
        "new_task" => &[
            ("type", Check::Str),
            ("key", Check::IntRange(0, MAX_IDX)),
            ("task", Check::Str),
            ("desc", Check::Str),
            ("completed", Check::Bool),
        ],
        "strike" => &[("type", Check::Str), ("key", Check::Str)],
        "new_task_list_title" => {
            if !is_widget_author {
                return Err("You can't edit the task list title unless you are the author.".into());
            }
            &[("type", Check::Str), ("title", Check::Str)]
        }
        other => return Err(format!("Unknown type for todo data: {other}")),
    };
    Check::Dict { keys, only: true }.check(VAR, data)
}

/// Zulip's `check_widget_content`: the widgets a client may attach to a message it sends. Only
/// `zform` (a bot's buttons) of type `choices`; polls and to-do lists come from the commands.
pub fn check_widget_content(widget_content: &Value) -> Checked {
    let Value::Object(content) = widget_content else {
        return Err("widget_content is not a dict".into());
    };
    let Some(widget_type) = content.get("widget_type") else {
        return Err("widget_type is not in widget_content".into());
    };
    let Some(extra_data) = content.get("extra_data") else {
        return Err("extra_data is not in widget_content".into());
    };
    let Value::Object(extra) = extra_data else { return Err("extra_data is not a dict".into()) };
    if *widget_type != "zform" {
        return Err(format!("unknown widget type: {}", shown(widget_type)));
    }
    let Some(zform_type) = extra.get("type") else { return Err("zform is missing type field".into()) };
    if *zform_type != "choices" {
        return Err(format!("unknown zform type: {}", shown(zform_type)));
    }
    const CHOICE: Check = Check::Dict {
        keys: &[("short_name", Check::Str), ("long_name", Check::Str), ("reply", Check::Str)],
        only: false,
    };
    // `type` is checked again only so that it does not look like an extra key, as in Zulip.
    Check::Dict {
        keys: &[("type", Check::Str), ("heading", Check::Str), ("choices", Check::List(&CHOICE))],
        only: false,
    }
    .check("extra_data", extra_data)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Zulip's `test_poll_type_validation` and `test_poll_permissions`, and the messages its
    /// validators make for the rest.
    #[test]
    fn poll_changes_are_checked_as_zulip_checks_them() {
        let cases: &[(&str, Result<(), &str>)] = &[
            ("bogus", Err("Invalid json for submessage")),
            ("", Err("Invalid json for submessage")),
            (r#""""#, Err("poll data is not a dict")),
            ("[]", Err("poll data is not a dict")),
            ("{}", Err("type key is missing from poll data")),
            (r#"{"type": 5}"#, Err(r#"poll data["type"] is not a string"#)),
            (r#"{"type": "bogus"}"#, Err("Unknown type for poll data: bogus")),
            (r#"{"type": "vote"}"#, Err("key key is missing from poll data")),
            (r#"{"type": "vote", "key": "1,1,", "vote": 99}"#, Err(r#"Invalid poll data["vote"]"#)),
            (r#"{"type": "vote", "key": 1, "vote": 1}"#, Err(r#"poll data["key"] is not a string"#)),
            (r#"{"type": "vote", "key": "1,1", "vote": 1.0}"#, Err(r#"poll data["vote"] is not an integer"#)),
            (r#"{"type": "vote", "key": "1,1", "vote": 1, "x": 2}"#, Err("Unexpected arguments: x")),
            (r#"{"type": "question"}"#, Err("question key is missing from poll data")),
            (r#"{"type": "question", "question": 7}"#, Err(r#"poll data["question"] is not a string"#)),
            (r#"{"type": "new_option"}"#, Err("option key is missing from poll data")),
            (
                r#"{"type": "new_option", "idx": 7, "option": 999}"#,
                Err(r#"poll data["option"] is not a string"#),
            ),
            (
                r#"{"type": "new_option", "idx": -1, "option": "pizza"}"#,
                Err(r#"poll data["idx"] is too small"#),
            ),
            (
                r#"{"type": "new_option", "idx": 1001, "option": "pizza"}"#,
                Err(r#"poll data["idx"] is too large"#),
            ),
            (
                r#"{"type": "new_option", "idx": "bogus", "option": "maybe"}"#,
                Err(r#"poll data["idx"] is not an integer"#),
            ),
            (r#"{"type": "vote", "key": "1,1", "vote": 1}"#, Ok(())),
            (r#"{"type": "vote", "key": "canned,0", "vote": -1}"#, Ok(())),
            // A Python bool is an int: Zulip takes `true` as a vote of 1.
            (r#"{"type": "vote", "key": "1,1", "vote": true}"#, Ok(())),
            (r#"{"type": "new_option", "idx": 7, "option": "maybe"}"#, Ok(())),
            (r#"{"type": "new_option", "idx": 1000, "option": ""}"#, Ok(())),
            (r#"{"type": "question", "question": "what's for dinner?"}"#, Ok(())),
        ];
        for (content, expected) in cases {
            let got = check_submessage_content(Some("poll"), content, true);
            assert_eq!(got, expected.map_err(str::to_owned), "{content}");
        }
        assert_eq!(
            check_submessage_content(Some("poll"), r#"{"type": "question", "question": "Tabs?"}"#, false),
            Err("You can't edit a question unless you are the author.".into())
        );
        // The author check comes before the shape's.
        assert_eq!(
            check_submessage_content(Some("poll"), r#"{"type": "question"}"#, false),
            Err("You can't edit a question unless you are the author.".into())
        );
        assert_eq!(
            check_submessage_content(Some("poll"), r#"{"type": "vote", "key": "k", "vote": 1}"#, false),
            Ok(())
        );
    }

    /// Zulip's `test_todo_type_validation` and `test_todo_permissions`.
    #[test]
    fn todo_changes_are_checked_as_zulip_checks_them() {
        let cases: &[(&str, Result<(), &str>)] = &[
            ("[1]", Err("todo data is not a dict")),
            (r#"{"type": "bogus"}"#, Err("Unknown type for todo data: bogus")),
            (r#"{"type": "new_task"}"#, Err("key key is missing from todo data")),
            (
                r#"{"type": "new_task", "key": 7, "task": 7, "desc": "", "completed": false}"#,
                Err(r#"todo data["task"] is not a string"#),
            ),
            (
                r#"{"type": "new_task", "key": -1, "task": "eat", "desc": "", "completed": false}"#,
                Err(r#"todo data["key"] is too small"#),
            ),
            (
                r#"{"type": "new_task", "key": 1001, "task": "eat", "desc": "", "completed": false}"#,
                Err(r#"todo data["key"] is too large"#),
            ),
            (
                r#"{"type": "new_task", "key": 7, "task": "eat", "desc": "", "completed": "no"}"#,
                Err(r#"todo data["completed"] is not a boolean"#),
            ),
            (
                r#"{"type": "new_task", "key": 7, "task": "eat", "desc": ""}"#,
                Err("completed key is missing from todo data"),
            ),
            (r#"{"type": "strike"}"#, Err("key key is missing from todo data")),
            (r#"{"type": "strike", "key": 999}"#, Err(r#"todo data["key"] is not a string"#)),
            (r#"{"type": "new_task_list_title"}"#, Err("title key is missing from todo data")),
            (r#"{"type": "new_task", "key": 7, "task": "eat", "desc": "", "completed": false}"#, Ok(())),
            (r#"{"type": "strike", "key": "5,9"}"#, Ok(())),
            (r#"{"type": "new_task_list_title", "title": "School Work"}"#, Ok(())),
        ];
        for (content, expected) in cases {
            let got = check_submessage_content(Some("todo"), content, true);
            assert_eq!(got, expected.map_err(str::to_owned), "{content}");
        }
        assert_eq!(
            check_submessage_content(Some("todo"), r#"{"type": "new_task_list_title", "title": "X"}"#, false),
            Err("You can't edit the task list title unless you are the author.".into())
        );
    }

    #[test]
    fn other_submessages_need_only_be_json() {
        assert_eq!(check_submessage_content(None, r#"{"name": "alice", "salary": 20}"#, false), Ok(()));
        assert_eq!(check_submessage_content(Some("zform"), "[1, 2]", false), Ok(()));
        assert_eq!(check_submessage_content(None, "5", true), Ok(()));
        assert_eq!(check_submessage_content(None, "{", true), Err("Invalid json for submessage".into()));
    }

    /// Zulip's `WidgetContentTestCase.test_validation`.
    #[test]
    fn widget_content_is_checked_as_zulip_checks_it() {
        let mut obj = json!({"widget_type": "zform", "extra_data": {}});
        let cases: Vec<(Value, &str)> = vec![
            (json!(5), "widget_content is not a dict"),
            (json!({}), "widget_type is not in widget_content"),
            (json!({"widget_type": "whatever"}), "extra_data is not in widget_content"),
            (json!({"widget_type": "zform", "extra_data": 4}), "extra_data is not a dict"),
            (json!({"widget_type": "bogus", "extra_data": {}}), "unknown widget type: bogus"),
            (json!({"widget_type": 7, "extra_data": {}}), "unknown widget type: 7"),
            (json!({"widget_type": "zform", "extra_data": {}}), "zform is missing type field"),
            (json!({"widget_type": "zform", "extra_data": {"type": "bogus"}}), "unknown zform type: bogus"),
            (json!({"widget_type": "zform", "extra_data": {"type": ["x"]}}), r#"unknown zform type: ["x"]"#),
        ];
        for (value, msg) in cases {
            assert_eq!(check_widget_content(&value), Err(msg.to_owned()), "{value}");
        }
        let steps: Vec<(&str, Value, &str)> = vec![
            ("type", json!("choices"), "heading key is missing from extra_data"),
            ("heading", json!("whatever"), "choices key is missing from extra_data"),
            ("choices", json!(99), r#"extra_data["choices"] is not a list"#),
            ("choices", json!([99]), r#"extra_data["choices"][0] is not a dict"#),
            (
                "choices",
                json!([{"long_name": "foo", "reply": "bar"}]),
                r#"short_name key is missing from extra_data["choices"][0]"#,
            ),
        ];
        for (key, value, msg) in steps {
            obj["extra_data"][key] = value;
            assert_eq!(check_widget_content(&obj), Err(msg.to_owned()), "{obj}");
        }
        obj["extra_data"]["choices"] = json!([{"short_name": "a", "long_name": "foo", "reply": "bar"}]);
        assert_eq!(check_widget_content(&obj), Ok(()));
    }
}
