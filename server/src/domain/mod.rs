//! Domain types that can only hold valid values ("parse, don't validate"): what arrives from a form
//! or JSON is turned into these, or into per-field messages a customer can act on.

mod contact;
mod order;
mod phone;
mod reference;
mod status;
mod text;

pub use contact::{ContactInput, ValidContact};
pub use order::{Loose, MAX_QUANTITY_KG, OrderInput, PaymentMethod, ValidOrder};
pub use phone::PhoneNumber;
pub use reference::OrderReference;
pub use status::OrderStatus;
pub use text::{FieldErrors, email as parse_email};
