import type { AppConfig, DatabaseLocation } from '~/env.server';
import { embeddedDatabaseExists, openDatabase, setDatabase, type DatabaseHandle } from '~db/client';
import { backfillGuideSearchText } from '~/services/catalogue/guides.server';
import { ensureAdmin } from './admin-account';
import { trustProxySetting } from './trust-proxy';
import { isEmpty, seedDemo, type SeedResult } from './seed/demo';

type Log = (message: string) => void;
/** A demo admin created with a generated password on this start (shown again as the last start-up line). */
export type GeneratedAdmin = NonNullable<SeedResult['demoAdmin']>;

/** The database the configuration names: PostgreSQL with DATABASE_URL, else PGlite in DATA_DIR. */
export function openConfiguredDatabase(config: DatabaseLocation): Promise<DatabaseHandle> {
  return openDatabase(config.DATABASE_URL ? { url: config.DATABASE_URL } : { dataDir: config.DATA_DIR });
}

/** ADMIN_EMAIL/ADMIN_PASSWORD as one value (the config parser guarantees both or neither). */
export function configuredAdmin(config: AppConfig): { email: string; password: string } | undefined {
  return config.ADMIN_EMAIL && config.ADMIN_PASSWORD ? { email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD } : undefined;
}

export function logSeedResult(result: SeedResult, log: Log = console.log): void {
  if (!result.seeded) return log('The database already has data; nothing seeded.');
  log(`Demo data: ${result.guides} guides, ${result.travelers} travelers, ${result.orders} orders, ${result.reviews} reviews.`);
  if (result.demoAdmin) log(`Demo admin created: ${result.demoAdmin.email} / ${result.demoAdmin.password}`);
}

/**
 * The server's last start-up lines, printed once it listens: the address and, when this start generated a
 * demo admin, its login. The build and the seed print hundreds of lines before; a password among them is
 * missed, so it comes again here, at the end.
 */
export function startupSummary(summary: {
  url: string;
  driver: string;
  readyMs: number;
  generatedAdmin?: GeneratedAdmin;
}): string[] {
  const lines = [`旅遊助手 listening on ${summary.url} (${summary.driver}, ready in ${summary.readyMs} ms)`];
  if (summary.generatedAdmin) {
    const { email, password } = summary.generatedAdmin;
    lines.push(`Admin login (generated on this first start, not shown again): ${email} / ${password}`);
  }
  return lines;
}

/**
 * What the server says at start about a configuration that is unsafe for a deployment (docs/decisions/036), printed
 * before it listens. A production deployment has nginx (deploy/nginx) in front: it caps connections and requests per
 * client (limit_conn, limit_req), ends slow clients and terminates TLS; Node alone only caps connections per address.
 */
export function startupWarnings(config: AppConfig): string[] {
  const warnings: string[] = [];
  if (config.NODE_ENV === 'production' && trustProxySetting(config.TRUST_PROXY) === false) {
    const cap = config.MAX_CONNECTIONS_PER_ADDRESS ? `at most ${config.MAX_CONNECTIONS_PER_ADDRESS} connections per client address` : 'no cap on connections per address (MAX_CONNECTIONS_PER_ADDRESS=0)';
    warnings.push(
      `Warning: TRUST_PROXY=false says no proxy is in front of this server. A production deployment needs one (nginx: deploy/nginx, README "Production"); ` +
        `facing clients itself, Node keeps only ${cap}.`,
    );
  }
  if (config.NODE_ENV === 'development') {
    warnings.push('Warning: NODE_ENV=development: the debug pages (/dev/users, /api/dev/users, /test) are open to every logged-in account. Never for a deployment.');
  }
  return warnings;
}

/**
 * Opens the process-wide database, applies migrations and the SEED rules (ARCHITECTURE §3):
 * the embedded database gets the demo data on its first start unless SEED=none; PostgreSQL only with SEED=demo.
 * ADMIN_EMAIL/ADMIN_PASSWORD are applied on every start.
 */
export async function startDatabase(
  config: AppConfig,
  log: Log = console.log,
  options: {
    /**
     * Seeds in another process (the server's build/seed.js) instead of this one. The database is closed
     * meanwhile, since an embedded database has one owner at a time, and opened again afterwards.
     */
    seedElsewhere?: () => Promise<GeneratedAdmin | undefined>;
  } = {},
): Promise<{ handle: DatabaseHandle; generatedAdmin?: GeneratedAdmin }> {
  const seedMode = config.SEED ?? (config.DATABASE_URL ? 'none' : 'demo');
  // A new embedded database is created, migrated and seeded by the child as a whole: creating and migrating it
  // here raised this process's memory by about 100 MiB for its lifetime, as much as seeding did.
  const seedFirst = Boolean(options.seedElsewhere) && seedMode === 'demo' && !config.DATABASE_URL && !embeddedDatabaseExists(config.DATA_DIR);
  let generatedAdmin: GeneratedAdmin | undefined;
  if (seedFirst) generatedAdmin = await options.seedElsewhere!();
  let handle = await openConfiguredDatabase(config);
  setDatabase(handle);
  await handle.migrate();
  // Guides written before keyword search existed get their search text once (issue 9).
  await backfillGuideSearchText(handle.db);

  const admin = configuredAdmin(config);
  if (seedFirst) return { handle, generatedAdmin }; // the seed applied ADMIN_EMAIL/ADMIN_PASSWORD
  if (seedMode === 'demo' && (await isEmpty(handle.db))) {
    if (options.seedElsewhere) {
      await handle.close();
      generatedAdmin = await options.seedElsewhere();
      handle = await openConfiguredDatabase(config);
      setDatabase(handle);
    } else {
      const result = await seedDemo(handle.db, { admin, supportEmail: config.SUPPORT_EMAIL });
      logSeedResult(result, log);
      generatedAdmin = result.demoAdmin;
    }
  } else if (admin) {
    const { created } = await ensureAdmin(admin.email, admin.password, handle.db);
    log(`Admin ${admin.email} ${created ? 'created' : 'updated'}.`);
  }
  return { handle, generatedAdmin };
}
