//! M-PESA in the database: the prompts sent to customers' phones ([`MpesaPrompt`]) and the money
//! M-PESA reported ([`MpesaReceipt`]), each recorded once however often M-PESA says it.

mod prompt;
mod receipt;
mod resolve;

pub use prompt::{AskRefusal, FIRST_QUERY_AFTER, MpesaPrompt};
pub use receipt::{MatchRefusal, MpesaReceipt, ReceivedPayment, Recorded};
pub use resolve::{PaidDetails, Resolved};
