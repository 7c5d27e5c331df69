#!/usr/bin/env node
// The `sightline` bin: runs the compiled JavaScript in dist/ when it is fresh, rebuilding it when
// the sources are newer, else the TypeScript through tsx (bin/dist.js says when).
import { cliEntry } from './dist.js';

await import(await cliEntry());
