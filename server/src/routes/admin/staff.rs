//! Staff accounts, for the owner only (the guard keeps `/api/admin/staff` to the Accounts area).

use super::{load_failed, private_json};
use crate::auth::CurrentStaff;
use crate::db::DbError;
use crate::error::ApiError;
use crate::models::staff::Staff;
use crate::state::AppState;
use crate::views::accounts::{StaffAccount, StaffAccounts};
use actix_web::{HttpResponse, web};

/// GET /api/admin/staff: every account with its role, whether it can sign in, and its last sign-in.
pub async fn list_staff(state: web::Data<AppState>, _owner: CurrentStaff) -> Result<HttpResponse, ApiError> {
    let accounts = state.db().run(|c| Staff::list(c).map_err(DbError::from)).await.map_err(load_failed)?;
    Ok(private_json(&StaffAccounts { items: accounts.iter().map(StaffAccount::from).collect() }))
}
