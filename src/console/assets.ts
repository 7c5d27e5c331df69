// The console's static files: its own modules under src/console/public, and the few libraries it
// imports (Preact, htm, uPlot, marked) straight from node_modules, as they are published. No build step:
// every file is read once at start, gzipped once, and served with an ETag. The page's one inline
// script, the import map that names the libraries, is allowed by its hash in the CSP.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { namesModule } from '../platforms/names.ts';

export interface Asset {
  body: Buffer;
  gzip: Buffer;
  type: string;
  etag: string;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.html': 'text/html; charset=utf-8',
};

const require = createRequire(import.meta.url);
const PUBLIC_DIR = fileURLToPath(new URL('./public/', import.meta.url));

/** Library files served under /console/assets/vendor/, by the name the import map gives them. */
const VENDOR: Record<string, () => string> = {
  'preact.mjs': () => join(dirname(require.resolve('preact')), 'preact.module.js'),
  'hooks.mjs': () => join(dirname(require.resolve('preact/hooks')), 'hooks.module.js'),
  'htm.mjs': () => join(dirname(require.resolve('htm')), 'htm.module.js'),
  'uplot.mjs': () => join(dirname(require.resolve('uplot')), 'uPlot.esm.js'),
  'uplot.css': () => join(dirname(require.resolve('uplot')), 'uPlot.min.css'),
  'marked.mjs': () => require.resolve('marked'),
};

export const IMPORT_MAP = JSON.stringify({
  imports: {
    preact: '/console/assets/vendor/preact.mjs',
    'preact/hooks': '/console/assets/vendor/hooks.mjs',
    htm: '/console/assets/vendor/htm.mjs',
    uplot: '/console/assets/vendor/uplot.mjs',
    marked: '/console/assets/vendor/marked.mjs',
  },
});

function asset(body: Buffer, name: string): Asset {
  // Source maps are not served; the reference would only make the browser ask for them.
  const text = name.endsWith('js') ? Buffer.from(body.toString('utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n')) : body;
  return { body: text, gzip: gzipSync(text, { level: 9 }), type: TYPES[extname(name)] ?? 'application/octet-stream', etag: `"${createHash('sha256').update(text).digest('base64url').slice(0, 22)}"` };
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** Every asset by its path under /console/assets/, plus the page shell. */
export function loadAssets(): { assets: Map<string, Asset>; shell: Asset; scriptHash: string } {
  const assets = new Map<string, Asset>();
  for (const path of walk(PUBLIC_DIR)) {
    const rel = relative(PUBLIC_DIR, path).split('\\').join('/');
    if (rel === 'index.html') continue;
    assets.set(rel, asset(readFileSync(path), rel));
  }
  for (const [name, locate] of Object.entries(VENDOR)) assets.set(`vendor/${name}`, asset(readFileSync(locate()), name));
  // The display names of platforms and assistants, from the server's one table (no copy on disk).
  assets.set('js/names.js', asset(Buffer.from(namesModule()), 'names.js'));
  const html = readFileSync(join(PUBLIC_DIR, 'index.html'), 'utf8').replace('%IMPORT_MAP%', IMPORT_MAP);
  const scriptHash = `'sha256-${createHash('sha256').update(IMPORT_MAP).digest('base64')}'`;
  return { assets, shell: asset(Buffer.from(html), 'index.html'), scriptHash };
}
