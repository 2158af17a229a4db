// The report's inline stylesheet and its one small script (item search and filters); the charts need no script.

export const STYLE = `
:root { color-scheme: light; --fg: #1d232b; --muted: #5d6875; --line: #d9dee4; --bg-alt: #f5f7f9; --good: #1d7a3a; --bad: #b3261e; --warn: #8a5a00; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; color: var(--fg); background: #fff; }
header, main, footer { max-width: 1200px; margin: 0 auto; padding: 0 20px; }
header { padding-top: 18px; border-bottom: 1px solid var(--line); }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 30px 0 8px; padding-top: 6px; border-top: 2px solid var(--fg); }
h3 { font-size: 16px; margin: 22px 0 6px; }
h4 { font-size: 14px; margin: 16px 0 4px; }
p.meta, .note { color: var(--muted); margin: 4px 0; }
nav a { margin-right: 14px; }
table { border-collapse: collapse; margin: 6px 0 12px; }
th, td { padding: 3px 8px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { background: var(--bg-alt); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.ci { color: var(--muted); font-size: 12px; white-space: nowrap; }
.pass { color: var(--good); font-weight: 600; }
.fail { color: var(--bad); font-weight: 600; }
p.verdict { font-size: 1.15em; margin: .6em 0; }
.significant { background: #fdecea; }
.improved { background: #e8f5ec; }
figure { margin: 8px 0 16px; overflow-x: auto; }
.wide { overflow-x: auto; max-width: 100%; }
.wide table th.num { white-space: normal; min-width: 6em; }
figcaption { color: var(--muted); font-size: 12px; }
.filters { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 8px 0; position: sticky; top: 0; background: #fff; padding: 6px 0; z-index: 1; }
.filters input[type=search] { min-width: 280px; padding: 4px 6px; font: inherit; }
.filters select { font: inherit; padding: 3px; }
.count { color: var(--muted); }
table.items { width: 100%; font-size: 13px; }
table.items td { max-width: 420px; overflow-wrap: anywhere; white-space: pre-wrap; }
table.items td.id { white-space: nowrap; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; }
tr[data-verdict=correct] td.verdict { color: var(--good); }
tr[data-verdict=wrong] td.verdict { color: var(--bad); }
tr[data-verdict=missing] td.verdict { color: var(--warn); }
.label { color: var(--muted); font-size: 11px; text-transform: uppercase; letter-spacing: .03em; }
.scores { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; white-space: nowrap; }
details > summary { cursor: pointer; }
ul.ids { text-align: left; max-height: 20em; overflow: auto; margin: 4px 0; padding-left: 1.2em; font-size: 12px; white-space: normal; }
.prompt-text { white-space: pre-wrap; max-height: 24em; overflow: auto; margin-top: 4px; padding: 4px 6px; background: var(--bg-alt); font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; }
table.choices { font-size: 12px; margin: 4px 0; }
table.items table.choices td { white-space: normal; overflow-wrap: normal; word-break: normal; max-width: none; }
table.items table.choices td.num { white-space: nowrap; }
tr[data-chosen] td:first-child { font-weight: 600; }
.more-rows { margin: 6px 0; }
code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; background: var(--bg-alt); padding: 0 3px; }
footer { margin-top: 30px; padding-bottom: 30px; border-top: 1px solid var(--line); color: var(--muted); }
`;

/**
 * Search (every whitespace-separated term must occur in the row's text) and the select filters of each drill-down. The
 * rows wait as JSON (a data block); the matching ones are listed LIMIT (2,000; 500 past 5,000 rows) at a time ("List more" adds more), so a run of tens of
 * thousands of items opens and searches in about a second. A prompt's shared start is filled in when it is opened.
 */
export const SCRIPT = `
(function () {
  var sections = document.querySelectorAll('[data-drill]');
  // The rows' JSON, or its gzip in base64 (a large run), inflated by the browser's own DecompressionStream.
  function readRows(store, done) {
    if (store.getAttribute('data-encoding') !== 'gzip-base64') return done(JSON.parse(store.textContent));
    var text = atob(store.textContent.trim());
    var bytes = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text().then(function (json) { done(JSON.parse(json)); });
  }
  Array.prototype.forEach.call(sections, function (section) {
    var store = section.querySelector('script.drill-rows');
    var tbody = section.querySelector('table.items > tbody');
    if (!store || !tbody) return;
    readRows(store, function (rows) { drill(section, tbody, rows); });
  });
  function drill(section, tbody, rows) {
    // Rows listed at a time: 2,000 (a subset's whole run), 500 past 5,000 rows, where laying them out slows the opening.
    var LIMIT = rows.length > 5000 ? 500 : 2000;
    var ENTITIES = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#96;': '\u0060' };
    // The row's text as the page shows it: its markup without tags, entities decoded.
    var haystack = rows.map(function (row) {
      return row[1].replace(/<[^>]*>/g, '').replace(/&(?:amp|lt|gt|quot|#39|#96);/g, function (m) { return ENTITIES[m]; }).toLowerCase();
    });
    var search = section.querySelector('input[type=search]');
    var selects = Array.prototype.slice.call(section.querySelectorAll('select[data-filter]'));
    var count = section.querySelector('.count');
    var more = section.querySelector('.more-rows');
    var matching = [];
    var listed = 0;
    var timer = null;
    function list(upTo) {
      var markup = [];
      for (var i = listed; i < upTo && i < matching.length; i++) markup.push(rows[matching[i]][1]);
      tbody.insertAdjacentHTML('beforeend', markup.join('\\n'));
      listed = Math.min(upTo, matching.length);
      count.textContent = matching.length + ' of ' + rows.length + ' shown' + (listed < matching.length ? ' (the first ' + listed + ' listed)' : '');
      more.hidden = listed >= matching.length;
    }
    function apply() {
      var terms = search.value.toLowerCase().split(/\\s+/).filter(Boolean);
      var wanted = selects.map(function (s) { return [s.getAttribute('data-filter'), s.value]; }).filter(function (w) { return w[1]; });
      matching = [];
      for (var i = 0; i < rows.length; i++) {
        var filters = rows[i][0];
        var ok = true;
        for (var w = 0; ok && w < wanted.length; w++) ok = filters[wanted[w][0]] === wanted[w][1];
        for (var t = 0; ok && t < terms.length; t++) ok = haystack[i].indexOf(terms[t]) !== -1;
        if (ok) matching.push(i);
      }
      tbody.textContent = '';
      listed = 0;
      list(LIMIT);
      section.setAttribute('data-shown', String(matching.length));
    }
    search.addEventListener('input', function () { clearTimeout(timer); timer = setTimeout(apply, rows.length > 5000 ? 150 : 60); });
    selects.forEach(function (s) { s.addEventListener('change', apply); });
    more.querySelector('button').addEventListener('click', function () { list(listed + LIMIT); });
    apply();
  }
  document.addEventListener('toggle', function (event) {
    var details = event.target;
    if (!details.open || !details.querySelectorAll) return;
    Array.prototype.forEach.call(details.querySelectorAll('span.prompt-start:empty'), function (span) {
      var start = document.querySelector('template.prompt-start[data-start="' + span.getAttribute('data-start') + '"]');
      if (start) span.textContent = start.content.textContent;
    });
  }, true);
})();
`;
