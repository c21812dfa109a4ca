//! Policies: the model, the loader that compiles config into it, the builtin templates, the
//! index built at load, and the deny-wins evaluator.

pub mod builtins;
pub mod conditions;
pub mod evaluator;
pub mod glob;
pub mod index;
pub mod loader;
pub mod model;
pub mod pattern;
