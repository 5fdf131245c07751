//! The domain's states ([`TextEnum`]) in text columns, on both backends: written as their stored
//! value, read back through `parse`, so an unknown value in a row is an error, never a string that
//! slips through.

use super::connection::MultiBackend;
use crate::domain::catalogue::Unit;
use crate::domain::{
    AutoReply, Channel, ClaimKind, ClaimOutcome, Delivery, EntryKind, InboxStatus, IncomingOutcome, LineKind,
    MessageKind, MessageStatus, Method, OrderSource, OrderStatus, OutboxStatus, PaymentMethod, PaymentStatus,
    PromptState, ReceiptProblem, ReceiptSource, StaffRole, StopKind, StopState, TextEnum,
};
use diesel::deserialize::{self, FromSql};
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::Text;

macro_rules! text_column_on {
    ($backend:ty: $($state:ty),+) => {$(
        impl FromSql<Text, $backend> for $state {
            fn from_sql(bytes: <$backend as diesel::backend::Backend>::RawValue<'_>) -> deserialize::Result<Self> {
                let text = <String as FromSql<Text, $backend>>::from_sql(bytes)?;
                <$state as TextEnum>::parse(&text)
                    .ok_or_else(|| format!("unknown {} {text:?} in the database", stringify!($state)).into())
            }
        }

        impl ToSql<Text, $backend> for $state {
            fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, $backend>) -> serialize::Result {
                <str as ToSql<Text, $backend>>::to_sql(TextEnum::as_str(*self), out)
            }
        }
    )+};
}

/// Each state on each backend: both connections (diesel's own paths, such as a batch insert or a
/// query run on the PostgreSQL connection itself) and the enum over them.
macro_rules! text_columns {
    ($($state:ty),+ $(,)?) => {
        text_column_on!(MultiBackend: $($state),+);
        text_column_on!(diesel::sqlite::Sqlite: $($state),+);
        text_column_on!(diesel::pg::Pg: $($state),+);
    };
}

text_columns!(
    OrderStatus,
    PaymentMethod,
    PaymentStatus,
    EntryKind,
    Method,
    MessageStatus,
    MessageKind,
    OutboxStatus,
    Channel,
    Delivery,
    OrderSource,
    LineKind,
    Unit,
    StaffRole,
    StopKind,
    StopState,
    PromptState,
    ReceiptSource,
    ReceiptProblem,
    IncomingOutcome,
    AutoReply,
    InboxStatus,
    ClaimKind,
    ClaimOutcome
);
