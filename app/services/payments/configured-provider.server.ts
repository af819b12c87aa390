import { ConfigError, getConfig, type AppConfig } from '~/env.server';
import type { PaymentProviderName } from '~/lib/payments';
import { createEcpayProvider, ECPAY_ENDPOINTS } from './ecpay.server';
import type { PaymentProvider } from './provider.server';
import { SIMULATOR_MERCHANT, SIMULATOR_PATH } from './simulator.server';

type PaymentConfig = Pick<
  AppConfig,
  'NODE_ENV' | 'DATABASE_URL' | 'SEED' | 'PUBLIC_URL' | 'PAYMENT_PROVIDER' | 'ECPAY_MERCHANT_ID' | 'ECPAY_HASH_KEY' | 'ECPAY_HASH_IV' | 'ECPAY_MODE'
>;

/**
 * The provider this deployment takes payments with: the built-in simulator unless PAYMENT_PROVIDER says otherwise.
 * A production deployment on PostgreSQL must name it, so the simulator never takes "payments" there by accident.
 */
export function paymentProviderName(config: Pick<PaymentConfig, 'NODE_ENV' | 'DATABASE_URL' | 'PAYMENT_PROVIDER' | 'SEED'>): PaymentProviderName {
  if (config.PAYMENT_PROVIDER) return config.PAYMENT_PROVIDER;
  // Checked at start too (app/env.server.ts); a demo marketplace (SEED=demo) may use the simulator.
  if (config.NODE_ENV === 'production' && config.DATABASE_URL && config.SEED !== 'demo') {
    throw new ConfigError('PAYMENT_PROVIDER', 'must be set (ecpay, or simulator for a test deployment) in production when DATABASE_URL is set');
  }
  return 'simulator';
}

/**
 * The configured provider. The simulator speaks ECPay's protocol, so it is the ECPay adapter pointed at the
 * simulator's path on this server (or `simulatorBaseUrl`, when it runs on its own port) with the simulator's keys.
 */
export function createPaymentProvider(config: PaymentConfig, options: { simulatorBaseUrl?: string } = {}): PaymentProvider {
  const name = paymentProviderName(config);
  if (name === 'ecpay') {
    return createEcpayProvider({
      name: 'ecpay',
      merchantId: config.ECPAY_MERCHANT_ID!,
      keys: { hashKey: config.ECPAY_HASH_KEY!, hashIv: config.ECPAY_HASH_IV! },
      baseUrl: ECPAY_ENDPOINTS[config.ECPAY_MODE],
    });
  }
  return createEcpayProvider({
    name: 'simulator',
    merchantId: SIMULATOR_MERCHANT.merchantId,
    keys: SIMULATOR_MERCHANT.keys,
    baseUrl: options.simulatorBaseUrl ?? `${config.PUBLIC_URL}${SIMULATOR_PATH}`,
  });
}

/** Shared through globalThis: the server's bundle and the Remix build each have their own copy of this module. */
const PROVIDER_KEY = Symbol.for('lvyou.payment-provider');
type WithProvider = typeof globalThis & { [PROVIDER_KEY]?: { config: AppConfig | null; provider: PaymentProvider } };

/**
 * The provider this process talks to (the checkout page, the callback route, the outbox worker's payment lane,
 * reconciliation): made from the configuration on first use, and again if the configuration is replaced.
 * PAYMENT_SIMULATOR_URL points the simulator provider at a simulator on its own port; `usePaymentProvider` sets one.
 */
export function paymentProvider(): PaymentProvider {
  const g = globalThis as WithProvider;
  const config = getConfig();
  const held = g[PROVIDER_KEY];
  if (held && (held.config === null || held.config === config)) return held.provider;
  const provider = createPaymentProvider(config, { simulatorBaseUrl: config.PAYMENT_SIMULATOR_URL });
  g[PROVIDER_KEY] = { config, provider };
  return provider;
}

/** Sets the provider for this process whatever the configuration says (undefined: back to the configured one). */
export function usePaymentProvider(provider: PaymentProvider | undefined): void {
  (globalThis as WithProvider)[PROVIDER_KEY] = provider ? { config: null, provider } : undefined;
}

/** Origins other than ours the checkout page's form may be posted to (the CSP's form-action): the provider's. */
export function checkoutFormOrigins(): string[] {
  const config = getConfig();
  const base = paymentProviderName(config) === 'ecpay' ? ECPAY_ENDPOINTS[config.ECPAY_MODE] : config.PAYMENT_SIMULATOR_URL ?? config.PUBLIC_URL;
  const origin = new URL(base).origin;
  return origin === new URL(config.PUBLIC_URL).origin ? [] : [origin];
}
