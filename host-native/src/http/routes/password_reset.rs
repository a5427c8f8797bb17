//! The password reset pages (`api::password_reset`): `/accounts/password/reset/` asks for an
//! address and mails a link; the link's page sets a new password.

use axum::http::{HeaderValue, header};
use confab_core::api::invites::signup;
use confab_core::api::password_reset;
use confab_core::ids::UserId;

use super::pages::{escape, html_page};
use super::*;

/// `GET /accounts/password/reset/`: the form asking for the account's address.
pub(super) async fn show_reset_request() -> Response {
    request_form(None)
}

fn request_form(error: Option<&str>) -> Response {
    let status = if error.is_some() { StatusCode::BAD_REQUEST } else { StatusCode::OK };
    let error =
        error.map(|e| format!("<p class=\"error\" role=\"alert\">{}</p>", escape(e))).unwrap_or_default();
    let body = format!(
        "<h1>Reset your password</h1>{error}<p>Enter the email address of your account, and we \
         will send you a link to choose a new password.</p><form method=\"post\"><label>Email \
         <input name=\"email\" type=\"email\" autocomplete=\"email\" required></label>\
         <button type=\"submit\">Send the link</button></form>"
    );
    html_page(status, "Reset your password", &body)
}

/// `POST /accounts/password/reset/`: `email`. Mails a link if an account has the address;
/// answers the same either way.
pub(super) async fn request_reset(State(state): State<AppState>, request: ApiRequest) -> Response {
    let email: String = match request.params.required("email") {
        Ok(email) => email,
        Err(err) => return request_form(Some(&err.msg)),
    };
    if let Err(limited) = request.limits.email_asked() {
        return too_many_requests(&limited);
    }
    if !request.limits.password_reset_may_mail(&email) {
        tracing::info!("password reset for {email} not mailed: too many for that address lately");
        return reset_mailed();
    }
    let key = match secrets::confirmation_key() {
        Ok(key) => key,
        Err(e) => return failed(&ApiError::internal(e)),
    };
    let store = state.store.clone();
    let site = state.site.clone();
    let realm = tokio::task::spawn_blocking(move || {
        store.read(|tables| host_organization(tables, &request)?.valid())
    })
    .await;
    let realm = match realm {
        Ok(Ok(realm)) if !realm.deactivated => realm,
        Ok(Ok(_)) => return failed(&ApiError::realm_deactivated()),
        Ok(Err(err)) => return failed(&err),
        Err(join) => return failed(&ApiError::internal(join)),
    };
    let realm_url = site.realm_url(&realm.subdomain);
    let asked = state
        .writer
        .submit(Box::new(move |tables| {
            password_reset::request_reset(tables, &realm, &realm_url, &email, &key, now())
        }))
        .await;
    if let Err(err) = asked {
        return failed(&err);
    }
    reset_mailed()
}

/// The same answer whether or not an account has the address, and whether or not its email
/// was held back by a limit.
fn reset_mailed() -> Response {
    let body = "<h1>Check your email</h1><p>If an account has that address, a link to reset its \
                password is on its way. It works for a day.</p>";
    html_page(StatusCode::OK, "Check your email", body)
}

/// Past the address's limit on emails (Zulip's `sends_email_by_ip`): 429, with `Retry-After`.
fn too_many_requests(limited: &ApiError) -> Response {
    let mut page = html_page(
        StatusCode::TOO_MANY_REQUESTS,
        "Too many requests",
        "<h1>Too many requests</h1><p>You have asked for too many emails from this address. Please \
         try again later.</p>",
    );
    let seconds = limited.extra.get("retry-after").and_then(|s| s.as_f64()).unwrap_or(60.0);
    page.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(seconds.ceil() as u64));
    page
}

/// `GET /accounts/password/reset/{user_id}/{key}/`: the form for the new password, or why the
/// link does not work.
pub(super) async fn show_reset_form(
    State(state): State<AppState>,
    Path((user, key)): Path<(String, String)>,
    request: ApiRequest,
) -> Response {
    match account(&state, request, &user, &key).await {
        Ok(Some(_)) => password_form(None),
        Ok(None) => link_refused(),
        Err(err) => failed(&err),
    }
}

/// `POST /accounts/password/reset/{user_id}/{key}/`: `password`. Sets it and uses the link up.
pub(super) async fn reset_password(
    State(state): State<AppState>,
    Path((user, key)): Path<(String, String)>,
    request: ApiRequest,
) -> Response {
    let password: ApiResult<String> = request.params.required("password");
    let (realm, account) = match account(&state, request, &user, &key).await {
        Ok(Some(found)) => found,
        Ok(None) => return link_refused(),
        Err(err) => return failed(&err),
    };
    let password = match password.and_then(|p| signup::check_password(&p).map(|()| p)) {
        Ok(password) => password,
        Err(err) => return password_form(Some(&err.msg)),
    };
    // Hashing is slow by design: off the async threads.
    let hashed = tokio::task::spawn_blocking(move || secrets::hash_password(&password)).await;
    let hash = match hashed {
        Ok(Ok(hash)) => hash,
        Ok(Err(e)) => return failed(&ApiError::internal(e)),
        Err(join) => return failed(&ApiError::internal(join)),
    };
    let realm_url = state.site.realm_url(&realm.subdomain);
    let email = account.delivery_email.clone();
    let done = state
        .writer
        .submit(Box::new(move |tables| {
            password_reset::reset_password(tables, &realm, account.id, &key, hash, now())
        }))
        .await;
    match done {
        Ok(_) => {
            let body = format!(
                "<h1>Your password is changed</h1><p>Sign in at <a href=\"{url}/login/\">{url}/login/</a> \
                 as <strong>{email}</strong> with your new password.</p>",
                url = escape(&realm_url),
                email = escape(&email),
            );
            html_page(StatusCode::OK, "Password changed", &body)
        }
        Err(err) if err.code == confab_core::ErrorCode::BadRequest => link_refused(),
        Err(err) => failed(&err),
    }
}

/// The organization the request is for and the account the link resets, if it works.
async fn account(
    state: &AppState,
    request: ApiRequest,
    user: &str,
    key: &str,
) -> ApiResult<Option<(Realm, confab_core::model::User)>> {
    let Ok(user) = user.parse::<u64>() else { return Ok(None) };
    let (store, key) = (state.store.clone(), key.to_owned());
    tokio::task::spawn_blocking(move || {
        store.read(|tables| {
            let realm = host_organization(tables, &request)?.valid()?;
            if realm.deactivated {
                return Err(ApiError::realm_deactivated());
            }
            let account = password_reset::account_for_link(tables, &realm, UserId(user), &key, now())?;
            Ok(account.map(|account| (realm, account)))
        })
    })
    .await
    .map_err(ApiError::internal)?
}

fn password_form(error: Option<&str>) -> Response {
    let status = if error.is_some() { StatusCode::BAD_REQUEST } else { StatusCode::OK };
    let error =
        error.map(|e| format!("<p class=\"error\" role=\"alert\">{}</p>", escape(e))).unwrap_or_default();
    let body = format!(
        "<h1>Choose a new password</h1>{error}<form method=\"post\"><label>New password \
         <input name=\"password\" type=\"password\" autocomplete=\"new-password\" minlength=\"{min}\" \
         required></label><button type=\"submit\">Change the password</button></form>",
        min = signup::PASSWORD_MIN_LENGTH,
    );
    html_page(status, "Choose a new password", &body)
}

fn link_refused() -> Response {
    let body = "<h1>This password reset link has expired or been used.</h1>\
                <p><a href=\"/accounts/password/reset/\">Ask for a new one.</a></p>";
    html_page(StatusCode::NOT_FOUND, "Password reset", body)
}

fn failed(err: &ApiError) -> Response {
    if err.code == confab_core::ErrorCode::InternalError {
        tracing::error!(detail = ?err.extra.get("detail"), "internal error on the password reset page");
    }
    let status = StatusCode::from_u16(err.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    html_page(status, "Password reset", &format!("<h1>{}</h1>", escape(&err.msg)))
}
