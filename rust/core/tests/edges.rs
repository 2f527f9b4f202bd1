//! Out-of-range seats at the edges of the public API: refused or ignored, never a panic and never
//! somebody else's view.

use cardnet_core::{new_game, GameError, SeatSet};
use serde_json::Value;

#[test]
fn seat_sets_ignore_seats_they_cannot_hold() {
    assert_eq!(SeatSet::single(20), SeatSet::EMPTY);
    assert_eq!(SeatSet::single(usize::MAX), SeatSet::EMPTY);
    assert_eq!(SeatSet::single(15).iter().collect::<Vec<_>>(), vec![15]);
    let set = SeatSet::single(2).with(40).without(99);
    assert_eq!(set.iter().collect::<Vec<_>>(), vec![2]);
    assert!(!set.contains(40));
}

#[test]
fn observers_past_the_table_are_refused() {
    for name in ["matchstick", "fistful", "cherki", "ten"] {
        let game = new_game(name, None, 1, &Value::Null).unwrap();
        let players = game.setup().players;
        let refused = |result: Result<(), GameError>| match result {
            Err(GameError::IllegalMove { code, .. }) => assert_eq!(code, "no_such_seat", "{name}"),
            other => panic!("{name}: expected no_such_seat, got {other:?}"),
        };
        refused(game.view_json(Some(99)).map(drop));
        refused(game.view_json(Some(players)).map(drop));
        refused(game.view(Some(99)).map(drop));
        refused(game.events_json(Some(99)).map(drop));
        refused(game.events(Some(players)).map(drop));
        assert!(game.view_json(Some(players - 1)).is_ok());
        assert!(game.view_json(None).is_ok());
    }
}
