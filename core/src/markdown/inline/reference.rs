//! The inline engine as Python-Markdown runs it, kept to check the one-pass engine against:
//! after each match the pattern searches the whole text again from its start.

use std::cell::Cell;

use super::{Engine, Found, PLACEHOLDER_LIMIT};

thread_local! {
    static ENABLED: Cell<bool> = const { Cell::new(false) };
}

pub(super) fn enabled() -> bool {
    ENABLED.with(Cell::get)
}

/// Runs `f` with every text handled the reference way.
pub(crate) fn with_reference<T>(f: impl FnOnce() -> T) -> T {
    ENABLED.with(|e| e.set(true));
    let result = f();
    ENABLED.with(|e| e.set(false));
    result
}

impl Engine<'_> {
    pub(super) fn handle_reference(&mut self, text: String, first: usize) -> String {
        let mut data = text;
        let mut index = first;
        while index < self.patterns.len() && self.stash.len() < PLACEHOLDER_LIMIT {
            let found = self.find(index, &data, 0, None);
            let Some(Found { start, end, node }) = found else {
                index += 1;
                continue;
            };
            let Some(placeholder) = self.placeholder(index, &data[start..end], node) else {
                index += 1;
                continue;
            };
            let mut next = String::with_capacity(data.len());
            next.push_str(&data[..start]);
            next.push(placeholder);
            next.push_str(&data[end..]);
            data = next;
        }
        data
    }
}
