//! What the customer and staff are told when something happens, and in which words: the texts'
//! wording ([`texts`]), the e-mails built from orders and contact messages ([`email`]), and how a
//! change of an order tells its customer ([`NotifyCustomer`]). It sits above the models and the
//! configuration; the senders (`mail`, `sms`) only deliver what is written here to the outbox.
//!
//! Every change that tells the customer takes a [`NotifyCustomer`] and writes its messages in its
//! own transaction, so that a refused change, or one that changes nothing, tells nobody.

pub mod email;
pub mod texts;

use crate::db::DbConnection;
use crate::domain::MessageKind;
use crate::models::order::Order;
use crate::models::outbox::{Enqueued, OutboxMessage};
use diesel::QueryResult;
use texts::Texts;
use time::{Duration, PrimitiveDateTime};

/// How long the picked-up text waits when it says an M-PESA prompt for the bill is coming: a
/// customer who pays at the door meanwhile gets one text that says both (the payment is folded into
/// it by [`NotifyCustomer::fold_into_waiting`]), not two a few seconds apart.
pub const PROMPT_HOLD: Duration = Duration::seconds(90);

/// How a change tells the customer about itself.
#[derive(Debug, Clone, Default)]
pub struct NotifyCustomer {
    /// The customer's e-mail about a status change (written when they gave an address).
    pub email: bool,
    /// The customer's text, in these words; `None`: no text.
    pub texts: Option<Texts>,
    /// Whether a bill set for a "Pay Now (M-PESA)" order sends a prompt to pay to the customer's
    /// phone (M-PESA is configured).
    pub mpesa_prompts: bool,
    /// How many prompts one phone number may be sent (a bill's prompt over them is held).
    pub prompt_limits: crate::domain::PromptLimits,
}

impl NotifyCustomer {
    /// Tells nobody: staff saved a change with "notify customer" off.
    pub fn nobody() -> Self {
        NotifyCustomer::default()
    }

    /// Tells the customer by text and, with `email` (the status template is configured), by e-mail.
    pub fn customer(texts: &Texts, email: bool) -> Self {
        NotifyCustomer { email, texts: Some(texts.clone()), ..NotifyCustomer::default() }
    }

    /// The same, also sending M-PESA prompts for bills when `on`.
    pub fn with_prompts(self, on: bool) -> Self {
        NotifyCustomer { mpesa_prompts: on, ..self }
    }

    /// The same, with the limits on prompts per phone number.
    pub fn with_prompt_limits(self, prompt_limits: crate::domain::PromptLimits) -> Self {
        NotifyCustomer { prompt_limits, ..self }
    }

    /// Writes the customer's text of `kind` about `order`, in the words `words` picks, unless this
    /// change sends no text (or the number opted out, or staff switched the kind off). With a
    /// `dedupe_key`, at most one text holds it: the step is told once per order however often it
    /// is set. Call it inside the change's transaction.
    pub fn text(
        &self,
        connection: &mut DbConnection,
        kind: MessageKind,
        order: &Order,
        dedupe_key: Option<String>,
        words: impl FnOnce(&Texts) -> String,
        now: PrimitiveDateTime,
    ) -> QueryResult<Option<Enqueued>> {
        self.text_until(connection, kind, order, dedupe_key, None, words, now)
    }

    /// [`NotifyCustomer::text`] held until `at` (UTC): sent then, in the words it has then.
    #[allow(clippy::too_many_arguments)]
    pub fn text_held(
        &self,
        connection: &mut DbConnection,
        kind: MessageKind,
        order: &Order,
        dedupe_key: Option<String>,
        at: PrimitiveDateTime,
        words: impl FnOnce(&Texts) -> String,
        now: PrimitiveDateTime,
    ) -> QueryResult<Option<Enqueued>> {
        self.write(connection, kind, order, dedupe_key, words, |sms| sms.held_until(at), false, now)
    }

    /// [`NotifyCustomer::text`] for a text a person chose to send about one thing (a claim's
    /// answer): over a limit per phone it is held until the phone's hour has room, never dropped
    /// ([`Enqueued::Held`], which the caller tells staff).
    pub fn text_from_staff(
        &self,
        connection: &mut DbConnection,
        kind: MessageKind,
        order: &Order,
        dedupe_key: Option<String>,
        words: impl FnOnce(&Texts) -> String,
        now: PrimitiveDateTime,
    ) -> QueryResult<Option<Enqueued>> {
        self.write(connection, kind, order, dedupe_key, words, |sms| sms, true, now)
    }

    /// Puts the words `words` picks into the order's text of `kind` while it waits and was never
    /// tried (held, or not yet taken by the sender), and sends it now; false when there is no such
    /// text (then the caller writes its own). Call it inside the change's transaction.
    pub fn fold_into_waiting(
        &self,
        connection: &mut DbConnection,
        kind: MessageKind,
        order: &Order,
        words: impl FnOnce(&Texts) -> String,
        now: PrimitiveDateTime,
    ) -> QueryResult<bool> {
        let Some(texts) = &self.texts else { return Ok(false) };
        OutboxMessage::rewrite_waiting_sms(connection, &order.id, kind, &words(texts), now)
    }

    /// [`NotifyCustomer::text`] for a text about a moment: not sent after `send_before` (UTC), nor
    /// once the order is cancelled.
    #[allow(clippy::too_many_arguments)]
    pub fn text_until(
        &self,
        connection: &mut DbConnection,
        kind: MessageKind,
        order: &Order,
        dedupe_key: Option<String>,
        send_before: Option<PrimitiveDateTime>,
        words: impl FnOnce(&Texts) -> String,
        now: PrimitiveDateTime,
    ) -> QueryResult<Option<Enqueued>> {
        let timed = |sms: OutboxMessage| match send_before {
            Some(deadline) => sms.until(deadline),
            None => sms,
        };
        self.write(connection, kind, order, dedupe_key, words, timed, false, now)
    }

    /// The one way a customer's text is written: in `words`, its row made by `timed` (held, or not
    /// sent after a moment), unless this change sends no text; over a limit per phone held until
    /// there is room when `hold_over_limit`, else skipped.
    #[allow(clippy::too_many_arguments)]
    fn write(
        &self,
        connection: &mut DbConnection,
        kind: MessageKind,
        order: &Order,
        dedupe_key: Option<String>,
        words: impl FnOnce(&Texts) -> String,
        timed: impl FnOnce(OutboxMessage) -> OutboxMessage,
        hold_over_limit: bool,
        now: PrimitiveDateTime,
    ) -> QueryResult<Option<Enqueued>> {
        let Some(texts) = &self.texts else { return Ok(None) };
        let sms = timed(OutboxMessage::sms(kind, Some(&order.id), &order.phone, &words(texts), dedupe_key, now));
        if hold_over_limit {
            OutboxMessage::enqueue_sms_or_hold(connection, &sms, &texts.limits).map(Some)
        } else {
            OutboxMessage::enqueue_sms(connection, &sms, &texts.limits).map(Some)
        }
    }
}

/// The key that lets `kind` be written once for `subject` (an order's or a stop's id).
pub fn once_per(kind: MessageKind, subject: &str) -> String {
    format!("{}:{subject}", crate::domain::TextEnum::as_str(kind))
}
