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
code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; background: var(--bg-alt); padding: 0 3px; }
footer { margin-top: 30px; padding-bottom: 30px; border-top: 1px solid var(--line); color: var(--muted); }
`;

/** Search (every whitespace-separated term must occur in the row's text) and the select filters of each drill-down. */
export const SCRIPT = `
(function () {
  var sections = document.querySelectorAll('[data-drill]');
  Array.prototype.forEach.call(sections, function (section) {
    var rows = Array.prototype.slice.call(section.querySelectorAll('tbody tr'));
    var haystack = rows.map(function (row) { return row.textContent.toLowerCase(); });
    var search = section.querySelector('input[type=search]');
    var selects = Array.prototype.slice.call(section.querySelectorAll('select[data-filter]'));
    var count = section.querySelector('.count');
    var timer = null;
    function apply() {
      var terms = search.value.toLowerCase().split(/\\s+/).filter(Boolean);
      var wanted = selects.map(function (s) { return [s.getAttribute('data-filter'), s.value]; });
      var shown = 0;
      rows.forEach(function (row, i) {
        var ok = wanted.every(function (w) { return !w[1] || row.getAttribute('data-' + w[0]) === w[1]; }) &&
          terms.every(function (t) { return haystack[i].indexOf(t) !== -1; });
        row.hidden = !ok;
        if (ok) shown++;
      });
      count.textContent = shown + ' of ' + rows.length + ' shown';
      section.setAttribute('data-shown', String(shown));
    }
    search.addEventListener('input', function () { clearTimeout(timer); timer = setTimeout(apply, rows.length > 5000 ? 200 : 60); });
    selects.forEach(function (s) { s.addEventListener('change', apply); });
    apply();
  });
})();
`;
