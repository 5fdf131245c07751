//! Passwords: argon2id hashes, a check that costs the same whether the account exists or not,
//! and the strength rules for new passwords.

use super::MIN_PASSWORD_CHARS;
use super::session::random_token;
use crate::models::staff::Staff;
use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use rand::RngCore;

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
    DECOY.get_or_init(|| hash_password(&random_token()).unwrap_or_default())
}

/// Verifies `password` against the account's hash, or against a decoy when there is no account.
pub fn check_login(account: Option<&Staff>, password: &str) -> bool {
    match account {
        Some(account) => verify_password(password, &account.password_hash),
        None => {
            verify_password(password, decoy_hash());
            false
        }
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
}
