//! The built frontend, read once at start: the manifest, the server bundle, and every client file
//! kept in memory already compressed.

use crate::compressed::Compressed;
use actix_web::web::Bytes;
use anyhow::Context as _;
use serde::Deserialize;
use std::collections::HashMap;
use std::path::Path;

/// `dist/manifest.json`, written by `frontend/build.mjs`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    /// The client entry module.
    pub entry: String,
    /// Modules the entry imports statically, to preload.
    pub preload: Vec<String>,
    /// The site's stylesheet, inlined into every page.
    pub css: String,
    /// The staff pages' own stylesheet, inlined after `css` into the staff pages only.
    pub staff_css: String,
    /// The valet page's stylesheet, inlined into that page alone (instead of `css`).
    pub valet_css: String,
    /// Page name → the page's own chunks, to preload.
    pub pages: HashMap<String, Vec<String>>,
}

/// A client file under its hashed name.
#[derive(Debug)]
pub struct Asset {
    /// Its `Content-Type`.
    pub content_type: String,
    /// Its body in every coding.
    pub body: Compressed,
}

/// What the server needs of the built frontend.
#[derive(Debug)]
pub struct Frontend {
    manifest: Manifest,
    server_bundle: String,
    css: String,
    staff_css: String,
    valet_css: String,
    assets: HashMap<String, Asset>,
}

impl Frontend {
    /// Loads `dir` (normally `frontend/dist`). Fails with the path if the frontend is not built.
    pub fn load(dir: &Path) -> anyhow::Result<Self> {
        let hint = "build the frontend first (make build)";
        let manifest_path = dir.join("manifest.json");
        let manifest: Manifest = serde_json::from_slice(
            &std::fs::read(&manifest_path)
                .with_context(|| format!("cannot read {}; {hint}", manifest_path.display()))?,
        )
        .with_context(|| format!("{} is not a valid manifest", manifest_path.display()))?;
        let bundle_path = dir.join("server/server.js");
        let server_bundle = std::fs::read_to_string(&bundle_path)
            .with_context(|| format!("cannot read {}; {hint}", bundle_path.display()))?;

        let client_dir = dir.join("client");
        let mut assets = HashMap::new();
        for entry in std::fs::read_dir(&client_dir).with_context(|| format!("cannot read {}", client_dir.display()))? {
            let path = entry?.path();
            let Some(name) = path.file_name().and_then(|n| n.to_str()).map(str::to_owned) else { continue };
            if !path.is_file() || name.ends_with(".br") || name.ends_with(".gz") {
                continue;
            }
            let body = std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
            let precompressed =
                |suffix: &str| std::fs::read(client_dir.join(format!("{name}.{suffix}"))).ok().map(Bytes::from);
            let body = match (precompressed("gz"), precompressed("br")) {
                (None, None) => Compressed::new(body),
                (gzip, brotli) => Compressed::from_parts(Bytes::from(body), gzip, brotli),
            };
            let content_type = match mime_guess::from_path(&path).first_raw() {
                Some("application/javascript" | "text/javascript") => "text/javascript; charset=utf-8".to_owned(),
                Some("text/css") => "text/css; charset=utf-8".to_owned(),
                Some(other) => other.to_owned(),
                None => "application/octet-stream".to_owned(),
            };
            assets.insert(name, Asset { content_type, body });
        }

        let referenced = std::iter::once(&manifest.entry)
            .chain(&manifest.preload)
            .chain([&manifest.css, &manifest.staff_css, &manifest.valet_css])
            .chain(manifest.pages.values().flatten());
        for name in referenced {
            anyhow::ensure!(
                assets.contains_key(name),
                "the manifest names {name}, which is not in {}",
                client_dir.display()
            );
        }
        let text = |name: &str| String::from_utf8_lossy(assets[name].body.identity()).into_owned();
        let (css, staff_css, valet_css) = (text(&manifest.css), text(&manifest.staff_css), text(&manifest.valet_css));
        Ok(Self { manifest, server_bundle, css, staff_css, valet_css, assets })
    }

    /// The manifest.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// The source of the server bundle, for the rendering engines.
    pub fn server_bundle(&self) -> &str {
        &self.server_bundle
    }

    /// The site's CSS, to inline into every page.
    pub fn css(&self) -> &str {
        &self.css
    }

    /// The staff pages' own CSS, to inline after [`css`](Self::css) into the staff pages (sign-in
    /// and dashboard) only: customers' pages never carry it.
    pub fn staff_css(&self) -> &str {
        &self.staff_css
    }

    /// The valet page's CSS, to inline into that page instead of [`css`](Self::css).
    pub fn valet_css(&self) -> &str {
        &self.valet_css
    }

    /// A client file by its hashed name.
    pub fn asset(&self, name: &str) -> Option<&Asset> {
        self.assets.get(name)
    }

    /// The modules to preload for `page`: the entry's imports, then the page's own chunks.
    pub fn preloads(&self, page: &str) -> Vec<&str> {
        let own = self.manifest.pages.get(page).into_iter().flatten();
        self.manifest.preload.iter().chain(own).map(String::as_str).collect()
    }
}
