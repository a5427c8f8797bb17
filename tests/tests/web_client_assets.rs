//! The browser client embedded in the binary: the page at `/` and `/login/`, the files it
//! names under `/static/assets/` (cached for good, gzipped for clients that accept it), the
//! service worker, and the API's own answers left as they were.

use std::io::Read;

use confab_tests::TestServer;
use reqwest::blocking::{Client, Response};
use reqwest::header::{CACHE_CONTROL, CONTENT_ENCODING, CONTENT_TYPE, HeaderMap, VARY};

const IMMUTABLE: &str = "public, max-age=31536000, immutable";

fn client() -> Client {
    // Without reqwest's gzip feature: nothing asks for gzip unless a test does, nothing decodes it.
    Client::new()
}

fn get(server: &TestServer, path: &str, accept_encoding: Option<&str>) -> Response {
    let mut request = client().get(format!("{}{path}", server.base_url));
    if let Some(encodings) = accept_encoding {
        request = request.header("Accept-Encoding", encodings);
    }
    request.send().expect("the server answers")
}

fn header(headers: &HeaderMap, name: impl reqwest::header::AsHeaderName) -> &str {
    headers.get(name).map_or("", |value| value.to_str().expect("a text header"))
}

/// The paths under `/static/assets/` that the page names.
fn referenced_assets(html: &str) -> Vec<String> {
    let mut assets: Vec<String> =
        html.split('"').filter(|part| part.starts_with("/static/assets/")).map(str::to_owned).collect();
    assets.sort();
    assets.dedup();
    assets
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut plain = Vec::new();
    flate2::read::GzDecoder::new(bytes).read_to_end(&mut plain).expect("valid gzip");
    plain
}

#[test]
fn the_page_at_the_root_and_login_names_its_script_styles_and_webassembly() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let mut pages = Vec::new();
    for path in ["/", "/login/"] {
        let page = get(&server, path, None);
        assert_eq!(page.status(), 200, "{path}");
        let headers = page.headers().clone();
        assert_eq!(header(&headers, CONTENT_TYPE), "text/html; charset=utf-8", "{path}");
        assert_eq!(header(&headers, CACHE_CONTROL), "no-cache", "{path}");
        assert_eq!(header(&headers, VARY), "Accept-Encoding", "{path}");
        assert!(headers.get(CONTENT_ENCODING).is_none(), "{path}: gzip only when asked for");
        let policy = header(&headers, "content-security-policy");
        for directive in ["script-src 'self' 'wasm-unsafe-eval'", "connect-src 'self'", "worker-src 'self'"] {
            assert!(policy.contains(directive), "{path}: {directive} in {policy}");
        }
        pages.push(page.text().expect("a body"));
    }
    assert_eq!(pages[0], pages[1], "one page for both paths");
    let assets = referenced_assets(&pages[0]);
    for extension in [".js", ".css", ".wasm"] {
        assert!(assets.iter().any(|asset| asset.ends_with(extension)), "a {extension} in {assets:?}");
    }
}

#[test]
fn each_asset_is_served_with_its_type_cached_for_good_and_gzipped_when_accepted() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let page = get(&server, "/", None).text().expect("a body");
    for asset in referenced_assets(&page) {
        let expected_type = match asset.rsplit_once('.').map(|(_, extension)| extension) {
            Some("js") => "text/javascript",
            Some("css") => "text/css",
            Some("wasm") => "application/wasm",
            _ => continue,
        };
        let plain = get(&server, &asset, None);
        assert_eq!(plain.status(), 200, "{asset}");
        let headers = plain.headers().clone();
        assert_eq!(header(&headers, CONTENT_TYPE), expected_type, "{asset}");
        assert_eq!(header(&headers, CACHE_CONTROL), IMMUTABLE, "{asset}");
        assert_eq!(header(&headers, VARY), "Accept-Encoding", "{asset}");
        assert!(headers.get(CONTENT_ENCODING).is_none(), "{asset}");
        let plain = plain.bytes().expect("a body");
        assert!(!plain.is_empty(), "{asset}");

        let gzipped = get(&server, &asset, Some("gzip, deflate, br"));
        assert_eq!(gzipped.status(), 200, "{asset}");
        let headers = gzipped.headers().clone();
        assert_eq!(header(&headers, CONTENT_TYPE), expected_type, "{asset}");
        assert_eq!(header(&headers, CACHE_CONTROL), IMMUTABLE, "{asset}");
        let body = gzipped.bytes().expect("a body");
        if header(&headers, CONTENT_ENCODING) == "gzip" {
            assert!(body.len() < plain.len(), "{asset}: gzip is sent only when smaller");
            assert_eq!(gunzip(&body), plain.as_ref(), "{asset}");
        } else {
            // Only a file too small to gain from it goes uncompressed.
            assert!(plain.len() < 200, "{asset} ({} bytes) is not gzipped", plain.len());
            assert_eq!(body, plain, "{asset}");
        }

        let head = client().head(format!("{}{asset}", server.base_url)).send().expect("the server answers");
        assert_eq!(head.status(), 200, "HEAD {asset}");
        assert_eq!(header(head.headers(), CONTENT_TYPE), expected_type, "HEAD {asset}");
        assert!(head.bytes().expect("a body").is_empty(), "HEAD {asset}");
    }

    let gzipped = get(&server, "/", Some("gzip"));
    assert_eq!(header(gzipped.headers(), CONTENT_ENCODING), "gzip");
    assert_eq!(gunzip(&gzipped.bytes().expect("a body")), page.as_bytes());
}

#[test]
fn the_worker_is_served_and_unknown_paths_answer_as_before() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let worker = get(&server, "/sw.js", None);
    assert_eq!(worker.status(), 200);
    assert_eq!(header(worker.headers(), CONTENT_TYPE), "text/javascript");
    assert_eq!(header(worker.headers(), CACHE_CONTROL), "no-cache");
    assert!(!worker.text().expect("a body").is_empty());

    for missing in ["/static/nope", "/static/assets/nope.js"] {
        assert_eq!(get(&server, missing, None).status(), 404, "{missing}");
    }
    // The API and paths that are neither keep Zulip's JSON error.
    for path in ["/api/v1/nope", "/nope"] {
        let reply = get(&server, path, None);
        assert_eq!(reply.status(), 404, "{path}");
        let body: serde_json::Value = serde_json::from_str(&reply.text().expect("a body")).expect("JSON");
        assert_eq!(body["result"], "error", "{path}: {body}");
        assert_eq!(body["msg"], "Invalid API endpoint", "{path}: {body}");
        assert_eq!(body["code"], "BAD_REQUEST", "{path}: {body}");
    }
    // Another method on the page's paths is refused in the API's shape too.
    let posted = client().post(format!("{}/", server.base_url)).send().expect("a reply");
    assert_eq!(posted.status(), 405);
    let body: serde_json::Value = serde_json::from_str(&posted.text().expect("a body")).expect("JSON");
    assert_eq!(body["result"], "error", "{body}");
    server.api().get("/server_settings", None, &[]).ok();
}
