import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkMacSource, checkMacValue, ecpayUrlEncode, hasValidCheckMacValue, signed } from '~/services/payments/check-mac-value.server';
import { createEcpayProvider } from '~/services/payments/ecpay.server';
import { ecpayDateTime, parseEcpayDateTime, providerText } from '~/services/payments/ecpay-protocol.server';

/**
 * ECPay's CheckMacValue (docs/decisions/039): known answers. The first is the worked example of ECPay's developer
 * documentation (AioCheckOut, "Appendix / Checksum Mechanism"); the others are built here step by step from the
 * published algorithm, with the encoding of each character written out by hand.
 */
const sha256Upper = (text: string) => crypto.createHash('sha256').update(text, 'utf8').digest('hex').toUpperCase();

describe('CheckMacValue', () => {
  it("matches the worked example of ECPay's documentation", () => {
    const params = {
      TradeDesc: '促銷方案',
      PaymentType: 'aio',
      MerchantTradeDate: '2023/03/12 15:30:23',
      MerchantTradeNo: 'ecpay20230312153023',
      MerchantID: '3002607',
      ReturnURL: 'https://www.ecpay.com.tw/receive.php',
      ItemName: 'Apple iphone 15',
      TotalAmount: '30000',
      ChoosePayment: 'ALL',
      EncryptType: '1',
    };
    const keys = { hashKey: 'pwFHCqoQZGmho4w6', hashIv: 'EkRm7iFT261dpevs' };
    // Steps 1–2 as the documentation prints them.
    expect(checkMacSource(params, keys)).toBe(
      'HashKey=pwFHCqoQZGmho4w6&ChoosePayment=ALL&EncryptType=1&ItemName=Apple iphone 15&MerchantID=3002607&MerchantTradeDate=2023/03/12 15:30:23&MerchantTradeNo=ecpay20230312153023&PaymentType=aio&ReturnURL=https://www.ecpay.com.tw/receive.php&TotalAmount=30000&TradeDesc=促銷方案&HashIV=EkRm7iFT261dpevs',
    );
    // Steps 3–4 (encoded, lower-cased) as the documentation prints them.
    expect(ecpayUrlEncode(checkMacSource(params, keys))).toBe(
      'hashkey%3dpwfhcqoqzgmho4w6%26choosepayment%3dall%26encrypttype%3d1%26itemname%3dapple+iphone+15%26merchantid%3d3002607%26merchanttradedate%3d2023%2f03%2f12+15%3a30%3a23%26merchanttradeno%3decpay20230312153023%26paymenttype%3daio%26returnurl%3dhttps%3a%2f%2fwww.ecpay.com.tw%2freceive.php%26totalamount%3d30000%26tradedesc%3d%e4%bf%83%e9%8a%b7%e6%96%b9%e6%a1%88%26hashiv%3dekrm7ift261dpevs',
    );
    expect(checkMacValue(params, keys)).toBe('6C51C9E6888DE861FD62FB1DD17029FC742634498FD813DC43D4243B5685B840');
  });

  it("encodes as the documentation's MD5 example does (same encoding rules: '-', ':', spaces, an empty value)", () => {
    const params = { RtnCode: '1', RtnMsg: '', IA_Allow_No: '1909181313013546', IA_Invoice_No: 'UV11100019', IA_Date: '2019-09-18 13:13:23', IIS_Remain_Allowance_Amt: '0' };
    const encoded = ecpayUrlEncode(checkMacSource(params, { hashKey: 'ejCk326UnaZWKisg', hashIv: 'q9jcZX8Ib9LM8wYk' }));
    expect(encoded).toBe(
      'hashkey%3dejck326unazwkisg%26ia_allow_no%3d1909181313013546%26ia_date%3d2019-09-18+13%3a13%3a23%26ia_invoice_no%3duv11100019%26iis_remain_allowance_amt%3d0%26rtncode%3d1%26rtnmsg%3d%26hashiv%3dq9jczx8ib9lm8wyk',
    );
    expect(crypto.createHash('md5').update(encoded).digest('hex').toUpperCase()).toBe('50A276E71DAE26343013958B405EEEA0');
  });

  it('follows the algorithm step by step on characters each encoding rule touches', () => {
    const keys = { hashKey: 'AbCdEfGh12345678', hashIv: 'ZyXwVuTs87654321' };
    // Names sorted case-insensitively (ordinal on the lower-cased name): abc < ABD < Abe < b_x < B-y? '-'(2d) < '_'(5f).
    const params = { b_x: 'x', Abe: "it's~", ABD: 'a+b&c=d', abc: 'A-_.!*()Z', 'B-y': '臺北 101', CheckMacValue: 'ignored' };
    const source = 'HashKey=AbCdEfGh12345678&abc=A-_.!*()Z&ABD=a+b&c=d&Abe=it\'s~&B-y=臺北 101&b_x=x&HashIV=ZyXwVuTs87654321';
    expect(checkMacSource(params, keys)).toBe(source);
    // By hand: '=' %3d, '&' %26, '+' %2b, ' ' +, "'" %27, '~' %7e, '-_.!*()' kept, 臺 e8 87 ba, 北 e5 8c 97; all lower case.
    const encoded =
      'hashkey%3dabcdefgh12345678%26abc%3da-_.!*()z%26abd%3da%2bb%26c%3dd%26abe%3dit%27s%7e%26b-y%3d%e8%87%ba%e5%8c%97+101%26b_x%3dx%26hashiv%3dzyxwvuts87654321';
    expect(ecpayUrlEncode(source)).toBe(encoded);
    expect(checkMacValue(params, keys)).toBe(sha256Upper(encoded));
    expect(checkMacValue(params, keys)).toMatch(/^[0-9A-F]{64}$/);
  });

  it('checks a signature in constant time, refusing any change of a value, a name, or the keys', () => {
    const keys = { hashKey: 'AbCdEfGh12345678', hashIv: 'ZyXwVuTs87654321' };
    const message = signed({ MerchantID: '9990001', TradeAmt: '3000', RtnCode: '1' }, keys);
    expect(hasValidCheckMacValue(message, keys)).toBe(true);
    expect(hasValidCheckMacValue({ ...message, TradeAmt: '30' }, keys)).toBe(false);
    expect(hasValidCheckMacValue({ ...message, Extra: '' }, keys)).toBe(false);
    expect(hasValidCheckMacValue({ ...message, CheckMacValue: message.CheckMacValue!.slice(1) }, keys)).toBe(false);
    expect(hasValidCheckMacValue({ ...message, CheckMacValue: '' }, keys)).toBe(false);
    expect(hasValidCheckMacValue(message, { ...keys, hashIv: 'ZyXwVuTs87654322' })).toBe(false);
  });
});

describe('ECPay adapter without the network', () => {
  const keys = { hashKey: 'AbCdEfGh12345678', hashIv: 'ZyXwVuTs87654321' };
  const ecpay = createEcpayProvider({ name: 'ecpay', merchantId: '3002607', keys, baseUrl: 'https://payment-stage.ecpay.com.tw' });
  const form = new Headers({ 'content-type': 'application/x-www-form-urlencoded' });
  const callback = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const paid = signed(
    { MerchantID: '3002607', MerchantTradeNo: 'LY12T3', StoreID: '', RtnCode: '1', RtnMsg: 'Succeeded', TradeNo: '2611291200001234', TradeAmt: '3000', PaymentDate: '2026/11/29 20:00:01', PaymentType: 'Credit_CreditCard', CustomField1: '12' },
    keys,
  );

  it('builds a signed AioCheckOut form for a credit-card payment', () => {
    const start = ecpay.startCheckout({
      orderId: 12,
      merchantTradeNo: 'LY12T3',
      amount: 3000,
      createdAt: new Date('2026-11-29T03:04:05Z'),
      itemName: '導覽 #1\n台北',
      callbackUrl: 'https://example.tw/api/payments/ecpay/callback',
      returnUrl: 'https://example.tw/orders/12/payment',
    });
    expect(start.kind).toBe('form');
    if (start.kind !== 'form') return;
    expect(start.action).toBe('https://payment-stage.ecpay.com.tw/Cashier/AioCheckOut/V5');
    expect(start.fields).toMatchObject({
      MerchantID: '3002607',
      MerchantTradeNo: 'LY12T3',
      MerchantTradeDate: '2026/11/29 11:04:05',
      PaymentType: 'aio',
      TotalAmount: '3000',
      ChoosePayment: 'Credit',
      EncryptType: '1',
      ItemName: '導覽 1 台北',
      ReturnURL: 'https://example.tw/api/payments/ecpay/callback',
    });
    expect(hasValidCheckMacValue(start.fields, keys)).toBe(true);
    expect(() => ecpay.startCheckout({ ...{ orderId: 1, amount: 1, createdAt: new Date(), itemName: 'x', callbackUrl: 'x', returnUrl: 'x' }, merchantTradeNo: 'has-dash' })).toThrow(RangeError);
  });

  it('verifies a callback into a normalised event, answered 1|OK', () => {
    const verdict = ecpay.verifyCallback(callback(paid), form);
    expect(verdict).toMatchObject({
      ok: true,
      reply: '1|OK',
      event: { kind: 'authorised', merchantTradeNo: 'LY12T3', providerTradeNo: '2611291200001234', amount: 3000, providerEventId: '2611291200001234:1', paidAt: new Date('2026-11-29T12:00:01Z') },
    });
  });

  it('refuses a forged CheckMacValue, a changed amount, another merchant, and what is not a form', () => {
    expect(ecpay.verifyCallback(callback({ ...paid, CheckMacValue: 'F'.repeat(64) }), form)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(ecpay.verifyCallback(callback({ ...paid, TradeAmt: '1' }), form)).toEqual({ ok: false, reason: 'bad_signature' });
    // Signed with other keys (another merchant's, or a guess).
    const forged = signed({ ...paid, CheckMacValue: '' }, { hashKey: 'AbCdEfGh12345679', hashIv: keys.hashIv });
    expect(ecpay.verifyCallback(callback(forged), form)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(ecpay.verifyCallback(callback(signed({ ...paid, MerchantID: '2000132' }, keys)), form)).toEqual({ ok: false, reason: 'wrong_merchant' });
    expect(ecpay.verifyCallback(JSON.stringify(paid), new Headers({ 'content-type': 'application/json' }))).toEqual({ ok: false, reason: 'malformed' });
    const { CheckMacValue: _m, ...unsigned } = paid;
    expect(ecpay.verifyCallback(callback(unsigned), form)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('writes and reads Taiwan times in ECPay’s format, and keeps free text to one clean line', () => {
    expect(ecpayDateTime(new Date('2026-12-31T16:30:00Z'))).toBe('2027/01/01 00:30:00');
    expect(parseEcpayDateTime('2027/01/01 00:30:00')).toEqual(new Date('2026-12-31T16:30:00Z'));
    expect(parseEcpayDateTime('2027-01-01')).toBeNull();
    expect(providerText('a\u0000b#c\u200bd   e', 200)).toBe('a b c d e');
    expect(providerText('', 10)).toBe('-');
  });
});
