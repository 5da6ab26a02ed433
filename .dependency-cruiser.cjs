// The module graph's rules, run by `npm run lint` (docs/decisions/2026-12-07-module-graph-lint.md).
// eslint's import-x/no-cycle follows files; a cycle between two server modules (a file of orders
// importing batches while a file of batches imports orders) passes it. These rules see the
// modules as folders, and the layers ARCHITECTURE.md draws. The file-level rules that were
// already in eslint (a module through its index.ts; lib/db/http/domain never import modules;
// the console's features, components and lib) stay there.
const server = '^apps/server/src/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-module-cycle',
      scope: 'folder',
      severity: 'error',
      comment:
        'Two server modules import each other (through any of their files): move what both need down to domain/, lib/ or db/.',
      from: { path: `${server}modules/[^/]+$` },
      to: { path: `${server}modules/[^/]+$`, circular: true },
    },
    {
      name: 'db-is-the-floor',
      severity: 'error',
      comment: 'db/ is the lowest layer: it reads config.ts and nothing else of the server.',
      from: { path: `${server}db/` },
      to: { path: `${server}(lib|domain|http|modules|seed|cli)/|${server}(app|start|server)\\.ts$` },
    },
    {
      name: 'lib-below-domain-and-http',
      severity: 'error',
      comment: 'lib/ is shared by domain/, http/ and the modules: it uses db/ and config.ts only.',
      from: { path: `${server}lib/` },
      to: { path: `${server}(domain|http|modules|seed|cli)/|${server}(app|start|server)\\.ts$` },
    },
    {
      name: 'domain-below-http-and-modules',
      severity: 'error',
      comment: 'domain/ holds the order rules the modules share: it uses lib/ and db/, never HTTP or a module.',
      from: { path: `${server}domain/` },
      to: { path: `${server}(http|modules|seed|cli)/|${server}(app|start|server)\\.ts$` },
    },
    {
      name: 'http-below-modules',
      severity: 'error',
      comment: 'http/ turns contract calls into routes for every module: it knows no module and no order rule.',
      from: { path: `${server}http/` },
      to: { path: `${server}(domain|modules|seed|cli)/|${server}(app|start|server)\\.ts$` },
    },
    {
      name: 'repository-below-service',
      severity: 'error',
      comment: "routes → service → repository: a repository never calls up into its module's service or routes.",
      from: { path: `${server}modules/([^/]+)/[^/]+\\.repository\\.ts$` },
      to: { path: `${server}modules/$1/[^/]+\\.(service|routes)\\.ts$` },
    },
    {
      name: 'routes-on-top',
      severity: 'error',
      comment: 'Only index.ts, app.ts and other routes register routes: a service or repository never imports them.',
      from: { path: `${server}modules/`, pathNot: `(\\.routes\\.ts|/index\\.ts)$` },
      to: { path: `${server}modules/.+\\.routes\\.ts$` },
    },
    {
      name: 'contract-stands-alone',
      severity: 'error',
      comment: 'packages/contract is imported by both apps and imports neither.',
      from: { path: '^packages/contract/' },
      to: { path: '^apps/' },
    },
    {
      name: 'console-not-into-server',
      severity: 'error',
      comment: 'The console talks to the server through the contract and HTTP only.',
      from: { path: '^apps/web/' },
      to: { path: '^apps/(server|print-agent)/' },
    },
    {
      name: 'server-not-into-console',
      severity: 'error',
      comment: 'The server serves the built console (dist), it never imports its sources.',
      from: { path: '^apps/server/' },
      to: { path: '^apps/web/' },
    },
  ],
  options: {
    // Sources only: tests and benchmarks reach into any layer on purpose.
    includeOnly: ['^apps/(server|web)/src/', '^packages/contract/src/'],
    // `import type` counts: a circle of types is still a circle of meaning.
    tsPreCompilationDeps: true,
    // The console's `@/` alias, from the root: apps/web/tsconfig.json has no baseUrl, and the resolver
    // plugin then reads its paths from the working directory (the root, where `npm run lint` runs).
    tsConfig: { fileName: 'tsconfig.depcruise.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.js'],
    },
  },
};
