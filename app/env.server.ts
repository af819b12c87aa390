import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * The whole configuration, parsed once at start (ARCHITECTURE §3).
 * A bad value throws a ConfigError that names the variable; server.ts prints it and exits.
 */
const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalUrl = (protocols: string[]) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .url()
      .refine((v) => protocols.some((p) => v.startsWith(`${p}:`)), {
        message: `must start with ${protocols.map((p) => `${p}://`).join(' or ')}`,
      })
      .optional(),
  );

const envSchema = z.object({
  // Production unless told otherwise (docs/decisions/036): `node build/server.js` started by systemd or PM2 without
  // NODE_ENV is a deployment. `npm run dev` sets development; the test runners set test.
  NODE_ENV: z.preprocess(emptyToUndefined, z.enum(['development', 'production', 'test']).default('production')),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: optionalUrl(['postgres', 'postgresql']),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
  SESSION_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  SMTP_URL: optionalUrl(['smtp', 'smtps']),
  MAIL_FROM: z.preprocess(emptyToUndefined, z.string().default('旅遊助手 <no-reply@localhost>')),
  ADMIN_EMAIL: z.preprocess(emptyToUndefined, z.string().email().optional()),
  ADMIN_PASSWORD: z.preprocess(emptyToUndefined, z.string().min(6, 'must be at least 6 characters').optional()),
  // The support and privacy address in the demo legal texts; unset means the admin's address.
  SUPPORT_EMAIL: z.preprocess(emptyToUndefined, z.string().email().optional()),
  REDIS_URL: optionalUrl(['redis', 'rediss']),
  // Web push (docs/decisions/029): the VAPID key pair (URL-safe base64, as `npx web-push generate-vapid-keys`
  // prints it), both or neither; unset, a pair is generated once and kept in the database. The subject is the
  // contact the push services may write to (mailto: or https:); unset, mailto: the support or admin address.
  VAPID_PUBLIC_KEY: z.preprocess(emptyToUndefined, z.string().regex(/^[A-Za-z0-9_-]{80,100}$/, 'must be a URL-safe base64 P-256 public key').optional()),
  VAPID_PRIVATE_KEY: z.preprocess(emptyToUndefined, z.string().regex(/^[A-Za-z0-9_-]{40,50}$/, 'must be a URL-safe base64 P-256 private key').optional()),
  VAPID_SUBJECT: z.preprocess(
    emptyToUndefined,
    z.string().regex(/^(mailto:|https:\/\/)\S+$/, 'must be a mailto: address or an https:// URL').optional(),
  ),
  // Tests that run a local push service only: accept http and loopback/private push endpoints. Never in production.
  PUSH_ALLOW_PRIVATE_ENDPOINTS: z.preprocess(emptyToUndefined, z.enum(['0', '1']).default('0').transform((v) => v === '1')),
  SEED: z.preprocess(emptyToUndefined, z.enum(['demo', 'none']).optional()),
  PUBLIC_URL: optionalUrl(['http', 'https']),
  // Shutdown (server/lifecycle.ts): the longest wait for in-flight requests, and how long /api/ready answers 503
  // before the listener closes (for a load balancer that polls it; our nginx needs none).
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  DRAIN_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(0),
  // Which proxies may set X-Forwarded-For/-Proto (Express `trust proxy`): loopback, a list of addresses or
  // subnets, a hop count, or false.
  TRUST_PROXY: z.preprocess(emptyToUndefined, z.string().default('loopback')),
  // Open connections one client address may hold (server/app.ts createHttpServer); a trusted proxy (TRUST_PROXY) is
  // not counted: it carries everyone, and nginx caps each client itself (deploy/nginx, limit_conn). 0: no cap.
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).max(1_000_000).default(100),
  // Logs: one JSON line per request and error at this level or above (server/observability.ts).
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  // Prometheus metrics at GET /metrics on this port only (never the public one); unset: no metrics.
  METRICS_PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).optional()),
  METRICS_HOST: z.preprocess(emptyToUndefined, z.string().default('127.0.0.1')),
  // A name for this instance in logs (the cluster script sets a, b).
  INSTANCE_NAME: z.preprocess(emptyToUndefined, z.string().max(40).optional()),
  // End-to-end tests only: the server's clock starts at this instant and runs on from there (slot cutoffs and the
  // tour day depend on the time of day; docs/decisions/015). Refused for a deployment on PostgreSQL in production.
  TEST_CLOCK_START: z.preprocess(emptyToUndefined, z.iso.datetime({ offset: true, error: 'must be an ISO date-time with an offset' }).optional()),
  // Payments (issue 32, docs/decisions/039): which provider takes the money. Unset means the built-in test-mode
  // simulator, except in a production deployment on PostgreSQL, which must name its provider (checked below).
  PAYMENT_PROVIDER: z.preprocess(emptyToUndefined, z.enum(['simulator', 'ecpay']).optional()),
  // Another server's simulator (http://host:port/payments/simulator) for the simulator provider; unset: our own.
  PAYMENT_SIMULATOR_URL: optionalUrl(['http', 'https']),
  // `npm run payments:simulator` (the simulator on its own port): its port, and the folder of its own embedded
  // database when DATABASE_URL is unset (default DATA_DIR/payments-simulator; see paymentSimulatorConfig).
  PAYMENT_SIMULATOR_PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(3099)),
  PAYMENT_SIMULATOR_DATA_DIR: z.preprocess(emptyToUndefined, z.string().optional()),
  // ECPay's all-in-one checkout: the merchant's id and keys (from ECPay's merchant back office), and which of its
  // environments to use. All three are required with PAYMENT_PROVIDER=ecpay.
  ECPAY_MERCHANT_ID: z.preprocess(emptyToUndefined, z.string().regex(/^[0-9]{1,10}$/, 'must be the digits of an ECPay merchant id').optional()),
  ECPAY_HASH_KEY: z.preprocess(emptyToUndefined, z.string().regex(/^[A-Za-z0-9]{16}$/, 'must be 16 letters or digits').optional()),
  ECPAY_HASH_IV: z.preprocess(emptyToUndefined, z.string().regex(/^[A-Za-z0-9]{16}$/, 'must be 16 letters or digits').optional()),
  ECPAY_MODE: z.preprocess(emptyToUndefined, z.enum(['stage', 'production']).default('stage')),
  // Copied onto each order when it is booked (a later change never alters old orders).
  PLATFORM_COMMISSION_PERCENT: z.preprocess(emptyToUndefined, z.coerce.number().int('must be a whole percent').min(0).max(100).default(10)),
  // How long an unpaid order holds its slot before it expires.
  PAYMENT_WINDOW_MINUTES: z.preprocess(emptyToUndefined, z.coerce.number().int().min(5).max(1440).default(30)),
  // Days after a tour's completion before the guide's net is payable (the dispute window).
  PAYOUT_HOLD_DAYS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(90).default(3)),
});

export type AppConfig = Omit<z.infer<typeof envSchema>, 'SESSION_SECRET' | 'PUBLIC_URL' | 'DATA_DIR'> & {
  DATA_DIR: string;
  SESSION_SECRET: string;
  PUBLIC_URL: string;
};

export class ConfigError extends Error {
  constructor(public readonly variable: string, detail: string) {
    super(`Invalid configuration: ${variable} ${detail}`);
    this.name = 'ConfigError';
  }
}

export function parseConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(String(issue.path[0] ?? 'environment'), issue.message);
  }
  const cfg = parsed.data;
  if (cfg.ADMIN_EMAIL && !cfg.ADMIN_PASSWORD) throw new ConfigError('ADMIN_PASSWORD', 'is required when ADMIN_EMAIL is set');
  if (cfg.ADMIN_PASSWORD && !cfg.ADMIN_EMAIL) throw new ConfigError('ADMIN_EMAIL', 'is required when ADMIN_PASSWORD is set');
  if (Boolean(cfg.VAPID_PUBLIC_KEY) !== Boolean(cfg.VAPID_PRIVATE_KEY)) {
    throw new ConfigError(cfg.VAPID_PUBLIC_KEY ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY', 'is required when the other VAPID key is set');
  }
  if (cfg.PUSH_ALLOW_PRIVATE_ENDPOINTS && cfg.NODE_ENV === 'production' && cfg.DATABASE_URL) {
    throw new ConfigError('PUSH_ALLOW_PRIVATE_ENDPOINTS', 'is for tests with a local push service, never a production deployment on PostgreSQL');
  }
  if (cfg.TEST_CLOCK_START && cfg.NODE_ENV === 'production' && cfg.DATABASE_URL) {
    throw new ConfigError('TEST_CLOCK_START', 'is for tests on the embedded database only, never a production deployment on PostgreSQL');
  }
  // Payments: ECPay needs its three settings (and a production deployment names its provider: below).
  if (cfg.PAYMENT_PROVIDER === 'ecpay') {
    for (const name of ['ECPAY_MERCHANT_ID', 'ECPAY_HASH_KEY', 'ECPAY_HASH_IV'] as const) {
      if (!cfg[name]) throw new ConfigError(name, 'is required when PAYMENT_PROVIDER is ecpay');
    }
  }

  const dataDir = path.resolve(cfg.DATA_DIR);
  const sessionSecret = cfg.SESSION_SECRET ?? sessionSecretFromDataDir(cfg, dataDir);
  // Without SMTP the mail (verification and reset codes) is written to the log: the embedded demo's mailbox, but a
  // leak of every account's codes into a deployment's log collection (docs/decisions/036). A demo marketplace on
  // PostgreSQL (SEED=demo: the perf yardstick starts one so) is a demo like the embedded one and may print its mail.
  if (cfg.NODE_ENV === 'production' && cfg.DATABASE_URL && !cfg.SMTP_URL && cfg.SEED !== 'demo') {
    throw new ConfigError('SMTP_URL', 'is required in production when DATABASE_URL is set, unless SEED=demo (without it every mail, codes included, would be written to the log)');
  }
  // A production deployment on PostgreSQL names its payment provider, so the simulator never takes "payments" there
  // by accident (a demo marketplace, SEED=demo, may use it).
  if (cfg.NODE_ENV === 'production' && cfg.DATABASE_URL && !cfg.PAYMENT_PROVIDER && cfg.SEED !== 'demo') {
    throw new ConfigError('PAYMENT_PROVIDER', 'must be set (ecpay, or simulator for a test deployment) in production when DATABASE_URL is set, unless SEED=demo');
  }
  return {
    ...cfg,
    DATA_DIR: dataDir,
    SESSION_SECRET: sessionSecret,
    PUBLIC_URL: (cfg.PUBLIC_URL ?? `http://localhost:${cfg.PORT}`).replace(/\/$/, ''),
  };
}

/**
 * A deployment on PostgreSQL may run several instances, so they must share a secret that is set
 * explicitly. With the embedded database there is exactly one instance and DATA_DIR is what survives
 * restarts, so a secret generated once into DATA_DIR is as durable as the data it protects
 * (docs/decisions/001-session-secret.md).
 */
function sessionSecretFromDataDir(cfg: z.infer<typeof envSchema>, dataDir: string): string {
  if (cfg.NODE_ENV === 'production' && cfg.DATABASE_URL) {
    throw new ConfigError('SESSION_SECRET', 'is required in production when DATABASE_URL is set');
  }
  const file = path.join(dataDir, 'session-secret');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = crypto.randomBytes(32).toString('hex');
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** Where the database is: all that the database tools need (ARCHITECTURE §3). */
export type DatabaseLocation = Pick<AppConfig, 'DATABASE_URL' | 'DATA_DIR'>;

/**
 * The database's location alone, for `db:migrate`, `db:backup` and `db:restore`: an operator backing up a production
 * database needs no session secret or SMTP server (the serving checks of parseConfig are not theirs).
 */
export function databaseLocation(env: Record<string, string | undefined> = process.env): DatabaseLocation {
  const parsed = envSchema.pick({ DATABASE_URL: true, DATA_DIR: true }).safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(String(issue.path[0] ?? 'environment'), issue.message);
  }
  return { DATABASE_URL: parsed.data.DATABASE_URL, DATA_DIR: path.resolve(parsed.data.DATA_DIR) };
}

const CONFIG_KEY = Symbol.for('lvyou.config');
type WithConfig = typeof globalThis & { [CONFIG_KEY]?: AppConfig };

/** The process-wide configuration; parsed on first use (server.ts calls it first, so errors stop the start). */
export function getConfig(): AppConfig {
  const g = globalThis as WithConfig;
  return (g[CONFIG_KEY] ??= parseConfig());
}

/** What `npm run payments:simulator` needs: where it listens and which database keeps its books. */
export interface PaymentSimulatorConfig {
  HOST: string;
  PORT: number;
  /** PostgreSQL: the simulator's table lives in the app's database, which both processes may open at once. */
  DATABASE_URL?: string;
  /** Without DATABASE_URL: the simulator's own embedded database (never the app's DATA_DIR). */
  DATA_DIR: string;
  SHUTDOWN_TIMEOUT_MS: number;
}

/**
 * The simulator's own settings, without the app's serving checks (it has no sessions, mail or provider of its own).
 * PGlite opens a folder in one process only and does not refuse a second one (db/data-dir-lock.ts), so the
 * simulator never opens the app's embedded database: it gets a folder of its own, or shares PostgreSQL.
 */
export function paymentSimulatorConfig(env: Record<string, string | undefined> = process.env): PaymentSimulatorConfig {
  const parsed = envSchema
    .pick({ DATABASE_URL: true, DATA_DIR: true, PAYMENT_SIMULATOR_PORT: true, PAYMENT_SIMULATOR_DATA_DIR: true, SHUTDOWN_TIMEOUT_MS: true })
    .extend({ HOST: z.preprocess(emptyToUndefined, z.string().default('127.0.0.1')) })
    .safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(String(issue.path[0] ?? 'environment'), issue.message);
  }
  const cfg = parsed.data;
  const appDataDir = path.resolve(cfg.DATA_DIR);
  const dataDir = path.resolve(cfg.PAYMENT_SIMULATOR_DATA_DIR ?? path.join(appDataDir, 'payments-simulator'));
  if (!cfg.DATABASE_URL && dataDir === appDataDir) {
    throw new ConfigError(
      'PAYMENT_SIMULATOR_DATA_DIR',
      "is the app's embedded database (DATA_DIR), which only one process may open: give the simulator another folder, or set DATABASE_URL so that both share PostgreSQL",
    );
  }
  return { HOST: cfg.HOST, PORT: cfg.PAYMENT_SIMULATOR_PORT, DATABASE_URL: cfg.DATABASE_URL, DATA_DIR: dataDir, SHUTDOWN_TIMEOUT_MS: cfg.SHUTDOWN_TIMEOUT_MS };
}
