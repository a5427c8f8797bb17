//! Requests as the bytes a client writes, made before the clock starts.

use std::sync::Arc;

/// A request's bytes: head and form body, as Zulip's clients send them.
pub type RequestBytes = Arc<[u8]>;

/// HTTP Basic credentials for an account's email and API key.
pub fn basic_authorization(email: &str, api_key: &str) -> String {
    use base64::Engine;
    format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(format!("{email}:{api_key}")))
}

/// A request with a form body (`POST`, `PATCH`, ...) or, for `GET`, the parameters in the query.
pub fn build(
    host: &str,
    method: &str,
    path: &str,
    authorization: Option<&str>,
    params: &[(&str, &str)],
) -> RequestBytes {
    let form = form_urlencoded::Serializer::new(String::new()).extend_pairs(params).finish();
    let auth = authorization.map(|a| format!("Authorization: {a}\r\n")).unwrap_or_default();
    let text = if method == "GET" {
        let separator = if form.is_empty() { "" } else { "?" };
        format!(
            "GET {path}{separator}{form} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: ConfabBench/1.0\r\n{auth}\r\n"
        )
    } else {
        format!(
            "{method} {path} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: ConfabBench/1.0\r\n{auth}\
             Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{form}",
            form.len()
        )
    };
    Arc::from(text.into_bytes())
}
