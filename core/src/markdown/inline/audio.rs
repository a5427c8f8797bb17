//! `![title](url)` for an audio file: an audio player (Zulip's inline audio, feature level
//! 405), `<audio controls preload="metadata" src="URL" title="title">` in the paragraph. The
//! syntax is what Zulip's compose box inserts for an uploaded audio file; for anything else,
//! or with a quoted link title, `![…](…)` stays text, as before.

use super::Elem;

/// Zulip's `AUDIO_INLINE_MIME_TYPES`, by the extensions Python's `mimetypes` (with Zulip's
/// additions) guesses them from: AAC, FLAC, MP4 audio, MPEG audio, WAV and WebM audio.
const AUDIO_EXTENSIONS: &[&str] =
    &["aac", "adts", "loas", "flac", "m4a", "mp3", "mp2", "mpga", "wav", "weba"];

/// Whether a URL names an audio file browsers play inline, by its path's extension (as
/// `guess_type` reads a URL: the query and fragment are not part of the name).
pub(super) fn is_playable_audio(url: &str) -> bool {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.')
        .is_some_and(|(_, extension)| AUDIO_EXTENSIONS.contains(&extension.to_ascii_lowercase().as_str()))
}

/// The player for a sanitized `src`; an empty title is left out.
pub(super) fn audio_player(src: String, title: &str) -> Elem {
    let mut player =
        Elem::atomic("audio", "").attr("controls", "controls").attr("preload", "metadata").attr("src", src);
    let title = title.trim();
    if !title.is_empty() {
        player = player.attr("title", title);
    }
    player
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn audio_is_told_by_extension() {
        assert!(is_playable_audio("/user_uploads/2/f2/a/crab-rave.mp3"));
        assert!(is_playable_audio("https://example.com/Song.FLAC?download=1"));
        assert!(!is_playable_audio("/user_uploads/2/f2/a/movie.mp4"));
        assert!(!is_playable_audio("/user_uploads/2/f2/a/notes"));
        assert!(!is_playable_audio("https://example.com/a.mp3.html"));
    }
}
