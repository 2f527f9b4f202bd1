//! Seeds given from Python: the package's one seed rule, and fresh seeds from the kernel.

use crate::errors::to_pyerr;
use cardnet_core::GameError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};
use std::io;

/// A random seed of 63 bits from the kernel, as `secrets.randbits(63)` draws an unseeded table's next game.
pub fn random_seed() -> io::Result<u64> {
    let mut bytes = [0u8; 8];
    let mut filled = 0;
    while filled < bytes.len() {
        // SAFETY: the slice is valid for its length.
        let n = unsafe { libc::getrandom(bytes[filled..].as_mut_ptr().cast(), bytes.len() - filled, 0) };
        if n < 0 {
            let error = io::Error::last_os_error();
            if error.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(error);
        }
        filled += n as usize;
    }
    Ok(u64::from_ne_bytes(bytes) >> 1)
}

/// A seed by the package's one seed rule (`cardnet.games.check_seed`): an integer 0 to 2**64-1 as it is,
/// a fresh random one from the kernel for None; BadOptions otherwise (a bool too, though Python counts it
/// an integer).
pub fn checked_seed(py: Python<'_>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    let Some(seed) = seed else {
        return random_seed().map_err(PyErr::from);
    };
    if !seed.is_instance_of::<PyBool>() && seed.is_instance_of::<PyInt>() {
        if let Ok(seed) = seed.extract::<u64>() {
            return Ok(seed);
        }
    }
    let shown = seed.repr().map_or_else(|_| "?".to_string(), |r| r.to_string());
    Err(to_pyerr(py, &GameError::BadOptions(format!("seed must be an integer 0 to 2**64-1, not {shown}"))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_seeds_are_63_bits_and_differ() {
        let seeds: Vec<u64> = (0..4).map(|_| random_seed().expect("the kernel gives random bytes")).collect();
        assert!(seeds.iter().all(|&seed| seed < 1 << 63));
        assert!(seeds.windows(2).any(|pair| pair[0] != pair[1]));
    }
}
