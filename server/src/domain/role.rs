//! Staff roles, and which side of the site each may use.

use super::text_enum::text_enum;

text_enum! {
    /// What a staff account may do.
    pub enum StaffRole {
        /// Everything, staff accounts included.
        Owner = "owner",
        /// The dashboard: orders, messages, slots, the day's run, payments.
        Staff = "staff",
        /// The valet page only: the day's stops.
        Valet = "valet",
    }
}

text_enum! {
    /// A part of the owner's Reports tab. The owner chooses which of them staff may see; valets see
    /// none.
    pub enum ReportSection {
        /// Money in by method, and what was given back.
        Money = "money",
        /// Orders, kilos and pieces booked.
        Orders = "orders",
        /// Delivered orders that still owe.
        Owing = "owing",
        /// Turnaround, windows kept, missed stops and re-cleans.
        Service = "service",
        /// New and returning customers, and the top spenders (phone numbers masked for staff).
        Customers = "customers",
        /// Each day's cash-up by holder.
        Cash = "cash",
    }
}

impl ReportSection {
    /// Every section, in the tab's order.
    pub const ALL: [ReportSection; 6] = [
        ReportSection::Money,
        ReportSection::Orders,
        ReportSection::Owing,
        ReportSection::Service,
        ReportSection::Customers,
        ReportSection::Cash,
    ];

    /// What the owner reads in the sharing form.
    pub fn label(self) -> &'static str {
        match self {
            ReportSection::Money => "Money in",
            ReportSection::Orders => "Orders and pieces",
            ReportSection::Owing => "Owed after delivery",
            ReportSection::Service => "Turnaround, windows and re-cleans",
            ReportSection::Customers => "Customers",
            ReportSection::Cash => "Cash-up by day",
        }
    }
}

/// Which part of the staff side a path belongs to, for [`StaffRole::may_use`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StaffArea {
    /// `/valet` and `/api/valet`: the day's run from a phone.
    Valet,
    /// `/admin` and `/api/admin`: the dashboard.
    Dashboard,
    /// The owner's: `/admin/staff` and `/api/admin/staff` (staff accounts), `/admin/exports` (the
    /// CSV downloads and the month's summary) and `/admin/reports` (what staff see of the reports).
    Accounts,
    /// Signing out: every role.
    SignOut,
}

impl StaffRole {
    /// Whether this role may use `area`. Staff and owners may open the valet page too (they stand
    /// in for a valet); a valet sees nothing of the dashboard.
    pub fn may_use(self, area: StaffArea) -> bool {
        match (self, area) {
            (_, StaffArea::SignOut) | (StaffRole::Owner, _) => true,
            (StaffRole::Staff, StaffArea::Valet | StaffArea::Dashboard) => true,
            (StaffRole::Staff, StaffArea::Accounts) => false,
            (StaffRole::Valet, StaffArea::Valet) => true,
            (StaffRole::Valet, StaffArea::Dashboard | StaffArea::Accounts) => false,
        }
    }

    /// Where this role lands after signing in.
    pub fn home(self) -> &'static str {
        match self {
            StaffRole::Owner | StaffRole::Staff => "/admin",
            StaffRole::Valet => "/valet",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_valet_may_use_the_valet_page_and_sign_out_only() {
        assert!(StaffRole::Valet.may_use(StaffArea::Valet));
        assert!(StaffRole::Valet.may_use(StaffArea::SignOut));
        assert!(!StaffRole::Valet.may_use(StaffArea::Dashboard));
        assert!(!StaffRole::Valet.may_use(StaffArea::Accounts));
    }

    #[test]
    fn only_an_owner_manages_accounts() {
        assert!(StaffRole::Owner.may_use(StaffArea::Accounts));
        assert!(!StaffRole::Staff.may_use(StaffArea::Accounts));
        assert!(StaffRole::Staff.may_use(StaffArea::Dashboard));
    }
}
