//! Domain types that can only hold valid values ("parse, don't validate"): what arrives from a form
//! or JSON is turned into these, or into per-field messages a customer can act on. States are
//! enums stored as text ([`TextEnum`]). Nothing here depends on another module of the server; the
//! catalogue, the one source of prices, is part of it.

mod availability;
pub mod catalogue;
mod contact;
pub mod garment;
mod handover;
mod incoming;
pub mod ledger;
pub mod lifecycle;
mod lines;
mod loose;
mod message;
mod mpesa;
mod order;
mod payment;
mod phone;
mod pieces;
mod reclean;
mod reference;
mod role;
pub mod schedule;
pub mod secret;
mod status;
mod stop;
mod text;
mod text_enum;
mod text_limits;
mod visit;

pub use availability::WindowAvailability;
pub use contact::{ContactInput, MessageStatus, ValidContact};
pub use garment::{ClaimKind, ClaimOutcome};
pub use handover::{Collected, KG_RULE, MAX_ADDED, MAX_BAGS, Weighing};
pub use incoming::{AutoReply, InboxStatus, IncomingOutcome, IncomingSms, Keyword, MAX_INCOMING_ID, MAX_INCOMING_TEXT};
pub use ledger::{Balance, EntryKind, Method, Settlement, StoreCredit, Takings, shillings};
pub use lines::{FIRST_ORDER_DISCOUNT_ITEM, Line, LineKind, MAX_PIECES, RECLEAN_ITEM, RUSH_ITEM, total as lines_total};
pub use loose::Loose;
pub use message::{CLAIM_ANSWER_KEY, Channel, Delivery, MessageKind, OrderSource, OutboxStatus};
pub use mpesa::{
    PromptLimits, PromptState, ReceiptProblem, ReceiptSource, daraja_phone, daraja_timestamp, is_known_result,
    parse_daraja_time, prompt_result, stk_password, till_phone,
};
pub use order::{MAX_QUANTITY_KG, OrderInput, ValidOrder};
pub use payment::{MpesaCode, PaymentMethod, PaymentStatus};
pub use phone::PhoneNumber;
pub use pieces::PIECE_FIELD;
pub use reclean::{DEFAULT_RECLEAN_DAYS, LINE_FIELD as RECLEAN_LINE_FIELD, MAX_PROBLEM, RecleanInput, RecleanRequest};
pub use reference::OrderReference;
pub use role::{ReportSection, StaffArea, StaffRole};
pub use status::OrderStatus;
pub use stop::{StopKind, StopState};
pub use text::{FieldErrors, email as parse_email, optional as optional_text};
pub use text_enum::TextEnum;
pub use text_limits::SmsLimits;
pub use visit::Pin;
pub use visit::parse_rush;
