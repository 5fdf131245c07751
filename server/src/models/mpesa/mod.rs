//! M-PESA in the database: the prompts sent to customers' phones ([`MpesaPrompt`]) and the money
//! M-PESA reported ([`MpesaReceipt`]), each recorded once however often M-PESA says it.

mod prompt;
mod receipt;

pub use prompt::{AskRefusal, MpesaPrompt, PaidDetails, Resolved};
pub use receipt::{MatchRefusal, MpesaReceipt, ReceivedPayment, Recorded};
