//! Whether the daily backup ran and the copies kept, as the dashboard shows them.

use serde::Serialize;
use ts_rs::TS;

/// How the daily backup stands, as the owner's dashboard says it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BackupStatus {
    /// The newest copy in the folder, if any.
    pub newest: Option<BackupCopy>,
    /// What needs the owner: no backup scheduled, none made, or the newest older than two days.
    pub warning: Option<String>,
}

/// One copy of the database.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BackupCopy {
    /// When it was written, RFC 3339.
    pub written_at: String,
    /// Its size in bytes.
    #[ts(type = "number")]
    pub bytes: u64,
}

impl BackupStatus {
    /// The status of the copies in `dir` (none: no folder configured) at `now`; `newest` is the
    /// newest copy's time of writing and size.
    pub fn new(
        dir: Option<&std::path::Path>,
        newest: Option<(time::OffsetDateTime, u64)>,
        now: time::OffsetDateTime,
    ) -> Self {
        let warning = match (dir, newest) {
            (None, _) => Some(
                "No daily backup is scheduled: a dead disk would lose every order. Set LAUNDRY_BACKUP_DIR (docs/backups.md)."
                    .to_owned(),
            ),
            (Some(dir), None) => Some(format!(
                "No backup has been made in {} yet: the first is made at the time LAUNDRY_BACKUP_AT gives.",
                dir.display()
            )),
            (Some(_), Some((written, _))) if now - written > time::Duration::days(2) => Some(
                "The newest backup is more than two days old: check the server's log and the backup folder's disk."
                    .to_owned(),
            ),
            _ => None,
        };
        let newest = newest.map(|(written, bytes)| BackupCopy {
            written_at: written.format(&time::format_description::well_known::Rfc3339).unwrap_or_default(),
            bytes,
        });
        BackupStatus { newest, warning }
    }
}
