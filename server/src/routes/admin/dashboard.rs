//! The dashboard page, rendered on the server with its first page of data (the pickups awaiting
//! confirmation, and the open tab's list, day board or money), and its stat cards.

use super::query::{ListQuery, OrdersQuery, PAGE_SIZE, message_status, page_number};
use super::read::awaiting::load_awaiting;
use super::read::money::{load_balances, load_cash_up};
use super::read::outbox::{Unconfigured, load_report, owners_budget};
use super::read::payments::load_to_check;
use super::read::run::{board_ask, run_day};
use super::{load_failed, private_json, today};
use crate::auth::CurrentStaff;
use crate::db::DbError;
use crate::domain::StaffRole;
use crate::error::ApiError;
use crate::models::contact_message::ContactMessage;
use crate::models::day_board::DayBoard;
use crate::models::order_list::ListedOrder;
use crate::models::stats::Stats;
use crate::state::AppState;
use crate::views::admin::{AdminTab, DashboardProps, OrdersPage, StaffView};
use crate::views::backups::BackupStatus;
use crate::views::messages::MessagesPage;
use crate::views::run::DayRun;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use secrecy::ExposeSecret;
use serde::Deserialize;

/// The dashboard's query: which tab, and that tab's filter and page (`status`, `q` for orders,
/// `page`), or the day of the day board or of the money tab's cash-up (`date`); the other tabs
/// show their first page.
#[derive(Debug, Default, Deserialize)]
pub struct DashboardQuery {
    tab: Option<String>,
    date: Option<String>,
    /// The day board's window and part on a busy day.
    window: Option<String>,
    part: Option<String>,
    /// The Reports tab's period.
    #[serde(flatten)]
    period: super::reports::PeriodQuery,
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
    // A bad filter in the address shows the unfiltered list (or today's board) rather than an error page.
    let tab = match query.tab.as_deref() {
        Some("messages") => AdminTab::Messages,
        Some("run") => AdminTab::Run,
        Some("inbox") => AdminTab::Inbox,
        Some("money") => AdminTab::Money,
        // Reports are the owner's, and staff's when the owner shares some (else they see the orders).
        Some("reports") if staff.role != StaffRole::Valet => AdminTab::Reports,
        _ => AdminTab::Orders,
    };
    let (orders, messages_status, messages_page) = match tab {
        AdminTab::Orders => (OrdersQuery::parse(&query.list).unwrap_or_else(|_| OrdersQuery::unfiltered()), None, 1),
        AdminTab::Messages => (
            OrdersQuery::unfiltered(),
            message_status(query.list.status.as_deref()).unwrap_or(None),
            page_number(query.list.page.as_deref()).unwrap_or(1),
        ),
        AdminTab::Run | AdminTab::Inbox | AdminTab::Money | AdminTab::Reports => (OrdersQuery::unfiltered(), None, 1),
    };
    let inbox_query = (tab == AdminTab::Inbox).then(|| {
        (
            super::inbox::inbox_status(query.list.status.as_deref()).unwrap_or(None),
            page_number(query.list.page.as_deref()).unwrap_or(1),
        )
    });
    let (day, now) = (today(&state), state.now());
    // The money tab's cash-up is of the day asked for (`date`), or of today.
    let money_day = (tab == AdminTab::Money).then(|| run_day(query.date.as_deref(), day).unwrap_or(day));
    let run_day = (tab == AdminTab::Run)
        .then(|| run_day(query.date.as_deref(), day).or_else(|_| run_day(None, day)).ok())
        .flatten();
    let run_ask = board_ask(query.window.as_deref(), query.part.as_deref()).unwrap_or_default();
    let report_period = (tab == AdminTab::Reports).then(|| super::reports::period_of(&query.period, day));
    let filter = orders.clone();
    let missing = Unconfigured::of(state.settings());
    let budget = owners_budget(&state, &staff);
    let role = staff.role;
    let schedule = state.settings().schedule.clone();
    let loaded = state
        .db()
        .run(move |connection| {
            let stats = Stats::load(connection, day)?;
            let orders = ListedOrder::page(connection, &filter.filter, filter.page, PAGE_SIZE)?;
            let messages = ContactMessage::page(connection, messages_status, messages_page, PAGE_SIZE)?;
            let outbox = load_report(connection, &missing, budget)?;
            let unconfirmed = load_awaiting(connection, &schedule, now)?;
            let board = run_day.map(|day| DayBoard::load(connection, day, run_ask)).transpose()?;
            let payments = load_to_check(connection, None)?;
            let inbox =
                inbox_query.map(|(status, number)| super::inbox::load_inbox(connection, status, number)).transpose()?;
            let cash_up = money_day.map(|day| load_cash_up(connection, day)).transpose()?;
            let balances = money_day.map(|_| load_balances(connection, role)).transpose()?;
            let reader = super::reports::reader_of(connection, role)?;
            let reports_tab = reader.is_some();
            let reports = report_period
                .zip(reader)
                .map(|(period, reader)| super::reports::load_reports(connection, period, (day, now), &reader))
                .transpose()?;
            let money = (cash_up, balances, (reports_tab, reports));
            Ok::<_, DbError>((stats, orders, messages, outbox, unconfirmed, board, payments, inbox, money))
        })
        .await;
    let (
        stats,
        orders_page,
        messages,
        outbox,
        unconfirmed,
        board,
        payments,
        inbox,
        (cash_up, balances, (reports_tab, reports)),
    ) = match loaded {
        Ok(loaded) => loaded,
        Err(error) => {
            tracing::error!(%error, "the dashboard could not be loaded");
            return HttpResponse::ServiceUnavailable()
                .insert_header((header::RETRY_AFTER, "5"))
                .content_type("text/plain; charset=utf-8")
                .body(super::LOAD_FAILED);
        }
    };
    // Staff asking for reports that are not shared with them see the orders.
    let tab = if tab == AdminTab::Reports && reports.is_none() { AdminTab::Orders } else { tab };
    let props = DashboardProps {
        staff: StaffView { email: staff.email, role: staff.role },
        csrf: staff.csrf_token,
        tab,
        stats,
        orders: OrdersPage::new(&orders_page, orders.view(), orders.page, PAGE_SIZE, now),
        messages: MessagesPage::new(&messages, messages_status, messages_page, PAGE_SIZE),
        statuses: DashboardProps::statuses(),
        racks: state.settings().racks.clone(),
        outbox,
        unconfirmed,
        run: board.map(|board| DayRun::new(&board, &state.settings().schedule)),
        inbox,
        payments,
        cash_up,
        balances,
        reports,
        reports_tab,
        sends_prompts: state.sends_prompts(),
        backups: backup_status(&state, staff.role).await,
    };
    let (page, _) = state.pages().render("/admin", &props).await;
    page.respond_private(&request)
}

/// GET /api/admin/stats: the stat cards and today's takings (Nairobi).
pub async fn get_stats(state: web::Data<AppState>, _staff: CurrentStaff) -> Result<HttpResponse, ApiError> {
    let day = today(&state);
    let stats = state.db().run(move |c| Stats::load(c, day).map_err(DbError::from)).await.map_err(load_failed)?;
    Ok(private_json(&stats))
}

/// How the daily backup stands, for an owner on a SQLite database: the newest copy of the folder
/// (read off the async workers: a folder listing).
async fn backup_status(state: &AppState, role: StaffRole) -> Option<BackupStatus> {
    let sqlite = state.settings().database_url.expose_secret().starts_with("sqlite://");
    if role != StaffRole::Owner || !sqlite {
        return None;
    }
    let dir = state.settings().backups.dir.clone();
    let now = state.settings().clock.now();
    let folder = dir.clone();
    let newest = web::block(move || folder.as_deref().and_then(crate::jobs::backups::newest_copy)).await.ok().flatten();
    Some(BackupStatus::new(dir.as_deref(), newest, now))
}
