//! A `multipart/form-data` form as the intake and claim forms send it: its text fields, and its
//! files each streamed to a file in the spool folder as it arrives (so twenty photos arriving at
//! once hold no photo in memory), locked while the upload lives (so a start-up tells a crash's
//! fragment from an upload in flight) and removed when it is dropped. An upload that sends nothing
//! for the idle limit is cut off.

use super::prepare::MAX_PHOTO_BYTES;
use actix_multipart::Multipart;
use futures_util::TryStreamExt;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The most parts one form may have.
const MAX_PARTS: usize = 40;
/// The most files one form may send: each form has one photo field.
const MAX_FILES: usize = 1;
/// The longest text field, in bytes.
const MAX_FIELD: usize = 8 * 1024;

/// A file of the form, spooled to disk.
#[derive(Debug)]
pub struct Upload {
    /// The form field it came in.
    pub field: String,
    /// The content type the browser declared for it.
    pub declared: Option<String>,
    /// Its size in bytes.
    pub size: usize,
    path: PathBuf,
    /// The spooled file, open and locked for as long as the upload lives.
    _file: std::fs::File,
}

impl Upload {
    /// Where it is spooled.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Upload {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// The form as sent.
#[derive(Debug, Default)]
pub struct UploadForm {
    /// Its text fields, in order.
    pub fields: Vec<(String, String)>,
    /// Its files (a file input left empty sends none).
    pub files: Vec<Upload>,
}

impl UploadForm {
    /// The file sent in `field`, if one was.
    pub fn file(&self, field: &str) -> Option<&Upload> {
        self.files.iter().find(|upload| upload.field == field)
    }
}

/// Why a form could not be read.
#[derive(Debug, thiserror::Error)]
pub enum UploadError {
    /// A file larger than a photo may be.
    #[error("The photo is larger than 15 MB. Please send a smaller one.")]
    TooLarge,
    /// Not a form of this shape: too many parts, a text field too long, a broken body.
    #[error("The form could not be read: {0}")]
    Malformed(String),
    /// The form stopped arriving: nothing came for the idle limit.
    #[error("The photo stopped arriving. Please check your connection and send it again.")]
    Stalled,
    /// The spool folder could not be written.
    #[error("the upload could not be spooled: {0}")]
    Spool(#[from] std::io::Error),
}

/// The next item of `stream`, or [`UploadError::Stalled`] when none comes within `idle`.
async fn next_within<S, T>(stream: &mut S, idle: std::time::Duration) -> Result<Option<T>, UploadError>
where
    S: futures_util::Stream<Item = Result<T, actix_multipart::MultipartError>> + Unpin,
{
    match tokio::time::timeout(idle, stream.try_next()).await {
        Ok(next) => next.map_err(|error| UploadError::Malformed(error.to_string())),
        Err(_) => Err(UploadError::Stalled),
    }
}

/// Reads the whole form, spooling its files in `spool`; cut off when nothing comes for `idle`.
pub async fn read_form(
    mut multipart: Multipart,
    spool: &Path,
    idle: std::time::Duration,
) -> Result<UploadForm, UploadError> {
    let mut form = UploadForm::default();
    let mut parts = 0;
    while let Some(mut part) = next_within(&mut multipart, idle).await? {
        parts += 1;
        if parts > MAX_PARTS {
            return Err(UploadError::Malformed("it has too many fields".to_owned()));
        }
        let name = part.name().unwrap_or_default().chars().take(60).collect::<String>();
        let is_file = part.content_disposition().and_then(|disposition| disposition.get_filename()).is_some();
        if !is_file {
            let mut value = Vec::new();
            while let Some(chunk) = next_within(&mut part, idle).await? {
                if value.len() + chunk.len() > MAX_FIELD {
                    return Err(UploadError::Malformed(format!("the field {name} is too long")));
                }
                value.extend_from_slice(&chunk);
            }
            let value = String::from_utf8(value)
                .map_err(|_| UploadError::Malformed(format!("the field {name} is not text")))?;
            form.fields.push((name, value));
            continue;
        }
        if form.files.len() >= MAX_FILES {
            return Err(UploadError::Malformed("it has too many files".to_owned()));
        }
        std::fs::create_dir_all(spool)?;
        let declared = part.content_type().map(|mime| mime.essence_str().to_owned());
        let path = spool.join(format!("{}.part", uuid::Uuid::new_v4().simple()));
        let file = std::fs::File::create(&path)?;
        // Locked before the first byte: a server starting now leaves it alone.
        file.lock()?;
        let mut upload = Upload { path, field: name, declared, size: 0, _file: file };
        while let Some(chunk) = next_within(&mut part, idle).await? {
            upload.size += chunk.len();
            if upload.size > MAX_PHOTO_BYTES {
                return Err(UploadError::TooLarge);
            }
            (&upload._file).write_all(&chunk)?;
        }
        // An empty file input sends a part with no bytes: no file was chosen.
        if upload.size > 0 {
            form.files.push(upload);
        }
    }
    Ok(form)
}
