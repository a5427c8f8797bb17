//! Invitations (`api::invites`): the API routes, and the sign-up page a link opens.
//!
//! The page is a small form rendered here, not a view of the browser client: it is the one
//! page someone without an account sees, it needs no engine, and it must work where the
//! client's scripts do not load. `GET` shows the form (or why the link does not work); `POST`
//! creates the account and says how to sign in.

use confab_core::api::invites::signup::{self, SignUp};
use confab_core::ids::UserId;

use super::pages::escape;
use super::*;

pub(super) async fn get_invites(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, |t, actor, _| api::invites::get_invites(t, actor, now())).await
}

pub(super) async fn send_invites(State(state): State<AppState>, request: ApiRequest) -> Response {
    // One key per address the list may hold; those left over are never used.
    let addresses = request.params.raw("invitee_emails").map_or(0, |raw| raw.split([',', '\n']).count());
    let keys: Result<Vec<String>, _> = (0..addresses).map(|_| secrets::confirmation_key()).collect();
    let keys = match keys {
        Ok(keys) => keys,
        Err(e) => return respond::error(&ApiError::internal(e)),
    };
    let result = durable_outcome(state, request, move |t, actor, params, now| {
        api::invites::send_invites(t, actor, params, keys, now)
    })
    .await;
    // Some addresses were invited and others refused: the invitations are made, and the
    // answer is Zulip's error naming the refused ones.
    match result {
        Ok(mut outcome) => match api::invites::take_partial_refusal(&mut outcome) {
            Some(refusal) => respond::error(&refusal),
            None => respond::outcome(Ok(outcome)),
        },
        Err(err) => respond::error(&err),
    }
}

/// A numeric invitation id from a path segment; anything else names no invitation.
fn invite_id(segment: &str) -> ApiResult<u64> {
    segment.parse().map_err(|_| ApiError::bad_request("No such invitation"))
}

pub(super) async fn revoke_email_invite(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, _, _| {
        api::invites::revoke_email_invite(t, actor, invite_id(&id)?)
    })
    .await
}

pub(super) async fn resend_email_invite(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, _, _| {
        api::invites::resend_email_invite(t, actor, invite_id(&id)?)
    })
    .await
}

pub(super) async fn create_invite_link(State(state): State<AppState>, request: ApiRequest) -> Response {
    let key = match secrets::confirmation_key() {
        Ok(key) => key,
        Err(e) => return respond::error(&ApiError::internal(e)),
    };
    command(state, request, move |t, actor, params, now| {
        api::invites::create_invite_link(t, actor, params, key, now)
    })
    .await
}

pub(super) async fn revoke_invite_link(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, _, _| api::invites::revoke_invite_link(t, actor, invite_id(&id)?))
        .await
}

/// What the sign-up page shows for a link.
enum JoinPage {
    Form { realm: Box<Realm>, email: Option<String>, error: Option<String> },
    Refused { status: StatusCode, text: String },
    Joined { realm_url: String, email: String },
}

/// `GET /join/{key}/` and `GET /accounts/do_confirm/{key}`: the form, or why the link does
/// not work.
pub(super) async fn show_join_page(
    State(state): State<AppState>,
    Path(key): Path<String>,
    request: ApiRequest,
) -> Response {
    let store = state.store.clone();
    let page =
        tokio::task::spawn_blocking(move || store.read(|tables| join_form(tables, &request, &key))).await;
    match page {
        Ok(Ok(page)) => render(page),
        Ok(Err(err)) => render(refused(&err)),
        Err(join) => render(refused(&ApiError::internal(join))),
    }
}

/// The form for a link that works.
fn join_form(tables: &ReadTables, request: &ApiRequest, key: &str) -> ApiResult<JoinPage> {
    let realm = host_organization(tables, request)?.valid()?;
    if realm.deactivated {
        return Err(ApiError::realm_deactivated());
    }
    Ok(match signup::invitation_for_link(tables, realm.id, key, now())? {
        Ok(invitation) => JoinPage::Form { realm: Box::new(realm), email: invitation.email, error: None },
        Err(refusal) => JoinPage::Refused { status: StatusCode::NOT_FOUND, text: refusal.text().to_owned() },
    })
}

fn refused(err: &ApiError) -> JoinPage {
    if err.code == confab_core::ErrorCode::InternalError {
        tracing::error!(detail = ?err.extra.get("detail"), "internal error on the sign-up page");
    }
    let status = StatusCode::from_u16(err.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    JoinPage::Refused { status, text: err.msg.clone() }
}

/// `POST /join/{key}/` and `POST /accounts/do_confirm/{key}`: `full_name`, `password` and,
/// for a reusable link, `email`. Creates the account; a refusal shows the form again with it.
pub(super) async fn join(
    State(state): State<AppState>,
    Path(key): Path<String>,
    request: ApiRequest,
) -> Response {
    let store = state.store.clone();
    let (form_key, site) = (key.clone(), state.site.clone());
    // The link and the form are checked, and the password hashed (slow by design), before
    // the writer sees the command; the writer checks the link again.
    let prepared = tokio::task::spawn_blocking(move || {
        let page = store.read(|tables| join_form(tables, &request, &form_key))?;
        let JoinPage::Form { realm, email, .. } = page else { return Ok(Err(page)) };
        let invited_by_email = email.is_some();
        let attempt = || -> ApiResult<SignUp> {
            let full_name: String = request.params.required("full_name")?;
            let password: String = request.params.required("password")?;
            let given =
                if invited_by_email { None } else { Some(request.params.required::<String>("email")?) };
            signup::check_password(&password)?;
            Ok(SignUp {
                full_name,
                email: given,
                api_key: secrets::new_api_key().map_err(ApiError::internal)?,
                password_hash: secrets::hash_password(&password).map_err(ApiError::internal)?,
            })
        };
        let form = attempt();
        Ok::<_, ApiError>(Ok((*realm, email, form)))
    })
    .await;
    let (realm, email, form) = match prepared {
        Ok(Ok(Ok(prepared))) => prepared,
        Ok(Ok(Err(page))) => return render(page),
        Ok(Err(err)) => return render(refused(&err)),
        Err(join) => return render(refused(&ApiError::internal(join))),
    };
    let form = match form {
        Ok(form) => form,
        Err(err) => return render(JoinPage::Form { realm: Box::new(realm), email, error: Some(err.msg) }),
    };
    // Places in the writer's queue for sign-ups are shared, as nobody is signed in yet.
    let _ticket = match state.writes.admit(UserId(0)) {
        Ok(ticket) => ticket,
        Err(err) => return respond::error(&err),
    };
    let (signing_realm, signing_key) = (realm.clone(), key.clone());
    let signing_url = site.realm_url(&realm.subdomain);
    let signed_up = state
        .writer
        .submit(Box::new(move |tables| {
            signup::sign_up(tables, &signing_realm, &signing_url, &signing_key, form, now())
        }))
        .await;
    let outcome = match signed_up {
        Ok(outcome) => outcome,
        Err(err) if err.code == confab_core::ErrorCode::InternalError => return render(refused(&err)),
        Err(err) => return render(JoinPage::Form { realm: Box::new(realm), email, error: Some(err.msg) }),
    };
    let (user_id, joined_email) = (
        UserId(outcome.reply.get("user_id").and_then(serde_json::Value::as_u64).unwrap_or_default()),
        outcome.reply.get("email").and_then(serde_json::Value::as_str).unwrap_or_default().to_owned(),
    );
    let realm_url = site.realm_url(&realm.subdomain);
    let notifying = (realm.clone(), realm_url.clone());
    // The account is durable; welcoming the new user and telling the inviter is a command of
    // its own (its messages are to and about the new account), and its failure leaves the
    // account as it is.
    let notified = state
        .writer
        .submit(Box::new(move |tables| {
            signup::after_sign_up(tables, &notifying.0, &notifying.1, &key, user_id, now())
        }))
        .await;
    if let Err(err) = notified {
        tracing::warn!("telling the inviter that user {user_id} joined failed: {}", err.msg);
    }
    render(JoinPage::Joined { realm_url, email: joined_email })
}

fn render(page: JoinPage) -> Response {
    let (status, title, body) = match page {
        JoinPage::Form { realm, email, error } => {
            let error = error
                .map(|e| format!("<p class=\"error\" role=\"alert\">{}</p>", escape(&e)))
                .unwrap_or_default();
            let email_field = match email {
                Some(email) => format!("<p>Your email: <strong>{}</strong></p>", escape(&email)),
                None => "<label>Email <input name=\"email\" type=\"email\" autocomplete=\"email\" required></label>"
                    .to_owned(),
            };
            let status = if error.is_empty() { StatusCode::OK } else { StatusCode::BAD_REQUEST };
            let body = format!(
                "<h1>Join {name}</h1>{error}<form method=\"post\">{email_field}\
                 <label>Full name <input name=\"full_name\" autocomplete=\"name\" required></label>\
                 <label>Password <input name=\"password\" type=\"password\" autocomplete=\"new-password\" \
                 minlength=\"{min}\" required></label><button type=\"submit\">Sign up</button></form>",
                name = escape(&realm.name),
                min = signup::PASSWORD_MIN_LENGTH,
            );
            (status, "Sign up", body)
        }
        JoinPage::Refused { status, text } => (status, "Invitation", format!("<h1>{}</h1>", escape(&text))),
        JoinPage::Joined { realm_url, email } => {
            let body = format!(
                "<h1>Your account is ready</h1><p>Sign in at <a href=\"{url}/login/\">{url}/login/</a> \
                 as <strong>{email}</strong> with the password you chose. Zulip apps and clients sign in \
                 with the same email and password (they fetch your API key with <code>POST \
                 /api/v1/fetch_api_key</code>).</p>",
                url = escape(&realm_url),
                email = escape(&email),
            );
            (StatusCode::OK, "Welcome", body)
        }
    };
    super::pages::html_page(status, title, &body)
}
