//! Zulip's default external accounts (`zerver/lib/external_accounts.py`): services an
//! administrator picks by `subtype` for an external-account field, whose label, hint and link
//! pattern then come from this table rather than from the request.

use serde_json::{Map, Value, json};

/// One service: `(subtype, text shown to administrators, field label, hint, URL pattern)`. A
/// pattern of `%(username)s` alone means users enter a whole URL; an empty one, plain text.
pub const DEFAULT_EXTERNAL_ACCOUNTS: &[(&str, &str, &str, &str, &str)] = &[
    ("behance", "Behance", "Behance username", "", "https://www.behance.net/%(username)s"),
    ("bitbucket", "Bitbucket", "Bitbucket username", "", "https://bitbucket.org/%(username)s"),
    ("bluesky", "Bluesky", "Bluesky handle", "", "https://bsky.app/profile/%(username)s"),
    ("codeberg", "Codeberg", "Codeberg username", "", "https://codeberg.org/%(username)s"),
    ("discord", "Discord", "Discord tag", "", ""),
    ("dribbble", "Dribbble", "Dribbble username", "", "https://dribbble.com/%(username)s"),
    ("facebook", "Facebook", "Facebook username", "", "https://www.facebook.com/%(username)s"),
    ("github", "GitHub", "GitHub username", "", "https://github.com/%(username)s"),
    ("gitlab", "GitLab", "GitLab username", "", "https://gitlab.com/%(username)s"),
    ("instagram", "Instagram", "Instagram username", "", "https://www.instagram.com/%(username)s"),
    ("linkedin", "LinkedIn", "LinkedIn profile name", "", "https://www.linkedin.com/in/%(username)s"),
    ("mastodon", "Mastodon", "Mastodon profile", "The full URL to your profile", "%(username)s"),
    ("medium", "Medium", "Medium username", "", "https://%(username)s.medium.com"),
    ("pinterest", "Pinterest", "Pinterest username", "", "https://www.pinterest.com/%(username)s"),
    ("reddit", "Reddit", "Reddit username", "", "https://www.reddit.com/user/%(username)s"),
    ("snapchat", "Snapchat", "Snapchat username", "", "https://www.snapchat.com/@%(username)s"),
    ("threads", "Threads", "Threads username", "", "https://www.threads.com/@%(username)s"),
    ("tiktok", "TikTok", "TikTok username", "", "https://www.tiktok.com/@%(username)s"),
    ("twitch", "Twitch", "Twitch username", "", "https://www.twitch.tv/%(username)s"),
    ("x", "X", "X username", "", "https://x.com/%(username)s"),
    ("youtube", "YouTube", "YouTube handle", "", "https://www.youtube.com/%(username)s"),
];

/// The label and hint of a default service.
pub fn default_account(subtype: &str) -> Option<(&'static str, &'static str)> {
    DEFAULT_EXTERNAL_ACCOUNTS.iter().find(|a| a.0 == subtype).map(|a| (a.2, a.3))
}

/// `realm_default_external_accounts` in register.
pub fn default_external_accounts_json() -> Value {
    let mut accounts = Map::new();
    for (subtype, text, name, hint, url_pattern) in DEFAULT_EXTERNAL_ACCOUNTS {
        accounts.insert(
            (*subtype).to_owned(),
            json!({"text": text, "url_pattern": url_pattern, "name": name, "hint": hint}),
        );
    }
    Value::Object(accounts)
}
