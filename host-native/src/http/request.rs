//! Extracting what core needs from an HTTP request: parameters from the query string and from
//! form-urlencoded or multipart bodies (on every method, DELETE included), the Basic
//! credentials, the User-Agent, and the subdomain the Host names.

use std::pin::Pin;
use std::sync::Arc;

use axum::extract::{FromRequest, Multipart, Request};
use axum::http::{Method, header};
use axum::response::Response;
use base64::Engine;
use confab_core::params::Params;
use confab_core::{ApiError, ErrorCode};

use super::rate_limits::RequestLimits;
use super::{AppState, respond};

/// The largest request body held in memory. Files of multipart bodies go to disk as they
/// arrive instead, up to the upload limit (`api::uploads::MAX_FILE_UPLOAD_SIZE_MIB`).
pub const MAX_BODY_BYTES: usize = 25 * 1024 * 1024;

/// The largest multipart body: one file at the upload limit, with room for its framing.
pub const MAX_UPLOAD_BODY_BYTES: usize =
    (confab_core::api::uploads::MAX_FILE_UPLOAD_SIZE_MIB as usize + 1) * 1024 * 1024;

/// A decoded API request.
pub struct ApiRequest {
    pub params: Params,
    /// `(username, password)` from `Authorization: Basic`, if present and well-formed.
    pub basic: Option<(String, String)>,
    /// Whether an Authorization header was sent at all.
    pub has_authorization: bool,
    pub user_agent: Option<String>,
    /// The subdomain the `Host` header names (`Some("")`: the root), or `None` for a host that
    /// is neither the server's external host nor under it (`Site::subdomain_of`).
    pub subdomain: Option<String>,
    /// Files of a multipart body (for `POST /user_uploads`).
    pub files: Vec<UploadedFile>,
    /// The rate limits this request counts against.
    pub limits: Arc<RequestLimits>,
}

/// A file sent in a multipart body, already written to a temporary file (removed when this is
/// dropped, unless it was moved into place).
pub struct UploadedFile {
    pub file_name: String,
    /// The part's `Content-Type`, if it had one.
    pub content_type: Option<String>,
    pub size: u64,
    /// The first bytes, by which images are recognised.
    pub head: Vec<u8>,
    pub temporary: crate::uploads::TemporaryFile,
}

impl UploadedFile {
    /// The file as core's image rules see it.
    pub fn image(&self) -> confab_core::images::ReceivedImage {
        confab_core::images::ReceivedImage::new(
            self.content_type.as_deref(),
            &self.file_name,
            self.size,
            self.head.clone(),
        )
    }
}

impl ApiRequest {
    /// Whether the request came without credentials of any kind: on the endpoints open to
    /// spectators, the request of someone without an account. A malformed Authorization header
    /// counts as credentials, refused as an invalid key.
    pub fn is_anonymous(&self) -> bool {
        self.basic.is_none() && !self.has_authorization
    }

    /// What the headers say (credentials, User-Agent, organization), without the body: for
    /// endpoints that read their body themselves (tus).
    pub fn from_head(
        headers: &axum::http::HeaderMap,
        uri: &axum::http::Uri,
        extensions: &axum::http::Extensions,
        state: &AppState,
    ) -> ApiRequest {
        let header_str =
            |name| headers.get(name).and_then(|v: &header::HeaderValue| v.to_str().ok()).map(str::to_owned);
        let authorization = header_str(header::AUTHORIZATION);
        let basic = authorization.as_deref().and_then(parse_basic);
        // HTTP/1.1 requires `Host`; a request in absolute form may carry it in the URI instead.
        // A Host that is not text still names some host (none of ours), not the root.
        let host = headers
            .get(header::HOST)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
            .or_else(|| uri.authority().map(ToString::to_string));
        ApiRequest {
            params: Params::parse_urlencoded(uri.query().unwrap_or("").as_bytes()),
            basic,
            has_authorization: authorization.is_some(),
            user_agent: header_str(header::USER_AGENT),
            subdomain: state.site.subdomain_of(host.as_deref()),
            files: Vec::new(),
            limits: extensions.get::<Arc<RequestLimits>>().cloned().unwrap_or_else(RequestLimits::unlimited),
        }
    }

    /// A request with nothing in it (what remains when a task that held one failed).
    pub fn empty() -> ApiRequest {
        ApiRequest {
            params: Params::from_pairs(Vec::new()),
            basic: None,
            has_authorization: false,
            user_agent: None,
            subdomain: None,
            files: Vec::new(),
            limits: RequestLimits::unlimited(),
        }
    }
}

fn too_large() -> Response {
    respond::error(&too_large_error())
}

fn parse_basic(value: &str) -> Option<(String, String)> {
    let encoded = value.strip_prefix("Basic ").or_else(|| value.strip_prefix("basic "))?;
    let decoded = base64::engine::general_purpose::STANDARD.decode(encoded.trim()).ok()?;
    let text = String::from_utf8(decoded).ok()?;
    let (user, key) = text.split_once(':')?;
    Some((user.to_owned(), key.trim().to_owned()))
}

impl FromRequest<AppState> for ApiRequest {
    type Rejection = Response;

    /// Returns a boxed future: a handler's future keeps room for its extractors' futures, and
    /// reading a multipart body is a large state machine that every parked `GET /events`
    /// would otherwise carry.
    fn from_request(
        req: Request,
        state: &AppState,
    ) -> impl Future<Output = Result<Self, Self::Rejection>> + Send {
        let mut request = ApiRequest::from_head(req.headers(), req.uri(), req.extensions(), state);
        let reading: Pin<Box<dyn Future<Output = Result<Self, Response>> + Send + '_>> =
            if req.method() == Method::GET || req.method() == Method::HEAD {
                Box::pin(std::future::ready(Ok(request)))
            } else {
                Box::pin(async move {
                    read_body_params(req, state, &mut request).await?;
                    Ok(request)
                })
            };
        reading
    }
}

/// Adds a form or multipart body's fields to `request` (and a multipart body's files).
async fn read_body_params(req: Request, state: &AppState, request: &mut ApiRequest) -> Result<(), Response> {
    let content_type = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_ascii_lowercase();
    // A client that waits for `100 Continue` and announces a body over the limit is refused
    // before any of it is read: reading would first tell it to go ahead. (One that sends at
    // once is read up to the limit, so that it hears the refusal instead of a reset.)
    let multipart = content_type.starts_with("multipart/form-data");
    let limit = if multipart { MAX_UPLOAD_BODY_BYTES } else { MAX_BODY_BYTES };
    // In a block: the request's body is not `Sync`, so no borrow of it may live across an await.
    let (waits, announced) = {
        let text = |name| req.headers().get(name).and_then(|v: &header::HeaderValue| v.to_str().ok());
        let waits = text(header::EXPECT).is_some_and(|v| v.eq_ignore_ascii_case("100-continue"));
        (waits, text(header::CONTENT_LENGTH).and_then(|v| v.trim().parse::<u64>().ok()))
    };
    if waits && announced.is_some_and(|length| length > limit as u64) {
        return Err(too_large());
    }
    if multipart {
        // A missing or malformed boundary: axum's rejection is plain text.
        let mut multipart = Multipart::from_request(req, state).await.map_err(|_| malformed_multipart())?;
        let mut pairs = Vec::new();
        let mut files = Vec::new();
        let mut total = 0usize;
        loop {
            let field = match multipart.next_field().await {
                Ok(Some(field)) => field,
                Ok(None) => break,
                Err(_) => return Err(malformed_multipart()),
            };
            let name = field.name().unwrap_or_default().to_owned();
            if let Some(file_name) = field.file_name().map(str::to_owned) {
                files.push(receive_file(state, field, file_name).await?);
                continue;
            }
            let bytes = field.bytes().await.map_err(|e| match e.status().as_u16() {
                413 => too_large(),
                _ => malformed_multipart(),
            })?;
            total += bytes.len();
            if total > MAX_BODY_BYTES {
                return Err(too_large());
            }
            pairs.push((name, String::from_utf8_lossy(&bytes).into_owned()));
        }
        request.params.extend(Params::from_pairs(pairs));
        request.files = files;
    } else {
        let body = axum::body::to_bytes(req.into_body(), MAX_BODY_BYTES).await.map_err(|_| too_large())?;
        if !body.is_empty() {
            if content_type.is_empty() || content_type.starts_with("application/x-www-form-urlencoded") {
                request.params.extend(Params::parse_urlencoded(&body));
            } else if content_type.starts_with("application/json") {
                return Err(respond::error(&ApiError::new(
                    ErrorCode::BadRequest,
                    "Request body must be form-encoded, not JSON",
                )));
            }
        }
    }
    Ok(())
}

/// Streams a file field to a temporary file, refusing it once it passes the upload limit.
async fn receive_file(
    state: &AppState,
    mut field: axum::extract::multipart::Field<'_>,
    file_name: String,
) -> Result<UploadedFile, Response> {
    let internal = |e: std::io::Error| respond::error(&ApiError::internal(e));
    let content_type = field.content_type().map(str::to_owned);
    let mut head = Vec::new();
    let temporary = state.files.temporary().map_err(internal)?;
    let mut file = tokio::fs::File::create(temporary.path()).await.map_err(internal)?;
    let limit = confab_core::api::uploads::MAX_FILE_UPLOAD_SIZE_MIB * 1024 * 1024;
    let mut size = 0u64;
    loop {
        let chunk = match field.chunk().await {
            Ok(Some(chunk)) => chunk,
            Ok(None) => break,
            Err(_) => return Err(malformed_multipart()),
        };
        size += chunk.len() as u64;
        if size > limit {
            // Core's check words the refusal. The rest of the body is read and dropped (at most
            // `MAX_UPLOAD_BODY_BYTES` in all) so that the client, still sending, hears it.
            let refusal = confab_core::api::uploads::check_upload(1, size).err();
            while let Ok(Some(_)) = field.chunk().await {}
            return Err(respond::error(&refusal.unwrap_or_else(too_large_error)));
        }
        let wanted = confab_core::images::SNIFF_BYTES.saturating_sub(head.len()).min(chunk.len());
        head.extend_from_slice(&chunk[..wanted]);
        tokio::io::AsyncWriteExt::write_all(&mut file, &chunk).await.map_err(internal)?;
    }
    tokio::io::AsyncWriteExt::flush(&mut file).await.map_err(internal)?;
    Ok(UploadedFile { file_name, content_type, size, head, temporary })
}

fn malformed_multipart() -> Response {
    respond::error(&ApiError::bad_request("Malformed multipart body"))
}

fn too_large_error() -> ApiError {
    ApiError::bad_request("Request body too large").with_status(413)
}

/// The client name recorded on messages, by core's rule.
pub fn client_name(params: &Params, user_agent: Option<&str>) -> String {
    confab_core::command::client_name(params.raw("client"), user_agent)
}
