//! Backups of the SQLite database while the server takes orders, and restoring one (docs/backups.md):
//! every order answered before the backup began is in the copy, which a new server serves; a
//! backup that fails its checksum, one made by a newer release, and a restore over a database are
//! refused with nothing written; the command line says so with its exit codes.

use crate::helpers::TestApp;
use crate::helpers::orders::an_order;
use diesel::prelude::*;
use laundry::db::backup::{BackupError, backup, restore};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

#[actix_web::test]
async fn a_backup_taken_while_orders_arrive_restores_every_order_answered_before_it() {
    let app = TestApp::builder().start().await;
    let folder = tempfile::tempdir().unwrap();
    let copy = folder.path().join("backups/laundry-2026-11-26.db");
    // The `n`th order, its key its own: sent twice it would be one order.
    let nth = |n: usize| {
        an_order()
            .name(&format!("Backup Customer {n}"))
            .location("Kilimani")
            .idempotency_key(&format!("backup-order-{n}"))
    };
    let mut answered = Vec::new();
    for n in 0..15 {
        answered.push(nth(n).place(&app).await.reference);
    }

    // The backup runs while more orders come in.
    let (url, target) = (app.database_url(), copy.clone());
    let backing_up = tokio::task::spawn_blocking(move || backup(&url, &target));
    let mut during = Vec::new();
    for n in 15..40 {
        during.push(nth(n).place(&app).await.reference);
        if backing_up.is_finished() {
            break;
        }
    }
    let made = backing_up.await.unwrap().unwrap();

    assert!(made.bytes > 0 && made.sha256.len() == 64, "{made:?}");
    let sums = std::fs::read_to_string(folder.path().join("backups/laundry-2026-11-26.db.sha256")).unwrap();
    assert_eq!(sums, format!("{}  laundry-2026-11-26.db\n", made.sha256), "sha256sum's format");
    assert!(!folder.path().join("backups/laundry-2026-11-26.db.partial").exists());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&copy).unwrap().permissions().mode() & 0o777, 0o600, "the customers' data");
    }
    assert!(matches!(backup(&app.database_url(), &copy), Err(BackupError::Exists(_))), "never overwritten");

    let restored_url = format!("sqlite://{}/restored/laundry.db", folder.path().display());
    let restored = restore(&copy, &restored_url).unwrap();
    assert!(restored.orders >= 15, "{restored:?}");
    let server = TestApp::builder()
        .database_url(restored_url.clone())
        .set("LAUNDRY_TRACKING_PER_10_MINUTES", "1000")
        .start()
        .await;
    for order_id in &answered {
        let found: Value = server.track(order_id).await.json().await.unwrap();
        assert_eq!(found["orders"][0]["id"], order_id.as_str(), "{order_id} answered before the backup began");
    }
    // Orders placed during the backup are there whole or not at all.
    for order_id in &during {
        let found: Value = server.track(order_id).await.json().await.unwrap();
        let lines = found["orders"][0]["lines"].as_array().map_or(0, Vec::len);
        assert!(found["orders"].as_array().is_none_or(Vec::is_empty) || lines > 0, "{found}");
    }
    // Restoring over a database is refused.
    assert!(matches!(restore(&copy, &restored_url), Err(BackupError::TargetInUse(_))));
}

#[actix_web::test]
async fn a_damaged_or_newer_backup_is_refused_and_nothing_is_written() {
    let app = TestApp::builder().start().await;
    an_order().name("Backup Customer 1").location("Kilimani").idempotency_key("backup-order-1").place(&app).await;
    let folder = tempfile::tempdir().unwrap();
    let copy = folder.path().join("copy.db");
    backup(&app.database_url(), &copy).unwrap();
    let target = |name: &str| format!("sqlite://{}/{name}.db", folder.path().display());
    let nothing_at = |name: &str| !folder.path().join(format!("{name}.db")).exists();

    // Cut short since it was made.
    let bytes = std::fs::read(&copy).unwrap();
    let short = folder.path().join("short.db");
    std::fs::write(&short, &bytes[..bytes.len() / 2]).unwrap();
    std::fs::copy(folder.path().join("copy.db.sha256"), folder.path().join("short.db.sha256")).unwrap();
    assert!(matches!(restore(&short, &target("a")), Err(BackupError::Checksum(_))));
    assert!(nothing_at("a"));

    // Without its checksum file.
    std::fs::copy(&copy, folder.path().join("alone.db")).unwrap();
    assert!(matches!(restore(&folder.path().join("alone.db"), &target("b")), Err(BackupError::NoChecksum(_))));
    assert!(nothing_at("b"));

    // Made by a newer release: a migration this binary does not know.
    let newer = folder.path().join("newer.db");
    std::fs::copy(&copy, &newer).unwrap();
    let mut connection = SqliteConnection::establish(&newer.display().to_string()).unwrap();
    diesel::sql_query("INSERT INTO __diesel_schema_migrations (version) VALUES ('29991231000000')")
        .execute(&mut connection)
        .unwrap();
    drop(connection);
    rewrite_checksum(&newer);
    let refused = restore(&newer, &target("c")).unwrap_err();
    assert!(matches!(refused, BackupError::Newer { .. }), "{refused}");
    assert!(refused.to_string().contains("made by a newer release"), "{refused}");
    assert!(nothing_at("c") && !folder.path().join("c.db.restoring").exists());

    // PostgreSQL is pg_dump's.
    let postgres = backup("postgres://postgres@127.0.0.1:5432/postgres", &folder.path().join("pg.db"));
    assert!(postgres.unwrap_err().to_string().contains("pg_dump"));
}

#[test]
fn the_command_line_backs_up_restores_and_says_why_not() {
    let folder = tempfile::tempdir().unwrap();
    let laundry = |args: &[&str], database: &str| {
        Command::new(env!("CARGO_BIN_EXE_laundry"))
            .args(args)
            .env("DATABASE_URL", format!("sqlite://{}/{database}", folder.path().display()))
            .env("RUST_LOG", "error")
            .output()
            .unwrap()
    };
    // A database to back up: made by the binary's own migrations.
    laundry::db::Database::open(&format!("sqlite://{}/live.db", folder.path().display()), 1).unwrap();
    let to = folder.path().join("copy.db").display().to_string();

    let made = laundry(&["backup", "--to", &to], "live.db");
    assert!(made.status.success(), "{made:?}");
    assert!(String::from_utf8_lossy(&made.stdout).contains("backed up to"), "{made:?}");
    let again = laundry(&["backup", "--to", &to], "live.db");
    assert_eq!(again.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&again.stderr).contains("exists already"), "{again:?}");
    let restored = laundry(&["restore", "--from", &to], "restored.db");
    assert!(restored.status.success(), "{restored:?}");
    assert!(String::from_utf8_lossy(&restored.stdout).contains("(0 orders)"), "{restored:?}");
    assert!(Path::new(&folder.path().join("restored.db")).exists());
    let usage = laundry(&["backup"], "live.db");
    assert_eq!(usage.status.code(), Some(2));
}

/// The dashboard's HTML for the session of `cookie`.
async fn dashboard(app: &crate::helpers::TestApp, cookie: &str) -> String {
    app.get_with("/admin", &[("cookie", cookie)]).await.text().await.unwrap()
}

/// Writes `path.sha256` for the file as it is now.
fn rewrite_checksum(path: &Path) {
    use sha2::Digest;
    let hash: String = sha2::Sha256::digest(std::fs::read(path).unwrap()).iter().map(|b| format!("{b:02x}")).collect();
    let name = path.file_name().unwrap().to_string_lossy();
    std::fs::write(format!("{}.sha256", path.display()), format!("{hash}  {name}\n")).unwrap();
}

#[actix_web::test]
async fn the_daily_backup_runs_at_its_time_once_a_day_and_keeps_the_last_days_and_weeks() {
    let folder = tempfile::tempdir().unwrap();
    let dir = folder.path().join("daily");
    let today = laundry::clock::Clock::system().nairobi().date();
    // Copies of the 60 days before (made by earlier runs), each with its checksum file.
    std::fs::create_dir_all(&dir).unwrap();
    for back in 1..=60 {
        let day = today - time::Duration::days(back);
        std::fs::write(laundry::jobs::backups::file_of(&dir, day), b"an older copy").unwrap();
        std::fs::write(format!("{}.sha256", laundry::jobs::backups::file_of(&dir, day).display()), b"x").unwrap();
    }
    // The server's clock at 03:29 Nairobi time: nothing yet.
    let at = |hour: u8, minute: u8| today.with_hms(hour, minute, 0).unwrap().assume_offset(laundry::clock::NAIROBI);
    let clock = laundry::clock::Clock::stopped_at(at(3, 29));
    let env = [("LAUNDRY_BACKUP_DIR", dir.display().to_string()), ("LAUNDRY_BACKUP_KEEP_DAYS", "3".to_owned())];
    let app = TestApp::builder().env(&env).retries(crate::helpers::quick_retries()).clock(clock).start().await;
    an_order().name("Backup Customer 1").location("Kilimani").idempotency_key("backup-order-1").place(&app).await;
    let todays = laundry::jobs::backups::file_of(&dir, today);
    app.run_jobs().await;
    assert!(!todays.exists(), "not before 03:30");

    app.clock.set(at(3, 31));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    while !todays.exists() {
        assert!(std::time::Instant::now() < deadline, "the day's backup was never made");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    // Kept: the last 3 days (today and the 2 before) and the newest copy of each of 4 weeks before.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    loop {
        let kept = laundry::jobs::backups::copies(&dir);
        if kept.len() == 7 {
            let newest_old = today - time::Duration::days(3);
            let days: Vec<time::Date> = kept.iter().map(|(day, _)| *day).collect();
            assert!(days.contains(&newest_old) && days.contains(&(today - time::Duration::days(10))), "{days:?}");
            break;
        }
        assert!(std::time::Instant::now() < deadline, "pruning never finished: {kept:?}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let sums = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().to_string_lossy().ends_with(".sha256"))
        .count();
    assert_eq!(sums, 7, "each pruned copy's checksum file goes with it");
    // Sound: it restores.
    let restored = restore(&todays, &format!("sqlite://{}/restored.db", folder.path().display())).unwrap();
    assert_eq!(restored.orders, 1);

    // Once a day: run again for today, nothing is done.
    let plan = laundry::jobs::backups::BackupPlan::of(
        &app.database_url(),
        &laundry::config::BackupSettings { dir: Some(dir.clone()), ..Default::default() },
    )
    .unwrap();
    assert_eq!(app.with_db(|c| laundry::jobs::backups::run(c, &plan, today, "test").unwrap()), None);
}

#[actix_web::test]
async fn the_owners_dashboard_says_when_the_last_backup_was_made_or_that_none_is() {
    use laundry::domain::StaffRole;
    let folder = tempfile::tempdir().unwrap();
    let unscheduled = TestApp::builder().start().await;
    let owner = unscheduled.sign_in_as("owner@example.com", "Backup-Owner-Pass-2026", StaffRole::Owner).await;
    let staff = unscheduled.sign_in_as("desk@example.com", "Backup-Desk-Pass-2026", StaffRole::Staff).await;
    let owners = dashboard(&unscheduled, &owner.cookie).await;
    assert!(owners.contains("No daily backup is scheduled"), "the owner is told");
    let staffs = dashboard(&unscheduled, &staff.cookie).await;
    assert!(!staffs.contains("No daily backup is scheduled") && !staffs.contains("Last backup:"), "staff are not");

    let dir = folder.path().join("daily");
    let env = [("LAUNDRY_BACKUP_DIR", dir.display().to_string())];
    let scheduled = TestApp::builder().env(&env).retries(crate::helpers::quick_retries()).start().await;
    let owner = scheduled.sign_in_as("owner@example.com", "Backup-Owner-Pass-2026", StaffRole::Owner).await;
    assert!(dashboard(&scheduled, &owner.cookie).await.contains("No backup has been made in"));
    let today = scheduled.today();
    backup(&scheduled.database_url(), &laundry::jobs::backups::file_of(&dir, today)).unwrap();
    let fresh = dashboard(&scheduled, &owner.cookie).await;
    assert!(fresh.contains("Last backup: ") && !fresh.contains("more than two days old"), "{fresh}");
    // Three days without a new copy (the disk filled up, the job failed): the owner is warned.
    let three_days_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3 * 24 * 3600);
    let file = std::fs::File::options().write(true).open(laundry::jobs::backups::file_of(&dir, today)).unwrap();
    file.set_modified(three_days_ago).unwrap();
    assert!(dashboard(&scheduled, &owner.cookie).await.contains("The newest backup is more than two days old"));
}
