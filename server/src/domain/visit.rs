//! Where and when the valet comes, as the order form sends it: the pickup slot, next-day rush, a
//! landmark beside the location, and an optional map pin from the browser's geolocation.

use super::schedule::parse_slot_value;
use super::text;
use serde_json::Value;
use time::Date;

/// A map pin in millionths of a degree (about 11 cm), so that it compares exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pin {
    /// Latitude × 1,000,000.
    pub lat_e6: i32,
    /// Longitude × 1,000,000.
    pub lng_e6: i32,
}

impl Pin {
    /// Latitude in degrees.
    pub fn lat(self) -> f64 {
        f64::from(self.lat_e6) / 1e6
    }

    /// Longitude in degrees.
    pub fn lng(self) -> f64 {
        f64::from(self.lng_e6) / 1e6
    }

    /// From stored degrees.
    pub fn from_degrees(lat: f64, lng: f64) -> Pin {
        Pin { lat_e6: (lat * 1e6).round() as i32, lng_e6: (lng * 1e6).round() as i32 }
    }

    /// A link that opens the pin in a map app (Google Maps, which every Android phone has).
    pub fn map_link(self) -> String {
        format!("https://www.google.com/maps/search/?api=1&query={:.6},{:.6}", self.lat(), self.lng())
    }
}

/// Kenya and a margin around it: a pin elsewhere is a mistake (a phone's stale or mocked position).
const LATITUDES: std::ops::RangeInclusive<f64> = -5.5..=5.5;
const LONGITUDES: std::ops::RangeInclusive<f64> = 33.0..=42.5;

/// The pickup field: `2026-11-25T19:00`, or nothing (the next open window is taken).
pub fn parse_pickup(value: Option<&str>) -> Result<Option<(Date, u16)>, String> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(None),
        Some(value) => parse_slot_value(value)
            .map(Some)
            .ok_or_else(|| "Please choose a pickup day and window from the list.".to_owned()),
    }
}

/// The rush box: a JSON boolean, or a form's checkbox (`on`, `true`, `1`, `yes`; absent or blank is no).
pub fn parse_rush(value: Option<&Value>) -> Result<bool, String> {
    match value {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(rush)) => Ok(*rush),
        Some(Value::String(text)) => match text.trim().to_ascii_lowercase().as_str() {
            "" | "false" | "0" | "no" | "off" => Ok(false),
            "on" | "true" | "1" | "yes" => Ok(true),
            _ => Err("Next-day rush is either on or off.".to_owned()),
        },
        Some(_) => Err("Next-day rush is either on or off.".to_owned()),
    }
}

/// The landmark: optional, one line, at most 120 characters.
pub fn parse_landmark(value: Option<&str>) -> Result<String, String> {
    text::optional(value, "landmark", 120, false).map(Option::unwrap_or_default)
}

/// The map pin: both coordinates or neither, in decimal degrees, in or near Kenya.
pub fn parse_pin(lat: Option<&Value>, lng: Option<&Value>) -> Result<Option<Pin>, String> {
    let degrees = |value: Option<&Value>| -> Result<Option<f64>, ()> {
        match value {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => n.as_f64().map(Some).ok_or(()),
            Some(Value::String(text)) if text.trim().is_empty() => Ok(None),
            Some(Value::String(text)) => text.trim().parse::<f64>().map(Some).map_err(|_| ()),
            Some(_) => Err(()),
        }
    };
    let unreadable = || "The map pin could not be read. Please clear it and share your location again.".to_owned();
    match (degrees(lat).map_err(|_| unreadable())?, degrees(lng).map_err(|_| unreadable())?) {
        (None, None) => Ok(None),
        (Some(lat), Some(lng)) if lat.is_finite() && lng.is_finite() => {
            if LATITUDES.contains(&lat) && LONGITUDES.contains(&lng) {
                Ok(Some(Pin::from_degrees(lat, lng)))
            } else {
                Err("The map pin is outside Kenya. Please clear it, or share your location again.".to_owned())
            }
        }
        _ => Err(unreadable()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pin_needs_both_coordinates_in_kenya() {
        let pin = parse_pin(Some(&Value::from("-1.2921")), Some(&Value::from(36.8219))).unwrap().unwrap();
        assert_eq!((pin.lat_e6, pin.lng_e6), (-1_292_100, 36_821_900));
        assert_eq!(parse_pin(None, Some(&Value::from(""))), Ok(None));
        assert!(parse_pin(Some(&Value::from("-1.29")), None).is_err());
        assert!(parse_pin(Some(&Value::from(51.5)), Some(&Value::from(-0.12))).unwrap_err().contains("outside Kenya"));
        assert!(parse_pin(Some(&Value::from("north")), Some(&Value::from(36.8))).is_err());
    }

    #[test]
    fn the_rush_box_reads_a_checkbox_or_a_boolean() {
        assert_eq!(parse_rush(Some(&Value::from("on"))), Ok(true));
        assert_eq!(parse_rush(Some(&Value::from(false))), Ok(false));
        assert_eq!(parse_rush(None), Ok(false));
        assert!(parse_rush(Some(&Value::from("maybe"))).is_err());
    }

    #[test]
    fn a_pickup_value_is_a_day_and_a_window_start_or_nothing() {
        assert_eq!(parse_pickup(Some(" ")), Ok(None));
        assert!(parse_pickup(Some("tomorrow evening")).is_err());
        assert!(parse_pickup(Some("2026-11-25T19:00")).unwrap().is_some());
    }
}
