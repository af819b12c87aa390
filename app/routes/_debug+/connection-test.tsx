import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadSocketClient } from '~/components/realtime';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { checkDatabase, requireDebugAccess } from '~/http/debug.server';
import { pageMeta } from '~/lib/meta';

/**
 * /connection-test — debug page (SPEC §2): is the server up and does the database answer (rendered on the
 * server, so it works without JS), what /api/ping answers, and — with JS — whether the realtime socket
 * connects and joins the user's room.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireDebugAccess(request);
  const [database, t] = await Promise.all([checkDatabase(), getFixedT(request)]);
  return { database, userId: user.id, title: t('account.dev.connectionTitle') };
}

/** This page's words beyond common.json (app/i18n/bundles.ts). */
export const handle: I18nHandle = { i18n: ['account'] };

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  ...pageMeta(matches, data?.title),
  { name: 'robots', content: 'noindex' },
];

type PingState = { state: 'waiting' } | { state: 'done'; ok: boolean; status: number; ms: number; body: string } | { state: 'failed'; message: string };
type SocketState =
  | { state: 'idle' }
  | { state: 'connecting' }
  | { state: 'connected'; transport: string; room: string }
  | { state: 'failed'; message: string }
  | { state: 'closed'; reason: string };

export default function ConnectionTest() {
  const { database, userId } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const [ping, setPing] = useState<PingState>({ state: 'waiting' });
  const [socket, setSocket] = useState<SocketState>({ state: 'idle' });

  const runPing = useCallback(async () => {
    setPing({ state: 'waiting' });
    const started = performance.now();
    try {
      const response = await fetch('/api/ping', { cache: 'no-store' });
      const text = await response.text();
      let body = text;
      try {
        body = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        /* not JSON: show it as it came */
      }
      setPing({ state: 'done', ok: response.ok, status: response.status, ms: Math.round(performance.now() - started), body });
    } catch (error) {
      setPing({ state: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  }, []);

  useEffect(() => {
    void runPing();
  }, [runPing]);

  useEffect(() => {
    let closed = false;
    let close: (() => void) | undefined;
    setSocket({ state: 'connecting' });
    loadSocketClient().then(
      (connect) => {
        if (closed) return;
        const s = connect();
        close = () => s.close();
        s.on('connect', () => {
          s.timeout(5_000).emit('join_user_room', `user_${userId}`, (error: Error | null, answer?: { ok: boolean; room?: string }) => {
            if (error || !answer?.ok) setSocket({ state: 'failed', message: error?.message ?? 'FORBIDDEN' });
            else setSocket({ state: 'connected', transport: s.io.engine.transport.name, room: answer.room ?? '' });
          });
        });
        s.on('connect_error', (error) => setSocket({ state: 'failed', message: error.message }));
        s.on('disconnect', (reason) => setSocket({ state: 'closed', reason }));
      },
      (error: unknown) => setSocket({ state: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      closed = true;
      close?.();
    };
  }, [userId]);

  return (
    <section className="debug-page" aria-labelledby="connection-title">
      <h1 id="connection-title">{t('account.dev.connectionTitle')}</h1>
      <p className="debug-notice">{t('account.dev.notice')}</p>

      <div className="card">
        <h2>{t('account.dev.server')}</h2>
        <p className={database.ok ? 'status-ok' : 'status-bad'} data-testid="server-status">
          {database.ok ? t('account.dev.serverOk', { ms: database.ms }) : t('account.dev.serverDown')}
        </p>
      </div>

      <div className="card js-only">
        <h2>{t('account.dev.ping')}</h2>
        <div aria-live="polite" data-testid="ping-result">
          {ping.state === 'waiting' ? (
            <p className="muted">{t('account.dev.pingWaiting')}</p>
          ) : ping.state === 'failed' ? (
            <p className="status-bad">{t('account.dev.pingFailed', { message: ping.message })}</p>
          ) : (
            <>
              <p className={ping.ok ? 'status-ok' : 'status-bad'}>
                HTTP {ping.status} · {ping.ms} ms
              </p>
              <pre className="debug-result">{ping.body}</pre>
            </>
          )}
        </div>
        <button type="button" className="button button-small button-secondary" onClick={() => void runPing()}>
          {t('account.dev.pingRun')}
        </button>
      </div>

      <div className="card">
        <h2>{t('account.dev.socket')}</h2>
        <p className="nojs-only muted">{t('account.dev.socketNeedsJs')}</p>
        <p aria-live="polite" data-testid="socket-status" className={`js-only ${socketClass(socket)}`}>
          {socket.state === 'connected'
            ? t('account.dev.socketConnected', { transport: socket.transport, room: socket.room })
            : socket.state === 'failed'
              ? t('account.dev.socketFailed', { message: socket.message })
              : socket.state === 'closed'
                ? t('account.dev.socketClosed', { reason: socket.reason })
                : t('account.dev.socketConnecting')}
        </p>
      </div>
    </section>
  );
}

function socketClass(socket: SocketState): string {
  if (socket.state === 'connected') return 'status-ok';
  if (socket.state === 'failed' || socket.state === 'closed') return 'status-bad';
  return 'muted';
}
