import { getDb } from '~db/client';
import { getConfig } from '~/env.server';
import { now } from '../platform/clock.server';
import { paymentProviderName } from './configured-provider.server';
import { handleSimulatorRequest, type SimulatorAnswer } from './simulator-http.server';
import { SIMULATOR_PATH } from './simulator.server';

/**
 * What the simulator's routes inside the app call (app/routes/payments+/simulator.*). The simulator answers here only
 * where it is the configured provider and no other simulator is (PAYMENT_SIMULATOR_URL, `npm run
 * payments:simulator`): a deployment that takes real payments, or uses a simulator on its own port, has none here.
 */
export function simulatorEnabled(): boolean {
  const config = getConfig();
  if (paymentProviderName(config) !== 'simulator') return false;
  return !config.PAYMENT_SIMULATOR_URL || config.PAYMENT_SIMULATOR_URL.replace(/\/$/, '') === `${config.PUBLIC_URL}${SIMULATOR_PATH}`;
}

/** One request to the in-app simulator (`path` below SIMULATOR_PATH); not found where it is not enabled. */
export async function simulatorRequest(request: Pick<Request, 'method' | 'text'>, path: string): Promise<SimulatorAnswer> {
  if (!simulatorEnabled()) return { kind: 'not_found' };
  return handleSimulatorRequest(getDb(), { method: request.method, path, body: () => request.text() }, { now });
}
