//! Turning core's results into HTTP responses: one success envelope, one error shape.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use confab_core::{ApiError, ApiResult, ErrorCode, Outcome};
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
    body_bytes(reply, &[])
}

/// A command's success body as bytes, with the fields it serialized already.
pub fn outcome_bytes(outcome: Outcome) -> ApiResult<Vec<u8>> {
    body_bytes(outcome.reply, &outcome.serialized_reply)
}

fn body_bytes(reply: Map<String, Value>, serialized: &[(String, Vec<u8>)]) -> ApiResult<Vec<u8>> {
    let mut fields = Map::new();
    fields.insert("result".into(), "success".into());
    fields.insert("msg".into(), "".into());
    fields.extend(reply);
    // A page of messages is megabytes: sized once, it is not copied again as the buffer grows.
    let serialized_len: usize = serialized.iter().map(|(key, json)| key.len() + json.len() + 4).sum();
    let mut bytes = Vec::with_capacity(serialized_len + 1024);
    let raw = serialized.iter().map(|(key, json)| (key.as_str(), json.as_slice()));
    confab_core::raw_json::write_object(&mut bytes, &fields, raw).map_err(ApiError::internal)?;
    Ok(bytes)
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
            Ok(bytes) => ok_json(bytes),
            Err(e) => error(&e),
        },
        Err(err) => error(&err),
    }
}
