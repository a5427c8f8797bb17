//! Secrets: API keys from the OS's randomness, and argon2 password hashes.

use std::sync::{Arc, Mutex, OnceLock};

use argon2::password_hash::PasswordHasher;
use argon2::password_hash::phc::PasswordHash;
use argon2::{Algorithm, Argon2, Block, Params, Version};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

const ALPHANUMERIC: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// A random alphanumeric string. Rejection sampling keeps every character equally likely.
pub fn random_alphanumeric(len: usize) -> Result<String, getrandom::Error> {
    random_string(ALPHANUMERIC, len)
}

/// `len` characters drawn evenly from `alphabet` (at most 256 of them): bytes at or above the
/// largest multiple of its size are skipped, as they would make the first characters likelier.
fn random_string(alphabet: &[u8], len: usize) -> Result<String, getrandom::Error> {
    let unbiased = 256 / alphabet.len() * alphabet.len();
    let mut out = String::with_capacity(len);
    let mut buf = [0u8; 64];
    while out.len() < len {
        getrandom::fill(&mut buf)?;
        for &byte in buf.iter().filter(|b| usize::from(**b) < unbiased) {
            if out.len() < len {
                out.push(alphabet[usize::from(byte) % alphabet.len()] as char);
            }
        }
    }
    Ok(out)
}

/// A new API key: 32 alphanumeric characters, as Zulip's.
pub fn new_api_key() -> Result<String, getrandom::Error> {
    random_alphanumeric(32)
}

/// A new invitation's confirmation key: 24 characters of lower-case letters and digits, as
/// Zulip's (`generate_key`, 120 random bits in base32) are about as hard to guess.
pub fn confirmation_key() -> Result<String, getrandom::Error> {
    random_string(b"abcdefghijklmnopqrstuvwxyz0123456789", 24)
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

/// Password checks with bounded memory. An argon2 check fills its whole memory cost (19 MiB at
/// the default parameters); run on any blocking thread with a fresh buffer each time, a burst of
/// wrong logins took the resident set from 14 MB to 2.2 GB, kept by the allocator's per-thread
/// arenas. Here at most `at_once` checks run together, each in a buffer kept for the next
/// check, so checking passwords never holds more than `at_once` buffers, whatever clients send.
pub struct PasswordChecks {
    turns: Arc<Semaphore>,
    /// Buffers not in use; never more than `at_once`.
    spare: Mutex<Vec<Vec<Block>>>,
}

impl PasswordChecks {
    pub fn new(at_once: usize) -> Arc<PasswordChecks> {
        Arc::new(PasswordChecks { turns: Arc::new(Semaphore::new(at_once.max(1))), spare: Mutex::default() })
    }

    /// One check per core: more at once would only share the cores and hold more memory.
    pub fn one_per_core() -> Arc<PasswordChecks> {
        Self::new(std::thread::available_parallelism().map_or(1, usize::from))
    }

    /// Waits for a turn (in arrival order) and its buffer.
    pub async fn turn(self: &Arc<Self>) -> PasswordTurn {
        // The semaphore is never closed.
        let permit = self.turns.clone().acquire_owned().await.ok();
        let memory = self.spare.lock().ok().and_then(|mut spare| spare.pop()).unwrap_or_default();
        PasswordTurn { checks: self.clone(), memory, _permit: permit }
    }
}

/// The right to check passwords, with the memory to do it in; both go back when dropped.
pub struct PasswordTurn {
    checks: Arc<PasswordChecks>,
    memory: Vec<Block>,
    _permit: Option<OwnedSemaphorePermit>,
}

impl PasswordTurn {
    /// Checks a password against a PHC string; a malformed hash never matches.
    pub fn verify(&mut self, password: &str, phc: &str) -> bool {
        let Ok(hash) = PasswordHash::new(phc) else { return false };
        let (Some(salt), Some(expected)) = (&hash.salt, &hash.hash) else { return false };
        let Ok(algorithm) = Algorithm::try_from(hash.algorithm.as_str()) else { return false };
        let Ok(version) = hash.version.map_or(Ok(Version::default()), Version::try_from) else {
            return false;
        };
        let Ok(params) = Params::try_from(&hash) else { return false };
        self.memory.resize(params.block_count(), Block::new());
        let mut computed = vec![0u8; expected.len()];
        Argon2::new(algorithm, version, params)
            .hash_password_into_with_memory(
                password.as_bytes(),
                salt.as_ref(),
                &mut computed,
                &mut self.memory[..],
            )
            .is_ok()
            && constant_time_eq_bytes(&computed, expected.as_bytes())
    }

    /// Checks a password against an account's hash, or, for a username without one (no such
    /// account, or no password), against a stand-in hash made with the same parameters, so
    /// that the answer takes as long whether or not the account exists. Never true without a
    /// hash.
    pub fn verify_or_stand_in(&mut self, password: &str, phc: Option<&str>) -> bool {
        match phc {
            Some(phc) => self.verify(password, phc),
            None => {
                self.verify(password, stand_in_hash());
                false
            }
        }
    }
}

/// A hash of no one's password, made as passwords are (argon2id with the default parameters).
fn stand_in_hash() -> &'static str {
    static STAND_IN: OnceLock<String> = OnceLock::new();
    STAND_IN.get_or_init(|| {
        Argon2::default()
            .hash_password_with_salt(b"no account has this password", b"a stand-in salt.")
            .map(|hash| hash.to_string())
            .unwrap_or_default()
    })
}

impl Drop for PasswordTurn {
    fn drop(&mut self) {
        if let Ok(mut spare) = self.checks.spare.lock() {
            spare.push(std::mem::take(&mut self.memory));
        }
    }
}

/// Compares two secrets in time independent of where they differ.
pub fn constant_time_eq(a: &str, b: &str) -> bool {
    constant_time_eq_bytes(a.as_bytes(), b.as_bytes())
}

fn constant_time_eq_bytes(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A BigBlueButton meeting number as Zulip draws one: twelve digits.
pub fn meeting_number() -> Result<u64, getrandom::Error> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes)?;
    Ok(100_000_000_000 + u64::from_le_bytes(bytes) % 900_000_000_000)
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
    fn confirmation_keys_are_24_lower_case_letters_and_digits() {
        let key = confirmation_key().unwrap_or_default();
        assert_eq!(key.len(), 24);
        assert!(key.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()));
    }

    #[tokio::test]
    async fn passwords_verify_only_against_their_own_hash() {
        let hash = hash_password("correct horse").unwrap_or_default();
        let mut turn = PasswordChecks::new(1).turn().await;
        assert!(turn.verify("correct horse", &hash));
        assert!(!turn.verify("wrong", &hash));
        assert!(!turn.verify("x", "not a hash"));
    }

    #[tokio::test]
    async fn checks_wait_their_turn_and_reuse_their_memory() {
        let checks = PasswordChecks::new(1);
        let hash = hash_password("correct horse").unwrap_or_default();
        let mut first = checks.turn().await;
        assert!(first.verify("correct horse", &hash));
        let second = checks.turn();
        tokio::pin!(second);
        assert!(futures_poll_once(second.as_mut()).await.is_none(), "one check at a time");
        let used = first.memory.as_ptr();
        drop(first);
        let second = second.await;
        assert_eq!(second.memory.as_ptr(), used, "the buffer is kept for the next check");
        assert_eq!(checks.spare.lock().map(|s| s.len()).unwrap_or(9), 0);
    }

    #[tokio::test]
    async fn a_username_without_a_password_runs_the_same_check_on_a_stand_in_hash() {
        let real = hash_password("correct horse").unwrap_or_default();
        let (real, stand_in) = (PasswordHash::new(&real), PasswordHash::new(stand_in_hash()));
        let (Ok(real), Ok(stand_in)) = (real, stand_in) else { panic!("both are PHC strings") };
        assert_eq!(stand_in.algorithm, real.algorithm);
        assert_eq!(stand_in.version, real.version);
        assert_eq!(Params::try_from(&stand_in).ok(), Params::try_from(&real).ok(), "the same cost");
        let mut turn = PasswordChecks::new(1).turn().await;
        assert!(!turn.verify_or_stand_in("no account has this password", None), "never a match");
        assert_eq!(turn.memory.len(), Params::default().block_count(), "the whole memory was filled");
    }

    /// Polls a future once: `None` if it is still waiting.
    async fn futures_poll_once<F: Future + Unpin>(future: F) -> Option<F::Output> {
        let mut future = future;
        std::future::poll_fn(|cx| {
            std::task::Poll::Ready(match std::pin::Pin::new(&mut future).poll(cx) {
                std::task::Poll::Ready(output) => Some(output),
                std::task::Poll::Pending => None,
            })
        })
        .await
    }
}
