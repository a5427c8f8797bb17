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

    /// Whether a request may go to `ip`. An IPv6 address that stands for an IPv4 host (mapped
    /// or compatible) matches the operator's ranges in either form.
    pub fn permits(&self, ip: IpAddr) -> bool {
        let same_host = match ip {
            IpAddr::V6(v6) => v6.to_ipv4().map_or(ip, IpAddr::V4),
            IpAddr::V4(_) => ip,
        };
        !is_internal(ip) || self.allowed.iter().any(|range| range.contains(&ip) || range.contains(&same_host))
    }
}

/// Loopback, private, link-local, shared, multicast, reserved and unspecified addresses, and
/// IPv6 addresses that carry one of those inside them.
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
    let segments = ip.segments();
    // A packet to any of these forms can end at the IPv4 address inside it, so that address
    // decides; checking only the IPv6 ranges let `[::127.0.0.1]` through.
    if embedded_ipv4(ip).iter().any(|&v4| is_internal_v4(v4)) {
        return true;
    }
    ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_multicast()
        || ip.is_unique_local()
        || ip.is_unicast_link_local()
        // Local-use NAT64 (64:ff9b:1::/48, RFC 8215): translated inside the operator's network.
        || segments[..3] == [0x64, 0xff9b, 1]
        // Deprecated site-local, fec0::/10.
        || (segments[0] & 0xffc0) == 0xfec0
        // Documentation, 2001:db8::/32.
        || (segments[0] == 0x2001 && segments[1] == 0x0db8)
}

/// The IPv4 addresses an IPv6 address carries: IPv4-mapped (`::ffff:a.b.c.d`) and
/// IPv4-compatible (`::a.b.c.d`), NAT64 (`64:ff9b::a.b.c.d`), 6to4 (`2002:AABB:CCDD::/48`),
/// and Teredo (`2001:0::/32`: the server in bits 32-63, the client, inverted, in the last 32).
fn embedded_ipv4(ip: Ipv6Addr) -> Vec<Ipv4Addr> {
    let s = ip.segments();
    let v4 = |hi: u16, lo: u16| Ipv4Addr::from((u32::from(hi) << 16) | u32::from(lo));
    if let Some(v4) = ip.to_ipv4() {
        // Mapped and compatible forms (`::1` and `::` included, as 0.0.0.1 and 0.0.0.0).
        return vec![v4];
    }
    match s {
        [0x64, 0xff9b, 0, 0, 0, 0, hi, lo] => vec![v4(hi, lo)],
        [0x2002, hi, lo, ..] => vec![v4(hi, lo)],
        [0x2001, 0, server_hi, server_lo, .., client_hi, client_lo] => {
            vec![v4(server_hi, server_lo), v4(!client_hi, !client_lo)]
        }
        _ => Vec::new(),
    }
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
    fn every_ipv6_form_that_embeds_an_internal_ipv4_address_is_refused() {
        let policy = OutgoingPolicy::default();
        for (form, internal, public) in [
            ("IPv4-mapped", "::ffff:127.0.0.1", "::ffff:8.8.8.8"),
            ("IPv4-mapped, hex", "::ffff:7f00:1", "::ffff:808:808"),
            ("IPv4-compatible", "::127.0.0.1", "::8.8.8.8"),
            ("IPv4-compatible, private", "::10.0.0.1", "::93.184.216.34"),
            ("NAT64", "64:ff9b::127.0.0.1", "64:ff9b::8.8.8.8"),
            ("NAT64, metadata", "64:ff9b::a9fe:a9fe", "64:ff9b::5db8:d822"),
            ("6to4", "2002:7f00:1::1", "2002:808:808::1"),
            ("6to4, private", "2002:c0a8:101::", "2002:5db8:d822::"),
            // Teredo: server 65.54.227.120, client 127.0.0.1 inverted (80ff:fffe).
            ("Teredo client", "2001:0:4136:e378:8000:63bf:80ff:fffe", "2001:0:4136:e378:8000:63bf:f7f7:f7f7"),
            ("Teredo server", "2001:0:a00:1:8000:63bf:f7f7:f7f7", "2001:0:4136:e378:8000:63bf:a247:2bdd"),
        ] {
            assert!(!policy.permits(ip(internal)), "{form}: {internal}");
            assert!(policy.permits(ip(public)), "{form}: {public}");
        }
        assert!(!policy.permits(ip("64:ff9b:1::8.8.8.8")), "local-use NAT64 stays inside");
    }

    #[test]
    fn an_opened_ipv4_range_opens_its_mapped_and_compatible_forms() {
        let policy = OutgoingPolicy::new(vec![OutgoingPolicy::parse_range("127.0.0.0/8").expect("range")]);
        assert!(policy.permits(ip("::ffff:127.0.0.1")));
        assert!(policy.permits(ip("::127.0.0.1")));
        assert!(!policy.permits(ip("::ffff:10.0.0.1")));
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
