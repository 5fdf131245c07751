//! The runs of the scheduled jobs: one row per job and Nairobi day, claimed under a lease so that
//! one instance at a time does a day's work, taken over when its holder's lease runs out (it
//! crashed), and marked done, with what it wrote, once the work is stored.
//!
//! The lease is compare-and-set: an `UPDATE` that takes the row only when it is not done and no
//! other holder's lease is live. On PostgreSQL two instances updating at once are serialised by
//! the row's lock, and the second sees the first's lease; SQLite has one writer at a time.

use crate::db::schema::job_runs;
use crate::db::{DbConnection, insert_or_ignore, write_transaction};
use diesel::prelude::*;
use time::{Date, PrimitiveDateTime};

/// One job's run for one day.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = job_runs)]
pub struct JobRun {
    /// The job's name (`eta-texts`).
    pub job: String,
    /// The Nairobi day it is for.
    pub day: Date,
    /// The instance that holds it.
    pub lease_owner: Option<String>,
    /// Until when, UTC (the database's clock).
    pub lease_until: Option<PrimitiveDateTime>,
    /// When its work was stored, UTC; it never runs again for that day.
    pub done_at: Option<PrimitiveDateTime>,
    /// What it wrote (messages).
    pub written: i32,
}

/// What [`JobRun::claim`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// The run is the caller's until its lease runs out.
    Claimed,
    /// Done already, with what it wrote.
    Done(i32),
    /// Another instance holds a live lease on it.
    Held(String),
}

impl JobRun {
    /// Claims `job`'s run for `day` for `owner` until `now + lease` (the row is made if missing):
    /// taken when it is not done and no other owner's lease is live at `now`.
    pub fn claim(
        connection: &mut DbConnection,
        job: &str,
        day: Date,
        owner: &str,
        now: PrimitiveDateTime,
        lease: time::Duration,
    ) -> QueryResult<Claim> {
        write_transaction(connection, |connection| {
            let row = (job_runs::job.eq(job), job_runs::day.eq(day), job_runs::written.eq(0));
            insert_or_ignore!(connection, job_runs::table, row)?;
            let free =
                job_runs::lease_until.is_null().or(job_runs::lease_until.lt(now)).or(job_runs::lease_owner.eq(owner));
            let taken =
                diesel::update(job_runs::table.find((job, day)).filter(job_runs::done_at.is_null()).filter(free))
                    .set((job_runs::lease_owner.eq(owner), job_runs::lease_until.eq(now + lease)))
                    .execute(connection)?;
            if taken == 1 {
                return Ok(Claim::Claimed);
            }
            let run = JobRun::find(connection, job, day)?.ok_or(diesel::result::Error::NotFound)?;
            Ok(match (run.done_at, run.lease_owner) {
                (Some(_), _) => Claim::Done(run.written),
                (None, holder) => Claim::Held(holder.unwrap_or_default()),
            })
        })
    }

    /// Inside the transaction that stores the run's work: whether `owner` still holds a live lease
    /// on it at `now` and it is not done. On PostgreSQL the row stays locked until that
    /// transaction ends, so no other instance can take it over meanwhile.
    pub fn still_held(
        connection: &mut DbConnection,
        job: &str,
        day: Date,
        owner: &str,
        now: PrimitiveDateTime,
    ) -> QueryResult<bool> {
        let mine = job_runs::table
            .find((job, day))
            .filter(job_runs::lease_owner.eq(owner))
            .filter(job_runs::lease_until.gt(now))
            .filter(job_runs::done_at.is_null())
            .select(job_runs::job);
        let found: Option<String> = match connection {
            DbConnection::Postgres(pg) => mine.for_update().first(pg).optional()?,
            DbConnection::Sqlite(sqlite) => mine.first(sqlite).optional()?,
        };
        Ok(found.is_some())
    }

    /// Marks the run of `owner` done at `now` with `written` messages, and lets the lease go.
    /// False when `owner` no longer held it (nothing is changed then).
    pub fn finish(
        connection: &mut DbConnection,
        job: &str,
        day: Date,
        owner: &str,
        written: i32,
        now: PrimitiveDateTime,
    ) -> QueryResult<bool> {
        let changed = diesel::update(
            job_runs::table
                .find((job, day))
                .filter(job_runs::lease_owner.eq(owner))
                .filter(job_runs::done_at.is_null()),
        )
        .set((
            job_runs::done_at.eq(now),
            job_runs::written.eq(written),
            job_runs::lease_owner.eq(None::<String>),
            job_runs::lease_until.eq(None::<PrimitiveDateTime>),
        ))
        .execute(connection)?;
        Ok(changed == 1)
    }

    /// Gives an unfinished run back (its work failed), so that the next look may try at once.
    pub fn release(connection: &mut DbConnection, job: &str, day: Date, owner: &str) -> QueryResult<bool> {
        let changed = diesel::update(
            job_runs::table
                .find((job, day))
                .filter(job_runs::lease_owner.eq(owner))
                .filter(job_runs::done_at.is_null()),
        )
        .set((job_runs::lease_owner.eq(None::<String>), job_runs::lease_until.eq(None::<PrimitiveDateTime>)))
        .execute(connection)?;
        Ok(changed == 1)
    }

    /// When each job last finished a day's run (the metrics): one row per job and day, so a few
    /// hundred rows a year.
    pub fn last_done(connection: &mut DbConnection) -> QueryResult<Vec<(String, Option<PrimitiveDateTime>)>> {
        job_runs::table
            .group_by(job_runs::job)
            .select((job_runs::job, diesel::dsl::max(job_runs::done_at)))
            .load(connection)
    }

    /// `job`'s run for `day`, if one was ever claimed.
    pub fn find(connection: &mut DbConnection, job: &str, day: Date) -> QueryResult<Option<JobRun>> {
        job_runs::table.find((job, day)).select(JobRun::as_select()).first(connection).optional()
    }
}
