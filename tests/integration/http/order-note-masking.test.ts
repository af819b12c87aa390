import { describe, expect, it } from 'vitest';
import { MASK } from '~/lib/contact-mask';
import { changeOrder, getOrderDetail, getOrderFor, listOrders } from '~/services/booking/orders.server';
import { createGuide, createOrder, createTraveler, createUser } from '~server/seed/factories';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { expectContract } from '../../support/openapi';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 31: the booking note is masked for the guide until the order is confirmed, like chat (decision 034).
 * Through the service and through every HTTP door the guide reads an order by: GET /api/v1/orders/{id},
 * GET /api/v1/orders, the answer of PUT /api/v1/orders/{id}, and the order page. The traveler and admins read the
 * note as written, always.
 */
useTestDatabase();
const server = useTestServer();

const NOTE = '我的 LINE ID 是 chen_guide88，電話 0912/345/678，請先聯絡我';
const SECRETS = ['chen_guide88', '0912', '345/678'];

function expectMasked(note: string | null) {
  expect(note).toContain(MASK);
  for (const secret of SECRETS) expect(note).not.toContain(secret);
  expect(note).toContain('請先聯絡我');
}

async function setting() {
  const traveler = await createTraveler({ name: '旅客小美' });
  const guide = await createGuide({ name: '導遊阿明' });
  const admin = await createUser({ type: 'admin' });
  const order = await createOrder({ travelerId: traveler.id, guideId: guide.id, status: 'pending', note: NOTE });
  return { traveler, guide, admin, order };
}

describe(`the booking note before confirmation (${testDriver})`, () => {
  it('service: the guide reads it masked on a pending order and in full once confirmed; the traveler and admins always in full', async () => {
    const { traveler, guide, admin, order } = await setting();

    const forGuide = await getOrderDetail(guide, order.id);
    expectMasked(forGuide.order.note);
    expect(forGuide.order.noteMasked).toBe(true);
    expectMasked((await listOrders(guide, { page: 1, limit: 10 })).orders[0]!.note);
    expectMasked((await getOrderFor(guide, order.id)).note);

    for (const reader of [traveler, admin]) {
      const shown = (await getOrderDetail(reader, order.id)).order;
      expect(shown).toMatchObject({ note: NOTE, noteMasked: false });
    }
    expect((await listOrders(traveler, { page: 1, limit: 10 })).orders[0]!.note).toBe(NOTE);

    const confirmed = await changeOrder(guide, order.id, { action: 'confirm' });
    expect(confirmed.order).toMatchObject({ status: 'confirmed', note: NOTE, noteMasked: false });
    expect((await getOrderDetail(guide, order.id)).order.note).toBe(NOTE);
    expect((await listOrders(guide, { page: 1, limit: 10 })).orders[0]!.note).toBe(NOTE);
  });

  it('HTTP: GET /api/v1/orders/{id} and GET /api/v1/orders as the guide mask it until the guide confirms; the traveler reads it in full', async () => {
    const { traveler, guide, order } = await setting();
    const g = await loginAs(guide);
    const t = await loginAs(traveler);

    const one = await server.request(`/api/v1/orders/${order.id}`, { token: g.token });
    expect(one.status).toBe(200);
    await expectContract(server, 'GET', '/api/v1/orders/{id}', one);
    expectMasked(one.json.data.order.note);
    expect(one.json.data.order.noteMasked).toBe(true);
    for (const secret of SECRETS) expect(one.text).not.toContain(secret);

    const list = await server.request('/api/v1/orders', { token: g.token });
    expect(list.status).toBe(200);
    await expectContract(server, 'GET', '/api/v1/orders', list);
    expectMasked(list.json.data.orders[0].note);
    for (const secret of SECRETS) expect(list.text).not.toContain(secret);

    const page = await server.request(`/orders/${order.id}`, { cookie: g.cookie });
    expect(page.status).toBe(200);
    for (const secret of SECRETS) expect(page.text).not.toContain(secret);
    expect(page.text).toContain('data-testid="note-masked"');

    const byTraveler = await server.request(`/api/v1/orders/${order.id}`, { token: t.token });
    expect(byTraveler.json.data.order).toMatchObject({ note: NOTE, noteMasked: false });
    const travelerPage = await server.request(`/orders/${order.id}`, { cookie: t.cookie });
    expect(travelerPage.text).toContain('chen_guide88');

    const confirm = await server.request(`/api/v1/orders/${order.id}`, { method: 'PUT', token: g.token, json: { status: 'confirmed' } });
    expect(confirm.status).toBe(200);
    expect(confirm.json.data.order).toMatchObject({ status: 'confirmed', note: NOTE, noteMasked: false });
    const after = await server.request(`/api/v1/orders/${order.id}`, { token: g.token });
    expect(after.json.data.order).toMatchObject({ note: NOTE, noteMasked: false });
    expect((await server.request(`/orders/${order.id}`, { cookie: g.cookie })).text).toContain('chen_guide88');
    expect((await server.request(`/api/v1/orders/${order.id}`, { token: t.token })).json.data.order.note).toBe(NOTE);
  });

  it('HTTP: a guide who declines never reads it; the answer of the decline is masked too', async () => {
    const { guide, order } = await setting();
    const g = await loginAs(guide);
    const decline = await server.request(`/api/v1/orders/${order.id}`, { method: 'PUT', token: g.token, json: { status: 'cancelled' } });
    expect(decline.status).toBe(200);
    expect(decline.json.data.order.status).toBe('cancelled');
    expectMasked(decline.json.data.order.note);
    expectMasked((await server.request(`/api/v1/orders/${order.id}`, { token: g.token })).json.data.order.note);
  });

  it('a note without contact details reads the same for everyone', async () => {
    const traveler = await createTraveler();
    const guide = await createGuide();
    const note = '我們 2 大 2 小，12/24 10:00 在台北車站見，預算 NT$3,000';
    const order = await createOrder({ travelerId: traveler.id, guideId: guide.id, status: 'pending', note });
    const g = await loginAs(guide);
    expect((await server.request(`/api/v1/orders/${order.id}`, { token: g.token })).json.data.order).toMatchObject({ note, noteMasked: false });
  });
});
