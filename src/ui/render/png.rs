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
    pixmap
        .encode_png()
        .map_err(|e| format!("cannot encode the PNG: {e}"))
}
