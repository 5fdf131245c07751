//! Staff accounts, their sessions, and failed logins.

use crate::db::schema::{login_failures, staff, staff_sessions};
use crate::db::{DbConnection, write_transaction};
use crate::domain::StaffRole;
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use time::PrimitiveDateTime;
use uuid::Uuid;

/// A staff account.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = staff)]
pub struct Staff {
    /// UUID v4.
    pub id: String,
    /// Lower case; the login name.
    pub email: String,
    /// argon2id, PHC string format.
    pub password_hash: String,
    /// UTC.
    pub created_at: PrimitiveDateTime,
    /// The last successful login, UTC.
    pub last_login_at: Option<PrimitiveDateTime>,
    /// Set when the account was disabled.
    pub disabled_at: Option<PrimitiveDateTime>,
    /// What the account may do.
    pub role: StaffRole,
}

/// Why an account was not created.
#[derive(Debug, thiserror::Error)]
pub enum CreateStaffError {
    /// Another account has this e-mail.
    #[error("an account with this e-mail already exists")]
    EmailTaken,
    /// The database failed.
    #[error(transparent)]
    Database(#[from] DieselError),
}

impl Staff {
    /// Stores a new, enabled account with `role`. `email` must already be lower case and valid.
    pub fn create(
        connection: &mut DbConnection,
        email: &str,
        password_hash: &str,
        role: StaffRole,
        now: PrimitiveDateTime,
    ) -> Result<Staff, CreateStaffError> {
        let row = Staff {
            id: Uuid::new_v4().to_string(),
            email: email.to_owned(),
            password_hash: password_hash.to_owned(),
            created_at: now,
            last_login_at: None,
            disabled_at: None,
            role,
        };
        match diesel::insert_into(staff::table).values(&row).execute(connection) {
            Ok(_) => Ok(row),
            Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => Err(CreateStaffError::EmailTaken),
            Err(error) => Err(error.into()),
        }
    }

    /// The account with this (lower-case) e-mail, enabled or not.
    pub fn find_by_email(connection: &mut DbConnection, email: &str) -> QueryResult<Option<Staff>> {
        staff::table.filter(staff::email.eq(email)).select(Staff::as_select()).first(connection).optional()
    }

    /// Every account, oldest first.
    pub fn list(connection: &mut DbConnection) -> QueryResult<Vec<Staff>> {
        staff::table.order(staff::created_at.asc()).select(Staff::as_select()).load(connection)
    }

    /// The enabled valets, by e-mail: whom staff can give stops to.
    pub fn valets(connection: &mut DbConnection) -> QueryResult<Vec<Staff>> {
        staff::table
            .filter(staff::role.eq(StaffRole::Valet))
            .filter(staff::disabled_at.is_null())
            .order(staff::email.asc())
            .select(Staff::as_select())
            .load(connection)
    }

    /// Gives the account another role. False when there is no such account.
    pub fn set_role(connection: &mut DbConnection, email: &str, role: StaffRole) -> QueryResult<bool> {
        let changed = diesel::update(staff::table.filter(staff::email.eq(email)))
            .set(staff::role.eq(role))
            .execute(connection)?;
        Ok(changed > 0)
    }

    /// How many accounts can log in.
    pub fn count_enabled(connection: &mut DbConnection) -> QueryResult<i64> {
        staff::table.filter(staff::disabled_at.is_null()).count().get_result(connection)
    }

    /// Disables or enables the account; disabling also ends its sessions. False when there is no
    /// such account.
    pub fn set_disabled(
        connection: &mut DbConnection,
        email: &str,
        disabled: bool,
        now: PrimitiveDateTime,
    ) -> QueryResult<bool> {
        write_transaction(connection, |connection| {
            let Some(account) = Staff::find_by_email(connection, email)? else {
                return Ok(false);
            };
            let disabled_at = disabled.then_some(account.disabled_at.unwrap_or(now));
            diesel::update(staff::table.find(&account.id))
                .set(staff::disabled_at.eq(disabled_at))
                .execute(connection)?;
            if disabled {
                diesel::delete(staff_sessions::table.filter(staff_sessions::staff_id.eq(&account.id)))
                    .execute(connection)?;
            }
            Ok(true)
        })
    }

    /// Replaces the password hash and ends every session of the account. False when there is no
    /// such account.
    pub fn set_password_hash(connection: &mut DbConnection, email: &str, password_hash: &str) -> QueryResult<bool> {
        write_transaction(connection, |connection| {
            let Some(account) = Staff::find_by_email(connection, email)? else {
                return Ok(false);
            };
            diesel::update(staff::table.find(&account.id))
                .set(staff::password_hash.eq(password_hash))
                .execute(connection)?;
            diesel::delete(staff_sessions::table.filter(staff_sessions::staff_id.eq(&account.id)))
                .execute(connection)?;
            Ok(true)
        })
    }
}

/// A logged-in session. The cookie holds a random token; the table holds only its SHA-256.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = staff_sessions)]
pub struct StaffSession {
    /// SHA-256 of the cookie's token, hex.
    pub id_hash: String,
    /// The account.
    pub staff_id: String,
    /// The token every state-changing request of this session must carry.
    pub csrf_token: String,
    /// UTC.
    pub created_at: PrimitiveDateTime,
    /// The last request, UTC (updated at most once a minute).
    pub last_seen_at: PrimitiveDateTime,
    /// The absolute end, UTC.
    pub expires_at: PrimitiveDateTime,
}

impl StaffSession {
    /// Stores a new session for `account` and records the login.
    pub fn start(connection: &mut DbConnection, session: &StaffSession) -> QueryResult<()> {
        write_transaction(connection, |connection| {
            diesel::insert_into(staff_sessions::table).values(session).execute(connection)?;
            diesel::update(staff::table.find(&session.staff_id))
                .set(staff::last_login_at.eq(session.created_at))
                .execute(connection)?;
            Ok(())
        })
    }

    /// The live session with this token hash and its enabled account: not past its absolute end,
    /// and seen since `idle_since`. Marks it seen when it was last seen over a minute ago.
    pub fn find_live(
        connection: &mut DbConnection,
        id_hash: &str,
        idle_since: PrimitiveDateTime,
        now: PrimitiveDateTime,
    ) -> QueryResult<Option<(StaffSession, Staff)>> {
        let found: Option<(StaffSession, Staff)> = staff_sessions::table
            .inner_join(staff::table)
            .filter(staff_sessions::id_hash.eq(id_hash))
            .filter(staff_sessions::expires_at.gt(now))
            .filter(staff_sessions::last_seen_at.gt(idle_since))
            .filter(staff::disabled_at.is_null())
            .select((StaffSession::as_select(), Staff::as_select()))
            .first(connection)
            .optional()?;
        if let Some((session, _)) = &found
            && now - session.last_seen_at > time::Duration::minutes(1)
        {
            diesel::update(staff_sessions::table.find(id_hash))
                .set(staff_sessions::last_seen_at.eq(now))
                .execute(connection)?;
        }
        Ok(found)
    }

    /// Ends the session with this token hash (logout).
    pub fn end(connection: &mut DbConnection, id_hash: &str) -> QueryResult<usize> {
        diesel::delete(staff_sessions::table.find(id_hash)).execute(connection)
    }

    /// Deletes sessions past their absolute end or idle since `idle_since`.
    pub fn purge_stale(
        connection: &mut DbConnection,
        idle_since: PrimitiveDateTime,
        now: PrimitiveDateTime,
    ) -> QueryResult<usize> {
        diesel::delete(
            staff_sessions::table
                .filter(staff_sessions::expires_at.le(now).or(staff_sessions::last_seen_at.le(idle_since))),
        )
        .execute(connection)
    }
}

/// Failed logins, counted per account and per client for the login limit.
#[derive(Debug)]
pub struct LoginFailures;

impl LoginFailures {
    /// Counts a sign-in attempt for `email` (lower case, with or without an account) from
    /// `client` as failed until it succeeds, and forgets failures older than `forget_before`. It is
    /// counted before the password is checked, so that attempts sent in parallel see each other.
    /// Returns the row's id, for [`LoginFailures::forget`].
    pub fn record(
        connection: &mut DbConnection,
        email: &str,
        client: &str,
        now: PrimitiveDateTime,
        forget_before: PrimitiveDateTime,
    ) -> QueryResult<i64> {
        diesel::delete(login_failures::table.filter(login_failures::failed_at.lt(forget_before)))
            .execute(connection)?;
        diesel::insert_into(login_failures::table)
            .values((
                login_failures::email.eq(email),
                login_failures::client.eq(client),
                login_failures::failed_at.eq(now),
            ))
            .returning(login_failures::id)
            .get_result(connection)
    }

    /// Forgets every failure older than `before` (the retention job: failures are forgotten as
    /// sign-ins are tried, and this catches the days nobody tries).
    pub fn forget_before(connection: &mut DbConnection, before: PrimitiveDateTime) -> QueryResult<usize> {
        diesel::delete(login_failures::table.filter(login_failures::failed_at.lt(before))).execute(connection)
    }

    /// Takes back one attempt recorded by [`LoginFailures::record`] (one refused by the limit
    /// before its password was checked).
    pub fn forget(connection: &mut DbConnection, id: i64) -> QueryResult<()> {
        diesel::delete(login_failures::table.find(id)).execute(connection)?;
        Ok(())
    }

    /// Failures since `since` for the account from this client, for the account, and from the
    /// client, oldest first (to say when the limit lifts).
    pub fn recent(
        connection: &mut DbConnection,
        email: &str,
        client: &str,
        since: PrimitiveDateTime,
    ) -> QueryResult<RecentFailures> {
        let for_pair = login_failures::table
            .filter(login_failures::email.eq(email))
            .filter(login_failures::client.eq(client))
            .filter(login_failures::failed_at.gt(since))
            .select(login_failures::failed_at)
            .order(login_failures::failed_at.asc())
            .load::<PrimitiveDateTime>(connection)?;
        let for_email = login_failures::table
            .filter(login_failures::email.eq(email))
            .filter(login_failures::failed_at.gt(since))
            .select(login_failures::failed_at)
            .order(login_failures::failed_at.asc())
            .load::<PrimitiveDateTime>(connection)?;
        let for_client = login_failures::table
            .filter(login_failures::client.eq(client))
            .filter(login_failures::failed_at.gt(since))
            .select(login_failures::failed_at)
            .order(login_failures::failed_at.asc())
            .load::<PrimitiveDateTime>(connection)?;
        Ok(RecentFailures { for_pair, for_email, for_client })
    }

    /// Forgets the account's failures from `client` (after a successful login from there) and
    /// every failure older than `before`. Failures from other addresses stay: the person who signed
    /// in does not vouch for them.
    pub fn clear(
        connection: &mut DbConnection,
        email: &str,
        client: &str,
        before: PrimitiveDateTime,
    ) -> QueryResult<()> {
        let from_here = login_failures::email.eq(email).and(login_failures::client.eq(client));
        diesel::delete(login_failures::table.filter(from_here.or(login_failures::failed_at.lt(before))))
            .execute(connection)?;
        Ok(())
    }
}

/// The times of recent failed logins, oldest first.
#[derive(Debug, Default)]
pub struct RecentFailures {
    /// For the account, from the client.
    pub for_pair: Vec<PrimitiveDateTime>,
    /// For the account, from anywhere.
    pub for_email: Vec<PrimitiveDateTime>,
    /// From the client.
    pub for_client: Vec<PrimitiveDateTime>,
}
