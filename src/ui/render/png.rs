//! PNG pictures: the SVG of [`super::svg`] rasterised by resvg. Text is set in DejaVu Sans,
//! built into the program (`assets/fonts/`, with its licence), so no system font is needed.

use resvg::{tiny_skia, usvg};
use std::sync::Arc;

/// DejaVu Sans (Bitstream Vera licence, see `assets/fonts/DejaVuSans-LICENSE.txt`).
static FONT_DATA: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");

/// How many pixels a PNG has per SVG unit (a tile is 100 units).
pub const SCALE: f32 = 1.5;

/// Renders an SVG document to the bytes of a PNG file, [`SCALE`] pixels per SVG unit.
pub fn from_svg(svg: &str) -> Result<Vec<u8>, String> {
    raster(svg)?
        .encode_png()
        .map_err(|e| format!("cannot encode the PNG: {e}"))
}

/// Renders an SVG document as [`from_svg`] does, to raw pixels: `(width, height, bytes)`,
/// three bytes (red, green, blue) per pixel, row by row (for arrays, e.g. numpy's), what is
/// transparent shown on white.
pub fn rgb_from_svg(svg: &str) -> Result<(u32, u32, Vec<u8>), String> {
    let pixmap = raster(svg)?;
    let rgb = pixmap
        .pixels()
        .iter()
        .flat_map(|p| {
            // Premultiplied colour over a white page.
            let white = 255 - p.alpha();
            [p.red(), p.green(), p.blue()].map(|c| c.saturating_add(white))
        })
        .collect();
    Ok((pixmap.width(), pixmap.height(), rgb))
}

/// The SVG document drawn on a pixmap, [`SCALE`] pixels per SVG unit.
fn raster(svg: &str) -> Result<tiny_skia::Pixmap, String> {
    let mut opt = usvg::Options {
        font_family: super::svg::FONT.to_string(),
        ..usvg::Options::default()
    };
    let fonts = opt.fontdb_mut();
    fonts.load_font_source(usvg::fontdb::Source::Binary(Arc::new(FONT_DATA)));
    fonts.set_sans_serif_family(super::svg::FONT);
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| format!("cannot read the SVG: {e}"))?;
    let size = tree
        .size()
        .to_int_size()
        .scale_by(SCALE)
        .ok_or("the picture is too large")?;
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| format!("cannot make a {}×{} picture", size.width(), size.height()))?;
    let zoom = tiny_skia::Transform::from_scale(SCALE, SCALE);
    resvg::render(&tree, zoom, &mut pixmap.as_mut());
    Ok(pixmap)
}
