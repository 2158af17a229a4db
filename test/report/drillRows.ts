// The rows of a report's drill-down as the page's script receives them: the JSON data block of the section
// (`#multiloko-items`, `#kalahi-items`), each row its filter values and its markup.
export interface DrillRowJson {
  filters: Record<string, string>;
  html: string;
}

export function drillRowsOf(page: string, section: string): DrillRowJson[] {
  const start = page.indexOf(`id="${section}"`);
  if (start === -1) throw new Error(`the report has no section ${section}`);
  const block = /<script type="application\/json" class="drill-rows">([\s\S]*?)<\/script>/u.exec(page.slice(start));
  if (!block) throw new Error(`section ${section} has no rows data block`);
  return (JSON.parse(block[1]!) as Array<[Record<string, string>, string]>).map(([filters, html]) => ({ filters, html }));
}
