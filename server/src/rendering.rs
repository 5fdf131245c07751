//! Turning a page name and its props into a full HTML response: server render in the embedded
//! engine, the askama document shell around it, and the in-memory cache of pages whose props do
//! not depend on the request.
//!
//! Failure policy: a page that throws answers 500 with the error page; an engine that fails (time
//! limit, memory, no engine free) answers with the document shell and an empty root, so that the
//! browser renders the page from the same props with the client bundle.

use crate::clock::Clock;
use crate::compressed::{self, Compressed};
use crate::config::Business;
use crate::frontend::Frontend;
use crate::metrics::Metrics;
use crate::views::pages::{ErrorProps, Page, PageData, PageProps, SharedProps};
use crate::{catalogue, seo};
use actix_web::http::StatusCode;
use actix_web::http::header::{CacheControl, CacheDirective};
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, HttpResponseBuilder};
use askama::Template;
use serde_json::{Map, Value};
use ssr_runtime::{RenderError, RenderedPage, Renderer};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

/// The document shell of every page (`templates/document.html`).
#[derive(Template)]
#[template(path = "document.html")]
struct Document<'a> {
    title: &'a str,
    description: &'a str,
    site_name: &'a str,
    /// The site's public address, for the absolute addresses link previews need (og:image).
    base_url: &'a str,
    /// Absolute address of an indexed page; none for pages kept out of search results.
    canonical: Option<String>,
    structured_data: &'a str,
    css: &'a str,
    /// Inlined after `css`: the staff stylesheet on the staff pages, empty on every other page.
    staff_css: &'a str,
    html: &'a str,
    /// False for a page that is never hydrated: then no script at all (no client entry, no
    /// module preloads, no page data, no structured data).
    hydrate: bool,
    page_data: &'a str,
    entry: &'a str,
    preloads: Vec<&'a str>,
}

/// A finished page: its status, and its body either compressed in every coding (a page kept in
/// the cache) or as it is, to be compressed once for the request it answers.
#[derive(Debug)]
pub struct PageResponse {
    status: StatusCode,
    body: PageBody,
}

#[derive(Debug)]
enum PageBody {
    /// Kept: compressed once at the best levels, with an ETag.
    Kept(Compressed),
    /// For one request.
    Fresh(Bytes),
}

impl PageResponse {
    /// The same page answered with `status` (a form refused for a reason its page's status does
    /// not say: a photo too large is 413).
    pub fn with_status(self, status: StatusCode) -> Self {
        PageResponse { status, ..self }
    }

    /// Answers `request` with this page.
    pub fn respond(&self, request: &HttpRequest) -> HttpResponse {
        let mut response = HttpResponse::build(self.status);
        response.content_type("text/html; charset=utf-8").insert_header(CacheControl(vec![CacheDirective::NoCache]));
        self.send(request, response)
    }

    /// Answers with a page that holds one person's data: never stored by a cache, never indexed.
    pub fn respond_private(&self, request: &HttpRequest) -> HttpResponse {
        let mut response = HttpResponse::build(self.status);
        response
            .content_type("text/html; charset=utf-8")
            .insert_header(CacheControl(vec![CacheDirective::NoStore, CacheDirective::Private]))
            .insert_header(("X-Robots-Tag", "noindex, nofollow"));
        self.send(request, response)
    }

    fn send(&self, request: &HttpRequest, response: HttpResponseBuilder) -> HttpResponse {
        match &self.body {
            PageBody::Kept(body) => body.respond(request, response),
            PageBody::Fresh(body) => compressed::respond_once(body, request, response),
        }
    }

    /// The same page, compressed at the best levels to be kept and served many times; that takes
    /// tens of milliseconds, so it runs off the async workers. Should it fail, the page stays fresh.
    /// `at_once` false: each coding is made when a client first asks for it.
    async fn kept(self, at_once: bool) -> Self {
        let PageBody::Fresh(html) = &self.body else { return self };
        let html = html.clone();
        if !at_once {
            return PageResponse { status: self.status, body: PageBody::Kept(Compressed::deferred(html)) };
        }
        match tokio::task::spawn_blocking(move || Compressed::new(html)).await {
            Ok(body) => PageResponse { status: self.status, body: PageBody::Kept(body) },
            Err(error) => {
                tracing::error!(%error, "compressing a page to keep failed; it is compressed per request");
                self
            }
        }
    }
}

/// Renders pages and keeps those that can be reused.
pub struct Pages {
    renderer: Arc<Renderer>,
    /// Whether this server started the renderer (and so stops it): false when it was lent one
    /// that outlives it (the tests' servers share one).
    owns_renderer: bool,
    /// Renders this server asked for, done or not (the renderer's own counters may be shared).
    asked: AtomicU64,
    frontend: Frontend,
    business: Business,
    base_url: String,
    /// Whose year the copyright line shows.
    clock: Clock,
    /// Whether kept pages are compressed as they are kept (else when first asked for).
    compress_at_once: bool,
    /// Where each render's time is counted.
    metrics: Arc<Metrics>,
    cache: RwLock<HashMap<String, Arc<PageResponse>>>,
    /// Pages whose props change now and then: the latest props of each, and the page made of them.
    current: RwLock<HashMap<String, (Value, Arc<PageResponse>)>>,
}

impl Pages {
    /// Pages rendered by `renderer` into the shell with `frontend`'s files; canonical addresses
    /// start with `base_url`; the year they show is `clock`'s.
    pub fn new(renderer: Renderer, frontend: Frontend, business: Business, base_url: String, clock: Clock) -> Self {
        Self { owns_renderer: true, ..Self::sharing(Arc::new(renderer), frontend, business, base_url, clock) }
    }

    /// Like [`Pages::new`] with a renderer that others use too and that outlives these pages:
    /// [`Pages::shutdown`] leaves it running.
    pub fn sharing(
        renderer: Arc<Renderer>,
        frontend: Frontend,
        business: Business,
        base_url: String,
        clock: Clock,
    ) -> Self {
        Self {
            renderer,
            owns_renderer: false,
            asked: AtomicU64::new(0),
            frontend,
            business,
            base_url,
            clock,
            compress_at_once: true,
            metrics: Arc::default(),
            cache: RwLock::default(),
            current: RwLock::default(),
        }
    }

    /// Pages kept in memory compressed when first asked for in a coding (true, the default:
    /// when they are kept, off the async workers).
    pub fn compressing_at_once(self, at_once: bool) -> Self {
        Self { compress_at_once: at_once, ..self }
    }

    /// Renders' times counted into `metrics` (the server's; else a registry of their own).
    pub fn counting_into(self, metrics: Arc<Metrics>) -> Self {
        Self { metrics, ..self }
    }

    /// The built frontend.
    pub fn frontend(&self) -> &Frontend {
        &self.frontend
    }

    /// Stops the rendering engines once the renders already asked for are answered (see
    /// [`Renderer::shutdown`]); pages asked for afterwards are errors.
    pub fn shutdown(&self) {
        if self.owns_renderer {
            self.renderer.shutdown();
        }
    }

    /// The renderer's counters (renders done, failed).
    pub fn render_stats(&self) -> ssr_runtime::RendererStats {
        self.renderer.stats()
    }

    /// How many renders these pages asked for, done or failed (the error page's included).
    pub fn renders_asked(&self) -> u64 {
        self.asked.load(Ordering::Relaxed)
    }

    /// A page at `path` with its own props `own`, ready to render: see [`PageJson::new`].
    pub fn page<P: PageProps>(&self, path: &str, own: &P) -> PageJson {
        PageJson::new(&self.business, &self.clock, path, own)
    }

    /// A page whose props do not depend on the request: rendered once per `key` and then served
    /// from memory. The key must change whenever the props do (it includes the year).
    pub async fn cached(&self, key: &str, page: PageJson) -> Arc<PageResponse> {
        let key = format!("{key}@{}", page.props.get("year").and_then(Value::as_i64).unwrap_or_default());
        if let Some(hit) = self.cache.read().ok().and_then(|cache| cache.get(&key).cloned()) {
            return hit;
        }
        let (response, reusable) = self.render_json(page).await;
        let response = Arc::new(response.kept(self.compress_at_once).await);
        if reusable && let Ok(mut cache) = self.cache.write() {
            cache.insert(key, Arc::clone(&response));
        }
        response
    }

    /// A page whose props do not depend on the request but change now and then (the order form:
    /// its pickup windows fill up and close): rendered once per distinct props and served from
    /// memory while they stay the same. Only the latest props of each page are kept, so memory
    /// stays bounded however often they change.
    pub async fn current(&self, page: PageJson) -> Arc<PageResponse> {
        let name = page.page.name();
        let hit = self.current.read().ok().and_then(|current| {
            current.get(name).filter(|(kept, _)| *kept == page.props).map(|(_, response)| Arc::clone(response))
        });
        if let Some(hit) = hit {
            return hit;
        }
        let props = page.props.clone();
        let (response, reusable) = self.render_json(page).await;
        let response = Arc::new(response.kept(self.compress_at_once).await);
        if reusable && let Ok(mut current) = self.current.write() {
            current.insert(name.to_owned(), (props, Arc::clone(&response)));
        }
        response
    }

    /// The error page for an unknown route, from the cache.
    pub async fn not_found(&self) -> Arc<PageResponse> {
        self.cached("error-404", self.page("", &ErrorProps { status: 404 })).await
    }

    /// Renders the page at `path` with its own props `own` now, for one request. The flag says
    /// whether the result may be cached: false when it is a fallback after a failure.
    pub async fn render<P: PageProps>(&self, path: &str, own: &P) -> (PageResponse, bool) {
        self.render_json(self.page(path, own)).await
    }

    /// Renders `page` now; the flag as [`Pages::render`]'s.
    async fn render_json(&self, page: PageJson) -> (PageResponse, bool) {
        let PageJson { page, props } = page;
        let props_json = props.to_string();
        let started = std::time::Instant::now();
        self.asked.fetch_add(1, Ordering::Relaxed);
        let rendered = self.renderer.render(page.name(), &props_json).await;
        self.metrics.render(page.name(), rendered.is_ok(), started.elapsed());
        match rendered {
            Ok(rendered) => (self.document(page, &props, &rendered), true),
            Err(RenderError::Threw { message }) => {
                tracing::error!(%page, error = %message, "the page threw while rendering");
                (self.server_error(&props).await, false)
            }
            Err(error) => {
                tracing::error!(%page, %error, "the engine failed; sending the shell for the browser to render");
                (self.shell_only(page, &props, StatusCode::OK), false)
            }
        }
    }

    /// The 500 page, rendered on the server if the error page itself renders.
    async fn server_error(&self, props: &Value) -> PageResponse {
        let mut props = props.clone();
        props["status"] = Value::from(500);
        props["path"] = Value::from("");
        self.asked.fetch_add(1, Ordering::Relaxed);
        match self.renderer.render(Page::Error.name(), &props.to_string()).await {
            Ok(rendered) => self.document(Page::Error, &props, &rendered),
            Err(error) => {
                tracing::error!(%error, "the error page failed to render too");
                self.shell_only(Page::Error, &props, StatusCode::INTERNAL_SERVER_ERROR)
            }
        }
    }

    fn shell_only(&self, page: Page, props: &Value, status: StatusCode) -> PageResponse {
        let fallback = RenderedPage {
            html: String::new(),
            title: self.business.name.clone(),
            description: String::new(),
            status: status.as_u16(),
        };
        self.document(page, props, &fallback)
    }

    fn document(&self, page: Page, props: &Value, rendered: &RenderedPage) -> PageResponse {
        let manifest = self.frontend.manifest();
        let hydrate = page.hydrates();
        let page_data = if hydrate {
            script_safe_json(&serde_json::to_value(PageData { page, props }).unwrap_or_default())
        } else {
            String::new()
        };
        let path = props.get("path").and_then(Value::as_str).unwrap_or_default();
        let structured_data = script_safe_json(&seo::structured_data(&self.business, &self.base_url, page.name()));
        let document = Document {
            title: &rendered.title,
            description: &rendered.description,
            site_name: &self.business.name,
            base_url: &self.base_url,
            canonical: seo::is_indexed(path).then(|| format!("{}{path}", self.base_url)),
            structured_data: &structured_data,
            // The valet page carries its own small stylesheet only.
            css: if page == Page::Valet { self.frontend.valet_css() } else { self.frontend.css() },
            staff_css: if matches!(
                page,
                Page::Login | Page::Admin | Page::Summary | Page::Garments | Page::Tags | Page::Floor
            ) {
                self.frontend.staff_css()
            } else {
                ""
            },
            html: &rendered.html,
            hydrate,
            page_data: &page_data,
            entry: &manifest.entry,
            preloads: if hydrate { self.frontend.preloads(page.name()) } else { Vec::new() },
        };
        let html = document.render().unwrap_or_else(|error| {
            tracing::error!(%error, "the document shell failed to render");
            String::from(
                "<!doctype html><title>Unexpected Application Error!</title><h1>Unexpected Application Error!</h1>",
            )
        });
        let status = StatusCode::from_u16(rendered.status).unwrap_or(StatusCode::OK);
        PageResponse { status, body: PageBody::Fresh(Bytes::from(html)) }
    }
}

/// A page and its props as the engine receives them: what every page gets ([`SharedProps`]) and
/// the page's own fields. Made only from a page's own props type ([`PageProps`]), so that a page
/// is never given another page's props.
#[derive(Debug, Clone, PartialEq)]
pub struct PageJson {
    page: Page,
    props: Value,
}

impl PageJson {
    /// The page of `own` at `path`, with the shared props of `business` and the year by `clock` in
    /// Nairobi.
    pub fn new<P: PageProps>(business: &Business, clock: &Clock, path: &str, own: &P) -> Self {
        let year = clock.nairobi().year();
        let shared = SharedProps { path, year, business, price_list: &catalogue::PRICE_LIST };
        let mut props = match serde_json::to_value(shared) {
            Ok(Value::Object(map)) => map,
            _ => Map::new(),
        };
        if let Ok(Value::Object(own)) = serde_json::to_value(own) {
            props.extend(own);
        }
        PageJson { page: P::PAGE, props: Value::Object(props) }
    }

    /// Which page.
    pub fn page(&self) -> Page {
        self.page
    }

    /// Its props, shared and own, as one JSON object.
    pub fn props(&self) -> &Value {
        &self.props
    }
}

impl std::fmt::Debug for Pages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pages").finish_non_exhaustive()
    }
}

/// JSON that can sit inside `<script type="application/json">`: nothing in it can close the tag
/// or open a comment.
fn script_safe_json(value: &Value) -> String {
    value
        .to_string()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

#[cfg(test)]
mod tests;
