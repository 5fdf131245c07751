//! The demo's accounts: an owner, a staff member and a valet, each with a password shown on the
//! demo's sign-in page.

use crate::db::DbConnection;
use crate::domain::StaffRole;
use crate::models::staff::Staff;
use anyhow::anyhow;
use time::PrimitiveDateTime;

/// A demo account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    /// Its sign-in.
    pub email: &'static str,
    /// Owner, staff or valet.
    pub role: StaffRole,
    /// Made at this start.
    pub password: String,
}

impl Account {
    /// "Owner", "Staff", "Valet".
    pub fn role_name(&self) -> &'static str {
        match self.role {
            StaffRole::Owner => "Owner",
            StaffRole::Staff => "Staff",
            StaffRole::Valet => "Valet",
        }
    }

    /// Where the account starts: `/admin`, or `/valet` for a valet.
    pub fn home(&self) -> &'static str {
        if self.role == StaffRole::Valet { "/valet" } else { "/admin" }
    }
}

const OWNER: &str = "owner@example.com";

pub(super) const DESK: &str = "desk@example.com";

pub(super) const VALET: &str = "valet@example.com";

/// A password of 16 letters and digits.
fn password() -> String {
    uuid::Uuid::new_v4().simple().to_string()[..16].to_owned()
}

/// The three accounts, with passwords made now, and the valet's account id.
pub fn accounts(connection: &mut DbConnection, now: PrimitiveDateTime) -> anyhow::Result<(Vec<Account>, String)> {
    let mut made = Vec::new();
    let mut valet_id = String::new();
    for (email, role) in [(OWNER, StaffRole::Owner), (DESK, StaffRole::Staff), (VALET, StaffRole::Valet)] {
        let password = password();
        let hash = crate::password::hash_password(&password).map_err(|error| anyhow!("hashing a password: {error}"))?;
        let staff = Staff::create(connection, email, &hash, role, now)
            .map_err(|error| anyhow!("creating {email}: {error:?}"))?;
        if role == StaffRole::Valet {
            valet_id = staff.id;
        }
        made.push(Account { email, role, password });
    }
    Ok((made, valet_id))
}
