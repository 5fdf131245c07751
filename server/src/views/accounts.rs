//! Staff accounts as the owner sees them (`GET /api/admin/staff`): never a password hash.

use super::time;
use crate::domain::StaffRole;
use crate::models::staff::Staff;
use serde::Serialize;
use ts_rs::TS;

/// Whether an account can sign in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum AccountState {
    /// It can sign in.
    Enabled,
    /// It was disabled (`laundry admin disable`): no sign-in, no session.
    Disabled,
}

/// One staff account.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct StaffAccount {
    /// The account's id.
    pub id: String,
    /// The login name.
    pub email: String,
    /// What it may do.
    pub role: StaffRole,
    /// Whether it can sign in.
    pub state: AccountState,
    /// The last successful sign-in, RFC 3339.
    pub last_sign_in_at: Option<String>,
    /// When it was created, RFC 3339.
    pub created_at: String,
}

impl From<&Staff> for StaffAccount {
    fn from(account: &Staff) -> Self {
        StaffAccount {
            id: account.id.clone(),
            email: account.email.clone(),
            role: account.role,
            state: if account.disabled_at.is_some() { AccountState::Disabled } else { AccountState::Enabled },
            last_sign_in_at: account.last_login_at.map(time),
            created_at: time(account.created_at),
        }
    }
}

/// `GET /api/admin/staff`: every account, oldest first.
#[derive(Debug, Clone, Serialize, TS)]
pub struct StaffAccounts {
    /// Oldest first.
    pub items: Vec<StaffAccount>,
}
