//! States stored as text: one macro declares the enum, its stored values and its wire names, so a
//! status is never a string compared in a handler. `db::text_column` maps them to text columns.

/// A state with a fixed set of stored values.
pub trait TextEnum: Sized + Copy + 'static {
    /// Every value, in the order staff read them.
    const ALL: &'static [Self];

    /// The stored value (also the JSON value).
    fn as_str(self) -> &'static str;

    /// The value stored as `text`, if it is one.
    fn parse(text: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|value| value.as_str() == text)
    }

    /// Every stored value, joined for a message: `pending, picked-up, …`.
    fn choices() -> String {
        Self::ALL.iter().map(|value| value.as_str()).collect::<Vec<_>>().join(", ")
    }
}

/// Declares a [`TextEnum`]: `text_enum! { /// docs pub enum Name { /// docs Variant = "text", … } }`.
/// The enum serialises to its stored value, and its TypeScript type is the union of them.
macro_rules! text_enum {
    ($(#[$meta:meta])* pub enum $name:ident { $($(#[$variant_meta:meta])* $variant:ident = $text:literal,)+ }) => {
        $(#[$meta])*
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, Hash,
            serde::Serialize, serde::Deserialize, ts_rs::TS,
            diesel::expression::AsExpression, diesel::deserialize::FromSqlRow,
        )]
        #[diesel(sql_type = diesel::sql_types::Text)]
        pub enum $name {
            $($(#[$variant_meta])* #[serde(rename = $text)] $variant,)+
        }

        impl $crate::domain::TextEnum for $name {
            const ALL: &'static [Self] = &[$($name::$variant),+];

            fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }
        }

        impl $name {
            /// The stored value.
            pub fn as_str(self) -> &'static str {
                <Self as $crate::domain::TextEnum>::as_str(self)
            }

            /// The value stored as `text`, if it is one.
            pub fn parse(text: &str) -> Option<Self> {
                <Self as $crate::domain::TextEnum>::parse(text)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

pub(crate) use text_enum;
