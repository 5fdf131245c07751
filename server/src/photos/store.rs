//! Where photos are kept: the [`PhotoStore`] interface and its default, a folder under the data
//! directory (`LAUNDRY_PHOTOS_DIR`). An S3-compatible store would implement the same three calls.

use std::io::{self, Write};
use std::path::PathBuf;

/// Keeps and gives back the files of photos by key. Keys are made by [`photo_key`] and
/// [`thumb_key`] only; a store refuses any other.
pub trait PhotoStore: Send + Sync + std::fmt::Debug {
    /// Keeps `bytes` under `key`, whole or not at all.
    fn put(&self, key: &str, bytes: &[u8]) -> io::Result<()>;
    /// The bytes kept under `key`; `None` if there are none.
    fn get(&self, key: &str) -> io::Result<Option<Vec<u8>>>;
    /// Forgets `key` (nothing if it was not kept).
    fn delete(&self, key: &str) -> io::Result<()>;
}

/// The key of a photo's picture.
pub fn photo_key(id: &str) -> String {
    format!("{id}.jpg")
}

/// The key of a photo's thumbnail.
pub fn thumb_key(id: &str) -> String {
    format!("{id}.thumb.jpg")
}

/// A photo's id: 32 lowercase hexadecimal digits (128 random bits), so it can be neither guessed
/// nor made into a path.
pub fn is_photo_id(id: &str) -> bool {
    id.len() == 32 && id.bytes().all(|byte| byte.is_ascii_digit() || (b'a'..=b'f').contains(&byte))
}

/// A new photo id.
pub fn new_photo_id() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

/// Photos as files in a folder: `{root}/{first two digits}/{key}`, each written to a temporary
/// file and renamed, so a crash never leaves half a photo.
#[derive(Debug, Clone)]
pub struct FolderStore {
    root: PathBuf,
}

impl FolderStore {
    /// A store in `root` (made when the first photo arrives).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        FolderStore { root: root.into() }
    }

    fn path(&self, key: &str) -> io::Result<PathBuf> {
        let id = key.strip_suffix(".thumb.jpg").or_else(|| key.strip_suffix(".jpg")).unwrap_or_default();
        if !is_photo_id(id) {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "not a photo key"));
        }
        Ok(self.root.join(&id[..2]).join(key))
    }
}

impl PhotoStore for FolderStore {
    fn put(&self, key: &str, bytes: &[u8]) -> io::Result<()> {
        let path = self.path(key)?;
        let folder = path.parent().unwrap_or(&self.root);
        std::fs::create_dir_all(folder)?;
        let partial = folder.join(format!(".{key}.{}.part", new_photo_id()));
        let written = std::fs::File::create(&partial).and_then(|mut file| {
            file.write_all(bytes)?;
            file.sync_all()
        });
        match written.and_then(|()| std::fs::rename(&partial, &path)) {
            Ok(()) => Ok(()),
            Err(error) => {
                let _ = std::fs::remove_file(&partial);
                Err(error)
            }
        }
    }

    fn get(&self, key: &str) -> io::Result<Option<Vec<u8>>> {
        match std::fs::read(self.path(key)?) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(error),
        }
    }

    fn delete(&self, key: &str) -> io::Result<()> {
        match std::fs::remove_file(self.path(key)?) {
            Err(error) if error.kind() != io::ErrorKind::NotFound => Err(error),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_photo_is_kept_given_back_and_forgotten() {
        let folder = tempfile::tempdir().unwrap();
        let store = FolderStore::new(folder.path());
        let id = new_photo_id();
        assert!(is_photo_id(&id));
        store.put(&photo_key(&id), b"picture").unwrap();
        store.put(&thumb_key(&id), b"thumb").unwrap();
        assert_eq!(store.get(&photo_key(&id)).unwrap().unwrap(), b"picture");
        assert_eq!(store.get(&thumb_key(&id)).unwrap().unwrap(), b"thumb");
        store.delete(&photo_key(&id)).unwrap();
        assert_eq!(store.get(&photo_key(&id)).unwrap(), None);
        store.delete(&photo_key(&id)).unwrap();
    }

    #[test]
    fn a_key_that_is_not_a_photo_key_is_refused() {
        let store = FolderStore::new("/tmp/none");
        for key in ["../../etc/passwd", "../x.jpg", "ABCDEF0123456789ABCDEF0123456789.jpg", "x.jpg"] {
            assert!(store.get(key).is_err(), "{key}");
            assert!(store.put(key, b"").is_err(), "{key}");
        }
    }
}
