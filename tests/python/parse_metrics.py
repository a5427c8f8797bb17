"""Parses a `/metrics` exposition (the file named by the first argument) with the Prometheus
project's own OpenMetrics parser, which refuses anything Prometheus would not scrape (a missing
`# EOF`, a sample outside its family, buckets out of order), and prints its families as JSON
for the Rust test: {name: {"type": ..., "samples": [[name, labels, value], ...]}}."""

import json
import sys

from prometheus_client.openmetrics.parser import text_string_to_metric_families

with open(sys.argv[1], encoding="utf-8") as exposition:
    text = exposition.read()

families = {}
for family in text_string_to_metric_families(text):
    families[family.name] = {
        "type": family.type,
        "samples": [[s.name, s.labels, s.value] for s in family.samples],
    }
print(json.dumps(families))
