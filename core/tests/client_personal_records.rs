//! Personal records (drafts, saved snippets) the client follows: a change to them is a
//! change the front end redraws its lists for.

mod client_support;

use client_support::registered;
use serde_json::json;

#[test]
fn a_drafts_event_reports_a_settings_change() {
    let mut engine = registered();
    engine.take_changes();
    client_support::events(
        &mut engine,
        vec![json!({"type": "drafts", "op": "add", "drafts": [
            {"id": 1, "type": "stream", "to": [1], "topic": "t", "content": "c", "timestamp": 1}
        ]})],
    );
    assert!(engine.take_changes().is_some_and(|changes| changes.settings));
}
