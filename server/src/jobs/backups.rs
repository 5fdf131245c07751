//! The daily backup: at `LAUNDRY_BACKUP_AT` (Nairobi time, 03:30 by default) a copy of the SQLite
//! database goes into `LAUNDRY_BACKUP_DIR` as `laundry-YYYY-MM-DD.db`, with its checksum
//! ([`crate::db::backup`]), and the older copies are pruned: those of the last
//! `LAUNDRY_BACKUP_KEEP_DAYS` days are kept, and of the weeks before them the newest copy of each
//! of `LAUNDRY_BACKUP_KEEP_WEEKS` weeks. A copy made by hand under that name counts as the day's.
//! One run a day (`job_runs`); one that failed gives its day back and is tried again at the next
//! look. PostgreSQL is backed up with `pg_dump` (docs/backups.md): this job does not run there.

use super::{JobContext, LEASE, Looking};
use crate::config::BackupSettings;
use crate::db::backup::{self, BackupError};
use crate::db::{DbError, database_clock};
use crate::domain::schedule::{nairobi_day, nairobi_minute};
use crate::models::job_run::{Claim, JobRun};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use time::Date;

/// The job's name in `job_runs`.
pub const JOB: &str = "backup";

/// What the job needs: the SQLite database's URL and the settings, with a folder.
#[derive(Debug, Clone)]
pub struct BackupPlan {
    /// `sqlite://…`.
    pub database_url: String,
    /// The folder of the copies.
    pub dir: PathBuf,
    /// When, where and how many.
    pub settings: BackupSettings,
}

impl BackupPlan {
    /// The plan of a server on `database_url` with `settings`: none without a folder, or on
    /// PostgreSQL.
    pub fn of(database_url: &str, settings: &BackupSettings) -> Option<Self> {
        let dir = settings.dir.clone()?;
        database_url.starts_with("sqlite://").then(|| BackupPlan {
            database_url: database_url.to_owned(),
            dir,
            settings: settings.clone(),
        })
    }
}

/// The job; it remembers the day it found done.
#[derive(Debug)]
pub struct Backups {
    plan: BackupPlan,
    done: Mutex<Option<Date>>,
}

impl Backups {
    /// The job following `plan`.
    pub fn new(plan: BackupPlan) -> Self {
        Backups { plan, done: Mutex::new(None) }
    }
}

/// The file of `day`'s copy in `dir`.
pub fn file_of(dir: &Path, day: Date) -> PathBuf {
    dir.join(format!("laundry-{day}.db"))
}

/// The day of a copy's file name (`laundry-2026-11-26.db`), if it is one.
fn day_of(name: &str) -> Option<Date> {
    let day = name.strip_prefix("laundry-")?.strip_suffix(".db")?;
    crate::domain::schedule::parse_day(day)
}

/// The copies in `dir`, by day, oldest first (an unreadable folder has none).
pub fn copies(dir: &Path) -> Vec<(Date, PathBuf)> {
    let mut found: Vec<(Date, PathBuf)> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter_map(|entry| Some((day_of(&entry.file_name().to_string_lossy())?, entry.path())))
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

/// The newest copy in `dir`: when it was written and its size in bytes (none when the folder holds
/// none or cannot be read). Reads the folder: call it off the async workers.
pub fn newest_copy(dir: &Path) -> Option<(time::OffsetDateTime, u64)> {
    let (_, path) = copies(dir).pop()?;
    let meta = std::fs::metadata(path).ok()?;
    Some((time::OffsetDateTime::from(meta.modified().ok()?), meta.len()))
}

/// Of the copies of `days`, those to delete on `today`: all but those of the last `keep_days` days
/// (today among them) and, before them, the newest of each of the last `keep_weeks` weeks (weeks
/// of seven days counted back from the oldest day kept).
pub fn to_prune(days: &[Date], today: Date, keep_days: u32, keep_weeks: u32) -> Vec<Date> {
    let recent_from = today - time::Duration::days(i64::from(keep_days) - 1);
    let mut kept_weeks: Vec<i64> = Vec::new();
    let mut sorted: Vec<Date> = days.to_vec();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    let mut prune = Vec::new();
    for day in sorted {
        if day >= recent_from {
            continue;
        }
        let week = (recent_from - day).whole_days().saturating_sub(1) / 7;
        if week < i64::from(keep_weeks) && !kept_weeks.contains(&week) {
            kept_weeks.push(week);
        } else {
            prune.push(day);
        }
    }
    prune.sort();
    prune
}

/// What a day's run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Done {
    /// The day's copy, and its size in bytes (none: it was there already).
    pub made: Option<(PathBuf, u64)>,
    /// Copies deleted.
    pub pruned: usize,
}

/// Does `day`'s backup if it is not done: `Ok(None)` when another look holds it or it is done.
pub fn run(
    connection: &mut crate::db::DbConnection,
    plan: &BackupPlan,
    day: Date,
    owner: &str,
) -> anyhow::Result<Option<Done>> {
    let claimed_at = database_clock(connection)?;
    let lease = time::Duration::try_from(LEASE).unwrap_or(time::Duration::minutes(5));
    match JobRun::claim(connection, JOB, day, owner, claimed_at, lease)? {
        Claim::Claimed => {}
        Claim::Done(_) | Claim::Held(_) => return Ok(None),
    }
    let file = file_of(&plan.dir, day);
    let made = match backup::backup(&plan.database_url, &file) {
        Ok(made) => Some((made.path, made.bytes)),
        Err(BackupError::Exists(_)) => None,
        Err(error) => {
            JobRun::release(connection, JOB, day, owner)?;
            return Err(anyhow::anyhow!("the backup to {} failed: {error}", file.display()));
        }
    };
    let days: Vec<Date> = copies(&plan.dir).into_iter().map(|(day, _)| day).collect();
    let mut pruned = 0;
    for old in to_prune(&days, day, plan.settings.keep_days, plan.settings.keep_weeks) {
        let path = file_of(&plan.dir, old);
        if std::fs::remove_file(&path).is_ok() {
            pruned += 1;
        }
        let mut sums = path.into_os_string();
        sums.push(".sha256");
        let _ = std::fs::remove_file(sums);
    }
    let kilobytes = made.as_ref().map_or(0, |(_, bytes)| i32::try_from(bytes / 1024).unwrap_or(i32::MAX));
    let finished_at = database_clock(connection)?;
    JobRun::finish(connection, JOB, day, owner, kilobytes, finished_at)?;
    Ok(Some(Done { made, pruned }))
}

impl super::Job for Backups {
    fn name(&self) -> &'static str {
        JOB
    }

    fn run_due<'a>(&'a self, context: &'a JobContext) -> Looking<'a> {
        Box::pin(async move {
            let at = context.clock.now();
            let day = nairobi_day(at);
            if nairobi_minute(at) < self.plan.settings.at_minute
                || *self.done.lock().unwrap_or_else(PoisonError::into_inner) == Some(day)
            {
                return Ok(());
            }
            let (plan, owner) = (self.plan.clone(), context.owner.clone());
            let done = context.database.run(move |c| Ok::<_, DbError>(run(c, &plan, day, &owner))).await??;
            if let Some(done) = done {
                match &done.made {
                    Some((path, bytes)) => {
                        tracing::info!(%day, file = %path.display(), bytes, pruned = done.pruned, "backup: the day's copy made")
                    }
                    None => tracing::info!(%day, pruned = done.pruned, "backup: the day's copy was there already"),
                }
            }
            *self.done.lock().unwrap_or_else(PoisonError::into_inner) = Some(day);
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    #[test]
    fn the_last_days_are_kept_and_before_them_one_copy_a_week() {
        let today = date!(2026 - 11 - 26);
        let days: Vec<Date> = (0..60).map(|back| today - time::Duration::days(back)).collect();
        let pruned = to_prune(&days, today, 7, 4);
        let kept: Vec<Date> = days.iter().copied().filter(|day| !pruned.contains(day)).collect();
        // 7 days (20 to 26 Nov), then the newest of each of 4 weeks before: 19, 12, 5 Nov, 29 Oct.
        let mut expected: Vec<Date> = (0..7).map(|back| today - time::Duration::days(back)).collect();
        expected.extend([date!(2026 - 11 - 19), date!(2026 - 11 - 12), date!(2026 - 11 - 05), date!(2026 - 10 - 29)]);
        let mut kept_sorted = kept.clone();
        kept_sorted.sort_unstable_by(|a, b| b.cmp(a));
        assert_eq!(kept_sorted, expected);
        // Gaps (days without a copy): a week's newest copy is whichever it has.
        let sparse = [date!(2026 - 11 - 10), date!(2026 - 11 - 09), date!(2026 - 11 - 01)];
        assert_eq!(to_prune(&sparse, today, 7, 4), vec![date!(2026 - 11 - 09)]);
        assert_eq!(to_prune(&sparse, today, 7, 0), sparse.iter().rev().copied().collect::<Vec<_>>());
        assert!(to_prune(&[today], today, 1, 0).is_empty(), "today's copy is never pruned");
    }
}
