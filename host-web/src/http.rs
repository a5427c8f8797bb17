//! Carrying the engine's requests with gloo-net (the global `fetch`, so browsers, web views
//! and Node alike), and waiting with timers that `close()` can cut short.

use std::cell::RefCell;
use std::rc::Rc;

use base64::Engine as _;
use confab_core::client::{HttpRequest, Outcome, Reply, SessionCredentials};
use gloo_net::http::{Method, RequestBuilder};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout(callback: &js_sys::Function, ms: f64) -> JsValue;
    #[wasm_bindgen(js_name = clearTimeout)]
    fn clear_timeout(handle: &JsValue);
}

/// Sends one request for a session. `deadline_ms` aborts a request left unanswered that long;
/// `controller`, if given, lets the caller abort it too.
pub async fn send(
    credentials: &SessionCredentials,
    request: &HttpRequest,
    deadline_ms: Option<u64>,
    controller: Option<web_sys::AbortController>,
) -> Reply {
    Reply::from_outcome(outcome(credentials, request, deadline_ms, controller).await)
}

async fn outcome(
    credentials: &SessionCredentials,
    request: &HttpRequest,
    deadline_ms: Option<u64>,
    controller: Option<web_sys::AbortController>,
) -> Outcome {
    let url = format!("{}{}", credentials.site.trim_end_matches('/'), request.path);
    let method = match request.method {
        confab_core::client::Method::Get => Method::GET,
        confab_core::client::Method::Post => Method::POST,
        confab_core::client::Method::Patch => Method::PATCH,
        confab_core::client::Method::Delete => Method::DELETE,
    };
    let mut builder = RequestBuilder::new(&url).method(method);
    if request.authenticated {
        let token = base64::engine::general_purpose::STANDARD
            .encode(format!("{}:{}", credentials.email, credentials.api_key));
        builder = builder.header("Authorization", &format!("Basic {token}"));
    }
    let controller = match (controller, deadline_ms) {
        (Some(controller), _) => Some(controller),
        (None, Some(_)) => web_sys::AbortController::new().ok(),
        (None, None) => None,
    };
    if let Some(controller) = &controller {
        builder = builder.abort_signal(Some(&controller.signal()));
    }
    let abort = match (deadline_ms, &controller) {
        (Some(ms), Some(controller)) => {
            let aborting = controller.clone();
            let callback = Closure::once_into_js(move || aborting.abort());
            Some(set_timeout(callback.unchecked_ref(), ms as f64))
        }
        _ => None,
    };
    let params = request.params.iter().map(|(k, v)| (k.as_str(), v.as_str()));
    let sent = if request.method.params_in_query() {
        match builder.query(params).build() {
            Ok(built) => built.send().await,
            Err(e) => return Outcome::NetworkError(e.to_string()),
        }
    } else {
        let body = web_sys_params(params);
        match builder.body(body) {
            Ok(built) => built.send().await,
            Err(e) => return Outcome::NetworkError(e.to_string()),
        }
    };
    if let Some(handle) = abort {
        clear_timeout(&handle);
    }
    match sent {
        Ok(response) => {
            let status = response.status();
            match response.text().await {
                Ok(body) => Outcome::Answered { status, body },
                Err(e) => Outcome::NetworkError(e.to_string()),
            }
        }
        Err(e) => Outcome::NetworkError(e.to_string()),
    }
}

/// A form body; `fetch` sends it as `application/x-www-form-urlencoded`.
fn web_sys_params<'a>(params: impl Iterator<Item = (&'a str, &'a str)>) -> JsValue {
    let form = js_sys::Reflect::get(&js_sys::global(), &"URLSearchParams".into())
        .ok()
        .and_then(|ctor| ctor.dyn_into::<js_sys::Function>().ok())
        .and_then(|ctor| js_sys::Reflect::construct(&ctor, &js_sys::Array::new()).ok());
    let Some(form) = form else { return JsValue::UNDEFINED };
    let append = js_sys::Reflect::get(&form, &"append".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    if let Some(append) = append {
        for (name, value) in params {
            let _ = append.call2(&form, &name.into(), &value.into());
        }
    }
    form
}

/// A wait that [`Sleeper::wake`] ends early.
#[derive(Default)]
pub struct Sleeper {
    pending: RefCell<Option<(JsValue, js_sys::Function)>>,
}

impl Sleeper {
    pub async fn sleep(self: &Rc<Self>, ms: u64) {
        let this = Rc::clone(self);
        let promise = js_sys::Promise::new(&mut |resolve, _reject| {
            let resolve_later = resolve.clone();
            let callback = Closure::once_into_js(move || {
                let _ = resolve_later.call0(&JsValue::NULL);
            });
            let handle = set_timeout(callback.unchecked_ref(), ms as f64);
            *this.pending.borrow_mut() = Some((handle, resolve));
        });
        let _ = JsFuture::from(promise).await;
        self.pending.borrow_mut().take();
    }

    /// Ends the current wait now, if there is one.
    pub fn wake(&self) {
        if let Some((handle, resolve)) = self.pending.borrow_mut().take() {
            clear_timeout(&handle);
            let _ = resolve.call0(&JsValue::NULL);
        }
    }
}
