//! One module per game. Each implements [`crate::game::Game`] and is listed in [`crate::registry`].

pub mod cherki;
pub mod fistful;
pub mod matchstick;
pub mod ten;
