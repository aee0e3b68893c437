// The 30-day authorization chart of the Overview tab: a bar chart drawn as inline SVG (no chart
// library). Presentation comes from style.css classes; only geometry is set here. Dates and
// figures are written in the page's language.
import { el, formatNumber, locale, t } from './core.js';

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 960;
const HEIGHT = 220;
const PAD = { top: 12, right: 20, bottom: 28, left: 40 };

// The days are UTC dates (YYYY-MM-DD): written in UTC, so no time zone moves them.
const dayFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
const axisFormat = new Intl.DateTimeFormat(locale, {
  month: 'numeric',
  day: 'numeric',
  timeZone: 'UTC',
});
const utcDay = (date) => new Date(`${date}T00:00:00Z`);

function svg(tag, attributes = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The smallest 1, 2 or 5 × 10^n step that fits `max` in about four grid lines. */
function gridStep(max) {
  if (max <= 4) return 1;
  const raw = max / 4;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((f) => f * magnitude).find((step) => step >= raw);
}

/** `daily`: [{date: 'YYYY-MM-DD', count}], most recent first (docs/contract/stats.md#fields). */
export function authorizationChart(daily) {
  const days = [...daily].reverse();
  const total = days.reduce((sum, day) => sum + day.count, 0);
  const max = Math.max(0, ...days.map((day) => day.count));
  const step = gridStep(max);
  const top = Math.max(step, Math.ceil(max / step) * step);
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(days.length, 1);
  const y = (value) => PAD.top + plotH - (value / top) * plotH;

  const chart = svg('svg', {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    role: 'img',
    'aria-labelledby': 'chart-svg-title chart-svg-desc',
    id: 'auth-chart',
  });
  chart.append(
    svg('title', { id: 'chart-svg-title' }, t('console.overview.chart.title')),
    svg(
      'desc',
      { id: 'chart-svg-desc' },
      days.length > 0
        ? t('console.overview.chart.summary', {
            total,
            first: dayFormat.format(utcDay(days[0].date)),
            last: dayFormat.format(utcDay(days[days.length - 1].date)),
            max: formatNumber(max),
          })
        : t('console.overview.chart.noData'),
    ),
  );
  for (let value = 0; value <= top; value += step) {
    chart.append(
      svg('line', {
        class: 'grid',
        x1: PAD.left,
        x2: WIDTH - PAD.right,
        y1: y(value),
        y2: y(value),
      }),
      svg(
        'text',
        { class: 'axis', x: PAD.left - 6, y: y(value) + 4, 'text-anchor': 'end' },
        formatNumber(value),
      ),
    );
  }
  days.forEach((day, i) => {
    const x = PAD.left + i * slot;
    const height = (day.count / top) * plotH;
    const bar = svg('rect', {
      class: 'bar',
      x: x + slot * 0.15,
      y: y(day.count),
      width: slot * 0.7,
      // A zero day still shows a hairline, so the axis reads as 30 days.
      height: Math.max(height, day.count > 0 ? 1 : 0.5),
      'data-date': day.date,
      'data-count': day.count,
    });
    bar.append(
      svg(
        'title',
        {},
        t('console.overview.chart.bar', {
          date: dayFormat.format(utcDay(day.date)),
          count: formatNumber(day.count),
        }),
      ),
    );
    chart.append(bar);
    // A date under every fifth bar, counted from the most recent day.
    if ((days.length - 1 - i) % 5 === 0) {
      chart.append(
        svg(
          'text',
          { class: 'axis', x: x + slot / 2, y: HEIGHT - 8, 'text-anchor': 'middle' },
          axisFormat.format(utcDay(day.date)),
        ),
      );
    }
  });
  return el('div', {}, chart);
}
