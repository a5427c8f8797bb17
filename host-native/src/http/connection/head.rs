//! Reading one request head off the socket, and deciding who answers it.
//!
//! Nothing is allocated until the client has sent something: a connection waiting for its next
//! request holds no buffer at all.

use std::io;

use axum::body::Body;
use axum::http::{HeaderName, HeaderValue, Method, Request, Uri, Version};
use tokio::net::TcpStream;

/// A request head longer than this is refused (hyper's own limit is far larger; no Zulip client
/// comes near it).
pub const MAX_HEAD_BYTES: usize = 64 * 1024;
/// hyper's default limit on the number of request headers.
const MAX_HEADERS: usize = 100;
/// The one path served by [`super::long_poll`]: `GET /events` blocks until an event exists.
const LONG_POLL_PATH: &str = "/api/v1/events";
/// How much to read at a time: a typical request head fits.
const READ_CHUNK: usize = 2048;

/// What the next request on a connection is.
pub enum Head {
    /// A `GET /events` without a body: answered by our own loop, which holds no buffers while
    /// the request waits. `consumed` bytes of the connection's pending input are its head.
    LongPoll { request: Box<Request<Body>>, consumed: usize, close_after: bool },
    /// Anything else: hyper reads it again from the pending input and answers it.
    Other { close_after: bool },
    /// A request refused from its head alone, after which the connection closes.
    Refused(Refusal),
}

/// Why a request is refused before anything reads its body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Longer than [`MAX_HEAD_BYTES`], or more than [`MAX_HEADERS`] headers: 431.
    HeadTooLarge,
    /// Not an HTTP/1.x request head: 400.
    Malformed,
    /// An HTTP/1.1 request without `Host`: 400 (RFC 9112, section 3.2).
    MissingHost,
    /// More than one `Host` header line: 400 (RFC 9112, section 3.2).
    SeveralHosts,
    /// `Expect: 100-continue` with a `Content-Length` beyond any body the server takes: 413,
    /// before the client is told to send it.
    BodyTooLarge,
}

/// Reads until `pending` holds a complete request head (or something hyper must judge).
/// `None` when the client closed the connection before starting another request.
pub async fn read(stream: &TcpStream, pending: &mut Vec<u8>) -> io::Result<Option<Head>> {
    loop {
        if !pending.is_empty()
            && let Some(head) = parse(pending)
        {
            return Ok(Some(head));
        }
        stream.readable().await?;
        pending.reserve(READ_CHUNK);
        match stream.try_read_buf(pending) {
            Ok(0) => return Ok(None),
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
            Err(e) => return Err(e),
        }
    }
}

/// Judges the bytes so far: `None` while the head is incomplete.
fn parse(bytes: &[u8]) -> Option<Head> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut headers);
    match request.parse(bytes) {
        Ok(httparse::Status::Complete(consumed)) => Some(classify(&request, consumed)),
        Ok(httparse::Status::Partial) if bytes.len() < MAX_HEAD_BYTES => None,
        Ok(httparse::Status::Partial) | Err(httparse::Error::TooManyHeaders) => {
            Some(Head::Refused(Refusal::HeadTooLarge))
        }
        // hyper parses with httparse too, and would refuse the same bytes (with no body).
        Err(_) => Some(Head::Refused(Refusal::Malformed)),
    }
}

fn classify(parsed: &httparse::Request<'_, '_>, consumed: usize) -> Head {
    // hyper takes requests without `Host`, or with two, and the router would then pick an
    // organization from whichever it saw.
    let hosts = parsed.headers.iter().filter(|h| h.name.eq_ignore_ascii_case("host")).count();
    if hosts > 1 {
        return Head::Refused(Refusal::SeveralHosts);
    }
    if hosts == 0 && parsed.version == Some(1) {
        return Head::Refused(Refusal::MissingHost);
    }
    // hyper answers `100 Continue` as soon as a handler starts reading the body, and every
    // handler that refuses a large body reads some of it first.
    if has_token(parsed.headers, "expect", "100-continue") && content_length(parsed.headers) > MAX_BODY {
        return Head::Refused(Refusal::BodyTooLarge);
    }
    // HTTP/1.0 keep-alive is rare enough that closing after each such request costs nothing.
    let close_after = parsed.version != Some(1) || has_token(parsed.headers, "connection", "close");
    if is_long_poll(parsed)
        && let Some(request) = to_request(parsed)
    {
        return Head::LongPoll { request: Box::new(request), consumed, close_after };
    }
    Head::Other { close_after }
}

/// A bodiless HTTP/1.1 `GET` of the events endpoint. Anything unusual about it (a body, an
/// `Expect`, an upgrade) is left to hyper, which knows every corner of the protocol.
fn is_long_poll(parsed: &httparse::Request<'_, '_>) -> bool {
    let path = parsed.path.unwrap_or_default();
    let path = path.split_once('?').map_or(path, |(path, _query)| path);
    parsed.method == Some("GET")
        && parsed.version == Some(1)
        && path == LONG_POLL_PATH
        && parsed.headers.iter().all(|header| {
            let name = header.name;
            !(name.eq_ignore_ascii_case("transfer-encoding")
                || name.eq_ignore_ascii_case("expect")
                || name.eq_ignore_ascii_case("upgrade")
                || (name.eq_ignore_ascii_case("content-length") && header.value.trim_ascii() != b"0"))
        })
}

fn to_request(parsed: &httparse::Request<'_, '_>) -> Option<Request<Body>> {
    let uri: Uri = parsed.path?.parse().ok()?;
    let mut request = Request::builder().method(Method::GET).uri(uri).version(Version::HTTP_11);
    let headers = request.headers_mut()?;
    for header in parsed.headers.iter() {
        let name = HeaderName::from_bytes(header.name.as_bytes()).ok()?;
        headers.append(name, HeaderValue::from_bytes(header.value).ok()?);
    }
    request.body(Body::empty()).ok()
}

/// The largest body any request may have: a multipart upload at the upload limit.
const MAX_BODY: u64 = crate::http::MAX_UPLOAD_BODY_BYTES as u64;

/// The `Content-Length`, or 0 without one (an unparsable one is hyper's to refuse).
fn content_length(headers: &[httparse::Header<'_>]) -> u64 {
    let value = headers.iter().find(|h| h.name.eq_ignore_ascii_case("content-length")).map(|h| h.value);
    value.and_then(|v| std::str::from_utf8(v).ok()?.trim().parse().ok()).unwrap_or(0)
}

/// Whether a comma-separated header such as `Connection` lists `token`.
fn has_token(headers: &[httparse::Header<'_>], name: &str, token: &str) -> bool {
    headers.iter().filter(|header| header.name.eq_ignore_ascii_case(name)).any(|header| {
        header
            .value
            .split(|&b| b == b',')
            .any(|item| item.trim_ascii().eq_ignore_ascii_case(token.as_bytes()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(text: &str) -> Option<Head> {
        parse(text.as_bytes())
    }

    #[test]
    fn a_bodiless_get_of_events_is_a_long_poll() {
        let text = "GET /api/v1/events?queue_id=1&last_event_id=-1 HTTP/1.1\r\nHost: x\r\n\r\nGET /next";
        let Some(Head::LongPoll { request, consumed, close_after }) = head(text) else {
            panic!("not a poll")
        };
        assert_eq!(consumed, text.find("GET /next").unwrap_or_default());
        assert!(!close_after);
        assert_eq!(request.uri().query(), Some("queue_id=1&last_event_id=-1"));
        assert_eq!(request.headers()["host"], "x");
    }

    #[test]
    fn other_requests_and_unusual_polls_go_to_hyper() {
        for text in [
            "POST /api/v1/events HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /api/v1/users HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /api/v1/events HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc",
            "GET /api/v1/events HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n",
            "GET /api/v1/events HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n\r\n",
        ] {
            assert!(matches!(head(text), Some(Head::Other { close_after: false })), "{text}");
        }
    }

    #[test]
    fn connection_close_and_http_1_0_close_after_the_answer() {
        let close = head("GET /api/v1/events HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, Close\r\n\r\n");
        assert!(matches!(close, Some(Head::LongPoll { close_after: true, .. })));
        let old = head("GET /api/v1/events HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
        assert!(matches!(old, Some(Head::Other { close_after: true })));
    }

    #[test]
    fn incomplete_heads_wait_and_oversized_or_malformed_ones_do_not() {
        assert!(head("GET /api/v1/events HTTP/1.1\r\nHost:").is_none());
        let long = format!("GET /api/v1/events HTTP/1.1\r\nX: {}", "a".repeat(MAX_HEAD_BYTES));
        assert!(matches!(head(&long), Some(Head::Refused(Refusal::HeadTooLarge))));
        let many = format!("GET / HTTP/1.1\r\n{}\r\n", "X: y\r\n".repeat(MAX_HEADERS + 1));
        assert!(matches!(head(&many), Some(Head::Refused(Refusal::HeadTooLarge))));
        assert!(matches!(
            head("GET / HTTP/1.1\r\nBad Header\r\n\r\n"),
            Some(Head::Refused(Refusal::Malformed))
        ));
    }

    #[test]
    fn http_1_1_needs_exactly_one_host() {
        let refused = |text: &str| match head(text) {
            Some(Head::Refused(refusal)) => Some(refusal),
            _ => None,
        };
        assert_eq!(refused("GET /api/v1/users HTTP/1.1\r\n\r\n"), Some(Refusal::MissingHost));
        assert_eq!(refused("GET /api/v1/events HTTP/1.1\r\n\r\n"), Some(Refusal::MissingHost));
        let two = "GET / HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n";
        assert_eq!(refused(two), Some(Refusal::SeveralHosts));
        assert_eq!(refused("GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n"), Some(Refusal::SeveralHosts));
        assert_eq!(refused("GET / HTTP/1.0\r\n\r\n"), None, "HTTP/1.0 may leave it out");
    }

    #[test]
    fn a_body_too_large_to_take_is_refused_before_100_continue() {
        let expecting = |length: u64| {
            let text = format!(
                "POST /api/v1/user_uploads HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: {length}\r\n\r\n"
            );
            head(&text)
        };
        assert!(matches!(expecting(2 << 30), Some(Head::Refused(Refusal::BodyTooLarge))));
        assert!(matches!(expecting(MAX_BODY), Some(Head::Other { .. })));
    }
}
