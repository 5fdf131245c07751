//! The kinds of text staff switch on and off (`/api/admin/texts`): each SMS kind with its label,
//! whether it is sent, and who changed that last.

use super::time;
use crate::domain::MessageKind;
use crate::models::outbox::MessageSwitch;
use serde::Serialize;
use ts_rs::TS;

/// One kind of text as staff see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TextSwitch {
    /// The kind, as `POST /api/admin/texts` takes it.
    pub kind: MessageKind,
    /// What staff read.
    pub label: String,
    /// Whether texts of this kind are written and sent.
    pub enabled: bool,
    /// Who switched it last; `None` while nobody has (it is on).
    pub changed_by: Option<String>,
    /// When, RFC 3339 UTC.
    pub changed_at: Option<String>,
}

/// Every kind of text, in the order a customer receives them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TextSwitches {
    /// The kinds.
    pub kinds: Vec<TextSwitch>,
}

impl TextSwitches {
    /// Every SMS kind, on unless one of `switches` (the stored changes) says otherwise.
    pub fn new(switches: &[MessageSwitch]) -> Self {
        let kinds = MessageKind::SMS
            .iter()
            .map(|&kind| {
                let changed = switches.iter().find(|switch| switch.kind == kind.as_str());
                TextSwitch {
                    kind,
                    label: kind.label().to_owned(),
                    enabled: changed.is_none_or(|switch| switch.enabled),
                    changed_by: changed.map(|switch| switch.changed_by.clone()),
                    changed_at: changed.map(|switch| time(switch.changed_at)),
                }
            })
            .collect();
        TextSwitches { kinds }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use time::macros::datetime;

    #[test]
    fn every_sms_kind_is_listed_and_on_unless_switched_off() {
        let off = MessageSwitch {
            kind: "sms-eta".to_owned(),
            enabled: false,
            changed_by: "owner@example.com".to_owned(),
            changed_at: datetime!(2026-11-25 14:30),
        };
        let view = TextSwitches::new(&[off]);
        assert_eq!(view.kinds.len(), MessageKind::SMS.len());
        let eta = view.kinds.iter().find(|switch| switch.kind == MessageKind::SmsEta).unwrap();
        assert!(!eta.enabled);
        assert_eq!(eta.changed_by.as_deref(), Some("owner@example.com"));
        assert_eq!(eta.changed_at.as_deref(), Some("2026-11-25T14:30:00Z"));
        assert!(view.kinds.iter().filter(|switch| switch.kind != MessageKind::SmsEta).all(|switch| switch.enabled));
    }
}
