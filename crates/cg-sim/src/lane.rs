//! Primitives a running lane calls (the `cooperative-groups` host arch layer
//! forwards here). Calling any of them outside a simulated kernel panics.
