#!/usr/bin/env node
// The `sightline` bin: runs the TypeScript CLI through tsx so the checkout needs no build step.
import { register } from 'tsx/esm/api';
import { fileURLToPath } from 'node:url';
register();
await import(fileURLToPath(new URL('../src/cli/main.ts', import.meta.url)));
