//! The few HTML pages the server renders itself (signing up with an invitation, resetting a
//! password): small forms for people without a session, which must work where the browser
//! client's scripts do not load.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};

/// A page: its title and body (HTML the caller escaped) in the pages' common frame, never
/// cached (it may carry a link's key or a form's error).
pub(super) fn html_page(status: StatusCode, title: &str, body: &str) -> Response {
    let html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" \
         content=\"width=device-width\"><title>{title}</title><style>body{{font-family:sans-serif;\
         max-width:28rem;margin:3rem auto;padding:0 1rem}}label{{display:block;margin:.75rem 0}}\
         input{{display:block;width:100%}}.error{{color:#b00}}</style></head><body>{body}</body></html>"
    );
    let mut response = (status, Html(html)).into_response();
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Text for HTML: names and messages come from users.
pub(super) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}
