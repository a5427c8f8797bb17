//! `LiveState`: a register state held in the engine's memory and kept current event by event,
//! for hosts that carry events themselves (a shared worker serving several tabs, a native
//! shell's own networking). `Client` does the same inside; the free `applyEvent` converts the
//! whole state on every call, which is fine once but not for a stream of events.

use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;

use crate::values::{from_js, to_js};

/// A register state that events update in place.
#[wasm_bindgen]
pub struct LiveState {
    state: Map<String, Value>,
    user_id: u64,
}

#[wasm_bindgen]
impl LiveState {
    /// Takes register's answer for user `userId`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "RegisterState")] state: JsValue,
        #[wasm_bindgen(js_name = userId)] user_id: f64,
    ) -> Result<LiveState, JsValue> {
        Ok(LiveState { state: from_js(state)?, user_id: user_id as u64 })
    }

    /// Applies one event from `GET /events`.
    pub fn apply(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "ServerEvent")] event: JsValue,
    ) -> Result<(), JsValue> {
        let event: Value = from_js(event)?;
        confab_core::events::apply_event(&mut self.state, &event, self.user_id);
        Ok(())
    }

    /// Applies a poll's events in order.
    #[wasm_bindgen(js_name = applyAll)]
    pub fn apply_all(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "ServerEvent[]")] events: JsValue,
    ) -> Result<(), JsValue> {
        let events: Vec<Value> = from_js(events)?;
        for event in &events {
            confab_core::events::apply_event(&mut self.state, event, self.user_id);
        }
        Ok(())
    }

    /// One key of the state (`undefined` when absent), without converting the rest.
    #[wasm_bindgen(unchecked_return_type = "JsonValue | undefined")]
    pub fn get(&self, key: &str) -> Result<JsValue, JsValue> {
        match self.state.get(key) {
            Some(value) => to_js(value),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// The whole state.
    #[wasm_bindgen(unchecked_return_type = "RegisterState")]
    pub fn state(&self) -> Result<JsValue, JsValue> {
        to_js(&self.state)
    }
}
