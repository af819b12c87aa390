import type { MatrixRole, Outcome } from './lib/authorization-roles';

/*
 * Who may do what, route by route: the hand-kept half of the authorization matrix (docs/authorization-matrix.md).
 * API routes start from their contract's `auth` (public: everyone; user: any session; roles: those roles);
 * `allow` narrows it to the object's owners, `denied` says how others are refused (404 where existence is
 * private), `outcomes` names any other expected answer. Pages name `allow` themselves. A route without an
 * entry stops scripts/authorization-matrix.ts. The world: see ROLE_MEANING in lib/authorization-roles.ts.
 */
export interface RoutePolicy {
  allow?: readonly MatrixRole[] | 'all' | 'users';
  denied?: Outcome;
  outcomes?: Partial<Record<MatrixRole, Outcome>>;
  /** A body-less write: roles that may make it are not driven (it would change the shared world). */
  mutates?: true;
  /** A well-formed body sent by refused roles (fixtures in braces). */
  valid?: Record<string, unknown>;
  /** The URL when the path's own fixture is not the one to ask for. */
  url?: string;
  /** Refused roles that get 400 for an invalid body (a known deviation, shown with ⚠ in the table). */
  validatesFirst?: readonly MatrixRole[];
  /** Who may, in words, for pages. */
  who?: string;
  note?: string;
}

const ALL = 'all' as const;
const USERS = 'users' as const;
const SELF_ADMIN: MatrixRole[] = ['traveler', 'admin'];
const GUIDE_ADMIN: MatrixRole[] = ['guide', 'admin'];
const ORDER_PARTIES: MatrixRole[] = ['traveler', 'guide', 'admin'];
const ADMIN: MatrixRole[] = ['admin'];
const TRAVELERS: MatrixRole[] = ['traveler', 'otherTraveler'];
const GUIDES: MatrixRole[] = ['guide', 'otherGuide'];
/** The traveler and the guide of the world's conversation. */
const CHAT_PARTIES: MatrixRole[] = ['traveler', 'guide'];

const every = (outcome: Outcome): Partial<Record<MatrixRole, Outcome>> =>
  Object.fromEntries(['visitor', 'traveler', 'otherTraveler', 'guide', 'otherGuide', 'admin', 'blocked'].map((r) => [r, outcome]));
/** Sessions that are not blocked. */
const loggedIn = (outcome: Outcome): Partial<Record<MatrixRole, Outcome>> =>
  Object.fromEntries(['traveler', 'otherTraveler', 'guide', 'otherGuide', 'admin'].map((r) => [r, outcome]));

export const ROUTE_POLICY: Record<string, RoutePolicy> = {
  // ── /api/v1: home banners (issue 22) ──
  'GET /api/v1/admin/banners': {},
  'POST /api/v1/admin/banners': { valid: { title: '偷偷加的橫幅', isActive: true } },
  'PUT /api/v1/admin/banners/{id}': { valid: { title: '改掉的橫幅' } },
  'DELETE /api/v1/admin/banners/{id}': { mutates: true },
  'POST /api/v1/admin/banners/{id}/move': { valid: { direction: 'down' } },
  // ── /api/v1: admin ──
  'GET /api/v1/admin/logs/export.csv': {},
  // ── /api/v1: the admin's finance area (issue 32) ──
  'GET /api/v1/admin/ledger': {},
  'GET /api/v1/admin/payments': {},
  'GET /api/v1/admin/payouts': {},
  'GET /api/v1/admin/payouts/export.csv': {},
  'POST /api/v1/admin/payouts/{id}/paid': { mutates: true, url: '/api/v1/admin/payouts/1/paid', note: 'moves money in the ledger: not sent as admin' },
  'GET /api/v1/admin/reconciliation': {},
  'POST /api/v1/admin/reconciliation': { mutates: true, note: 'asks the payment provider and stores a run: not sent as admin' },
  'GET /api/v1/admin/refunds-in-doubt': {},
  'POST /api/v1/admin/refunds-in-doubt': { valid: { key: 'order:1:cancel:refund', outcome: 'refunded' } },
  // ── /api/v1: authentication ──
  'POST /api/v1/auth/forgot-password': {},
  'POST /api/v1/auth/login': {},
  'POST /api/v1/auth/logout': { mutates: true },
  'POST /api/v1/auth/register': {},
  'POST /api/v1/auth/resend-verification': {},
  'POST /api/v1/auth/reset-password': {},
  'POST /api/v1/auth/verify-email': {},
  // ── message board ──
  'GET /api/v1/board/posts': {},
  'POST /api/v1/board/posts': {
    allow: TRAVELERS,
    valid: { body: '想找台南一日遊的導遊', city: 'tainan', languages: ['zh'] },
    validatesFirst: ['guide', 'otherGuide', 'admin'],
    note: 'travelers only, checked after the body',
  },
  'PUT /api/v1/board/posts/{id}': {
    allow: ['traveler'],
    valid: { body: '想找台南一日遊的導遊（改）' },
    note: 'the author only (admins hide, they do not edit)',
  },
  'DELETE /api/v1/board/posts/{id}': { allow: SELF_ADMIN, mutates: true, note: 'the author, admins' },
  'PATCH /api/v1/board/posts/{id}/hide': { valid: { reason: '廣告' } },
  'GET /api/v1/board/posts/{id}/replies': {},
  'POST /api/v1/board/posts/{id}/replies': {
    allow: ['traveler', 'guide', 'otherGuide'],
    valid: { body: '我可以帶你去' },
    validatesFirst: ['otherTraveler', 'admin'],
    note: "guides and the post's author, checked after the body",
  },
  'DELETE /api/v1/board/replies/{id}': { allow: GUIDE_ADMIN, mutates: true, note: 'its author (the guide), admins' },
  'PATCH /api/v1/board/replies/{id}/hide': { valid: { reason: '廣告' } },
  // ── chat ──
  'GET /api/v1/chats': {},
  'POST /api/v1/chats': {
    allow: TRAVELERS,
    valid: { guideId: '{otherGuide}', message: '你好' },
    validatesFirst: ['guide', 'otherGuide', 'admin'],
    note: 'travelers only, checked after the body',
  },
  'GET /api/v1/chats/{id}': { allow: ORDER_PARTIES, denied: '404', note: 'its traveler and guide, admins' },
  'POST /api/v1/chats/{id}/block': {
    allow: CHAT_PARTIES,
    denied: '404',
    outcomes: { admin: '403' },
    valid: { blocked: true },
    validatesFirst: ['admin'],
    note: 'admins read but do not act: refused after the body',
  },
  'GET /api/v1/chats/{id}/messages': { allow: ORDER_PARTIES, denied: '404', note: 'its traveler and guide, admins' },
  'POST /api/v1/chats/{id}/messages': {
    allow: CHAT_PARTIES,
    denied: '404',
    outcomes: { admin: '403' },
    valid: { text: '你好', clientId: 'matrix-refused' },
    validatesFirst: ['admin'],
    note: 'admins read but cannot send: refused after the body',
  },
  'PUT /api/v1/chats/{id}/read': { allow: ORDER_PARTIES, denied: '404', mutates: true },
  'POST /api/v1/messages/{id}/report': {
    allow: ['guide'],
    denied: '404',
    outcomes: { traveler: '403', admin: '403' },
    valid: { reasonCode: 'harassment' },
    validatesFirst: ['traveler', 'admin'],
    note: 'the traveler’s message: the other participant reports it; its sender and admins are refused after the body',
  },
  // ── favorites ──
  'GET /api/v1/favorites': {},
  'POST /api/v1/favorites': { valid: { targetId: '{otherGuide}' } },
  'DELETE /api/v1/favorites/{id}': { allow: SELF_ADMIN, mutates: true },
  // ── guides ──
  'GET /api/v1/guides': {},
  'GET /api/v1/guides/suggestions': {},
  'GET /api/v1/guides/trending': {},
  'GET /api/v1/guides/{id}': {},
  'DELETE /api/v1/guides/{id}': { mutates: true },
  'GET /api/v1/guides/{id}/availability-slots': {},
  'POST /api/v1/guides/{id}/availability-slots': { allow: GUIDE_ADMIN, valid: { slots: [] } },
  'PUT /api/v1/guides/{id}/profile': { allow: GUIDE_ADMIN },
  'GET /api/v1/guides/{id}/recent-orders': { allow: GUIDE_ADMIN },
  'PUT /api/v1/guides/{id}/status': { valid: { status: 'suspended' } },
  // ── trust ──
  'GET /api/v1/id-verification': {},
  'POST /api/v1/id-verification': { outcomes: { guide: '409', otherGuide: '409', admin: '403' }, note: 'verified guides: 409; admins do not apply' },
  'GET /api/v1/id-verifications': {},
  'POST /api/v1/id-verifications/{id}/approve': { mutates: true },
  'POST /api/v1/id-verifications/{id}/reject': { valid: { reviewNotes: 'no' } },
  'GET /api/v1/photos': { url: '/api/v1/photos?guideId={guide}' },
  'POST /api/v1/photos': { outcomes: { traveler: '403', otherTraveler: '403' }, note: 'ID-verified guides and admins' },
  'DELETE /api/v1/photos/{id}': { allow: GUIDE_ADMIN, mutates: true },
  'PATCH /api/v1/photos/{id}': { valid: { status: 'rejected' } },
  // ── the guide's money (issue 32): each guide their own ──
  'GET /api/v1/earnings': { note: 'the calling guide’s own' },
  'GET /api/v1/payouts': { note: 'the calling guide’s own' },
  'GET /api/v1/payout-account': { note: 'the calling guide’s own, masked' },
  'PUT /api/v1/payout-account': {
    valid: { bankCode: '004', accountNumber: '1234567', password: 'not-the-password' },
    note: 'the calling guide’s own, with the current password',
  },
  // ── notifications ──
  'GET /api/v1/notifications': {},
  'PUT /api/v1/notifications/read-all': {},
  'GET /api/v1/notifications/unread/count': {},
  'DELETE /api/v1/notifications/{id}': { allow: ['traveler'], denied: '404', mutates: true },
  'PUT /api/v1/notifications/{id}/read': { allow: ['traveler'], denied: '404', mutates: true },
  'GET /api/v1/openapi.json': {},
  // ── web push (decision 029) ──
  'GET /api/v1/push/public-key': {},
  'GET /api/v1/push/subscriptions': { note: 'the caller’s own browsers only' },
  'POST /api/v1/push/subscriptions': {
    valid: { endpoint: 'https://push.example.com/send/matrix', keys: { p256dh: 'BExampleKey', auth: 'ExampleAuth' } },
    note: 'any session, for its own browser; the endpoint must be https on a public host',
  },
  'DELETE /api/v1/push/subscriptions': { valid: { endpoint: 'https://push.example.com/send/matrix' }, note: 'only the caller’s own subscription is deleted' },
  // ── admin statistics (issue 22) ──
  'GET /api/v1/admin/stats': {},
  // ── debug calls (issue 24, docs/decisions/030-debug-routes.md): the matrix runs outside production ──
  'GET /api/dev/users': { allow: USERS, note: 'any session outside production; in production admins only, 404 for others' },
  'POST /api/dev/users': { allow: USERS, note: 'any session outside production; in production admins only, 404 for others' },
  'PUT /api/dev/users/{id}': { allow: USERS, note: 'an admin account is 403; in production admins only, 404 for others' },
  'DELETE /api/dev/users/{id}': { allow: USERS, mutates: true, note: 'an admin account is 403; in production admins only, 404 for others' },
  // ── terms (issue 24) ──
  'GET /api/terms/current': {},
  'POST /api/terms/agree': {},
  'GET /api/v1/terms/agreement-status': {},
  // ── orders ──
  'GET /api/v1/orders': {},
  'POST /api/v1/orders': {},
  'GET /api/v1/orders/{id}': { allow: ORDER_PARTIES },
  'PUT /api/v1/orders/{id}': { allow: ORDER_PARTIES, valid: { status: 'cancelled' } },
  'DELETE /api/v1/orders/{id}': { mutates: true },
  'GET /api/v1/orders/export.csv': {},
  'POST /api/v1/orders/{id}/restore': {},
  'GET /api/v1/orders/{id}/reviews': { allow: ORDER_PARTIES },
  'POST /api/v1/orders/{id}/reviews': { allow: ['traveler', 'guide'], valid: { rating: 5, comment: '很好' }, validatesFirst: ['admin'] },
  // ── reviews ──
  'GET /api/v1/reviews': {},
  'GET /api/v1/reviews/export.csv': {},
  'DELETE /api/v1/reviews/{id}': { mutates: true },
  'PATCH /api/v1/reviews/{id}/hide': { valid: { hidden: true } },
  // ── travelers and users ──
  'GET /api/v1/travelers/{id}/recent-bookings': { allow: SELF_ADMIN },
  'GET /api/v1/travelers/{id}/recommendations': { allow: SELF_ADMIN },
  'GET /api/v1/users': {},
  'GET /api/v1/users/archived/list': {},
  'GET /api/v1/users/export.csv': {},
  'GET /api/v1/users/{id}': { allow: SELF_ADMIN },
  'PUT /api/v1/users/{id}': { allow: SELF_ADMIN, valid: { name: 'x' } },
  'DELETE /api/v1/users/{id}': { mutates: true },
  'POST /api/v1/users/{id}/avatar': { allow: SELF_ADMIN },
  'DELETE /api/v1/users/{id}/avatar': { allow: SELF_ADMIN, mutates: true },
  'POST /api/v1/users/{id}/block': { mutates: true },
  'POST /api/v1/users/{id}/email/confirm': { allow: ['traveler'] },
  'PUT /api/v1/users/{id}/restore': { mutates: true },
  'GET /api/v1/users/{id}/reviews': {},
  'GET /api/v1/users/{id}/stats': { allow: SELF_ADMIN },
  'POST /api/v1/users/{id}/unblock': { mutates: true },

  // ── pages and resource routes ──
  'GET /': { allow: ALL, who: 'anyone' },
  'GET /{splat}': { allow: ALL, who: 'anyone', outcomes: { visitor: '404', traveler: '404', otherTraveler: '404', guide: '404', otherGuide: '404', admin: '404', blocked: '404' } },
  'GET /admin': { allow: ADMIN, who: 'admin' },
  'GET /admin/banners': { allow: ADMIN, who: 'admin' },
  'POST /admin/banners': { allow: ADMIN, who: 'admin', valid: { intent: 'delete', id: '{banner}', confirmed: 'yes' } },
  'GET /admin/banners/new': { allow: ADMIN, who: 'admin' },
  'POST /admin/banners/new': { allow: ADMIN, who: 'admin', valid: { intent: 'save', title: '偷偷加的橫幅', isActive: 'on' } },
  'GET /admin/banners/{id}': { allow: ADMIN, who: 'admin' },
  'POST /admin/banners/{id}': { allow: ADMIN, who: 'admin', valid: { intent: 'save', title: '改掉的橫幅', isActive: 'on' } },
  'GET /admin/finance': { allow: ADMIN, who: 'admin' },
  'GET /admin/finance/payments': { allow: ADMIN, who: 'admin' },
  'GET /admin/finance/payouts': { allow: ADMIN, who: 'admin' },
  'POST /admin/finance/payouts': { allow: ADMIN, who: 'admin', valid: { intent: 'paid', payoutId: 1 } },
  'GET /admin/finance/reconciliation': { allow: ADMIN, who: 'admin' },
  'POST /admin/finance/reconciliation': { allow: ADMIN, who: 'admin', valid: { intent: 'run' }, note: 'also settles a refund in doubt (intent=resolve-refund)' },
  'GET /admin/guides': { allow: ADMIN, who: 'admin' },
  'GET /admin/terms': { allow: ADMIN, who: 'admin' },
  'POST /admin/terms': { allow: ADMIN, who: 'admin' },
  'GET /admin/guides/{id}': { allow: ADMIN, who: 'admin' },
  'POST /admin/guides/{id}': { allow: ADMIN, who: 'admin' },
  'GET /admin/logs': { allow: ADMIN, who: 'admin' },
  'GET /admin/stats': { allow: ADMIN, who: 'admin' },
  'GET /admin/orders': { allow: ADMIN, who: 'admin' },
  'GET /admin/orders/{id}': { allow: ADMIN, who: 'admin' },
  'POST /admin/orders/{id}': { allow: ADMIN, who: 'admin', valid: { intent: 'note', body: '已聯絡旅客' } },
  'GET /admin/users': { allow: ADMIN, who: 'admin' },
  'GET /admin/users/archived': { allow: ADMIN, who: 'admin' },
  'GET /admin/users/{id}': { allow: ADMIN, who: 'admin' },
  'POST /admin/users/{id}': { allow: ADMIN, who: 'admin', valid: { intent: 'block', confirmed: 'yes' } },
  'GET /admin/id-verification': { allow: ADMIN, who: 'admin' },
  'POST /admin/id-verification': { allow: ADMIN, who: 'admin', outcomes: { admin: '404' }, note: 'an unknown intent is 404' },
  'GET /admin/photo-review': { allow: ADMIN, who: 'admin' },
  'POST /admin/photo-review': { allow: ADMIN, who: 'admin', outcomes: { admin: '404' }, note: 'an unknown intent is 404' },
  'GET /admin/photos': { allow: ADMIN, who: 'admin' },
  'GET /admin/reports': { allow: ADMIN, who: 'admin' },
  'POST /admin/reports': { allow: ADMIN, who: 'admin', outcomes: { admin: '404' }, note: 'an unknown intent is 404' },
  'GET /admin/reviews': { allow: ADMIN, who: 'admin' },
  'POST /admin/reviews': { allow: ADMIN, who: 'admin', outcomes: { admin: '404' }, note: 'an unknown intent is 404' },
  'GET /api/docs': { allow: ALL, who: 'anyone', note: 'the API reference page (issue 33)' },
  'GET /api/{splat}': { allow: ALL, who: 'anyone', url: '/api/v1/no-such-route', outcomes: every('404') },
  'POST /api/{splat}': { allow: ALL, who: 'anyone', url: '/api/v1/no-such-route', outcomes: every('404') },
  'GET /board': { allow: ALL, who: 'anyone' },
  'POST /board': {
    allow: SELF_ADMIN,
    who: 'any session (post: travelers; delete: the author, admins; hide: admins)',
    valid: { intent: 'delete', postId: '{post}' },
    validatesFirst: ['otherTraveler', 'guide', 'otherGuide'],
    note: 'one form, many intents: read before the post’s owner is checked',
  },
  'GET /board/{postId}': { allow: ALL, who: 'anyone' },
  'POST /board/{postId}': {
    allow: ['guide', 'admin'],
    who: "any session (reply: guides and the post's author; edit: the post's author; message the author: guides; delete: the reply's author, admins; hide: admins)",
    valid: { intent: 'delete', replyId: '{reply}' },
    validatesFirst: ['traveler', 'otherTraveler', 'otherGuide'],
    note: 'one form, many intents: read before the reply’s owner is checked',
  },
  'GET /booking-success': { allow: USERS, who: 'any session', outcomes: loggedIn('404'), note: 'without an order of the caller: 404' },
  'GET /booking-terms': { allow: ALL, who: 'anyone' },
  'GET /booking/{guideId}': { allow: ALL, who: 'anyone (booking needs a traveler)' },
  'POST /booking/{guideId}': { allow: TRAVELERS, who: 'travelers', validatesFirst: ['guide', 'otherGuide', 'admin'] },
  'GET /chat': { allow: USERS, who: 'any session' },
  'GET /chat/{chatId}': { allow: ORDER_PARTIES, who: 'its traveler and guide, admins', denied: '404' },
  'POST /chat/{chatId}': {
    allow: CHAT_PARTIES,
    who: 'its traveler and guide',
    denied: '404',
    outcomes: { admin: '403' },
    valid: { intent: 'send', text: '你好', clientId: 'matrix-refused' },
    validatesFirst: ['admin'],
    note: 'admins read but cannot send: refused after the form',
  },
  'GET /chat/new': {
    allow: TRAVELERS,
    who: 'travelers',
    url: '/chat/new?guideId={otherGuide}',
    note: 'with ?orderId= instead: the order’s traveler and guide (404 for anyone else), tests/integration/http/chat-both-ways.test.ts',
  },
  'POST /chat/new': {
    allow: TRAVELERS,
    who: 'travelers',
    valid: { guideId: '{otherGuide}', message: '你好' },
    validatesFirst: ['guide', 'otherGuide', 'admin'],
    note: 'travelers only, checked after the form',
  },
  'GET /connection-test': { allow: USERS, who: 'any session (admins only in production)' },
  'GET /dev/users': { allow: USERS, who: 'any session (admins only in production)' },
  'GET /test': { allow: USERS, who: 'any session (admins only in production)' },
  'GET /api-test': { allow: USERS, who: 'any session (admins only in production)' },
  'POST /test': { allow: USERS, who: 'any session (admins only in production)', note: 'shows a toast; another intent is 400' },
  'POST /api-test': {
    allow: USERS,
    who: 'any session (admins only in production)',
    outcomes: loggedIn('2xx'),
    note: 'a form without a call makes the default one (GET /api/v1/guides) with the caller’s own login',
  },
  'GET /email-verification': { allow: USERS, who: 'any session' },
  'POST /email-verification': { allow: USERS, who: 'any session', outcomes: loggedIn('3xx'), note: 'verified accounts are sent home' },
  'GET /favorites': { allow: USERS, who: 'any session' },
  'POST /favorites': { allow: USERS, who: 'any session', outcomes: loggedIn('3xx'), note: 'back with an error toast' },
  'GET /forgot-password': { allow: ALL, who: 'anyone' },
  'POST /forgot-password': { allow: ALL, who: 'anyone' },
  'GET /guide': { allow: GUIDES, who: 'guides' },
  'GET /guide-availability': { allow: GUIDES, who: 'guides', outcomes: { traveler: '3xx', otherTraveler: '3xx', admin: '404' } },
  'POST /guide-availability': { allow: GUIDES, who: 'guides', outcomes: { traveler: '3xx', otherTraveler: '3xx', admin: '404' } },
  'GET /guide/{id}': { allow: ALL, who: 'anyone' },
  'GET /guides': { allow: ALL, who: 'anyone' },
  'POST /guides': { allow: USERS, who: 'any session (the heart)', outcomes: loggedIn('3xx') },
  'GET /guides/{id}': { allow: ALL, who: 'anyone' },
  'GET /id-verification': { allow: USERS, who: 'any session' },
  'POST /id-verification': { allow: USERS, who: 'any session' },
  'GET /id-verification/documents/{id}/{side}': { allow: GUIDE_ADMIN, who: 'the applicant, admins', denied: '404', outcomes: { visitor: '404', blocked: '404' } },
  'GET /login': { allow: ALL, who: 'anyone', outcomes: loggedIn('3xx'), note: 'a session goes to its dashboard' },
  'POST /login': { allow: ALL, who: 'anyone', outcomes: loggedIn('3xx') },
  'GET /login-success': { allow: USERS, who: 'any session' },
  'GET /logout': { allow: ALL, who: 'anyone', outcomes: every('3xx') },
  'POST /logout': { allow: USERS, who: 'any session', mutates: true, outcomes: { visitor: '3xx', blocked: '3xx' } },
  'GET /logout-success': { allow: ALL, who: 'anyone', outcomes: loggedIn('3xx') },
  'GET /manifest.webmanifest': { allow: ALL, who: 'anyone' },
  'GET /me': { allow: USERS, who: 'any session' },
  'POST /me': { allow: USERS, who: 'any session' },
  'GET /me/avatar': { allow: ALL, who: 'anyone (the form lives on /me)', outcomes: every('3xx') },
  'POST /me/avatar': { allow: USERS, who: 'any session', outcomes: loggedIn('3xx') },
  'GET /me/photos': { allow: ALL, who: 'anyone (the gallery lives on /me)', outcomes: every('3xx') },
  'POST /me/photos': { allow: GUIDES, who: 'ID-verified guides', outcomes: { traveler: '3xx', otherTraveler: '3xx', guide: '3xx', otherGuide: '3xx', admin: '3xx' }, note: 'back to /me with an error' },
  'GET /notifications': { allow: USERS, who: 'any session' },
  'POST /notifications': { allow: USERS, who: 'any session' },
  'GET /orders': { allow: USERS, who: 'any session' },
  'GET /orders/{id}': { allow: ORDER_PARTIES, who: 'the order’s traveler and guide, admins' },
  'POST /orders/{id}': { allow: ORDER_PARTIES, who: 'the order’s traveler and guide, admins' },
  'GET /orders/{id}/pay': { allow: ['traveler'], who: 'the order’s traveler', denied: '404', outcomes: { traveler: '3xx' }, note: 'a paid order: on to its booking outcome' },
  'POST /orders/{id}/pay': { allow: ['traveler'], who: 'the order’s traveler', denied: '404', mutates: true },
  'GET /orders/{id}/receipt': {
    allow: SELF_ADMIN,
    who: 'the order’s traveler, admins',
    denied: '404',
    outcomes: { traveler: '404', admin: '404' },
    note: 'the world’s order was never paid: no receipt (404); a paid order’s receipt: tests/e2e/payments.spec.ts',
  },
  'GET /orders/{id}/calendar.ics': { allow: ORDER_PARTIES, who: 'the order’s traveler and guide, admins', denied: '404' },
  'POST /preferences': { allow: ALL, who: 'anyone' },
  'GET /preferences': { allow: ALL, who: 'anyone' },
  'GET /privacy-policy': { allow: ALL, who: 'anyone' },
  'GET /register': { allow: ALL, who: 'anyone', outcomes: loggedIn('3xx') },
  'POST /register': { allow: ALL, who: 'anyone', outcomes: loggedIn('3xx') },
  'GET /register/verify': { allow: ALL, who: 'anyone', outcomes: every('3xx'), note: 'without a pending registration: back to /register' },
  'POST /register/verify': { allow: ALL, who: 'anyone', outcomes: every('3xx') },
  'GET /reset-password': { allow: ALL, who: 'anyone', outcomes: every('3xx'), note: 'without a token: to /forgot-password' },
  'POST /reset-password': { allow: ALL, who: 'anyone', outcomes: every('3xx') },
  'GET /terms': { allow: ALL, who: 'anyone' },
  'GET /terms/agree': { allow: USERS, who: 'any session that must agree to the current terms', outcomes: every('3xx'), note: 'the world’s people have agreed (as registering does) and admins are not asked: sent on; the page itself: tests/integration/http/terms-*.test.ts' },
  'GET /terms/disagree': { allow: ALL, who: 'anyone', note: 'what disagreeing means and the ways on (issue 35); changes no account' },
  'POST /terms/disagree': { allow: ALL, who: 'anyone', outcomes: every('3xx'), note: 'remembers the choice for the browser session (a display cookie) and shows the page' },
  'POST /terms/agree': { allow: USERS, who: 'any session', outcomes: every('3xx'), note: 'nothing left to agree to (the world’s people have agreed; admins are not asked): sent on' },
  'GET /offline': { allow: ALL, who: 'anyone (the service worker keeps it)' },
  // ── the payment provider's posts: believed only when their CheckMacValue verifies, never for a session ──
  'GET /payments/callback': { allow: ALL, who: 'nobody (the provider posts)', outcomes: every('404') },
  'POST /payments/callback': { allow: ALL, who: 'the payment provider, signed', outcomes: every('400'), note: 'an unsigned post: 400, nothing changes' },
  'GET /payments/return/{orderId}': { allow: ALL, who: 'anyone (on to the booking outcome, read from our records)', url: '/payments/return/1', outcomes: every('3xx') },
  'POST /payments/return/{orderId}': { allow: ALL, who: 'the traveler’s browser with the provider’s signed result', url: '/payments/return/1', outcomes: every('3xx'), note: 'an unsigned post changes nothing' },
  // ── the payment simulator: the provider's side, trusted by its signed fields (CheckMacValue), not by a session ──
  'GET /payments/simulator/Cashier/AioCheckOut/V5': { allow: ALL, who: 'nobody (a form post only)', outcomes: every('404') },
  'POST /payments/simulator/Cashier/AioCheckOut/V5': { allow: ALL, who: 'anyone with a signed checkout form', note: 'an unsigned form: 400' },
  'GET /payments/simulator/Cashier/QueryTradeInfo/V5': { allow: ALL, who: 'nobody (server to server, a post)', outcomes: every('404') },
  'POST /payments/simulator/Cashier/QueryTradeInfo/V5': { allow: ALL, who: 'the shop, signed', outcomes: every('2xx'), note: 'answers an unsigned query as ECPay does: 200 with its error text' },
  'GET /payments/simulator/CreditDetail/DoAction': { allow: ALL, who: 'nobody (server to server, a post)', outcomes: every('404') },
  'POST /payments/simulator/CreditDetail/DoAction': { allow: ALL, who: 'the shop, signed', outcomes: every('2xx'), note: 'answers an unsigned action as ECPay does: 200 with its error text' },
  'GET /payments/simulator/pay/{tradeNo}': { allow: ALL, who: 'the browser holding a trade number', url: '/payments/simulator/pay/0000000000000000', outcomes: every('404'), note: 'no such trade: 404' },
  'POST /payments/simulator/pay/{tradeNo}': { allow: ALL, who: 'the browser holding a trade number', url: '/payments/simulator/pay/0000000000000000', outcomes: every('404'), note: 'no such trade: 404' },
  'GET /trip-card': { allow: USERS, who: 'any session (its own upcoming tours)' },
  'GET /traveler': { allow: TRAVELERS, who: 'travelers' },
};
