import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import {
  ALERTS_FILE,
  dashboardPanels,
  headingAnchors,
  metricNames,
  OPERATIONS_DOC,
  plainExpr,
} from '../../support/dashboard';
import { metricsUrl, scrape } from '../../support/metrics';
import { PrometheusServer, PROMTOOL } from '../../support/prometheus';
import { createTestApp, TestApp } from '../../support/test-app';
import { everydayTraffic } from '../../support/traffic';

/** Families of the service and of prom-client's defaults that the dashboard and alerts read. */
const PREFIXES = ['idsvc_', 'nodejs_', 'process_'];
const HISTOGRAM_SERIES = /_(bucket|sum|count)$/;

interface LoadedRule {
  name: string;
  query: string;
  duration: number;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

// docs/operations.md, "Dashboard" and "Alerts": every panel and rule is a query a real Prometheus
// accepts over a real scrape of the service, and reads only metrics the service exports.
describe('Grafana dashboard and alerting rules', () => {
  let t: TestApp;
  let prometheus: PrometheusServer;
  const targets = dashboardPanels().flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })),
  );

  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_PORT: '0' } });
    await t.truncate();
    const { round } = await everydayTraffic(t.app);
    await round({ errors: true });
    prometheus = await PrometheusServer.start(new URL(metricsUrl(t.app)).host, [ALERTS_FILE]);
    await prometheus.waitForScrapes(2);
  });
  afterAll(async () => {
    await prometheus?.stop();
    await t?.close();
  });

  it('has rules that promtool accepts', async () => {
    const { stdout } = await promisify(execFile)(PROMTOOL, ['check', 'rules', ALERTS_FILE]);
    expect(stdout).toContain('SUCCESS');
  });

  it('scraped the traffic driven before Prometheus started', async () => {
    const answer = await prometheus.query('idsvc_oauth_token_requests_total{outcome="ok"}');
    expect(answer.status).toBe('success');
    expect(answer.data.result.length).toBeGreaterThan(0);
  });

  it.each(targets)('panel "$panel" queries successfully: $expr', async ({ expr }) => {
    const answer = await prometheus.query(plainExpr(expr));
    expect({ status: answer.status, error: answer.error }).toEqual({
      status: 'success',
      error: undefined,
    });
  });

  it('loads every alert with a for:, a severity, a summary, a description and a runbook entry', async () => {
    const rules = await loadedRules();
    const anchors = headingAnchors(readFileSync(OPERATIONS_DOC, 'utf8'));
    expect(rules.length).toBeGreaterThanOrEqual(10);
    for (const rule of rules) {
      expect([rule.name, rule.duration > 0]).toEqual([rule.name, true]);
      expect(['critical', 'warning', 'info']).toContain(rule.labels.severity);
      expect(rule.annotations.summary).toBeTruthy();
      expect(rule.annotations.description).toBeTruthy();
      const [file, anchor] = rule.annotations.runbook_url.split('#');
      expect([rule.name, file, anchors.has(anchor)]).toEqual([
        rule.name,
        'docs/operations.md',
        true,
      ]);
    }
  });

  it('evaluates every alert expression', async () => {
    for (const rule of await loadedRules()) {
      const answer = await prometheus.query(rule.query);
      expect([rule.name, answer.status, answer.error]).toEqual([rule.name, 'success', undefined]);
    }
  });

  it('reads only metric families the service exports (a renamed one fails here)', async () => {
    const exported = new Set(
      [...(await scrape(t.app)).text.matchAll(/^# TYPE (\S+) /gm)].map(([, name]) => name),
    );
    const exprs = [
      ...targets.map((target) => target.expr),
      ...(await loadedRules()).map((r) => r.query),
    ];
    const read = new Set(exprs.flatMap((expr) => metricNames(expr, PREFIXES)));
    const missing = [...read].filter(
      (name) => !exported.has(name) && !exported.has(name.replace(HISTOGRAM_SERIES, '')),
    );
    expect(read.size).toBeGreaterThan(15);
    expect(missing).toEqual([]);
  });

  async function loadedRules(): Promise<LoadedRule[]> {
    const answer = await prometheus.api<{ groups: { rules: LoadedRule[] }[] }>('rules', {
      type: 'alert',
    });
    return answer.data.groups.flatMap((group) => group.rules);
  }
});
