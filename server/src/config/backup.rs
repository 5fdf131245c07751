//! Scheduled backups from the environment: where, when and how many are kept (docs/backups.md).

use super::{ConfigError, invalid, whole_number_or};
use crate::domain::schedule::parse_minute;
use std::path::PathBuf;

/// The daily backup of the SQLite database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackupSettings {
    /// `LAUNDRY_BACKUP_DIR`: the folder of the daily copies; none (unset): no scheduled backups.
    pub dir: Option<PathBuf>,
    /// `LAUNDRY_BACKUP_AT`: when, Nairobi time, in minutes after midnight (03:30 by default).
    pub at_minute: u16,
    /// `LAUNDRY_BACKUP_KEEP_DAYS`: the copies of this many last days are kept (7; 1 to 365).
    pub keep_days: u32,
    /// `LAUNDRY_BACKUP_KEEP_WEEKS`: and of the weeks before, the newest of each of this many
    /// (4; 0 to 520).
    pub keep_weeks: u32,
}

impl Default for BackupSettings {
    fn default() -> Self {
        BackupSettings { dir: None, at_minute: 3 * 60 + 30, keep_days: 7, keep_weeks: 4 }
    }
}

/// Reads `LAUNDRY_BACKUP_DIR`, `LAUNDRY_BACKUP_AT`, `LAUNDRY_BACKUP_KEEP_DAYS` and
/// `LAUNDRY_BACKUP_KEEP_WEEKS`; unset ones keep [`BackupSettings::default`].
pub fn backup_settings(lookup: &impl Fn(&str) -> Option<String>) -> Result<BackupSettings, ConfigError> {
    let get = |name: &str| lookup(name).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
    let mut settings =
        BackupSettings { dir: get("LAUNDRY_BACKUP_DIR").map(PathBuf::from), ..BackupSettings::default() };
    if let Some(text) = get("LAUNDRY_BACKUP_AT") {
        settings.at_minute = parse_minute(&text)
            .filter(|minute| *minute < 24 * 60)
            .ok_or_else(|| invalid("LAUNDRY_BACKUP_AT", &text, "expected a Nairobi time like 03:30"))?;
    }
    let number = |name: &'static str, range: std::ops::RangeInclusive<u32>, reason: &'static str, default: u32| {
        whole_number_or(lookup, name, range, reason, default)
    };
    settings.keep_days =
        number("LAUNDRY_BACKUP_KEEP_DAYS", 1..=365, "expected days from 1 to 365", settings.keep_days)?;
    settings.keep_weeks =
        number("LAUNDRY_BACKUP_KEEP_WEEKS", 0..=520, "expected weeks from 0 to 520", settings.keep_weeks)?;
    Ok(settings)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(pairs: &[(&str, &str)]) -> Result<BackupSettings, ConfigError> {
        backup_settings(&|name: &str| pairs.iter().find(|(n, _)| *n == name).map(|(_, v)| (*v).to_owned()))
    }

    #[test]
    fn backups_are_off_until_a_folder_is_given_and_each_value_is_checked() {
        assert_eq!(read(&[]).unwrap(), BackupSettings::default());
        let set = read(&[
            ("LAUNDRY_BACKUP_DIR", "/backups"),
            ("LAUNDRY_BACKUP_AT", "02:15"),
            ("LAUNDRY_BACKUP_KEEP_DAYS", "14"),
            ("LAUNDRY_BACKUP_KEEP_WEEKS", "0"),
        ])
        .unwrap();
        assert_eq!(set, BackupSettings { dir: Some("/backups".into()), at_minute: 135, keep_days: 14, keep_weeks: 0 });
        for (name, value) in [
            ("LAUNDRY_BACKUP_AT", "3:30"),
            ("LAUNDRY_BACKUP_AT", "24:00"),
            ("LAUNDRY_BACKUP_KEEP_DAYS", "0"),
            ("LAUNDRY_BACKUP_KEEP_WEEKS", "many"),
        ] {
            assert!(read(&[(name, value)]).is_err(), "{name}={value}");
        }
    }
}
