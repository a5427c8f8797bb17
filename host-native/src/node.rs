//! A server's name among several on one PostgreSQL database (`confab serve --node-id`). Each
//! event queue lives on one server, so its id starts with that server's name and a dot
//! (`a.0f3c…`): a proxy in front routes `GET /events` and `DELETE /events` by that prefix
//! (`deploy/haproxy/confab.cfg`), as Zulip routes a queue's polls to the Tornado process that
//! holds it.

use std::fmt;
use std::str::FromStr;

/// The longest name: a proxy's backend name is built from it.
const MAX_LENGTH: usize = 32;

/// A validated node name: 1 to 32 ASCII letters, digits, `-` or `_`. No dot, since the dot
/// ends the name inside a queue id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeId(String);

impl NodeId {
    /// The queue id of a new queue on this node, given its random part.
    pub fn queue_id(&self, random: &str) -> String {
        format!("{}.{random}", self.0)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for NodeId {
    type Err = String;

    fn from_str(name: &str) -> Result<NodeId, String> {
        let allowed = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
        if name.is_empty() || name.len() > MAX_LENGTH || !name.chars().all(allowed) {
            return Err(format!(
                "a node id is 1 to {MAX_LENGTH} ASCII letters, digits, '-' or '_' (it starts each queue id, before a dot)"
            ));
        }
        Ok(NodeId(name.to_owned()))
    }
}

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::NodeId;

    #[test]
    fn a_queue_id_starts_with_its_node_and_a_dot() {
        let node: NodeId = "node-2".parse().expect("a valid name");
        assert_eq!(node.queue_id("0f3c"), "node-2.0f3c");
    }

    #[test]
    fn names_a_proxy_cannot_route_by_are_refused() {
        for bad in ["", "a.b", "a b", "ü", "a/b", &"x".repeat(33)] {
            assert!(bad.parse::<NodeId>().is_err(), "{bad:?} refused");
        }
        assert!("A_z-09".parse::<NodeId>().is_ok());
    }
}
