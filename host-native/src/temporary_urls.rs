//! Zulip's temporary download URLs (`/user_uploads/temporary/TOKEN/NAME`, good for 60 seconds),
//! as signed tokens rather than a table in memory: any server that shares the uploads
//! directory can check one, whichever server made it, since the key is a file in that
//! directory. A token is the path id, the expiry time and an HMAC-SHA256 of both, each in
//! URL-safe base64 or digits, joined by dots.

use std::io::Write;
use std::path::Path;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// The key's file in the uploads directory; hidden, so it is never taken for an upload.
pub const KEY_FILE: &str = ".temporary-url-key";
const KEY_BYTES: usize = 32;

/// Signs and checks tokens with the uploads directory's key.
pub struct UrlSigner {
    key: [u8; KEY_BYTES],
}

impl UrlSigner {
    /// The key in `uploads`, made (random) if there is none yet. Servers starting together on
    /// one shared directory agree: the key is written aside and linked into place, which
    /// fails for all but the first, and the others read the first one's.
    pub fn load_or_create(uploads: &Path) -> std::io::Result<UrlSigner> {
        let path = uploads.join(KEY_FILE);
        if let Some(signer) = UrlSigner::read(&path)? {
            return Ok(signer);
        }
        std::fs::create_dir_all(uploads)?;
        let mut key = [0u8; KEY_BYTES];
        getrandom::fill(&mut key).map_err(random_failed)?;
        let aside = uploads
            .join(format!("{KEY_FILE}.{}", crate::secrets::random_alphanumeric(16).map_err(random_failed)?));
        let mut file = std::fs::File::create_new(&aside)?;
        file.write_all(&key)?;
        file.sync_all()?;
        let linked = std::fs::hard_link(&aside, &path);
        std::fs::remove_file(&aside)?;
        match linked {
            Ok(()) => Ok(UrlSigner { key }),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => UrlSigner::read(&path)?
                .ok_or_else(|| std::io::Error::other(format!("{} vanished", path.display()))),
            Err(e) => Err(e),
        }
    }

    fn read(path: &Path) -> std::io::Result<Option<UrlSigner>> {
        match std::fs::read(path) {
            Ok(bytes) => match <[u8; KEY_BYTES]>::try_from(bytes.as_slice()) {
                Ok(key) => Ok(Some(UrlSigner { key })),
                Err(_) => {
                    Err(std::io::Error::other(format!("{} is not a {KEY_BYTES}-byte key", path.display())))
                }
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// A token that opens `path_id` until UNIX second `expires`.
    pub fn sign(&self, path_id: &str, expires: i64) -> String {
        let tag = self.mac(path_id, expires).finalize().into_bytes();
        format!("{}.{expires}.{}", URL_SAFE_NO_PAD.encode(path_id), URL_SAFE_NO_PAD.encode(tag))
    }

    /// The path id a token opens, if this key signed it and it has not expired at `now`.
    pub fn open(&self, token: &str, now: i64) -> Option<String> {
        let mut parts = token.split('.');
        let (path, expires, tag) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() {
            return None;
        }
        let path_id = String::from_utf8(URL_SAFE_NO_PAD.decode(path).ok()?).ok()?;
        let expires: i64 = expires.parse().ok()?;
        let tag = URL_SAFE_NO_PAD.decode(tag).ok()?;
        self.mac(&path_id, expires).verify_slice(&tag).ok()?;
        (now < expires).then_some(path_id)
    }

    fn mac(&self, path_id: &str, expires: i64) -> Hmac<Sha256> {
        // Any key length is valid for HMAC.
        let mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&self.key).expect("HMAC takes any key");
        // The path id never holds a NUL, so path and time cannot be confused.
        mac.chain_update(path_id.as_bytes()).chain_update([0]).chain_update(expires.to_be_bytes())
    }
}

fn random_failed(e: getrandom::Error) -> std::io::Error {
    std::io::Error::other(format!("no random bytes from the system: {e}"))
}

#[cfg(test)]
mod tests {
    use super::UrlSigner;

    #[test]
    fn a_token_opens_its_file_until_it_expires() {
        let dir = tempfile::tempdir().expect("a directory");
        let signer = UrlSigner::load_or_create(dir.path()).expect("a key");
        let token = signer.sign("2/ab/cdef/report.pdf", 1_060);
        assert_eq!(signer.open(&token, 1_000).as_deref(), Some("2/ab/cdef/report.pdf"));
        assert_eq!(signer.open(&token, 1_060), None, "expired");
    }

    #[test]
    fn another_server_on_the_same_directory_opens_it_and_a_changed_token_opens_nothing() {
        let dir = tempfile::tempdir().expect("a directory");
        let first = UrlSigner::load_or_create(dir.path()).expect("a key");
        let second = UrlSigner::load_or_create(dir.path()).expect("the same key");
        let token = first.sign("2/ab/cdef/report.pdf", 1_060);
        assert_eq!(second.open(&token, 1_000).as_deref(), Some("2/ab/cdef/report.pdf"));
        let later = token.replace(".1060.", ".9999.");
        assert_eq!(second.open(&later, 1_000), None, "a later expiry is not signed");
        let other = UrlSigner::load_or_create(tempfile::tempdir().expect("another").path()).expect("a key");
        assert_eq!(other.open(&token, 1_000), None, "another key");
        for junk in ["", "a.b", "a.1.b.c", "!!.1.!!"] {
            assert_eq!(first.open(junk, 1_000), None, "{junk:?}");
        }
    }
}
