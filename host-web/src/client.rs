//! `Client`: a session against a Confab (or Zulip) server, for JavaScript. Everything it
//! decides comes from `confab_core::client::Engine`; this file carries requests (gloo-net),
//! waits (timers), converts values (serde-wasm-bindgen) and calls the front end's listeners.
//!
//! JavaScript is single-threaded: the engine sits in a `RefCell` that is never borrowed across
//! an `await`.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;

use confab_core::client::{
    Anchor, Changes, Destination, Engine, EngineOptions, MessageEdit, NarrowTerm, OperationAnswer, Reply,
    Sending, ServerError, SessionCredentials, Step, poll_deadline_ms,
};
use serde::Deserialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use crate::http::{self, Sleeper};
use crate::values::{from_js, to_js};

/// Options a front end may set (all optional).
#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct ClientOptions {
    /// The longest wait between reconnection attempts, in milliseconds.
    max_retry_ms: Option<u64>,
}

impl ClientOptions {
    /// The options given, if any (`undefined` and `null` mean none).
    fn from_js(options: Option<JsValue>) -> Result<ClientOptions, JsValue> {
        match options {
            Some(options) if !options.is_null() && !options.is_undefined() => from_js(options),
            _ => Ok(ClientOptions::default()),
        }
    }

    fn engine(&self) -> EngineOptions {
        let mut options = EngineOptions::default();
        if let Some(ms) = self.max_retry_ms {
            options.max_retry_ms = ms;
        }
        options
    }
}

/// A promise's `resolve` and `reject`.
struct Waiter {
    resolve: js_sys::Function,
    reject: js_sys::Function,
}

struct Inner {
    engine: RefCell<Engine>,
    listeners: RefCell<Vec<(u32, js_sys::Function)>>,
    next_listener: Cell<u32>,
    running: Cell<bool>,
    sending: Cell<bool>,
    /// Whether the operation queue is being sent.
    operating: Cell<bool>,
    /// Whether repairs (values of the state only the server can tell) are being asked.
    repairing: Cell<bool>,
    /// The promises waiting on each operation (a batch of reads settles several).
    waiters: RefCell<BTreeMap<u64, Vec<Waiter>>>,
    sleeper: Rc<Sleeper>,
    poll: RefCell<Option<web_sys::AbortController>>,
}

/// A session against a Zulip-API server: its state, message cache, outbox and event loop.
#[wasm_bindgen]
pub struct Client {
    inner: Rc<Inner>,
}

fn now_ms() -> i64 {
    js_sys::Date::now() as i64
}

fn error(e: impl std::fmt::Display) -> JsValue {
    JsError::new(&e.to_string()).into()
}

/// A refused request as a JavaScript `Error` whose `code` and `status` are the server's.
fn server_error(e: confab_core::client::ServerError) -> JsValue {
    let error = js_sys::Error::new(&e.msg);
    let _ = js_sys::Reflect::set(&error, &"code".into(), &e.code.into());
    let _ = js_sys::Reflect::set(&error, &"status".into(), &e.status.into());
    error.into()
}

#[wasm_bindgen]
impl Client {
    /// A session with an API key: `{site, email, apiKey}`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "SessionCredentials")] credentials: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "ClientOptions")] options: Option<JsValue>,
    ) -> Result<Client, JsValue> {
        let mut credentials: SessionCredentials = from_js(credentials)?;
        credentials.site = credentials.site.trim_end_matches('/').to_owned();
        let options = ClientOptions::from_js(options)?;
        Ok(Client::from_engine(Engine::new(credentials, options.engine())))
    }

    /// Logs in with a password (`POST /fetch_api_key`) and returns a session.
    #[wasm_bindgen(unchecked_return_type = "Promise<Client>")]
    pub fn login(
        site: String,
        username: String,
        password: String,
        #[wasm_bindgen(unchecked_optional_param_type = "ClientOptions")] options: Option<JsValue>,
    ) -> js_sys::Promise {
        future_to_promise(async move {
            let options = ClientOptions::from_js(options)?;
            let site = site.trim_end_matches('/').to_owned();
            let anonymous =
                SessionCredentials { site: site.clone(), email: String::new(), api_key: String::new() };
            let reply =
                http::send(&anonymous, &Engine::login_request(&username, &password), None, None).await;
            let credentials = Engine::login_reply(&site, reply).map_err(server_error)?;
            Ok(Client::from_engine(Engine::new(credentials, options.engine())).into())
        })
    }

    /// Loads a session saved by `snapshot()`. A snapshot from a newer confab-web, or one that
    /// is not a snapshot, throws; it is never misread.
    pub fn restore(snapshot: &[u8]) -> Result<Client, JsValue> {
        Engine::restore(snapshot).map(Client::from_engine).map_err(error)
    }

    /// Saves the session: state, message cache, outbox and queue. It holds the API key.
    pub fn snapshot(&self) -> Vec<u8> {
        self.inner.engine.borrow().snapshot()
    }

    /// `{site, email, apiKey}`.
    #[wasm_bindgen(unchecked_return_type = "SessionCredentials")]
    pub fn credentials(&self) -> Result<JsValue, JsValue> {
        to_js(self.inner.engine.borrow().credentials())
    }

    /// The user's id (0 before the first register).
    #[wasm_bindgen(js_name = userId)]
    pub fn user_id(&self) -> f64 {
        self.inner.engine.borrow().user_id() as f64
    }

    #[wasm_bindgen(unchecked_return_type = "ConnectionState")]
    pub fn connection(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.engine.borrow().connection())
    }

    /// Starts the session: registers an event queue (again, if a restored one is gone), then
    /// follows events until `close()`. Resolves once the first attempt is over, connected or
    /// not: offline, the loop keeps trying with backoff and the outbox waits.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn start(&self) -> js_sys::Promise {
        let inner = Rc::clone(&self.inner);
        future_to_promise(async move {
            if inner.running.replace(true) {
                return Ok(JsValue::UNDEFINED);
            }
            step(&inner).await;
            let looping = Rc::clone(&inner);
            wasm_bindgen_futures::spawn_local(async move {
                while step(&looping).await {}
                looping.running.set(false);
            });
            Ok(JsValue::UNDEFINED)
        })
    }

    /// Stops the session: the waiting poll is abandoned, the server's queue deleted, and no
    /// listener is called again.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn close(&self) -> js_sys::Promise {
        let inner = Rc::clone(&self.inner);
        future_to_promise(async move {
            let request = inner.engine.borrow_mut().close();
            if let Some(controller) = inner.poll.borrow_mut().take() {
                controller.abort();
            }
            inner.sleeper.wake();
            emit(&inner);
            inner.listeners.borrow_mut().clear();
            // Operations no longer go out: their promises would wait forever.
            let waiting = std::mem::take(&mut *inner.waiters.borrow_mut());
            for waiter in waiting.into_values().flatten() {
                let _ = waiter.reject.call1(&JsValue::NULL, &error("the session was closed"));
            }
            if let Some(request) = request {
                let credentials = inner.engine.borrow().credentials().clone();
                // A queue the server cannot delete now expires on its own.
                let _ = http::send(&credentials, &request, Some(5_000), None).await;
            }
            Ok(JsValue::UNDEFINED)
        })
    }

    /// Tries the server again now rather than at the end of the backoff: for when the host
    /// learns the network is back (a browser's `online` event). Nothing happens when connected.
    pub fn reconnect(&self) {
        self.inner.sleeper.wake();
    }

    /// Calls `listener` with what changed after each change; returns a function that removes it.
    #[wasm_bindgen(js_name = onChange, unchecked_return_type = "() => void")]
    pub fn on_change(
        &self,
        #[wasm_bindgen(unchecked_param_type = "(changes: Changes) => void")] listener: js_sys::Function,
    ) -> JsValue {
        let id = self.inner.next_listener.get();
        self.inner.next_listener.set(id + 1);
        self.inner.listeners.borrow_mut().push((id, listener));
        let inner = Rc::downgrade(&self.inner);
        Closure::once_into_js(move || {
            if let Some(inner) = inner.upgrade() {
                inner.listeners.borrow_mut().retain(|(l, _)| *l != id);
            }
        })
    }

    /// The register state as events keep it.
    #[wasm_bindgen(unchecked_return_type = "RegisterState")]
    pub fn state(&self) -> Result<JsValue, JsValue> {
        to_js(self.inner.engine.borrow().state())
    }

    /// Subscribed channels with unread counts.
    #[wasm_bindgen(unchecked_return_type = "ChannelSummary[]")]
    pub fn channels(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.engine.borrow().channels())
    }

    /// A channel's known topics with unread counts and muted, followed and resolved state.
    #[wasm_bindgen(unchecked_return_type = "TopicSummary[]")]
    pub fn topics(&self, stream_id: f64) -> Result<JsValue, JsValue> {
        to_js(&self.inner.engine.borrow().topics(stream_id as u64))
    }

    /// Fetches a channel's topics from the server (then `topics()` knows them all).
    #[wasm_bindgen(js_name = fetchTopics, unchecked_return_type = "Promise<TopicSummary[]>")]
    pub fn fetch_topics(&self, stream_id: f64) -> js_sys::Promise {
        let inner = Rc::clone(&self.inner);
        future_to_promise(async move {
            let (credentials, request) = {
                let engine = inner.engine.borrow();
                (engine.credentials().clone(), engine.topics_request(stream_id as u64))
            };
            let reply = http::send(&credentials, &request, None, None).await;
            let topics =
                inner.engine.borrow_mut().handle_topics(stream_id as u64, reply).map_err(server_error)?;
            emit(&inner);
            to_js(&topics)
        })
    }

    /// Reports the user's presence (`active`, else idle; `newUserInput` if there was input since
    /// the last report) and merges the presences changed since the last report. Hosts call it
    /// every minute (Zulip's `PRESENCE_PING_INTERVAL_SECS`) and when the user comes back. A
    /// refusal or failure rejects; the next report asks again from the same point.
    #[wasm_bindgen(js_name = reportPresence, unchecked_return_type = "Promise<void>")]
    pub fn report_presence(&self, active: bool, new_user_input: bool) -> js_sys::Promise {
        let inner = Rc::clone(&self.inner);
        future_to_promise(async move {
            let (credentials, request) = {
                let engine = inner.engine.borrow();
                (engine.credentials().clone(), engine.presence_request(active, new_user_input))
            };
            let reply = http::send(&credentials, &request, Some(poll_deadline_ms()), None).await;
            let failure = match &reply {
                Reply::Success(_) => None,
                Reply::Refused(error) => Some(server_error(error.clone())),
                Reply::Unreachable(why) => Some(error(why)),
            };
            inner.engine.borrow_mut().handle_presence(reply, now_ms());
            emit(&inner);
            match failure {
                None => Ok(JsValue::UNDEFINED),
                Some(failure) => Err(failure),
            }
        })
    }

    /// Direct-message conversations, most recent first.
    #[wasm_bindgen(unchecked_return_type = "Conversation[]")]
    pub fn conversations(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.engine.borrow().conversations())
    }

    /// Everyone, with presence and status.
    #[wasm_bindgen(unchecked_return_type = "UserSummary[]")]
    pub fn users(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.engine.borrow().users())
    }

    /// The user's own settings.
    #[wasm_bindgen(js_name = ownSettings, unchecked_return_type = "{ [key in string]?: JsonValue }")]
    pub fn own_settings(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.engine.borrow().own_settings())
    }

    /// Who is typing now.
    #[wasm_bindgen(unchecked_return_type = "TypingNotice[]")]
    pub fn typing(&self) -> Result<JsValue, JsValue> {
        let mut engine = self.inner.engine.borrow_mut();
        engine.handle_timeout(now_ms());
        to_js(&engine.typing())
    }

    /// The key `Changes.narrows` uses for a narrow.
    #[wasm_bindgen(js_name = narrowKey)]
    pub fn narrow_key(
        &self,
        #[wasm_bindgen(unchecked_param_type = "NarrowTerm[]")] narrow: JsValue,
    ) -> Result<String, JsValue> {
        let narrow: Vec<NarrowTerm> = from_js(narrow)?;
        self.inner.engine.borrow().narrow_key(&narrow).map_err(server_error)
    }

    /// The `#narrow/...` URL fragment of a narrow, as Zulip's web app writes it
    /// (`#narrow/channel/12-general/topic/greetings`).
    #[wasm_bindgen(js_name = narrowToHash)]
    pub fn narrow_to_hash(
        &self,
        #[wasm_bindgen(unchecked_param_type = "NarrowTerm[]")] narrow: JsValue,
    ) -> Result<String, JsValue> {
        let narrow: Vec<NarrowTerm> = from_js(narrow)?;
        Ok(self.inner.engine.borrow().narrow_to_hash(&narrow))
    }

    /// The narrow a `#narrow/...` fragment names (older spellings too), or `undefined` for any
    /// other fragment (`#feed`, `#recent`, `#inbox`... are the front end's own views).
    #[wasm_bindgen(js_name = hashToNarrow, unchecked_return_type = "NarrowTerm[] | undefined")]
    pub fn hash_to_narrow(&self, hash: &str) -> Result<JsValue, JsValue> {
        match self.inner.engine.borrow().hash_to_narrow(hash) {
            Some(narrow) => to_js(&narrow),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// The narrow a search text asks for, in Zulip's search syntax (`channel:general
    /// topic:lunch -is:resolved sender:me "fish and chips"`): channels and people resolved to
    /// ids, free text one `search` term. An empty text is the empty narrow.
    #[wasm_bindgen(js_name = parseSearch, unchecked_return_type = "NarrowTerm[]")]
    pub fn parse_search(&self, query: &str) -> Result<JsValue, JsValue> {
        to_js(&self.inner.engine.borrow().parse_search(query))
    }

    /// The search text that shows a narrow (`parseSearch` reads it back): channels by name,
    /// people by email.
    #[wasm_bindgen(js_name = searchText)]
    pub fn search_text(
        &self,
        #[wasm_bindgen(unchecked_param_type = "NarrowTerm[]")] narrow: JsValue,
    ) -> Result<String, JsValue> {
        let narrow: Vec<NarrowTerm> = from_js(narrow)?;
        Ok(self.inner.engine.borrow().search_text(&narrow))
    }

    /// Suggestions for a search text as typed (at most 10), as Zulip's search bar makes them:
    /// the text itself, then completions of its last term (channels, topics, people,
    /// `is:`/`has:` values, operators) after the terms before it, then its leading terms.
    #[wasm_bindgen(js_name = searchSuggestions, unchecked_return_type = "SearchSuggestion[]")]
    pub fn search_suggestions(&self, query: &str) -> Result<JsValue, JsValue> {
        to_js(&self.inner.engine.borrow().search_suggestions(query))
    }

    /// People for `@`-mentions and direct-message recipients, best match first (Zulip's
    /// ranking: the start of a name before a word's start before an email; people one writes
    /// to, then recent senders, then those online, then by name), at most `limit`.
    #[wasm_bindgen(js_name = completeUsers, unchecked_return_type = "UserSummary[]")]
    pub fn complete_users(&self, query: &str, limit: u32) -> Result<JsValue, JsValue> {
        to_js(&self.inner.engine.borrow().complete_users(query, limit as usize))
    }

    /// User groups to mention (`@*group*`), best match first, at most `limit`.
    #[wasm_bindgen(js_name = completeGroups, unchecked_return_type = "GroupSummary[]")]
    pub fn complete_groups(&self, query: &str, limit: u32) -> Result<JsValue, JsValue> {
        to_js(&self.inner.engine.borrow().complete_groups(query, limit as usize))
    }

    /// Channels the user can see (subscribed first), best match first, at most `limit`.
    #[wasm_bindgen(js_name = completeChannels, unchecked_return_type = "ChannelSummary[]")]
    pub fn complete_channels(&self, query: &str, limit: u32) -> Result<JsValue, JsValue> {
        to_js(&self.inner.engine.borrow().complete_channels(query, limit as usize))
    }

    /// A channel's topics, best match first and newest first among equals, at most `limit`.
    #[wasm_bindgen(js_name = completeTopics, unchecked_return_type = "string[]")]
    pub fn complete_topics(
        &self,
        #[wasm_bindgen(js_name = streamId)] stream_id: f64,
        query: &str,
        limit: u32,
    ) -> Result<JsValue, JsValue> {
        to_js(&self.inner.engine.borrow().complete_topics(stream_id as u64, query, limit as usize))
    }

    /// Emoji (Unicode, the organization's own, Zulip's) by name, ranked as Zulip's emoji
    /// typeahead; an empty query and a large limit give the whole catalogue, for a picker.
    #[wasm_bindgen(js_name = completeEmoji, unchecked_return_type = "EmojiChoice[]")]
    pub fn complete_emoji(&self, query: &str, limit: u32) -> Result<JsValue, JsValue> {
        to_js(&self.inner.engine.borrow().complete_emoji(query, limit as usize))
    }

    /// What the user may do to a cached message now (`{edit, delete, moveTopic, resolve}`), as
    /// Zulip's web app decides which actions to offer: the organization's settings and time
    /// limits, the user's role and groups, the channel's own settings.
    #[wasm_bindgen(js_name = messageActions, unchecked_return_type = "MessageActions")]
    pub fn message_actions(
        &self,
        #[wasm_bindgen(js_name = messageId)] message_id: f64,
    ) -> Result<JsValue, JsValue> {
        to_js(&self.inner.engine.borrow().message_actions(message_id as u64, now_ms()))
    }

    /// What the widget of a cached message shows the user (a poll's options and voters, a
    /// to-do list's tasks), from its submessages; `undefined` if the message is no widget or
    /// is not cached. Changes arrive as the message's id in `Changes`.
    #[wasm_bindgen(unchecked_return_type = "WidgetState | undefined")]
    pub fn widget(&self, #[wasm_bindgen(js_name = messageId)] message_id: f64) -> Result<JsValue, JsValue> {
        match self.inner.engine.borrow().widget(message_id as u64) {
            Some(state) => to_js(&state),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// Messages of a narrow around an anchor: from the cache when it covers the range, else
    /// fetched (and merged into the cache).
    #[wasm_bindgen(unchecked_return_type = "Promise<MessagesPage>")]
    pub fn messages(
        &self,
        #[wasm_bindgen(unchecked_param_type = "NarrowTerm[]")] narrow: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Anchor")] anchor: JsValue,
        before: u32,
        after: u32,
    ) -> js_sys::Promise {
        let inner = Rc::clone(&self.inner);
        future_to_promise(async move {
            let narrow: Vec<NarrowTerm> = from_js(narrow)?;
            let anchor: Anchor = from_js(anchor)?;
            let query =
                inner.engine.borrow().messages_query(&narrow, anchor, before, after).map_err(server_error)?;
            if let Some(page) = inner.engine.borrow().cached_messages(&query) {
                return to_js(&page);
            }
            let (credentials, request) = {
                let engine = inner.engine.borrow();
                (engine.credentials().clone(), engine.messages_request(&query))
            };
            let reply = http::send(&credentials, &request, None, None).await;
            let page = inner.engine.borrow_mut().handle_messages(&query, reply).map_err(server_error)?;
            emit(&inner);
            to_js(&page)
        })
    }

    /// Sends a message: its local echo shows at once (rendered as the server renders), and it
    /// goes out in order, now or on reconnecting. Returns its local id.
    pub fn send(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Destination")] destination: JsValue,
        content: String,
    ) -> Result<String, JsValue> {
        let destination: Destination = from_js(destination)?;
        let local_id = self.inner.engine.borrow_mut().send(destination, content, now_ms());
        emit(&self.inner);
        flush_outbox(&self.inner);
        Ok(local_id)
    }

    /// Messages waiting to be sent, and refused ones (with `error`).
    #[wasm_bindgen(unchecked_return_type = "OutboxEntry[]")]
    pub fn outbox(&self) -> Result<JsValue, JsValue> {
        to_js(self.inner.engine.borrow().outbox())
    }

    /// Drops a refused or unsent message from the outbox.
    pub fn discard(&self, local_id: &str) -> bool {
        let removed = self.inner.engine.borrow_mut().discard(local_id);
        emit(&self.inner);
        removed
    }

    /// Marks messages read, as the user views them: unread counts and flags change at once, and
    /// reads marked in the same turn of the event loop go to the server as one request.
    /// Messages already read are skipped. The promise resolves once the server took them (at
    /// once if there was nothing to do) and rejects with the server's error if it refused,
    /// after the messages were made unread again. Offline, it waits for the connection.
    #[wasm_bindgen(js_name = markRead, unchecked_return_type = "Promise<void>")]
    pub fn mark_read(
        &self,
        #[wasm_bindgen(js_name = messageIds, unchecked_param_type = "number[]")] message_ids: Vec<f64>,
    ) -> js_sys::Promise {
        let ids: Vec<u64> = message_ids.into_iter().map(|id| id as u64).collect();
        let id = self.inner.engine.borrow_mut().mark_read(&ids);
        match id {
            Some(id) => self.operation(id),
            None => js_sys::Promise::resolve(&JsValue::UNDEFINED),
        }
    }

    /// Stars or unstars a message. Shown at once; the promise settles as `markRead`'s does.
    #[wasm_bindgen(js_name = setStarred, unchecked_return_type = "Promise<void>")]
    pub fn set_starred(&self, message_id: f64, starred: bool) -> js_sys::Promise {
        let id = self.inner.engine.borrow_mut().set_starred(message_id as u64, starred);
        self.operation(id)
    }

    /// Reacts to a message with an emoji by name (custom emoji first, then Unicode). Shown at
    /// once; the promise settles as `markRead`'s does.
    #[wasm_bindgen(js_name = addReaction, unchecked_return_type = "Promise<void>")]
    pub fn add_reaction(&self, message_id: f64, emoji_name: &str) -> js_sys::Promise {
        let id = self.inner.engine.borrow_mut().add_reaction(message_id as u64, emoji_name);
        self.operation(id)
    }

    /// Takes back the user's reaction with an emoji. Shown at once; the promise settles as
    /// `markRead`'s does.
    #[wasm_bindgen(js_name = removeReaction, unchecked_return_type = "Promise<void>")]
    pub fn remove_reaction(&self, message_id: f64, emoji_name: &str) -> js_sys::Promise {
        let id = self.inner.engine.borrow_mut().remove_reaction(message_id as u64, emoji_name);
        self.operation(id)
    }

    /// Edits a message: `{content?, topic?, propagateMode?}`. The new content shows at once,
    /// rendered as the server renders it, and a new topic moves the messages at once; a
    /// refusal (say, the edit time limit has passed) puts them back and rejects the promise
    /// with the server's message.
    #[wasm_bindgen(js_name = editMessage, unchecked_return_type = "Promise<void>")]
    pub fn edit_message(
        &self,
        message_id: f64,
        #[wasm_bindgen(unchecked_param_type = "MessageEdit")] edit: JsValue,
    ) -> js_sys::Promise {
        let edit: MessageEdit = match from_js(edit) {
            Ok(edit) => edit,
            Err(e) => return js_sys::Promise::reject(&e),
        };
        let id = self.inner.engine.borrow_mut().edit_message(message_id as u64, edit, now_ms());
        self.operation(id)
    }

    /// Deletes a message: it leaves every narrow at once, and comes back if the server refuses
    /// (the promise then rejects with the server's message).
    #[wasm_bindgen(js_name = deleteMessage, unchecked_return_type = "Promise<void>")]
    pub fn delete_message(&self, message_id: f64) -> js_sys::Promise {
        let id = self.inner.engine.borrow_mut().delete_message(message_id as u64);
        self.operation(id)
    }

    /// Operations shown but not yet answered by the server (offline, they wait here).
    #[wasm_bindgen(js_name = pendingOperations, unchecked_return_type = "QueuedOperation[]")]
    pub fn pending_operations(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.engine.borrow().pending_operations())
    }

    /// Renders Markdown as the server would in this organization: HTML and its facts.
    #[wasm_bindgen(js_name = renderPreview, unchecked_return_type = "Rendering")]
    pub fn render_preview(&self, content: &str) -> Result<JsValue, JsValue> {
        to_js(&self.inner.engine.borrow_mut().render_preview(content))
    }
}

impl Client {
    /// A promise settled by the operation's answer; the change is reported and the queue sent.
    fn operation(&self, id: u64) -> js_sys::Promise {
        let inner = Rc::clone(&self.inner);
        let promise = js_sys::Promise::new(&mut |resolve, reject| {
            inner.waiters.borrow_mut().entry(id).or_default().push(Waiter { resolve, reject });
        });
        emit(&self.inner);
        flush_operations(&self.inner);
        promise
    }

    fn from_engine(engine: Engine) -> Client {
        Client {
            inner: Rc::new(Inner {
                engine: RefCell::new(engine),
                listeners: RefCell::new(Vec::new()),
                next_listener: Cell::new(0),
                running: Cell::new(false),
                sending: Cell::new(false),
                operating: Cell::new(false),
                repairing: Cell::new(false),
                waiters: RefCell::new(BTreeMap::new()),
                sleeper: Rc::new(Sleeper::default()),
                poll: RefCell::new(None),
            }),
        }
    }
}

/// One turn of the session loop; false once closed.
async fn step(inner: &Rc<Inner>) -> bool {
    let (next, credentials) = {
        let engine = inner.engine.borrow();
        (engine.next_step(), engine.credentials().clone())
    };
    match next {
        Step::Stop => return false,
        Step::Wait(ms) => {
            inner.sleeper.sleep(ms).await;
            inner.engine.borrow_mut().retry_now();
        }
        Step::Register => {
            let request = inner.engine.borrow().register_request();
            let reply = http::send(&credentials, &request, Some(poll_deadline_ms()), None).await;
            inner.engine.borrow_mut().handle_register(reply, js_sys::Math::random());
        }
        Step::Poll => {
            let request = inner.engine.borrow().poll_request();
            let controller = web_sys::AbortController::new().ok();
            *inner.poll.borrow_mut() = controller.clone();
            let reply = http::send(&credentials, &request, Some(poll_deadline_ms()), controller).await;
            inner.poll.borrow_mut().take();
            inner.engine.borrow_mut().handle_poll(reply, now_ms(), js_sys::Math::random());
        }
    }
    emit(inner);
    flush_outbox(inner);
    flush_operations(inner);
    flush_repairs(inner);
    true
}

/// Sends the outbox in order, one message at a time, unless that is already under way.
fn flush_outbox(inner: &Rc<Inner>) {
    if inner.sending.replace(true) {
        return;
    }
    let inner = Rc::clone(inner);
    wasm_bindgen_futures::spawn_local(async move {
        loop {
            let next = inner.engine.borrow_mut().next_send();
            let Some((local_id, request)) = next else { break };
            let credentials = inner.engine.borrow().credentials().clone();
            let reply = http::send(&credentials, &request, Some(poll_deadline_ms()), None).await;
            let sending = inner.engine.borrow_mut().handle_send(&local_id, reply);
            emit(&inner);
            if sending == Sending::Later {
                break;
            }
        }
        inner.sending.set(false);
    });
}

/// Sends the queued operations in order, one at a time, unless that is already under way. It
/// starts on a later turn of the event loop, so reads marked together go as one request.
fn flush_operations(inner: &Rc<Inner>) {
    if inner.operating.replace(true) {
        return;
    }
    let inner = Rc::clone(inner);
    wasm_bindgen_futures::spawn_local(async move {
        loop {
            let next = inner.engine.borrow_mut().next_operation();
            let Some((id, request)) = next else { break };
            let credentials = inner.engine.borrow().credentials().clone();
            let reply = http::send(&credentials, &request, Some(poll_deadline_ms()), None).await;
            let answer = inner.engine.borrow_mut().handle_operation_reply(id, reply);
            emit(&inner);
            match answer {
                OperationAnswer::Accepted => settle(&inner, id, None),
                OperationAnswer::Refused(error) => settle(&inner, id, Some(error)),
                OperationAnswer::Later => break,
            }
        }
        inner.operating.set(false);
    });
}

/// Asks the server the repairs the events called for (after a deletion, what is now the newest
/// message), one at a time, unless that is already under way.
fn flush_repairs(inner: &Rc<Inner>) {
    if inner.repairing.replace(true) {
        return;
    }
    let inner = Rc::clone(inner);
    wasm_bindgen_futures::spawn_local(async move {
        loop {
            let next = inner.engine.borrow_mut().next_repair();
            let Some((id, request)) = next else { break };
            let credentials = inner.engine.borrow().credentials().clone();
            let reply = http::send(&credentials, &request, Some(poll_deadline_ms()), None).await;
            let sending = inner.engine.borrow_mut().handle_repair(id, reply);
            emit(&inner);
            if sending == Sending::Later {
                break;
            }
        }
        inner.repairing.set(false);
    });
}

/// Resolves the promises waiting on an operation, or rejects them with the server's error.
fn settle(inner: &Rc<Inner>, id: u64, refusal: Option<ServerError>) {
    let waiters = inner.waiters.borrow_mut().remove(&id).unwrap_or_default();
    for waiter in waiters {
        // A callback that throws must not stop the queue.
        let _ = match &refusal {
            None => waiter.resolve.call0(&JsValue::NULL),
            Some(error) => waiter.reject.call1(&JsValue::NULL, &server_error(error.clone())),
        };
    }
}

/// Tells the listeners what changed, if anything did.
fn emit(inner: &Rc<Inner>) {
    let changes: Option<Changes> = inner.engine.borrow_mut().take_changes();
    let Some(changes) = changes else { return };
    let Ok(value) = to_js(&changes) else { return };
    let listeners: Vec<js_sys::Function> = inner.listeners.borrow().iter().map(|(_, f)| f.clone()).collect();
    for listener in listeners {
        // A listener that throws must not stop the session.
        let _ = listener.call1(&JsValue::NULL, &value);
    }
}
