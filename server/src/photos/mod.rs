//! Photos of garments (issue 36): of stains and damage at intake, and sent with a claim. A photo
//! arrives in a `multipart/form-data` form ([`upload`]: streamed to a file, never held whole in
//! memory while it arrives), is checked and made into a photo and a thumbnail without metadata
//! ([`prepare`]), one at a time so that twenty arriving at once take the memory of one, and is kept
//! in a [`store::PhotoStore`] under a random id. Who may see a photo is the routes' to decide: staff
//! any, a customer only their own order's.

pub mod prepare;
pub mod store;
pub mod upload;

use prepare::{PhotoRefusal, Prepared};
use std::path::PathBuf;
use std::sync::Arc;
use store::{FolderStore, PhotoStore, new_photo_id, photo_key, thumb_key};
use tokio::sync::Semaphore;

/// A photo kept: its id and what the database records of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptPhoto {
    /// The random id it is kept under.
    pub id: String,
    /// Its width, upright.
    pub width: u32,
    /// Its height, upright.
    pub height: u32,
    /// The size of the photo kept, in bytes.
    pub bytes: usize,
}

/// Why a photo was not kept.
#[derive(Debug, thiserror::Error)]
pub enum PhotoError {
    /// What was sent is not a photo we keep; the message says why.
    #[error(transparent)]
    Refused(#[from] PhotoRefusal),
    /// The store could not write it.
    #[error("the photo store failed: {0}")]
    Store(#[from] std::io::Error),
    /// Too many photos from customers are waiting to be prepared: try again shortly.
    #[error("Many photos are arriving just now. Please try again in a minute.")]
    Busy,
}

/// Who sends a photo: staff at intake, or a customer with a claim. Both wait in one queue (one
/// photo is prepared at a time, so the memory it takes is counted once); a customer's photo waits
/// at most [`CUSTOMER_WAIT`], so a flood of them is answered "try again" rather than piling up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sender {
    /// Staff, at intake.
    Staff,
    /// A customer, with a claim: waits at most [`CUSTOMER_WAIT`] for its turn.
    Customer,
}

/// How long a customer's photo waits for its turn before the form is answered "try again".
pub const CUSTOMER_WAIT: std::time::Duration = std::time::Duration::from_secs(20);

/// The photos: where they are kept, where uploads are spooled, and the one gate that prepares one
/// at a time.
#[derive(Debug)]
pub struct Photos {
    store: Arc<dyn PhotoStore>,
    spool: PathBuf,
    gate: Arc<Semaphore>,
    upload_idle: std::time::Duration,
}

impl Photos {
    /// Photos kept in the folder `dir` (uploads spooled in `dir/.incoming`, each cut off when it
    /// sends nothing for `upload_idle`). What a crash left in the spool is deleted now: every
    /// spooled file that no upload in flight holds locked.
    pub fn in_folder(dir: PathBuf, upload_idle: std::time::Duration) -> Self {
        let spool = dir.join(".incoming");
        forget_fragments(&spool);
        Photos { spool, store: Arc::new(FolderStore::new(dir)), gate: Arc::new(Semaphore::new(1)), upload_idle }
    }

    /// Reads a photo form, spooling its file, cut off when it sends nothing for the idle limit.
    pub async fn read_form(
        &self,
        multipart: actix_multipart::Multipart,
    ) -> Result<upload::UploadForm, upload::UploadError> {
        upload::read_form(multipart, &self.spool, self.upload_idle).await
    }

    /// Checks, prepares and keeps the spooled upload `upload` sent by `sender`, once the photos
    /// sent before it through the same gate are done. Nothing is kept when it is refused.
    pub async fn keep(&self, upload: &upload::Upload, sender: Sender) -> Result<KeptPhoto, PhotoError> {
        let closed = |_| PhotoError::Store(std::io::Error::other("the photo gate is closed"));
        let _turn = match sender {
            Sender::Staff => self.gate.clone().acquire_owned().await.map_err(closed)?,
            Sender::Customer => tokio::time::timeout(CUSTOMER_WAIT, self.gate.clone().acquire_owned())
                .await
                .map_err(|_| PhotoError::Busy)?
                .map_err(closed)?,
        };
        let path = upload.path().to_owned();
        let declared = upload.declared.clone();
        let store = Arc::clone(&self.store);
        // Read and prepared in the photo arena: what they free goes back to the system at once.
        tokio::task::spawn_blocking(move || {
            crate::memory::in_photo_arena(|| {
                let bytes = std::fs::read(&path)?;
                let Prepared { photo, thumb, width, height } = prepare::prepare(&bytes, declared.as_deref())?;
                drop(bytes);
                let id = new_photo_id();
                store.put(&thumb_key(&id), &thumb)?;
                if let Err(error) = store.put(&photo_key(&id), &photo) {
                    let _ = store.delete(&thumb_key(&id));
                    return Err(error.into());
                }
                Ok(KeptPhoto { id, width, height, bytes: photo.len() })
            })
        })
        .await
        .map_err(|error| std::io::Error::other(error.to_string()))?
    }

    /// The photo `id`'s picture (or its thumbnail); `None` when it is not kept.
    pub async fn read(&self, id: &str, thumb: bool) -> std::io::Result<Option<Vec<u8>>> {
        let key = if thumb { thumb_key(id) } else { photo_key(id) };
        let store = Arc::clone(&self.store);
        tokio::task::spawn_blocking(move || store.get(&key))
            .await
            .map_err(|error| std::io::Error::other(error.to_string()))?
    }

    /// Forgets the photo `id` (both files): a photo whose record could not be written.
    pub async fn forget(&self, id: &str) {
        let store = Arc::clone(&self.store);
        let id = id.to_owned();
        let forgotten = tokio::task::spawn_blocking(move || {
            store.delete(&photo_key(&id))?;
            store.delete(&thumb_key(&id))
        })
        .await;
        if !matches!(forgotten, Ok(Ok(()))) {
            tracing::warn!("a photo whose record was not written could not be deleted");
        }
    }
}

/// Deletes the files in `spool` that no upload in flight holds: an upload keeps its file locked
/// while it arrives and is read (in this process, or another server's on this machine), so a file
/// nobody locks is what a crash cut off.
fn forget_fragments(spool: &std::path::Path) {
    let Ok(entries) = std::fs::read_dir(spool) else { return };
    let mut forgotten = 0;
    for entry in entries.flatten() {
        let Ok(file) = std::fs::OpenOptions::new().write(true).open(entry.path()) else { continue };
        if file.try_lock().is_err() {
            continue;
        }
        if std::fs::remove_file(entry.path()).is_ok() {
            forgotten += 1;
        } else {
            tracing::warn!(file = %entry.path().display(), "an upload a crash cut off could not be deleted");
        }
    }
    if forgotten > 0 {
        tracing::info!(files = forgotten, "uploads cut off by a crash deleted from the spool");
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn uploads_a_crash_left_behind_are_deleted_and_ones_in_flight_kept() {
        let folder = tempfile::tempdir().unwrap();
        let spool = folder.path().join(".incoming");
        std::fs::create_dir_all(&spool).unwrap();
        std::fs::write(spool.join("cut.part"), b"half a photo").unwrap();
        let arriving = std::fs::File::create(spool.join("arriving.part")).unwrap();
        arriving.lock().unwrap();
        forget_fragments(&spool);
        assert!(!spool.join("cut.part").exists(), "a fragment of a crash, however fresh");
        assert!(spool.join("arriving.part").exists(), "an upload in flight holds its lock");
        drop(arriving);
        forget_fragments(&spool);
        assert!(!spool.join("arriving.part").exists());
    }
}
