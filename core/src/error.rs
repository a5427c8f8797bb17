//! The one error table: every error code Confab emits, its wire string and its HTTP status.
//!
//! The codes and statuses are Zulip's (`zerver/lib/exceptions.py`, and the error schemas of
//! `zulip-openapi.yaml`), so that clients which dispatch on `code` behave as they do against Zulip.

use serde_json::{Map, Value};

/// A machine-readable error code, sent as the `code` field of an error body.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    BadRequest,
    RequestVariableMissing,
    RequestVariableInvalid,
    InvalidJson,
    BadNarrow,
    StreamDoesNotExist,
    UnauthorizedPrincipal,
    BadEventQueueId,
    InvalidApiKey,
    Unauthorized,
    UnauthenticatedUser,
    NonexistentSubdomain,
    RateLimitHit,
    UserDeactivated,
    RealmDeactivated,
    PasswordAuthDisabled,
    AuthenticationFailed,
    ReactionAlreadyExists,
    ReactionDoesNotExist,
    MoveMessagesTimeLimitExceeded,
    StreamWildcardMentionNotAllowed,
    TopicWildcardMentionNotAllowed,
    ExpectationMismatch,
    CannotDeactivateLastUser,
    InvalidPushDeviceToken,
    InvalidRemotePushDeviceToken,
    InvitationFailed,
    CannotDeactivateGroupInUse,
    PushServiceNotConfigured,
    /// The server cannot serve yet (Zulip's `/health` answers it when a service it needs is down).
    ServerNotReady,
    /// Not a Zulip code: storage or other server-side failure. Sent with status 500.
    InternalError,
}

/// Every code, for tests that check the table against the reference.
pub const ALL_CODES: &[ErrorCode] = &[
    ErrorCode::BadRequest,
    ErrorCode::RequestVariableMissing,
    ErrorCode::RequestVariableInvalid,
    ErrorCode::InvalidJson,
    ErrorCode::BadNarrow,
    ErrorCode::StreamDoesNotExist,
    ErrorCode::UnauthorizedPrincipal,
    ErrorCode::BadEventQueueId,
    ErrorCode::InvalidApiKey,
    ErrorCode::Unauthorized,
    ErrorCode::UnauthenticatedUser,
    ErrorCode::NonexistentSubdomain,
    ErrorCode::RateLimitHit,
    ErrorCode::UserDeactivated,
    ErrorCode::RealmDeactivated,
    ErrorCode::PasswordAuthDisabled,
    ErrorCode::AuthenticationFailed,
    ErrorCode::ReactionAlreadyExists,
    ErrorCode::ReactionDoesNotExist,
    ErrorCode::MoveMessagesTimeLimitExceeded,
    ErrorCode::StreamWildcardMentionNotAllowed,
    ErrorCode::TopicWildcardMentionNotAllowed,
    ErrorCode::ExpectationMismatch,
    ErrorCode::CannotDeactivateLastUser,
    ErrorCode::InvalidPushDeviceToken,
    ErrorCode::InvalidRemotePushDeviceToken,
    ErrorCode::InvitationFailed,
    ErrorCode::CannotDeactivateGroupInUse,
    ErrorCode::PushServiceNotConfigured,
    ErrorCode::ServerNotReady,
    ErrorCode::InternalError,
];

impl ErrorCode {
    /// The string sent in the `code` field.
    pub fn wire(self) -> &'static str {
        self.row().0
    }

    /// The HTTP status an error with this code is sent with, unless the error overrides it.
    pub fn http_status(self) -> u16 {
        self.row().1
    }

    /// The code with this wire string, if Confab has it.
    pub fn from_wire(wire: &str) -> Option<ErrorCode> {
        ALL_CODES.iter().copied().find(|code| code.wire() == wire)
    }

    fn row(self) -> (&'static str, u16) {
        use ErrorCode::*;
        match self {
            BadRequest => ("BAD_REQUEST", 400),
            RequestVariableMissing => ("REQUEST_VARIABLE_MISSING", 400),
            RequestVariableInvalid => ("REQUEST_VARIABLE_INVALID", 400),
            InvalidJson => ("INVALID_JSON", 400),
            BadNarrow => ("BAD_NARROW", 400),
            StreamDoesNotExist => ("STREAM_DOES_NOT_EXIST", 400),
            UnauthorizedPrincipal => ("UNAUTHORIZED_PRINCIPAL", 400),
            BadEventQueueId => ("BAD_EVENT_QUEUE_ID", 400),
            InvalidApiKey => ("INVALID_API_KEY", 401),
            Unauthorized => ("UNAUTHORIZED", 401),
            UnauthenticatedUser => ("UNAUTHENTICATED_USER", 401),
            NonexistentSubdomain => ("NONEXISTENT_SUBDOMAIN", 404),
            RateLimitHit => ("RATE_LIMIT_HIT", 429),
            UserDeactivated => ("USER_DEACTIVATED", 401),
            RealmDeactivated => ("REALM_DEACTIVATED", 401),
            PasswordAuthDisabled => ("PASSWORD_AUTH_DISABLED", 401),
            AuthenticationFailed => ("AUTHENTICATION_FAILED", 401),
            ReactionAlreadyExists => ("REACTION_ALREADY_EXISTS", 400),
            ReactionDoesNotExist => ("REACTION_DOES_NOT_EXIST", 400),
            MoveMessagesTimeLimitExceeded => ("MOVE_MESSAGES_TIME_LIMIT_EXCEEDED", 400),
            StreamWildcardMentionNotAllowed => ("STREAM_WILDCARD_MENTION_NOT_ALLOWED", 400),
            TopicWildcardMentionNotAllowed => ("TOPIC_WILDCARD_MENTION_NOT_ALLOWED", 400),
            ExpectationMismatch => ("EXPECTATION_MISMATCH", 400),
            CannotDeactivateLastUser => ("CANNOT_DEACTIVATE_LAST_USER", 400),
            InvalidPushDeviceToken => ("INVALID_PUSH_DEVICE_TOKEN", 400),
            InvalidRemotePushDeviceToken => ("INVALID_REMOTE_PUSH_DEVICE_TOKEN", 400),
            InvitationFailed => ("INVITATION_FAILED", 400),
            CannotDeactivateGroupInUse => ("CANNOT_DEACTIVATE_GROUP_IN_USE", 400),
            PushServiceNotConfigured => ("PUSH_SERVICE_NOT_CONFIGURED", 400),
            ServerNotReady => ("SERVER_NOT_READY", 500),
            InternalError => ("INTERNAL_SERVER_ERROR", 500),
        }
    }
}

/// An error as the API reports it: `{"result":"error","msg":...,"code":...}` plus extra fields.
#[derive(Clone, Debug, PartialEq)]
pub struct ApiError {
    pub code: ErrorCode,
    pub msg: String,
    /// Set where Zulip sends a status other than the code's usual one (403 and 404 with BAD_REQUEST).
    pub status_override: Option<u16>,
    /// Fields Zulip adds beside `code` (`var_name`, `queue_id`, `stream`, `retry-after`, ...).
    pub extra: Map<String, Value>,
}

/// The result type of every fallible rule in core.
pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    pub fn new(code: ErrorCode, msg: impl Into<String>) -> Self {
        ApiError { code, msg: msg.into(), status_override: None, extra: Map::new() }
    }

    /// The generic `BAD_REQUEST` error with a message.
    pub fn bad_request(msg: impl Into<String>) -> Self {
        Self::new(ErrorCode::BadRequest, msg)
    }

    /// A storage or other server fault; the message is for logs, clients see a fixed text.
    pub fn internal(detail: impl std::fmt::Display) -> Self {
        Self::new(ErrorCode::InternalError, "Internal server error").with("detail", detail.to_string())
    }

    /// `Missing 'NAME' argument`, with `var_name` as Zulip sends it.
    pub fn missing_argument(name: &str) -> Self {
        Self::new(ErrorCode::RequestVariableMissing, format!("Missing '{name}' argument"))
            .with("var_name", name)
    }

    /// Adds an extra field to the error body.
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.extra.insert(key.to_owned(), value.into());
        self
    }

    /// Sends the error with this HTTP status instead of the code's usual one.
    pub fn with_status(mut self, status: u16) -> Self {
        self.status_override = Some(status);
        self
    }

    /// The HTTP status of the response.
    pub fn http_status(&self) -> u16 {
        self.status_override.unwrap_or(self.code.http_status())
    }

    /// The JSON body. Internal details (`detail`) never reach the client.
    pub fn body(&self) -> Value {
        let mut body = Map::new();
        body.insert("result".into(), "error".into());
        body.insert("msg".into(), self.msg.clone().into());
        body.insert("code".into(), self.code.wire().into());
        for (key, value) in &self.extra {
            if key != "detail" {
                body.insert(key.clone(), value.clone());
            }
        }
        Value::Object(body)
    }

    // Errors whose texts are shared by several endpoints live here, written once.

    /// HTTP Basic credentials absent.
    pub fn not_logged_in() -> Self {
        Self::new(ErrorCode::Unauthorized, "Not logged in: API authentication or user session required")
    }

    pub fn invalid_api_key() -> Self {
        Self::new(ErrorCode::InvalidApiKey, "Invalid API key")
    }

    pub fn user_deactivated() -> Self {
        Self::new(ErrorCode::UserDeactivated, "Account is deactivated")
    }

    pub fn realm_deactivated() -> Self {
        Self::new(ErrorCode::RealmDeactivated, "This organization has been deactivated")
    }

    pub fn stream_does_not_exist(name: &str) -> Self {
        Self::new(ErrorCode::StreamDoesNotExist, format!("Channel '{name}' does not exist"))
            .with("stream", name)
    }

    pub fn stream_id_does_not_exist(id: u64) -> Self {
        Self::new(ErrorCode::StreamDoesNotExist, format!("Channel with ID '{id}' does not exist"))
            .with("stream_id", id)
    }

    pub fn invalid_message() -> Self {
        Self::bad_request("Invalid message(s)")
    }

    pub fn no_such_user() -> Self {
        Self::bad_request("No such user")
    }

    pub fn insufficient_permission() -> Self {
        Self::bad_request("Insufficient permission")
    }

    pub fn administrator_required() -> Self {
        Self::new(ErrorCode::UnauthorizedPrincipal, "Must be an organization administrator")
    }

    pub fn owner_required() -> Self {
        Self::new(ErrorCode::UnauthorizedPrincipal, "Must be an organization owner")
    }

    pub fn rate_limited(retry_after_secs: f64) -> Self {
        Self::new(ErrorCode::RateLimitHit, "API usage exceeded rate limit")
            .with("retry-after", retry_after_secs)
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.msg, self.code.wire())
    }
}

impl std::error::Error for ApiError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn body_has_result_msg_code_and_extras() {
        let err = ApiError::missing_argument("content");
        assert_eq!(
            err.body(),
            serde_json::json!({
                "result": "error", "msg": "Missing 'content' argument",
                "code": "REQUEST_VARIABLE_MISSING", "var_name": "content"
            })
        );
        assert_eq!(err.http_status(), 400);
    }

    #[test]
    fn internal_detail_stays_out_of_the_body() {
        let err = ApiError::internal("disk on fire");
        assert_eq!(err.http_status(), 500);
        assert!(err.body().get("detail").is_none());
    }

    #[test]
    fn wire_strings_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for code in ALL_CODES {
            assert!(seen.insert(code.wire()), "duplicate {}", code.wire());
        }
    }
}
