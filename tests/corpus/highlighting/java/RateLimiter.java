package com.example.ratelimit;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A token bucket per key, refilled continuously.
 */
public final class RateLimiter {
    private static final double DEFAULT_RATE = 10.0;

    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();
    private final Clock clock;
    private final double ratePerSecond;
    private final int capacity;

    public RateLimiter(Clock clock, double ratePerSecond, int capacity) {
        if (ratePerSecond <= 0 || capacity < 1) {
            throw new IllegalArgumentException("rate and capacity must be positive");
        }
        this.clock = clock;
        this.ratePerSecond = ratePerSecond;
        this.capacity = capacity;
    }

    public RateLimiter() {
        this(Clock.systemUTC(), DEFAULT_RATE, 20);
    }

    /** Takes one token for the key; false when the bucket is empty. */
    public boolean tryAcquire(String key) {
        long now = clock.millis();
        Bucket bucket = buckets.computeIfAbsent(key, k -> new Bucket(capacity, now));
        synchronized (bucket) {
            double elapsed = (now - bucket.updatedAt) / 1000.0;
            bucket.tokens = Math.min(capacity, bucket.tokens + elapsed * ratePerSecond);
            bucket.updatedAt = now;
            if (bucket.tokens >= 1.0d) {
                bucket.tokens -= 1;
                return true;
            }
            return false;
        }
    }

    public Duration retryAfter(String key) {
        Bucket bucket = buckets.get(key);
        if (bucket == null) {
            return Duration.ZERO;
        }
        long millis = (long) Math.ceil((1 - bucket.tokens) / ratePerSecond * 1000);
        return Duration.ofMillis(Math.max(0L, millis));
    }

    private static final class Bucket {
        double tokens;
        long updatedAt;

        Bucket(int tokens, long updatedAt) {
            this.tokens = tokens;
            this.updatedAt = updatedAt;
        }
    }

    @Override
    public String toString() {
        return String.format("RateLimiter[rate=%.1f/s, capacity=%d, keys=%d]", ratePerSecond, capacity, buckets.size());
    }
}
