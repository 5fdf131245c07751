//! `laundry admin …`: staff accounts from the command line.
//!
//! ```text
//! laundry admin create --email EMAIL [--role owner|staff|valet]   the password is read from standard input
//! laundry admin role --email EMAIL --role owner|staff|valet
//! laundry admin password --email EMAIL   sets a new password (read the same way), ends the sessions
//! laundry admin list
//! laundry admin disable --email EMAIL    no more logins; the account's sessions end now
//! laundry admin enable --email EMAIL
//! ```

use crate::clock::Clock;
use crate::db::{Database, DbConnection};
use crate::domain::{StaffRole, parse_email};
use crate::models::staff::{CreateStaffError, Staff};
use crate::password::{check_password_strength, hash_password};
use std::io::{BufRead, Write};

/// How to use `laundry admin`.
pub const USAGE: &str = "usage:
  laundry admin create --email EMAIL [--role ROLE]
                                         create an account (ROLE: owner, staff (the default) or valet);
                                         the password is read from standard input
  laundry admin role --email EMAIL --role ROLE
                                         change an account's role: owner (everything, staff accounts),
                                         staff (the dashboard) or valet (the valet page only)
  laundry admin password --email EMAIL   set a new password (read from standard input); ends its sessions
  laundry admin list                     list the staff accounts
  laundry admin disable --email EMAIL    stop an account from signing in; ends its sessions
  laundry admin enable --email EMAIL     let a disabled account sign in again

The database is the one DATABASE_URL names (default sqlite://data/laundry.db).";

/// Where the password comes from: a terminal (asked twice, not echoed) or a pipe (its first line).
pub enum PasswordSource<'a> {
    /// Prompt on the terminal.
    Terminal,
    /// Read the first line.
    Lines(&'a mut dyn BufRead),
}

/// Runs `laundry admin ARGS…`; the error is the message to print.
pub fn run(
    args: &[&str],
    database: &Database,
    clock: &Clock,
    password: PasswordSource<'_>,
    out: &mut dyn Write,
) -> Result<(), String> {
    let mut connection = database.connection().map_err(|e| e.to_string())?;
    let connection: &mut DbConnection = &mut connection;
    let write_failed = |e: std::io::Error| e.to_string();
    match args {
        ["create", "--email", email] | ["create", "--email", email, "--role", _] => {
            let role = match args.get(4) {
                Some(role) => staff_role(role)?,
                None => StaffRole::Staff,
            };
            let email = staff_email(email)?;
            let password = read_password(password)?;
            check_password_strength(&password, &email)?;
            let hash = hash_password(&password).map_err(|e| format!("hashing the password failed: {e}"))?;
            match Staff::create(connection, &email, &hash, role, clock.utc()) {
                Ok(_) => {
                    writeln!(out, "Created the {role} account {email}. Sign in at /admin/login.").map_err(write_failed)
                }
                Err(CreateStaffError::EmailTaken) => Err(format!(
                    "An account for {email} already exists (laundry admin password --email {email} sets a new password)."
                )),
                Err(CreateStaffError::Database(e)) => Err(format!("the account could not be stored: {e}")),
            }
        }
        ["password", "--email", email] => {
            let email = staff_email(email)?;
            let password = read_password(password)?;
            check_password_strength(&password, &email)?;
            let hash = hash_password(&password).map_err(|e| format!("hashing the password failed: {e}"))?;
            match Staff::set_password_hash(connection, &email, &hash) {
                Ok(true) => {
                    writeln!(out, "Set a new password for {email}; its sessions have ended.").map_err(write_failed)
                }
                Ok(false) => Err(format!("There is no account for {email}.")),
                Err(e) => Err(format!("the password could not be stored: {e}")),
            }
        }
        ["list"] => {
            let accounts = Staff::list(connection).map_err(|e| e.to_string())?;
            if accounts.is_empty() {
                return writeln!(out, "No staff accounts yet: laundry admin create --email EMAIL")
                    .map_err(write_failed);
            }
            let when = |at: Option<time::PrimitiveDateTime>| {
                at.map_or("never".to_owned(), |at| format!("{} {:02}:{:02}", at.date(), at.hour(), at.minute()))
            };
            let header = ["EMAIL", "ROLE", "STATE", "CREATED (UTC)", "LAST SIGN-IN"].map(str::to_owned);
            let rows: Vec<[String; 5]> = std::iter::once(header)
                .chain(accounts.iter().map(|account| {
                    let state = if account.disabled_at.is_some() { "disabled" } else { "active" };
                    [
                        account.email.clone(),
                        account.role.to_string(),
                        state.to_owned(),
                        when(Some(account.created_at)),
                        when(account.last_login_at),
                    ]
                }))
                .collect();
            // Each column as wide as its widest cell, two spaces apart; the last is not padded.
            let mut widths = [0; 5];
            for row in &rows {
                for (width, cell) in widths.iter_mut().zip(row) {
                    *width = (*width).max(cell.chars().count());
                }
            }
            for row in &rows {
                let mut line = String::new();
                for (index, (cell, width)) in row.iter().zip(widths).enumerate() {
                    if index + 1 == row.len() {
                        line.push_str(cell);
                    } else {
                        line.push_str(&format!("{cell:<width$}  "));
                    }
                }
                writeln!(out, "{line}").map_err(write_failed)?;
            }
            Ok(())
        }
        ["role", "--email", email, "--role", role] => {
            let (email, role) = (staff_email(email)?, staff_role(role)?);
            match Staff::set_role(connection, &email, role) {
                Ok(true) => writeln!(out, "{email} is now {role}.").map_err(write_failed),
                Ok(false) => Err(format!("There is no account for {email}.")),
                Err(e) => Err(format!("the role could not be changed: {e}")),
            }
        }
        [action @ ("disable" | "enable"), "--email", email] => {
            let email = staff_email(email)?;
            let disable = *action == "disable";
            match Staff::set_disabled(connection, &email, disable, clock.utc()) {
                Ok(true) if disable => {
                    writeln!(out, "Disabled {email}; its sessions have ended.").map_err(write_failed)
                }
                Ok(true) => writeln!(out, "Enabled {email}.").map_err(write_failed),
                Ok(false) => Err(format!("There is no account for {email}.")),
                Err(e) => Err(format!("the account could not be changed: {e}")),
            }
        }
        _ => Err(USAGE.to_owned()),
    }
}

/// `owner`, `staff` or `valet`.
fn staff_role(input: &str) -> Result<StaffRole, String> {
    StaffRole::parse(input.trim()).ok_or_else(|| format!("Unknown role {input:?}: expected owner, staff or valet."))
}

/// A staff login name: a valid e-mail, lower case.
fn staff_email(input: &str) -> Result<String, String> {
    parse_email(input.trim()).map(|email| email.to_lowercase())
}

fn read_password(source: PasswordSource<'_>) -> Result<String, String> {
    match source {
        PasswordSource::Terminal => {
            let first =
                rpassword::prompt_password("Password: ").map_err(|e| format!("cannot read the password: {e}"))?;
            let second = rpassword::prompt_password("The same password again: ")
                .map_err(|e| format!("cannot read the password: {e}"))?;
            if first != second {
                return Err("The two passwords differ; nothing was changed.".to_owned());
            }
            Ok(first)
        }
        PasswordSource::Lines(input) => {
            let mut line = String::new();
            input.read_line(&mut line).map_err(|e| format!("cannot read the password from standard input: {e}"))?;
            let password = line.trim_end_matches(['\n', '\r']).to_owned();
            if password.is_empty() {
                return Err("No password on standard input: pipe it in, e.g. `printf '%s\\n' \"$PASSWORD\" | laundry admin create --email …`.".to_owned());
            }
            Ok(password)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn database() -> (tempfile::TempDir, Database) {
        let dir = tempfile::tempdir().unwrap();
        let database = Database::open(&format!("sqlite://{}/cli.db", dir.path().display()), 2).unwrap();
        (dir, database)
    }

    fn admin(database: &Database, args: &[&str], stdin: &str) -> Result<String, String> {
        let mut input = stdin.as_bytes();
        let mut out = Vec::new();
        run(args, database, &Clock::system(), PasswordSource::Lines(&mut input), &mut out)?;
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn the_list_lines_up_its_columns_whatever_the_widths() {
        let (_dir, database) = database();
        for (email, role) in [("a@example.com", "valet"), ("wanjiku.long.name@example.co.ke", "owner")] {
            admin(&database, &["create", "--email", email, "--role", role], "Long-Enough-Pass-2026\n").unwrap();
        }
        let listed = admin(&database, &["list"], "").unwrap();
        assert!(listed.ends_with('\n'), "{listed:?}");
        let lines: Vec<&str> = listed.lines().collect();
        assert_eq!(lines.len(), 3, "{listed}");
        // Every column starts where its heading does.
        for heading in ["ROLE", "STATE", "CREATED (UTC)", "LAST SIGN-IN"] {
            let at = lines[0].find(heading).unwrap();
            for line in &lines[1..] {
                assert!(
                    line[..at].ends_with("  ") && !line[at..].starts_with(' '),
                    "{heading} at {at} in {line:?}\n{listed}"
                );
            }
        }
        assert!(listed.contains("valet  active"), "{listed}");
    }

    #[test]
    fn an_account_is_created_listed_disabled_and_enabled() {
        let (_dir, database) = database();
        let created = admin(&database, &["create", "--email", "Amina@Example.com"], "Tumbo-Ngoma-47-Kazi\n").unwrap();
        assert!(created.contains("amina@example.com"), "{created}");

        let listed = admin(&database, &["list"], "").unwrap();
        assert!(listed.contains("amina@example.com") && listed.contains("active"), "{listed}");
        assert!(listed.ends_with('\n'), "the list ends its last line: {listed:?}");
        assert!(listed.contains("staff"), "a new account is staff unless told: {listed}");

        admin(&database, &["disable", "--email", "amina@example.com"], "").unwrap();
        assert!(admin(&database, &["list"], "").unwrap().contains("disabled"));
        admin(&database, &["enable", "--email", "amina@example.com"], "").unwrap();
        assert!(admin(&database, &["list"], "").unwrap().contains("active"));

        let stored = Staff::find_by_email(&mut database.connection().unwrap(), "amina@example.com").unwrap().unwrap();
        assert!(crate::password::verify_password("Tumbo-Ngoma-47-Kazi", &stored.password_hash));
    }

    #[test]
    fn an_account_gets_the_role_asked_for_and_can_change_it() {
        let (_dir, database) = database();
        let created =
            admin(&database, &["create", "--email", "otieno@example.com", "--role", "valet"], "Tumbo-Ngoma-47-Kazi\n")
                .unwrap();
        assert!(created.contains("valet account"), "{created}");
        let role = |database: &Database| {
            Staff::find_by_email(&mut database.connection().unwrap(), "otieno@example.com").unwrap().unwrap().role
        };
        assert_eq!(role(&database), StaffRole::Valet);
        admin(&database, &["role", "--email", "otieno@example.com", "--role", "owner"], "").unwrap();
        assert_eq!(role(&database), StaffRole::Owner);
        let bad = admin(&database, &["role", "--email", "otieno@example.com", "--role", "boss"], "").unwrap_err();
        assert!(bad.contains("expected owner, staff or valet"), "{bad}");
        assert_eq!(role(&database), StaffRole::Owner);
    }

    #[test]
    fn weak_missing_or_duplicate_input_is_refused_and_nothing_is_stored() {
        let (_dir, database) = database();
        let weak = admin(&database, &["create", "--email", "amina@example.com"], "short\n").unwrap_err();
        assert!(weak.contains("at least 12"), "{weak}");
        let missing = admin(&database, &["create", "--email", "amina@example.com"], "").unwrap_err();
        assert!(missing.contains("No password"), "{missing}");
        let bad_email = admin(&database, &["create", "--email", "not-an-email"], "Tumbo-Ngoma-47-Kazi\n").unwrap_err();
        assert!(bad_email.contains("valid email"), "{bad_email}");
        assert_eq!(Staff::list(&mut database.connection().unwrap()).unwrap().len(), 0);

        admin(&database, &["create", "--email", "amina@example.com"], "Tumbo-Ngoma-47-Kazi\n").unwrap();
        let twice = admin(&database, &["create", "--email", "amina@example.com"], "Other-Strong-Pass-9\n").unwrap_err();
        assert!(twice.contains("already exists"), "{twice}");
        assert!(admin(&database, &["frobnicate"], "").unwrap_err().contains("usage"));
    }
}
