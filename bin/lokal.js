#!/usr/bin/env node
// The `lokal` command. Installed from npm it runs the compiled CLI in dist/. In a checkout of the repository
// (src/ beside bin/, which the package does not ship) it runs dist/ only when `npm run build` finished after the
// last change to src/ and reporters/; otherwise it runs the TypeScript sources through tsx (a devDependency), so a
// checkout needs no build and an edit never runs stale code.
// node:fs through getBuiltinModule (Node >= 20.16) where there is one: importing it as an ES module makes Node load its
// whole streams stack at start-up.
const { existsSync, readdirSync, readFileSync, statSync } = process.getBuiltinModule?.('node:fs') ?? (await import('node:fs'));

const root = new URL('../', import.meta.url);
// The CLI as bundled by npm run build (dist/cli/: one file per command rather than dist/src/'s many modules).
const compiled = new URL('dist/cli/index.js', root);
const source = new URL('src/cli/index.ts', root);

/**
 * Latest modification time (ms) of any entry under the folder `dir` (a path ending in /), directories included (a
 * deletion touches its folder). Plain path strings: a URL per entry costs more than the stat.
 */
function newest(dir) {
  let latest = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const child = dir + entry.name;
    latest = Math.max(latest, entry.isDirectory() ? newest(`${child}/`) : statSync(child).mtimeMs);
  }
  return latest;
}

/** In a checkout: did the last build start after every change to the sources? (dist/.build holds its start time.) */
function buildIsCurrent() {
  const stamp = new URL('dist/.build', root);
  if (!existsSync(stamp) || !existsSync(compiled)) return false;
  const started = Number(readFileSync(stamp, 'utf8'));
  const rootPath = decodeURIComponent(root.pathname);
  return ['src/', 'reporters/'].every((dir) => newest(rootPath + dir) < started);
}

let entry = compiled;
if (existsSync(source) && !buildIsCurrent()) {
  const { register } = await import('tsx/esm/api');
  register();
  entry = source;
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
