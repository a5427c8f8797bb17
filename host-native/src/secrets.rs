//! Secrets: API keys from the OS's randomness, and argon2 password hashes.

use argon2::Argon2;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};

const ALPHANUMERIC: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// A random alphanumeric string. Rejection sampling keeps every character equally likely.
pub fn random_alphanumeric(len: usize) -> Result<String, getrandom::Error> {
    let mut out = String::with_capacity(len);
    let mut buf = [0u8; 64];
    while out.len() < len {
        getrandom::fill(&mut buf)?;
        for &byte in &buf {
            // 62 * 4 = 248: bytes at or above it would bias the first characters.
            if byte < 248 && out.len() < len {
                out.push(ALPHANUMERIC[(byte % 62) as usize] as char);
            }
        }
    }
    Ok(out)
}

/// A new API key: 32 alphanumeric characters, as Zulip's.
pub fn new_api_key() -> Result<String, getrandom::Error> {
    random_alphanumeric(32)
}

/// A new event queue id: 128 random bits in UUID form, so ids cannot be guessed.
pub fn queue_id() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)?;
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    Ok(format!("{}-{}-{}-{}-{}", &hex[0..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..32]))
}

/// Hashes a password with argon2id and a random salt (from the OS), as a PHC string.
pub fn hash_password(password: &str) -> Result<String, String> {
    Argon2::default().hash_password(password.as_bytes()).map(|h| h.to_string()).map_err(|e| e.to_string())
}

/// Checks a password against a PHC string; a malformed hash never matches.
pub fn verify_password(password: &str, phc: &str) -> bool {
    Argon2::default().verify_password(password.as_bytes(), phc).is_ok()
}

/// Compares two secrets in time independent of where they differ.
pub fn constant_time_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_keys_are_32_alphanumerics() {
        let key = new_api_key().unwrap_or_default();
        assert_eq!(key.len(), 32);
        assert!(key.chars().all(|c| c.is_ascii_alphanumeric()));
    }

    #[test]
    fn passwords_verify_only_against_their_own_hash() {
        let hash = hash_password("correct horse").unwrap_or_default();
        assert!(verify_password("correct horse", &hash));
        assert!(!verify_password("wrong", &hash));
        assert!(!verify_password("x", "not a hash"));
    }
}
