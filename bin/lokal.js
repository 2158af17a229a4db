#!/usr/bin/env node
// Runs the TypeScript CLI through tsx so the package needs no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/index.ts');
process.exitCode = await main(process.argv.slice(2));
