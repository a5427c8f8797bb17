//! The requests the engine asks its host to make, and what it makes of the answers. The host
//! only carries them: it adds the credentials, sends the parameters as a form (query string for
//! `GET` and `DELETE`), and hands back the status and the body.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::types::ServerError;

/// One HTTP request to the Zulip API, relative to the site (`/api/v1/...`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HttpRequest {
    pub method: Method,
    pub path: String,
    /// Form parameters, already encoded as Zulip takes them (JSON for lists and objects).
    pub params: Vec<(String, String)>,
    /// Whether the request carries the account's credentials (all but `fetch_api_key`).
    pub authenticated: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Method {
    Get,
    Post,
    Patch,
    Delete,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
        }
    }

    /// Whether parameters go in the query string rather than a form body.
    pub fn params_in_query(self) -> bool {
        matches!(self, Method::Get | Method::Delete)
    }
}

impl HttpRequest {
    pub fn new(method: Method, path: impl Into<String>) -> Self {
        HttpRequest { method, path: path.into(), params: Vec::new(), authenticated: true }
    }

    pub fn param(mut self, name: &str, value: impl Into<String>) -> Self {
        self.params.push((name.to_owned(), value.into()));
        self
    }

    pub fn json_param(self, name: &str, value: &Value) -> Self {
        self.param(name, value.to_string())
    }
}

/// How a request ended, as the host saw it.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The server answered with a status and a body.
    Answered { status: u16, body: String },
    /// No answer: the connection failed, or the host gave up waiting.
    NetworkError(String),
}

/// What an answer means to the engine.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    Success(Map<String, Value>),
    /// The server refused the request; retrying the same request would be refused again.
    Refused(ServerError),
    /// Nothing usable came back: worth retrying later.
    Unreachable(String),
}

impl Reply {
    /// Reads an outcome: Zulip's success and error envelopes; 5xx answers, answers that are
    /// not Zulip's JSON (a proxy's error page) and rate limits count as unreachable.
    pub fn from_outcome(outcome: Outcome) -> Reply {
        let (status, body) = match outcome {
            Outcome::NetworkError(why) => return Reply::Unreachable(why),
            Outcome::Answered { status, body } => (status, body),
        };
        let Ok(Value::Object(fields)) = serde_json::from_str::<Value>(&body) else {
            return Reply::Unreachable(format!("the server answered {status} without Zulip's JSON"));
        };
        let result = fields.get("result").and_then(Value::as_str);
        if (200..300).contains(&status) && result == Some("success") {
            return Reply::Success(fields);
        }
        let text = |key: &str| fields.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
        if status >= 500 || status == 429 {
            return Reply::Unreachable(format!("the server answered {status}: {}", text("msg")));
        }
        Reply::Refused(ServerError { code: text("code"), msg: text("msg"), status })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answered(status: u16, body: &str) -> Reply {
        Reply::from_outcome(Outcome::Answered { status, body: body.into() })
    }

    #[test]
    fn answers_read_as_success_refusal_or_unreachable() {
        assert!(
            matches!(answered(200, r#"{"result":"success","msg":"","id":3}"#), Reply::Success(f) if f["id"] == 3)
        );
        assert_eq!(
            answered(400, r#"{"result":"error","msg":"Bad event queue ID: x","code":"BAD_EVENT_QUEUE_ID"}"#),
            Reply::Refused(ServerError {
                code: "BAD_EVENT_QUEUE_ID".into(),
                msg: "Bad event queue ID: x".into(),
                status: 400
            })
        );
        assert!(matches!(answered(502, "<html>Bad gateway</html>"), Reply::Unreachable(_)));
        assert!(matches!(
            answered(503, r#"{"result":"error","msg":"down","code":"X"}"#),
            Reply::Unreachable(_)
        ));
        assert!(matches!(
            Reply::from_outcome(Outcome::NetworkError("refused".into())),
            Reply::Unreachable(_)
        ));
    }
}
