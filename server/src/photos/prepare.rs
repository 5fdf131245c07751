//! Turns what a phone or a desktop sent as a photo into what the shop keeps: the file is checked to
//! be a JPEG, PNG or WebP picture whatever its name and declared type say, turned upright by its
//! Exif orientation, resized to a photo and a thumbnail, and written again as JPEG from its pixels
//! alone, so no metadata (place, phone model, time) survives. A phone's JPEG is decoded at a
//! fraction of its size (`jpeg-decoder`'s scaled IDCT), so a 12-megapixel photo never takes its
//! full 36 MB of pixels in memory. What decoding a picture would take is counted in bytes before
//! it is decoded (its pixels at their own depth: a 16-bit RGBA pixel is 8 bytes), and a picture
//! over [`MAX_DECODE_BYTES`] is refused: a 97 KB PNG of 5000 × 5000 pixels would take 100 MB.
//! The picture is resized before it is turned upright, so no full-size copy is made to turn it.

use image::codecs::jpeg::JpegEncoder;
use image::metadata::Orientation;
use image::{DynamicImage, GrayImage, ImageDecoder, ImageFormat, ImageReader, Limits, RgbImage};
use std::io::Cursor;

/// The largest file taken, in bytes: a phone's photo is 2 to 8 MB.
pub const MAX_PHOTO_BYTES: usize = 15 * 1024 * 1024;

/// The longest side of the photo kept, in pixels.
pub const PHOTO_SIDE: u32 = 1280;

/// The longest side of the thumbnail kept, in pixels.
pub const THUMB_SIDE: u32 = 240;

/// The most pixels a JPEG may have: a phone's 50-megapixel mode has fewer. (Decoded at a fraction
/// of its size; what that takes is held to [`MAX_DECODE_BYTES`].)
const MAX_PIXELS: u64 = 64_000_000;

/// The most memory decoding one picture may take, in bytes. Photos are prepared one at a time
/// (one queue for staff and customers), so the server grows by about this much at most while
/// they arrive: a phone's 12-megapixel JPEG decoded at ½ takes 9 MB, a 12-megapixel progressive
/// JPEG 36 MB, a 3000 × 2000 PNG screenshot 24 MB.
pub const MAX_DECODE_BYTES: u64 = 40 * 1024 * 1024;

/// What a progressive JPEG's decoder keeps a pixel, whatever the scale: a 2-byte coefficient for
/// each of its 1.5 samples (4:2:0, what cameras and phones write).
const PROGRESSIVE_BYTES_PER_PIXEL: u64 = 3;

/// What a WebP's decoder holds besides the picture it gives (its own buffer of the same size).
const WEBP_COPIES: u64 = 2;

/// The JPEG quality of what is kept.
const QUALITY: u8 = 82;

/// The kinds of picture taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PhotoFormat {
    /// What every phone camera writes.
    Jpeg,
    /// Screenshots.
    Png,
    /// Android's and browsers' compressed format.
    Webp,
}

impl PhotoFormat {
    /// The format the bytes are, read from their first bytes (never from a name or a header).
    pub fn sniff(bytes: &[u8]) -> Option<Self> {
        match image::guess_format(bytes).ok()? {
            ImageFormat::Jpeg => Some(PhotoFormat::Jpeg),
            ImageFormat::Png => Some(PhotoFormat::Png),
            ImageFormat::WebP => Some(PhotoFormat::Webp),
            _ => None,
        }
    }

    /// The format a declared content type names: `Some(None)` for a type that names a kind of
    /// file but not one of ours (`image/heic`, `text/html`); `None` when it says nothing
    /// (absent, `application/octet-stream`).
    fn declared(content_type: Option<&str>) -> Option<Option<Self>> {
        let essence = content_type?.split(';').next()?.trim().to_ascii_lowercase();
        match essence.as_str() {
            "" | "application/octet-stream" => None,
            "image/jpeg" | "image/jpg" | "image/pjpeg" => Some(Some(PhotoFormat::Jpeg)),
            "image/png" => Some(Some(PhotoFormat::Png)),
            "image/webp" => Some(Some(PhotoFormat::Webp)),
            _ => Some(None),
        }
    }

    /// Its name in a message.
    fn name(self) -> &'static str {
        match self {
            PhotoFormat::Jpeg => "a JPEG",
            PhotoFormat::Png => "a PNG",
            PhotoFormat::Webp => "a WebP",
        }
    }
}

/// Why a photo was not kept; each says what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PhotoRefusal {
    /// Nothing was sent.
    #[error("No photo was sent: please choose or take one.")]
    Empty,
    /// More than [`MAX_PHOTO_BYTES`].
    #[error("The photo is larger than 15 MB. Please send a smaller one.")]
    TooLarge,
    /// Not a JPEG, PNG or WebP picture.
    #[error(
        "This file is not a photo we can read: please send a JPEG, PNG or WebP picture. On an iPhone, Settings › Camera › Formats › Most Compatible takes JPEG photos."
    )]
    NotAnImage,
    /// Its declared type names another kind of file than it is.
    #[error("The file says it is {declared} but it is {actual} picture: please send the photo itself.")]
    TypeLies {
        /// What it said it was (`image/heic`, `a PNG`).
        declared: String,
        /// What it is (`a JPEG`).
        actual: &'static str,
    },
    /// Its pixels could not be read: cut short or damaged.
    #[error("The photo could not be read: it may be damaged or cut short. Please take it again.")]
    Unreadable,
    /// Too many pixels to read safely.
    #[error("The picture is too large to read ({width} × {height} pixels). Please send a smaller one.")]
    TooManyPixels {
        /// Its width.
        width: u32,
        /// Its height.
        height: u32,
    },
}

/// A photo ready to keep: the photo and its thumbnail, both JPEG without metadata.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// At most [`PHOTO_SIDE`] pixels on its longest side.
    pub photo: Vec<u8>,
    /// At most [`THUMB_SIDE`] pixels on its longest side.
    pub thumb: Vec<u8>,
    /// The photo's width, upright.
    pub width: u32,
    /// The photo's height, upright.
    pub height: u32,
}

/// Checks `bytes` (sent as `declared`, the part's content type) and prepares what is kept.
pub fn prepare(bytes: &[u8], declared: Option<&str>) -> Result<Prepared, PhotoRefusal> {
    if bytes.is_empty() {
        return Err(PhotoRefusal::Empty);
    }
    if bytes.len() > MAX_PHOTO_BYTES {
        return Err(PhotoRefusal::TooLarge);
    }
    let format = PhotoFormat::sniff(bytes).ok_or(PhotoRefusal::NotAnImage)?;
    match PhotoFormat::declared(declared) {
        Some(Some(said)) if said != format => {
            return Err(PhotoRefusal::TypeLies { declared: said.name().to_owned(), actual: format.name() });
        }
        Some(None) => {
            let said = declared.unwrap_or_default().split(';').next().unwrap_or_default().trim().to_owned();
            return Err(PhotoRefusal::TypeLies { declared: said, actual: format.name() });
        }
        _ => {}
    }
    let (mut picture, orientation) = match format {
        PhotoFormat::Jpeg => decode_jpeg(bytes)?,
        PhotoFormat::Png | PhotoFormat::Webp => decode_whole(bytes, format)?,
    };
    // Resized first (within a square, so the turn changes nothing of it), then turned: the turn
    // copies 1280 px, not the whole picture.
    if picture.width().max(picture.height()) > PHOTO_SIDE {
        picture = picture.thumbnail(PHOTO_SIDE, PHOTO_SIDE);
    }
    picture.apply_orientation(orientation);
    let thumbnail = picture.thumbnail(THUMB_SIDE, THUMB_SIDE);
    Ok(Prepared { width: picture.width(), height: picture.height(), photo: jpeg(&picture), thumb: jpeg(&thumbnail) })
}

/// A JPEG decoded at the smallest scale (1, ½, ¼ or ⅛) still at least [`PHOTO_SIDE`] on a side,
/// and its orientation.
fn decode_jpeg(bytes: &[u8]) -> Result<(DynamicImage, Orientation), PhotoRefusal> {
    let mut decoder = jpeg_decoder::Decoder::new(Cursor::new(bytes));
    decoder.read_info().map_err(|_| PhotoRefusal::Unreadable)?;
    let info = decoder.info().ok_or(PhotoRefusal::Unreadable)?;
    let (width, height) = (u32::from(info.width), u32::from(info.height));
    let pixels = u64::from(width) * u64::from(height);
    let progressive = info.coding_process == jpeg_decoder::CodingProcess::DctProgressive;
    if pixels > MAX_PIXELS {
        return Err(PhotoRefusal::TooManyPixels { width, height });
    }
    let side = u16::try_from(PHOTO_SIDE).unwrap_or(u16::MAX);
    let (scaled_width, scaled_height) = decoder.scale(side, side).map_err(|_| PhotoRefusal::Unreadable)?;
    // The pixels it gives (at most 4 bytes each: CMYK), and a progressive JPEG's coefficients.
    let mut cost = u64::from(scaled_width) * u64::from(scaled_height) * 4;
    if progressive {
        cost += pixels * PROGRESSIVE_BYTES_PER_PIXEL;
    }
    if cost > MAX_DECODE_BYTES {
        return Err(PhotoRefusal::TooManyPixels { width, height });
    }
    let (width, height) = (scaled_width, scaled_height);
    let pixels = decoder.decode().map_err(|_| PhotoRefusal::Unreadable)?;
    let (width, height) = (u32::from(width), u32::from(height));
    let picture = match info.pixel_format {
        jpeg_decoder::PixelFormat::RGB24 => RgbImage::from_raw(width, height, pixels).map(DynamicImage::ImageRgb8),
        jpeg_decoder::PixelFormat::L8 => GrayImage::from_raw(width, height, pixels).map(DynamicImage::ImageLuma8),
        jpeg_decoder::PixelFormat::L16 => {
            // Big-endian 16-bit grey: its high byte is the 8-bit grey.
            let grey = pixels.chunks_exact(2).map(|pair| pair[0]).collect();
            GrayImage::from_raw(width, height, grey).map(DynamicImage::ImageLuma8)
        }
        jpeg_decoder::PixelFormat::CMYK32 => {
            // Adobe's CMYK JPEGs are stored inverted: each channel is already 255 - ink.
            let rgb = pixels
                .chunks_exact(4)
                .flat_map(|p| {
                    let k = u16::from(p[3]);
                    [p[0], p[1], p[2]].map(|c| u8::try_from(u16::from(c) * k / 255).unwrap_or(u8::MAX))
                })
                .collect();
            RgbImage::from_raw(width, height, rgb).map(DynamicImage::ImageRgb8)
        }
    }
    .ok_or(PhotoRefusal::Unreadable)?;
    let orientation = decoder.exif_data().and_then(Orientation::from_exif_chunk);
    Ok((picture, orientation.unwrap_or(Orientation::NoTransforms)))
}

/// A PNG or WebP decoded whole, when its pixels at their own depth fit [`MAX_DECODE_BYTES`], and
/// its orientation.
fn decode_whole(bytes: &[u8], format: PhotoFormat) -> Result<(DynamicImage, Orientation), PhotoRefusal> {
    let reader = |bytes| {
        let mut reader = ImageReader::with_format(
            Cursor::new(bytes),
            if format == PhotoFormat::Png { ImageFormat::Png } else { ImageFormat::WebP },
        );
        let mut limits = Limits::default();
        limits.max_alloc = Some(MAX_DECODE_BYTES);
        reader.limits(limits);
        reader
    };
    let mut decoder = reader(bytes).into_decoder().map_err(|_| PhotoRefusal::Unreadable)?;
    let (width, height) = decoder.dimensions();
    let copies = if format == PhotoFormat::Webp { WEBP_COPIES } else { 1 };
    if decoder.total_bytes().saturating_mul(copies) > MAX_DECODE_BYTES {
        return Err(PhotoRefusal::TooManyPixels { width, height });
    }
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let picture = DynamicImage::from_decoder(decoder).map_err(|_| PhotoRefusal::Unreadable)?;
    Ok((picture, orientation))
}

/// `picture` as a baseline JPEG with no metadata at all.
fn jpeg(picture: &DynamicImage) -> Vec<u8> {
    let mut out = Vec::new();
    let rgb = picture.to_rgb8();
    // Writing into a Vec fails only on a picture of no pixels, which decoding never gives.
    if JpegEncoder::new_with_quality(&mut out, QUALITY).encode_image(&rgb).is_err() {
        out.clear();
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use image::{ImageEncoder, Rgb};

    /// A `width` × `height` JPEG of a gradient, with an Exif block holding `orientation` and a
    /// marker string that must not survive.
    pub(crate) fn jpeg_with_exif(width: u32, height: u32, orientation: u16) -> Vec<u8> {
        let picture = RgbImage::from_fn(width, height, |x, y| Rgb([(x % 256) as u8, (y % 256) as u8, 90]));
        let mut plain = Vec::new();
        JpegEncoder::new_with_quality(&mut plain, 90)
            .write_image(&picture, width, height, image::ExtendedColorType::Rgb8)
            .unwrap();
        with_exif(&plain, orientation)
    }

    /// `jpeg` with an APP1 Exif segment after its SOI: one IFD entry (orientation), then a
    /// secret text that a stripped copy must not hold.
    pub(crate) fn with_exif(jpeg: &[u8], orientation: u16) -> Vec<u8> {
        let mut tiff = b"II*\0\x08\0\0\0\x01\0".to_vec();
        tiff.extend_from_slice(&[0x12, 0x01, 3, 0, 1, 0, 0, 0]);
        tiff.extend_from_slice(&orientation.to_le_bytes());
        tiff.extend_from_slice(&[0, 0, 0, 0, 0, 0]);
        tiff.extend_from_slice(b"GPS -1.2921,36.8219 SECRET-PLACE");
        let mut segment = b"Exif\0\0".to_vec();
        segment.extend_from_slice(&tiff);
        let length = u16::try_from(segment.len() + 2).unwrap();
        let mut out = jpeg[..2].to_vec();
        out.extend_from_slice(&[0xFF, 0xE1]);
        out.extend_from_slice(&length.to_be_bytes());
        out.extend_from_slice(&segment);
        out.extend_from_slice(&jpeg[2..]);
        out
    }

    fn contains(haystack: &[u8], needle: &[u8]) -> bool {
        haystack.windows(needle.len()).any(|window| window == needle)
    }

    #[test]
    fn a_large_photo_is_resized_turned_upright_and_stripped() {
        let sent = jpeg_with_exif(3000, 2000, 6);
        assert!(contains(&sent, b"SECRET-PLACE"));
        let kept = prepare(&sent, Some("image/jpeg")).unwrap();
        // Orientation 6 is a quarter turn: the landscape photo stands upright.
        assert_eq!((kept.width, kept.height), (853, 1280));
        for file in [&kept.photo, &kept.thumb] {
            assert!(!contains(file, b"SECRET-PLACE"));
            assert!(!contains(file, b"Exif"));
            assert_eq!(PhotoFormat::sniff(file), Some(PhotoFormat::Jpeg));
        }
        let thumb = image::load_from_memory(&kept.thumb).unwrap();
        assert_eq!(thumb.height(), THUMB_SIDE);
    }

    #[test]
    fn a_small_png_keeps_its_size() {
        let picture = RgbImage::from_fn(40, 30, |x, _| Rgb([x as u8, 0, 0]));
        let mut png = Vec::new();
        image::codecs::png::PngEncoder::new(&mut png)
            .write_image(&picture, 40, 30, image::ExtendedColorType::Rgb8)
            .unwrap();
        let kept = prepare(&png, Some("image/png")).unwrap();
        assert_eq!((kept.width, kept.height), (40, 30));
        assert!(prepare(&png, None).is_ok());
        assert!(prepare(&png, Some("application/octet-stream")).is_ok());
    }

    #[test]
    fn what_is_not_a_photo_is_refused_with_its_reason() {
        assert_eq!(prepare(b"", None).unwrap_err(), PhotoRefusal::Empty);
        assert_eq!(
            prepare(b"<html><script>alert(1)</script>", Some("image/jpeg")).unwrap_err(),
            PhotoRefusal::NotAnImage
        );
        let jpeg = jpeg_with_exif(20, 20, 1);
        assert_eq!(
            prepare(&jpeg, Some("image/png")).unwrap_err(),
            PhotoRefusal::TypeLies { declared: "a PNG".to_owned(), actual: "a JPEG" }
        );
        assert!(matches!(prepare(&jpeg, Some("text/plain")).unwrap_err(), PhotoRefusal::TypeLies { .. }));
        assert_eq!(prepare(&jpeg[..jpeg.len() / 3], None).unwrap_err(), PhotoRefusal::Unreadable);
        assert_eq!(prepare(&vec![0xFF; MAX_PHOTO_BYTES + 1], None).unwrap_err(), PhotoRefusal::TooLarge);
    }
}
