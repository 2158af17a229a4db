// The rows of a report's drill-down as the page's script receives them: the JSON data block of the section
// (`#multiloko-items`, `#kalahi-items`), each row its filter values and its markup.
import { gunzipSync } from 'node:zlib';

export interface DrillRowJson {
  filters: Record<string, string>;
  html: string;
}

export function drillRowsOf(page: string, section: string): DrillRowJson[] {
  const start = page.indexOf(`id="${section}"`);
  if (start === -1) throw new Error(`the report has no section ${section}`);
  const block = /<script type="application\/(json|octet-stream)" class="drill-rows"(?: data-encoding="gzip-base64")?>([\s\S]*?)<\/script>/u.exec(page.slice(start));
  if (!block) throw new Error(`section ${section} has no rows data block`);
  // A large run's rows are gzip in base64 (zlib here, the browser's DecompressionStream on the page).
  const json = block[1] === 'json' ? block[2]! : gunzipSync(Buffer.from(block[2]!, 'base64')).toString('utf8');
  return (JSON.parse(json) as Array<[Record<string, string>, string]>).map(([filters, html]) => ({ filters, html }));
}
