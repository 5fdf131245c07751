//! Every garment traced (issue 36), on both backends: items taken in with tags unique in their
//! order and never given again, photos checked (a non-image, an oversized file and a file whose
//! type lies are refused, and nothing is kept of them) and stripped of their metadata, ready refused
//! without a rack, a rack audit, finding an order by its tag, the valet's short count at delivery
//! opening a claim, a customer's claim with a photo resolved by staff through the ledger and texted,
//! and another order's photo answered 404.

use crate::helpers::orders::{Placed, an_order};
use crate::helpers::{SignedIn, TestApp, money, set_status, valet_post};
use crate::on_both_backends;
use diesel::prelude::*;
use image::ImageEncoder;
use laundry::db::schema::{garment_photos, outbox, stops};
use laundry::domain::{ClaimOutcome, EntryKind, OrderReference, OrderStatus, StaffRole, StopKind};
use laundry::models::garments::Garment;
use laundry::models::garments::claim::Claim;
use laundry::models::garments::handling::Handling;
use laundry::models::order::Order;
use laundry::models::stop::Stop;
use laundry::notify::NotifyCustomer;
use serde_json::{Value, json};

const STAFF: &str = "intake@example.com";
const PASSWORD: &str = "a long intake password";

fn stored(app: &TestApp, reference: &str) -> Order {
    app.with_db(|c| Order::find_by_reference(c, &OrderReference::parse(reference).unwrap()).unwrap().unwrap())
}

async fn staff(app: &TestApp) -> SignedIn {
    app.create_staff(STAFF, PASSWORD);
    app.sign_in(STAFF, PASSWORD).await
}

/// A `width` × `height` JPEG of a gradient with an Exif block that holds a place.
fn phone_photo(width: u32, height: u32) -> Vec<u8> {
    let picture = image::RgbImage::from_fn(width, height, |x, y| image::Rgb([(x % 251) as u8, (y % 241) as u8, 90]));
    let mut plain = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut plain, 90)
        .write_image(&picture, width, height, image::ExtendedColorType::Rgb8)
        .unwrap();
    let mut exif = b"Exif\0\0II*\0\x08\0\0\0\x01\0\x12\x01\x03\0\x01\0\0\0\x01\0\0\0\0\0\0\0".to_vec();
    exif.extend_from_slice(b"GPS -1.2921,36.8219 SECRET-PLACE");
    let mut jpeg = plain[..2].to_vec();
    jpeg.extend_from_slice(&[0xFF, 0xE1]);
    jpeg.extend_from_slice(&u16::try_from(exif.len() + 2).unwrap().to_be_bytes());
    jpeg.extend_from_slice(&exif);
    jpeg.extend_from_slice(&plain[2..]);
    jpeg
}

fn png(width: u32, height: u32) -> Vec<u8> {
    let picture = image::RgbImage::from_fn(width, height, |x, _| image::Rgb([x as u8, 10, 10]));
    let mut out = Vec::new();
    image::codecs::png::PngEncoder::new(&mut out)
        .write_image(&picture, width, height, image::ExtendedColorType::Rgb8)
        .unwrap();
    out
}

/// A file part of a form: its field, file name, declared type and bytes.
struct File<'a>(&'a str, &'a str, &'a str, &'a [u8]);

/// A `multipart/form-data` body as a browser sends it: its content type and bytes.
fn multipart(fields: &[(&str, &str)], file: Option<File<'_>>) -> (String, Vec<u8>) {
    let boundary = "----laundry-test-boundary-7MA4YWxkTrZu0gW";
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n").as_bytes(),
        );
    }
    if let Some(File(name, filename, content_type, bytes)) = file {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"{filename}\"\r\nContent-Type: {content_type}\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

/// Posts a multipart form as a signed-in staff member's page does: the CSRF token in its address.
async fn staff_upload(
    app: &TestApp,
    session: &SignedIn,
    path: &str,
    fields: &[(&str, &str)],
    file: Option<File<'_>>,
) -> reqwest::Response {
    let (content_type, body) = multipart(fields, file);
    app.client
        .post(format!("{}{path}?csrf={}", app.address, session.csrf))
        .header("cookie", &session.cookie)
        .header("content-type", content_type)
        .body(body)
        .send()
        .await
        .unwrap()
}

async fn staff_get(app: &TestApp, session: &SignedIn, path: &str) -> reqwest::Response {
    app.get_with(path, &[("cookie", &session.cookie)]).await
}

fn tags(app: &TestApp, placed: &Placed) -> Vec<i32> {
    app.with_db(|c| Garment::of_order(c, &placed.key).unwrap().iter().map(|garment| garment.tag).collect())
}

fn photos(app: &TestApp, placed: &Placed) -> Vec<(String, Option<i32>, Option<String>)> {
    app.with_db(|c| {
        garment_photos::table
            .filter(garment_photos::order_id.eq(&placed.key))
            .order(garment_photos::taken_at.asc())
            .select((garment_photos::id, garment_photos::tag, garment_photos::claim_id))
            .load(c)
            .unwrap()
    })
}

/// Every file kept in the app's photo folder (spooled uploads included).
fn files_kept(app: &TestApp) -> usize {
    fn count(dir: &std::path::Path) -> usize {
        std::fs::read_dir(dir).map_or(0, |entries| {
            entries.flatten().map(|entry| if entry.path().is_dir() { count(&entry.path()) } else { 1 }).sum()
        })
    }
    count(app.photos.path())
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|window| window == needle)
}

/// Records an item through the intake form (no photo); its tag.
async fn record(app: &TestApp, session: &SignedIn, placed: &Placed, item: &str) -> i32 {
    let path = format!("/admin/orders/{}/items", placed.reference);
    let response = staff_upload(app, session, &path, &[("item", item), ("colour", "blue")], None).await;
    assert_eq!(response.status(), 303, "{item} recorded");
    let location = response.headers()["location"].to_str().unwrap().to_owned();
    location.rsplit("#tag-").next().unwrap().parse().unwrap()
}

on_both_backends! {
    // Issue 50: the same claim posted again and again with a photo keeps a few, not one per post;
    // an order's link sends at most a few photos a minute, and a capped number in all.
    async fn an_orders_link_sends_a_few_photos_a_minute_and_a_capped_number_in_all(app: TestApp) {
        let session = staff(&app).await;
        let placed = an_order().phone("0712345685").place(&app).await;
        let tag = record(&app, &session, &placed, "Shirt").await;
        let (paid, now) = (stored(&app, &placed.reference), app.now());
        app.with_db(|c| set_status(c, &paid.id, OrderStatus::Delivered, STAFF, &NotifyCustomer::nobody(), now).unwrap());
        let photo = phone_photo(320, 240);
        let report = |story: &str| {
            let tag = tag.to_string();
            let fields = [("kind", "damaged"), ("tag", tag.as_str()), ("story", story)];
            let (content_type, body) = multipart(&fields, Some(File("photo", "claim.jpg", "image/jpeg", &photo)));
            let request = app.client.post(format!("{}/t/{}/claims", app.address, placed.token))
                .header("content-type", content_type).body(body);
            async move { request.send().await.unwrap() }
        };
        let kept = || photos(&app, &placed).len();
        let minute = time::Duration::seconds(61);

        // The same report thirty times in a row: three photos, then "wait a minute".
        let mut statuses = Vec::new();
        for _ in 0..30 {
            statuses.push(report("The collar is torn").await.status().as_u16());
        }
        assert_eq!(statuses[..3], [303, 303, 303]);
        assert!(statuses[3..].iter().all(|&status| status == 429), "{statuses:?}");
        assert_eq!(kept(), 3);
        let told = report("The collar is torn").await.text().await.unwrap();
        assert!(told.contains("Please wait a minute before sending another photo."));
        // A minute later that report takes no more: it has its three.
        app.clock.advance(minute);
        let full = report("The collar is torn").await;
        assert_eq!(full.status(), 409);
        assert!(full.text().await.unwrap().contains("This report has 3 photos already, as many as one report may."));
        assert_eq!(kept(), 3);

        // Other reports, a minute apart, up to ten photos for the order.
        for story in ["A button is missing", "The hem came undone", "A stain stayed"] {
            app.clock.advance(minute);
            for _ in 0..3 {
                let sent = report(story).await;
                assert!(matches!(sent.status().as_u16(), 303 | 409), "{story}: {}", sent.status());
            }
        }
        assert_eq!(kept(), 10);
        app.clock.advance(minute);
        let capped = report("A stain stayed").await;
        assert_eq!(capped.status(), 409);
        assert!(capped.text().await.unwrap().contains("This order has 10 photos from you already, as many as it may."));
        assert_eq!(kept(), 10);
        let claims = app.with_db(|c| Claim::of_order(c, &placed.key).unwrap());
        assert_eq!(claims.len(), 4, "the reports themselves are kept");
        // Staff's intake photos are not the customer's: staff still add them.
        let intake = staff_upload(&app, &session, &format!("/admin/orders/{}/items/{tag}/photos", placed.reference), &[],
            Some(File("photo", "shirt.jpg", "image/jpeg", &photo))).await;
        assert_eq!(intake.status(), 303);
        assert_eq!(kept(), 11);
    }

    async fn items_are_tagged_once_each_and_their_photos_kept_without_metadata(app: TestApp) {
        let session = staff(&app).await;
        let placed = an_order().phone("0712345678").place(&app).await;
        let path = format!("/admin/orders/{}/items", placed.reference);
        let page = staff_get(&app, &session, &path).await;
        assert_eq!(page.status(), 200);
        assert!(page.text().await.unwrap().contains("No items recorded yet"));

        let photo = phone_photo(2400, 1800);
        let first = staff_upload(&app, &session, &path,
            &[("item", "Shirt"), ("colour", "blue"), ("note", "M&S"), ("damage", "Ink stain on the cuff")],
            Some(File("photo", "IMG_0001.jpg", "image/jpeg", &photo))).await;
        assert_eq!(first.status(), 303);
        let location = first.headers()["location"].to_str().unwrap();
        assert_eq!(location, format!("{path}?saved=item-1#tag-1"));
        let shown = staff_get(&app, &session, location).await.text().await.unwrap();
        assert!(shown.contains(&format!("Item {}-1 recorded.", placed.reference)));
        assert!(shown.contains("Ink stain on the cuff"));

        // The photo: resized, upright, and without the place its Exif held.
        let kept = photos(&app, &placed);
        assert_eq!(kept.len(), 1);
        let (id, tag, _) = &kept[0];
        assert_eq!(*tag, Some(1));
        let full = staff_get(&app, &session, &format!("/admin/photos/{id}")).await;
        assert_eq!(full.status(), 200);
        assert_eq!(full.headers()["content-type"], "image/jpeg");
        let bytes = full.bytes().await.unwrap();
        assert!(!contains(&bytes, b"SECRET-PLACE") && !contains(&bytes, b"Exif"));
        let decoded = image::load_from_memory(&bytes).unwrap();
        assert_eq!((decoded.width(), decoded.height()), (1280, 960));
        let thumb = staff_get(&app, &session, &format!("/admin/photos/{id}/thumb")).await;
        assert_eq!(image::load_from_memory(&thumb.bytes().await.unwrap()).unwrap().width(), 240);

        // Removed by mistake, a tag is not given again.
        let second = record(&app, &session, &placed, "Trousers").await;
        assert_eq!(second, 2);
        let removed = valet_post(&app, &session, &format!("{path}/2/remove"), &[]).await;
        assert_eq!(removed.status(), 303);
        assert_eq!(record(&app, &session, &placed, "Dress").await, 3);
        assert_eq!(tags(&app, &placed), [1, 3]);

        // Items recorded at once still get a tag each.
        let at_once = futures::future::join_all((0..6).map(|n| {
            let (app, session, placed) = (&app, &session, &placed);
            async move { record(app, session, placed, &format!("Towel {n}")).await }
        }))
        .await;
        let mut numbers = at_once.clone();
        numbers.sort_unstable();
        numbers.dedup();
        assert_eq!(numbers.len(), 6, "{at_once:?}");
        assert_eq!(tags(&app, &placed).len(), 8);

        // A photo of an item already recorded; then another order's staff address does not know it.
        let more = staff_upload(&app, &session, &format!("{path}/3/photos"), &[],
            Some(File("photo", "dress.png", "image/png", &png(64, 48)))).await;
        assert_eq!(more.status(), 303);
        assert_eq!(photos(&app, &placed).iter().filter(|(_, tag, _)| *tag == Some(3)).count(), 1);
        let none = staff_upload(&app, &session, &format!("{path}/99/photos"), &[],
            Some(File("photo", "x.png", "image/png", &png(8, 8)))).await;
        assert_eq!(none.status(), 404);

        // Bags and the tag labels, with a QR code each.
        assert_eq!(valet_post(&app, &session, &format!("/admin/orders/{}/bags", placed.reference), &[("bags", "2")]).await.status(), 303);
        let labels = staff_get(&app, &session, &format!("/admin/orders/{}/tags?size=58", placed.reference)).await;
        assert_eq!(labels.status(), 200);
        let labels = labels.text().await.unwrap();
        assert!(labels.contains(&format!("{}-3", placed.reference)) && labels.contains("1 of 8"));
        assert_eq!(labels.matches("class=\"tag__qr\"").count(), 9, "the bag ticket and eight labels");
        assert_eq!(staff_get(&app, &session, &format!("/admin/orders/{}/tags?size=99", placed.reference)).await.status(), 400);
        for missing in ["ZZZZZZZZ", "no-such-order"] {
            let page = staff_get(&app, &session, &format!("/admin/orders/{missing}/items")).await;
            assert_eq!(page.status(), 404);
            assert!(page.text().await.unwrap().contains("<html"), "the site's 404 page");
        }
    }

    async fn what_is_not_a_photo_is_refused_and_nothing_is_kept(app: TestApp) {
        let session = staff(&app).await;
        let placed = an_order().phone("0712345679").place(&app).await;
        let path = format!("/admin/orders/{}/items", placed.reference);
        let before = files_kept(&app);

        let text = staff_upload(&app, &session, &path, &[("item", "Shirt")],
            Some(File("photo", "notes.jpg", "image/jpeg", b"<html><script>alert(1)</script></html>"))).await;
        assert_eq!(text.status(), 422);
        let text = text.text().await.unwrap();
        assert!(text.contains("This file is not a photo we can read"), "the reason is on the page");
        assert!(text.contains(r#"value="Shirt""#), "what was typed is kept");

        let lying = staff_upload(&app, &session, &path, &[("item", "Shirt")],
            Some(File("photo", "photo.jpg", "image/jpeg", &png(20, 20)))).await;
        assert_eq!(lying.status(), 422);
        assert!(lying.text().await.unwrap().contains("The file says it is a JPEG but it is a PNG picture"));

        let mut huge = phone_photo(64, 64);
        huge.resize(16 * 1024 * 1024, 0);
        let oversized = staff_upload(&app, &session, &path, &[("item", "Shirt")],
            Some(File("photo", "huge.jpg", "image/jpeg", &huge))).await;
        assert_eq!(oversized.status(), 413);
        assert!(oversized.text().await.unwrap().contains("The photo is larger than 15 MB"));

        let cut = phone_photo(400, 300);
        let broken = staff_upload(&app, &session, &path, &[("item", "Shirt")],
            Some(File("photo", "cut.jpg", "image/jpeg", &cut[..cut.len() / 3]))).await;
        assert_eq!(broken.status(), 422);

        let nameless = staff_upload(&app, &session, &path, &[("item", "  ")], None).await;
        assert_eq!(nameless.status(), 422);
        assert!(nameless.text().await.unwrap().contains("Say what the item is"));

        assert_eq!(tags(&app, &placed), Vec::<i32>::new(), "no item was recorded");
        assert_eq!(photos(&app, &placed), []);
        assert_eq!(files_kept(&app), before, "no photo and no spooled upload was left behind");

        // Without its token in the address, the form is refused before it is read.
        let (content_type, body) = multipart(&[("item", "Shirt")], None);
        let forged = app.client.post(format!("{}{path}", app.address))
            .header("cookie", &session.cookie).header("content-type", content_type).body(body)
            .send().await.unwrap();
        assert_eq!(forged.status(), 403);
        // A valet cannot use the intake page.
        let valet = app.sign_in_as("valet@example.com", PASSWORD, StaffRole::Valet).await;
        assert_eq!(staff_get(&app, &valet, &path).await.status(), 303);
    }

    async fn ready_asks_for_a_rack_and_the_audit_marks_what_is_not_there(app: TestApp) {
        let session = staff(&app).await;
        let placed = an_order().phone("0712345680").place(&app).await;
        let other = an_order().phone("0712345681").place(&app).await;
        let status = |placed: &Placed| format!("/api/admin/orders/{}/status", placed.reference);
        let post = |path: String, body: Value| {
            let request = app.staff_request(reqwest::Method::POST, &path, &session, true).json(&body);
            async move { request.send().await.unwrap() }
        };

        let without = post(status(&placed), json!({"status": "ready"})).await;
        assert_eq!(without.status(), 422);
        let body: Value = without.json().await.unwrap();
        assert_eq!(body["fields"]["rack"], "Choose the rack where the order hangs: A1, A2, A3, A4, B1, B2, B3, B4.");
        let unknown = post(status(&placed), json!({"status": "ready", "rack": "Z9"})).await;
        assert_eq!(unknown.status(), 422);
        assert_eq!(stored(&app, &placed.reference).status, OrderStatus::Pending, "nothing changed");

        assert_eq!(post(status(&placed), json!({"status": "ready", "rack": " b2 "})).await.status(), 200);
        assert_eq!(post(status(&other), json!({"status": "ready", "rack": "A1"})).await.status(), 200);
        let handling = app.with_db(|c| Handling::of_order(c, &placed.key).unwrap());
        assert_eq!((handling.rack.as_deref(), handling.racked_by.as_deref()), (Some("B2"), Some(STAFF)));
        assert_eq!(stored(&app, &placed.reference).status, OrderStatus::Ready);
        // Ready again needs no rack: it hangs where it is.
        assert_eq!(post(status(&placed), json!({"status": "ready"})).await.status(), 200);

        let floor = staff_get(&app, &session, "/admin/garments").await.text().await.unwrap();
        assert!(floor.contains(&placed.reference) && floor.contains(&other.reference));
        let unlisted = valet_post(&app, &session, "/admin/racks/audit", &[("listed", &placed.reference)]).await;
        assert_eq!(unlisted.headers()["location"], "/admin/garments?done=audit&missing=1#racks");
        assert!(app.with_db(|c| Handling::of_order(c, &other.key).unwrap().missing_since.is_none()), "an order the page did not list is not judged");
        let listed = [("listed", placed.reference.as_str()), ("listed", other.reference.as_str())];
        let audit = valet_post(&app, &session, "/admin/racks/audit", &[listed[0], listed[1], ("seen", &placed.reference)]).await;
        assert_eq!(audit.status(), 303);
        assert_eq!(audit.headers()["location"], "/admin/garments?done=audit&missing=1#racks");
        let missing = |placed: &Placed| app.with_db(|c| Handling::of_order(c, &placed.key).unwrap().missing_since);
        assert!(missing(&other).is_some() && missing(&placed).is_none());
        // Staff see it in "Needs attention" until it is found (issue 49).
        let waiting = staff_get(&app, &session, "/api/admin/unconfirmed").await.json::<serde_json::Value>().await.unwrap();
        let lost = waiting["waiting"].as_array().unwrap().iter().find(|item| item["orderId"] == other.reference.as_str()).cloned();
        let lost = lost.expect("the order not on its rack waits");
        assert_eq!(lost["kind"], "missing-from-rack");
        assert!(lost["what"].as_str().unwrap().starts_with("Not on rack "), "{lost}");
        // Hung again (found), it is no longer missing.
        let rack = format!("/admin/orders/{}/rack", other.reference);
        assert_eq!(valet_post(&app, &session, &rack, &[("rack", "A3")]).await.status(), 303);
        assert!(missing(&other).is_none());
        let waiting = staff_get(&app, &session, "/api/admin/unconfirmed").await.json::<serde_json::Value>().await.unwrap();
        assert!(!waiting["waiting"].to_string().contains("missing-from-rack"), "found, it waits no more");
        assert_eq!(valet_post(&app, &session, &rack, &[("rack", "Nowhere")]).await.status(), 422);

        // Finding an order by its tag, typed or scanned.
        let tag = record(&app, &session, &placed, "Shirt").await;
        let scan = staff_get(&app, &session, &format!("/admin/scan?tag={}-{tag}", placed.reference.to_lowercase())).await;
        assert_eq!(scan.status(), 303);
        assert_eq!(scan.headers()["location"].to_str().unwrap(), format!("/admin/orders/{}/items#tag-{tag}", placed.reference));
        let scanned = format!("/admin/scan?tag={}", urlencode(&format!("http://127.0.0.1/admin/scan?tag={}-{tag}", placed.reference)));
        assert_eq!(staff_get(&app, &session, &scanned).await.status(), 303);
        let no_item = staff_get(&app, &session, &format!("/admin/scan?tag={}-7", placed.reference)).await;
        assert_eq!(no_item.status(), 404);
        assert!(no_item.text().await.unwrap().contains(&format!("has no item {}-7", placed.reference)));
        assert_eq!(staff_get(&app, &session, "/admin/scan?tag=hello").await.status(), 404);
    }

    async fn a_short_count_at_delivery_opens_a_claim(app: TestApp) {
        let session = staff(&app).await;
        let (valet_id, valet) = {
            let session = app.sign_in_as("otieno@example.com", PASSWORD, StaffRole::Valet).await;
            let id = app.with_db(|c| laundry::models::staff::Staff::find_by_email(c, "otieno@example.com").unwrap().unwrap().id);
            (id, session)
        };
        let placed = an_order().phone("0712345682").place(&app).await;
        let today = app.today();
        let stop_of = |kind: StopKind, position: i32| app.with_db(|c| {
            diesel::update(stops::table.filter(stops::order_id.eq(&placed.key)).filter(stops::kind.eq(kind)))
                .set((stops::day.eq(today), stops::window_start.eq(1140), stops::window_end.eq(1200),
                    stops::valet_id.eq(&valet_id), stops::run_position.eq(position)))
                .execute(c).unwrap();
            Stop::of_order(c, &placed.key, kind).unwrap().unwrap().id
        });
        let pickup = stop_of(StopKind::Pickup, 1);
        let delivery = stop_of(StopKind::Delivery, 2);
        let picked_up = format!("/valet/stops/{pickup}/picked-up");
        let miscounted = valet_post(&app, &valet, &picked_up, &[("bags", "2"), ("kg", "3"), ("doorItems", "none")]).await;
        assert_eq!(miscounted.status(), 422);
        assert_eq!(stored(&app, &placed.reference).status, OrderStatus::Pending);
        assert_eq!(valet_post(&app, &valet, &picked_up, &[("bags", "2"), ("kg", "3"), ("doorItems", "4")]).await.status(), 303);
        assert_eq!(app.with_db(|c| Handling::of_order(c, &placed.key).unwrap().door_items), Some(4));
        for item in ["Shirt", "Shirt", "Dress"] {
            record(&app, &session, &placed, item).await;
        }
        let intake = staff_get(&app, &session, &format!("/admin/orders/{}/items", placed.reference)).await.text().await.unwrap();
        assert!(intake.contains("The valet counted 4 items at the door; 3 are tagged here."));
        let page = app.get_with("/valet", &[("cookie", &valet.cookie)]).await.text().await.unwrap();
        assert!(page.contains("Hand over 3 items in 2 bags"));

        let path = format!("/valet/stops/{delivery}/delivered");
        let due = money(&app, &placed.reference).0.to_pay().to_string();
        let uncounted = valet_post(&app, &valet, &path, &[("paid", "cash"), ("cash", &due)]).await;
        assert_eq!(uncounted.status(), 422);
        assert!(uncounted.text().await.unwrap().contains("Count the 3 items and the bags before handing them over."));
        assert_eq!(stored(&app, &placed.reference).status, OrderStatus::PickedUp);

        let short = valet_post(&app, &valet, &path,
            &[("paid", "cash"), ("cash", &due), ("countItems", "2"), ("countBags", "2")]).await;
        assert_eq!(short.status(), 303);
        assert_eq!(stored(&app, &placed.reference).status, OrderStatus::Delivered, "handed over what was there");
        // The valet is told on the spot, before leaving the door (issue 49).
        let back = short.headers()["location"].to_str().unwrap().to_owned();
        let told = app.get_with(&back, &[("cookie", &valet.cookie)]).await.text().await.unwrap();
        let said = format!("Delivered order {}: 2 of 3 items. A claim is open: tell the customer we are looking.", placed.reference);
        assert!(told.contains(&said), "{told}");
        let claims = app.with_db(|c| Claim::of_order(c, &placed.key).unwrap());
        assert_eq!(claims.len(), 1);
        assert_eq!((claims[0].story.as_str(), claims[0].opened_by.as_str()), ("Counted at delivery: 2 of 3 items.", "otieno@example.com"));
        let handling = app.with_db(|c| Handling::of_order(c, &placed.key).unwrap());
        assert_eq!((handling.counted_items, handling.counted_bags), (Some(2), Some(2)));
        let floor = staff_get(&app, &session, "/admin/garments").await.text().await.unwrap();
        assert!(floor.contains("Counted at delivery: 2 of 3 items."));
    }

    async fn a_customer_reports_a_damaged_item_and_staff_resolve_it_through_the_ledger(app: TestApp) {
        let session = staff(&app).await;
        let placed = an_order().phone("0712345683").place(&app).await;
        let stranger = an_order().phone("0712345684").place(&app).await;
        let tag = record(&app, &session, &placed, "Shirt").await;
        let intake = staff_upload(&app, &session, &format!("/admin/orders/{}/items/{tag}/photos", placed.reference), &[],
            Some(File("photo", "shirt.jpg", "image/jpeg", &phone_photo(800, 600)))).await;
        assert_eq!(intake.status(), 303);
        let report = |placed: &Placed, fields: Vec<(&'static str, String)>, photo: Option<Vec<u8>>| {
            let fields: Vec<(&str, String)> = fields;
            let borrowed: Vec<(&str, &str)> = fields.iter().map(|(n, v)| (*n, v.as_str())).collect();
            let (content_type, body) = multipart(&borrowed, photo.as_deref().map(|bytes| File("photo", "claim.jpg", "image/jpeg", bytes)));
            let request = app.client.post(format!("{}/t/{}/claims", app.address, placed.token))
                .header("content-type", content_type).body(body);
            async move { request.send().await.unwrap() }
        };
        let claim = vec![("kind", "damaged".to_owned()), ("tag", tag.to_string()), ("story", "The collar is torn".to_owned())];

        let early = report(&placed, claim.clone(), None).await;
        assert_eq!(early.status(), 409);
        assert!(early.text().await.unwrap().contains("has not been delivered yet"));

        let (paid, now) = (stored(&app, &placed.reference), app.now());
        app.with_db(|c| set_status(c, &paid.id, OrderStatus::Delivered, STAFF, &NotifyCustomer::nobody(), now).unwrap());
        let payment = app.staff_request(reqwest::Method::POST, &format!("/api/admin/orders/{}/payment", placed.reference), &session, true)
            .json(&json!({"method": "cash"})).send().await.unwrap();
        assert_eq!(payment.status(), 200);

        let wrong_item = report(&placed, vec![("kind", "damaged".to_owned()), ("tag", "9".to_owned()), ("story", "Torn".to_owned())], None).await;
        assert_eq!(wrong_item.status(), 409);
        let no_story = report(&placed, vec![("kind", "damaged".to_owned())], None).await;
        assert_eq!(no_story.status(), 422);
        assert!(no_story.text().await.unwrap().contains("Tell us in a few words what happened."));
        let cross_site = app.client.post(format!("{}/t/{}/claims", app.address, placed.token))
            .header("sec-fetch-site", "cross-site").header("content-type", "multipart/form-data; boundary=x").body("--x--\r\n")
            .send().await.unwrap();
        assert_eq!(cross_site.status(), 403);

        let sent = report(&placed, claim.clone(), Some(phone_photo(640, 480))).await;
        assert_eq!(sent.status(), 303);
        assert_eq!(sent.headers()["location"].to_str().unwrap(), format!("/t/{}?done=claim#claims", placed.token));
        // The same report sent again is the same claim.
        assert_eq!(report(&placed, claim.clone(), None).await.status(), 303);
        let claims = app.with_db(|c| Claim::of_order(c, &placed.key).unwrap());
        assert_eq!(claims.len(), 1);
        assert_eq!(claims[0].tag_numbers(), [tag]);

        // The customer sees their items and photos; another order's page does not show them.
        let own = app.get(&format!("/t/{}", placed.token)).await.text().await.unwrap();
        assert!(own.contains("Your items (1)") && own.contains("The collar is torn"));
        let kept = photos(&app, &placed);
        assert_eq!(kept.len(), 2);
        for (id, _, _) in &kept {
            assert_eq!(app.get(&format!("/t/{}/photos/{id}", placed.token)).await.status(), 200);
            assert_eq!(app.get(&format!("/t/{}/photos/{id}/thumb", placed.token)).await.status(), 200);
            assert_eq!(app.get(&format!("/t/{}/photos/{id}", stranger.token)).await.status(), 404, "another customer's photo");
            assert_eq!(app.get(&format!("/admin/photos/{id}")).await.status(), 303, "staff's address needs a session");
        }
        assert_eq!(app.get(&format!("/t/{}/photos/{}", placed.token, "0".repeat(32))).await.status(), 404);

        // Staff see it beside the intake photo, and resolve it: KSh 200 off, given back in cash.
        let floor = staff_get(&app, &session, "/admin/garments").await.text().await.unwrap();
        assert!(floor.contains("The collar is torn") && floor.contains(&format!("Intake photo 1 of {}-{tag}", placed.reference)));
        let resolve = format!("/admin/claims/{}/resolve", claims[0].id);
        let no_amount = valet_post(&app, &session, &resolve, &[("outcome", "refund"), ("method", "cash")]).await;
        assert_eq!(no_amount.status(), 422);
        // More than the order costs: refused, and nothing of it is written (no discount, still open).
        let entries_before = money(&app, &placed.reference).1.len();
        let too_much = valet_post(&app, &session, &resolve,
            &[("outcome", "credit"), ("amount", "900000"), ("note", "Sorry")]).await;
        assert_eq!(too_much.status(), 409);
        assert!(too_much.text().await.unwrap().contains(r#"value="900000""#), "what staff typed comes back");
        assert_eq!(money(&app, &placed.reference).1.len(), entries_before);
        assert_eq!(app.with_db(|c| Claim::find(c, &claims[0].id).unwrap().unwrap().resolved_at), None);
        let resolved = valet_post(&app, &session, &resolve,
            &[("outcome", "refund"), ("amount", "200"), ("method", "cash"), ("note", "Sorry about the collar.")]).await;
        assert_eq!(resolved.status(), 303);
        let (balance, entries) = money(&app, &placed.reference);
        let kinds: Vec<(EntryKind, i32)> = entries.iter().rev().take(2).map(|entry| (entry.kind, entry.amount)).collect();
        assert_eq!(kinds, [(EntryKind::Refund, 200), (EntryKind::Discount, -200)]);
        assert_eq!(balance.owed_back(), 0);
        let claim = app.with_db(|c| Claim::find(c, &claims[0].id).unwrap().unwrap());
        assert_eq!((claim.outcome, claim.amount, claim.given_back), (Some(ClaimOutcome::Refund), Some(200), Some(200)));
        let texts: Vec<String> = app.with_db(|c| outbox::table.filter(outbox::order_id.eq(&placed.key))
            .select(outbox::params).load(c).unwrap());
        assert!(texts.iter().any(|text| text.contains("about your report")
            && text.contains("KSh 200 off the order; KSh 200 of what you paid is given back to you.")), "{texts:?}");
        let entries_after = money(&app, &placed.reference).1.len();
        assert_eq!(valet_post(&app, &session, &resolve, &[("outcome", "refund"), ("amount", "200"), ("method", "cash")]).await.status(), 409);
        assert_eq!(money(&app, &placed.reference).1.len(), entries_after, "a claim resolved already moves no money");
    }
}

fn urlencode(text: &str) -> String {
    serde_urlencoded::to_string([("x", text)]).unwrap().trim_start_matches("x=").to_owned()
}

/// A step of an intake: an item recorded on order 0 or 1, or the `n`th item still there removed.
#[derive(Debug, Clone)]
enum Intake {
    Record(usize),
    Remove(usize, usize),
}

fn intake_step() -> impl proptest::strategy::Strategy<Value = Intake> {
    use proptest::prelude::*;
    prop_oneof![3 => (0..2usize).prop_map(Intake::Record), 1 => (0..2usize, 0..8usize).prop_map(|(o, n)| Intake::Remove(o, n))]
}

/// Whatever is recorded and removed, in any order: each order's items are exactly those recorded
/// and not removed, and each new item's tag is one more than any tag the order ever had (so a tag
/// is never given twice, even after its item was removed).
#[actix_web::test]
async fn tags_are_never_given_twice_whatever_is_recorded_and_removed() {
    use laundry::db::write_transaction;
    use laundry::domain::garment::GarmentFields;
    use proptest::test_runner::{Config, TestCaseError, TestRunner};
    let app = TestApp::builder().start().await;
    let orders = [an_order().phone("0712345690").place(&app).await, an_order().phone("0712345691").place(&app).await];
    let fields =
        GarmentFields { item: "Shirt".to_owned(), colour: String::new(), note: String::new(), damage: String::new() };
    let mut runner = TestRunner::new(Config { cases: 48, ..Config::default() });
    let steps = proptest::collection::vec(intake_step(), 0..40);
    runner
        .run(&steps, |steps| {
            app.with_db(|c| diesel::sql_query("DELETE FROM garments").execute(c).unwrap());
            let (mut live, mut highest): ([Vec<i32>; 2], [i32; 2]) = (Default::default(), [0, 0]);
            for step in &steps {
                let now = app.now();
                match *step {
                    Intake::Record(o) => {
                        let garment = app.with_db(|c| {
                            write_transaction(c, |c| {
                                laundry::lifecycle::garments::record_item(
                                    c,
                                    &orders[o].key,
                                    &fields,
                                    None,
                                    "prop@example.com",
                                    now,
                                )
                            })
                            .unwrap()
                            .unwrap()
                        });
                        proptest::prop_assert_eq!(
                            garment.tag,
                            highest[o] + 1,
                            "the next tag after every tag the order had"
                        );
                        highest[o] = garment.tag;
                        live[o].push(garment.tag);
                    }
                    Intake::Remove(o, n) => {
                        let Some(&tag) = live[o].get(n) else { continue };
                        app.with_db(|c| {
                            write_transaction(c, |c| {
                                laundry::lifecycle::garments::remove_item(
                                    c,
                                    &orders[o].key,
                                    tag,
                                    "prop@example.com",
                                    now,
                                )
                            })
                            .unwrap()
                            .unwrap()
                        });
                        live[o].retain(|kept| *kept != tag);
                    }
                }
                for o in 0..2 {
                    proptest::prop_assert_eq!(tags(&app, &orders[o]), live[o].clone());
                }
            }
            Ok::<(), TestCaseError>(())
        })
        .unwrap();
}

/// A claim's answer over the limit of texts to one phone (issue 49): held until the phone's hour
/// has room, never dropped, and staff are told when it goes; the outbox names it as a claim's answer.
mod claim_answers {
    use super::*;
    use crate::helpers::{Backend, quick_retries, sms_env};
    use laundry::domain::{MessageKind, OutboxStatus};
    use laundry::fakes::FakeAt;
    use laundry::models::outbox::OutboxMessage;

    crate::on_each_backend!(a_claims_answer_over_the_limit_of_texts_to_one_phone_waits_for_room_and_staff_are_told);

    async fn a_claims_answer_over_the_limit_of_texts_to_one_phone_waits_for_room_and_staff_are_told(backend: Backend) {
        let at = FakeAt::start().await;
        let mut env = sms_env(&at.url);
        // One text an hour to one phone: the order's own "received" text fills it.
        env.extend([
            ("LAUNDRY_SMS_SERVICE_PER_PHONE_PER_HOUR", "1".to_owned()),
            ("LAUNDRY_SMS_PER_PHONE_PER_HOUR", "1".to_owned()),
        ]);
        // The outbox goes by the database's clock: this app's must be today's for the hold to be in the future.
        let clock = laundry::clock::Clock::stopped_at(time::OffsetDateTime::now_utc());
        let app = TestApp::builder().on(backend).env(&env).retries(quick_retries()).clock(clock).start().await;
        let session = staff(&app).await;
        let placed = an_order().phone("0712345686").place(&app).await;
        let tag = record(&app, &session, &placed, "Shirt").await;
        let now = app.now();
        app.with_db(|c| {
            set_status(c, &placed.key, OrderStatus::Delivered, STAFF, &NotifyCustomer::nobody(), now).unwrap()
        });
        let tag = tag.to_string();
        let fields = [("kind", "damaged"), ("tag", tag.as_str()), ("story", "The collar is torn")];
        let (content_type, body) = multipart(&fields, None);
        let reported = app
            .client
            .post(format!("{}/t/{}/claims", app.address, placed.token))
            .header("content-type", content_type)
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(reported.status(), 303);
        let claims = app.with_db(|c| Claim::of_order(c, &placed.key).unwrap());

        // Staff answer it: the phone's hour is full until the order's text is an hour old.
        let resolve = format!("/admin/claims/{}/resolve", claims[0].id);
        let resolved = valet_post(
            &app,
            &session,
            &resolve,
            &[("outcome", "note"), ("note", "We found the thread; it is mended.")],
        )
        .await;
        assert_eq!(resolved.status(), 303);
        let back = resolved.headers()["location"].to_str().unwrap().to_owned();
        let texts: Vec<OutboxMessage> = app.with_db(|c| OutboxMessage::all(c).unwrap());
        let received = texts.iter().find(|m| m.kind == MessageKind::SmsOrderReceived).unwrap();
        let answer = texts.iter().find(|m| m.kind == MessageKind::SmsAnswer).expect("the answer is written");
        assert_eq!(answer.status, OutboxStatus::Pending, "held, not skipped: {answer:?}");
        assert_eq!(
            answer.next_attempt_at,
            received.created_at + time::Duration::HOUR,
            "it goes when the hour has room"
        );
        let (_, goes) = laundry::clock::nairobi_date_time(answer.next_attempt_at);
        assert_eq!(back, format!("/admin/garments?done=resolved-held&at={}#claims", goes.replace(':', "%3A")));
        let floor = staff_get(&app, &session, &back).await.text().await.unwrap();
        assert!(
            floor.contains(&format!(
                "The text to the customer is held by the limit of texts to one phone an hour: it goes at {goes}."
            )),
            "{floor}"
        );
        assert!(!floor.contains("the customer is texted"), "staff are not told it went");
        let detail: Value =
            staff_get(&app, &session, &format!("/api/admin/orders/{}", placed.reference)).await.json().await.unwrap();
        let labels: Vec<&str> =
            detail["messages"].as_array().unwrap().iter().map(|m| m["label"].as_str().unwrap()).collect();
        assert!(labels.contains(&"Staff's answer to a claim"), "{labels:?}");

        // Not before its time (the outbox goes by the database's clock); then it goes, once.
        app.deliver_outbox().await;
        let sent = at.texts_to("+254712345686");
        assert!(sent.iter().all(|text| !text.contains("about your report")), "{sent:?}");
        let now = app.database_now();
        app.with_db(|c| {
            diesel::update(outbox::table.find(&answer.id)).set(outbox::next_attempt_at.eq(now)).execute(c).unwrap()
        });
        // Sent by this run of the worker or by the server's own, which may hold it a moment for the pace.
        app.deliver_outbox().await;
        let answered = |text: &String| text.contains("about your report");
        crate::helpers::until("the claim's answer is sent", || {
            at.texts_to("+254712345686").iter().any(answered).then_some(())
        })
        .await;
        app.deliver_outbox().await;
        assert_eq!(at.texts_to("+254712345686").iter().filter(|text| answered(text)).count(), 1, "once");

        // A forged time in the address shows no time.
        let forged =
            staff_get(&app, &session, "/admin/garments?done=resolved-held&at=<b>9").await.text().await.unwrap();
        assert!(forged.contains("held by the limit of texts to one phone an hour.") && !forged.contains("<b>9"));
    }
}
