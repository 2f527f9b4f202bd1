//! The host's native lane: a table in play served move after move without returning to Python or trio.
//!
//! The trio layer calls `host.serve_lane` from its own thread when every task is blocked, for a slice of time.
//! The call waits on the players' sockets and on the descriptors trio waits on for the host's other I/O
//! (`LaneTable::watch`: listeners, spectators, connections in their handshake); the slice bounds how late trio
//! gets to what the lane cannot see (a worker thread's result). A player's socket holding exactly one line,
//! which is an index `move` for that seat's open
//! decision within its rate (`parse_move_line`: any key order and spacing), is served here as the fast lane
//! (`host.play_line`) serves it: read, played, journalled, and every ready connection's `update` line
//! written. Anything else ends the call and hands control back: another kind of line, half a line, two
//! lines, an end of stream, a watched descriptor readable, a signal, the end of the slice, a socket that does
//! not take a whole line, the end
//! of the game, or a decision for a seat the lane does not play. The caller then brings the table's and the
//! connections' bookkeeping up to date from the returned `LaneRun` and carries on in Python.
//!
//! Once a game is over, the lane also takes the players' rematch votes (`{"type":"rematch"}`, any spacing)
//! as `HostSession` does: each vote is journalled and announced to every connection, and the vote that
//! completes the present humans' set deals the next game into the same `Game` object, journals its start
//! and writes every connection's `snapshot`; play then goes on in the lane. It stops at a
//! game's end instead when the host asks it to (someone waits for that end).
//!
//! Each readable socket is read once. Bytes the lane read and did not play come back in `LaneRun.unread`:
//! the host puts them in that connection's line buffer, as if its reader had read them.
//!
//! A browser's seat (a WebSocket, `websocket::client_line`) is served the same way, its lines written as text
//! frames. Its socket is only peeked at: the frame is taken from the socket once its line was played, and
//! anything else (a ping, a fragment, a close, two frames, half a frame) stays there for the web seat's reader
//! (python/cardnet/web/ws.py), which owns the connection's WebSocket state.

use super::bucket;
use super::fanout::{next_game, FanOut};
use super::journal;
use super::lines::{state_line, DecisionLine};
use super::move_line::{parse_move_line, Held};
use super::quick::{quick_move, ref_to_py, QuickMove};
use super::rematch::{derive_seed, game_record, is_vote_line, vote_record, votes_line};
use super::websocket;
use super::writes::{write_some, write_whole};
use crate::convert::options_value;
use crate::game::Game;
use crate::seed::random_seed;
use cardnet_core::session::AnyGame;
use cardnet_core::Seat;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};
use std::io;

/// The epoll key of every watched descriptor (a connection's key is its index).
const WATCHED: u64 = u64::MAX;
/// Most events taken from one wait.
const EVENTS: usize = 16;

/// One ready connection: where its lines go and, for a player, its message-rate bucket.
struct Conn {
    fd: i32,
    /// Its position in every move's lines: the seat, or the player count for a spectator.
    observer: usize,
    seat: Option<Seat>,
    /// Whether its lines travel as WebSocket text frames (a browser's seat), not raw lines.
    websocket: bool,
    /// The bucket of `HostSession`'s `Bucket.has_token`: tokens and the time they were counted at.
    tokens: f64,
    stamp: f64,
}

impl Conn {
    /// `Bucket.has_token`: refill to `now` (`bucket::refill`), then whether a token is there (none spent: an
    /// accepted move gives it back at once).
    fn has_token(&mut self, now: f64, rate: f64, burst: f64) -> bool {
        self.tokens = bucket::refill(self.tokens, self.stamp, now, rate, burst);
        self.stamp = now;
        self.tokens >= 1.0
    }
}

/// One seat's open decision as the lane holds it.
#[derive(Clone)]
struct Open {
    id: u64,
    count: usize,
    legal: String,
}

/// The limits the lane keeps, all the host's own (a dict of these keys).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct LaneLimits {
    /// Decision ids are `n * stride + seat`.
    stride: u64,
    /// A legal list longer than this is paged, not inlined.
    inline_limit: usize,
    /// The longest line the host sends.
    host_line: usize,
    /// The longest line a peer may send.
    peer_line: usize,
    /// A line longer than this goes through the connection's outbox instead (`HostOptions.outbox_bytes`).
    outbox_bytes: usize,
    /// The message-rate bucket (`HostOptions.msg_rate`, `msg_burst`).
    rate: f64,
    burst: f64,
}

/// Everything the lane needs of the table, as the Python host holds it when it calls (a dict of these keys).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct LaneTable {
    /// `(fd, seat or -1 for a spectator, bucket tokens, bucket stamp, whether it is a WebSocket)` of every
    /// ready connection, in the host's order.
    conns: Vec<(i32, i64, f64, f64, bool)>,
    /// `(seat, id, count, legal list)` of every open decision.
    decisions: Vec<(Seat, u64, usize, String)>,
    /// The seats the lane may play (a decision for any other ends the lane).
    seats: Vec<Seat>,
    /// Decisions opened so far per seat.
    seq: Vec<u64>,
    game_no: u64,
    /// The current state's id.
    state_id: u64,
    /// The journal's descriptor (records are appended with one write each), or -1 for none.
    journal_fd: i32,
    /// Descriptors whose readiness ends the run: trio has I/O to handle there.
    watch: Vec<i32>,
    /// Trio's clock is `CLOCK_MONOTONIC` + this.
    clock_offset: f64,
    /// How long the lane may run at most (its slice, within trio's next timer), seconds.
    wait: f64,
    /// Who has voted for a rematch of the game (over) so far.
    votes: Vec<Seat>,
    /// The human seats whose players are here: the votes that start the next game.
    humans: Vec<Seat>,
    /// What the next game needs, when the lane may start it (else votes go the general way).
    rematch: Option<LaneRematch>,
    /// Whether the lane stops when a game ends (someone waits for that).
    stop_at_end: bool,
}

/// What the lane needs to start the next game (a dict of these keys).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct LaneRematch {
    /// The table's seed when it is seeded (game n is dealt from `derive_seed(seed, n)`); None: each game
    /// gets a random seed.
    seed: Option<u64>,
    /// The table's options as it was created with them.
    options: Py<PyAny>,
}

/// What a lane did, for the caller's bookkeeping.
#[pyclass(module = "cardnet._core.host", name = "LaneRun", frozen, get_all)]
pub struct LaneRun {
    /// `(connection index, seat, decision id, new state id, time)` of every move played, in order.
    moves: Py<PyList>,
    /// `(seat, id, count, legal list)` of every open decision now.
    decisions: Py<PyList>,
    /// Decisions opened so far per seat, now.
    seq: Py<PyList>,
    /// The current state's id now.
    state_id: u64,
    /// The last move's fan-out (None when no move was played).
    fan: Option<Py<FanOut>>,
    /// Every connection's bucket `(tokens, stamp)` now.
    buckets: Py<PyList>,
    /// The last move's lines that did not go out whole: `(connection index, wire bytes or None when the line
    /// could not be built, bytes written)`; -1 written: the socket failed; -2: not tried (longer than the
    /// outbox), and then the bytes are the line, unframed.
    undelivered: Py<PyList>,
    /// The last move's `(decision id, ref)`: the mover's ack, for an undelivered line of its seat.
    ack: Option<(u64, Py<PyAny>)>,
    /// Bytes the lane read from a connection and did not play: `(connection index, bytes)`. They go to that
    /// connection's line buffer, and its whole lines through the general path.
    unread: Option<(usize, Py<PyBytes>)>,
    /// Whether the game is over.
    over: bool,
    /// Why the lane stopped.
    stopped: String,
    /// Why the journal could not be written (the move was played and nothing sent: the host must stop).
    journal_error: Option<String>,
    /// The game's number now.
    game_no: u64,
    /// Who has voted for a rematch now.
    votes: Py<PyList>,
    /// `(game_no, seed, state_id)` of every game the lane started, in order.
    games: Py<PyList>,
    /// How many games ended.
    finished: u32,
    /// How many rematch votes the lane took (repeated ones too).
    counted: u32,
    /// How many journal records the lane wrote.
    records: u32,
    /// When each connection was last heard from in this run (None: not heard).
    heard: Py<PyList>,
}

/// An owned epoll descriptor.
struct Epoll(i32);

impl Drop for Epoll {
    fn drop(&mut self) {
        // SAFETY: the descriptor was created by `Epoll::new` and is closed once.
        unsafe { libc::close(self.0) };
    }
}

impl Epoll {
    fn new() -> io::Result<Epoll> {
        // SAFETY: plain system call.
        let fd = unsafe { libc::epoll_create1(libc::EPOLL_CLOEXEC) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(Epoll(fd))
    }

    fn add(&self, fd: i32, key: u64) -> io::Result<()> {
        let mut event = libc::epoll_event { events: (libc::EPOLLIN | libc::EPOLLRDHUP) as u32, u64: key };
        // SAFETY: `event` lives through the call.
        if unsafe { libc::epoll_ctl(self.0, libc::EPOLL_CTL_ADD, fd, &mut event) } < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }
}

/// `CLOCK_MONOTONIC` in seconds: the clock under Python's `time.perf_counter` and so under trio's.
fn monotonic() -> f64 {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `now` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now) };
    now.tv_sec as f64 + now.tv_nsec as f64 * 1e-9
}

/// `recv` without waiting; with `peek`, the bytes stay in the socket.
fn receive(fd: i32, buf: &mut [u8], peek: bool) -> io::Result<usize> {
    let flags = libc::MSG_DONTWAIT | if peek { libc::MSG_PEEK } else { 0 };
    loop {
        // SAFETY: `buf` is valid for `buf.len()` bytes.
        let n = unsafe { libc::recv(fd, buf.as_mut_ptr().cast(), buf.len(), flags) };
        if n >= 0 {
            return Ok(n as usize);
        }
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::Interrupted {
            return Err(error);
        }
    }
}

/// Appends a whole journal record (`journal::frame`: the header, then the payload), built in `record` (whose
/// earlier content goes: the buffer is kept to build the next record without allocating).
fn journal_append(fd: i32, payload: &[u8], record: &mut Vec<u8>) -> io::Result<()> {
    record.clear();
    journal::frame(payload, record).map_err(io::Error::other)?;
    write_whole(fd, record)
}

/// How serving one readable connection went.
enum Served {
    /// Nothing to read after all (a spurious wake).
    Nothing,
    /// A move was played or a vote taken; `Some(reason)` when the lane must stop after it.
    Played(Option<&'static str>),
    /// The lane stops before this connection's bytes (they stay in the socket unless the run says otherwise).
    Stop(&'static str),
}

impl Served {
    /// A line played, whose bytes left the socket `whole` or not: the lane stops after a part stayed there.
    fn after_read(self, whole: bool) -> Served {
        match self {
            Served::Played(None) if !whole => Served::Played(Some("read_error")),
            served => served,
        }
    }
}

/// A lane in progress.
struct Lane<'g> {
    game: &'g mut Game,
    limits: LaneLimits,
    conns: Vec<Conn>,
    open: Vec<Option<Open>>,
    seats: Vec<Seat>,
    seq: Vec<u64>,
    game_no: u64,
    state_id: u64,
    journal_fd: i32,
    clock_offset: f64,
    buf: Vec<u8>,
    /// The line being served, with its newline (a WebSocket's unmasked; kept to serve the next without
    /// allocating).
    line: Vec<u8>,
    /// A line being framed for a WebSocket (kept likewise).
    wire: Vec<u8>,
    /// Whether a spectator is among the connections (else no move builds the spectators' line).
    spectators: bool,
    /// The journal record being written (kept to write the next one without allocating).
    record: Vec<u8>,
    moves: Vec<(usize, Seat, u64, u64, f64)>,
    fan: Option<FanOut>,
    undelivered: Vec<(usize, Option<Vec<u8>>, i64)>,
    /// The last move's decision id and line (its `ref` is the mover's ack).
    last: Option<(u64, Vec<u8>)>,
    unread: Option<(usize, Vec<u8>)>,
    journal_error: Option<String>,
    /// Whether the game is over.
    over: bool,
    votes: Vec<Seat>,
    humans: Vec<Seat>,
    rematch: Option<LaneRematch>,
    stop_at_end: bool,
    finished: u32,
    games: Vec<(u64, u64, u64)>,
    counted: u32,
    records: u32,
    heard: Vec<Option<f64>>,
}

impl Lane<'_> {
    fn now(&self) -> f64 {
        monotonic() + self.clock_offset
    }

    /// Serves connection `at`, whose socket was reported readable. What it reads and does not play is kept
    /// in `unread` for the host, and the lane stops.
    fn serve(&mut self, py: Python<'_>, at: usize) -> Served {
        let fd = self.conns[at].fd;
        let Some(seat) = self.conns[at].seat else { return Served::Stop("spectator") };
        let websocket = self.conns[at].websocket;
        let read = match receive(fd, &mut self.buf, websocket) {
            // The end of the stream stays for the reader, which sees it too.
            Ok(0) => return Served::Stop("end"),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Served::Nothing,
            Err(_) => return Served::Stop("read_error"),
        };
        let mut line = std::mem::take(&mut self.line);
        let served = if websocket && !websocket::client_line(&self.buf[..read], self.limits.peer_line, &mut line) {
            Served::Stop("line")
        } else {
            if !websocket {
                line.clear();
                line.extend_from_slice(&self.buf[..read]);
            }
            if self.over {
                self.vote(py, at, seat, &line, read)
            } else {
                match self.playable(at, seat, &line) {
                    Some(decision) => self.play(py, at, seat, decision, &line, read),
                    None => self.hand_back(at, read, "line"),
                }
            }
        };
        self.line = line;
        served
    }

    /// The first `read` bytes of the buffer go to the general path, and the lane stops: a raw connection's
    /// to its line buffer, a WebSocket's stay in its socket (they were only peeked at).
    fn hand_back(&mut self, at: usize, read: usize, reason: &'static str) -> Served {
        if !self.conns[at].websocket {
            self.unread = Some((at, self.buf[..read].to_vec()));
        }
        Served::Stop(reason)
    }

    /// Connection `at`'s line, in the first `read` bytes of the buffer, was taken at `now`: a WebSocket's frame
    /// leaves its socket now. False when the socket gives back fewer bytes than were peeked (it cannot, with
    /// the thread held; the rest would reach the web seat's reader as a line already answered).
    fn took(&mut self, at: usize, read: usize, now: f64) -> bool {
        self.heard[at] = Some(now);
        let conn = &self.conns[at];
        !conn.websocket || matches!(receive(conn.fd, &mut self.buf[..read], false), Ok(n) if n == read)
    }

    /// Appends a journal record, if there is a journal; false (the host must stop) when it cannot.
    fn journal(&mut self, payload: &str) -> bool {
        if self.journal_fd < 0 {
            return true;
        }
        match journal_append(self.journal_fd, payload.as_bytes(), &mut self.record) {
            Ok(()) => {
                self.records += 1;
                true
            }
            Err(error) => {
                self.journal_error = Some(error.to_string());
                false
            }
        }
    }

    /// Takes `line` (connection `at`'s, the first `read` bytes of the buffer) as `seat`'s rematch vote, when it
    /// is exactly the vote line and the seat has a token (`HostSession.receive_line` takes one for every line but
    /// a move): journals it, then tells every connection who has voted, or starts the next game when every
    /// present human has.
    fn vote(&mut self, py: Python<'_>, at: usize, seat: Seat, line: &[u8], read: usize) -> Served {
        let now = self.now();
        let (rate, burst) = (self.limits.rate, self.limits.burst);
        let vote = is_vote_line(line, self.limits.peer_line);
        if self.rematch.is_none() || !vote || !self.conns[at].has_token(now, rate, burst) {
            return self.hand_back(at, read, "line");
        }
        let fresh = !self.votes.contains(&seat);
        let mut votes = self.votes.clone();
        if fresh {
            votes.push(seat);
            votes.sort_unstable();
        }
        let agreed = !self.humans.is_empty() && self.humans.iter().all(|h| votes.contains(h));
        // The next game is dealt before anything changes: a failure leaves the vote to the general path.
        let next = match agreed.then(|| self.next_game(py)).transpose() {
            Ok(next) => next,
            Err(_) => return self.hand_back(at, read, "refused"),
        };
        self.conns[at].tokens -= 1.0;
        let whole = self.took(at, read, now);
        self.counted += 1;
        self.votes = votes;
        self.last = None;
        if fresh && !self.journal(&vote_record(self.game_no, seat)) {
            return Served::Stop("journal");
        }
        let served = match next {
            Some((game, seed, fan)) => self.begin(game, seed, fan),
            None => {
                let line = Some(votes_line(self.game_no, &self.votes));
                self.send(&vec![line; self.open.len() + 1], at);
                Served::Played((!self.undelivered.is_empty()).then_some("backlog"))
            }
        };
        served.after_read(whole)
    }

    /// The next game, its seed and its fan-out (see `fanout::next_game`).
    fn next_game(&self, py: Python<'_>) -> PyResult<(Box<dyn AnyGame>, u64, FanOut)> {
        let plan = self.rematch.as_ref().ok_or_else(|| PyValueError::new_err("no rematch"))?;
        let game_no = self.game_no + 1;
        let seed = match plan.seed {
            Some(seed) => derive_seed(seed, game_no),
            None => random_seed()?,
        };
        let options = options_value(py, Some(plan.options.bind(py)))?;
        let (game, fan) = next_game(self.game, py, seed, &options)?;
        Ok((game, seed, fan))
    }

    /// Starts the next game (`Table.start_next_game`): puts it in place, journals its start, opens its
    /// decisions and writes every connection's `snapshot`.
    fn begin(&mut self, game: Box<dyn AnyGame>, seed: u64, fan: FanOut) -> Served {
        self.game.replace(game);
        self.game_no += 1;
        self.state_id += 1;
        self.votes.clear();
        self.over = fan.is_over();
        self.games.push((self.game_no, seed, self.state_id));
        let mut open = vec![None; self.open.len()];
        if !self.over {
            for (seat, count, legal) in &fan.legal {
                self.seq[*seat] += 1;
                let id = self.seq[*seat] * self.limits.stride + *seat as u64;
                open[*seat] = Some(Open { id, count: *count, legal: legal.clone() });
            }
        }
        self.open = open;
        let journalled = self.journal(&game_record(self.game_no, seed, self.state_id));
        let to_act: Vec<u64> =
            self.open.iter().enumerate().filter(|(_, o)| o.is_some()).map(|(s, _)| s as u64).collect();
        let head = fan.head("snapshot", self.game_no, self.state_id, &to_act);
        let lines: Vec<Option<String>> = fan
            .seats
            .iter()
            .map(|(observer, view, events)| {
                let decision = observer.and_then(|o| self.open[o].as_ref()).map(|o| DecisionLine {
                    id: o.id,
                    count: o.count as u64,
                    deadline_ms: None,
                    legal: (o.legal.len() <= self.limits.inline_limit).then_some(o.legal.as_str()),
                });
                let text = state_line(&head, false, None, decision.as_ref(), events, view);
                (text.len() <= self.limits.host_line + 1).then_some(text)
            })
            .collect();
        self.fan = Some(fan);
        if !journalled {
            return Served::Stop("journal");
        }
        self.send(&lines, 0);
        let stranger = self.open.iter().enumerate().any(|(s, o)| o.is_some() && !self.seats.contains(&s));
        Served::Played(if !self.undelivered.is_empty() {
            Some("backlog")
        } else if self.over {
            Some("over")
        } else if stranger {
            Some("other_seat")
        } else {
            None
        })
    }

    /// Writes each connection its line (`lines` by observer: the seats, then the spectators; a WebSocket's as a
    /// text frame), connection `first` first; what does not go out whole is left in `undelivered`.
    fn send(&mut self, lines: &[Option<String>], first: usize) {
        let order = std::iter::once(first).chain((0..self.conns.len()).filter(|&j| j != first));
        for j in order {
            let conn = &self.conns[j];
            match lines.get(conn.observer).and_then(Option::as_ref) {
                None => self.undelivered.push((j, None, -2)),
                Some(text) => {
                    let wire = if conn.websocket {
                        self.wire.clear();
                        websocket::text_frame(text.as_bytes(), &mut self.wire);
                        &self.wire[..]
                    } else {
                        text.as_bytes()
                    };
                    if wire.len() > self.limits.outbox_bytes {
                        self.undelivered.push((j, Some(text.clone().into_bytes()), -2));
                        continue;
                    }
                    let sent = write_some(conn.fd, wire);
                    if sent != wire.len() as i64 {
                        self.undelivered.push((j, Some(wire.to_vec()), sent));
                    }
                }
            }
        }
    }

    /// The open decision `(id, count)` that `line` answers when it is exactly one line of the fast lane's form
    /// for it, from a seat with a token in its rate bucket (refilled now, as `Bucket.has_token` does).
    fn playable(&mut self, at: usize, seat: Seat, line: &[u8]) -> Option<(u64, usize)> {
        let (&last, body) = line.split_last()?;
        if last != b'\n' || body.contains(&b'\n') || body.len() > self.limits.peer_line {
            return None;
        }
        let open = self.open.get(seat).and_then(Option::as_ref)?;
        let now = self.now();
        let (rate, burst) = (self.limits.rate, self.limits.burst);
        if !self.conns[at].has_token(now, rate, burst) {
            return None;
        }
        let parsed = parse_move_line(body)?;
        let listed = parsed.decision_id == open.id && parsed.index >= 0 && (parsed.index as u64) < open.count as u64;
        listed.then_some((open.id, open.count))
    }

    /// Plays `line` (connection `at`'s, the first `read` bytes of the buffer), answering `seat`'s open
    /// `decision`.
    fn play(
        &mut self,
        py: Python<'_>,
        at: usize,
        seat: Seat,
        decision: (u64, usize),
        line: &[u8],
        read: usize,
    ) -> Served {
        let (decision_id, count) = decision;
        let line = line[..line.len() - 1].to_vec();
        let now = self.now();
        let held: Vec<Held> = self
            .open
            .iter()
            .enumerate()
            .filter(|(s, _)| *s != seat)
            .filter_map(|(s, o)| o.as_ref().map(|o| (s, o.id, o.legal.as_str())))
            .collect();
        let state_id = self.state_id + 1;
        let asked = QuickMove {
            decision_id,
            count: count as u64,
            held: &held,
            seq: &self.seq,
            stride: self.limits.stride,
            game_no: self.game_no,
            state_id,
            inline_limit: self.limits.inline_limit,
            limit: self.limits.host_line,
            spectator_line: self.spectators,
        };
        let moved = match quick_move(self.game, py, &line, seat as i64, &asked) {
            Ok(Some(moved)) => moved,
            // The core refused (the game is unchanged): the general path answers the line.
            _ => return self.hand_back(at, read, "refused"),
        };
        self.state_id = state_id;
        self.moves.push((at, seat, decision_id, state_id, now));
        let whole = self.took(at, read, now);
        // In place: a kept decision stays, a new one replaces the seat's, and a seat not acting has none.
        for (s, open) in self.open.iter_mut().enumerate() {
            match moved.decisions.iter().find(|d| d.0 == s) {
                None => *open = None,
                Some(&(_, _, _, true)) => {}
                Some(&(_, id, count, false)) => {
                    self.seq[s] += 1;
                    *open = Some(Open { id, count, legal: moved.legal_of(s) });
                }
            }
        }
        let over = moved.fan.is_over();
        if over {
            self.over = true;
            self.finished += 1;
        }
        self.votes.clear();
        if !self.journal(&moved.record) {
            self.fan = Some(moved.fan);
            return Served::Stop("journal");
        }
        // The mover's connection first: its ack is the round trip that paces play.
        self.send(&moved.lines, at);
        let stranger = moved.decisions.iter().any(|(s, ..)| !self.seats.contains(s));
        self.fan = Some(moved.fan);
        self.last = Some((decision_id, line));
        let stop = if over && (self.stop_at_end || self.rematch.is_none()) {
            Some("over")
        } else if !self.undelivered.is_empty() {
            Some("backlog")
        } else if stranger {
            Some("other_seat")
        } else {
            None
        };
        Served::Played(stop).after_read(whole)
    }

    /// Serves until something needs Python or `wait` seconds have passed; returns why it stopped.
    fn run(&mut self, py: Python<'_>, watch: &[i32], wait: f64) -> PyResult<&'static str> {
        let epoll = Epoll::new()?;
        for (i, conn) in self.conns.iter().enumerate() {
            if conn.seat.is_some() {
                epoll.add(conn.fd, i as u64)?;
            }
        }
        for &fd in watch {
            epoll.add(fd, WATCHED)?;
        }
        let until = monotonic() + wait;
        let mut events = [libc::epoll_event { events: 0, u64: 0 }; EVENTS];
        loop {
            let left = until - monotonic();
            if left <= 0.0 {
                return Ok("timer");
            }
            let ms = (left * 1000.0).ceil().min(f64::from(i32::MAX)) as i32;
            let ep = epoll.0;
            let n = py.detach(|| {
                // SAFETY: `events` holds EVENTS entries.
                let n = unsafe { libc::epoll_wait(ep, events.as_mut_ptr(), EVENTS as i32, ms) };
                if n < 0 {
                    Err(io::Error::last_os_error())
                } else {
                    Ok(n as usize)
                }
            });
            let n = match n {
                Ok(n) => n,
                // A signal: Python must see it.
                Err(e) if e.kind() == io::ErrorKind::Interrupted => return Ok("signal"),
                // Moves may have been played: stop and report them rather than raise.
                Err(_) => return Ok("wait_error"),
            };
            if events[..n].iter().any(|event| event.u64 == WATCHED) {
                // Trio's I/O first: the players' lines stay in their sockets for the next run.
                return Ok("io");
            }
            for event in &events[..n] {
                match self.serve(py, event.u64 as usize) {
                    Served::Nothing | Served::Played(None) => {}
                    Served::Played(Some(reason)) | Served::Stop(reason) => return Ok(reason),
                }
            }
        }
    }
}

/// `host.serve_lane`: runs the lane on `game` (see the module's documentation).
pub fn serve(game: &mut Game, py: Python<'_>, table: LaneTable, limits: LaneLimits) -> PyResult<LaneRun> {
    let players = game.players();
    if table.seq.len() != players {
        return Err(PyValueError::new_err("one decision count is needed per seat"));
    }
    if table.conns.iter().any(|&(fd, seat, ..)| fd < 0 || seat >= players as i64 || seat < -1) {
        return Err(PyValueError::new_err("every connection needs a descriptor and a seat of the table or -1"));
    }
    if table.watch.iter().any(|&fd| fd < 0) {
        return Err(PyValueError::new_err("a watched descriptor must be a descriptor"));
    }
    let mut open = vec![None; players];
    for (seat, id, count, legal) in table.decisions {
        *open.get_mut(seat).ok_or_else(|| PyValueError::new_err("a decision for no seat"))? =
            Some(Open { id, count, legal });
    }
    let conns = table
        .conns
        .iter()
        .map(|&(fd, seat, tokens, stamp, websocket)| {
            let seat = usize::try_from(seat).ok();
            Conn { fd, observer: seat.unwrap_or(players), seat, websocket, tokens, stamp }
        })
        .collect();
    // Room for the longest line with its newline or in its frame, and a byte more: a read that fills it is no line.
    let buf = vec![0u8; limits.peer_line + websocket::MAX_HEADER + 1];
    let over = game.is_over(py)?;
    let heard = vec![None; table.conns.len()];
    let mut votes = table.votes;
    votes.sort_unstable();
    votes.dedup();
    let mut lane = Lane {
        game,
        limits,
        conns,
        open,
        seats: table.seats,
        seq: table.seq,
        game_no: table.game_no,
        state_id: table.state_id,
        journal_fd: table.journal_fd,
        clock_offset: table.clock_offset,
        buf,
        line: Vec::new(),
        wire: Vec::new(),
        spectators: table.conns.iter().any(|&(_, seat, ..)| seat < 0),
        record: Vec::new(),
        moves: Vec::new(),
        fan: None,
        undelivered: Vec::new(),
        last: None,
        unread: None,
        journal_error: None,
        over,
        votes,
        humans: table.humans,
        rematch: table.rematch,
        stop_at_end: table.stop_at_end,
        finished: 0,
        games: Vec::new(),
        counted: 0,
        records: 0,
        heard,
    };
    let stopped = lane.run(py, &table.watch, table.wait.max(0.0))?;
    // Lists are built once here: every attribute read on the Python side then costs nothing more.
    let decisions: Vec<_> =
        lane.open.iter().enumerate().filter_map(|(s, o)| o.as_ref().map(|o| (s, o.id, o.count, &o.legal))).collect();
    let undelivered =
        lane.undelivered.iter().map(|(at, data, sent)| (*at, data.as_ref().map(|d| PyBytes::new(py, d)), *sent));
    let ack = match &lane.last {
        Some((id, line)) => match parse_move_line(line) {
            Some(parsed) => Some((*id, ref_to_py(py, parsed.peer_ref)?.unbind())),
            None => None,
        },
        None => None,
    };
    Ok(LaneRun {
        moves: PyList::new(py, &lane.moves)?.unbind(),
        decisions: PyList::new(py, decisions)?.unbind(),
        seq: PyList::new(py, &lane.seq)?.unbind(),
        state_id: lane.state_id,
        fan: lane.fan.map(|fan| Py::new(py, fan)).transpose()?,
        buckets: PyList::new(py, lane.conns.iter().map(|c| (c.tokens, c.stamp)))?.unbind(),
        undelivered: PyList::new(py, undelivered)?.unbind(),
        ack,
        unread: lane.unread.map(|(at, data)| (at, PyBytes::new(py, &data).unbind())),
        over: lane.over,
        stopped: stopped.to_string(),
        journal_error: lane.journal_error,
        game_no: lane.game_no,
        votes: PyList::new(py, &lane.votes)?.unbind(),
        games: PyList::new(py, &lane.games)?.unbind(),
        finished: lane.finished,
        counted: lane.counted,
        records: lane.records,
        heard: PyList::new(py, &lane.heard)?.unbind(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_refill_like_the_sessions() {
        let mut conn = Conn { fd: -1, observer: 0, seat: Some(0), websocket: false, tokens: 0.5, stamp: 10.0 };
        assert!(!conn.has_token(10.0, 50.0, 200.0));
        assert!(conn.has_token(10.02, 50.0, 200.0));
        assert!((conn.tokens - 1.5).abs() < 1e-9);
        assert!(conn.has_token(1000.0, 50.0, 200.0));
        assert_eq!(conn.tokens, 200.0);
    }
}
