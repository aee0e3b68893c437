import type { DataSource } from 'typeorm';
import type { WebhookEndpointLag } from '../../common/metrics/metrics';

/**
 * Every enabled endpoint's lag (the age of the oldest event after its cursor, 0 when caught up)
 * and whether it is failing: read by the metrics at each scrape, one statement.
 */
export async function webhookEndpointLags(
  dataSource: DataSource,
  now: Date,
): Promise<WebhookEndpointLag[]> {
  const rows = await dataSource.query<
    { endpoint_id: number; lag_seconds: number; failing: boolean }[]
  >(
    `SELECT w.id AS endpoint_id, w.failing_since IS NOT NULL AS failing,
            COALESCE(GREATEST(0, EXTRACT(EPOCH FROM $1::timestamptz - oldest.created_at)), 0)::float8
              AS lag_seconds
     FROM webhook_endpoints w
     LEFT JOIN LATERAL (
       SELECT e.created_at FROM events e
       WHERE e.application_id = w.application_id AND e.id > w.cursor
       ORDER BY e.id LIMIT 1) oldest ON true
     WHERE w.enabled`,
    [now],
  );
  return rows.map((row) => ({
    endpointId: row.endpoint_id,
    lagSeconds: row.lag_seconds,
    failing: row.failing,
  }));
}
