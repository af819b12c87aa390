// A local SMTP server that accepts every mail and keeps none. The built server in production on PostgreSQL needs an
// SMTP_URL (docs/decisions/036), and a bench measures the product, not a mail provider. It does not hold the bench
// process open.
import { SMTPServer } from 'smtp-server';

export async function startDiscardingMailSink() {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => callback());
    },
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.server.unref();
  return { url: `smtp://127.0.0.1:${server.server.address().port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}
