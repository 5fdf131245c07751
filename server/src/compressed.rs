//! Response bodies and their content codings. A body kept in memory ([`Compressed`]) is stored in
//! the three encodings a browser may ask for, compressed once at the best levels (when it is kept,
//! or, [`Compressed::deferred`], when a client first asks for the coding), with a strong ETag:
//! cached pages and assets. A body made for one request ([`respond_once`]) is compressed
//! once, in the one coding that request accepts, at a level that costs less than rendering it.

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, HttpResponseBuilder};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::Write;
use std::sync::OnceLock;

/// One body, stored as is, gzip and brotli.
#[derive(Debug, Clone)]
pub struct Compressed {
    identity: Bytes,
    gzip: OnceLock<Bytes>,
    brotli: OnceLock<Bytes>,
    etag: String,
}

/// The content codings we send, in order of preference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Coding {
    Brotli,
    Gzip,
    Identity,
}

impl Compressed {
    /// Compresses `body` with both codings at their best levels: it is done once per body.
    pub fn new(body: impl Into<Bytes>) -> Self {
        let compressed = Self::deferred(body);
        compressed.gzip();
        compressed.brotli();
        compressed
    }

    /// `body`, compressed in a coding only when a client first asks for it (at the best level,
    /// then kept). Quality 11 brotli is most of the cost of starting a server whose pages are
    /// warmed and few of them asked for compressed: the tests' servers.
    pub fn deferred(body: impl Into<Bytes>) -> Self {
        Self::with_codings(body.into(), OnceLock::new(), OnceLock::new())
    }

    /// A body compressed beforehand (by the frontend build). A missing coding falls back to the
    /// plain body.
    pub fn from_parts(identity: Bytes, gzip: Option<Bytes>, brotli: Option<Bytes>) -> Self {
        let gzip = OnceLock::from(gzip.unwrap_or_else(|| identity.clone()));
        let brotli = OnceLock::from(brotli.unwrap_or_else(|| identity.clone()));
        Self::with_codings(identity, gzip, brotli)
    }

    /// `identity` with its codings (made or to be made) and its ETag.
    fn with_codings(identity: Bytes, gzip: OnceLock<Bytes>, brotli: OnceLock<Bytes>) -> Self {
        let mut hasher = DefaultHasher::new();
        identity.hash(&mut hasher);
        Self { etag: format!("\"{:016x}-{:x}\"", hasher.finish(), identity.len()), identity, gzip, brotli }
    }

    /// The uncompressed body.
    pub fn identity(&self) -> &Bytes {
        &self.identity
    }

    /// The gzip body (made now if it was deferred; should compressing fail, the plain body).
    fn gzip(&self) -> &Bytes {
        self.gzip.get_or_init(|| {
            let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
            match gzip.write_all(&self.identity).and_then(|()| gzip.finish()) {
                Ok(out) if !out.is_empty() => Bytes::from(out),
                _ => self.identity.clone(),
            }
        })
    }

    /// The brotli body (made now if it was deferred; should compressing fail, the plain body).
    fn brotli(&self) -> &Bytes {
        self.brotli.get_or_init(|| {
            let mut out = Vec::new();
            let params = brotli::enc::BrotliEncoderParams { quality: 11, lgwin: 22, ..Default::default() };
            match brotli::BrotliCompress(&mut self.identity.as_ref(), &mut out, &params) {
                Ok(_) => Bytes::from(out),
                Err(_) => self.identity.clone(),
            }
        })
    }

    /// Size in bytes of the brotli body, the one most browsers get.
    pub fn brotli_len(&self) -> usize {
        self.brotli().len()
    }

    /// Size in bytes of the gzip body.
    pub fn gzip_len(&self) -> usize {
        self.gzip().len()
    }

    /// Answers `request` with this body in the best coding it accepts, or 304 if its ETag matches.
    /// `response` carries the status, content type and caching headers of the caller.
    pub fn respond(&self, request: &HttpRequest, mut response: HttpResponseBuilder) -> HttpResponse {
        response.insert_header((header::ETAG, self.etag.as_str())).insert_header((header::VARY, "Accept-Encoding"));
        let if_none_match = request.headers().get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok());
        if if_none_match.is_some_and(|tags| tags.split(',').any(|tag| tag.trim() == self.etag)) {
            return response.status(StatusCode::NOT_MODIFIED).finish();
        }
        let (coding, body) = match negotiate(request.headers().get(header::ACCEPT_ENCODING)) {
            Coding::Brotli => (Some("br"), self.brotli()),
            Coding::Gzip => (Some("gzip"), self.gzip()),
            Coding::Identity => (None, &self.identity),
        };
        if let Some(coding) = coding {
            response.insert_header((header::CONTENT_ENCODING, coding));
        }
        response.body(body.clone())
    }
}

/// Brotli quality of a body made for one request: under a millisecond for a 34 KB page, where
/// quality 11 takes tens of milliseconds; the body is some 10% larger than at 11.
const FRESH_BROTLI_QUALITY: i32 = 5;
/// Gzip level of a body made for one request.
const FRESH_GZIP_LEVEL: u32 = 6;

/// Answers `request` with `body`, made for this request only: compressed once, in the best coding
/// the request accepts, at a fast level. `response` carries the status, content type and caching
/// headers of the caller.
pub fn respond_once(body: &Bytes, request: &HttpRequest, mut response: HttpResponseBuilder) -> HttpResponse {
    response.insert_header((header::VARY, "Accept-Encoding"));
    let compressed = match negotiate(request.headers().get(header::ACCEPT_ENCODING)) {
        Coding::Brotli => {
            let mut out = Vec::with_capacity(body.len() / 3);
            let params = brotli::enc::BrotliEncoderParams {
                quality: FRESH_BROTLI_QUALITY,
                // A 256 KiB window: larger than any page, and a third faster than the default 4 MiB.
                lgwin: 18,
                size_hint: body.len(),
                ..Default::default()
            };
            brotli::BrotliCompress(&mut body.as_ref(), &mut out, &params).ok().map(|_| ("br", out))
        }
        Coding::Gzip => {
            let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(FRESH_GZIP_LEVEL));
            gzip.write_all(body).and_then(|()| gzip.finish()).ok().map(|out| ("gzip", out))
        }
        Coding::Identity => None,
    };
    match compressed {
        Some((coding, out)) => response.insert_header((header::CONTENT_ENCODING, coding)).body(out),
        None => response.body(body.clone()),
    }
}

/// Picks the coding from an `Accept-Encoding` header, honouring `q=0`.
fn negotiate(accept: Option<&HeaderValue>) -> Coding {
    let Some(accept) = accept.and_then(|v| v.to_str().ok()) else { return Coding::Identity };
    let accepts = |wanted: &str| {
        accept.split(',').any(|part| {
            let mut pieces = part.split(';');
            let name = pieces.next().unwrap_or_default().trim();
            let refused =
                pieces.any(|p| p.trim().strip_prefix("q=").and_then(|q| q.trim().parse::<f32>().ok()) == Some(0.0));
            (name.eq_ignore_ascii_case(wanted) || name == "*") && !refused
        })
    };
    if accepts("br") {
        Coding::Brotli
    } else if accepts("gzip") {
        Coding::Gzip
    } else {
        Coding::Identity
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pick(header: &str) -> Coding {
        negotiate(Some(&HeaderValue::from_str(header).unwrap_or(HeaderValue::from_static(""))))
    }

    #[test]
    fn brotli_is_preferred_when_accepted() {
        assert_eq!(pick("gzip, deflate, br, zstd"), Coding::Brotli);
    }

    #[test]
    fn gzip_is_used_when_brotli_is_not_accepted() {
        assert_eq!(pick("gzip, deflate"), Coding::Gzip);
        assert_eq!(pick("br;q=0, gzip"), Coding::Gzip);
    }

    #[test]
    fn no_header_or_nothing_known_gives_the_plain_body() {
        assert_eq!(negotiate(None), Coding::Identity);
        assert_eq!(pick("deflate"), Coding::Identity);
    }

    #[test]
    fn compressed_bodies_are_smaller_for_repetitive_text() {
        let body = "<li>Shirt KSh 200</li>".repeat(100);
        let compressed = Compressed::new(body.clone());
        assert!(compressed.brotli_len() < body.len() / 4);
        assert!(compressed.gzip_len() < body.len() / 4);
        assert_eq!(compressed.identity().len(), body.len());
    }
}
