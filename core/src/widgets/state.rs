//! A widget's current state, folded from its submessages as Zulip's web app folds them
//! (`web/src/submessage.ts`, `web/shared/src/poll_data.ts`, `web/src/todo_widget.ts`): what a
//! client shows for a poll (its question, each option with its voters) or a to-do list (its
//! title, each task and whether it is done), for one viewer.
//!
//! The rules, Zulip's:
//! - Submessages are taken in id order. The first says what the widget is, and counts only if
//!   the message's sender sent it (anyone else's would hijack the message); every later one,
//!   whatever its `msg_type`, is a change from its sender.
//! - A poll starts with the command's question and options; an option's key is
//!   `"{sender},{idx}"` (`"canned,{i}"` for the command's). Anyone may add an option, but not
//!   one whose text is already there, and only with an `idx` from 0 to [`MAX_IDX`]; a new
//!   option under a key already in use replaces it (votes too) where it stands. Anyone may
//!   vote (1) or take their vote back (-1) on an option that exists. Only the sender may change
//!   the question.
//! - A to-do list starts with the command's title and tasks; a task's key is `"{idx},{sender}"`
//!   (`"{i},canned"` for the command's). Anyone may add a task whose name is not in use, with
//!   a `key` from 0 to [`MAX_IDX`], or strike one (which toggles it done); only the sender may
//!   change the title.
//! - A change of the wrong shape, or naming what does not exist, changes nothing.

use serde::{Deserialize, Serialize};
use serde_json::Value;

#[cfg(feature = "typescript")]
use ts_rs::TS;

use super::MAX_IDX;
use crate::ids::UserId;
use crate::model::Submessage;

/// What a widget shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(tag = "widget_type", rename_all = "snake_case")]
pub enum WidgetState {
    Poll(PollState),
    Todo(TodoState),
    /// A bot's buttons (`zform`): its `extra_data` as sent (`heading`, `choices`), which does
    /// not change.
    Zform {
        #[cfg_attr(feature = "typescript", ts(type = "JsonValue"))]
        extra_data: Value,
    },
}

/// A poll as the viewer sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct PollState {
    /// Empty until the poll's author sets one.
    pub question: String,
    /// In the order they were added.
    pub options: Vec<PollOption>,
    /// Whether the poll is the viewer's (only they may change the question).
    pub is_my_poll: bool,
    /// The `idx` the viewer's next new option takes (`{"type": "new_option", "idx": ...,
    /// "option": ...}`).
    pub next_option_idx: u64,
}

/// One option of a poll.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct PollOption {
    /// What a vote names (`{"type": "vote", "key": ..., "vote": 1}`).
    pub key: String,
    pub option: String,
    /// Who voted for it, in the order they voted.
    pub voters: Vec<u64>,
    /// Whether the viewer is among the voters (their next vote on it is -1, taking it back).
    pub current_user_vote: bool,
}

/// A to-do list as the viewer sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct TodoState {
    /// Empty when none was given (Zulip's web app then shows "Task list").
    pub task_list_title: String,
    /// In the order they were added.
    pub tasks: Vec<TodoItem>,
    /// Whether the list is the viewer's (only they may change the title).
    pub is_my_task_list: bool,
    /// The `key` the viewer's next new task takes (`{"type": "new_task", "key": ..., "task":
    /// ..., "desc": ..., "completed": false}`).
    pub next_task_key: u64,
}

/// One task of a to-do list.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct TodoItem {
    /// What a strike names (`{"type": "strike", "key": ...}`).
    pub key: String,
    pub idx: u64,
    pub task: String,
    pub desc: String,
    pub completed: bool,
}

/// Who made a change: a user, or the command itself (Zulip's `"canned"`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sender {
    Canned,
    User(u64),
}

impl std::fmt::Display for Sender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Sender::Canned => f.write_str("canned"),
            Sender::User(id) => id.fmt(f),
        }
    }
}

/// The state of the widget a message's submessages make, as `viewer` sees it, or `None` if
/// they make none (no submessages, a first one from someone other than `message_sender`, or
/// not a widget Zulip's clients know).
pub fn widget_state(
    message_sender: UserId,
    submessages: &[Submessage],
    viewer: UserId,
) -> Option<WidgetState> {
    let mut ordered: Vec<&Submessage> = submessages.iter().collect();
    ordered.sort_by_key(|s| s.id);
    let (first, changes) = ordered.split_first()?;
    if first.sender_id != message_sender {
        return None;
    }
    let widget: Value = serde_json::from_str(&first.content).ok()?;
    let extra_data = widget.get("extra_data")?;
    let changes = changes.iter().filter_map(|s| {
        let data: Value = serde_json::from_str(&s.content).ok()?;
        let kind = data.get("type")?.as_str()?.to_owned();
        Some((s.sender_id.0, kind, data))
    });
    let me = viewer.0;
    match widget.get("widget_type")?.as_str()? {
        "poll" => {
            let mut poll = Poll::new(message_sender.0, me, extra_data)?;
            for (sender, kind, data) in changes {
                poll.apply(sender, &kind, &data);
            }
            Some(WidgetState::Poll(poll.state))
        }
        "todo" => {
            let mut todo = Todo::new(message_sender.0, me, extra_data)?;
            for (sender, kind, data) in changes {
                todo.apply(sender, &kind, &data);
            }
            Some(WidgetState::Todo(todo.state))
        }
        "zform" => Some(WidgetState::Zform { extra_data: extra_data.clone() }),
        _ => None,
    }
}

/// A JSON number as the integer JavaScript would print it in a key, if it is one.
fn integer(value: &Value) -> Option<i64> {
    let n = value.as_number()?;
    n.as_i64().or_else(|| n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15).map(|f| f as i64))
}

/// An optional field of `extra_data` (an object, or null for all defaults): `Some(None)` when
/// absent.
fn optional<'v>(extra_data: &'v Value, key: &str) -> Option<Option<&'v Value>> {
    match extra_data {
        Value::Object(fields) => Some(fields.get(key)),
        Value::Null => Some(None),
        _ => None,
    }
}

struct Poll {
    sender: u64,
    me: u64,
    state: PollState,
}

impl Poll {
    /// A poll as its command set it up; `None` if `extra_data` is not a poll's.
    fn new(sender: u64, me: u64, extra_data: &Value) -> Option<Poll> {
        let question = match optional(extra_data, "question")? {
            Some(q) => q.as_str()?.to_owned(),
            None => String::new(),
        };
        let options: Vec<&str> = match optional(extra_data, "options")? {
            Some(list) => list.as_array()?.iter().map(Value::as_str).collect::<Option<_>>()?,
            None => Vec::new(),
        };
        let state =
            PollState { question, is_my_poll: sender == me, next_option_idx: 1, ..PollState::default() };
        let mut poll = Poll { sender, me, state };
        for (i, option) in options.into_iter().enumerate() {
            poll.new_option(Sender::Canned, i64::try_from(i).unwrap_or(i64::MAX), option);
        }
        Some(poll)
    }

    fn apply(&mut self, sender: u64, kind: &str, data: &Value) {
        match kind {
            "new_option" => {
                if let (Some(idx), Some(option)) = (integer(&data["idx"]), data["option"].as_str()) {
                    self.new_option(Sender::User(sender), idx, option);
                }
            }
            "question" => {
                if let Some(question) = data["question"].as_str()
                    && sender == self.sender
                {
                    self.state.question = question.to_owned();
                }
            }
            "vote" => {
                if let (Some(key), Some(vote)) = (data["key"].as_str(), integer(&data["vote"])) {
                    self.vote(sender, key, vote);
                }
            }
            _ => {}
        }
    }

    fn new_option(&mut self, sender: Sender, idx: i64, option: &str) {
        let options = &mut self.state.options;
        if options.iter().any(|o| o.option == option) || !(0..=MAX_IDX).contains(&idx) {
            return;
        }
        let key = format!("{sender},{idx}");
        let new = PollOption { key: key.clone(), option: option.to_owned(), ..PollOption::default() };
        match options.iter_mut().find(|o| o.key == key) {
            Some(existing) => *existing = new,
            None => options.push(new),
        }
        let idx = idx.unsigned_abs();
        if sender == Sender::User(self.me) && self.state.next_option_idx <= idx {
            self.state.next_option_idx = idx + 1;
        }
    }

    fn vote(&mut self, voter: u64, key: &str, vote: i64) {
        let Some(option) = self.state.options.iter_mut().find(|o| o.key == key) else { return };
        match vote {
            1 if !option.voters.contains(&voter) => option.voters.push(voter),
            -1 => option.voters.retain(|v| *v != voter),
            _ => return,
        }
        option.current_user_vote = option.voters.contains(&self.me);
    }
}

struct Todo {
    sender: u64,
    me: u64,
    state: TodoState,
}

impl Todo {
    /// A to-do list as its command set it up; `None` if `extra_data` is not a to-do list's.
    fn new(sender: u64, me: u64, extra_data: &Value) -> Option<Todo> {
        let task_list_title = match optional(extra_data, "task_list_title")? {
            Some(t) => t.as_str()?.to_owned(),
            None => String::new(),
        };
        let tasks: Vec<(&str, &str)> = match optional(extra_data, "tasks")? {
            Some(list) => list
                .as_array()?
                .iter()
                .map(|t| Some((t.get("task")?.as_str()?, t.get("desc")?.as_str()?)))
                .collect::<Option<_>>()?,
            None => Vec::new(),
        };
        let state = TodoState {
            task_list_title,
            is_my_task_list: sender == me,
            // Zulip's web app counts from 1 and adds one before each new task.
            next_task_key: 2,
            ..TodoState::default()
        };
        let mut todo = Todo { sender, me, state };
        for (i, (task, desc)) in tasks.into_iter().enumerate() {
            todo.new_task(Sender::Canned, i64::try_from(i).unwrap_or(i64::MAX), task, desc, false);
        }
        Some(todo)
    }

    fn apply(&mut self, sender: u64, kind: &str, data: &Value) {
        match kind {
            "new_task" => {
                if let (Some(idx), Some(task), Some(desc), Some(completed)) = (
                    integer(&data["key"]),
                    data["task"].as_str(),
                    data["desc"].as_str(),
                    data["completed"].as_bool(),
                ) {
                    self.new_task(Sender::User(sender), idx, task, desc, completed);
                }
            }
            "strike" => {
                if let Some(item) =
                    data["key"].as_str().and_then(|key| self.state.tasks.iter_mut().find(|t| t.key == key))
                {
                    item.completed = !item.completed;
                }
            }
            "new_task_list_title" => {
                if let Some(title) = data["title"].as_str()
                    && sender == self.sender
                {
                    self.state.task_list_title = title.to_owned();
                }
            }
            _ => {}
        }
    }

    fn new_task(&mut self, sender: Sender, idx: i64, task: &str, desc: &str, completed: bool) {
        if !(0..=MAX_IDX).contains(&idx) {
            return;
        }
        let idx = idx.unsigned_abs();
        let key = format!("{idx},{sender}");
        let tasks = &mut self.state.tasks;
        if !tasks.iter().any(|t| t.task == task) {
            let new =
                TodoItem { key: key.clone(), idx, task: task.to_owned(), desc: desc.to_owned(), completed };
            match tasks.iter_mut().find(|t| t.key == key) {
                Some(existing) => *existing = new,
                None => tasks.push(new),
            }
        }
        // The web app's counter is one behind the key it sends next.
        if sender == Sender::User(self.me) && self.state.next_task_key <= idx + 1 {
            self.state.next_task_key = idx + 2;
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::ids::{MessageId, SubmessageId};

    const AUTHOR: u64 = 10;
    const BOB: u64 = 11;
    const CAROL: u64 = 12;

    /// Submessages from `(sender, content)` pairs, ids in order.
    fn submessages(items: &[(u64, Value)]) -> Vec<Submessage> {
        items
            .iter()
            .enumerate()
            .map(|(i, (sender, content))| Submessage {
                id: SubmessageId(100 + i as u64),
                message_id: MessageId(1),
                sender_id: UserId(*sender),
                msg_type: "widget".into(),
                content: content.to_string(),
            })
            .collect()
    }

    fn state(items: &[(u64, Value)], viewer: u64) -> Option<WidgetState> {
        widget_state(UserId(AUTHOR), &submessages(items), UserId(viewer))
    }

    fn poll(items: &[(u64, Value)], viewer: u64) -> PollState {
        match state(items, viewer) {
            Some(WidgetState::Poll(poll)) => poll,
            other => panic!("not a poll: {other:?}"),
        }
    }

    fn todo(items: &[(u64, Value)], viewer: u64) -> TodoState {
        match state(items, viewer) {
            Some(WidgetState::Todo(todo)) => todo,
            other => panic!("not a to-do list: {other:?}"),
        }
    }

    fn tally(poll: &PollState) -> Vec<(&str, &str, Vec<u64>)> {
        poll.options.iter().map(|o| (o.key.as_str(), o.option.as_str(), o.voters.clone())).collect()
    }

    fn widget(widget_type: &str, extra_data: Value) -> (u64, Value) {
        (AUTHOR, json!({"widget_type": widget_type, "extra_data": extra_data}))
    }

    #[test]
    fn votes_and_options_fold_into_a_tally() {
        let items = [
            widget("poll", json!({"question": "Lunch?", "options": ["pizza", "soup", "pizza"]})),
            (BOB, json!({"type": "vote", "key": "canned,0", "vote": 1})),
            (CAROL, json!({"type": "vote", "key": "canned,0", "vote": 1})),
            (CAROL, json!({"type": "new_option", "idx": 1, "option": "salad"})),
            (BOB, json!({"type": "vote", "key": "12,1", "vote": 1})),
            (BOB, json!({"type": "vote", "key": "canned,0", "vote": -1})),
            // Voting twice counts once; a vote for nothing, or of another size, counts not at all.
            (CAROL, json!({"type": "vote", "key": "canned,0", "vote": 1})),
            (CAROL, json!({"type": "vote", "key": "nope", "vote": 1})),
            (CAROL, json!({"type": "vote", "key": "canned,1", "vote": 2})),
            // An option already there is not added again; an idx out of range not at all.
            (BOB, json!({"type": "new_option", "idx": 3, "option": "soup"})),
            (BOB, json!({"type": "new_option", "idx": 1001, "option": "tea"})),
            // Only the author changes the question.
            (BOB, json!({"type": "question", "question": "Hijacked?"})),
            (AUTHOR, json!({"type": "question", "question": "Lunch today?"})),
            // Not a change at all.
            (BOB, json!([1, 2])),
            (BOB, json!({"type": "bogus"})),
        ];
        let seen_by_carol = poll(&items, CAROL);
        assert_eq!(seen_by_carol.question, "Lunch today?");
        assert_eq!(
            tally(&seen_by_carol),
            [("canned,0", "pizza", vec![CAROL]), ("canned,1", "soup", vec![]), ("12,1", "salad", vec![BOB])]
        );
        let votes: Vec<bool> = seen_by_carol.options.iter().map(|o| o.current_user_vote).collect();
        assert_eq!(votes, [true, false, false]);
        assert!(!seen_by_carol.is_my_poll);
        assert_eq!(seen_by_carol.next_option_idx, 2, "Carol added idx 1");
        let seen_by_author = poll(&items, AUTHOR);
        assert!(seen_by_author.is_my_poll);
        assert_eq!(seen_by_author.next_option_idx, 1);
    }

    #[test]
    fn a_reused_option_key_replaces_the_option_where_it_stands() {
        let items = [
            widget("poll", json!({"question": "", "options": ["a"]})),
            (BOB, json!({"type": "new_option", "idx": 1, "option": "b"})),
            (BOB, json!({"type": "vote", "key": "11,1", "vote": 1})),
            (CAROL, json!({"type": "new_option", "idx": 1, "option": "c"})),
            (BOB, json!({"type": "new_option", "idx": 1, "option": "d"})),
        ];
        let poll = poll(&items, BOB);
        assert_eq!(tally(&poll), [("canned,0", "a", vec![]), ("11,1", "d", vec![]), ("12,1", "c", vec![])]);
        assert_eq!(poll.next_option_idx, 2);
    }

    #[test]
    fn tasks_are_added_struck_and_retitled() {
        let items = [
            widget(
                "todo",
                json!({"task_list_title": "Chores", "tasks": [{"task": "dishes", "desc": ""}, {"task": "laundry", "desc": "whites"}]}),
            ),
            (
                BOB,
                json!({"type": "new_task", "key": 2, "task": "groceries", "desc": "milk", "completed": false}),
            ),
            (CAROL, json!({"type": "strike", "key": "0,canned"})),
            (BOB, json!({"type": "strike", "key": "2,11"})),
            (CAROL, json!({"type": "strike", "key": "2,11"})),
            (BOB, json!({"type": "strike", "key": "1,canned"})),
            // A name in use, a key out of range, a strike of nothing: no change.
            (CAROL, json!({"type": "new_task", "key": 3, "task": "dishes", "desc": "", "completed": false})),
            (CAROL, json!({"type": "new_task", "key": 1001, "task": "x", "desc": "", "completed": false})),
            (CAROL, json!({"type": "strike", "key": "9,9"})),
            (BOB, json!({"type": "new_task_list_title", "title": "Hijacked"})),
            (AUTHOR, json!({"type": "new_task_list_title", "title": "House chores"})),
        ];
        let todo = todo(&items, BOB);
        assert_eq!(todo.task_list_title, "House chores");
        let tasks: Vec<(&str, &str, &str, bool)> = todo
            .tasks
            .iter()
            .map(|t| (t.key.as_str(), t.task.as_str(), t.desc.as_str(), t.completed))
            .collect();
        assert_eq!(
            tasks,
            [
                ("0,canned", "dishes", "", true),
                ("1,canned", "laundry", "whites", true),
                ("2,11", "groceries", "milk", false),
            ]
        );
        assert!(!todo.is_my_task_list);
        assert_eq!(todo.next_task_key, 4, "Bob used key 2");
    }

    #[test]
    fn only_a_widget_from_the_messages_sender_counts() {
        assert_eq!(state(&[], BOB), None);
        assert_eq!(state(&[(BOB, json!({"widget_type": "poll", "extra_data": {}}))], BOB), None);
        assert_eq!(state(&[widget("tictactoe", json!({}))], BOB), None);
        assert_eq!(state(&[(AUTHOR, json!("not a widget"))], BOB), None);
        assert_eq!(state(&[widget("poll", json!({"question": 5}))], BOB), None);
        assert_eq!(state(&[widget("todo", json!({"tasks": [{"task": "x"}]}))], BOB), None);
        assert_eq!(
            state(&[widget("poll", Value::Null)], BOB),
            Some(WidgetState::Poll(PollState { next_option_idx: 1, ..PollState::default() }))
        );
        let zform = json!({"type": "choices", "heading": "Pick", "choices": []});
        assert_eq!(
            state(&[widget("zform", zform.clone())], BOB),
            Some(WidgetState::Zform { extra_data: zform })
        );
    }

    #[test]
    fn submessages_fold_in_id_order() {
        let mut items = submessages(&[
            widget("poll", json!({"options": ["a"]})),
            (BOB, json!({"type": "vote", "key": "canned,0", "vote": 1})),
            (BOB, json!({"type": "vote", "key": "canned,0", "vote": -1})),
        ]);
        items.swap(1, 2);
        items.swap(0, 2);
        let Some(WidgetState::Poll(poll)) = widget_state(UserId(AUTHOR), &items, UserId(BOB)) else {
            panic!("a poll")
        };
        assert!(poll.options[0].voters.is_empty());
    }

    #[test]
    fn the_state_serializes_tagged_by_widget_type() {
        let state = state(&[widget("poll", json!({"question": "Q", "options": ["a"]}))], AUTHOR);
        assert_eq!(
            serde_json::to_value(state).expect("serializes"),
            json!({
                "widget_type": "poll",
                "question": "Q",
                "options": [{"key": "canned,0", "option": "a", "voters": [], "current_user_vote": false}],
                "is_my_poll": true,
                "next_option_idx": 1,
            })
        );
    }
}
