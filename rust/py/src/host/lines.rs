//! The host's `update`/`snapshot` lines spliced from a fan-out's canonical fragments, newline included: the one
//! definition of a state line's bytes. The fan-out, the fast path and the native lane build every seat's line
//! here; `StateMessage.splice` in `cardnet.protocol.messages` calls it (`state_line`, `state_shared`) for a
//! single snapshot.

use cardnet_core::json::{write_string, write_u64};

/// What every seat's line of one state shares (`game_no` through `"view":`).
pub struct Shared<'a> {
    pub kind: &'a str,
    pub game_no: u64,
    pub state_id: u64,
    pub state_hash: &'a str,
    pub to_act: &'a [u64],
    pub over: bool,
    pub outcome: Option<&'a str>,
}

/// One seat's open decision as it goes out: `legal` is None when the list is paged rather than inlined.
pub struct DecisionLine<'a> {
    pub id: u64,
    pub count: u64,
    pub deadline_ms: Option<u64>,
    pub legal: Option<&'a str>,
}

impl Shared<'_> {
    /// The shared middle part, written once per state.
    pub fn write(&self, out: &mut String) {
        out.push_str(",\"game_no\":");
        write_u64(out, self.game_no);
        out.push_str(",\"hash\":");
        write_string(out, self.state_hash);
        out.push_str(",\"outcome\":");
        out.push_str(self.outcome.unwrap_or("null"));
        out.push_str(",\"over\":");
        out.push_str(if self.over { "true" } else { "false" });
        out.push_str(",\"state_id\":");
        write_u64(out, self.state_id);
        out.push_str(",\"to_act\":[");
        for (i, seat) in self.to_act.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            write_u64(out, *seat);
        }
        out.push_str("],\"type\":");
        write_string(out, self.kind);
        out.push_str(",\"view\":");
    }
}

/// One seat's line around the written `shared` part: keys in canonical order (`ack`, `decision`, `events`,
/// then the shared keys and `view`).
pub fn state_line(
    shared: &str,
    update: bool,
    ack: Option<&str>,
    decision: Option<&DecisionLine<'_>>,
    events: &str,
    view: &str,
) -> String {
    let mut out = String::with_capacity(shared.len() + view.len() + events.len() + 256);
    out.push('{');
    if let Some(ack) = ack {
        out.push_str("\"ack\":");
        out.push_str(ack);
        out.push(',');
    }
    match decision {
        None => out.push_str("\"decision\":null"),
        Some(d) => {
            out.push_str("\"decision\":{\"count\":");
            write_u64(&mut out, d.count);
            out.push_str(",\"deadline_ms\":");
            match d.deadline_ms {
                Some(ms) => write_u64(&mut out, ms),
                None => out.push_str("null"),
            }
            out.push_str(",\"id\":");
            write_u64(&mut out, d.id);
            out.push_str(",\"legal\":");
            out.push_str(d.legal.unwrap_or("null"));
            out.push('}');
        }
    }
    if update {
        out.push_str(",\"events\":");
        out.push_str(events);
    }
    out.push_str(shared);
    out.push_str(view);
    out.push_str("}\n");
    out
}
