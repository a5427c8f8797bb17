-- Monthly revenue per customer segment, last 12 months.
CREATE TABLE IF NOT EXISTS orders (
    id          BIGSERIAL PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    status      VARCHAR(20) NOT NULL DEFAULT 'pending',
    total_cents INTEGER NOT NULL CHECK (total_cents >= 0),
    created_at  TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()
);

CREATE INDEX idx_orders_customer ON orders (customer_id, created_at DESC);

WITH monthly AS (
    SELECT
        date_trunc('month', o.created_at) AS month,
        c.segment,
        SUM(o.total_cents) / 100.0 AS revenue,
        COUNT(DISTINCT o.customer_id) AS buyers
    FROM orders o
    JOIN customers c ON c.id = o.customer_id
    WHERE o.status IN ('paid', 'shipped')
      AND o.created_at >= now() - INTERVAL '12 months'
    GROUP BY 1, 2
)
SELECT month,
       segment,
       revenue,
       buyers,
       ROUND(revenue / NULLIF(buyers, 0), 2) AS per_buyer,
       LAG(revenue) OVER (PARTITION BY segment ORDER BY month) AS previous
FROM monthly
ORDER BY month DESC, revenue DESC
LIMIT 50;

UPDATE orders
SET status = 'cancelled'
WHERE status = 'pending'
  AND created_at < now() - INTERVAL '30 days';

DELETE FROM sessions WHERE expires_at IS NULL OR expires_at < CURRENT_TIMESTAMP;

INSERT INTO audit_log (actor, action, details)
VALUES ('system', 'cleanup', '{"orders": 12, "sessions": 340}');

/* Which customers never ordered? */
SELECT c.id, c.email FROM customers c
LEFT OUTER JOIN orders o ON o.customer_id = c.id
WHERE o.id IS NULL AND c.created_at BETWEEN '2024-01-01' AND '2024-06-30';
