/**
 * What both sides of ECPay's all-in-one (AIO) credit-card protocol agree on (docs/decisions/039): the paths, the
 * time format, the answers. Our adapter (ecpay.server.ts) and our simulator (simulator.server.ts) both read it, so
 * they cannot drift apart; the CheckMacValue is check-mac-value.server.ts.
 */
export const ECPAY_PATHS = {
  /** The browser posts the checkout form here; the provider shows its card page. */
  checkout: '/Cashier/AioCheckOut/V5',
  /** Server to server: C capture (關帳), R refund (退刷), E cancel a capture (取消), N give up the authorisation (放棄). */
  doAction: '/CreditDetail/DoAction',
  /** Server to server: what the provider knows of one trade. */
  queryTradeInfo: '/Cashier/QueryTradeInfo/V5',
} as const;

export const DO_ACTIONS = { capture: 'C', refund: 'R', cancelCapture: 'E', giveUp: 'N' } as const;
export type DoAction = (typeof DO_ACTIONS)[keyof typeof DO_ACTIONS];

/** What the merchant answers a ReturnURL callback it has stored; anything else makes ECPay send it again. */
export const CALLBACK_ACCEPTED = '1|OK';

/** RtnCode of a successful payment or action. */
export const RTN_SUCCESS = '1';

/** QueryTradeInfo's TradeStatus: not paid yet, paid, failed. */
export const TRADE_STATUS = { unpaid: '0', paid: '1', failed: '10200095' } as const;

/** A MerchantTradeNo: at most 20 letters and digits. */
export const MERCHANT_TRADE_NO = /^[A-Za-z0-9]{1,20}$/;

const TAIPEI_OFFSET_MS = 8 * 3_600_000;

/** ECPay's times are Taiwan times written `yyyy/MM/dd HH:mm:ss`. */
export function ecpayDateTime(date: Date): string {
  const t = new Date(date.getTime() + TAIPEI_OFFSET_MS).toISOString();
  return `${t.slice(0, 4)}/${t.slice(5, 7)}/${t.slice(8, 10)} ${t.slice(11, 19)}`;
}

export function parseEcpayDateTime(text: string | undefined): Date | null {
  const m = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text ?? '');
  if (!m) return null;
  const utc = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) - TAIPEI_OFFSET_MS;
  return Number.isNaN(utc) ? null : new Date(utc);
}

/** Parses a form body (the provider's answers and callbacks) into its fields; a repeated name keeps the first. */
export function formFields(body: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(body)) if (!(name in fields)) fields[name] = value;
  return fields;
}

/**
 * ItemName and TradeDesc are free text on the provider's page: one line, no `#` (ECPay's item separator), no
 * control characters, and within the field's length.
 */
export function providerText(text: string, max: number): string {
  const clean = text.replace(/[\p{Cc}\p{Cf}#]/gu, ' ').replace(/\s+/g, ' ').trim();
  return [...clean].slice(0, max).join('') || '-';
}
