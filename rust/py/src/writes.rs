//! The host's writes of one move in one call: every connection's line to its socket, without blocking.

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::fs::File;
use std::io::{ErrorKind, Write};
use std::mem::ManuallyDrop;
use std::os::fd::FromRawFd;

/// Writes `lines[i]` to the descriptor `fds[i]`, in order (the host passes its non-blocking sockets, each
/// with nothing queued before it). Returns `(i, written)` for every line that did not go out whole: `written`
/// bytes went (0 when the socket would block), or -1 when the write failed (the connection is broken).
#[pyfunction]
pub fn write_lines(fds: Vec<i32>, lines: Vec<Bound<'_, PyBytes>>) -> PyResult<Vec<(usize, i64)>> {
    if fds.len() != lines.len() {
        return Err(pyo3::exceptions::PyValueError::new_err("one line is needed per descriptor"));
    }
    let mut short = Vec::new();
    for (i, (&fd, line)) in fds.iter().zip(&lines).enumerate() {
        let data = line.as_bytes();
        if fd < 0 {
            short.push((i, -1));
            continue;
        }
        // SAFETY: the caller's socket owns the descriptor and keeps it open during this call; ManuallyDrop
        // keeps the File from closing it.
        let mut file = ManuallyDrop::new(unsafe { File::from_raw_fd(fd) });
        let written = loop {
            match file.write(data) {
                Ok(n) => break n as i64,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == ErrorKind::WouldBlock => break 0,
                Err(_) => break -1,
            }
        };
        if written != data.len() as i64 {
            short.push((i, written));
        }
    }
    Ok(short)
}
