import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The committed Grafana dashboard and alerting rules (docs/operations.md). */
export const DASHBOARD_FILE = join(__dirname, '../../docs/operations/grafana-dashboard.json');
export const ALERTS_FILE = join(__dirname, '../../docs/operations/alerts.yml');
export const OPERATIONS_DOC = join(__dirname, '../../docs/operations.md');

export interface GridPos {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface PanelTarget {
  refId: string;
  expr: string;
  legendFormat?: string;
}

export interface Panel {
  type: string;
  title: string;
  gridPos: GridPos;
  fieldConfig?: { defaults?: { unit?: string } };
  targets?: PanelTarget[];
}

/** The dashboard's panels, rows included (a row has no targets). */
export function dashboardPanels(): Panel[] {
  return (JSON.parse(readFileSync(DASHBOARD_FILE, 'utf8')) as { panels: Panel[] }).panels;
}

/**
 * A panel expression as Prometheus itself takes it: Grafana's variables replaced by what they
 * stand for when every instance is selected and the rate window is `rateInterval`.
 */
export function plainExpr(expr: string, rateInterval = '1m'): string {
  return expr.replaceAll('$__rate_interval', rateInterval).replaceAll('$instance', '.*');
}

/** The metric names an expression reads that start with one of `prefixes`. */
export function metricNames(expr: string, prefixes: readonly string[]): string[] {
  const name = new RegExp(`\\b(?:${prefixes.join('|')})[a-zA-Z0-9_:]*`, 'g');
  return [...new Set(expr.match(name) ?? [])];
}

/** The GitHub-style anchors of a Markdown file's headings. */
export function headingAnchors(markdown: string): Set<string> {
  return new Set(
    [...markdown.matchAll(/^#+ (.+)$/gm)].map(([, text]) =>
      text
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
}
