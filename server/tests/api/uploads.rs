//! Issue 50: an upload that stops sending is cut off after the idle limit
//! (`LAUNDRY_UPLOAD_IDLE_SECONDS`), answered 408 and its spooled file removed, instead of holding a
//! file and a connection for ever; what a crash left in the spool is removed at the next start,
//! however fresh, while an upload in flight (its file locked) is left alone. On both backends.

use crate::helpers::{Backend, TestApp};
use laundry::domain::StaffRole;
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::time::{Duration, Instant};

/// The files in the app's upload spool.
fn spooled(app: &TestApp) -> usize {
    std::fs::read_dir(app.photos.path().join(".incoming")).map_or(0, |entries| entries.count())
}

async fn a_photo_that_stops_arriving_is_cut_off_and_its_file_removed(backend: Backend) {
    let app = TestApp::builder().on(backend).set("LAUNDRY_UPLOAD_IDLE_SECONDS", "1").start().await;
    let session = app.sign_in_as("intake@example.com", "a long intake password", StaffRole::Staff).await;
    let order = json!({
        "customerName": "Amina Wanjiru", "phone": "0712 345 678", "location": "Kilimani",
        "serviceType": "wash-fold", "quantity": 3, "paymentMethod": "pay-delivery"
    });
    let placed = app.post_json("/api/orders", &order, &[]).await;
    let reference = placed.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned();

    // Half a photo, then nothing: the phone lost its signal, or someone holds the line open.
    let address = app.address.trim_start_matches("http://").to_owned();
    let head = format!(
        "POST /admin/orders/{reference}/items?csrf={} HTTP/1.1\r\nHost: {address}\r\nCookie: {}\r\n\
         Content-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: 2000000\r\n\r\n\
         --XyZ\r\nContent-Disposition: form-data; name=\"item\"\r\n\r\nshirt\r\n\
         --XyZ\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.jpg\"\r\n\
         Content-Type: image/jpeg\r\n\r\n",
        session.csrf, session.cookie
    );
    let started = Instant::now();
    let mut connection = std::net::TcpStream::connect(&address).unwrap();
    connection.write_all(head.as_bytes()).unwrap();
    connection.write_all(&[0xFF, 0xD8, 0xFF, 0xE0].repeat(4096)).unwrap();
    // While it waits for the rest, the part that came is spooled.
    crate::helpers::until("the upload spooled", || (spooled(&app) == 1).then_some(())).await;

    let answer = actix_web::rt::task::spawn_blocking(move || {
        connection.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
        // The server closes the connection after its answer.
        let mut answer = Vec::new();
        connection.read_to_end(&mut answer).unwrap();
        String::from_utf8_lossy(&answer).into_owned()
    })
    .await
    .unwrap();

    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("The photo stopped arriving."), "{answer}");
    assert!(started.elapsed() < Duration::from_secs(10), "cut off after the idle limit: {:?}", started.elapsed());
    assert_eq!(spooled(&app), 0, "its file is removed");
}

async fn what_a_crash_left_in_the_spool_goes_at_the_next_start_and_an_upload_in_flight_stays(backend: Backend) {
    let photos = tempfile::tempdir().unwrap();
    let spool = photos.path().join(".incoming");
    std::fs::create_dir_all(&spool).unwrap();
    // A crash a second ago cut an upload off; another server on this machine is receiving one.
    std::fs::write(spool.join("cut.part"), b"half a photo").unwrap();
    let arriving = std::fs::File::create(spool.join("arriving.part")).unwrap();
    arriving.lock().unwrap();

    let _app =
        TestApp::builder().on(backend).set("LAUNDRY_PHOTOS_DIR", photos.path().display().to_string()).start().await;

    assert!(!spool.join("cut.part").exists(), "the crash's fragment is removed at the start");
    assert!(spool.join("arriving.part").exists(), "an upload in flight is left alone");
    drop(arriving);
}

crate::on_each_backend!(
    a_photo_that_stops_arriving_is_cut_off_and_its_file_removed,
    what_a_crash_left_in_the_spool_goes_at_the_next_start_and_an_upload_in_flight_stays,
);
