/**
 * A preview of the Grafana dashboard (docs/operations.md, "Dashboard"), not Grafana: asks a
 * Prometheus for each panel's queries over the last minutes and draws the answers as SVG line
 * charts laid out by the panels' gridPos, which headless Chromium saves as
 * docs/operations/dashboard.png.
 *
 *   npm run dashboard:render                           boots the service (DATABASE_URL / REDIS_URL
 *                                                      if set, else embedded) with its metrics, a
 *                                                      Prometheus scraping it, and drives a minute
 *                                                      of traffic first
 *   npm run dashboard:render -- --prometheus <url>     draws the last 10 minutes of a Prometheus
 *                                                      that already scrapes a running service
 */
import { join } from 'node:path';
import { launchChromium } from '../test/support/chromium';
import { dashboardPanels, plainExpr, type Panel } from '../test/support/dashboard';
import { metricsUrl } from '../test/support/metrics';
import { PrometheusApi, PrometheusServer } from '../test/support/prometheus';
import { createTestApp } from '../test/support/test-app';
import { everydayTraffic } from '../test/support/traffic';
import { WebhookReceiver } from '../test/support/webhook-receiver';
import { WebhookEndpointsService } from '../src/modules/webhooks/webhook-endpoints.service';

const OUTPUT = join(__dirname, '../docs/operations/dashboard.png');
const TRAFFIC_MS = 60_000;
/** Grafana's $__rate_interval for a 1 s scrape at this step is 4 s; a little more smooths it. */
const RATE_INTERVAL = '10s';
const STEP_SECONDS = 2;
const PAGE_WIDTH = 1600;
const GRID_UNIT_PX = 30;
const COLORS = ['#7eb26d', '#eab839', '#6ed0e0', '#ef843c', '#e24d42', '#1f78c1', '#ba43a9'];

/** A panel's series as drawn: legend text and [unix seconds, value] points. */
interface Line {
  name: string;
  points: [number, number][];
}

async function main(): Promise<void> {
  const given = argument('--prometheus');
  if (given) {
    const end = Date.now() / 1000;
    await render(given, end - 600, end);
    return;
  }
  const { prometheusUrl, start, stop } = await localRun();
  try {
    await render(prometheusUrl, start, Date.now() / 1000);
  } finally {
    await stop();
  }
}

/** The service with its metrics, a Prometheus scraping it, and a minute of traffic. */
async function localRun(): Promise<{
  prometheusUrl: string;
  start: number;
  stop: () => Promise<void>;
}> {
  const receiver = new WebhookReceiver();
  await receiver.start();
  const t = await createTestApp({
    env: { METRICS_PORT: '0', WEBHOOKS_POLL_MS: '1000', WEBHOOKS_ALLOW_INSECURE: 'true' },
  });
  const prometheus = await PrometheusServer.start(new URL(metricsUrl(t.app)).host);
  const stop = async (): Promise<void> => {
    await prometheus.stop();
    await t.close();
    await receiver.stop();
  };
  try {
    await prometheus.waitForScrapes();
    const start = Date.now() / 1000;
    const { applicationId, round } = await everydayTraffic(t.app);
    // Two endpoints for the traffic's events: one verifies and accepts them, the other refuses
    // them (it does not know its secret).
    const endpoints = t.app.get(WebhookEndpointsService);
    const accepting = await endpoints.create({
      applicationId,
      url: receiver.url('/accepting'),
      eventTypes: [],
    });
    receiver.trust('/accepting', accepting.secret);
    await endpoints.create({
      applicationId,
      url: receiver.url('/refusing'),
      eventTypes: [],
    });
    // One round a second at most, errors in every fifth: the failed sign-ins of a minute stay
    // under the per-address limit (docs/oauth.md), so the sign-ins keep succeeding.
    for (let i = 0; Date.now() - start * 1000 < TRAFFIC_MS; i++) {
      const next = start * 1000 + (i + 1) * 1000;
      t.clock.set(new Date());
      await round({ errors: i % 5 === 0 });
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - Date.now())));
    }
    await prometheus.waitForScrapes(2);
    return { prometheusUrl: prometheus.url, start, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Draws every panel from `prometheusUrl` over [start, end] and screenshots the page. */
async function render(prometheusUrl: string, start: number, end: number): Promise<void> {
  const panels = dashboardPanels();
  const lines = await Promise.all(panels.map((p) => panelLines(prometheusUrl, p, start, end)));
  const height = Math.max(...panels.map((p) => (p.gridPos.y + p.gridPos.h) * GRID_UNIT_PX));
  const html = page(
    panels.map((panel, i) => panelHtml(panel, lines[i], start, end)).join('\n'),
    height,
  );
  const browser = await launchChromium();
  try {
    const tab = await browser.newPage({
      viewport: { width: PAGE_WIDTH + 16, height: height + 16 },
    });
    await tab.setContent(html);
    await tab.screenshot({ path: OUTPUT, fullPage: true });
  } finally {
    await browser.close();
  }
  console.log(`wrote ${OUTPUT}`);
}

async function panelLines(url: string, panel: Panel, start: number, end: number): Promise<Line[]> {
  const lines: Line[] = [];
  for (const target of panel.targets ?? []) {
    const expr = plainExpr(target.expr, RATE_INTERVAL);
    const answer = await new PrometheusApi(url).queryRange(expr, start, end, STEP_SECONDS);
    if (answer.status !== 'success') throw new Error(`${panel.title}: ${answer.error}`);
    for (const series of answer.data.result) {
      lines.push({
        name: legend(target.legendFormat ?? '', series.metric),
        points: series.values.map(([at, value]) => [at, Number(value)]),
      });
    }
  }
  return lines;
}

/** Grafana's legend format: `{{label}}` replaced by the series' label. */
function legend(format: string, labels: Record<string, string>): string {
  const text = format.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => labels[name] ?? '');
  return text.trim() || JSON.stringify(labels);
}

function panelHtml(panel: Panel, lines: Line[], start: number, end: number): string {
  const { x, y, w, h } = panel.gridPos;
  const box = `left:${x * colWidth()}px;top:${y * GRID_UNIT_PX}px;width:${w * colWidth() - 8}px`;
  if (panel.type === 'row') return `<h2 style="${box}">${escape(panel.title)}</h2>`;
  const width = w * colWidth() - 8;
  const height = h * GRID_UNIT_PX - 8;
  const unit = panel.fieldConfig?.defaults?.unit ?? 'short';
  const legendItems = lines
    .map((l, i) => `<li><i style="background:${color(i)}"></i>${escape(l.name)}</li>`)
    .join('');
  return `<section style="${box};height:${height}px">
    <h3>${escape(panel.title)}</h3>
    ${chart(lines, width - 16, height - 92, unit, start, end)}
    <ul>${legendItems}</ul>
  </section>`;
}

/** An SVG line chart: y from 0 to the largest value, three gridlines, the time span below. */
function chart(
  lines: Line[],
  width: number,
  height: number,
  unit: string,
  start: number,
  end: number,
): string {
  const left = 64;
  const above = 8;
  const bottom = 16;
  const values = lines.flatMap((l) => l.points.map(([, v]) => v)).filter(Number.isFinite);
  if (values.length === 0) {
    return `<svg width="${width}" height="${height}"><text x="${width / 2}" y="${height / 2}" text-anchor="middle" class="empty">No data</text></svg>`;
  }
  const top = Math.max(...values) || 1;
  const px = (at: number): number => left + ((at - start) / (end - start)) * (width - left);
  const py = (v: number): number => above + (height - above - bottom) * (1 - v / top);
  const grid = [0, 0.5, 1]
    .map((f) => {
      const at = py(top * f);
      return `<line x1="${left}" x2="${width}" y1="${at}" y2="${at}" class="grid"/><text x="${left - 4}" y="${at + 4}" text-anchor="end">${format(top * f, unit)}</text>`;
    })
    .join('');
  const paths = lines
    .map((l, i) => {
      const d = l.points
        .filter(([, v]) => Number.isFinite(v))
        .map(([at, v], j) => `${j === 0 ? 'M' : 'L'}${px(at).toFixed(1)},${py(v).toFixed(1)}`)
        .join('');
      return `<path d="${d}" stroke="${color(i)}" fill="none" stroke-width="1.5"/>`;
    })
    .join('');
  const times = `<text x="${left}" y="${height - 2}">${clock(start)}</text><text x="${width}" y="${height - 2}" text-anchor="end">${clock(end)}</text>`;
  return `<svg width="${width}" height="${height}">${grid}${paths}${times}</svg>`;
}

/** A value with the panel's Grafana unit, shortly. */
function format(value: number, unit: string): string {
  const n = (v: number, digits = 2): string => String(Number(v.toFixed(digits)));
  switch (unit) {
    case 'percentunit':
      return `${n(value * 100, 1)}%`;
    case 's':
      return value < 1 ? `${n(value * 1000, 1)} ms` : `${n(value)} s`;
    case 'bytes':
      return `${n(value / 1024 ** 2, 0)} MiB`;
    case 'reqps':
      return `${n(value)} req/s`;
    case 'ops':
      return `${n(value)} /s`;
    default:
      return n(value);
  }
}

function page(body: string, height: number): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>
    body { margin: 8px; background: #111217; color: #ccccdc; font: 12px system-ui, sans-serif; }
    main { position: relative; width: ${PAGE_WIDTH}px; height: ${height}px; }
    h2 { position: absolute; margin: 0; padding-top: 8px; font-size: 15px; }
    section { position: absolute; box-sizing: border-box; padding: 6px 8px; background: #181b1f; border: 1px solid #2c3235; border-radius: 2px; overflow: hidden; }
    h3 { margin: 0 0 4px; font-size: 13px; }
    svg text { fill: #9fa7b3; font-size: 10px; }
    svg .grid { stroke: #2c3235; }
    svg .empty { font-size: 14px; }
    ul { margin: 4px 0 0; padding: 0; list-style: none; display: flex; flex-wrap: wrap; gap: 2px 12px; max-height: 56px; overflow: hidden; font-size: 11px; }
    li i { display: inline-block; width: 12px; height: 3px; margin-right: 4px; vertical-align: middle; }
  </style></head><body><main>${body}</main></body></html>`;
}

const colWidth = (): number => PAGE_WIDTH / 24;
const color = (i: number): string => COLORS[i % COLORS.length];
const clock = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(11, 19);
const escape = (text: string): string => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
