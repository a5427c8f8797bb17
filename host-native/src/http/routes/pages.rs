//! The few HTML pages the server renders itself (signing up with an invitation, resetting a
//! password): small forms for people without a session, which must work where the browser
//! client's scripts do not load.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};

/// The pages' look: the browser client's login card, its colours in light and dark, in a
/// stylesheet of their own (the pages work where the client's assets do not load).
const PAGE_STYLE: &str = "\
:root{--bg:#fff;--bg-soft:#f5f6f8;--fg:#1f2328;--muted:#5c6370;--border:#d8dce2;--accent:#2f6fbd;\
--accent-fg:#fff;--danger:#c0392b;color-scheme:light dark;\
font-family:system-ui,-apple-system,\"Segoe UI\",Roboto,\"Helvetica Neue\",sans-serif;font-size:15px}\
@media (prefers-color-scheme:dark){:root{--bg:#1d2026;--bg-soft:#23272f;--fg:#e6e8eb;--muted:#a0a7b4;\
--border:#363b45;--accent:#79aef2;--accent-fg:#10141a;--danger:#ff7b6b}}\
html,body{height:100%;margin:0}\
body{display:grid;place-items:center;background:var(--bg-soft);color:var(--fg);padding:24px;box-sizing:border-box}\
main{background:var(--bg);border:1px solid var(--border);border-radius:10px;padding:28px 32px;\
width:min(380px,100%);box-sizing:border-box;box-shadow:0 6px 24px rgb(0 0 0/.16)}\
.brand{font-weight:700;color:var(--muted);margin:0 0 12px}\
h1{margin:0 0 12px;font-size:1.35rem}p{line-height:1.45}a{color:var(--accent)}\
form{display:flex;flex-direction:column;gap:14px;margin-top:8px}\
label{display:flex;flex-direction:column;gap:4px;font-weight:500}\
input{font:inherit;padding:7px 9px;border:1px solid var(--border);border-radius:6px;background:var(--bg);color:var(--fg)}\
button{font:inherit;font-weight:600;padding:8px 14px;border:0;border-radius:6px;background:var(--accent);\
color:var(--accent-fg);cursor:pointer}\
.error{color:var(--danger)}";

/// A page: its title and body (HTML the caller escaped) in the pages' common frame, never
/// cached (it may carry a link's key or a form's error).
pub(super) fn html_page(status: StatusCode, title: &str, body: &str) -> Response {
    let html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" \
         content=\"width=device-width\"><title>{title}</title><style>{PAGE_STYLE}</style></head>\
         <body><main><p class=\"brand\">Confab</p>{body}</main></body></html>"
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
