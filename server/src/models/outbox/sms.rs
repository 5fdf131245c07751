//! The SMS side of the outbox: writing a text (unless its number opted out, its kind is switched
//! off, or it exists already), the customers' opt-outs, the kinds staff switch off, and the
//! provider's delivery reports.

use super::OutboxMessage;
use crate::db::schema::{message_switches, orders, outbox, sms_opt_outs};
use crate::db::{DbConnection, insert_or_ignore};
use crate::domain::{Channel, Delivery, MessageKind, OrderStatus, OutboxStatus, SmsLimits};
use diesel::prelude::*;
use time::PrimitiveDateTime;

/// What became of an SMS given to [`OutboxMessage::enqueue_sms`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Enqueued {
    /// In the outbox.
    Written,
    /// Not written: the number asked for no more texts.
    OptedOut,
    /// Not written: staff switched its kind off.
    SwitchedOff,
    /// Not written: a row with its `dedupe_key` exists.
    AlreadyThere,
    /// Written as not sent ("skipped", with why): its phone had as many texts in the last hour as
    /// the limits allow. Staff see it among the messages that need a look and may send it again.
    OverLimit,
    /// Written, held until this moment (UTC), when its phone's last hour has room again: a text
    /// staff chose to send ([`OutboxMessage::enqueue_sms_or_hold`]) over a limit per phone.
    Held(PrimitiveDateTime),
}

/// A text over a limit per phone: why, and when the phone's last hour has room for it again.
struct Over {
    why: String,
    room_at: PrimitiveDateTime,
}

/// The start of the reason a text over a limit per phone carries, as staff read it.
pub const OVER_LIMIT: &str = "Not sent: over the limit";

/// The statuses of the texts a phone's hourly limits count: written to go, or gone.
const COUNTED: [OutboxStatus; 3] = [OutboxStatus::Pending, OutboxStatus::Sent, OutboxStatus::Blocked];

impl OutboxMessage {
    /// Writes an SMS row made by [`OutboxMessage::sms`], inside the caller's transaction, unless
    /// its number opted out or staff switched its kind off. A row whose `dedupe_key` is taken is
    /// not written a second time, even by two instances at once (the key is unique).
    ///
    /// Counting the texts written to its phone in the hour before it (pending, sent or blocked),
    /// a text beyond `limits` is written as skipped, with the limit it hit, and is not sent: a
    /// reply to a text when the phone had `per_phone_per_hour` replies, any text when it had
    /// `service_per_phone_per_hour` texts. On PostgreSQL a lock on the phone's texts, held to the
    /// end of the transaction, makes two writers for one phone count one after the other.
    pub fn enqueue_sms(
        connection: &mut DbConnection,
        sms: &OutboxMessage,
        limits: &SmsLimits,
    ) -> QueryResult<Enqueued> {
        Self::enqueue_text(connection, sms, limits, false)
    }

    /// [`OutboxMessage::enqueue_sms`] for a text a person chose to send about one thing (a
    /// claim's answer), which a limit per phone must not drop: over the limit it is written held
    /// until the phone's last hour has room again ([`Enqueued::Held`]), and goes then. (A text
    /// anyone can make the shop send, a reply to an incoming text say, is skipped instead: the
    /// limits are there against those.)
    pub fn enqueue_sms_or_hold(
        connection: &mut DbConnection,
        sms: &OutboxMessage,
        limits: &SmsLimits,
    ) -> QueryResult<Enqueued> {
        Self::enqueue_text(connection, sms, limits, true)
    }

    fn enqueue_text(
        connection: &mut DbConnection,
        sms: &OutboxMessage,
        limits: &SmsLimits,
        hold: bool,
    ) -> QueryResult<Enqueued> {
        let Some(phone) = sms.to_phone.as_deref() else { return Ok(Enqueued::OptedOut) };
        if OptOut::is_opted_out(connection, phone)? {
            return Ok(Enqueued::OptedOut);
        }
        if !MessageSwitch::is_on(connection, sms.kind)? {
            return Ok(Enqueued::SwitchedOff);
        }
        let over = over_limit(connection, sms, phone, limits)?;
        let (row, written_as) = match over {
            None => (sms.clone(), Enqueued::Written),
            Some(Over { room_at, .. }) if hold => {
                let at = room_at.max(sms.next_attempt_at);
                (OutboxMessage { next_attempt_at: at, ..sms.clone() }, Enqueued::Held(at))
            }
            Some(Over { why, .. }) => {
                let skipped = OutboxMessage {
                    status: OutboxStatus::Skipped,
                    last_error: Some(why),
                    last_attempt_at: Some(sms.created_at),
                    ..sms.clone()
                };
                (skipped, Enqueued::OverLimit)
            }
        };
        let written = insert_or_ignore!(connection, outbox::table, &row)?;
        Ok(if written == 1 { written_as } else { Enqueued::AlreadyThere })
    }

    /// Gives the order's SMS of `kind` the words `text` and makes it due at `now`, if it waits and
    /// was never tried (no attempt, no worker's lease): true when one was rewritten. A text a
    /// worker holds, or tried already, is left as it is.
    pub fn rewrite_waiting_sms(
        connection: &mut DbConnection,
        order_id: &str,
        kind: MessageKind,
        text: &str,
        now: PrimitiveDateTime,
    ) -> QueryResult<bool> {
        let waiting = outbox::table
            .filter(outbox::order_id.eq(order_id))
            .filter(outbox::kind.eq(kind))
            .filter(outbox::status.eq(OutboxStatus::Pending))
            .filter(outbox::attempts.eq(0))
            .filter(outbox::lease_owner.is_null());
        let params = serde_json::json!({ "message": text }).to_string();
        let rewritten = diesel::update(waiting)
            .set((outbox::params.eq(params), outbox::next_attempt_at.eq(now)))
            .execute(connection)?;
        Ok(rewritten > 0)
    }

    /// Marks a claimed SMS not to be sent if, since it was written, its number opted out or its
    /// kind was switched off, or if it is about a moment that has passed (its `send_before`) or an
    /// order since cancelled. True when it was skipped (the worker then leaves it alone).
    pub fn skip_if_unwanted(
        connection: &mut DbConnection,
        sms: &OutboxMessage,
        owner: &str,
        now: PrimitiveDateTime,
    ) -> QueryResult<bool> {
        let about_a_moment = sms.send_before.is_some();
        let cancelled = |connection: &mut DbConnection| -> QueryResult<bool> {
            let Some(order_id) = sms.order_id.as_deref() else { return Ok(false) };
            let status: Option<OrderStatus> =
                orders::table.find(order_id).select(orders::status).first(connection).optional()?;
            Ok(status == Some(OrderStatus::Cancelled))
        };
        let why = match sms.to_phone.as_deref() {
            Some(phone) if OptOut::is_opted_out(connection, phone)? => "the customer opted out of texts",
            _ if !MessageSwitch::is_on(connection, sms.kind)? => "staff switched this kind of text off",
            _ if sms.send_before.is_some_and(|deadline| now > deadline) => {
                "too late: the moment it is about has passed"
            }
            _ if about_a_moment && cancelled(connection)? => "the order was cancelled",
            _ => return Ok(false),
        };
        let changed = diesel::update(outbox::table.find(&sms.id).filter(outbox::lease_owner.eq(owner)))
            .set((
                outbox::status.eq(OutboxStatus::Skipped),
                outbox::lease_owner.eq(None::<String>),
                outbox::lease_until.eq(None::<PrimitiveDateTime>),
                outbox::last_error.eq(why),
                outbox::last_attempt_at.eq(now),
            ))
            .execute(connection)?;
        Ok(changed == 1)
    }
}

/// Why `sms` may not go to `phone` now, if a limit per phone holds it back.
fn over_limit(
    connection: &mut DbConnection,
    sms: &OutboxMessage,
    phone: &str,
    limits: &SmsLimits,
) -> QueryResult<Option<Over>> {
    // Its own key, taken last in the transaction: never waited for while holding the window's or
    // the phone's other lock in another order.
    crate::db::lock_until_commit(connection, &format!("texts to {phone}"))?;
    let since = sms.created_at - time::Duration::HOUR;
    // The texts of its phone in the hour before it, oldest first, with their kinds (replies count
    // against a cap of their own too).
    let all: Vec<(PrimitiveDateTime, MessageKind)> = outbox::table
        .filter(outbox::channel.eq(Channel::Sms))
        .filter(outbox::to_phone.eq(phone))
        .filter(outbox::created_at.gt(since))
        .filter(outbox::status.eq_any(COUNTED))
        .select((outbox::created_at, outbox::kind))
        .order(outbox::created_at.asc())
        .load(connection)?;
    let (replies_cap, all_cap) = limits.room_for(sms.kind);
    let written = |reply_only: bool| -> Vec<PrimitiveDateTime> {
        all.iter().filter(|(_, kind)| !reply_only || kind.is_reply()).map(|(at, _)| *at).collect()
    };
    if let Some(room_at) = room_at(&written(false), all_cap) {
        let why =
            format!("{OVER_LIMIT} of {all_cap} texts an hour to one phone (LAUNDRY_SMS_SERVICE_PER_PHONE_PER_HOUR)");
        return Ok(Some(Over { why, room_at }));
    }
    let Some(replies_cap) = replies_cap else { return Ok(None) };
    Ok(room_at(&written(true), replies_cap).map(|room_at| Over {
        why: format!("{OVER_LIMIT} of {replies_cap} replies an hour to one phone (LAUNDRY_SMS_PER_PHONE_PER_HOUR)"),
        room_at,
    }))
}

/// When an hour that holds the texts written at `written` (oldest first) has room for one more
/// under `cap` (at least 1, as the settings require): none while it has room now; else an hour
/// after the text whose leaving makes room.
fn room_at(written: &[PrimitiveDateTime], cap: u32) -> Option<PrimitiveDateTime> {
    let cap = usize::try_from(cap.max(1)).unwrap_or(usize::MAX);
    let over = written.len().checked_sub(cap)?;
    written.get(over).map(|at| *at + time::Duration::HOUR)
}

/// The phone numbers that asked for no more texts.
#[derive(Debug)]
pub struct OptOut;

impl OptOut {
    /// Whether `phone` (E.164) opted out.
    pub fn is_opted_out(connection: &mut DbConnection, phone: &str) -> QueryResult<bool> {
        diesel::select(diesel::dsl::exists(sms_opt_outs::table.find(phone))).get_result(connection)
    }

    /// `phone` gets no more texts, from the page of `order_id`. Asking twice keeps the first time.
    pub fn opt_out(
        connection: &mut DbConnection,
        phone: &str,
        order_id: Option<&str>,
        now: PrimitiveDateTime,
    ) -> QueryResult<()> {
        let row =
            (sms_opt_outs::phone.eq(phone), sms_opt_outs::opted_out_at.eq(now), sms_opt_outs::order_id.eq(order_id));
        insert_or_ignore!(connection, sms_opt_outs::table, row)?;
        Ok(())
    }

    /// `phone` gets texts again (later ones; what was skipped stays skipped).
    pub fn opt_in(connection: &mut DbConnection, phone: &str) -> QueryResult<()> {
        diesel::delete(sms_opt_outs::table.find(phone)).execute(connection)?;
        Ok(())
    }
}

/// A kind of message staff switched on or off.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = message_switches)]
pub struct MessageSwitch {
    /// The kind's stored value.
    pub kind: String,
    /// Whether it is sent.
    pub enabled: bool,
    /// Who changed it last.
    pub changed_by: String,
    /// When, UTC.
    pub changed_at: PrimitiveDateTime,
}

impl MessageSwitch {
    /// Whether messages of `kind` are sent (a kind nobody switched is on).
    pub fn is_on(connection: &mut DbConnection, kind: MessageKind) -> QueryResult<bool> {
        let enabled: Option<bool> = message_switches::table
            .find(crate::domain::TextEnum::as_str(kind))
            .select(message_switches::enabled)
            .first(connection)
            .optional()?;
        Ok(enabled.unwrap_or(true))
    }

    /// Every switch staff changed.
    pub fn all(connection: &mut DbConnection) -> QueryResult<Vec<MessageSwitch>> {
        message_switches::table.order(message_switches::kind.asc()).select(MessageSwitch::as_select()).load(connection)
    }

    /// Switches `kind` on or off, recording who and when.
    pub fn set(
        connection: &mut DbConnection,
        kind: MessageKind,
        enabled: bool,
        by: &str,
        now: PrimitiveDateTime,
    ) -> QueryResult<()> {
        let kind = crate::domain::TextEnum::as_str(kind);
        let values = (
            message_switches::kind.eq(kind),
            message_switches::enabled.eq(enabled),
            message_switches::changed_by.eq(by),
            message_switches::changed_at.eq(now),
        );
        let change = (
            message_switches::enabled.eq(enabled),
            message_switches::changed_by.eq(by),
            message_switches::changed_at.eq(now),
        );
        // One statement (an upsert), so two staff switching a kind at once both land, the last
        // one winning.
        let insert = diesel::insert_into(message_switches::table).values(values);
        match connection {
            DbConnection::Postgres(pg) => {
                insert.on_conflict(message_switches::kind).do_update().set(change).execute(pg)?;
            }
            DbConnection::Sqlite(sqlite) => {
                insert.on_conflict(message_switches::kind).do_update().set(change).execute(sqlite)?;
            }
        }
        Ok(())
    }
}

/// A delivery report of the SMS provider, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryReport {
    /// The provider's id of the message (`id`).
    pub provider_id: String,
    /// What it says.
    pub delivery: Delivery,
    /// Its words: status, network code, failure reason.
    pub detail: String,
}

impl DeliveryReport {
    /// Records the report on its SMS row. The first final report (delivered, failed) stays: a
    /// later report, "waiting" or final, changes nothing, and neither does the same report twice.
    /// False when no SMS has that id (an old message, or another account's).
    pub fn record(&self, connection: &mut DbConnection, now: PrimitiveDateTime) -> QueryResult<bool> {
        let row =
            outbox::table.filter(outbox::channel.eq(Channel::Sms)).filter(outbox::provider_id.eq(&self.provider_id));
        let known: i64 = row.count().get_result(connection)?;
        if known == 0 {
            return Ok(false);
        }
        let values =
            (outbox::delivery.eq(self.delivery), outbox::delivery_detail.eq(&self.detail), outbox::delivery_at.eq(now));
        // One statement, so two reports at once cannot both find the row not final.
        let not_final = outbox::delivery.is_null().or(outbox::delivery.eq(Delivery::Waiting));
        diesel::update(row.filter(not_final)).set(values).execute(connection)?;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::room_at;
    use time::macros::datetime;

    #[test]
    fn an_hour_has_room_once_enough_of_its_texts_are_an_hour_old() {
        let written = [datetime!(2026-11-29 16:05), datetime!(2026-11-29 16:40), datetime!(2026-11-29 16:50)];
        assert_eq!(room_at(&written, 4), None, "three of four");
        assert_eq!(room_at(&written, 3), Some(datetime!(2026-11-29 17:05)), "the oldest leaves the hour");
        assert_eq!(room_at(&written, 2), Some(datetime!(2026-11-29 17:40)), "two must leave: held ones count too");
        assert_eq!(room_at(&[], 1), None);
    }
}
