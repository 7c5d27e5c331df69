// `node --import ./scripts/ts-register.mjs`: registers scripts/ts-hooks.mjs, the lean TypeScript
// loader of the test suite, and maps stack traces back to the `.ts` lines (as tsx does).
import { register } from 'node:module';

process.setSourceMapsEnabled(true);
register('./ts-hooks.mjs', import.meta.url);
