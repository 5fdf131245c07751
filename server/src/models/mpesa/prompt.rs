//! Prompts to pay sent to a customer's phone (M-Pesa Express), from written to ended.

use crate::db::schema::{mpesa_prompts, orders};
use crate::db::{DbConnection, write_transaction};
use crate::domain::schedule::{clock_time, day_label};
use crate::domain::{Balance, OrderStatus, PromptLimits, PromptState};
use crate::models::ledger::Entry;
use crate::models::lock_phone;
use crate::models::order::Order;
use diesel::prelude::*;
use time::{Duration, PrimitiveDateTime};

/// The shortest time between two prompts for one order: a customer who asks again at once most
/// likely has the first one still on the phone.
pub const RESEND_AFTER: Duration = Duration::seconds(60);
/// The words of a prompt held by the limits on prompts per phone (see [`PromptLimits`]).
pub const HELD_WORDS: &str = "No M-PESA prompt was sent: this phone number has had as many as we send in an hour or a day. Please pay to the till.";
/// How long after a prompt request Daraja did not answer a new one may be sent: past the time a
/// prompt stays on a phone.
pub const UNANSWERED_WAIT: Duration = Duration::seconds(120);
/// At most this many prompts per order and hour.
pub const PER_HOUR: i64 = 5;
/// The words of a prompt whose sender stopped before Daraja answered.
const LOST_WORDS: &str = "The prompt may not have reached the phone. If none came, send it again.";
/// How long after Daraja accepted a prompt its status is first asked, if no callback came.
pub const FIRST_QUERY_AFTER: Duration = Duration::seconds(90);

/// A stored prompt.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = mpesa_prompts)]
pub struct MpesaPrompt {
    /// UUID v4.
    pub id: String,
    /// The order it asks payment for.
    pub order_id: String,
    /// E.164.
    pub phone: String,
    /// Whole shillings asked.
    pub amount: i32,
    /// Where it is.
    pub state: PromptState,
    /// 'customer', 'order', 'bill', or a staff member's e-mail.
    pub asked_by: String,
    /// When it was written.
    pub created_at: PrimitiveDateTime,
    /// While sending: the claim's end.
    pub lease_until: Option<PrimitiveDateTime>,
    /// When Daraja accepted it.
    pub sent_at: Option<PrimitiveDateTime>,
    /// Daraja's id of it.
    pub checkout_request_id: Option<String>,
    /// Daraja's other id of it.
    pub merchant_request_id: Option<String>,
    /// The `ResultCode` that ended it.
    pub result_code: Option<i32>,
    /// `ResultDesc`, or why it was not sent, in words for the customer.
    pub detail: Option<String>,
    /// The M-PESA receipt number, when paid and known.
    pub receipt: Option<String>,
    /// When it ended.
    pub resolved_at: Option<PrimitiveDateTime>,
    /// Status queries made.
    pub queries: i32,
    /// When the next status query is due; `None` when none is.
    pub next_query_at: Option<PrimitiveDateTime>,
    /// The callback as it came.
    pub raw_callback: Option<String>,
    /// Held by the limits on prompts per phone, never sent: when the phone may be sent another.
    pub held_until: Option<PrimitiveDateTime>,
}

/// Why a prompt was not written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AskRefusal {
    /// No such order.
    NoSuchOrder,
    /// Paid already.
    Paid,
    /// Cancelled.
    Cancelled,
    /// Nothing to pay (a KSh 0 order).
    NothingToPay,
    /// A prompt is on the phone now (sent less than [`RESEND_AFTER`] ago).
    TooSoon,
    /// [`PER_HOUR`] prompts in the last hour.
    TooMany,
    /// The phone number was sent as many prompts as [`PromptLimits`] allow (for any of its
    /// orders): another may be sent from this time.
    PhoneLimit(PrimitiveDateTime),
}

impl AskRefusal {
    /// Why `order`, whose money stands at `balance`, gets no prompt whatever the limits: paid,
    /// cancelled, or nothing to pay.
    fn of_order(order: &Order, balance: &Balance) -> Option<AskRefusal> {
        if order.status == OrderStatus::Cancelled {
            Some(AskRefusal::Cancelled)
        } else if balance.to_pay() < 1 && balance.received() > 0 {
            Some(AskRefusal::Paid)
        } else if balance.to_pay() < 1 {
            Some(AskRefusal::NothingToPay)
        } else {
            None
        }
    }

    /// The words the customer or staff read.
    pub fn message(&self) -> &'static str {
        match self {
            AskRefusal::NoSuchOrder => "There is no such order.",
            AskRefusal::Paid => "This order is paid already.",
            AskRefusal::Cancelled => "This order is cancelled.",
            AskRefusal::NothingToPay => "There is nothing to pay for this order.",
            AskRefusal::TooSoon => "A prompt was sent less than a minute ago: check your phone for it.",
            AskRefusal::TooMany => "Five prompts were sent in the last hour; please pay to the till instead.",
            AskRefusal::PhoneLimit(_) => {
                "This phone number has had as many M-PESA prompts as we send for now; please pay to the till instead."
            }
        }
    }

    /// When another prompt may be sent, for staff and the valet: `after 14:05 on Wed 25 Nov
    /// (Nairobi time)`.
    pub fn again_words(at: PrimitiveDateTime) -> String {
        let local = at.assume_utc().to_offset(crate::clock::NAIROBI);
        let minute = u16::from(local.hour()) * 60 + u16::from(local.minute());
        format!("another may be sent after {} on {} (Nairobi time)", clock_time(minute), day_label(local.date()))
    }
}

impl MpesaPrompt {
    /// Writes a prompt for what the order still owes (the bill less what was paid) to its phone, inside the caller's transaction (the
    /// order placed, the bill set); the caller wakes the prompt worker after committing. An order
    /// paid, cancelled or at KSh 0 gets none. A phone that was sent as many prompts as `limits`
    /// allow gets none either: the prompt is written held (failed at once, never sent), so that
    /// the customer's pages give the till's steps instead of "check your phone".
    pub fn ask_within(
        connection: &mut DbConnection,
        order: &Order,
        asked_by: &str,
        limits: PromptLimits,
        now: PrimitiveDateTime,
    ) -> QueryResult<Result<MpesaPrompt, AskRefusal>> {
        let balance = Entry::balance(connection, &order.id)?;
        if let Some(refusal) = AskRefusal::of_order(order, &balance) {
            return Ok(Err(refusal));
        }
        let amount = i32::try_from(balance.to_pay()).unwrap_or(i32::MAX);
        let held_until = MpesaPrompt::phone_allowed_after(connection, &order.phone, limits, now)?;
        if let Some(again) = held_until {
            tracing::warn!(order = %order.reference, phone = %crate::domain::PhoneNumber::masked(&order.phone), %again, "an M-PESA prompt was held: the phone had as many as the limits allow");
        }
        let prompt = MpesaPrompt {
            id: crate::db::new_key(),
            order_id: order.id.clone(),
            phone: order.phone.clone(),
            amount,
            state: PromptState::Queued,
            asked_by: asked_by.to_owned(),
            created_at: now,
            lease_until: None,
            sent_at: None,
            checkout_request_id: None,
            merchant_request_id: None,
            result_code: None,
            detail: None,
            receipt: None,
            resolved_at: None,
            queries: 0,
            next_query_at: None,
            raw_callback: None,
            held_until: None,
        };
        let prompt = match held_until {
            None => prompt,
            Some(again) => MpesaPrompt {
                state: PromptState::Failed,
                detail: Some(HELD_WORDS.to_owned()),
                resolved_at: Some(now),
                held_until: Some(again),
                ..prompt
            },
        };
        diesel::insert_into(mpesa_prompts::table).values(prompt.insertable()).execute(connection)?;
        Ok(match held_until {
            None => Ok(prompt),
            Some(again) => Err(AskRefusal::PhoneLimit(again)),
        })
    }

    /// When `phone` may be sent another prompt under `limits`: `None` when it may now. Counted
    /// under the phone's lock (held to the end of the caller's transaction on PostgreSQL; SQLite
    /// writes one transaction at a time), so that orders naming one phone at the same moment
    /// cannot pass the limits together. Held prompts do not count: they were never sent.
    pub fn phone_allowed_after(
        connection: &mut DbConnection,
        phone: &str,
        limits: PromptLimits,
        now: PrimitiveDateTime,
    ) -> QueryResult<Option<PrimitiveDateTime>> {
        lock_phone(connection, phone)?;
        let sent: Vec<PrimitiveDateTime> = mpesa_prompts::table
            .filter(mpesa_prompts::phone.eq(phone))
            .filter(mpesa_prompts::created_at.gt(now - Duration::days(1)))
            .filter(mpesa_prompts::held_until.is_null())
            .select(mpesa_prompts::created_at)
            .load(connection)?;
        Ok(limits.next_allowed(&sent, now))
    }

    /// A prompt for what the order owes as its bill now stands (set at pickup, or corrected): the
    /// difference only when part was paid. None when one for that amount was asked in the last two minutes and is still on its way to or on the phone. Refusals (paid, cancelled, KSh 0)
    /// write nothing.
    pub fn ask_for_bill(
        connection: &mut DbConnection,
        order: &Order,
        asked_by: &str,
        limits: PromptLimits,
        now: PrimitiveDateTime,
    ) -> QueryResult<()> {
        let owed = Entry::balance(connection, &order.id)?.to_pay();
        let pending = MpesaPrompt::latest(connection, &order.id)?.is_some_and(|prompt| {
            !prompt.state.is_final() && i64::from(prompt.amount) == owed && prompt.created_at > now - UNANSWERED_WAIT
        });
        if !pending {
            let _ = MpesaPrompt::ask_within(connection, order, asked_by, limits, now)?;
        }
        Ok(())
    }

    /// "Send the prompt again" (the customer on the order's page, staff, the valet at the door):
    /// a new prompt for the order's bill, unless one went less than a minute ago, five in the
    /// last hour, or the phone had as many as `limits` allow (refused: nothing is written).
    pub fn ask_again(
        connection: &mut DbConnection,
        order_id: &str,
        asked_by: &str,
        limits: PromptLimits,
        now: PrimitiveDateTime,
    ) -> QueryResult<Result<MpesaPrompt, AskRefusal>> {
        write_transaction(connection, |connection| {
            Order::lock(connection, order_id)?;
            let Some(order) = Order::find(connection, order_id)? else { return Ok(Err(AskRefusal::NoSuchOrder)) };
            // What the order is says more than the limits do: a paid order is told it is paid.
            let balance = Entry::balance(connection, order_id)?;
            if let Some(refusal) = AskRefusal::of_order(&order, &balance) {
                return Ok(Err(refusal));
            }
            let recent: Vec<MpesaPrompt> = mpesa_prompts::table
                .filter(mpesa_prompts::order_id.eq(order_id))
                .filter(mpesa_prompts::created_at.gt(now - Duration::hours(1)))
                .filter(mpesa_prompts::held_until.is_null())
                .select(MpesaPrompt::as_select())
                .load(connection)?;
            if recent.len() as i64 >= PER_HOUR {
                return Ok(Err(AskRefusal::TooMany));
            }
            let on_the_phone = |prompt: &MpesaPrompt| {
                let pending =
                    !prompt.state.is_final() && prompt.sent_at.unwrap_or(prompt.created_at) > now - RESEND_AFTER;
                // A request Daraja never answered may still have reached the phone: a second prompt
                // then could take the money twice, so the customer waits for the first to expire.
                let unanswered = prompt.state == PromptState::Failed
                    && prompt.checkout_request_id.is_none()
                    && prompt.resolved_at.is_some_and(|at| at > now - UNANSWERED_WAIT);
                pending || unanswered
            };
            if recent.iter().any(on_the_phone) {
                return Ok(Err(AskRefusal::TooSoon));
            }
            if let Some(again) = MpesaPrompt::phone_allowed_after(connection, &order.phone, limits, now)? {
                return Ok(Err(AskRefusal::PhoneLimit(again)));
            }
            MpesaPrompt::ask_within(connection, &order, asked_by, limits, now)
        })
    }

    fn insertable(&self) -> NewPrompt<'_> {
        NewPrompt {
            id: &self.id,
            order_id: &self.order_id,
            phone: &self.phone,
            amount: self.amount,
            state: self.state,
            asked_by: &self.asked_by,
            created_at: self.created_at,
            detail: self.detail.as_deref(),
            resolved_at: self.resolved_at,
            held_until: self.held_until,
        }
    }

    /// The order's prompts, newest first.
    pub fn for_order(connection: &mut DbConnection, order_id: &str) -> QueryResult<Vec<MpesaPrompt>> {
        mpesa_prompts::table
            .filter(mpesa_prompts::order_id.eq(order_id))
            .order(mpesa_prompts::created_at.desc())
            .select(MpesaPrompt::as_select())
            .load(connection)
    }

    /// How many prompts were asked for since `since`, by state (the metrics; by the index on
    /// `(created_at, state)`, so a day's prompts are read, not every prompt ever asked).
    pub fn states_since(
        connection: &mut DbConnection,
        since: PrimitiveDateTime,
    ) -> QueryResult<Vec<(PromptState, i64)>> {
        mpesa_prompts::table
            .filter(mpesa_prompts::created_at.ge(since))
            .group_by(mpesa_prompts::state)
            .select((mpesa_prompts::state, diesel::dsl::count_star()))
            .load(connection)
    }

    /// When the oldest prompt still open (queued, being sent, or waiting for the customer) was
    /// asked for (by the index on `(state, next_query_at)`: the open ones only).
    pub fn oldest_open(connection: &mut DbConnection) -> QueryResult<Option<PrimitiveDateTime>> {
        mpesa_prompts::table
            .filter(mpesa_prompts::state.eq_any([PromptState::Queued, PromptState::Sending, PromptState::Waiting]))
            .select(diesel::dsl::min(mpesa_prompts::created_at))
            .first(connection)
    }

    /// The order's newest prompt.
    pub fn latest(connection: &mut DbConnection, order_id: &str) -> QueryResult<Option<MpesaPrompt>> {
        mpesa_prompts::table
            .filter(mpesa_prompts::order_id.eq(order_id))
            .order(mpesa_prompts::created_at.desc())
            .select(MpesaPrompt::as_select())
            .first(connection)
            .optional()
    }

    /// Claims up to `limit` prompts to send: queued ones, and ones whose sender's lease ran out
    /// (its instance stopped mid-request). Each row is claimed by one compare-and-set, so two
    /// instances never send one prompt twice. Returns them with their order's reference.
    pub fn claim_due(
        connection: &mut DbConnection,
        lease: Duration,
        limit: i64,
        now: PrimitiveDateTime,
    ) -> QueryResult<Vec<(MpesaPrompt, String)>> {
        let candidates: Vec<(String, PromptState)> = mpesa_prompts::table
            .filter(
                mpesa_prompts::state
                    .eq(PromptState::Queued)
                    .or(mpesa_prompts::state.eq(PromptState::Sending).and(mpesa_prompts::lease_until.lt(now))),
            )
            .order(mpesa_prompts::created_at.asc())
            .limit(limit + 10)
            .select((mpesa_prompts::id, mpesa_prompts::state))
            .load(connection)?;
        let mut claimed = Vec::new();
        for (id, state) in candidates {
            if claimed.len() as i64 >= limit {
                break;
            }
            if state == PromptState::Sending {
                // Its instance stopped while sending: whether the phone got it is unknown. A second
                // prompt could take the money twice, so it ends, and the customer can ask again.
                // Only if it is still stuck: its instance may have finished meanwhile.
                diesel::update(
                    mpesa_prompts::table
                        .find(&id)
                        .filter(mpesa_prompts::state.eq(PromptState::Sending))
                        .filter(mpesa_prompts::lease_until.lt(now)),
                )
                .set((
                    mpesa_prompts::state.eq(PromptState::Failed),
                    mpesa_prompts::lease_until.eq(None::<PrimitiveDateTime>),
                    mpesa_prompts::detail.eq(LOST_WORDS),
                    mpesa_prompts::resolved_at.eq(now),
                ))
                .execute(connection)?;
                continue;
            }
            let won =
                diesel::update(mpesa_prompts::table.find(&id).filter(mpesa_prompts::state.eq(PromptState::Queued)))
                    .set((mpesa_prompts::state.eq(PromptState::Sending), mpesa_prompts::lease_until.eq(now + lease)))
                    .execute(connection)?;
            if won == 1 {
                let (prompt, reference, order): (MpesaPrompt, String, Order) = mpesa_prompts::table
                    .inner_join(orders::table)
                    .filter(mpesa_prompts::id.eq(&id))
                    .select((MpesaPrompt::as_select(), orders::reference, Order::as_select()))
                    .first(connection)?;
                // Written a while ago (a backlog, a restart): the order may be paid or cancelled
                // since, and a prompt then would ask for money nobody owes (or more than is owed).
                let balance = Entry::balance(connection, &order.id)?;
                let refusal = AskRefusal::of_order(&order, &balance)
                    .or_else(|| (balance.to_pay() < i64::from(prompt.amount)).then_some(AskRefusal::Paid));
                if let Some(refusal) = refusal {
                    MpesaPrompt::fail(connection, &id, refusal.message(), now)?;
                    continue;
                }
                claimed.push((prompt, reference));
            }
        }
        Ok(claimed)
    }

    /// Daraja accepted the prompt: it waits on the phone for its callback; its status is asked
    /// after [`FIRST_QUERY_AFTER`] if none came. A prompt another instance ended meanwhile (its
    /// lease ran out) keeps its state but learns its CheckoutRequestID, so that its callback still
    /// finds it and money it reports pays the order.
    pub fn mark_waiting(
        connection: &mut DbConnection,
        id: &str,
        checkout_request_id: &str,
        merchant_request_id: &str,
        now: PrimitiveDateTime,
    ) -> QueryResult<()> {
        let waiting =
            diesel::update(mpesa_prompts::table.find(id).filter(mpesa_prompts::state.eq(PromptState::Sending)))
                .set((
                    mpesa_prompts::state.eq(PromptState::Waiting),
                    mpesa_prompts::lease_until.eq(None::<PrimitiveDateTime>),
                    mpesa_prompts::sent_at.eq(now),
                    mpesa_prompts::checkout_request_id.eq(checkout_request_id),
                    mpesa_prompts::merchant_request_id.eq(merchant_request_id),
                    mpesa_prompts::next_query_at.eq(now + FIRST_QUERY_AFTER),
                ))
                .execute(connection)?;
        if waiting == 0 {
            diesel::update(mpesa_prompts::table.find(id).filter(mpesa_prompts::checkout_request_id.is_null()))
                .set((
                    mpesa_prompts::sent_at.eq(now),
                    mpesa_prompts::checkout_request_id.eq(checkout_request_id),
                    mpesa_prompts::merchant_request_id.eq(merchant_request_id),
                ))
                .execute(connection)?;
        }
        Ok(())
    }

    /// Ends a prompt that was not sent or not paid, with the reason in words; a prompt ended
    /// already stays as it was.
    pub fn fail(connection: &mut DbConnection, id: &str, detail: &str, now: PrimitiveDateTime) -> QueryResult<()> {
        diesel::update(mpesa_prompts::table.find(id).filter(mpesa_prompts::state.eq_any([
            PromptState::Queued,
            PromptState::Sending,
            PromptState::Waiting,
        ])))
        .set((
            mpesa_prompts::state.eq(PromptState::Failed),
            mpesa_prompts::lease_until.eq(None::<PrimitiveDateTime>),
            mpesa_prompts::detail.eq(detail),
            mpesa_prompts::resolved_at.eq(now),
            mpesa_prompts::next_query_at.eq(None::<PrimitiveDateTime>),
        ))
        .execute(connection)?;
        Ok(())
    }

    /// Waiting prompts whose status query is due, oldest first.
    pub fn due_queries(
        connection: &mut DbConnection,
        limit: i64,
        now: PrimitiveDateTime,
    ) -> QueryResult<Vec<MpesaPrompt>> {
        mpesa_prompts::table
            .filter(mpesa_prompts::state.eq(PromptState::Waiting))
            .filter(mpesa_prompts::next_query_at.le(now))
            .order(mpesa_prompts::next_query_at.asc())
            .limit(limit)
            .select(MpesaPrompt::as_select())
            .load(connection)
    }

    /// Takes the due query of `prompt` for this instance (moving its `next_query_at` to `next`,
    /// when the query after this one would be due): false when another instance took it first.
    pub fn take_query(
        connection: &mut DbConnection,
        prompt: &MpesaPrompt,
        next: Option<PrimitiveDateTime>,
    ) -> QueryResult<bool> {
        let Some(due) = prompt.next_query_at else { return Ok(false) };
        let taken = diesel::update(
            mpesa_prompts::table
                .find(&prompt.id)
                .filter(mpesa_prompts::state.eq(PromptState::Waiting))
                .filter(mpesa_prompts::next_query_at.eq(due)),
        )
        .set((mpesa_prompts::next_query_at.eq(next), mpesa_prompts::queries.eq(prompt.queries + 1)))
        .execute(connection)?;
        Ok(taken == 1)
    }
}

#[derive(Insertable)]
#[diesel(table_name = mpesa_prompts)]
struct NewPrompt<'a> {
    id: &'a str,
    order_id: &'a str,
    phone: &'a str,
    amount: i32,
    state: PromptState,
    asked_by: &'a str,
    created_at: PrimitiveDateTime,
    detail: Option<&'a str>,
    resolved_at: Option<PrimitiveDateTime>,
    held_until: Option<PrimitiveDateTime>,
}
