//! Path segments (`/users/{user}`) as handlers take them, refused in Zulip's error shape: axum's
//! own extractor answers a segment that is not UTF-8 (`/users/%FF`) in plain text.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::response::Response;
use confab_core::ApiError;
use serde::de::DeserializeOwned;

use super::respond;

/// The route's parameters, as [`axum::extract::Path`] reads them.
pub struct Path<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for Path<T> {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Response> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => Ok(Path(value)),
            Err(rejection) => {
                let error = match rejection.status().as_u16() {
                    400 => ApiError::bad_request(rejection.body_text()),
                    _ => ApiError::internal(rejection.body_text()),
                };
                Err(respond::error(&error))
            }
        }
    }
}
