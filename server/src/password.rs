//! Staff passwords: argon2id hashes, a check that costs the same whether the account exists or not,
//! the pool of threads that run those checks with their memory reused, and the strength rules for
//! new passwords.

use crate::models::staff::Staff;
use argon2::password_hash::{Output, PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use rand::RngCore;
use std::sync::{Mutex, mpsc};
use tokio::sync::oneshot;

/// Passwords shorter than this are refused.
pub const MIN_PASSWORD_CHARS: usize = 12;

/// Hashes `password` with argon2id (the crate's defaults: 19 MiB, 2 passes). Slow on purpose: call
/// it off the async threads.
pub fn hash_password(password: &str) -> Result<String, argon2::password_hash::Error> {
    let mut salt = [0u8; 16];
    rand::rng().fill_bytes(&mut salt);
    let salt = SaltString::encode_b64(&salt)?;
    Ok(Argon2::default().hash_password(password.as_bytes(), &salt)?.to_string())
}

/// Whether `password` matches `stored` (a PHC string). Slow on purpose: off the async threads.
pub fn verify_password(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored).is_ok_and(|hash| Argon2::default().verify_password(password.as_bytes(), &hash).is_ok())
}

/// A hash of no one's password, verified when the e-mail has no account so that an unknown address
/// takes as long to refuse as a wrong password.
fn decoy_hash() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| {
        let mut secret = [0u8; 32];
        rand::rng().fill_bytes(&mut secret);
        hash_password(&String::from_utf8_lossy(&secret)).unwrap_or_default()
    })
}

/// Verifies `password` against the account's hash, or against a decoy when there is no account
/// (so an unknown e-mail takes as long as a wrong password), with argon2's working memory in
/// `memory`, grown once and reused.
fn check_login_in(account: Option<&Staff>, password: &str, memory: &mut Vec<Block>) -> bool {
    match account {
        Some(account) => verify_in(password, &account.password_hash, memory),
        None => {
            verify_in(password, decoy_hash(), memory);
            false
        }
    }
}

/// What [`verify_password`] does, with the 19 MiB of argon2's blocks in `memory` instead of a new
/// allocation per check.
fn verify_in(password: &str, stored: &str, memory: &mut Vec<Block>) -> bool {
    let Ok(hash) = PasswordHash::new(stored) else { return false };
    let (Some(salt), Some(expected)) = (hash.salt, hash.hash) else { return false };
    let (Ok(algorithm), Ok(params)) = (Algorithm::try_from(hash.algorithm), Params::try_from(&hash)) else {
        return false;
    };
    let Ok(version) = hash.version.map_or(Ok(Version::default()), Version::try_from) else { return false };
    let mut salt_bytes = [0u8; 64];
    let Ok(salt) = salt.decode_b64(&mut salt_bytes) else { return false };
    if memory.len() < params.block_count() {
        memory.resize(params.block_count(), Block::default());
    }
    let mut out = vec![0u8; expected.len()];
    let argon2 = Argon2::new(algorithm, version, params);
    // `Output`'s equality is constant-time.
    argon2.hash_password_into_with_memory(password.as_bytes(), salt, &mut out, &mut memory[..]).is_ok()
        && Output::new(&out).is_ok_and(|out| out == expected)
}

/// One password to check, and where to send the answer.
struct Check {
    account: Option<Staff>,
    password: String,
    answer: oneshot::Sender<Option<Staff>>,
}

/// How long a password-check thread keeps argon2's memory without a sign-in to check.
const IDLE: std::time::Duration = std::time::Duration::from_secs(5);

/// The threads that check passwords: a fixed number (one per core), each with argon2's memory
/// allocated at its first check and reused while sign-ins keep coming, so memory stays flat
/// however many arrive; the others wait in the queue, which holds only their passwords. After
/// [`IDLE`] without a sign-in a thread gives its memory back.
#[derive(Debug)]
pub struct PasswordChecks {
    queue: Mutex<mpsc::Sender<Check>>,
}

impl PasswordChecks {
    /// Starts `threads` checking threads.
    pub fn start(threads: usize) -> Self {
        let (sender, receiver) = mpsc::channel::<Check>();
        let receiver = std::sync::Arc::new(Mutex::new(receiver));
        for n in 0..threads.max(1) {
            let receiver = std::sync::Arc::clone(&receiver);
            let spawned = std::thread::Builder::new().name(format!("password-check-{n}")).spawn(move || {
                let mut memory = Vec::new();
                loop {
                    let next = receiver.lock().map(|queue| queue.recv_timeout(IDLE));
                    let check = match next {
                        Ok(Ok(check)) => check,
                        // Quiet for a while: argon2's memory goes back to the system until the
                        // next sign-in, so a flood of sign-ins leaves nothing behind.
                        Ok(Err(mpsc::RecvTimeoutError::Timeout)) => {
                            if !memory.is_empty() {
                                memory = Vec::new();
                            }
                            continue;
                        }
                        Ok(Err(mpsc::RecvTimeoutError::Disconnected)) | Err(_) => return,
                    };
                    let Check { account, password, answer } = check;
                    let ok = check_login_in(account.as_ref(), &password, &mut memory);
                    let _ = answer.send(account.filter(|account| ok && account.disabled_at.is_none()));
                }
            });
            if let Err(error) = spawned {
                tracing::error!(%error, "a password-check thread could not start");
            }
        }
        Self { queue: Mutex::new(sender) }
    }

    /// The account, if `password` is its password and it is not disabled; `None` otherwise (an
    /// unknown account takes as long as a wrong password).
    pub async fn verify(&self, account: Option<Staff>, password: String) -> Option<Staff> {
        let (answer, answered) = oneshot::channel();
        let queued = self.queue.lock().ok()?.send(Check { account, password, answer });
        queued.ok()?;
        answered.await.ok().flatten()
    }
}

/// Refuses a password that is easy to guess: too short or long, too few different characters, a
/// common word, or the e-mail's name.
pub fn check_password_strength(password: &str, email: &str) -> Result<(), String> {
    let length = password.chars().count();
    if length < MIN_PASSWORD_CHARS {
        return Err(format!("The password is too short: use at least {MIN_PASSWORD_CHARS} characters."));
    }
    if length > 128 {
        return Err("The password is too long: at most 128 characters.".to_owned());
    }
    let mut distinct: Vec<char> = password.chars().collect();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() < 6 {
        return Err("The password repeats too few characters: use at least 6 different ones.".to_owned());
    }
    let lower = password.to_lowercase();
    let name = email.split('@').next().unwrap_or_default().to_lowercase();
    if name.chars().count() >= 3 && lower.contains(&name) {
        return Err("The password must not contain the e-mail's name.".to_owned());
    }
    const COMMON: [&str; 12] = [
        "password", "passw0rd", "123456", "qwerty", "letmein", "welcome", "admin", "laundry", "iloveyou", "abc123",
        "111111", "nairobi",
    ];
    if let Some(word) = COMMON.iter().find(|word| lower.contains(*word)) {
        return Err(format!("The password must not contain a common word or sequence like '{word}'."));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_verifies_against_its_own_hash_only() {
        let hash = hash_password("correct horse battery").unwrap();
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(verify_password("correct horse battery", &hash));
        assert!(!verify_password("correct horse batterz", &hash));
        assert!(!verify_password("correct horse battery", "not a hash"));
    }

    #[test]
    fn weak_passwords_are_refused_with_the_reason() {
        let email = "wanjiru@example.com";
        assert!(check_password_strength("short1A!", email).unwrap_err().contains("at least 12"));
        assert!(check_password_strength("aaaaaabbbbbbcccc", email).unwrap_err().contains("6 different"));
        assert!(check_password_strength("Wanjiru-2026-ok!", email).unwrap_err().contains("e-mail"));
        assert!(check_password_strength("MyPassword-2026!", email).unwrap_err().contains("password"));
        assert!(check_password_strength("Tumbo-Ngoma-47-Kazi", email).is_ok());
    }

    #[test]
    fn a_check_in_reused_memory_agrees_with_argon2s_own_and_does_not_grow() {
        let hash = hash_password("correct horse battery").unwrap();
        let mut memory = Vec::new();

        assert!(verify_in("correct horse battery", &hash, &mut memory));
        let grown = memory.len();
        assert!(!verify_in("correct horse battery!", &hash, &mut memory));
        assert!(!verify_in("correct horse battery", "not a hash", &mut memory));

        assert_eq!(grown, 19 * 1024, "argon2's default 19 MiB, in 1 KiB blocks");
        assert_eq!(memory.len(), grown, "the second check reuses the memory");
        assert!(verify_password("correct horse battery", &hash));
    }
}
