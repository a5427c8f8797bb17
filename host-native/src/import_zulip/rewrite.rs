//! What changes in imported text: ids in the rendered HTML (mentions of users, channels and
//! groups carry their ids, as Zulip's import rewrites them) and the paths of uploaded files,
//! which name the organization and so move with it. Passwords' Django hashes become the PHC
//! strings Confab verifies.

use std::collections::HashMap;

/// Replaces the ids in every `attribute="ID"` of the HTML by their new ids; ids the map does
/// not know, and values that are not ids (`data-user-id="*"`), stay.
pub fn remap_attribute(html: &str, attribute: &str, ids: &HashMap<u64, u64>) -> String {
    let opening = format!("{attribute}=\"");
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find(&opening) {
        let value_start = at + opening.len();
        out.push_str(&rest[..value_start]);
        rest = &rest[value_start..];
        let end = rest.find('"').unwrap_or(rest.len());
        match rest[..end].parse::<u64>().ok().and_then(|old| ids.get(&old)) {
            Some(new) => out.push_str(&new.to_string()),
            None => out.push_str(&rest[..end]),
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// Replaces links to uploaded files (`/user_uploads/OLD`, thumbnails included) by their new
/// paths.
pub fn remap_uploads(text: &str, paths: &[(String, String)]) -> String {
    let mut text = text.to_owned();
    for (old, new) in paths {
        if text.contains(old.as_str()) {
            text = text.replace(&format!("/user_uploads/{old}"), &format!("/user_uploads/{new}")).replace(
                &format!("/user_uploads/thumbnail/{old}/"),
                &format!("/user_uploads/thumbnail/{new}/"),
            );
        }
    }
    text
}

/// The PHC string of a Django password hash Confab can verify: Django's argon2 hasher writes
/// `argon2` before the PHC string argon2-cffi made. Other hashers' (Zulip's older PBKDF2) give
/// `None`, and their users set a new password.
pub fn password_phc(django: &str) -> Option<String> {
    let phc = django.strip_prefix("argon2")?;
    argon2::password_hash::phc::PasswordHash::new(phc).ok()?;
    Some(phc.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mention_ids_follow_the_map_and_others_stay() {
        let ids = HashMap::from([(7, 70), (8, 80)]);
        let html = r#"<span class="user-mention" data-user-id="7">@A</span> <span data-user-id="*">@all</span> <span data-user-id="9">@C</span> data-user-id="8""#;
        assert_eq!(
            remap_attribute(html, "data-user-id", &ids),
            r#"<span class="user-mention" data-user-id="70">@A</span> <span data-user-id="*">@all</span> <span data-user-id="9">@C</span> data-user-id="80""#
        );
        assert_eq!(remap_attribute("data-user-id=\"7", "data-user-id", &ids), "data-user-id=\"70");
    }

    #[test]
    fn upload_links_and_their_thumbnails_move() {
        let paths = vec![("2/ab/cd/x.png".to_owned(), "5/Qw/Er/x.png".to_owned())];
        let html = r#"<a href="/user_uploads/2/ab/cd/x.png">x</a><img src="/user_uploads/thumbnail/2/ab/cd/x.png/840x560.webp">"#;
        assert_eq!(
            remap_uploads(html, &paths),
            r#"<a href="/user_uploads/5/Qw/Er/x.png">x</a><img src="/user_uploads/thumbnail/5/Qw/Er/x.png/840x560.webp">"#
        );
    }

    #[test]
    fn a_django_argon2_hash_verifies_its_password() {
        use argon2::password_hash::PasswordVerifier;
        let django = "argon2$argon2id$v=19$m=1024,t=1,p=1$c29tZXNhbHRzb21lc2FsdA$Qs+SHcNUsUvu8Va0a/6Y4qlRPAOQUEsYgdbInBgZIpg";
        let phc = password_phc(django).expect("an argon2 hash is kept");
        let hash = argon2::password_hash::phc::PasswordHash::new(&phc).expect("a PHC string");
        assert!(argon2::Argon2::default().verify_password(b"ada's old password", &hash).is_ok());
        assert!(argon2::Argon2::default().verify_password(b"another password", &hash).is_err());
    }

    #[test]
    fn argon2_hashes_verify_and_others_are_dropped() {
        let phc = "$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$9yVeJmKXi+LnbDFo3/sO1A";
        assert_eq!(password_phc(&format!("argon2{phc}")).as_deref(), Some(phc));
        assert_eq!(password_phc("pbkdf2_sha256$600000$salt$aGFzaA=="), None);
        assert_eq!(password_phc("argon2$not a hash"), None);
        assert_eq!(password_phc("!unusable"), None);
    }
}
