//! A re-clean asked for under the satisfaction guarantee (issue 19), as a form sends it: which
//! lines of the delivered order, what is wrong, and a pickup window. Whether the order may still
//! be re-cleaned (delivered, within the window, lines not re-cleaned before) is the model's to
//! decide (`models::reclean`).

use super::text::{self, FieldErrors};
use super::visit;
use std::collections::BTreeSet;
use time::Date;

/// How many days after delivery a re-clean may be asked for, unless configured
/// (`LAUNDRY_RECLEAN_DAYS`).
pub const DEFAULT_RECLEAN_DAYS: u32 = 7;

/// The longest description of what is wrong.
pub const MAX_PROBLEM: usize = 500;

/// The form field of each line chosen: `line` (repeated), with the line's position as its value.
pub const LINE_FIELD: &str = "line";

/// What the customer sent. Everything is optional here; [`RecleanInput::validate`] decides.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecleanInput {
    /// The positions of the lines chosen, as sent.
    pub lines: Vec<String>,
    /// What is wrong.
    pub problem: Option<String>,
    /// The pickup slot, `2026-11-25T19:00`; none: the next open window.
    pub pickup: Option<String>,
}

/// A re-clean request that passed the form's rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecleanRequest {
    /// The positions of the original order's lines to clean again, each once, in order.
    pub positions: BTreeSet<i32>,
    /// What is wrong, trimmed (line breaks kept).
    pub problem: String,
    /// The pickup slot asked for, not yet checked against the schedule; none: the next open window.
    pub pickup: Option<(Date, u16)>,
}

impl RecleanInput {
    /// Reads an `application/x-www-form-urlencoded` body: `line` may come several times. `None`
    /// if it is not such a body.
    pub fn from_form(body: &[u8]) -> Option<Self> {
        let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(body).ok()?;
        let mut input = RecleanInput::default();
        for (name, value) in pairs {
            match name.as_str() {
                LINE_FIELD => input.lines.push(value),
                "problem" => input.problem = Some(value),
                "pickup" => input.pickup = Some(value),
                _ => {}
            }
        }
        Some(input)
    }

    /// Checks every field, collecting a message per wrong field.
    pub fn validate(&self) -> Result<RecleanRequest, FieldErrors> {
        let mut errors = FieldErrors::default();
        let positions: Option<BTreeSet<i32>> = self
            .lines
            .iter()
            .map(|line| line.trim().parse::<i32>().ok().filter(|position| (0..1000).contains(position)))
            .collect();
        let positions = errors.check(
            "lines",
            match positions {
                None => Err("Some items could not be read. Please choose them again.".to_owned()),
                Some(positions) if positions.is_empty() => {
                    Err("Please choose what should be cleaned again.".to_owned())
                }
                Some(positions) => Ok(positions),
            },
        );
        let problem = errors.check(
            "problem",
            text::optional(self.problem.as_deref(), "description", MAX_PROBLEM, true)
                .and_then(|problem| problem.ok_or_else(|| "Please tell us in a few words what is wrong.".to_owned())),
        );
        let pickup = errors.check("pickup", visit::parse_pickup(self.pickup.as_deref()));
        match (positions, problem, pickup) {
            (Some(positions), Some(problem), Some(pickup)) if errors.is_empty() => {
                Ok(RecleanRequest { positions, problem, pickup })
            }
            _ => Err(errors),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_form_with_two_lines_a_problem_and_a_window_is_read() {
        let input =
            RecleanInput::from_form(b"line=0&line=2&problem=Collar+still+stained&pickup=2026-11-25T19%3A00").unwrap();
        let request = input.validate().unwrap();
        assert_eq!(request.positions, BTreeSet::from([0, 2]));
        assert_eq!(request.problem, "Collar still stained");
        assert_eq!(request.pickup.map(|(_, start)| start), Some(19 * 60));
    }

    #[test]
    fn no_line_no_problem_or_a_bad_line_each_get_a_message() {
        let errors = RecleanInput::from_form(b"problem=+").unwrap().validate().unwrap_err();
        assert_eq!(errors.get("lines"), Some("Please choose what should be cleaned again."));
        assert_eq!(errors.get("problem"), Some("Please tell us in a few words what is wrong."));
        let errors = RecleanInput::from_form(b"line=x&problem=torn").unwrap().validate().unwrap_err();
        assert!(errors.get("lines").is_some());
        let errors = RecleanInput::from_form(b"line=-1&problem=torn").unwrap().validate().unwrap_err();
        assert!(errors.get("lines").is_some());
        let long = format!("line=0&problem={}", "a".repeat(MAX_PROBLEM + 1));
        assert!(RecleanInput::from_form(long.as_bytes()).unwrap().validate().unwrap_err().get("problem").is_some());
        let errors = RecleanInput::from_form(b"line=0&problem=torn&pickup=tomorrow").unwrap().validate().unwrap_err();
        assert!(errors.get("pickup").is_some());
    }

    #[test]
    fn the_same_line_twice_is_one_line() {
        let request = RecleanInput::from_form(b"line=1&line=1&problem=torn").unwrap().validate().unwrap();
        assert_eq!(request.positions, BTreeSet::from([1]));
        assert_eq!(request.pickup, None);
    }
}
