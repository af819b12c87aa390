// The boundary rule (ARCHITECTURE §1/§2, decision record 008): imports point down the layers only.
//   routes → http, services, schemas, components, lib, i18n
//   http → services, schemas, lib, i18n
//   services → db (schema, client), schemas, lib, i18n, other services
//   lib → schemas, i18n, other lib only (pure; usable on both sides)
//   db (schema, client, migrations) → app/lib only (its fixed lists); the start-up sequence and the demo seed are server/
// Run by `npm test` ("boundary rule") as `npx depcruise app db server server.ts scripts --config .dependency-cruiser.cjs`.
//
// Services by domain (decision 045): app/services/<domain>/, lowest first. A domain imports only itself and the
// domains it lists; the named exceptions are single module arrows. Keep this table and the decision record in step.
const DOMAINS = {
  platform: [],
  catalogue: ['platform'],
  accounts: ['platform', 'catalogue'],
  messaging: ['platform', 'catalogue', 'accounts'],
  trust: ['platform', 'catalogue', 'accounts', 'messaging'],
  payments: ['platform', 'catalogue', 'accounts', 'messaging'],
  booking: ['platform', 'catalogue', 'accounts', 'messaging', 'payments'],
  admin: ['platform', 'catalogue', 'accounts', 'messaging', 'trust', 'payments', 'booking'],
  jobs: ['platform', 'catalogue', 'accounts', 'messaging', 'trust', 'payments', 'booking'],
};
const DOMAIN_EXCEPTIONS = [
  {
    from: 'app/services/payments/order-payments.server.ts',
    to: ['app/services/booking/order-state.server.ts', 'app/services/booking/order-parties.server.ts'],
    why: 'payments drives the order state machine (a paid order is confirmed) and reads the order with its parties',
  },
  {
    from: 'app/services/payments/finance-admin.server.ts',
    to: ['app/services/admin/exports.server.ts'],
    why: "the finance CSV exports use the exports' kit (audited, keyset)",
  },
];
const escape = (path) => path.replace(/[.+$]/g, '\\$&');
const domainRules = Object.entries(DOMAINS).flatMap(([domain, allowed]) => {
  const exceptions = DOMAIN_EXCEPTIONS.filter((e) => e.from.startsWith(`app/services/${domain}/`));
  const mayImport = `^app/services/(${[domain, ...allowed].join('|')})/`;
  const rule = (from, extra, comment) => ({
    name: `domain-${domain}`,
    severity: 'error',
    comment,
    from,
    to: { path: '^app/services/', pathNot: extra.length ? [mayImport, ...extra.map((p) => `^${escape(p)}$`)] : mayImport },
  });
  const base =
    `app/services/${domain}/ imports only ` +
    (allowed.length ? `itself and ${allowed.join(', ')}` : 'itself (no other domain)') +
    ' (decision 045: the domains, lowest first, and who owns notices, audit, stats and mail).';
  return [
    rule(
      exceptions.length
        ? { path: `^app/services/${domain}/`, pathNot: exceptions.map((e) => `^${escape(e.from)}$`) }
        : { path: `^app/services/${domain}/` },
      [],
      base,
    ),
    ...exceptions.map((e) => rule({ path: `^${escape(e.from)}$` }, e.to, `${base} Exception for ${e.from}: ${e.why}.`)),
  ];
});
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...domainRules,
    {
      name: 'services-live-in-a-domain',
      severity: 'error',
      comment:
        'Every service module lives in a domain folder (app/services/<domain>/, decision 045): none at the top of ' +
        'app/services, and no barrel (index) re-exporting a folder, which would hide the real arrows.',
      from: {},
      to: { path: '^app/services/([^/]+|.+/index)\\.tsx?$' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No import cycles under app/, db/, server/, scripts/ (type-only imports count too). The one exception is the root ' +
        "route's loader type (`typeof rootLoader` in app/lib/root-data.ts), the Remix idiom for typed root data; " +
        'root-imports-type-only keeps that edge erased at run time.',
      from: { path: '^(app|db|server|scripts)/' },
      to: { circular: true, viaOnly: { pathNot: '^app/root\\.tsx$' } },
    },
    {
      name: 'root-imports-type-only',
      severity: 'error',
      comment: 'app/root.tsx is a route: other modules may only take its loader type (erased at run time).',
      from: { path: '^(app|db|server)/', pathNot: '^app/root\\.tsx$' },
      to: { path: '^app/root\\.tsx$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'nothing-imports-routes',
      severity: 'error',
      comment:
        'Route modules are leaves: nothing imports app/routes but their folder\'s private `__*` modules. The one exception is the alias route ' +
        'app/routes/guide+/$id.tsx, which re-exports its twin /guides/:id (SPEC §2 lists both paths).',
      from: { pathNot: '^app/routes/guide\\+/\\$id\\.tsx$' },
      to: { path: '^app/routes/', pathNot: '^app/routes/[^/]+/__[^/]+$' },
    },
    {
      name: 'route-private-modules-stay-in-their-folder',
      severity: 'error',
      comment:
        'A `__*` file beside a route is that folder\'s private component (decision 009, not a route): only modules of ' +
        'the same route folder import it. Used elsewhere, it belongs in app/components.',
      // The folder's name without its `+` (a back-reference is read as a pattern, where `+` is not literal).
      from: { path: '^app/routes/([^/+]+)[+]?/' },
      to: { path: '^app/routes/[^/]+/__', pathNot: '^app/routes/$1[+]?/__' },
    },
    {
      name: 'route-private-modules-only-from-routes',
      severity: 'error',
      comment: 'Nothing outside app/routes imports a route folder\'s private `__*` module.',
      from: { pathNot: '^app/routes/' },
      to: { path: '^app/routes/[^/]+/__' },
    },
    {
      name: 'lib-and-schemas-are-pure',
      severity: 'error',
      comment:
        'app/lib and app/schemas are usable on both sides (the browser loads them): no services, no HTTP boundary, ' +
        'no database, no components, no routes, no *.server module.',
      from: { path: '^app/(lib|schemas)/' },
      to: { path: '^(app/(services|http|routes|components)/|db/|server/)|\\.server\\.tsx?$' },
    },
    {
      name: 'services-import-only-below',
      severity: 'error',
      comment:
        'Services never import routes, components, the HTTP boundary or the Express app; the allow-list: other services, db/schema, db/client and db/prepared, app/schemas, app/lib, app/i18n (and ' +
        'its locales), app/env.server.ts, packages and node built-ins.',
      from: { path: '^app/services/' },
      to: {
        pathNot: '^(app/(services|schemas|lib|i18n|locales)/|app/env\\.server\\.ts$|db/(schema|client|prepared)\\.ts$|node_modules/)',
        dependencyTypesNot: ['core'],
      },
    },
    {
      name: 'http-above-services-only',
      severity: 'error',
      comment: 'The HTTP boundary may use services but no route or component.',
      from: { path: '^app/http/' },
      to: { path: '^(app/(routes|components)/|app/root\\.tsx)' },
    },
    {
      name: 'components-no-server-modules',
      severity: 'error',
      comment: 'Components run in the browser: no *.server modules, no db, no services (types the browser needs live in app/schemas or app/lib).',
      from: { path: '^app/components/' },
      to: { path: '(\\.server\\.tsx?$|^app/(services|http|routes)/|^db/|^server/)' },
    },
    {
      name: 'db-below-services',
      severity: 'error',
      comment:
        'db/ (schema, client, migrations) imports no service, HTTP or app module, without exception (the start-up ' +
        'sequence and the demo seed live in server/). It may read the fixed lists of app/lib (pure, browser-safe: ' +
        'account types, order statuses, time slots).',
      from: { path: '^db/' },
      to: { path: '^(app/|server/)', pathNot: '^app/lib/' },
    },
    {
      name: 'i18n-below-services',
      severity: 'error',
      comment: 'app/i18n is used by services, so it must not reach up to services, http, routes or components.',
      from: { path: '^app/i18n/' },
      to: { path: '^app/(services|http|routes|components)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|build|public|data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
