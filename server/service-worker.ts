import fs from 'node:fs/promises';
import type express from 'express';

/**
 * GET /sw.js: the service worker the browser build wrote (scripts/vite-service-worker.ts, docs/decisions/021).
 * Never cached by the browser's HTTP cache, so a new build's worker is seen at the next navigation; read from
 * disk on each request (it is small), so a new build on disk is served without a restart. No worker (under
 * `npm run dev`, before a build): 404, and pages do not register one.
 */
export function serviceWorkerScript(file: string): express.RequestHandler {
  return async (_req, res, next) => {
    try {
      const script = await fs.readFile(file);
      res.set({
        'Content-Type': 'text/javascript; charset=utf-8',
        'Cache-Control': 'no-cache',
        'Service-Worker-Allowed': '/',
      });
      res.end(script);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') res.status(404).set('Cache-Control', 'no-store').end();
      else next(error);
    }
  };
}
