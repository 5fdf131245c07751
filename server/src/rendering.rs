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
use crate::views::pages::{ErrorProps, Page, PageData, SharedProps};
use crate::{catalogue, seo};
use actix_web::http::StatusCode;
use actix_web::http::header::{CacheControl, CacheDirective};
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, HttpResponseBuilder};
use askama::Template;
use serde::Serialize;
use serde_json::{Map, Value};
use ssr_runtime::{RenderError, RenderedPage, Renderer};
use std::collections::HashMap;
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
    async fn kept(self) -> Self {
        let PageBody::Fresh(html) = &self.body else { return self };
        let html = html.clone();
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
    renderer: Renderer,
    frontend: Frontend,
    business: Business,
    base_url: String,
    /// Whose year the copyright line shows.
    clock: Clock,
    cache: RwLock<HashMap<String, Arc<PageResponse>>>,
    /// Pages whose props change now and then: the latest props of each, and the page made of them.
    current: RwLock<HashMap<String, (Value, Arc<PageResponse>)>>,
}

impl Pages {
    /// Pages rendered by `renderer` into the shell with `frontend`'s files; canonical addresses
    /// start with `base_url`; the year they show is `clock`'s.
    pub fn new(renderer: Renderer, frontend: Frontend, business: Business, base_url: String, clock: Clock) -> Self {
        Self { renderer, frontend, business, base_url, clock, cache: RwLock::default(), current: RwLock::default() }
    }

    /// The built frontend.
    pub fn frontend(&self) -> &Frontend {
        &self.frontend
    }

    /// Stops the rendering engines once the renders already asked for are answered (see
    /// [`Renderer::shutdown`]); pages asked for afterwards are errors.
    pub fn shutdown(&self) {
        self.renderer.shutdown();
    }

    /// The renderer's counters (renders done, failed).
    pub fn render_stats(&self) -> ssr_runtime::RendererStats {
        self.renderer.stats()
    }

    /// Props for a page at `path`: the shared props plus the page's own fields.
    pub fn props(&self, path: &str, own: &impl Serialize) -> Value {
        page_props(&self.business, &self.clock, path, own)
    }

    /// A page whose props do not depend on the request: rendered once per `key` and then served
    /// from memory. The key must change whenever the props do (it includes the year).
    pub async fn cached(&self, key: &str, page: Page, props: Value) -> Arc<PageResponse> {
        let key = format!("{key}@{}", props.get("year").and_then(Value::as_i64).unwrap_or_default());
        if let Some(hit) = self.cache.read().ok().and_then(|cache| cache.get(&key).cloned()) {
            return hit;
        }
        let (response, reusable) = self.render(page, props).await;
        let response = Arc::new(response.kept().await);
        if reusable && let Ok(mut cache) = self.cache.write() {
            cache.insert(key, Arc::clone(&response));
        }
        response
    }

    /// A page whose props do not depend on the request but change now and then (the order form:
    /// its pickup windows fill up and close): rendered once per distinct props and served from
    /// memory while they stay the same. Only the latest props of each `name` are kept, so memory
    /// stays bounded however often they change.
    pub async fn current(&self, name: &str, page: Page, props: Value) -> Arc<PageResponse> {
        let hit = self.current.read().ok().and_then(|current| {
            current.get(name).filter(|(kept, _)| *kept == props).map(|(_, response)| Arc::clone(response))
        });
        if let Some(hit) = hit {
            return hit;
        }
        let (response, reusable) = self.render(page, props.clone()).await;
        let response = Arc::new(response.kept().await);
        if reusable && let Ok(mut current) = self.current.write() {
            current.insert(name.to_owned(), (props, Arc::clone(&response)));
        }
        response
    }

    /// The error page for an unknown route, from the cache.
    pub async fn not_found(&self) -> Arc<PageResponse> {
        let props = self.props("", &ErrorProps { status: 404 });
        self.cached("error-404", Page::Error, props).await
    }

    /// Renders `page` now. The flag says whether the result may be cached: false when it is a
    /// fallback after a failure, so that the next request tries again.
    pub async fn render(&self, page: Page, props: Value) -> (PageResponse, bool) {
        let props_json = props.to_string();
        match self.renderer.render(page.name(), &props_json).await {
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
            staff_css: if matches!(page, Page::Login | Page::Admin) { self.frontend.staff_css() } else { "" },
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

/// The props of a page at `path`: what every page gets ([`SharedProps`], the year by `clock` in
/// Nairobi) plus the page's own fields in `own`.
pub fn page_props(business: &Business, clock: &Clock, path: &str, own: &impl Serialize) -> Value {
    let year = clock.nairobi().year();
    let shared = SharedProps { path, year, business, price_list: &catalogue::PRICE_LIST };
    let mut props = match serde_json::to_value(shared) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    };
    if let Ok(Value::Object(own)) = serde_json::to_value(own) {
        props.extend(own);
    }
    Value::Object(props)
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
mod tests {
    use super::*;

    #[test]
    fn json_in_a_script_tag_cannot_close_it() {
        let json = script_safe_json(&serde_json::json!({ "name": "</script><script>alert(1)</script>" }));
        assert!(!json.contains("</script"));
        assert!(!json.contains('<'));
        let back: Value = serde_json::from_str(&json).unwrap_or_default();
        assert_eq!(back["name"], "</script><script>alert(1)</script>");
    }
}
