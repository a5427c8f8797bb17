//! What `GET /metrics` reports, in the Prometheus project's own client (`prometheus-client`):
//! one [`Metrics`] per server, shared by the request layer, the writer and the outgoing-webhook
//! deliverer, each recording its own part as it happens. Event queues are counted when scraped.
//!
//! Labels stay few and bounded: an endpoint is its route template (`/api/v1/messages/{message_id}`),
//! never the raw path, so ids in URLs cannot grow the series without end.

use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::{Registry, Unit};

/// The `Content-Type` of the exposition: OpenMetrics text, which Prometheus asks for first.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// One HTTP answer's labels.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RequestLabels {
    pub method: &'static str,
    /// The route template that answered, or `unmatched` for a path no route has.
    pub endpoint: String,
    pub status: u16,
}

/// One request's endpoint, for the latency histograms.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct EndpointLabels {
    pub method: &'static str,
    pub endpoint: String,
}

/// How one outgoing-webhook delivery ended.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct DeliveryLabels {
    /// `delivered` (a 2xx answer, after retries if any) or `failed` (the owner was told).
    pub outcome: &'static str,
}

type HistogramFamily<L> = Family<L, Histogram, fn() -> Histogram>;

/// Every metric the server keeps.
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    latency: HistogramFamily<EndpointLabels>,
    rate_limited: Counter,
    batch_commands: Histogram,
    commit_seconds: Histogram,
    commit_failures: Counter,
    event_queues: Gauge,
    waiting_polls: Gauge,
    deliveries: Family<DeliveryLabels, Counter>,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Metrics")
    }
}

/// From half a millisecond to about 33 seconds, doubling: requests and commits alike.
fn latency_buckets() -> Histogram {
    Histogram::new(exponential_buckets(0.0005, 2.0, 17))
}

impl Default for Metrics {
    fn default() -> Self {
        let mut registry = Registry::with_prefix("confab");
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "http_requests",
            "HTTP requests answered, by method, route template and status",
            requests.clone(),
        );
        let latency: HistogramFamily<EndpointLabels> = Family::new_with_constructor(latency_buckets);
        registry.register_with_unit(
            "http_request_duration",
            "Time from a request's head to its answer's head, by method and route template",
            Unit::Seconds,
            latency.clone(),
        );
        let rate_limited = Counter::default();
        registry.register(
            "rate_limit_hits",
            "Requests refused with 429 RATE_LIMIT_HIT (rate limits and a full write queue)",
            rate_limited.clone(),
        );
        let batch_commands = Histogram::new(exponential_buckets(1.0, 2.0, 10));
        registry.register(
            "writer_batch_commands",
            "Commands the writer ran in one transaction",
            batch_commands.clone(),
        );
        let commit_seconds = latency_buckets();
        registry.register_with_unit(
            "writer_commit_duration",
            "Time to make one batch durable (the write-ahead log's fsync and redb's commit)",
            Unit::Seconds,
            commit_seconds.clone(),
        );
        let commit_failures = Counter::default();
        registry.register(
            "writer_commit_failures",
            "Batches whose commit failed (every command in them was answered with an error)",
            commit_failures.clone(),
        );
        let event_queues = Gauge::default();
        registry.register("event_queues", "Event queues registered", event_queues.clone());
        let waiting_polls = Gauge::default();
        registry.register(
            "event_waiting_polls",
            "GET /events requests waiting for an event",
            waiting_polls.clone(),
        );
        let deliveries = Family::<DeliveryLabels, Counter>::default();
        registry.register(
            "outgoing_webhook_deliveries",
            "Messages posted to outgoing-webhook bots' services, by outcome",
            deliveries.clone(),
        );
        Metrics {
            registry,
            requests,
            latency,
            rate_limited,
            batch_commands,
            commit_seconds,
            commit_failures,
            event_queues,
            waiting_polls,
            deliveries,
        }
    }
}

impl Metrics {
    /// Counts one answered request and how long it took.
    pub fn request(&self, labels: RequestLabels, took: Duration) {
        if labels.status == 429 {
            self.rate_limited.inc();
        }
        let endpoint = EndpointLabels { method: labels.method, endpoint: labels.endpoint.clone() };
        self.latency.get_or_create(&endpoint).observe(took.as_secs_f64());
        self.requests.get_or_create(&labels).inc();
    }

    /// Records one writer batch: its size, and its commit's time (`None` when it wrote nothing
    /// and so committed nothing).
    pub fn batch(&self, commands: usize, commit: Option<Result<Duration, ()>>) {
        self.batch_commands.observe(commands as f64);
        match commit {
            Some(Ok(took)) => self.commit_seconds.observe(took.as_secs_f64()),
            Some(Err(())) => {
                self.commit_failures.inc();
            }
            None => {}
        }
    }

    /// Counts one outgoing-webhook delivery.
    pub fn delivery(&self, delivered: bool) {
        let outcome = if delivered { "delivered" } else { "failed" };
        self.deliveries.get_or_create(&DeliveryLabels { outcome }).inc();
    }

    /// The exposition, with the event queues as they are now.
    pub fn render(&self, event_queues: usize, waiting_polls: usize) -> String {
        self.event_queues.set(i64::try_from(event_queues).unwrap_or(i64::MAX));
        self.waiting_polls.set(i64::try_from(waiting_polls).unwrap_or(i64::MAX));
        let mut text = String::new();
        // Writing to a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut text, &self.registry);
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exposition_names_every_family_and_ends_with_eof() {
        let metrics = Metrics::default();
        let labels = |status| RequestLabels {
            method: "GET",
            endpoint: "/api/v1/messages/{message_id}".into(),
            status,
        };
        metrics.request(labels(200), Duration::from_millis(3));
        metrics.request(labels(429), Duration::from_millis(1));
        metrics.batch(3, Some(Ok(Duration::from_millis(2))));
        metrics.delivery(true);
        let text = metrics.render(4, 1);
        for line in [
            r#"confab_http_requests_total{method="GET",endpoint="/api/v1/messages/{message_id}",status="200"} 1"#,
            "confab_rate_limit_hits_total 1",
            "confab_writer_batch_commands_count 1",
            "confab_writer_commit_duration_seconds_count 1",
            "confab_event_queues 4",
            "confab_event_waiting_polls 1",
            r#"confab_outgoing_webhook_deliveries_total{outcome="delivered"} 1"#,
        ] {
            assert!(text.lines().any(|l| l == line), "{line} missing from\n{text}");
        }
        assert!(text.ends_with("# EOF\n"));
    }
}
