import { ConfigError, getConfig, type AppConfig } from '~/env.server';
import type { PaymentProviderName } from '~/lib/payments';
import { createEcpayProvider, ECPAY_ENDPOINTS } from './ecpay.server';
import type { PaymentProvider } from './provider.server';
import { SIMULATOR_MERCHANT, SIMULATOR_PATH } from './simulator.server';

type PaymentConfig = Pick<
  AppConfig,
  'NODE_ENV' | 'DATABASE_URL' | 'PUBLIC_URL' | 'PAYMENT_PROVIDER' | 'ECPAY_MERCHANT_ID' | 'ECPAY_HASH_KEY' | 'ECPAY_HASH_IV' | 'ECPAY_MODE'
>;

/**
 * The provider this deployment takes payments with: the built-in simulator unless PAYMENT_PROVIDER says otherwise.
 * A production deployment on PostgreSQL must name it, so the simulator never takes "payments" there by accident.
 */
export function paymentProviderName(config: Pick<PaymentConfig, 'NODE_ENV' | 'DATABASE_URL' | 'PAYMENT_PROVIDER'>): PaymentProviderName {
  if (config.PAYMENT_PROVIDER) return config.PAYMENT_PROVIDER;
  if (config.NODE_ENV === 'production' && config.DATABASE_URL) {
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

let current: PaymentProvider | undefined;

/**
 * The provider this process talks to (the checkout page, the callback route, the outbox worker's payment lane,
 * reconciliation): made from the configuration on first use. `usePaymentProvider` replaces it where the simulator
 * listens somewhere else than PUBLIC_URL (a test server on a random port, the simulator on its own port).
 */
export function paymentProvider(): PaymentProvider {
  current ??= createPaymentProvider(getConfig(), { simulatorBaseUrl: process.env.PAYMENT_SIMULATOR_URL || undefined });
  return current;
}

export function usePaymentProvider(provider: PaymentProvider | undefined): void {
  current = provider;
}
