//! The dashboard page, rendered on the server with its first page of data, and its stat cards.

use super::load_failed;
use super::mail::load_report;
use super::private_json;
use super::query::{ListQuery, OrdersQuery, PAGE_SIZE, message_status, page_number};
use crate::auth::CurrentStaff;
use crate::clock::now_utc;
use crate::db::DbError;
use crate::error::ApiError;
use crate::models::contact_message::ContactMessage;
use crate::models::order::Order;
use crate::models::stats::Stats;
use crate::state::AppState;
use crate::views::admin::{AdminTab, DashboardProps, MessagesPage, OrdersPage, StaffView};
use crate::views::pages::Page;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;

/// The dashboard's query: which tab, and that tab's filter and page (`status`, `q` for orders,
/// `page`); the other tab shows its first page.
#[derive(Debug, Default, Deserialize)]
pub struct DashboardQuery {
    tab: Option<String>,
    #[serde(flatten)]
    list: ListQuery,
}

/// GET /admin: the dashboard's first page, rendered on the server with its data.
pub async fn show_dashboard(
    state: web::Data<AppState>,
    request: HttpRequest,
    staff: CurrentStaff,
    query: web::Query<DashboardQuery>,
) -> HttpResponse {
    // A bad filter in the address shows the unfiltered list rather than an error page.
    let tab = if query.tab.as_deref() == Some("messages") { AdminTab::Messages } else { AdminTab::Orders };
    let (orders, messages_status, messages_page) = match tab {
        AdminTab::Orders => (OrdersQuery::parse(&query.list).unwrap_or_else(|_| OrdersQuery::unfiltered()), None, 1),
        AdminTab::Messages => (
            OrdersQuery::unfiltered(),
            message_status(query.list.status.as_deref()).unwrap_or(None),
            page_number(query.list.page.as_deref()).unwrap_or(1),
        ),
    };
    let filter = orders.clone();
    let mail_settings = state.settings().mail.clone();
    let loaded = state
        .db()
        .run(move |connection| {
            let stats = Stats::load(connection)?;
            let orders = Order::page(connection, &filter.filter, filter.page, PAGE_SIZE)?;
            let messages = ContactMessage::page(connection, messages_status, messages_page, PAGE_SIZE)?;
            let mail = load_report(connection, &mail_settings)?;
            Ok::<_, DbError>((stats, orders, messages, mail))
        })
        .await;
    let (stats, orders_page, messages, mail) = match loaded {
        Ok(loaded) => loaded,
        Err(error) => {
            tracing::error!(%error, "the dashboard could not be loaded");
            return HttpResponse::ServiceUnavailable()
                .insert_header((header::RETRY_AFTER, "5"))
                .content_type("text/plain; charset=utf-8")
                .body(super::LOAD_FAILED);
        }
    };
    let props = DashboardProps {
        staff: StaffView { email: staff.email },
        csrf: staff.csrf_token,
        tab,
        stats,
        orders: OrdersPage::new(&orders_page, orders.view(), orders.page, PAGE_SIZE, now_utc()),
        messages: MessagesPage::new(&messages, messages_status, messages_page, PAGE_SIZE),
        statuses: DashboardProps::statuses(),
        mail,
    };
    let (page, _) = state.pages().render(Page::Admin, state.pages().props("/admin", &props)).await;
    page.respond_private(&request)
}

/// GET /api/admin/stats
pub async fn get_stats(state: web::Data<AppState>, _staff: CurrentStaff) -> Result<HttpResponse, ApiError> {
    let stats = state.db().run(|c| Stats::load(c).map_err(DbError::from)).await.map_err(load_failed)?;
    Ok(private_json(&stats))
}
