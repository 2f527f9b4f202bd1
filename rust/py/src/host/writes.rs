//! The host's writes: every connection's line of one move in one call, without blocking (`write_lines`), and
//! the two writes the fast lanes share: as much as a socket takes, and a whole journal record.

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::fs::File;
use std::io::{self, ErrorKind, Write};
use std::mem::ManuallyDrop;
use std::os::fd::FromRawFd;

/// Writes what a non-blocking descriptor takes of `data`: the count (0 when it would block), or -1 when the
/// write failed.
pub fn write_some(fd: i32, data: &[u8]) -> i64 {
    loop {
        // SAFETY: `data` is valid for `data.len()` bytes.
        let n = unsafe { libc::write(fd, data.as_ptr().cast(), data.len()) };
        if n >= 0 {
            return n as i64;
        }
        match io::Error::last_os_error().kind() {
            ErrorKind::Interrupted => continue,
            ErrorKind::WouldBlock => return 0,
            _ => return -1,
        }
    }
}

/// Writes all of `data` to the blocking descriptor `fd` (a journal file), however many writes it takes.
pub fn write_whole(fd: i32, data: &[u8]) -> io::Result<()> {
    // SAFETY: the caller keeps the descriptor open during this call; ManuallyDrop keeps the File from
    // closing it.
    let mut file = ManuallyDrop::new(unsafe { File::from_raw_fd(fd) });
    file.write_all(data)
}

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
        // The caller's socket owns the descriptor and keeps it open during this call.
        let written = if fd < 0 { -1 } else { write_some(fd, data) };
        if written != data.len() as i64 {
            short.push((i, written));
        }
    }
    Ok(short)
}
