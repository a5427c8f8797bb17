//! The parts of `store_parity`: what a history is made of (`ops`), the words it uses
//! (`vocabulary`), how it becomes changes (`script`) and how two stores' answers are compared
//! (`reads`).

pub mod ops;
pub mod reads;
pub mod script;
pub mod vocabulary;
