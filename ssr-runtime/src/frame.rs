//! The frames a server and its render processes exchange over the child's stdin and stdout.
//!
//! A frame is one kind byte, the payload's length as a little-endian `u32`, then the payload.
//! Props go in and HTML comes out as raw bytes: nothing is escaped or parsed on the way. The child's
//! stdout carries frames only (what the engine or a library prints goes to stderr, see
//! [`crate::child`]); its log lines travel as [`Kind::Log`] frames.

use crate::RenderedPage;
use std::io::{self, Read, Write};

/// The largest payload either side accepts: far above any page (the dashboard's props and HTML
/// are ~60 KB), far below what would hurt the server. A longer frame is a broken child.
pub(crate) const MAX_PAYLOAD_BYTES: usize = 64 * 1024 * 1024;

/// What a frame carries. Server to child: [`Kind::Start`], [`Kind::Bundle`] then [`Kind::Render`]s.
/// Child to server: [`Kind::Ready`] or a [`Kind::Failed`] for the bundle, then one [`Kind::Page`] or
/// [`Kind::Failed`] per render, with [`Kind::Log`] lines at any time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Kind {
    /// The engine's settings: the heap limit in bytes (a little-endian `u64`), then 1 to run at
    /// nice 19 or 0.
    Start = 1,
    /// The server bundle's source.
    Bundle = 2,
    /// One render: the page name's length (`u32`), the page name, then the props JSON.
    Render = 3,
    /// The bundle is loaded and `ssrRender` defined; the payload is empty.
    Ready = 10,
    /// A rendered page: the status (`u16`), the title and the description as [`put_str`] writes
    /// them, then the HTML to the end.
    Page = 11,
    /// A failure: one byte of [`Failure`], then the message.
    Failed = 12,
    /// A line for the server's log: one byte of level (0 info, 1 warn, 2 error), then the text.
    Log = 13,
}

impl Kind {
    fn from_byte(byte: u8) -> Option<Self> {
        [Kind::Start, Kind::Bundle, Kind::Render, Kind::Ready, Kind::Page, Kind::Failed, Kind::Log]
            .into_iter()
            .find(|kind| *kind as u8 == byte)
    }
}

/// The failures a child reports in a [`Kind::Failed`] frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Failure {
    /// The bundle did not load.
    BundleLoad = 1,
    /// The page threw.
    Threw = 2,
    /// The engine reached its heap limit (the child is recycled after answering).
    OutOfMemory = 3,
    /// `ssrRender` returned something other than the contract's JSON.
    InvalidOutput = 4,
}

impl Failure {
    fn from_byte(byte: u8) -> Option<Self> {
        [Failure::BundleLoad, Failure::Threw, Failure::OutOfMemory, Failure::InvalidOutput]
            .into_iter()
            .find(|failure| *failure as u8 == byte)
    }
}

/// Writes one frame, header and payload in one `write_all`, and flushes.
pub(crate) fn write(out: &mut impl Write, kind: Kind, parts: &[&[u8]]) -> io::Result<()> {
    let length: usize = parts.iter().map(|part| part.len()).sum();
    if length > MAX_PAYLOAD_BYTES {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, format!("a frame of {length} bytes is too long")));
    }
    let mut frame = Vec::with_capacity(5 + length);
    frame.push(kind as u8);
    frame.extend_from_slice(&(length as u32).to_le_bytes());
    for part in parts {
        frame.extend_from_slice(part);
    }
    out.write_all(&frame)?;
    out.flush()
}

/// Reads one frame. End of input before a header is `UnexpectedEof`; an unknown kind or a payload
/// over [`MAX_PAYLOAD_BYTES`] is `InvalidData`.
pub(crate) fn read(input: &mut impl Read) -> io::Result<(Kind, Vec<u8>)> {
    let mut header = [0u8; 5];
    input.read_exact(&mut header)?;
    let kind = Kind::from_byte(header[0])
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, format!("unknown frame kind {}", header[0])))?;
    let length = u32::from_le_bytes([header[1], header[2], header[3], header[4]]) as usize;
    if length > MAX_PAYLOAD_BYTES {
        return Err(io::Error::new(io::ErrorKind::InvalidData, format!("a frame of {length} bytes is too long")));
    }
    let mut payload = vec![0u8; length];
    input.read_exact(&mut payload)?;
    Ok((kind, payload))
}

/// A length-prefixed string inside a payload: the `u32` length, then the bytes.
pub(crate) fn put_str(payload: &mut Vec<u8>, text: &str) {
    payload.extend_from_slice(&(text.len() as u32).to_le_bytes());
    payload.extend_from_slice(text.as_bytes());
}

/// Reads what [`put_str`] wrote from the front of `payload`, advancing it.
pub(crate) fn take_str(payload: &mut &[u8]) -> Option<String> {
    let (length, rest) = payload.split_first_chunk::<4>()?;
    let length = u32::from_le_bytes(*length) as usize;
    if rest.len() < length {
        return None;
    }
    let (text, rest) = rest.split_at(length);
    *payload = rest;
    String::from_utf8(text.to_vec()).ok()
}

/// A [`Kind::Failed`] frame's payload, as the child sends it.
pub(crate) fn failure_payload(failure: Failure, message: &str) -> Vec<u8> {
    let mut payload = Vec::with_capacity(1 + message.len());
    payload.push(failure as u8);
    payload.extend_from_slice(message.as_bytes());
    payload
}

/// Reads a [`Kind::Failed`] payload: the failure (`None` for a byte that names none) and its
/// message.
pub(crate) fn read_failure(payload: &[u8]) -> (Option<Failure>, String) {
    let failure = payload.first().copied().and_then(Failure::from_byte);
    (failure, String::from_utf8_lossy(payload.get(1..).unwrap_or_default()).into_owned())
}

/// A [`Kind::Page`] frame's payload, the HTML last and unframed.
pub(crate) fn page_payload(page: &RenderedPage) -> Vec<u8> {
    let mut payload = Vec::with_capacity(16 + page.title.len() + page.description.len() + page.html.len());
    payload.extend_from_slice(&page.status.to_le_bytes());
    put_str(&mut payload, &page.title);
    put_str(&mut payload, &page.description);
    payload.extend_from_slice(page.html.as_bytes());
    payload
}

/// Reads a [`Kind::Page`] payload; `None` when it is not one.
pub(crate) fn read_page(payload: &[u8]) -> Option<RenderedPage> {
    let (status, mut rest) = payload.split_first_chunk::<2>()?;
    let title = take_str(&mut rest)?;
    let description = take_str(&mut rest)?;
    let html = String::from_utf8(rest.to_vec()).ok()?;
    Some(RenderedPage { html, title, description, status: u16::from_le_bytes(*status) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn a_frame_reads_back_as_written() {
        let mut wire = Vec::new();
        write(&mut wire, Kind::Render, &[b"home", b"{\"a\":1}"]).unwrap();
        write(&mut wire, Kind::Ready, &[]).unwrap();

        let mut input = Cursor::new(wire);
        assert_eq!(read(&mut input).unwrap(), (Kind::Render, b"home{\"a\":1}".to_vec()));
        assert_eq!(read(&mut input).unwrap(), (Kind::Ready, Vec::new()));
        assert_eq!(read(&mut input).unwrap_err().kind(), io::ErrorKind::UnexpectedEof);
    }

    #[test]
    fn an_unknown_kind_or_an_oversized_length_is_invalid_data() {
        let unknown = [99u8, 0, 0, 0, 0];
        assert_eq!(read(&mut Cursor::new(unknown)).unwrap_err().kind(), io::ErrorKind::InvalidData);
        let mut huge = vec![Kind::Page as u8];
        huge.extend_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(read(&mut Cursor::new(huge)).unwrap_err().kind(), io::ErrorKind::InvalidData);
    }

    #[test]
    fn a_frame_cut_short_is_an_unexpected_end() {
        let mut wire = Vec::new();
        write(&mut wire, Kind::Page, &[b"0123456789"]).unwrap();
        wire.truncate(8);
        assert_eq!(read(&mut Cursor::new(wire)).unwrap_err().kind(), io::ErrorKind::UnexpectedEof);
    }

    #[test]
    fn a_page_reads_back_with_its_fields() {
        let page = RenderedPage {
            html: "<p>Karibu · ✓</p>".to_owned(),
            title: "Pricing".to_owned(),
            description: "What it costs".to_owned(),
            status: 404,
        };
        assert_eq!(read_page(&page_payload(&page)), Some(page));
        assert_eq!(read_page(&[1]), None);
    }

    #[test]
    fn strings_inside_a_payload_read_back_in_order() {
        let mut payload = Vec::new();
        put_str(&mut payload, "Usafi");
        put_str(&mut payload, "");
        let mut rest = payload.as_slice();
        assert_eq!(take_str(&mut rest).as_deref(), Some("Usafi"));
        assert_eq!(take_str(&mut rest).as_deref(), Some(""));
        assert_eq!(take_str(&mut rest), None);
    }
}
