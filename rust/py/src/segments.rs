//! The seven-segment helpers of Matchstick Tycoon, for `cardnet.segments` (typed there).
//! Segment sets cross as strings of letters `a`..`g`; values and printed card types by their names.

use crate::errors::guard;
use cardnet_core::segments::{
    cost, min_cost, render_ascii_sized, render_sized, rotate, segments_from_str, segments_to_str, shape,
    transforms_iter, value_of_shape, CardType, Cell, RenderSize, Segments, Value,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

fn value(text: &str) -> PyResult<Value> {
    Value::parse(text).ok_or_else(|| PyValueError::new_err(format!("{text:?} is not a Matchstick value (0-9, A-H)")))
}

fn card_type(text: &str) -> PyResult<CardType> {
    CardType::parse(text).ok_or_else(|| {
        PyValueError::new_err(format!("{text:?} is not a printed card type (0, 1, 2, 3E, 4, 5, 69, ...)"))
    })
}

fn segs(text: &str) -> PyResult<Segments> {
    segments_from_str(text)
        .ok_or_else(|| PyValueError::new_err(format!("{text:?} is not a set of segments (distinct letters a-g)")))
}

fn size(compact: bool) -> RenderSize {
    if compact {
        RenderSize::Compact
    } else {
        RenderSize::Normal
    }
}

/// Value names, weakest first (G and H only with the expansion).
#[pyfunction]
pub fn seg_values(expansion: bool) -> Vec<&'static str> {
    let n = if expansion { Value::COUNT } else { Value::BASE_COUNT };
    Value::ALL[..n].iter().map(|v| v.name()).collect()
}

/// Printed card type names (G and H only with the expansion).
#[pyfunction]
pub fn seg_card_types(expansion: bool) -> Vec<&'static str> {
    let n = if expansion { CardType::COUNT } else { CardType::BASE_COUNT };
    CardType::ALL[..n].iter().map(|t| t.name()).collect()
}

/// The segments lit by a value's glyph.
#[pyfunction]
pub fn seg_glyph(py: Python<'_>, name: &str) -> PyResult<String> {
    guard(py, || Ok(segments_to_str(value(name)?.glyph())))
}

/// The shape of a printed card type, upright or turned 180°.
#[pyfunction]
pub fn seg_shape(py: Python<'_>, card: &str, rotated: bool) -> PyResult<String> {
    guard(py, || Ok(segments_to_str(shape(card_type(card)?, rotated))))
}

/// The segments after turning 180°.
#[pyfunction]
pub fn seg_rotate(py: Python<'_>, segments: &str) -> PyResult<String> {
    guard(py, || Ok(segments_to_str(rotate(segs(segments)?))))
}

/// The value whose glyph is exactly these segments, if any.
#[pyfunction]
pub fn seg_value_of_shape(py: Python<'_>, segments: &str, expansion: bool) -> PyResult<Option<&'static str>> {
    guard(py, || Ok(value_of_shape(segs(segments)?, expansion).map(Value::name)))
}

/// Matchsticks a card needs to show a value in one orientation, or None if it cannot.
#[pyfunction]
pub fn seg_cost(py: Python<'_>, card: &str, target: &str, rotated: bool) -> PyResult<Option<u8>> {
    guard(py, || Ok(cost(card_type(card)?, value(target)?, rotated)))
}

/// Fewest matchsticks a card needs to show a value in either orientation, or None.
#[pyfunction]
pub fn seg_min_cost(py: Python<'_>, card: &str, target: &str) -> PyResult<Option<u8>> {
    guard(py, || Ok(min_cost(card_type(card)?, value(target)?)))
}

/// Every `(value, rotated, matchsticks, added_segments)` a card type can show, weakest value first.
#[pyfunction]
pub fn seg_transforms(py: Python<'_>, card: &str, expansion: bool) -> PyResult<Vec<(&'static str, bool, u8, String)>> {
    guard(py, || {
        Ok(transforms_iter(card_type(card)?, expansion)
            .map(|t| (t.value.name(), t.rotated, t.matchsticks, segments_to_str(t.added)))
            .collect())
    })
}

/// A card drawn as ASCII lines (added matchsticks as `=` and `!`).
#[pyfunction]
pub fn seg_render(py: Python<'_>, lit: &str, added: &str, compact: bool) -> PyResult<Vec<String>> {
    guard(py, || Ok(render_ascii_sized(segs(lit)?, segs(added)?, size(compact))))
}

/// A card drawn as rows of `(char, kind)` cells, kind being `blank`, `lit` or `added` (for colouring).
#[pyfunction]
pub fn seg_render_cells(
    py: Python<'_>,
    lit: &str,
    added: &str,
    compact: bool,
) -> PyResult<Vec<Vec<(char, &'static str)>>> {
    guard(py, || {
        Ok(render_sized(segs(lit)?, segs(added)?, size(compact))
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .map(|(ch, cell)| {
                        let kind = match cell {
                            Cell::Blank => "blank",
                            Cell::Lit => "lit",
                            Cell::Added => "added",
                        };
                        (ch, kind)
                    })
                    .collect()
            })
            .collect())
    })
}
