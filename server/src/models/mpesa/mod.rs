//! M-PESA in the database: the prompts sent to customers' phones ([`MpesaPrompt`]) and the money
//! M-PESA reported ([`MpesaReceipt`]), each recorded once however often M-PESA says it.

mod prompt;
mod receipt;
mod resolve;

pub use prompt::{AskRefusal, FIRST_QUERY_AFTER, HELD_WORDS, MpesaPrompt};
pub use receipt::{MatchRefusal, MpesaReceipt, ReceivedPayment, Recorded};
pub use resolve::{CODE_ELSEWHERE_WORDS, Money, PaidDetails, PromptEnd, Resolved, UNPROVEN_WORDS};
