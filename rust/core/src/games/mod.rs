//! One module per game. Each implements [`crate::game::Game`] and is listed in [`crate::registry`].

pub mod matchstick;
