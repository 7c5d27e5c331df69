// The floors of src/ (docs/architecture.md, "Floors"), checked by `npm run lint:layers` (part of
// `npm run lint`, so CI fails when a rule breaks). From the bottom up:
//   lib/                         shared primitives: ids, URLs and hosts, statistics
//   db/ text/ platforms/ jobs/   below the feature areas
//   core/                        the feature areas
//   operations/                  the one catalog of operations
//   web/                         request plumbing shared by the surfaces
//   http/ mcp/ console/          the surfaces
//   server/                      assembles the process
//   cli/                         the command line
// Imports point down. Type-only imports are erased at build: they may close a circle, but not
// cross a floor the wrong way.
const SURFACES = 'http|mcp|console|share';
const ABOVE_CORE = `operations|web|${SURFACES}|server|cli`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'No import cycle in src/: move the shared piece (types, a pure function) down into its own module. A type-only import may close a circle.',
      from: { path: '^src/' },
      to: { circular: true, dependencyTypesNot: ['type-only'], viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'lib-imports-only-config',
      severity: 'error',
      comment: 'src/lib is the floor below everything: it imports nothing else of src/ but config.ts.',
      from: { path: '^src/lib/' },
      to: { path: '^src/', pathNot: '^src/(lib/|config[.]ts$)' },
    },
    {
      name: 'below-core-stays-below',
      severity: 'error',
      comment: 'db, text, platforms and jobs know no business: they never import core, the catalog of operations or a surface.',
      from: { path: '^src/(db|text|platforms|jobs)/' },
      to: { path: `^src/(core|${ABOVE_CORE})/` },
    },
    {
      name: 'core-imports-no-surface',
      severity: 'error',
      comment: 'core knows no protocol: it never imports operations, web, a surface, server or cli.',
      from: { path: '^src/core/' },
      to: { path: `^src/(${ABOVE_CORE})/` },
    },
    {
      name: 'operations-import-no-surface',
      severity: 'error',
      comment: 'The catalog of operations calls core; the surfaces adapt it, never the other way.',
      from: { path: '^src/operations/' },
      to: { path: `^src/(${SURFACES}|server|cli)/` },
    },
    {
      name: 'web-imports-no-surface',
      severity: 'error',
      comment: 'web is request plumbing shared by the surfaces: it never imports one of them, server or cli.',
      from: { path: '^src/web/' },
      to: { path: `^src/(${SURFACES}|server|cli)/` },
    },
    {
      name: 'surfaces-apart',
      severity: 'error',
      comment: 'http, mcp, console and share are surfaces: none imports another (what they share goes through operations or web).',
      from: { path: `^src/(${SURFACES})/` },
      to: { path: `^src/(${SURFACES})/`, pathNot: '^src/$1/' },
    },
    {
      name: 'only-cli-starts-server',
      severity: 'error',
      comment: 'server assembles the process; only cli (and scripts, outside src/) may import it.',
      from: { path: '^src/', pathNot: '^src/(cli|server)/' },
      to: { path: '^src/server/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/console/public/' },
    // Resolve and classify imports with the TypeScript compiler: `import type` becomes
    // dependency type "type-only", which the cycle rule lets through.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
