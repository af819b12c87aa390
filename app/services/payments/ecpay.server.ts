import type { PaymentProviderName } from '~/lib/payments';
import { hasValidCheckMacValue, signed, type EcpayKeys } from './check-mac-value.server';
import {
  CALLBACK_ACCEPTED,
  DO_ACTIONS,
  ECPAY_PATHS,
  ecpayDateTime,
  formFields,
  MERCHANT_TRADE_NO,
  parseEcpayDateTime,
  providerText,
  RTN_SUCCESS,
  TRADE_STATUS,
  type DoAction,
} from './ecpay-protocol.server';
import { postForm, ProviderUnavailableError, type FormPostOptions } from './form-post.server';
import type { ActionResult, CallbackVerdict, CheckoutRequest, CheckoutStart, PaymentProvider, TradeInfo, TradeRef } from './provider.server';

/**
 * The ECPay adapter (docs/decisions/039): ECPay's all-in-one credit-card checkout, written from its published
 * protocol (ecpay-protocol.server.ts, check-mac-value.server.ts). The same adapter, pointed at our simulator's
 * path with the simulator's keys, is the `simulator` provider.
 */
export const ECPAY_ENDPOINTS = {
  stage: 'https://payment-stage.ecpay.com.tw',
  production: 'https://payment.ecpay.com.tw',
} as const;

export interface EcpaySettings {
  name: PaymentProviderName;
  merchantId: string;
  keys: EcpayKeys;
  /** Where the protocol's paths live: ECPay's stage or production host, or the simulator's base URL. */
  baseUrl: string;
  http?: FormPostOptions;
}

/** The fields a callback must carry to mean anything. */
const CALLBACK_FIELDS = ['MerchantID', 'MerchantTradeNo', 'RtnCode', 'TradeNo', 'TradeAmt', 'CheckMacValue'] as const;

export function createEcpayProvider(settings: EcpaySettings): PaymentProvider {
  const { merchantId, keys } = settings;
  const base = settings.baseUrl.replace(/\/$/, '');

  async function doAction(trade: TradeRef, action: DoAction, amount: number): Promise<ActionResult> {
    const { body, status } = await postForm(
      `${base}${ECPAY_PATHS.doAction}`,
      signed(
        { MerchantID: merchantId, MerchantTradeNo: trade.merchantTradeNo, TradeNo: trade.providerTradeNo, Action: action, TotalAmount: String(amount) },
        keys,
      ),
      settings.http,
    );
    if (status < 200 || status >= 300) throw new ProviderUnavailableError(`${base}${ECPAY_PATHS.doAction}`, `HTTP ${status}`);
    const answer = formFields(body);
    if (answer.RtnCode === undefined) throw new ProviderUnavailableError(`${base}${ECPAY_PATHS.doAction}`, 'answer without RtnCode');
    return answer.RtnCode === RTN_SUCCESS ? { ok: true } : { ok: false, code: answer.RtnCode, message: answer.RtnMsg ?? '' };
  }

  return {
    name: settings.name,

    startCheckout(request: CheckoutRequest): CheckoutStart {
      if (!MERCHANT_TRADE_NO.test(request.merchantTradeNo)) throw new RangeError('MerchantTradeNo must be 1–20 letters or digits');
      if (!Number.isSafeInteger(request.amount) || request.amount <= 0) throw new RangeError('the amount must be a positive whole NT$ amount');
      const fields = signed(
        {
          MerchantID: merchantId,
          MerchantTradeNo: request.merchantTradeNo,
          MerchantTradeDate: ecpayDateTime(request.createdAt),
          PaymentType: 'aio',
          TotalAmount: String(request.amount),
          TradeDesc: providerText(`Order ${request.orderId}`, 200),
          ItemName: providerText(request.itemName, 200),
          ReturnURL: request.callbackUrl,
          OrderResultURL: request.returnUrl,
          ClientBackURL: request.returnUrl,
          ChoosePayment: 'Credit',
          EncryptType: '1',
          NeedExtraPaidInfo: 'N',
          CustomField1: String(request.orderId),
        },
        keys,
      );
      return { kind: 'form', action: `${base}${ECPAY_PATHS.checkout}`, fields };
    },

    verifyCallback(rawBody: string, headers: Headers): CallbackVerdict {
      const type = headers.get('content-type') ?? '';
      if (!/^application\/x-www-form-urlencoded\b/i.test(type) || rawBody.length > 16 * 1024) return { ok: false, reason: 'malformed' };
      const raw = formFields(rawBody);
      if (CALLBACK_FIELDS.some((name) => typeof raw[name] !== 'string')) return { ok: false, reason: 'malformed' };
      if (!hasValidCheckMacValue(raw, keys)) return { ok: false, reason: 'bad_signature' };
      if (raw.MerchantID !== merchantId) return { ok: false, reason: 'wrong_merchant' };
      const amount = Number(raw.TradeAmt);
      if (!MERCHANT_TRADE_NO.test(raw.MerchantTradeNo!) || !Number.isSafeInteger(amount) || amount <= 0) return { ok: false, reason: 'malformed' };
      const { CheckMacValue: _mac, ...fields } = raw;
      return {
        ok: true,
        reply: CALLBACK_ACCEPTED,
        event: {
          // ECPay sends one result per trade; a repeated delivery repeats it exactly.
          providerEventId: `${raw.TradeNo}:${raw.RtnCode}`,
          kind: raw.RtnCode === RTN_SUCCESS ? 'authorised' : 'failed',
          merchantTradeNo: raw.MerchantTradeNo!,
          providerTradeNo: raw.TradeNo!,
          amount,
          paidAt: parseEcpayDateTime(raw.PaymentDate),
          raw: fields,
        },
      };
    },

    capture: (trade, amount) => doAction(trade, DO_ACTIONS.capture, amount),
    // An authorisation not yet captured is given up (N); ECPay's E only undoes a capture before settlement.
    void: (trade, amount) => doAction(trade, DO_ACTIONS.giveUp, amount),
    refund: (trade, amount) => doAction(trade, DO_ACTIONS.refund, amount),

    async queryTrade(merchantTradeNo: string): Promise<TradeInfo> {
      const url = `${base}${ECPAY_PATHS.queryTradeInfo}`;
      const { body, status } = await postForm(
        url,
        signed({ MerchantID: merchantId, MerchantTradeNo: merchantTradeNo, TimeStamp: String(Math.floor(Date.now() / 1000)) }, keys),
        settings.http,
      );
      if (status < 200 || status >= 300) throw new ProviderUnavailableError(url, `HTTP ${status}`);
      const answer = formFields(body);
      // An answer we cannot verify is no answer: never reconcile against it.
      if (!hasValidCheckMacValue(answer, keys) || answer.MerchantTradeNo !== merchantTradeNo) throw new ProviderUnavailableError(url, 'unverifiable answer');
      const { CheckMacValue: _mac, ...raw } = answer;
      const tradeStatus = answer.TradeStatus;
      const known = { [TRADE_STATUS.paid]: 'paid', [TRADE_STATUS.unpaid]: 'unpaid', [TRADE_STATUS.failed]: 'failed' } as const;
      // Any other code is the query's own error (a stale timestamp, an unknown trade): no statement about the trade.
      const tradeState = known[tradeStatus as keyof typeof known];
      if (!tradeState) throw new ProviderUnavailableError(url, `TradeStatus ${tradeStatus ?? 'missing'}`);
      return {
        merchantTradeNo,
        providerTradeNo: answer.TradeNo || null,
        status: tradeState,
        amount: Number(answer.TradeAmt ?? 0),
        paidAt: parseEcpayDateTime(answer.PaymentDate),
        raw,
      };
    },
  };
}
