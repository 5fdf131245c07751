//! Contact messages through the API and the plain form, on both backends.

use crate::helpers::TestApp;
use crate::on_both_backends;
use laundry::models::contact_message::ContactMessage;
use serde_json::{Value, json};

fn stored(app: &TestApp) -> i64 {
    app.with_db(|c| ContactMessage::count(c).unwrap())
}

on_both_backends! {
    async fn a_valid_message_is_stored_as_new_with_the_thank_you_text(app: TestApp) {
        let message = json!({ "name": "Achieng", "email": "achieng@example.com", "phone": "", "subject": "Curtains", "message": "Do you take sheers?" });

        let response = app.post_json("/api/contacts", &message, &[]).await;

        assert_eq!(response.status(), 201);
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["status"], "new");
        assert_eq!(body["message"], "Thank you for your message! We will get back to you soon.");
        assert_eq!(stored(&app), 1);
    }

    async fn an_invalid_message_names_each_wrong_field_and_stores_nothing(app: TestApp) {
        let message = json!({ "name": "", "email": "achieng@", "phone": "12", "subject": " ", "message": "" });

        let response = app.post_json("/api/contacts", &message, &[]).await;

        assert_eq!(response.status(), 422);
        let body: Value = response.json().await.unwrap();
        for field in ["name", "email", "phone", "subject", "message"] {
            assert!(body["fields"][field].is_string(), "{field}: {body}");
        }
        assert_eq!(stored(&app), 0);
    }

    async fn the_contact_form_without_javascript_thanks_the_sender_on_an_empty_form(app: TestApp) {
        let response = app
            .post_form("/contact", &[("name", "Achieng"), ("email", "achieng@example.com"), ("subject", "Hello"), ("message", "Hi!")])
            .await;

        assert_eq!(response.status(), 303);
        assert_eq!(response.headers()["location"], "/contact?sent=1");
        let html = app.get("/contact?sent=1").await.text().await.unwrap();
        assert!(html.contains("Thank you for your message! We will get back to you soon."));
        assert!(!html.contains(r#"value="Achieng""#));
        assert_eq!(stored(&app), 1);
    }

    async fn a_contact_form_posted_twice_stores_one_message(app: TestApp) {
        let form = [("name", "Achieng"), ("email", "achieng@example.com"), ("subject", "Hello"), ("message", "Hi!")];

        let first = app.post_form("/contact", &form).await;
        let again = app.post_form("/contact", &form).await;

        assert_eq!((first.status(), again.status()), (reqwest::StatusCode::SEE_OTHER, reqwest::StatusCode::SEE_OTHER));
        assert_eq!(again.headers()["location"], "/contact?sent=1", "the second post is thanked too");
        assert_eq!(stored(&app), 1);
        let other = [("name", "Achieng"), ("email", "achieng@example.com"), ("subject", "Hello"), ("message", "One more thing")];
        assert_eq!(app.post_form("/contact", &other).await.status(), 303);
        assert_eq!(stored(&app), 2, "another message is stored");
    }

    async fn a_contact_form_with_mistakes_comes_back_with_the_values(app: TestApp) {
        let response = app.post_form("/contact", &[("name", "Achieng"), ("email", "nope"), ("subject", "Hello"), ("message", "Hi!")]).await;

        assert_eq!(response.status(), 422);
        let html = response.text().await.unwrap();
        assert!(html.contains(r#"value="Achieng""#));
        assert!(html.contains("Please enter a valid email address"));
        assert_eq!(stored(&app), 0);
    }
}
