//! Where the server may send requests of its own (outgoing webhooks): not to its own machine or
//! private networks unless the operator allows a range (`confab serve --allow-outgoing-to`).
//! Without this, any user who may create a bot could make the server reach services that only
//! trust its network.

// `core::net`: address values only, no sockets (the boundary test keeps those out of core).
use core::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use ipnet::IpNet;

/// The ranges an operator opened on top of the public internet.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OutgoingPolicy {
    allowed: Vec<IpNet>,
}

impl OutgoingPolicy {
    pub fn new(allowed: Vec<IpNet>) -> Self {
        OutgoingPolicy { allowed }
    }

    /// Parses `10.0.0.0/8`, `::1/128`, or a bare address (one host).
    pub fn parse_range(text: &str) -> Result<IpNet, String> {
        let text = text.trim();
        text.parse::<IpNet>()
            .or_else(|_| text.parse::<IpAddr>().map(IpNet::from))
            .map_err(|_| format!("{text:?} is not an address or a CIDR range"))
    }

    /// Whether a request may go to `ip`.
    pub fn permits(&self, ip: IpAddr) -> bool {
        !is_internal(ip) || self.allowed.iter().any(|range| range.contains(&ip))
    }
}

/// Loopback, private, link-local, shared, multicast, reserved and unspecified addresses, and
/// IPv6 forms that embed one (mapped and NAT64 addresses).
fn is_internal(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_internal_v4(v4),
        IpAddr::V6(v6) => is_internal_v6(v6),
    }
}

fn is_internal_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_broadcast()
        || ip.is_multicast()
        || ip.is_documentation()
        || a == 0
        // Shared address space (carrier-grade NAT), 100.64.0.0/10.
        || (a == 100 && (64..128).contains(&b))
        // IETF protocol assignments, 192.0.0.0/24; benchmarking, 198.18.0.0/15.
        || (a == 192 && b == 0 && ip.octets()[2] == 0)
        || (a == 198 && (b == 18 || b == 19))
        // Reserved, 240.0.0.0/4.
        || a >= 240
}

fn is_internal_v6(ip: Ipv6Addr) -> bool {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return is_internal_v4(v4);
    }
    let segments = ip.segments();
    // NAT64 (64:ff9b::/96) reaches the IPv4 address in its last 32 bits.
    if segments[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        let [.., hi, lo] = segments;
        return is_internal_v4(Ipv4Addr::from((u32::from(hi) << 16) | u32::from(lo)));
    }
    ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_multicast()
        || ip.is_unique_local()
        || ip.is_unicast_link_local()
        // Deprecated site-local, fec0::/10.
        || (segments[0] & 0xffc0) == 0xfec0
        // Documentation, 2001:db8::/32.
        || (segments[0] == 0x2001 && segments[1] == 0x0db8)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("address")
    }

    #[test]
    fn internal_addresses_are_refused_and_public_ones_allowed() {
        let policy = OutgoingPolicy::default();
        for internal in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "100.64.0.1",
            "224.0.0.1",
            "255.255.255.255",
            "::1",
            "::",
            "fc00::1",
            "fe80::1",
            "::ffff:127.0.0.1",
            "64:ff9b::a00:1",
        ] {
            assert!(!policy.permits(ip(internal)), "{internal}");
        }
        for public in ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "64:ff9b::808:808"] {
            assert!(policy.permits(ip(public)), "{public}");
        }
    }

    #[test]
    fn an_operator_opens_ranges() {
        let ranges = ["127.0.0.0/8", "10.0.0.5"].map(|r| OutgoingPolicy::parse_range(r).expect("range"));
        let policy = OutgoingPolicy::new(ranges.to_vec());
        assert!(policy.permits(ip("127.0.0.1")));
        assert!(policy.permits(ip("10.0.0.5")));
        assert!(!policy.permits(ip("10.0.0.6")));
        assert!(OutgoingPolicy::parse_range("not a range").is_err());
    }
}
