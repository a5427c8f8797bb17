//! Turning core's results into HTTP responses: one success envelope, one error shape.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes, HttpBody};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use confab_core::{ApiError, ApiResult, ErrorCode, Outcome};
use http_body::{Frame, SizeHint};
use serde_json::{Map, Value};

/// The JSON body of a success: `result`, `msg`, then the reply fields.
pub fn success(reply: Map<String, Value>) -> Response {
    match success_bytes(reply) {
        Ok(bytes) => ok_json(bytes),
        Err(e) => error(&e),
    }
}

/// A success's body as bytes, for a reply serialized away from the async threads.
pub fn success_bytes(reply: Map<String, Value>) -> ApiResult<Vec<u8>> {
    body_parts(reply, Vec::new()).map(|parts| parts.concat())
}

/// A command's success body, with the fields it serialized already, as parts to send in turn.
pub fn outcome_bytes(outcome: Outcome) -> ApiResult<JsonBody> {
    body_parts(outcome.reply, outcome.serialized_reply).map(JsonBody)
}

fn body_parts(reply: Map<String, Value>, serialized: Vec<(String, Vec<u8>)>) -> ApiResult<Vec<Vec<u8>>> {
    let mut fields = Map::new();
    fields.insert("result".into(), "success".into());
    fields.insert("msg".into(), "".into());
    fields.extend(reply);
    confab_core::raw_json::object_parts(&fields, serialized).map_err(ApiError::internal)
}

/// A JSON body in parts, sent one after another with its whole length announced: a page of
/// messages is megabytes, and joining the parts would copy it once more.
pub struct JsonBody(Vec<Vec<u8>>);

impl JsonBody {
    pub fn into_body(self) -> Body {
        Body::new(PartsBody::new(self.0))
    }
}

/// An HTTP body of parts known in advance (so `Content-Length` is sent, not chunks).
struct PartsBody {
    parts: VecDeque<Bytes>,
    remaining: u64,
}

impl PartsBody {
    fn new(parts: Vec<Vec<u8>>) -> Self {
        let remaining = parts.iter().map(|part| part.len() as u64).sum();
        Self { parts: parts.into_iter().filter(|p| !p.is_empty()).map(Bytes::from).collect(), remaining }
    }
}

impl HttpBody for PartsBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let part = self.parts.pop_front();
        if let Some(part) = &part {
            self.remaining -= part.len() as u64;
        }
        Poll::Ready(part.map(|part| Ok(Frame::data(part))))
    }

    fn is_end_stream(&self) -> bool {
        self.parts.is_empty()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.remaining)
    }
}

/// A 200 with a JSON body in parts.
pub fn ok_json_parts(body: JsonBody) -> Response {
    (StatusCode::OK, [(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))], body.into_body())
        .into_response()
}

/// A 200 with a JSON body already serialized.
pub fn ok_json(bytes: Vec<u8>) -> Response {
    json_bytes(StatusCode::OK, bytes)
}

/// Lists the parameters an endpoint never read, as `ignored_parameters_unsupported` (present
/// only when there are some).
pub fn note_ignored(outcome: &mut Outcome, ignored: Vec<String>) {
    if !ignored.is_empty() {
        outcome.reply.insert("ignored_parameters_unsupported".into(), ignored.into());
    }
}

pub fn error(err: &ApiError) -> Response {
    if err.code == ErrorCode::InternalError {
        tracing::error!(detail = ?err.extra.get("detail"), "internal error");
    }
    let status = StatusCode::from_u16(err.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = json_response(status, &err.body());
    if err.code == ErrorCode::Unauthorized {
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Basic realm=\"zulip\""));
    }
    // The body keeps Zulip's fractional seconds; the header takes whole ones (RFC 9110).
    if let Some(secs) = err.extra.get("retry-after").and_then(Value::as_f64) {
        let whole = secs.max(0.0).ceil() as u64;
        response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(whole));
    }
    response
}

pub fn json_response(status: StatusCode, body: &Value) -> Response {
    json_bytes(status, serde_json::to_vec(body).unwrap_or_else(|_| b"{}".to_vec()))
}

/// A success whose body is written straight from a serializable value (it must carry
/// `result` and `msg` itself).
pub fn serialized(body: &impl serde::Serialize) -> Response {
    match serde_json::to_vec(body) {
        Ok(bytes) => json_bytes(StatusCode::OK, bytes),
        Err(e) => error(&ApiError::internal(e)),
    }
}

fn json_bytes(status: StatusCode, bytes: Vec<u8>) -> Response {
    (status, [(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))], bytes).into_response()
}

/// A finished command: its reply or its error.
pub fn outcome(result: ApiResult<Outcome>) -> Response {
    match result {
        Ok(outcome) => match outcome_bytes(outcome) {
            Ok(body) => ok_json_parts(body),
            Err(e) => error(&e),
        },
        Err(err) => error(&err),
    }
}
