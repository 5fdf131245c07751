//! Backups of the SQLite database, taken while the server runs, and restoring one.
//!
//! [`backup`] writes a consistent copy with `VACUUM INTO` (a read transaction: the server goes on
//! writing meanwhile, and the copy holds every transaction committed before it began), under a
//! temporary name renamed when complete and readable by the server's user alone, then
//! `<file>.sha256` beside it (`sha256sum -c` reads it).
//! [`restore`] refuses a file whose checksum file is missing or does not match, one that is not a
//! sound SQLite database, one whose schema holds a migration this binary does not know (made by a
//! newer release), and any target that already holds a database; otherwise it copies the file
//! into place, under a temporary name renamed when complete. The server migrates it at start.
//!
//! PostgreSQL is backed up with its own tools (`pg_dump`, docs/backups.md).

use super::SQLITE_MIGRATIONS;
use diesel::connection::SimpleConnection;
use diesel::migration::MigrationSource;
use diesel::prelude::*;
use diesel::sqlite::Sqlite;
use diesel_migrations::MigrationHarness;
use sha2::{Digest, Sha256};
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// A backup written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Backup {
    /// The copy.
    pub path: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// Its SHA-256, hexadecimal.
    pub sha256: String,
}

/// What was restored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Restored {
    /// The database file written.
    pub path: PathBuf,
    /// Its orders.
    pub orders: i64,
}

/// Why a backup or a restore was not made; nothing was written in place.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// The database is PostgreSQL.
    #[error("DATABASE_URL names a PostgreSQL database: back it up with pg_dump (see docs/backups.md)")]
    Postgres,
    /// Not a `sqlite://` URL.
    #[error("DATABASE_URL must start with sqlite:// (or postgres://)")]
    NotSqlite,
    /// The file to write exists already.
    #[error("{0} exists already: choose a new file name (a backup never overwrites another)")]
    Exists(String),
    /// The database to restore into holds a database already.
    #[error("{0} holds a database already: restore into a new path, or move that file away first")]
    TargetInUse(String),
    /// No checksum file beside the backup.
    #[error("{0} has no checksum file beside it ({0}.sha256): it may be incomplete, so it is not restored")]
    NoChecksum(String),
    /// The checksum does not match.
    #[error("{0} fails its checksum (the file was changed or cut short since it was made): it is not restored")]
    Checksum(String),
    /// Not a sound SQLite database.
    #[error("{file} is not a sound SQLite database: {reason}")]
    Damaged {
        /// The file.
        file: String,
        /// What SQLite said.
        reason: String,
    },
    /// Made by a newer release.
    #[error(
        "{file} was made by a newer release (its schema has migration {version}, which this binary does not know): restore it with that release or a later one"
    )]
    Newer {
        /// The file.
        file: String,
        /// The unknown migration.
        version: String,
    },
    /// Reading or writing a file failed.
    #[error("{what} {file}: {source}")]
    Io {
        /// What was being done.
        what: &'static str,
        /// The file.
        file: String,
        /// Why it failed.
        source: std::io::Error,
    },
    /// The database failed.
    #[error("the database failed: {0}")]
    Database(String),
}

/// The SQLite file `database_url` names.
fn sqlite_path(database_url: &str) -> Result<PathBuf, BackupError> {
    if database_url.starts_with("postgres://") || database_url.starts_with("postgresql://") {
        return Err(BackupError::Postgres);
    }
    database_url.strip_prefix("sqlite://").map(PathBuf::from).ok_or(BackupError::NotSqlite)
}

fn io<'a>(what: &'static str, file: &'a Path) -> impl FnOnce(std::io::Error) -> BackupError + 'a {
    move |source| BackupError::Io { what, file: file.display().to_string(), source }
}

fn database(error: impl std::fmt::Display) -> BackupError {
    BackupError::Database(error.to_string())
}

/// `path` with `suffix` added to its file name.
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Copies the database `database_url` names to `to` while it may be in use, and writes
/// `<to>.sha256`. Refused when `to` exists.
pub fn backup(database_url: &str, to: &Path) -> Result<Backup, BackupError> {
    let source = sqlite_path(database_url)?;
    if to.exists() {
        return Err(BackupError::Exists(to.display().to_string()));
    }
    if let Some(folder) = to.parent().filter(|folder| !folder.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder).map_err(io("cannot make the folder of", to))?;
    }
    let partial = with_suffix(to, ".partial");
    // Left by a backup that stopped half way.
    let _ = std::fs::remove_file(&partial);
    let mut connection = SqliteConnection::establish(&source.display().to_string()).map_err(database)?;
    connection.batch_execute("PRAGMA busy_timeout = 10000;").map_err(database)?;
    diesel::sql_query("VACUUM INTO ?")
        .bind::<diesel::sql_types::Text, _>(partial.display().to_string())
        .execute(&mut connection)
        .map_err(database)?;
    // The customers' names, phones and addresses: for the server's user alone.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&partial, std::fs::Permissions::from_mode(0o600))
            .map_err(io("cannot restrict", &partial))?;
    }
    File::open(&partial).and_then(|file| file.sync_all()).map_err(io("cannot write", &partial))?;
    let (bytes, sha256) = checksum(&partial)?;
    write_checksum(to, &sha256)?;
    std::fs::rename(&partial, to).map_err(io("cannot name", to))?;
    Ok(Backup { path: to.to_owned(), bytes, sha256 })
}

/// Restores the backup `from` into the SQLite database `database_url` names, which must not
/// exist yet (or be an empty file).
pub fn restore(from: &Path, database_url: &str) -> Result<Restored, BackupError> {
    let target = sqlite_path(database_url)?;
    let shown = from.display().to_string();
    let sums = with_suffix(from, ".sha256");
    let expected = std::fs::read_to_string(&sums).map_err(|_| BackupError::NoChecksum(shown.clone()))?;
    let expected = expected.split_whitespace().next().unwrap_or_default().to_ascii_lowercase();
    let (_, actual) = checksum(from)?;
    if expected != actual {
        return Err(BackupError::Checksum(shown));
    }
    let in_use = |path: &Path| path.metadata().is_ok_and(|meta| meta.len() > 0);
    if in_use(&target) || in_use(&with_suffix(&target, "-wal")) {
        return Err(BackupError::TargetInUse(target.display().to_string()));
    }
    if let Some(folder) = target.parent().filter(|folder| !folder.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder).map_err(io("cannot make the folder of", &target))?;
    }
    // Checked on a copy beside the target, renamed into place once it passes.
    let partial = with_suffix(&target, ".restoring");
    std::fs::copy(from, &partial).map_err(io("cannot copy into", &partial))?;
    let orders = match check_copy(&partial, &shown) {
        Ok(orders) => orders,
        Err(refused) => {
            let _ = std::fs::remove_file(&partial);
            return Err(refused);
        }
    };
    File::open(&partial).and_then(|file| file.sync_all()).map_err(io("cannot write", &partial))?;
    std::fs::rename(&partial, &target).map_err(io("cannot name", &target))?;
    Ok(Restored { path: target, orders })
}

/// Checks the copy `path` of the backup `shown`: sound, and of a schema this binary knows. Its
/// orders.
fn check_copy(path: &Path, shown: &str) -> Result<i64, BackupError> {
    let damaged = |reason: String| BackupError::Damaged { file: shown.to_owned(), reason };
    let mut connection =
        SqliteConnection::establish(&path.display().to_string()).map_err(|e| damaged(e.to_string()))?;
    #[derive(QueryableByName)]
    struct Check {
        #[diesel(sql_type = diesel::sql_types::Text)]
        quick_check: String,
    }
    let checks: Vec<Check> =
        diesel::sql_query("PRAGMA quick_check").load(&mut connection).map_err(|e| damaged(e.to_string()))?;
    if checks.iter().any(|check| check.quick_check != "ok") {
        let reason = checks.into_iter().map(|check| check.quick_check).collect::<Vec<_>>().join("; ");
        return Err(damaged(reason));
    }
    let known: Vec<String> = MigrationSource::<Sqlite>::migrations(&SQLITE_MIGRATIONS)
        .map_err(database)?
        .iter()
        .map(|migration| migration.name().version().to_string())
        .collect();
    let applied = connection.applied_migrations().map_err(|e| damaged(e.to_string()))?;
    if let Some(newer) = applied.iter().map(ToString::to_string).find(|version| !known.contains(version)) {
        return Err(BackupError::Newer { file: shown.to_owned(), version: newer });
    }
    diesel::sql_query("SELECT count(*) AS orders FROM orders")
        .get_result::<Count>(&mut connection)
        .map(|count| count.orders)
        .map_err(|e| damaged(e.to_string()))
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    orders: i64,
}

/// The size and SHA-256 of `path`.
fn checksum(path: &Path) -> Result<(u64, String), BackupError> {
    let mut file = File::open(path).map_err(io("cannot read", path))?;
    let (mut hasher, mut buffer, mut bytes) = (Sha256::new(), vec![0_u8; 1 << 16], 0_u64);
    loop {
        let read = file.read(&mut buffer).map_err(io("cannot read", path))?;
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
        bytes += read as u64;
    }
    let sha256 = hasher.finalize().iter().map(|byte| format!("{byte:02x}")).collect();
    Ok((bytes, sha256))
}

/// `<to>.sha256` in `sha256sum`'s format: the hash, two spaces, the file's name.
fn write_checksum(to: &Path, sha256: &str) -> Result<(), BackupError> {
    let sums = with_suffix(to, ".sha256");
    let name = to.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    let mut file = BufWriter::new(File::create(&sums).map_err(io("cannot write", &sums))?);
    writeln!(file, "{sha256}  {name}").map_err(io("cannot write", &sums))?;
    file.into_inner().map_err(|e| e.into_error()).and_then(|file| file.sync_all()).map_err(io("cannot write", &sums))
}
