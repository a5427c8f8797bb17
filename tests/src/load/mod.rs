//! The benchmarks' load generator: keep-alive HTTP/1.1 connections driven by tokio, in closed
//! loop (throughput) or open loop (latency at a fixed offered rate), and the ceilings its
//! figures are compared with (a bare HTTP server under the same generator, a raw redb
//! group-commit loop on the same disk).
//!
//! The generator runs on the same machine as the server it measures and takes CPU from it;
//! the ceilings pay the same tax, which is why the suite reports ratios.

mod ceiling;
mod connection;
mod request;
mod run;

use std::time::Duration;

pub use ceiling::{BareHttp, RedbLoop, redb_bulk_update, redb_group_commit};
pub use connection::{Answer, Connection};
pub use request::{RequestBytes, basic_authorization, build};
pub use run::{NextRequest, Report, closed_loop, closed_loop_counted, closed_loop_waiting_out, open_loop};

/// The `q` quantile (0..=1) of `samples`, nearest rank; `None` when there are none.
pub fn quantile(samples: &[Duration], q: f64) -> Option<Duration> {
    if samples.is_empty() {
        return None;
    }
    let mut sorted = samples.to_vec();
    sorted.sort_unstable();
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    Some(sorted[rank - 1])
}

/// A process's resident memory in bytes (VmRSS), 0 if it cannot be read.
pub fn rss_bytes(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_are_nearest_rank() {
        let samples: Vec<Duration> = (1..=100).map(Duration::from_millis).collect();
        assert_eq!(quantile(&samples, 0.5), Some(Duration::from_millis(50)));
        assert_eq!(quantile(&samples, 0.99), Some(Duration::from_millis(99)));
        assert_eq!(quantile(&samples, 1.0), Some(Duration::from_millis(100)));
        assert_eq!(quantile(&[], 0.5), None);
    }
}
