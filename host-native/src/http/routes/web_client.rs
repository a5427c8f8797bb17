//! The browser client (`www/`), built by `build.rs` and embedded in the binary:
//! `GET /` and `GET /login/` (the page), `GET /sw.js` (its service worker) and
//! `GET /static/{*path}` (scripts, styles, WebAssembly, icon). Content-hashed files under
//! `static/assets/` are cached for good; the page and the worker are revalidated every time, so a
//! new build reaches browsers on their next visit. Gzip copies made at build time are sent to
//! clients that accept them.

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::IntoResponse;

use super::*;

/// One built file.
struct WebFile {
    /// Its path in the build, e.g. `static/assets/app-0123456789ab.js`.
    path: &'static str,
    content_type: &'static str,
    plain: &'static [u8],
    /// Present when gzip makes it smaller.
    gzip: Option<&'static [u8]>,
}

/// Every built file, sorted by path.
static FILES: &[WebFile] = &include!(concat!(env!("OUT_DIR"), "/www_assets.rs"));

/// For the page: its own scripts and styles, the engine's WebAssembly, images from anywhere
/// (avatars, previews, emoji), requests to this server only.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
     style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https: http:; connect-src 'self'; \
     worker-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'";

const REVALIDATE: &str = "no-cache";
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
const SHORT: &str = "public, max-age=3600";

/// `GET /` and `GET /login/`: the page (the client routes by itself from there).
pub(super) async fn serve_web_client_page(headers: HeaderMap) -> Response {
    let mut response = serve("index.html", &headers, REVALIDATE);
    if response.status().is_success() {
        response
            .headers_mut()
            .insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    }
    response
}

/// `GET /sw.js`: the service worker, at the root so that its scope is the whole site.
pub(super) async fn serve_web_client_worker(headers: HeaderMap) -> Response {
    serve("sw.js", &headers, REVALIDATE)
}

/// `GET /static/{*path}`.
pub(super) async fn serve_web_client_static(Path(path): Path<String>, headers: HeaderMap) -> Response {
    let path = format!("static/{path}");
    let cache_control = if path.starts_with("static/assets/") { IMMUTABLE } else { SHORT };
    serve(&path, &headers, cache_control)
}

fn serve(path: &str, request: &HeaderMap, cache_control: &'static str) -> Response {
    let Ok(index) = FILES.binary_search_by(|file| file.path.cmp(path)) else {
        return (StatusCode::NOT_FOUND, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], "Not found\n")
            .into_response();
    };
    let file = &FILES[index];
    let gzip = file.gzip.filter(|_| accepts_gzip(request));
    let mut response = Response::new(Body::from(gzip.unwrap_or(file.plain)));
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(file.content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache_control));
    headers.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    if gzip.is_some() {
        headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    }
    response
}

/// Whether `Accept-Encoding` admits gzip: named (or `*`, when gzip is not named) with a
/// non-zero quality.
fn accepts_gzip(request: &HeaderMap) -> bool {
    let mut wildcard = false;
    for value in request.get_all(header::ACCEPT_ENCODING) {
        let Ok(value) = value.to_str() else { continue };
        for coding in value.split(',') {
            let mut parts = coding.split(';');
            let name = parts.next().unwrap_or_default().trim();
            let quality = parts
                .filter_map(|parameter| parameter.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            if name.eq_ignore_ascii_case("gzip") || name.eq_ignore_ascii_case("x-gzip") {
                return quality > 0.0;
            }
            if name == "*" {
                wildcard = quality > 0.0;
            }
        }
    }
    wildcard
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accepts(value: &str) -> bool {
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT_ENCODING, HeaderValue::from_str(value).expect("a header value"));
        accepts_gzip(&headers)
    }

    #[test]
    fn gzip_is_sent_only_when_accepted() {
        assert!(accepts("gzip"));
        assert!(accepts("gzip, deflate, br, zstd"));
        assert!(accepts("br;q=1.0, GZIP;q=0.5"));
        assert!(accepts("*"));
        assert!(!accepts("identity"));
        assert!(!accepts("br"));
        assert!(!accepts("gzip;q=0"));
        assert!(!accepts("*, gzip;q=0"));
        assert!(!accepts("*;q=0"));
        assert!(!accepts_gzip(&HeaderMap::new()));
    }

    #[test]
    fn the_table_is_sorted_and_holds_the_page_and_the_worker() {
        assert!(FILES.windows(2).all(|pair| pair[0].path < pair[1].path));
        for path in ["index.html", "sw.js"] {
            assert!(FILES.iter().any(|file| file.path == path), "{path} is built");
        }
        assert!(
            FILES.iter().any(|file| file.path.starts_with("static/assets/") && file.path.ends_with(".wasm"))
        );
    }
}
