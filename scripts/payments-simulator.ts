// `npm run payments:simulator`: the built-in payment simulator on its own port (issue 32), for a cluster or any setup
// where the provider should be another site. Listens on HOST:PAYMENT_SIMULATOR_PORT (127.0.0.1:3099) under
// /payments/simulator; keeps its books in PostgreSQL (DATABASE_URL) or in an embedded database of its own
// (PAYMENT_SIMULATOR_DATA_DIR, default DATA_DIR/payments-simulator). Point the app at it with
// PAYMENT_SIMULATOR_URL=http://127.0.0.1:3099/payments/simulator. Test mode: no real money moves.
import { ConfigError, paymentSimulatorConfig } from '~/env.server';
import { runPaymentSimulator } from '~server/payments-simulator';

try {
  await runPaymentSimulator(paymentSimulatorConfig());
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
