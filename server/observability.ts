import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { ServerBuild } from '@remix-run/node';
import type express from 'express';
import { matchRoutes, type RouteObject } from 'react-router-dom';
import { openRequestContext, rateLimitHeaders } from '~/http/request-context.server';
import { counterFamilies } from '~/services/platform/counters.server';
import { errorFields } from '~/services/platform/log.server';

/**
 * Request ids, one JSON log line per request, and Prometheus metrics (issue 25).
 *
 * - The request id is the client's (or nginx's) `X-Request-Id` when it is sane, a new UUID otherwise; it is sent
 *   back as `X-Request-Id` and put in the Remix load context (`requestId`).
 * - The log line: time, level, request id, instance, method, route pattern (`/api/v1/guides/:id`, never the raw
 *   path with its ids and query), status, duration. Nothing of the request body, headers or cookies is logged.
 * - Metrics are plain Prometheus text, served only on METRICS_PORT (never on the public port).
 */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  log(level: Exclude<LogLevel, 'silent'>, msg: string, fields?: Record<string, unknown>): void;
}

/**
 * The log: one JSON object per line on stdout. Lines are gathered and written once per turn of the event loop (or
 * at 64 KiB), not one write per line: stdout to a file or a pipe is synchronous on Linux, and a write per request
 * cost a system call on the request's path. What is still buffered when the process exits is written then.
 */
export function jsonLogger(options: { level: LogLevel; instance?: string; write?: (chunk: string) => void }): Logger & { request(fields: RequestLogFields): void } {
  const write = options.write ?? ((chunk) => process.stdout.write(chunk));
  const min = RANK[options.level];
  const instance = options.instance ? `,"instance":${JSON.stringify(options.instance)}` : '';
  let pending = '';
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (!pending) return;
    const chunk = pending;
    pending = '';
    write(chunk);
  };
  const push = (line: string) => {
    pending += line;
    if (pending.length >= 65_536) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  if (!options.write) {
    process.once('exit', () => {
      if (pending) fs.writeSync(1, pending);
      pending = '';
    });
  }
  return {
    log(level, msg, fields = {}) {
      if (RANK[level] < min) return;
      // An error given as a field is written as the safe logger writes it (class, code, message without parameters).
      const safe = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v instanceof Error ? errorFields(v) : v]));
      push(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...(options.instance ? { instance: options.instance } : {}), ...safe })}\n`);
    },
    /** The request line, built by hand: its fields are known and short (the id is sane, the route quoted once). */
    request(f) {
      const level = f.status >= 500 ? 'error' : 'info';
      if (RANK[level] < min) return;
      push(
        `{"time":"${isoNow()}","level":"${level}","msg":"request"${instance},"request_id":"${f.requestId}","method":"${f.method}",` +
          `"route":${f.routeJson},"status":${f.status},"duration_ms":${f.durationMs}${f.userId === undefined ? '' : `,"user_id":${f.userId}`}}\n`,
      );
    },
  };
}

export interface RequestLogFields {
  requestId: string;
  method: string;
  /** The route pattern, already a JSON string. */
  routeJson: string;
  status: number;
  durationMs: number;
  userId?: number;
}

let isoMs = 0;
let isoText = '';
/** `new Date().toISOString()`, made once per millisecond. */
function isoNow(): string {
  const now = Date.now();
  if (now !== isoMs) {
    isoMs = now;
    isoText = new Date(now).toISOString();
  }
  return isoText;
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** A route label: the pattern and its JSON form, made once per path. */
export interface RouteLabel {
  pattern: string;
  json: string;
}

const label = (pattern: string): RouteLabel => ({ pattern, json: JSON.stringify(pattern) });
const FIXED = new Map<string, RouteLabel>();
const fixed = (pattern: string) => {
  let found = FIXED.get(pattern);
  if (!found) FIXED.set(pattern, (found = label(pattern)));
  return found;
};

/**
 * The route pattern of a request: the Remix route's full path (`/api/v1/guides/:id`), or the Express route's, or a
 * fixed name for what answers before Remix. Remix paths are matched once per distinct path and remembered (at most
 * 5,000 paths, then the memory starts over), so a busy page costs a map look-up.
 */
export function routePatterns(build: () => ServerBuild | undefined): (req: express.Request) => RouteLabel {
  let routes: RouteObject[] | undefined;
  let builtFrom: ServerBuild | undefined;
  let byPath = new Map<string, RouteLabel>();
  const tree = (b: ServerBuild) => {
    const children = new Map<string | undefined, RouteObject[]>();
    for (const route of Object.values(b.routes)) {
      const list = children.get(route.parentId) ?? [];
      list.push({ id: route.id, path: route.path, index: route.index } as RouteObject);
      children.set(route.parentId, list);
    }
    const attach = (list: RouteObject[]): RouteObject[] =>
      list.map((r) => (r.index ? r : { ...r, children: attach(children.get(r.id) ?? []) }) as RouteObject);
    return attach(children.get(undefined) ?? []);
  };
  const match = (path: string): string => {
    const matches = matchRoutes(routes!, path);
    if (!matches) return 'unmatched';
    const pattern = matches
      .map((m) => m.route.path)
      .filter((p): p is string => Boolean(p))
      .join('/')
      .replace(/\/+/g, '/');
    return `/${pattern}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
  };
  return (req) => {
    // app.all('*') is the Remix handler: its pattern comes from the Remix routes below.
    if (req.route?.path && req.route.path !== '*') return fixed(String(req.route.path));
    const path = req.path;
    if (path.startsWith('/assets/')) return fixed('/assets/*');
    const current = build();
    if (!current) return fixed('unknown');
    if (current !== builtFrom) {
      routes = tree(current);
      builtFrom = current;
      byPath = new Map();
    }
    let found = byPath.get(path);
    if (!found) {
      if (byPath.size >= 5_000) byPath = new Map();
      found = fixed(match(path));
      byPath.set(path, found);
    }
    return found;
  };
}

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** One series of the request histogram; `counts[i]` is the requests in bucket i alone (cumulated when rendered). */
interface Series {
  labels: string;
  counts: number[];
  sum: number;
  count: number;
}

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
function formatLabels(labels: Record<string, string>): string {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`);
  return parts.length ? `{${parts.join(',')}}` : '';
}

/**
 * The process's metrics: request durations by route and status, the product's counters (bookings, mails, rate-limit
 * refusals: app/services/platform/counters.server.ts) and gauges read when scraped.
 */
export class Metrics {
  /** By method, then route pattern, then status: no string is built per request. */
  private readonly requests = new Map<string, Map<string, Map<number, Series>>>();
  private readonly gauges: Array<{ name: string; help: string; read: () => Array<[Record<string, string>, number]> }> = [];
  private readonly loopDelay = monitorEventLoopDelay({ resolution: 20 });

  constructor() {
    this.loopDelay.enable();
    this.gauge('nodejs_eventloop_lag_p99_seconds', 'Event-loop delay, 99th percentile since the last scrape', () => [[{}, this.loopDelay.percentile(99) / 1e9]]);
    this.gauge('nodejs_eventloop_lag_max_seconds', 'Event-loop delay, maximum since the last scrape', () => [[{}, this.loopDelay.max / 1e9]]);
    this.gauge('process_resident_memory_bytes', 'Resident memory', () => [[{}, process.memoryUsage.rss()]]);
    this.gauge('nodejs_heap_used_bytes', 'V8 heap in use', () => [[{}, process.memoryUsage().heapUsed]]);
  }

  gauge(name: string, help: string, read: () => Array<[Record<string, string>, number]>): void {
    this.gauges.push({ name, help, read });
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    let byRoute = this.requests.get(method);
    if (!byRoute) this.requests.set(method, (byRoute = new Map()));
    let byStatus = byRoute.get(route);
    if (!byStatus) byRoute.set(route, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (!series) {
      series = { labels: `method="${escapeLabel(method)}",route="${escapeLabel(route)}",status="${status}"`, counts: BUCKETS.map(() => 0), sum: 0, count: 0 };
      byStatus.set(status, series);
    }
    let i = 0;
    while (i < BUCKETS.length && seconds > BUCKETS[i]!) i++;
    if (i < BUCKETS.length) series.counts[i]!++;
    series.sum += seconds;
    series.count++;
  }

  /** Prometheus text exposition format 0.0.4. */
  render(): string {
    const lines: string[] = [];
    lines.push('# HELP http_request_duration_seconds Requests by method, route pattern and status', '# TYPE http_request_duration_seconds histogram');
    for (const byRoute of this.requests.values()) {
      for (const byStatus of byRoute.values()) {
        for (const { labels, counts, sum, count } of byStatus.values()) {
          let cumulative = 0;
          BUCKETS.forEach((bound, i) => {
            cumulative += counts[i]!;
            lines.push(`http_request_duration_seconds_bucket{${labels},le="${bound}"} ${cumulative}`);
          });
          lines.push(`http_request_duration_seconds_bucket{${labels},le="+Inf"} ${count}`);
          lines.push(`http_request_duration_seconds_sum{${labels}} ${sum}`);
          lines.push(`http_request_duration_seconds_count{${labels}} ${count}`);
        }
      }
    }
    for (const counter of counterFamilies()) {
      lines.push(`# HELP ${counter.name} ${counter.help}`, `# TYPE ${counter.name} counter`);
      for (const [labels, value] of counter.samples) lines.push(`${counter.name}${formatLabels(labels)} ${value}`);
    }
    for (const gauge of this.gauges) {
      lines.push(`# HELP ${gauge.name} ${gauge.help}`, `# TYPE ${gauge.name} gauge`);
      for (const [labels, value] of gauge.read()) lines.push(`${gauge.name}${formatLabels(labels)} ${value}`);
    }
    this.loopDelay.reset();
    return `${lines.join('\n')}\n`;
  }
}

export interface RequestObserver {
  logger?: Logger & { request?: (fields: RequestLogFields) => void };
  metrics?: Metrics;
  route: (req: express.Request) => RouteLabel;
}

/**
 * First middleware: the request id (the client's or nginx's when sane, else a new one; sent back as X-Request-Id),
 * the request's context (app/http/request-context.server.ts: the id for error envelopes and pages, the user the auth
 * layer resolves), and when the response ends its log line and its duration in the metrics.
 */
export function observeRequests(observer: Partial<RequestObserver>): express.RequestHandler {
  const { logger, metrics, route } = observer;
  return (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    const { context, close } = openRequestContext(req.headers, id);
    // The limits the request consulted are known once its answer is written, whoever writes it (API, page, redirect).
    const writeHead = res.writeHead;
    res.writeHead = function (this: typeof res, ...args: Parameters<typeof writeHead>) {
      if (context.limits) for (const [name, value] of rateLimitHeaders(context)) this.setHeader(name, value);
      return writeHead.apply(this, args);
    } as typeof writeHead;
    const started = process.hrtime.bigint();
    res.once('close', () => {
      close();
      if (!logger && !metrics) return;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const label = route?.(req) ?? fixed('unknown');
      // A response that never finished (the client went away) is logged with status 499, as nginx does.
      const status = res.writableFinished ? res.statusCode : 499;
      metrics?.observeRequest(req.method, label.pattern, status, seconds);
      if (logger?.request) {
        logger.request({ requestId: id, method: req.method, routeJson: label.json, status, durationMs: Math.round(seconds * 1e4) / 10, userId: context.userId });
      } else {
        logger?.log(status >= 500 ? 'error' : 'info', 'request', {
          request_id: id,
          method: req.method,
          route: label.pattern,
          status,
          duration_ms: Math.round(seconds * 1e4) / 10,
          ...(context.userId === undefined ? {} : { user_id: context.userId }),
        });
      }
    });
    next();
  };
}

/** The metrics on their own port (METRICS_PORT), GET /metrics only. */
export function serveMetrics(metrics: Metrics, port: number, host: string): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url?.split('?')[0] === '/metrics') {
      res.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' });
      res.end(metrics.render());
    } else {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
