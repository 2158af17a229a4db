// Charts of the report: Vega-Lite specifications compiled with vega-lite and rendered headlessly to static SVG with
// vega's View#toSVG() (no DOM, canvas or browser), so the page shows them without running any script.
import { compile, type TopLevelSpec } from 'vega-lite';
import { parse, View } from 'vega';
import { cleanText } from './escape.ts';

/** One bar: its category (a row of the chart), an optional series (bars side by side within the row), value and interval. */
export interface BarDatum {
  row: string;
  series?: string;
  value: number;
  low?: number;
  high?: number;
}

interface BarChartOptions {
  title: string;
  /** Axis title of the values. */
  axis: string;
  /** Fixed domain of the value axis (e.g. [0, 100] for EM × 100); default: fitted, with 0. */
  domain?: [number, number];
  width?: number;
  /** Colours of the series in order (first: this run). */
  colors?: string[];
  /** Digits of the value labels. */
  digits?: number;
  /** Short text for screen readers. */
  description: string;
}

const PALETTE = ['#3b6ea8', '#b9b9b9', '#d08c3c', '#5b9f6a', '#8f6bb3', '#c4574f'];

/** A horizontal bar chart with the interval of every bar as a rule, its value as a label. */
export function barChartSpec(data: readonly BarDatum[], options: BarChartOptions): TopLevelSpec {
  const series = [...new Set(data.map((d) => cleanText(d.series ?? '')))];
  const grouped = series.length > 1 || series[0] !== '';
  const rows = [...new Set(data.map((d) => cleanText(d.row)))];
  const values = data.map((d) => ({ row: cleanText(d.row), series: cleanText(d.series ?? ''), value: d.value, low: d.low ?? d.value, high: d.high ?? d.value }));
  const digits = options.digits ?? 1;
  const y = { field: 'row', type: 'nominal' as const, sort: rows, title: null, axis: { labelLimit: 200 } };
  const yOffset = grouped ? { yOffset: { field: 'series', type: 'nominal' as const, sort: series } } : {};
  const x = { type: 'quantitative' as const, title: options.axis, ...(options.domain ? { scale: { domain: options.domain, nice: false } } : { scale: { zero: true } }) };
  const color = grouped
    ? { color: { field: 'series', type: 'nominal' as const, sort: series, title: null, scale: { domain: series, range: (options.colors ?? PALETTE).slice(0, series.length) }, legend: { orient: 'top' as const, labelLimit: 320, columns: Math.min(series.length, 4) } } }
    : { color: { value: (options.colors ?? PALETTE)[0]! } };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    description: cleanText(options.description),
    title: { text: cleanText(options.title), anchor: 'start', fontSize: 13 },
    width: options.width ?? 520,
    height: { step: grouped ? 12 : 20 },
    data: { values },
    encoding: { y, ...yOffset },
    layer: [
      { mark: { type: 'bar', height: { band: 0.8 } }, encoding: { x: { ...x, field: 'value' }, ...color } },
      { mark: { type: 'rule', color: '#222', strokeWidth: 1.2 }, encoding: { x: { field: 'low', type: 'quantitative' }, x2: { field: 'high' } } },
      {
        mark: { type: 'text', align: 'left', dx: 4, fontSize: 10, color: '#333' },
        encoding: { x: { field: 'high', type: 'quantitative' }, text: { field: 'value', type: 'quantitative', format: `.${digits}f` } },
      },
    ],
    config: { font: 'sans-serif', view: { stroke: null }, axis: { labelFontSize: 11, titleFontSize: 11 }, background: 'white' },
  } as TopLevelSpec;
}

/** Elements a chart may hold: shapes, text and clip paths, nothing that loads or runs anything. */
const ALLOWED_TAGS = new Set(['svg', 'g', 'path', 'rect', 'line', 'circle', 'text', 'tspan', 'title', 'desc', 'defs', 'clipPath']);
const TAG = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/gu;
const ATTRIBUTE = /([\w:-]+)="([^"<]*)"/gu;

/**
 * Why an SVG string is unfit to inline, or undefined: every tag must be an allowed element whose attributes neither
 * handle events, link (href, src) nor point outside the document (url() other than #id); all other `<` must be escaped.
 */
export function unsafeSvg(svg: string): string | undefined {
  for (const [, , name, attributes] of svg.matchAll(TAG)) {
    if (!ALLOWED_TAGS.has(name!)) return `element <${name}>`;
    for (const [, attribute, value] of attributes!.matchAll(ATTRIBUTE)) {
      const a = attribute!.toLowerCase();
      if (a.startsWith('on') || a === 'href' || a.endsWith(':href') || a === 'src' || a === 'style') return `attribute ${attribute}`;
      if (/url\(\s*(?!#)/iu.test(value!)) return `${attribute}="${value}"`;
    }
  }
  if (svg.replace(TAG, '').includes('<')) return 'markup outside the allowed elements';
  return undefined;
}

// Charts rendered in this process, for their ids' prefix: one count per process, as a section's charts may be rendered
// by another copy of this module than the shell's (section.ts) and two charts of a page must never share an id.
const CHARTS = Symbol.for('vitest-lokal.charts');
const rendered = globalThis as { [CHARTS]?: number };

/**
 * Renders a Vega-Lite spec to an SVG string fit to be inlined in HTML: the namespace declarations (which only name the
 * SVG namespace; inline SVG does not need them) are dropped, element ids get a per-chart prefix so several charts
 * never share a clip path, and anything that could load or run something makes it throw.
 */
export async function renderChart(spec: TopLevelSpec): Promise<string> {
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  let svg: string;
  try {
    svg = await view.toSVG();
  } finally {
    view.finalize();
  }
  const prefix = `c${(rendered[CHARTS] = (rendered[CHARTS] ?? 0) + 1)}-`;
  svg = svg
    .replace(/\s+xmlns(?::xlink)?="[^"]*"/gu, '')
    .replace(/\bid="([^"]+)"/gu, (_, id: string) => `id="${prefix}${id}"`)
    .replace(/url\(#([^)]+)\)/gu, (_, id: string) => `url(#${prefix}${id})`);
  const bad = unsafeSvg(svg);
  if (bad) throw new Error(`chart SVG holds what the report does not allow: ${bad}`);
  return svg;
}

/** An inline chart as a standalone SVG document (what an <img> or a .svg file needs: the namespace declaration). */
export function standaloneSvg(svg: string): string {
  return svg.replace(/^<svg\b/u, '<svg xmlns="http://www.w3.org/2000/svg"');
}
