// `npm run docs:generate`: the pages of docs/ whose truth is the code: configuration.md from the
// config schema, errors.md from the error registry. test/docs/generated-docs.test.ts fails while
// a committed page differs from what this writes.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GENERATED_DOCS } from './docs/index.ts';

for (const [file, render] of GENERATED_DOCS) {
  const out = fileURLToPath(new URL(`../${file}`, import.meta.url));
  writeFileSync(out, render());
  console.log(`wrote ${out}`);
}
