// The ONNX runtime is an optional peer: package.json declares @huggingface/transformers and onnxruntime-node as
// optional peers (and devDependencies for this repository's tests), nothing a replay or server run loads imports
// them statically, and a missing one is one line with the install command.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { afterAll, describe, expect, test } from 'vitest';
import { LLAMA_PEER, loadOptionalPeer, missingPeerPackage, peerInstallCommand, TRANSFORMERS_PEER } from '../../src/models/optionalPeer.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const manifest = (await import('../../package.json', { with: { type: 'json' } })).default as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  exports: Record<string, { source: string }>;
};
const RUNTIME = ['@huggingface/transformers', 'onnxruntime-node'];
const dir = mkdtempSync(path.join(tmpdir(), 'lokal-optional-peer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('package.json', () => {
  test('the runtime is an optional peer at the version this repository tests with, and no dependency', () => {
    for (const name of RUNTIME) {
      expect(manifest.dependencies, name).not.toHaveProperty(name);
      expect(manifest.peerDependencies[name], name).toBe(manifest.devDependencies[name]);
      expect(manifest.peerDependenciesMeta[name], name).toEqual({ optional: true });
    }
    // The install command the message prints names the same versions.
    expect(TRANSFORMERS_PEER.packages).toEqual(Object.fromEntries(RUNTIME.map((name) => [name, manifest.peerDependencies[name]])));
  });

  test('node-llama-cpp (llama: models) likewise, installed without its download step', () => {
    expect(manifest.dependencies).not.toHaveProperty('node-llama-cpp');
    expect(manifest.peerDependencies['node-llama-cpp']).toBe(manifest.devDependencies['node-llama-cpp']);
    expect(manifest.peerDependenciesMeta['node-llama-cpp']).toEqual({ optional: true });
    expect(LLAMA_PEER.packages).toEqual({ 'node-llama-cpp': manifest.peerDependencies['node-llama-cpp'] });
    expect(peerInstallCommand(LLAMA_PEER)).toBe(`NODE_LLAMA_CPP_SKIP_DOWNLOAD=true npm install --save-dev node-llama-cpp@${manifest.devDependencies['node-llama-cpp']}`);
  });
});

describe('loadOptionalPeer', () => {
  test('a module importing a peer that is not installed: one line naming what needs it and the install command', async () => {
    // A folder with no node_modules above it that holds the package: Node's resolver cannot find it.
    const isolated = path.join(dir, 'isolated');
    mkdirSync(isolated);
    const module = path.join(isolated, 'usesTransformers.mjs');
    writeFileSync(module, "import { AutoTokenizer } from '@huggingface/transformers';\nexport const loaded = typeof AutoTokenizer;\n");
    // In plain Node (through tsx for the TypeScript source): Vitest's own resolver would find this checkout's copy.
    const script = [
      `const { loadOptionalPeer, TRANSFORMERS_PEER } = await import(${JSON.stringify(pathToFileURL(path.join(root, 'src/models/optionalPeer.ts')).href)});`,
      `const error = await loadOptionalPeer(TRANSFORMERS_PEER, () => import(${JSON.stringify(pathToFileURL(module).href)})).catch((e) => e);`,
      'process.stdout.write(JSON.stringify({ name: error.name, message: error.message }));',
    ].join('\n');
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    expect(child.status, child.stderr).toBe(0);
    const error = JSON.parse(child.stdout) as { name: string; message: string };
    expect(error.name).toBe('MissingPeerError');
    expect(error.message).toBe(
      'transformers: models and the BERTScore/BLEURT metrics need @huggingface/transformers and onnxruntime-node, optional ' +
        'dependencies that are not installed (@huggingface/transformers is missing); install them with: ' +
        `ONNXRUNTIME_NODE_INSTALL=skip npm install --save-dev @huggingface/transformers@${manifest.peerDependencies['@huggingface/transformers']} onnxruntime-node@${manifest.peerDependencies['onnxruntime-node']}`,
    );
    expect(error.message).not.toContain('\n');
  });

  test('other failures pass unchanged; an installed peer loads', async () => {
    const other = new Error("Cannot find module './typo.ts' imported from x");
    await expect(loadOptionalPeer(TRANSFORMERS_PEER, () => Promise.reject(other))).rejects.toBe(other);
    expect(missingPeerPackage(new Error("Cannot find package 'onnxruntime-node' imported from /a/b.js"), TRANSFORMERS_PEER)).toBe('onnxruntime-node');
    expect(missingPeerPackage(new Error("Cannot find package '@huggingface/transformers-extra' imported from /a"), TRANSFORMERS_PEER)).toBeUndefined();
    const { AutoTokenizer } = await loadOptionalPeer(TRANSFORMERS_PEER, () => import('@huggingface/transformers'));
    expect(typeof AutoTokenizer).toBe('function');
  });
});

test('no entry point a replay or server run loads reaches the runtime through static imports', async () => {
  // Every export of the package and each command of the CLI, resolved as esbuild bundles them (packages external).
  const entries = [...Object.values(manifest.exports).map((e) => e.source), 'src/cli/index.ts', 'src/cli/score.ts', 'src/cli/kalahi.ts', 'src/cli/data.ts', 'src/cli/compare.ts'];
  const result = await build({ absWorkingDir: root, entryPoints: entries, bundle: true, write: false, metafile: true, platform: 'node', format: 'esm', packages: 'external', outdir: path.join(dir, 'out'), splitting: true, logLevel: 'silent' });
  const inputs: Metafile['inputs'] = result.metafile.inputs;
  const reached: string[] = [];
  for (const entry of entries) {
    // Walk import statements only: a dynamic import() loads on use.
    const from = new Map<string, string | undefined>([[entry, undefined]]);
    const stack = [entry];
    while (stack.length > 0) {
      const file = stack.pop()!;
      for (const edge of inputs[file]?.imports ?? []) {
        if (edge.kind !== 'import-statement') continue;
        if (edge.external) {
          if (RUNTIME.some((name) => edge.path === name || edge.path.startsWith(`${name}/`))) {
            const chain = [file];
            while (from.get(chain[0]!)) chain.unshift(from.get(chain[0]!)!);
            reached.push(`${chain.join(' → ')} → ${edge.path}`);
          }
        } else if (!from.has(edge.path)) {
          from.set(edge.path, file);
          stack.push(edge.path);
        }
      }
    }
  }
  // Sanity: the walk sees the modules that do import the runtime (so an empty list means something).
  expect(Object.keys(inputs).some((f) => f.endsWith('src/models/transformers.ts'))).toBe(true);
  expect(inputs['src/models/transformers.ts']!.imports.some((i) => i.path === '@huggingface/transformers' && i.kind === 'import-statement')).toBe(true);
  expect(reached).toEqual([]);
});
