//! One module per game. Each implements [`crate::game::Game`] and is listed in [`crate::registry`], except
//! `ten`, which so far holds only TEN's card data and scoring.

pub mod cherki;
pub mod fistful;
pub mod ten;
