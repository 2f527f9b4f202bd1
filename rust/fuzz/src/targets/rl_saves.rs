//! RL saves given to `rl::load_rl` (Python's `load_state`), determinized copies' saves included.
//!
//! Input: the save's text. Promises: a save that is refused is `corrupt_state`; a save that loads is saved
//! again to the same document, which loads to the same state; its action ids, masks, tensors and
//! information state are consistent and written without a panic; a determinized copy of it saves and loads.

use crate::check::typed;
use cardnet_core::json::canonical;
use cardnet_core::rl::{load_rl, AnyRl};

/// The target.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match load_rl(text) {
        Ok(state) => {
            let what = format!("{} RL save of {} actions", state.name(), state.move_count());
            round_trip(state.as_ref(), &what);
            consistent(state.as_ref(), &what);
            let observer = state.first_to_act();
            let copy = state.determinize(observer, 3);
            round_trip(copy.as_ref(), &format!("{what}, determinized for {observer:?}"));
            if let Some(seat) = observer {
                let mut next = state.clone_box();
                let id = next.legal_action_ids(seat)[0];
                next.apply_action_id(seat, id).unwrap_or_else(|e| panic!("{what}: legal action {id} refused: {e}"));
                round_trip(next.as_ref(), &format!("{what}, one action on"));
            }
        }
        Err(e) => typed(&e, &["corrupt_state"], "load_rl"),
    }
}

/// Saving `state` and loading the save gives the same state and the same save.
fn round_trip(state: &dyn AnyRl, what: &str) {
    let saved = canonical(&state.to_json().unwrap_or_else(|e| panic!("{what}: does not save: {e}")));
    let loaded = load_rl(&saved).unwrap_or_else(|e| panic!("{what}: its own save does not load: {e}"));
    assert_eq!(loaded.state_json(), state.state_json(), "{what}: save → load changed the state");
    assert_eq!(loaded.action_history(), state.action_history(), "{what}: save → load changed the actions");
    let again = canonical(&loaded.to_json().unwrap_or_else(|e| panic!("{what}: {e}")));
    assert_eq!(again, saved, "{what}: save → load → save changed the document");
}

/// Seats act exactly when they have legal action ids, each id maps to a move and back, and every tensor is
/// written in full.
fn consistent(state: &dyn AnyRl, what: &str) {
    let players = state.setup().players;
    let to_act = state.to_act();
    assert_eq!(to_act.is_empty(), state.is_over(), "{what}: seats {to_act:?} act; over: {}", state.is_over());
    assert_eq!(state.returns().len(), players, "{what}: returns for {} seats", state.returns().len());
    let mut observation = vec![f32::NAN; state.observation_len()];
    let mut infostate = vec![f32::NAN; state.infostate_len()];
    let mut mask = vec![2u8; state.action_space_size()];
    for seat in 0..players {
        let ids = state.legal_action_ids(seat);
        assert_eq!(to_act.contains(&seat), !ids.is_empty(), "{what}: seat {seat} has {} legal ids", ids.len());
        for &id in ids.iter().take(8) {
            let mv = state.action_id_to_move(seat, id).unwrap_or_else(|| panic!("{what}: legal id {id} has no move"));
            assert_eq!(state.move_to_action_id(seat, &mv).ok(), Some(id), "{what}: move {mv} is not id {id}");
        }
        state.write_observation(seat, &mut observation);
        state.write_infostate(seat, &mut infostate);
        state.write_legal_mask(seat, &mut mask);
        assert!(observation.iter().chain(&infostate).all(|x| x.is_finite()), "{what}: a tensor value not written");
        assert_eq!(mask.iter().filter(|&&m| m == 1).count(), ids.len(), "{what}: the mask and the ids disagree");
        if state.logs_events() {
            state.information_state_string(seat).unwrap_or_else(|e| panic!("{what}: information state: {e}"));
        }
    }
}
