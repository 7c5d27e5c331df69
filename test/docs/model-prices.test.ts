// What the docs and the run tools say a default model costs is the shipped catalog's range
// (catalog/models.json), not the bound the catalog loader allows (1 to 6 credits).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadCatalog } from '../../src/core/visibility/catalog.ts';
import { RUN_COST } from '../../src/operations/visibility/shapes.ts';

test("the run tools and docs/api.md state the shipped catalog's default-model price range", () => {
  const prices = [...loadCatalog().values()].map((p) => p.models.find((m) => m.id === p.roles.default)!.price / 100);
  const [lo, hi] = [Math.min(...prices), Math.max(...prices)];
  assert.ok(RUN_COST.includes(`default models cost ${lo} to ${hi} credits`), RUN_COST);
  const api = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  assert.ok(api.includes(`defaults ${lo}–${hi})`), 'docs/api.md states the default range');
});
