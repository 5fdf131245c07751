//! Prompts to pay per phone number (issue 28), on both backends against the mock Daraja: orders
//! naming one stranger's phone, sent at once, prompt it at most as often as the limits allow; the
//! orders beyond are stored and their pages give the till's steps; the customer's "send it
//! again" and the staff's "Send M-PESA prompt" are refused with the reason and when.

use crate::helpers::mpesa::{WAIT, order, paying_app_with, place_pay_now, sent_prompt};
use crate::helpers::staff::{post, staff};
use crate::helpers::{Backend, TestApp};
use laundry::domain::PromptState;
use laundry::models::mpesa::{HELD_WORDS, MpesaPrompt};
use laundry::models::order::Order;
use serde_json::{Value, json};

const VICTIM: &str = "+254722000111";

/// Three prompts an hour to one phone, six a day.
fn limits() -> [(&'static str, String); 2] {
    [("LAUNDRY_PROMPTS_PER_PHONE_PER_HOUR", "3".to_owned()), ("LAUNDRY_PROMPTS_PER_PHONE_PER_DAY", "6".to_owned())]
}

/// Every prompt written for `phone`: (sent or sending, held).
fn prompts_of(app: &TestApp, orders: &[Order]) -> (Vec<MpesaPrompt>, Vec<MpesaPrompt>) {
    let all: Vec<MpesaPrompt> =
        orders.iter().flat_map(|order| app.with_db(|c| MpesaPrompt::for_order(c, &order.id).unwrap())).collect();
    all.into_iter().partition(|prompt| prompt.held_until.is_none())
}

async fn orders_naming_one_phone_at_once_prompt_it_three_times_and_the_others_say_to_pay_at_the_till(backend: Backend) {
    let Some((app, daraja)) = paying_app_with(backend, &limits()).await else { return };

    // Eight orders at once, all naming the victim's phone (from one address, as in the attack).
    let placed = futures::future::join_all((0..8).map(|_| place_pay_now(&app, VICTIM))).await;

    let orders: Vec<Order> = placed.iter().map(|reference| order(&app, reference)).collect();
    assert_eq!(orders.len(), 8, "every order is stored");
    let (sent, held) = prompts_of(&app, &orders);
    assert_eq!(sent.len(), 3, "three prompts in the hour: {sent:#?}");
    assert_eq!(held.len(), 5, "the others are held: {held:#?}");
    for prompt in &held {
        assert_eq!(prompt.state, PromptState::Failed);
        assert_eq!(prompt.detail.as_deref(), Some(HELD_WORDS));
    }
    daraja.wait_for_pushes(3, WAIT).await;
    app.send_prompts().await;
    assert_eq!(daraja.pushes().len(), 3, "Daraja was asked for three prompts, no more");

    // An order whose prompt was held: its page and its confirmation give the till's steps.
    let held_order = orders.iter().find(|order| held.iter().any(|prompt| prompt.order_id == order.id)).unwrap();
    let token = held_order.link_token.clone().unwrap();
    let page = app.get(&format!("/t/{token}")).await.text().await.unwrap();
    assert!(page.contains("No M-PESA prompt is coming"), "{page}");
    assert!(page.contains("Till Number") && page.contains("3552248") && page.contains("KSh 450"), "{page}");
    let payment: Value = app.get(&format!("/t/{token}/payment")).await.json().await.unwrap();
    assert_eq!((payment["payAtTill"].clone(), payment["poll"].clone()), (json!(true), json!(false)));
    let confirmation = app.get(&format!("/confirmation?ref={}", held_order.reference)).await.text().await.unwrap();
    assert!(confirmation.contains("No M-PESA prompt is coming") && confirmation.contains("3552248"), "{confirmation}");
    // One whose prompt went says "check your phone".
    let prompted = orders.iter().find(|order| sent.iter().any(|prompt| prompt.order_id == order.id)).unwrap();
    let payment: Value =
        app.get(&format!("/t/{}/payment", prompted.link_token.clone().unwrap())).await.json().await.unwrap();
    assert_eq!(payment["payAtTill"], json!(false));
}

async fn asking_again_beyond_the_limit_is_refused_with_the_reason_and_when(backend: Backend) {
    let Some((app, daraja)) = paying_app_with(backend, &limits()).await else { return };
    let session = staff(&app).await;
    let mut orders = Vec::new();
    for _ in 0..3 {
        let reference = place_pay_now(&app, VICTIM).await;
        let stored = order(&app, &reference);
        sent_prompt(&app, &stored.id).await;
        orders.push(stored);
    }
    // Past "a prompt is on the phone now" (a minute), well within the hour.
    app.clock.advance(time::Duration::seconds(61));

    // The customer, on the order's page.
    let token = orders[0].link_token.clone().unwrap();
    let again = app.post_form(&format!("/t/{token}/pay"), &[]).await;
    assert_eq!(again.status(), 303);
    let back = again.headers()["location"].to_str().unwrap().to_owned();
    assert_eq!(back, format!("/t/{token}?refused=phone-limit"));
    let page = app.get(&back).await.text().await.unwrap();
    assert!(page.contains("so no prompt is coming. Please pay to till 3552248 instead: KSh 450"), "{page}");

    // Staff, from the dashboard.
    let refused = post(&app, &session, &format!("/api/admin/orders/{}/prompt", orders[1].reference), json!({})).await;
    assert_eq!(refused.status(), 422);
    let refusal: Value = refused.json().await.unwrap();
    let message = refusal["error"].as_str().unwrap();
    assert!(message.contains("at most 3 an hour and 6 a day"), "{message}");
    assert!(message.contains("another may be sent after") && message.contains("(Nairobi time)"), "{message}");

    // Nothing was written or sent for the refusals.
    let (sent, held) = prompts_of(&app, &orders);
    assert_eq!((sent.len(), held.len()), (3, 0));
    app.send_prompts().await;
    assert_eq!(daraja.pushes().len(), 3);
}

crate::on_each_backend!(
    orders_naming_one_phone_at_once_prompt_it_three_times_and_the_others_say_to_pay_at_the_till,
    asking_again_beyond_the_limit_is_refused_with_the_reason_and_when,
);
