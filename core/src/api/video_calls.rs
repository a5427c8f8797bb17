//! POST /calls/zoom/create           make_zoom_video_call
//! POST /calls/bigbluebutton/create  get_bigbluebutton_url
//! GET  /calls/bigbluebutton/join    (the link the latter answers)
//!
//! Video calls, as a Zulip server answers with none of its integrations configured (Confab
//! has no Zoom or BigBlueButton credentials to configure): Zoom refuses in Zulip's words;
//! BigBlueButton's create answers a join link, as Zulip's does without looking at its
//! settings, and the link is then refused because BigBlueButton is not configured.

use serde_json::json;

use crate::command::{Actor, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::params::Params;

/// `POST /calls/zoom/create`: Zulip's `ZoomGeneralOAuthProvider` without a client id.
pub fn make_zoom_video_call(_actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    let _is_video_call: bool = params.or("is_video_call", true)?;
    Err(ApiError::bad_request("Zoom credentials have not been configured"))
}

/// `POST /calls/bigbluebutton/create`: a join link naming the meeting. Zulip signs the
/// meeting's details into the link with its secret key; here the link carries them unsigned,
/// since no BigBlueButton server will ever be asked to honour it.
pub fn get_bigbluebutton_url(actor: &Actor, params: &Params, meeting_id: u64) -> ApiResult<Outcome> {
    let meeting_name: String = params.required("meeting_name")?;
    let voice_only: bool = params.or("voice_only", false)?;
    let details = json!({
        "meeting_id": format!("zulip-{meeting_id}"),
        "name": meeting_name,
        "lock_settings_disable_cam": voice_only,
        "moderator": actor.user.id,
    });
    let encoded = base64_url(details.to_string().as_bytes());
    Ok(Outcome::default().reply("url", format!("/calls/bigbluebutton/join?bigbluebutton={encoded}")))
}

/// `GET /calls/bigbluebutton/join`: Zulip's refusal without `BIG_BLUE_BUTTON_URL`.
pub fn join_bigbluebutton() -> ApiError {
    ApiError::bad_request("BigBlueButton is not configured.")
}

/// URL-safe base64 without padding.
fn base64_url(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..=chunk.len() {
            out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn links_are_url_safe_base64() {
        assert_eq!(super::base64_url(b"Man"), "TWFu");
        assert_eq!(super::base64_url(b"Ma"), "TWE");
        assert_eq!(super::base64_url(b"\xfb\xff"), "-_8");
    }
}
