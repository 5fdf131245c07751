//! A number as it arrives: a JSON number, or text typed into a form. The order's kg and its piece
//! counts are read through it, the same way.

use serde::Deserialize;
use serde_json::Value;

/// A number that may arrive as JSON number or as form text.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum Loose {
    /// A JSON integer.
    Integer(i64),
    /// A JSON number with a fraction.
    Float(f64),
    /// Form text.
    Text(String),
}

/// What was entered is not a whole number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotWhole;

impl Loose {
    /// Any JSON value as it would have been typed: `null` is blank, other kinds their JSON text.
    pub fn from_json(value: &Value) -> Loose {
        match value {
            Value::Number(n) if n.is_i64() => Loose::Integer(n.as_i64().unwrap_or_default()),
            Value::Number(n) => Loose::Float(n.as_f64().unwrap_or(f64::NAN)),
            Value::String(text) => Loose::Text(text.clone()),
            Value::Null => Loose::Text(String::new()),
            other => Loose::Text(other.to_string()),
        }
    }

    /// Whether nothing was entered (blank text).
    pub fn is_blank(&self) -> bool {
        matches!(self, Loose::Text(text) if text.trim().is_empty())
    }

    /// The whole number entered: `Ok(None)` when blank, [`NotWhole`] when it is not a whole number.
    pub fn whole_number(&self) -> Result<Option<i64>, NotWhole> {
        match self {
            Loose::Integer(number) => Ok(Some(*number)),
            Loose::Float(number) if number.fract() == 0.0 && number.abs() < 1e9 => Ok(Some(*number as i64)),
            Loose::Float(_) => Err(NotWhole),
            Loose::Text(text) if text.trim().is_empty() => Ok(None),
            Loose::Text(text) => text.trim().parse().map(Some).map_err(|_| NotWhole),
        }
    }

    /// As a form field shows it again.
    pub fn form_text(&self) -> String {
        match self {
            Loose::Integer(number) => number.to_string(),
            Loose::Float(number) => number.to_string(),
            Loose::Text(text) => text.clone(),
        }
    }
}
