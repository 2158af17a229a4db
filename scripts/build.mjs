#!/usr/bin/env node
// npm run build: compiles src/ and reporters/ into dist/ (tsconfig.build.json: JavaScript + declarations, relative
// `.ts` imports emitted as `.js`), then copies every non-TypeScript file of src/ and reporters/ beside its module,
// since modules read their data files (prompt table, Punkt parameters) by `new URL('./…', import.meta.url)`.
// The new tree is built in a scratch folder and swapped in at the end, so a failed build leaves the old dist/ as
// it was. dist/.build holds the time the build started (ms since the epoch): bin/lokal.js, in a checkout, runs dist/
// only when no source changed since.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const scratch = path.join(root, `.dist-build-${process.pid}`);
const SOURCE_DIRS = ['src', 'reporters'];

/** Files under `dir` (relative paths), depth first, in name order. */
function walk(dir, base = dir) {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return walk(full, base);
      return entry.isFile() ? [path.relative(base, full)] : [];
    });
}

function fail(message) {
  rmSync(scratch, { recursive: true, force: true });
  process.stderr.write(`build: ${message}\n`);
  process.exit(1);
}

const started = Date.now();
rmSync(scratch, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json'), '--outDir', scratch], {
  cwd: root,
  stdio: 'inherit',
});
if (compiled.status !== 0) fail(`tsc -p tsconfig.build.json failed (exit ${compiled.status ?? compiled.signal})`);

let assets = 0;
for (const dir of SOURCE_DIRS) {
  for (const file of walk(path.join(root, dir))) {
    if (/\.[cm]?ts$/.test(file)) continue;
    cpSync(path.join(root, dir, file), path.join(scratch, dir, file));
    assets++;
  }
}
for (const dir of SOURCE_DIRS) {
  if (!existsSync(path.join(scratch, dir))) fail(`tsc wrote no ${dir}/ (is rootDir "." in tsconfig.build.json?)`);
}
// A module outside src/ and reporters/ (say test/support) compiled in means a shipped module imports it: the package
// (files: dist/src, dist/reporters) would lack it at run time.
const strays = readdirSync(scratch).filter((name) => !SOURCE_DIRS.includes(name));
if (strays.length) {
  const files = strays.flatMap((name) => (statSync(path.join(scratch, name)).isDirectory() ? walk(path.join(scratch, name)).map((f) => path.join(name, f)) : [name]));
  fail(`modules outside ${SOURCE_DIRS.join('/ and ')}/ are imported by shipped code and would be missing from the package: ${files.join(', ')}`);
}

// The `lokal` command as one file per command (dist/cli/index.js, score.js, kalahi.js, data.js, compare.js, doctor.js, init.js;
// scoreWorker.js, the worker threads of score), each holding
// everything it imports statically: `lokal score` then has Node read and link three files (index, score, and the
// fastest-levenshtein package) instead of the sixty-odd modules of dist/src/, a tenth of its run time. A dynamic
// import in the sources marks what loads only on use: between commands it names the command's file, anywhere else
// (the archive reader, zod's validating parsers, the CSV reader, the HTML report) the module in dist/src/. Packages
// stay external, and a module that finds its data by import.meta.url (Punkt, WordNet, the prompt table) is imported
// from dist/src/, beside those files. (A command's file and dist/src/ may each hold a copy of a module: the CLI tells
// errors apart by name, not instanceof.)
const { build } = await import('esbuild');
const cliSource = path.join(scratch, 'src', 'cli');
const cliOut = path.join(scratch, 'cli');
const CLI_ENTRIES = ['index', 'score', 'scoreWorker', 'kalahi', 'data', 'compare', 'doctor', 'init'].map((name) => path.join(cliSource, `${name}.js`));
const inDistSrc = (file) => ({ path: path.relative(cliOut, file).split(path.sep).join('/').replace(/^(?!\.)/, './'), external: true });
const loadOnUse = { name: 'commands-and-load-on-use', setup(b) {
  b.onResolve({ filter: /^\./ }, (args) => {
    const file = path.resolve(args.resolveDir, args.path);
    if (args.kind === 'dynamic-import') return CLI_ENTRIES.includes(file) ? { path: `./${path.basename(file)}`, external: true } : inDistSrc(file);
    if (existsSync(file) && /\bimport\.meta\.url\b/.test(readFileSync(file, 'utf8'))) return inDistSrc(file);
    return undefined;
  });
} };
for (const entry of CLI_ENTRIES) if (!existsSync(entry)) fail(`the CLI entry ${path.relative(scratch, entry)} was not compiled`);
await build({
  entryPoints: CLI_ENTRIES,
  outdir: cliOut,
  bundle: true,
  splitting: false,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  plugins: [loadOnUse],
  logLevel: 'warning',
}).catch((error) => fail(`esbuild of the CLI failed: ${error.message}`));

writeFileSync(path.join(scratch, '.build'), `${started}\n`);

const old = `${dist}.old-${process.pid}`;
if (existsSync(dist)) renameSync(dist, old);
renameSync(scratch, dist);
rmSync(old, { recursive: true, force: true });
const modules = walk(dist).filter((f) => f.endsWith('.js')).length;
process.stderr.write(`build: dist/ with ${modules} modules and ${assets} data files (${Date.now() - started} ms)\n`);
