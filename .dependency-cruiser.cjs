// dependency-cruiser's rules for vitest-lokal: every import points down the layers docs/development.md lists.

// Layers, bottom to top: a layer may import itself and the layers below it, nothing above (docs/development.md).
const LAYERS = [
  { name: 'data', path: '^src/data/' },
  { name: 'core', path: '^src/core/' },
  { name: 'metrics', path: '^src/metrics/' },
  { name: 'models', path: '^src/models/' },
  { name: 'report', path: '^src/report/' },
  { name: 'benchmarks', path: '^src/benchmarks/' },
  { name: 'run', path: '^src/run/' },
  // vitest and init sit side by side: neither imports the other.
  { name: 'vitest', path: '^src/vitest/', peers: ['init'] },
  { name: 'init', path: '^src/init/', peers: ['vitest'] },
  { name: 'cli', path: '^src/cli/' },
  // src/index.ts, the package's root entry point.
  { name: 'index', path: '^src/[^/]+\\.ts$' },
  { name: 'reporters', path: '^reporters/' },
];

const pathOf = (name) => LAYERS.find((layer) => layer.name === name).path;

// One rule a layer: its name says which layer may not import which (e.g. "data-imports-core").
const layerRules = LAYERS.flatMap((layer, index) => {
  const above = LAYERS.slice(index + 1).map((upper) => upper.name);
  const forbidden = [...above, ...(layer.peers ?? [])];
  if (forbidden.length === 0) return [];
  return [{
    name: `layer-${layer.name}`,
    comment: `src layers run one way: ${layer.name} may not import ${forbidden.join(', ')} (docs/development.md)`,
    severity: 'error',
    from: { path: layer.path },
    to: { path: forbidden.map(pathOf) },
  }];
});

// The three benchmark folders stand side by side: a piece two of them share belongs in a generic layer.
const BENCHMARKS = ['multiloko', 'kalahi', 'dataset'];
const benchmarkRules = BENCHMARKS.map((benchmark) => ({
  name: `benchmark-${benchmark}`,
  comment: `src/benchmarks/${benchmark}/ may not import another benchmark's folder (a shared piece moves down a layer)`,
  severity: 'error',
  from: { path: `^src/benchmarks/${benchmark}/` },
  to: { path: BENCHMARKS.filter((other) => other !== benchmark).map((other) => `^src/benchmarks/${other}/`) },
}));

// Inside a benchmark (MultiLoKo, Kalahi), folders by concept in one order (their READMEs): data/ < prompts/ <
// metrics/ < the root's settings.ts and resultsSchema.ts < run/ < results/ < the root's definition.ts and index.ts.
// Each level may import the levels before it, never one after it ($1: the importing file's own benchmark).
const CONCEPTS = [
  { name: 'data', path: 'data/' },
  { name: 'prompts', path: 'prompts/' },
  { name: 'metrics', path: 'metrics/' },
  { name: 'shared', path: '(settings|resultsSchema)\\.ts$' },
  { name: 'run', path: 'run/' },
  { name: 'results', path: 'results/' },
  { name: 'face', path: '(definition|index)\\.ts$' },
];
const conceptRules = CONCEPTS.slice(0, -1).map((concept, index) => {
  const after = CONCEPTS.slice(index + 1);
  return {
    name: `concept-${concept.name}`,
    comment: `inside a benchmark, ${concept.name} may not import ${after.map((later) => later.name).join(', ')} (src/benchmarks/multiloko/README.md)`,
    severity: 'error',
    from: { path: `^src/benchmarks/([^/]+)/${concept.path}` },
    to: { path: after.map((later) => `^src/benchmarks/$1/${later.path}`) },
  };
});

module.exports = {
  forbidden: [
    ...layerRules,
    ...benchmarkRules,
    ...conceptRules,
    {
      name: 'no-circular',
      comment: 'files import each other in a circle: move what they share into a file of its own',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'src-imports-tooling',
      comment: 'the shipped code may not import the tests, the bench or the scripts (they are not in the package)',
      severity: 'error',
      from: { path: '^(src|reporters)/' },
      to: { path: '^(test|bench|scripts)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    // Type-only imports count too: a type from a higher layer ties the lower one to it all the same.
    tsPreCompilationDeps: true,
    // tsConfig left out: no paths or baseUrl to resolve, and reading it lists every file of test/ and bench/ too.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['source', 'import', 'default'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    skipAnalysisNotInRules: true,
    // No list of known violations is kept: every import points down the layers, and a new upward one fails.
  },
};
