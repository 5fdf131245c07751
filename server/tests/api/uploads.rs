//! Issue 50: an upload that stops sending is cut off after the idle limit
//! (`LAUNDRY_UPLOAD_IDLE_SECONDS`), answered 408 and its spooled file removed, instead of holding a
//! file and a connection for ever; what a crash left in the spool is removed at the next start,
//! however fresh, while an upload in flight (its file locked) is left alone. A picture whose
//! pixels would take more memory than a photo may (counted in bytes, at its own depth) is refused
//! before it is decoded, however small its file. On both backends.

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

/// A PNG of `width` × `height` pixels of one colour (a few KB however many pixels), 8 or 16 bits a
/// channel, with alpha; or the same as a lossless WebP.
fn crafted(width: u32, height: u32, kind: &str) -> Vec<u8> {
    use image::ImageEncoder;
    let mut out = Vec::new();
    match kind {
        "png16" => {
            let pixels = vec![0x7Fu8; (width * height * 8) as usize];
            let encoder = image::codecs::png::PngEncoder::new(&mut out);
            encoder.write_image(&pixels, width, height, image::ExtendedColorType::Rgba16).unwrap();
        }
        "webp" => {
            let pixels = vec![0x7Fu8; (width * height * 4) as usize];
            let encoder = image::codecs::webp::WebPEncoder::new_lossless(&mut out);
            encoder.write_image(&pixels, width, height, image::ExtendedColorType::Rgba8).unwrap();
        }
        _ => {
            let pixels = vec![0x7Fu8; (width * height * 4) as usize];
            let encoder = image::codecs::png::PngEncoder::new(&mut out);
            encoder.write_image(&pixels, width, height, image::ExtendedColorType::Rgba8).unwrap();
        }
    }
    out
}

async fn a_small_file_whose_pixels_would_take_too_much_memory_is_refused_before_it_is_decoded(backend: Backend) {
    let app = TestApp::builder().on(backend).start().await;
    let session = app.sign_in_as("intake@example.com", "a long intake password", StaffRole::Staff).await;
    let order = json!({
        "customerName": "Amina Wanjiru", "phone": "0712 345 678", "location": "Kilimani",
        "serviceType": "wash-fold", "quantity": 3, "paymentMethod": "pay-delivery"
    });
    let placed = app.post_json("/api/orders", &order, &[]).await;
    let reference = placed.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned();
    // 44 MB of 8-bit RGBA pixels, 46 MB of 16-bit ones, a WebP whose decoder holds two copies of
    // its 23 MB: each file a few KB, each under the old limit of 25 megapixels.
    let cases = [
        ("png8", 3300, 3300, "image/png", "The picture is too large to read (3300 × 3300 pixels)."),
        ("png16", 2400, 2400, "image/png", "The picture is too large to read (2400 × 2400 pixels)."),
        ("webp", 2400, 2400, "image/webp", "The picture is too large to read (2400 × 2400 pixels)."),
    ];
    for (kind, width, height, content_type, words) in cases {
        let file = crafted(width, height, kind);
        assert!(file.len() < 300_000, "{kind}: {} bytes", file.len());
        let boundary = "crafted-boundary";
        let mut body = format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"item\"\r\n\r\nShirt\r\n--{boundary}\r\n\
             Content-Disposition: form-data; name=\"photo\"; filename=\"p\"\r\nContent-Type: {content_type}\r\n\r\n"
        )
        .into_bytes();
        body.extend_from_slice(&file);
        body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        let answer = app
            .client
            .post(format!("{}/admin/orders/{reference}/items?csrf={}", app.address, session.csrf))
            .header("cookie", &session.cookie)
            .header("content-type", format!("multipart/form-data; boundary={boundary}"))
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 422, "{kind} refused");
        let page = answer.text().await.unwrap();
        assert!(page.contains(words), "{kind}: the reason beside the photo field");
    }
    let kept = app.with_db(|c| {
        use diesel::prelude::*;
        laundry::db::schema::garment_photos::table.count().get_result::<i64>(c).unwrap()
    });
    assert_eq!(kept, 0, "nothing kept of them");
}

crate::on_each_backend!(
    a_small_file_whose_pixels_would_take_too_much_memory_is_refused_before_it_is_decoded,
    a_photo_that_stops_arriving_is_cut_off_and_its_file_removed,
    what_a_crash_left_in_the_spool_goes_at_the_next_start_and_an_upload_in_flight_stays,
);
