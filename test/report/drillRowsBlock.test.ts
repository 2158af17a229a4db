// The drill-down's data block, plain and compressed: its JSON is, byte for byte, the rows' JSON made the plain way
// (JSON.stringify of each [filters, markup], `<` in filters as \u003c, `</` and `<!--` in markup escaped), it parses back
// to the rows given (filter values with controls shown as Control Pictures), and nothing in it can end the block.
import { gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { COMPRESSED_ROWS_ABOVE, drillRows, type DrillRow } from '../../src/report/drill.ts';

/** The block's JSON the plain way: the whole text joined, then escaped with regular expressions. */
function plainJson(rows: readonly DrillRow[], shown: (value: string) => string): string {
  const row = (r: DrillRow) => {
    const filters = Object.fromEntries(Object.entries(r.filters).map(([name, value]) => [name, shown(value)]));
    return `[${JSON.stringify(filters).replace(/</gu, '\\u003c')},${JSON.stringify(r.html).replace(/<\//gu, '<\\/').replace(/<!--/gu, '<\\u0021--')}]`;
  };
  return `[${rows.map(row).join(',\n')}]`;
}

/** Control Pictures for the two controls the rows below hold (BEL, ESC): what the page's filter options show. */
const shown = (value: string) => value.replace(/\u0007/gu, '\u2407').replace(/\u001b/gu, '\u241b');

function rowsOf(count: number, filler: string): DrillRow[] {
  return Array.from({ length: count }, (_, i) => ({
    filters: { subset: i % 3 ? `italian_translated_human_english` : `sub<set>\u0007${i % 7}`, verdict: i % 2 ? 'wrong' : 'correct', ...(i % 5 ? {} : { error: 'near\u001b' }) },
    html: `<tr data-subset="s${i}"><td>${filler}</td><td>✓ correct · 東京 → </script><!-- ${i}</td></tr>`,
  }));
}

function blockOf(page: string): { type: string; body: string } {
  const match = /<script type="application\/(json|octet-stream)" class="drill-rows"(?: data-encoding="gzip-base64")?>([\s\S]*?)<\/script>/u.exec(page);
  if (!match) throw new Error('no data block');
  return { type: match[1]!, body: match[2]! };
}

describe('drill-down data block', () => {
  test('below the threshold: plain JSON equal to the plain way, parsing back to the rows', () => {
    const rows = rowsOf(50, 'a cell');
    const block = blockOf(drillRows(rows).value);
    expect(block.type).toBe('json');
    expect(block.body).toBe(plainJson(rows, shown));
    expect(block.body).not.toMatch(/<\/|<!--/u);
    const parsed = JSON.parse(block.body) as Array<[Record<string, string>, string]>;
    expect(parsed.map(([, html]) => html)).toEqual(rows.map((r) => r.html));
    expect(parsed[0]![0]).toEqual({ subset: 'sub<set>\u24070', verdict: 'correct', error: 'near\u241b' });
    expect(parsed[1]![0]).toEqual({ subset: 'italian_translated_human_english', verdict: 'wrong' });
  });

  test('past the threshold: gzip of the same UTF-8 bytes, and an empty list is []', () => {
    // 400 rows of some 11,000 characters: past the 4 MiB of JSON.
    const rows = rowsOf(400, 'x'.repeat(11_000));
    const json = plainJson(rows, shown);
    expect(json.length).toBeGreaterThan(COMPRESSED_ROWS_ABOVE);
    const block = blockOf(drillRows(rows).value);
    expect(block.type).toBe('octet-stream');
    const bytes = gunzipSync(Buffer.from(block.body, 'base64'));
    expect(bytes.equals(Buffer.from(json, 'utf8'))).toBe(true);
    expect(blockOf(drillRows([]).value)).toEqual({ type: 'json', body: '[]' });
  });
});
