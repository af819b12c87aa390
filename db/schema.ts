import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
// The fixed lists live in browser-safe modules (one definition each); relative paths, so drizzle-kit loads them too.
import { ACCOUNT_TYPES } from '../app/lib/account-types';
import { CHAT_REPORT_REASONS } from '../app/lib/chat-report-reasons';
import { ORDER_STATUSES } from '../app/lib/order-status';
import {
  GUIDE_LEDGER_ACCOUNT_KINDS,
  LEDGER_ACCOUNT_KINDS,
  LEDGER_ENTRY_KINDS,
  PAYMENT_EVENT_OUTCOMES,
  PAYMENT_PROVIDERS,
  PAYMENT_STATUSES,
  PAYOUT_STATUSES,
  REFUND_ATTEMPT_STATES,
} from '../app/lib/payments';
import { SUPPORTED_LOCALES as LOCALES } from '../app/lib/locales';
import { TERMS_KINDS } from '../app/lib/terms';
import { TIME_SLOTS } from '../app/lib/time-slots';
import { GUIDE_STATUSES, ID_VERIFICATION_STATUSES, PHOTO_STATUSES } from '../app/lib/trust-statuses';

/** The data model of ARCHITECTURE §4. Ids are integer identities, money is integer NT$, tour dates are `date`. */

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

const id = () => integer('id').primaryKey().generatedAlwaysAsIdentity();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
const tstz = (name: string) => timestamp(name, { withTimezone: true });

export const USER_STATUSES = ['active', 'inactive', 'suspended'] as const;
export const REVIEW_ROLES = ['traveler', 'guide'] as const;
/** What leaves a request through the outbox, each kind with its own sender in the worker ('payment': a provider call, issue 32). */
export const OUTBOX_KINDS = ['mail', 'push', 'payment'] as const;
/** pending: waiting for (another) attempt; sent; failed: given up after the last attempt (and logged). */
export const OUTBOX_STATUSES = ['pending', 'sent', 'failed'] as const;
/** Locales a guide may add a translation of the profile in (zh-TW is the `description`/`headline` columns). */
export type LocalizedProfile = Partial<Record<'en' | 'ja', { headline?: string; description?: string }>>;

const inList = (column: string, values: readonly string[]) =>
  sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(', ')})`);

export const users = pgTable(
  'users',
  {
    id: id(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    type: text('type', { enum: ACCOUNT_TYPES }).notNull().default('traveler'),
    bio: text('bio'),
    avatarKey: text('avatar_key'),
    city: text('city'),
    // Language codes the person speaks (zh, nan, hak, en, ja, ...); translated for display.
    language: text('language').array().notNull().default(sql`'{}'::text[]`),
    // A guide's price: one booked slot for the whole group (docs/decisions/016-group-size.md).
    price: integer('price'),
    // The most people a guide takes in one booking (docs/decisions/016-group-size.md). Every row has one, so a
    // guide always does; 1..50 mirrors GROUP_SIZE_MIN/GROUP_SIZE_MAX and DEFAULT_MAX_GROUP_SIZE in
    // app/lib/group-size.ts (db/ may not import app/; tests/integration/http/group-size.test.ts ties the two).
    maxGroupSize: integer('max_group_size').notNull().default(10),
    description: text('description'),
    // A guide's one-line headline in zh-TW (the language `description` is written in).
    headline: text('headline'),
    // The guide's headline and description in the other interface languages (docs/decisions/002).
    localized: jsonb('localized').$type<LocalizedProfile>().notNull().default(sql`'{}'::jsonb`),
    // Normalised text keyword search matches (app/lib/search-text.ts), kept current by the services that write
    // a guide's profile; a pg_trgm GIN index makes `like '%…%'` fast.
    searchText: text('search_text'),
    // Every two-character piece of search_text, kept by PostgreSQL (function search_bigrams, migration
    // 0008_search_bigrams): serves the two-character keywords Chinese readers type most (台北, 美食, 導遊), which
    // trigrams cannot. Stored rather than an expression index, so no plan evaluates the function per row.
    searchBigrams: text('search_bigrams')
      .array()
      .generatedAlwaysAs(sql`search_bigrams(search_text)`),
    // Travelers' visible reviews of this guide: kept current by refreshGuideRating (app/services/catalogue/ratings.server.ts)
    // in the transaction that writes or hides a review, so lists never aggregate reviews per request.
    ratingAverage: real('rating_average'),
    ratingCount: integer('rating_count').notNull().default(0),
    status: text('status', { enum: USER_STATUSES }).notNull().default('active'),
    // Interface language the person chose; mail to them is written in it.
    locale: text('locale', { enum: LOCALES }).notNull().default('zh-TW'),
    guideStatus: text('guide_status', { enum: GUIDE_STATUSES }),
    isEmailVerified: boolean('is_email_verified').notNull().default(false),
    emailVerifiedAt: tstz('email_verified_at'),
    isIdVerified: boolean('is_id_verified').notNull().default(false),
    idVerificationType: text('id_verification_type'),
    idVerifiedAt: tstz('id_verified_at'),
    registerDate: tstz('register_date').notNull().defaultNow(),
    lastLogin: tstz('last_login'),
    // A new address waiting for its emailed code (change_email); `email` stays the login until it is confirmed.
    pendingEmail: text('pending_email'),
    blockedAt: tstz('blocked_at'),
    deletedAt: tstz('deleted_at'),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Case-insensitive uniqueness: Foo@x.tw and foo@x.tw are the same account.
    uniqueIndex('users_email_lower_unique').on(sql`lower(${t.email})`),
    index('users_type_city_idx').on(t.type, t.city),
    // New accounts per week (app/services/admin/admin-stats.server.ts).
    index('users_register_date_idx').on(t.registerDate),
    // fastupdate off: new rows go straight into the index, so searches never scan a pending list (PGlite has no
    // autovacuum to flush one; on the bench's PGlite data 4-character keywords ran about 2× slower before a VACUUM).
    index('users_search_text_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')).with({ fastupdate: false }),
    index('users_search_bigrams_idx').using('gin', t.searchBigrams).with({ fastupdate: false }),
    check('users_guide_status_check', sql`${t.guideStatus} is null or ${t.guideStatus} in ('active', 'suspended')`),
    check('users_type_check', inList('type', ACCOUNT_TYPES)),
    check('users_status_check', inList('status', USER_STATUSES)),
    check('users_locale_check', inList('locale', LOCALES)),
    check('users_price_positive', sql`${t.price} is null or ${t.price} > 0`),
    check('users_max_group_size_range', sql`${t.maxGroupSize} between 1 and 50`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(), // random; the JWT jti for bearer tokens
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: tstz('expires_at').notNull(),
    revokedAt: tstz('revoked_at'),
    // 'web' sessions ride the httpOnly cookie; 'api' sessions are bearer tokens (JWT jti = id).
    kind: text('kind', { enum: ['web', 'api'] }).notNull().default('web'),
    lastSeenAt: tstz('last_seen_at').notNull().defaultNow(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** What an emailed code is for: a code of one purpose never works for another (ARCHITECTURE §4). */
export const EMAIL_CODE_PURPOSES = ['verify_email', 'change_email', 'reset_password'] as const;

export const emailCodes = pgTable(
  'email_codes',
  {
    id: id(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    sentAt: tstz('sent_at').notNull().defaultNow(),
    purpose: text('purpose', { enum: EMAIL_CODE_PURPOSES }).notNull().default('verify_email'),
  },
  (t) => [
    index('email_codes_user_idx').on(t.userId),
    check('email_codes_purpose_check', inList('purpose', EMAIL_CODE_PURPOSES)),
  ],
);

export const availabilitySlots = pgTable(
  'availability_slots',
  {
    id: id(),
    guideId: integer('guide_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    timeSlot: text('time_slot', { enum: TIME_SLOTS }).notNull(),
    available: boolean('available').notNull().default(true),
    price: integer('price').notNull(),
    description: text('description'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('availability_guide_date_slot_unique').on(t.guideId, t.date, t.timeSlot),
    check('availability_time_slot_check', inList('time_slot', TIME_SLOTS)),
    check('availability_price_positive', sql`${t.price} > 0`),
  ],
);

export const orders = pgTable(
  'orders',
  {
    id: id(),
    travelerId: integer('traveler_id').notNull().references(() => users.id),
    guideId: integer('guide_id').notNull().references(() => users.id),
    date: date('date', { mode: 'string' }).notNull(),
    timeSlot: text('time_slot', { enum: TIME_SLOTS }).notNull(),
    numberOfPeople: integer('number_of_people').notNull().default(1),
    note: text('note'),
    status: text('status', { enum: ORDER_STATUSES }).notNull().default('pending'),
    travelerCompleted: boolean('traveler_completed').notNull().default(false),
    guideCompleted: boolean('guide_completed').notNull().default(false),
    totalPrice: integer('total_price').notNull(),
    /** PLATFORM_COMMISSION_PERCENT when the order was booked (issue 32): a later change never alters old orders. */
    commissionPercent: integer('commission_percent').notNull().default(10),
    termsAcceptedAt: tstz('terms_accepted_at'),
    /** Where and how the traveler meets the guide, given by the guide on confirming (issue 35). */
    meetingPoint: text('meeting_point'),
    guidePhone: text('guide_phone'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: tstz('deleted_at'),
  },
  (t) => [
    // Double booking is impossible at the database level: one order per guide, date and slot that holds it
    // (pending, confirmed or completed: app/schemas/orders.ts SLOT_HOLDING_STATUSES) and is not deleted.
    uniqueIndex('orders_no_double_booking')
      .on(t.guideId, t.date, t.timeSlot)
      .where(sql`${t.status} in ('pending', 'confirmed', 'completed') and ${t.deletedAt} is null`),
    index('orders_traveler_idx').on(t.travelerId),
    index('orders_guide_idx').on(t.guideId),
    // The statistics read orders by when they were made (app/services/admin/admin-stats.server.ts, bench/admin-stats.mjs).
    index('orders_created_at_idx').on(t.createdAt),
    check('orders_status_check', inList('status', ORDER_STATUSES)),
    check('orders_time_slot_check', inList('time_slot', TIME_SLOTS)),
    check('orders_people_positive', sql`${t.numberOfPeople} between 1 and 50`),
    check('orders_total_nonnegative', sql`${t.totalPrice} >= 0`),
    check('orders_commission_percent_range', sql`${t.commissionPercent} between 0 and 100`),
  ],
);

/** Who moved an order: the traveler, the guide, an admin, or the system. */
export const ORDER_ACTOR_ROLES = ['traveler', 'guide', 'admin', 'system'] as const;

/** An order's timeline: every transition (booking included) with its time and actor (issue 10). */
export const orderEvents = pgTable(
  'order_events',
  {
    id: id(),
    orderId: integer('order_id').notNull().references(() => orders.id, { onDelete: 'cascade' }),
    // book, confirm, decline, cancel, complete, refund, delete, restore
    action: text('action').notNull(),
    fromStatus: text('from_status', { enum: ORDER_STATUSES }),
    toStatus: text('to_status', { enum: ORDER_STATUSES }).notNull(),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorRole: text('actor_role', { enum: ORDER_ACTOR_ROLES }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('order_events_order_idx').on(t.orderId, t.at),
    check('order_events_actor_role_check', inList('actor_role', ORDER_ACTOR_ROLES)),
  ],
);

export const reviews = pgTable(
  'reviews',
  {
    id: id(),
    orderId: integer('order_id').notNull().references(() => orders.id, { onDelete: 'cascade' }),
    reviewerId: integer('reviewer_id').notNull().references(() => users.id),
    revieweeId: integer('reviewee_id').notNull().references(() => users.id),
    // The reviewer's role in the order: a traveler reviews the guide, a guide reviews the traveler.
    role: text('role', { enum: REVIEW_ROLES }).notNull(),
    rating: integer('rating').notNull(),
    comment: text('comment'),
    isHidden: boolean('is_hidden').notNull().default(false),
    hiddenReason: text('hidden_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('reviews_order_reviewer_unique').on(t.orderId, t.reviewerId), // ALREADY_REVIEWED
    index('reviews_reviewee_idx').on(t.revieweeId, t.role),
    check('reviews_rating_range', sql`${t.rating} between 1 and 5`),
    check('reviews_role_check', inList('role', REVIEW_ROLES)),
  ],
);

export const favorites = pgTable(
  'favorites',
  {
    id: id(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    targetType: text('target_type', { enum: ['guide'] }).notNull().default('guide'),
    targetId: integer('target_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('favorites_user_target_unique').on(t.userId, t.targetType, t.targetId)],
);

/** A logged-in person's last searches on /guides (SPEC §4, §9: 20 kept, newest first, no duplicates). */
export const searchHistory = pgTable(
  'search_history',
  {
    id: id(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    query: text('query').notNull().default(''),
    filters: jsonb('filters').$type<Record<string, string | number>>().notNull().default(sql`'{}'::jsonb`),
    // The canonical search string of query + filters: the same search twice is one entry (moved to the top).
    key: text('key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('search_history_user_key_unique').on(t.userId, t.key),
    index('search_history_user_created_idx').on(t.userId, t.createdAt),
  ],
);

export const blobs = pgTable('blobs', {
  key: text('key').primaryKey(), // sha256 of the stored bytes
  contentType: text('content_type').notNull(),
  bytes: bytea('bytes').notNull(),
  size: integer('size').notNull(),
  private: boolean('private').notNull().default(false),
  createdAt: createdAt(),
});

export const photos = pgTable(
  'photos',
  {
    id: id(),
    guideId: integer('guide_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    blobKey: text('blob_key').notNull().references(() => blobs.key),
    status: text('status', { enum: PHOTO_STATUSES }).notNull().default('pending_review'),
    createdAt: createdAt(),
    reviewedAt: tstz('reviewed_at'),
    /** What the admin told the guide when rejecting (null otherwise). */
    rejectionReason: text('rejection_reason'),
  },
  (t) => [
    index('photos_guide_status_idx').on(t.guideId, t.status),
    check('photos_status_check', inList('status', PHOTO_STATUSES)),
  ],
);

export const idVerifications = pgTable(
  'id_verifications',
  {
    id: id(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    documentKeys: text('document_keys').array().notNull().default(sql`'{}'::text[]`),
    status: text('status', { enum: ID_VERIFICATION_STATUSES }).notNull().default('pending'),
    submittedAt: tstz('submitted_at').notNull().defaultNow(),
    reviewedAt: tstz('reviewed_at'),
    reviewerId: integer('reviewer_id').references(() => users.id),
    reviewNotes: text('review_notes'),
  },
  (t) => [index('id_verifications_user_idx').on(t.userId)],
);

export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    title: text('title').notNull(),
    body: text('body'),
    // What happened (the facts its words are made of): worded again in the reader's language when shown
    // (app/services/messaging/notice-wording.server.ts). Null on rows written before it existed: their stored words stay.
    params: jsonb('params').$type<Record<string, string | number | undefined>>(),
    link: text('link'),
    readAt: tstz('read_at'),
    createdAt: createdAt(),
  },
  (t) => [index('notifications_user_read_idx').on(t.userId, t.readAt)],
);

export const terms = pgTable(
  'terms',
  {
    id: id(),
    kind: text('kind', { enum: TERMS_KINDS }).notNull(),
    // Legal texts are written per interface language; zh-TW is the fallback.
    locale: text('locale', { enum: LOCALES }).notNull().default('zh-TW'),
    title: text('title').notNull(),
    content: text('content').notNull(),
    version: text('version').notNull(),
    isActive: boolean('is_active').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('terms_kind_locale_version_unique').on(t.kind, t.locale, t.version),
    // At most one active text per kind and language.
    uniqueIndex('terms_one_active').on(t.kind, t.locale).where(sql`${t.isActive}`),
    check('terms_kind_check', inList('kind', TERMS_KINDS)),
  ],
);

export const termsAgreements = pgTable(
  'terms_agreements',
  {
    id: id(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    // Null for the built-in fallback terms, which have no row (migration 0015).
    termsId: integer('terms_id').references(() => terms.id),
    version: text('version').notNull(),
    agreedAt: tstz('agreed_at').notNull().defaultNow(),
  },
  (t) => [
    // One agreement per text: each language has its own line of versions (issue 35, migration 0030), so one
    // version number may be agreed to once per language. The built-in text (no row) is recorded once per version.
    uniqueIndex('terms_agreements_user_terms_unique').on(t.userId, t.termsId),
    uniqueIndex('terms_agreements_user_builtin_unique').on(t.userId, t.version).where(sql`${t.termsId} is null`),
  ],
);

export const banners = pgTable(
  'banners',
  {
    id: id(),
    // One banner in three languages (migration 0019, docs/decisions/026-banners.md): zh-TW is required, en and
    // ja fall back to it on the home page when left empty.
    title: text('title').notNull(),
    titleEn: text('title_en'),
    titleJa: text('title_ja'),
    subtitle: text('subtitle'),
    subtitleEn: text('subtitle_en'),
    subtitleJa: text('subtitle_ja'),
    imageKey: text('image_key').references(() => blobs.key),
    linkUrl: text('link_url'),
    sortOrder: integer('sort_order').notNull().default(0),
    isActive: boolean('is_active').notNull().default(true),
    startsAt: tstz('starts_at'),
    endsAt: tstz('ends_at'),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [index('banners_active_order_idx').on(t.isActive, t.sortOrder)],
);

export const chats = pgTable(
  'chats',
  {
    id: id(),
    travelerId: integer('traveler_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    guideId: integer('guide_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    lastMessageAt: tstz('last_message_at'),
    // A participant blocked the conversation (issue 23): the other side can no longer send.
    blockedBy: integer('blocked_by').references(() => users.id, { onDelete: 'set null' }),
    blockedAt: tstz('blocked_at'),
  },
  (t) => [uniqueIndex('chats_pair_unique').on(t.travelerId, t.guideId), index('chats_guide_idx').on(t.guideId)],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: id(),
    chatId: integer('chat_id').notNull().references(() => chats.id, { onDelete: 'cascade' }),
    senderId: integer('sender_id').notNull().references(() => users.id),
    body: text('body').notNull(),
    // The sender's id for this message: sending it again stores nothing new (docs/decisions/022).
    clientId: text('client_id'),
    createdAt: createdAt(),
    readAt: tstz('read_at'),
    // An admin hid it after a report (issue 23): participants see a notice instead of the text.
    hiddenAt: tstz('hidden_at'),
    // The unread-message mail that covered it (docs/decisions/028): never mailed twice.
    unreadMailedAt: tstz('unread_mailed_at'),
  },
  (t) => [
    index('chat_messages_chat_idx').on(t.chatId, t.createdAt),
    index('chat_messages_unread_mail_idx').on(t.createdAt).where(sql`${t.readAt} is null and ${t.unreadMailedAt} is null`),
    index('chat_messages_chat_id_idx').on(t.chatId, t.id),
    uniqueIndex('chat_messages_sender_client_unique').on(t.senderId, t.clientId),
  ],
);

export const chatMessageReports = pgTable(
  'chat_message_reports',
  {
    id: id(),
    messageId: integer('message_id').notNull().references(() => chatMessages.id, { onDelete: 'cascade' }),
    reporterId: integer('reporter_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    // Why (issue 35): one of the fixed list; null on reports made before it. `reason` is the reporter's own words.
    reasonCode: text('reason_code', { enum: CHAT_REPORT_REASONS }),
    reason: text('reason'),
    createdAt: createdAt(),
    resolvedAt: tstz('resolved_at'),
    // What the admin decided: 'dismissed' or 'hidden' (the message was hidden); who decided.
    resolution: text('resolution', { enum: ['dismissed', 'hidden'] }),
    resolvedBy: integer('resolved_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('chat_message_reports_once').on(t.messageId, t.reporterId),
    index('chat_message_reports_open_idx').on(t.createdAt).where(sql`${t.resolvedAt} is null`),
  ],
);

export const boardPosts = pgTable(
  'board_posts',
  {
    id: id(),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    authorName: text('author_name').notNull(),
    body: text('body').notNull(),
    city: text('city'),
    languages: text('languages').array().notNull().default(sql`'{}'::text[]`),
    startDate: date('start_date', { mode: 'string' }),
    endDate: date('end_date', { mode: 'string' }),
    isHidden: boolean('is_hidden').notNull().default(false),
    hiddenReason: text('hidden_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('board_posts_created_idx').on(t.createdAt)],
);

export const boardReplies = pgTable(
  'board_replies',
  {
    id: id(),
    postId: integer('post_id').notNull().references(() => boardPosts.id, { onDelete: 'cascade' }),
    authorId: integer('author_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    isHidden: boolean('is_hidden').notNull().default(false),
    hiddenReason: text('hidden_reason'),
    createdAt: createdAt(),
  },
  (t) => [index('board_replies_post_idx').on(t.postId, t.id)],
);

export const auditLogs = pgTable(
  'audit_logs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    details: jsonb('details'),
    at: tstz('at').notNull().defaultNow(),
  },
  (t) => [
    index('audit_logs_at_idx').on(t.at),
    // The audit trail of one object (an account's admin page) and of one actor (/admin/logs filters).
    index('audit_logs_target_idx').on(t.targetType, t.targetId, t.at),
    index('audit_logs_actor_idx').on(t.actorId, t.at),
  ],
);

/** Admins' internal notes on an order (issue 22): never shown to its traveler or guide. */
export const orderNotes = pgTable(
  'order_notes',
  {
    id: id(),
    orderId: integer('order_id').notNull().references(() => orders.id, { onDelete: 'cascade' }),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('order_notes_order_idx').on(t.orderId, t.createdAt),
    check('order_notes_body_length', sql`char_length(${t.body}) between 1 and 2000`),
  ],
);

/**
 * Work that leaves a request after its transaction commits (decision 017): a mail now, a web push later. Written
 * in the transaction of the change; sent by the worker (app/services/jobs/outbox-worker.server.ts), which claims due
 * rows with FOR UPDATE SKIP LOCKED and pushes `next_attempt_at` ahead while it sends (a lease), so no two server
 * instances send one row. A row stays after it is sent: without SMTP_URL it is the developer's mailbox.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: id(),
    kind: text('kind', { enum: OUTBOX_KINDS }).notNull(),
    /** What the kind's sender needs: a mail's { to, subject, text, html? }. */
    payload: jsonb('payload').notNull(),
    status: text('status', { enum: OUTBOX_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: tstz('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
    /** A job that must be queued once (a payment action: `order:{id}:{action}`); a second enqueue is a no-op. */
    dedupeKey: text('dedupe_key'),
    createdAt: createdAt(),
    sentAt: tstz('sent_at'),
  },
  (t) => [
    index('outbox_due_idx').on(t.nextAttemptAt, t.id).where(sql`${t.status} = 'pending'`),
    uniqueIndex('outbox_dedupe_key_idx').on(t.dedupeKey),
  ],
);

/**
 * Periodic jobs that must run once across instances (docs/decisions/024): one row per job, claimed with
 * `FOR UPDATE SKIP LOCKED` by the instance whose tick finds it due (app/services/jobs/jobs.server.ts).
 */
export const jobRuns = pgTable('job_runs', {
  name: text('name').primaryKey(),
  nextRunAt: tstz('next_run_at').notNull(),
  lastFinishedAt: tstz('last_finished_at'),
  runs: integer('runs').notNull().default(0),
});

/**
 * Web push (issue 23, docs/decisions/029): one row per browser that asked for pushes. The endpoint is the push
 * service's address for that browser, unique: a browser shared by two accounts belongs to the last one that
 * subscribed. `p256dh` and `auth` are the browser's keys that each payload is encrypted to (RFC 8291).
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: id(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    // The session that subscribed this browser: ending it (logout, reset, block, expiry…) ends its pushes (decision 035).
    sessionId: text('session_id').notNull().references(() => sessions.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_idx').on(t.endpoint),
    index('push_subscriptions_user_idx').on(t.userId),
    index('push_subscriptions_session_idx').on(t.sessionId),
  ],
);

/**
 * The VAPID key pair pushes are signed with when VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY are not set: generated once,
 * kept with the subscriptions it is bound to (docs/decisions/029). One row (`id` = 1).
 */
export const pushVapidKeys = pgTable(
  'push_vapid_keys',
  {
    id: integer('id').primaryKey(),
    publicKey: text('public_key').notNull(),
    privateKey: text('private_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [check('push_vapid_keys_one_row', sql`${t.id} = 1`)],
);

/** What a guide view counts (docs/decisions/025): the guide's page, or the booking form of the guide. */
export const GUIDE_VIEW_KINDS = ['guide_page', 'booking_form'] as const;

/**
 * Views counted by the product itself, no third-party analytics (issue 22, docs/decisions/025): one row per guide,
 * Taiwan day and kind, upserted (count + 1) by the guide page's and the booking page's loaders. The statistics'
 * funnel reads it.
 */
export const guideViewCounts = pgTable(
  'guide_view_counts',
  {
    guideId: integer('guide_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    kind: text('kind', { enum: GUIDE_VIEW_KINDS }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.guideId, t.day, t.kind] }),
    index('guide_view_counts_day_idx').on(t.day, t.kind),
    check('guide_view_counts_kind_check', inList('kind', GUIDE_VIEW_KINDS)),
  ],
);

/**
 * Money (issue 32, docs/decisions/038–040). Amounts are integer NT$. A payment is one attempt to pay for an order
 * through a provider; `merchant_trade_no` is our number for it at the provider (ECPay: ≤ 20 letters and digits),
 * the key that makes a repeated checkout one trade. An order has at most one payment that is not failed or expired.
 */
export const payments = pgTable(
  'payments',
  {
    id: id(),
    orderId: integer('order_id').notNull().references(() => orders.id),
    provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
    merchantTradeNo: text('merchant_trade_no').notNull(),
    status: text('status', { enum: PAYMENT_STATUSES }).notNull().default('unpaid'),
    amount: integer('amount').notNull(),
    capturedAmount: integer('captured_amount').notNull().default(0),
    refundedAmount: integer('refunded_amount').notNull().default(0),
    /** The provider's own number for the trade (ECPay's TradeNo), known from its callback on. */
    providerTradeNo: text('provider_trade_no'),
    authorisedAt: tstz('authorised_at'),
    capturedAt: tstz('captured_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('payments_merchant_trade_no_unique').on(t.merchantTradeNo),
    uniqueIndex('payments_one_live_per_order').on(t.orderId).where(sql`${t.status} not in ('failed', 'expired')`),
    index('payments_status_idx').on(t.status, t.createdAt),
    check('payments_provider_check', inList('provider', PAYMENT_PROVIDERS)),
    check('payments_status_check', inList('status', PAYMENT_STATUSES)),
    check('payments_merchant_trade_no_format', sql`${t.merchantTradeNo} ~ '^[A-Za-z0-9]{1,20}$'`),
    check('payments_amounts', sql`${t.amount} > 0 and ${t.refundedAmount} >= 0 and ${t.refundedAmount} <= ${t.capturedAmount} and ${t.capturedAmount} <= ${t.amount}`),
  ],
);

/**
 * Every verified message from a provider, stored once per provider event (a repeated delivery finds its row and
 * changes nothing); `outcome` says what it did. The raw payload is kept for reconciliation and disputes.
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: id(),
    provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
    providerEventId: text('provider_event_id').notNull(),
    paymentId: integer('payment_id').references(() => payments.id),
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    outcome: text('outcome', { enum: PAYMENT_EVENT_OUTCOMES }).notNull(),
  },
  (t) => [
    uniqueIndex('payment_events_provider_event_unique').on(t.provider, t.providerEventId),
    index('payment_events_payment_idx').on(t.paymentId),
    check('payment_events_provider_check', inList('provider', PAYMENT_PROVIDERS)),
    check('payment_events_outcome_check', inList('outcome', PAYMENT_EVENT_OUTCOMES)),
  ],
);

/**
 * The ledger's accounts (docs/decisions/038): one per kind for the platform (owner null), one per kind and guide
 * for the guide's own (owner = the guide). Created on first use.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: id(),
    kind: text('kind', { enum: LEDGER_ACCOUNT_KINDS }).notNull(),
    ownerId: integer('owner_id').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    unique('ledger_accounts_kind_owner_unique').on(t.kind, t.ownerId).nullsNotDistinct(),
    check('ledger_accounts_kind_check', inList('kind', LEDGER_ACCOUNT_KINDS)),
    check(
      'ledger_accounts_owner_by_kind',
      sql`(${t.ownerId} is not null) = (${sql.raw(`kind in (${GUIDE_LEDGER_ACCOUNT_KINDS.map((k) => `'${k}'`).join(', ')})`)})`,
    ),
  ],
);

/**
 * One money movement: its postings sum to zero (checked by the one function that writes them and, at commit, by
 * the deferred trigger of migration 0024). The idempotency key makes a repeated movement a no-op. Append-only.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: id(),
    idempotencyKey: text('idempotency_key').notNull(),
    orderId: integer('order_id').references(() => orders.id),
    payoutId: integer('payout_id').references(() => payouts.id),
    kind: text('kind', { enum: LEDGER_ENTRY_KINDS }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_entries_idempotency_key_unique').on(t.idempotencyKey),
    index('ledger_entries_order_idx').on(t.orderId),
    check('ledger_entries_kind_check', inList('kind', LEDGER_ENTRY_KINDS)),
  ],
);

/** A posting: a signed amount into one account (positive in, negative out). Append-only. */
export const ledgerPostings = pgTable(
  'ledger_postings',
  {
    id: id(),
    entryId: integer('entry_id').notNull().references(() => ledgerEntries.id),
    accountId: integer('account_id').notNull().references(() => ledgerAccounts.id),
    amount: integer('amount').notNull(),
  },
  (t) => [
    index('ledger_postings_entry_idx').on(t.entryId),
    // Balances are sums over an account's postings: an index-only scan.
    index('ledger_postings_account_idx').on(t.accountId, t.amount),
    check('ledger_postings_amount_nonzero', sql`${t.amount} <> 0`),
  ],
);

/**
 * A payout to one guide: the bank account it goes to is copied onto it (a later change of account does not move
 * money already sent). Its items say which orders' earnings it pays.
 */
export const payouts = pgTable(
  'payouts',
  {
    id: id(),
    guideId: integer('guide_id').notNull().references(() => users.id),
    amount: integer('amount').notNull(),
    status: text('status', { enum: PAYOUT_STATUSES }).notNull().default('in_transit'),
    bankCode: text('bank_code').notNull(),
    accountNumber: text('account_number').notNull(),
    createdAt: createdAt(),
    paidAt: tstz('paid_at'),
  },
  (t) => [
    index('payouts_guide_idx').on(t.guideId, t.createdAt),
    check('payouts_status_check', inList('status', PAYOUT_STATUSES)),
    check('payouts_amount_positive', sql`${t.amount} > 0`),
  ],
);

/** A payout's lines: an order's earnings paid, or (negative) a deduction for money refunded after it was paid out. */
export const payoutItems = pgTable(
  'payout_items',
  {
    payoutId: integer('payout_id').notNull().references(() => payouts.id),
    orderId: integer('order_id').notNull().references(() => orders.id),
    amount: integer('amount').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.payoutId, t.orderId] }),
    index('payout_items_order_idx').on(t.orderId),
    check('payout_items_amount_nonzero', sql`${t.amount} <> 0`),
  ],
);

/** Where a guide's payouts go: a Taiwanese bank code (3 digits) and account number (shown masked once saved). */
export const guidePayoutAccounts = pgTable(
  'guide_payout_accounts',
  {
    guideId: integer('guide_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    bankCode: text('bank_code').notNull(),
    accountNumber: text('account_number').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('guide_payout_accounts_bank_code_format', sql`${t.bankCode} ~ '^[0-9]{3}$'`),
    check('guide_payout_accounts_account_number_format', sql`${t.accountNumber} ~ '^[0-9]{6,16}$'`),
  ],
);

/** The simulator's side of a trade (app/services/payments/simulator.server.ts): what the provider would keep. */
export const SIMULATOR_TRADE_STATUSES = ['awaiting_card', 'authorised', 'closed', 'given_up', 'declined'] as const;

/**
 * The payment simulator's own trades, kept apart from ours as a real provider keeps its own books: the checkout
 * it accepted, the card's outcome, closing (capture), refunds, and the test switches it was started with.
 */
export const simulatorTrades = pgTable(
  'simulator_trades',
  {
    id: id(),
    merchantId: text('merchant_id').notNull(),
    merchantTradeNo: text('merchant_trade_no').notNull(),
    tradeNo: text('trade_no').notNull(),
    status: text('status', { enum: SIMULATOR_TRADE_STATUSES }).notNull().default('awaiting_card'),
    amount: integer('amount').notNull(),
    refundedAmount: integer('refunded_amount').notNull().default(0),
    /** The checkout's fields as posted (ReturnURL, OrderResultURL, ClientBackURL, ItemName, CustomField1…). */
    checkout: jsonb('checkout').$type<Record<string, string>>().notNull(),
    switches: jsonb('switches').$type<Record<string, unknown>>().notNull().default({}),
    cardLast4: text('card_last4'),
    paymentDate: tstz('payment_date'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('simulator_trades_merchant_trade_unique').on(t.merchantId, t.merchantTradeNo),
    uniqueIndex('simulator_trades_trade_no_unique').on(t.tradeNo),
    check('simulator_trades_status_check', inList('status', SIMULATOR_TRADE_STATUSES)),
    check('simulator_trades_amounts', sql`${t.amount} > 0 and ${t.refundedAmount} between 0 and ${t.amount}`),
  ],
);

/**
 * One reconciliation run (issue 32, app/services/payments/reconciliation.server.ts): when it ran, the payments of
 * its period that it asked the provider about, how many the provider could not answer, and the mismatches found
 * (the provider's status and amounts against our payment rows and the ledger).
 */
export const reconciliationRuns = pgTable(
  'reconciliation_runs',
  {
    id: id(),
    ranAt: tstz('ran_at').notNull().defaultNow(),
    since: tstz('since').notNull(),
    checked: integer('checked').notNull(),
    unreachable: integer('unreachable').notNull().default(0),
    mismatches: jsonb('mismatches').$type<unknown[]>().notNull().default([]),
    /** Who asked for it: an admin's "run now", or null for the daily job. */
    actorId: integer('actor_id').references(() => users.id),
  },
  (t) => [index('reconciliation_runs_ran_at_idx').on(t.ranAt)],
);

/**
 * Each refund sent to the provider, keyed by the refund's idempotency key (the ledger entry's): written before the
 * call and settled after it, so a refund whose outcome was lost is held for an admin instead of sent twice
 * (app/services/payments/refund-attempts.server.ts).
 */
export const refundAttempts = pgTable(
  'refund_attempts',
  {
    idempotencyKey: text('idempotency_key').primaryKey(),
    paymentId: integer('payment_id').notNull().references(() => payments.id),
    orderId: integer('order_id').notNull().references(() => orders.id),
    amount: integer('amount').notNull(),
    state: text('state', { enum: REFUND_ATTEMPT_STATES }).notNull(),
    /** How many times an admin sent it again after it was in doubt (part of the retry job's dedupe key). */
    resends: integer('resends').notNull().default(0),
    /** The steps of its job after the refund (a settlement), run once the refund is settled. */
    laterSteps: jsonb('later_steps').$type<unknown[]>().notNull().default([]),
    startedAt: tstz('started_at').notNull().defaultNow(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('refund_attempts_state_check', inList('state', REFUND_ATTEMPT_STATES)),
    check('refund_attempts_amount_check', sql`${t.amount} > 0`),
    index('refund_attempts_in_doubt_idx').on(t.state).where(sql`${t.state} = 'in_doubt'`),
  ],
);

export const IDEMPOTENCY_STATES = ['running', 'done'] as const;

/**
 * Idempotency keys (issue 33, docs/decisions/042): the first answer to a keyed write, per caller, method, path and
 * key, with a SHA-256 of what was sent. Reserved ('running', `locked_at`) in a statement of its own before the work
 * runs, then filled ('done') with the answer to replay; removed after `expires_at` by a periodic job.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    id: id(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    method: text('method').notNull(),
    path: text('path').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    state: text('state', { enum: IDEMPOTENCY_STATES }).notNull(),
    lockedAt: tstz('locked_at').notNull(),
    status: integer('status'),
    /** The answer's body as sent (JSON text), and the headers worth replaying (content-type, location). */
    body: text('body'),
    headers: jsonb('headers').$type<Record<string, string>>(),
    createdAt: createdAt(),
    expiresAt: tstz('expires_at').notNull(),
  },
  (t) => [
    check('idempotency_keys_state_check', inList('state', IDEMPOTENCY_STATES)),
    uniqueIndex('idempotency_keys_scope_idx').on(t.userId, t.method, t.path, t.key),
    index('idempotency_keys_expires_idx').on(t.expiresAt),
  ],
);
