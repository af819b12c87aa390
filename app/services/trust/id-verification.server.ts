import { asc, desc, eq } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { idVerifications, users } from '~db/schema';
import {
  PHOTO_MAX_BYTES,
  PHOTO_MAX_SIDE,
  type AdminIdApplicationView,
  type IdApplicationView,
  type IdDocumentType,
  type IdVerificationStatusView,
} from '~/schemas/trust';
import type { IdVerificationState } from '~/schemas/user-views';
import type { Viewer } from '../platform/access.server';
import { recordAudit } from '../platform/audit.server';
import { getPrivateBlob, storeBlob } from '../platform/blobs.server';
import { AppError } from '../platform/errors.server';
import { encodeImage } from '../platform/image-pipeline.server';
import { recordNotice } from '../messaging/trust-notices.server';
import type { UserRow } from '../accounts/users.server';

/*
 * ID verification (SPEC §4, issue 11). A guide (or a traveler, for whom it is only suggested) applies with a
 * document type and the front and back images; the images go through the same checks and re-encoding as
 * photos but are stored as private blobs, served only to the applicant and admins by
 * /id-verification/documents/{id}/{side} with `Cache-Control: private, no-store`, never under /uploads/.
 * An admin approves (the account becomes ID-verified) or rejects with notes; either decision is audited,
 * notified and mailed in the applicant's language.
 */

type ApplicationRow = typeof idVerifications.$inferSelect;
export const DOCUMENT_SIDES = ['front', 'back'] as const;
export type DocumentSide = (typeof DOCUMENT_SIDES)[number];

/** Where a document of an application is served (authorised, never cached). */
export function documentUrl(applicationId: number, side: DocumentSide): string {
  return `/id-verification/documents/${applicationId}/${side}`;
}

function toView(row: ApplicationRow): IdApplicationView {
  return {
    id: row.id,
    userId: row.userId,
    type: row.type,
    status: row.status,
    submittedAt: row.submittedAt.toISOString(),
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
    reviewNotes: row.reviewNotes,
    documents: {
      front: row.documentKeys[0] ? documentUrl(row.id, 'front') : null,
      back: row.documentKeys[1] ? documentUrl(row.id, 'back') : null,
    },
  };
}

async function latestApplication(userId: number, db: Database): Promise<ApplicationRow | undefined> {
  const [latest] = await db
    .select()
    .from(idVerifications)
    .where(eq(idVerifications.userId, userId))
    .orderBy(desc(idVerifications.submittedAt), desc(idVerifications.id))
    .limit(1);
  return latest;
}

/**
 * SPEC §4 ID verification: verified once the account is ID-verified; otherwise the latest application
 * decides (pending or rejected, with the reviewer's notes); without one, not verified.
 */
export async function getIdVerificationState(
  user: Pick<UserRow, 'id' | 'isIdVerified' | 'idVerifiedAt' | 'idVerificationType'>,
  db: Database = getDb(),
): Promise<{ state: IdVerificationState; submittedAt: string | null; reviewNotes: string | null; verifiedAt: string | null }> {
  if (user.isIdVerified) {
    return { state: 'verified', submittedAt: null, reviewNotes: null, verifiedAt: user.idVerifiedAt?.toISOString() ?? null };
  }
  const latest = await latestApplication(user.id, db);
  if (!latest || latest.status === 'approved') {
    // An approved application whose flag was later withdrawn reads as not verified.
    return { state: 'not_verified', submittedAt: null, reviewNotes: null, verifiedAt: null };
  }
  return {
    state: latest.status,
    submittedAt: latest.submittedAt.toISOString(),
    reviewNotes: latest.reviewNotes,
    verifiedAt: null,
  };
}

/** GET /api/v1/id-verification and the /id-verification page: the state and the latest application. */
export async function getMyIdVerification(user: UserRow, db: Database = getDb()): Promise<IdVerificationStatusView> {
  const [state, latest] = await Promise.all([getIdVerificationState(user, db), latestApplication(user.id, db)]);
  return {
    state: state.state,
    isIdVerified: user.isIdVerified,
    idVerificationType: user.idVerificationType,
    idVerificationDate: user.idVerifiedAt?.toISOString() ?? null,
    submittedAt: latest?.submittedAt.toISOString() ?? null,
    reviewNotes: state.reviewNotes,
    application: latest ? toView(latest) : null,
  };
}

/** Checks that need no body: admins do not apply; a verified account or a pending application cannot. */
export async function assertMayApply(user: UserRow, db: Database = getDb()): Promise<void> {
  if (user.type === 'admin') throw new AppError('FORBIDDEN');
  if (user.isIdVerified) throw new AppError('ALREADY_VERIFIED');
  const latest = await latestApplication(user.id, db);
  if (latest?.status === 'pending') throw new AppError('ALREADY_VERIFIED', { messageKey: 'trust.idv.errors.pending' });
}

/** POST /api/v1/id-verification and the /id-verification form: a new application (201). */
export async function applyForIdVerification(
  user: UserRow,
  input: { type: IdDocumentType; front: Buffer; back: Buffer },
  db: Database = getDb(),
): Promise<IdApplicationView> {
  await assertMayApply(user, db);
  const shape = { kind: 'fit', maxSide: PHOTO_MAX_SIDE, maxBytes: PHOTO_MAX_BYTES } as const;
  const [front, back] = [await encodeImage(input.front, shape), await encodeImage(input.back, shape)];
  const [frontKey, backKey] = [
    await storeBlob(front, 'image/webp', { private: true, db }),
    await storeBlob(back, 'image/webp', { private: true, db }),
  ];
  const row = await db.transaction(async (tx) => {
    // One application at a time: simultaneous submissions take turns on the user row.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
    const latest = await latestApplication(user.id, tx);
    if (latest?.status === 'pending') throw new AppError('ALREADY_VERIFIED', { messageKey: 'trust.idv.errors.pending' });
    const [inserted] = await tx
      .insert(idVerifications)
      .values({ userId: user.id, type: input.type, documentKeys: [frontKey, backKey], status: 'pending' })
      .returning();
    await recordAudit({ actorId: user.id, action: 'id_verification.submit', targetType: 'id_verification', targetId: inserted!.id, details: { type: input.type } }, tx);
    return inserted!;
  });
  return toView(row);
}

/** GET /api/v1/id-verifications?status (admin): oldest first, with the applicant. */
export async function listIdApplications(status: 'pending' | 'approved' | 'rejected' = 'pending', db: Database = getDb()): Promise<AdminIdApplicationView[]> {
  const rows = await db
    .select({ application: idVerifications, applicant: { id: users.id, name: users.name, email: users.email, type: users.type } })
    .from(idVerifications)
    .innerJoin(users, eq(users.id, idVerifications.userId))
    .where(eq(idVerifications.status, status))
    .orderBy(status === 'pending' ? asc(idVerifications.submittedAt) : desc(idVerifications.reviewedAt), asc(idVerifications.id));
  return rows.map((r) => ({ ...toView(r.application), applicant: r.applicant }));
}

async function pendingApplication(id: number, tx: Database): Promise<{ application: ApplicationRow; user: UserRow }> {
  const [row] = Number.isSafeInteger(id) && id > 0
    ? await tx.select({ application: idVerifications, user: users }).from(idVerifications).innerJoin(users, eq(users.id, idVerifications.userId)).where(eq(idVerifications.id, id)).for('update')
    : [];
  if (!row) throw new AppError('NOT_FOUND');
  if (row.application.status !== 'pending') throw new AppError('VALIDATION_ERROR', { messageKey: 'trust.idv.errors.decided' });
  return row;
}

/** POST /api/v1/id-verifications/{id}/approve (admin): the account becomes ID-verified. */
export async function approveIdApplication(admin: Viewer, id: number, db: Database = getDb()): Promise<IdApplicationView> {
  const { application } = await db.transaction(async (tx) => {
    const found = await pendingApplication(id, tx);
    const now = new Date();
    const [application] = await tx
      .update(idVerifications)
      .set({ status: 'approved', reviewedAt: now, reviewerId: admin.id, reviewNotes: null })
      .where(eq(idVerifications.id, id))
      .returning();
    await tx
      .update(users)
      .set({ isIdVerified: true, idVerificationType: found.application.type, idVerifiedAt: now, updatedAt: now })
      .where(eq(users.id, found.user.id));
    await recordAudit({ actorId: admin.id, action: 'id_verification.approve', targetType: 'user', targetId: found.user.id, details: { applicationId: id, type: found.application.type } }, tx);
    await recordNotice(found.user, 'idApproved', {}, tx);
    return { application: application!, user: found.user };
  });
  return toView(application);
}

/** POST /api/v1/id-verifications/{id}/reject (admin): notes are required and shown to the applicant. */
export async function rejectIdApplication(admin: Viewer, id: number, reviewNotes: string, db: Database = getDb()): Promise<IdApplicationView> {
  const { application } = await db.transaction(async (tx) => {
    const found = await pendingApplication(id, tx);
    const [application] = await tx
      .update(idVerifications)
      .set({ status: 'rejected', reviewedAt: new Date(), reviewerId: admin.id, reviewNotes })
      .where(eq(idVerifications.id, id))
      .returning();
    await recordAudit({ actorId: admin.id, action: 'id_verification.reject', targetType: 'user', targetId: found.user.id, details: { applicationId: id, reviewNotes } }, tx);
    await recordNotice(found.user, 'idRejected', { reason: reviewNotes }, tx);
    return { application: application!, user: found.user };
  });
  return toView(application);
}

/**
 * One document of an application, for the applicant or an admin only. Anyone else, like an unknown id,
 * gets NOT_FOUND (whether an application exists is not told). An admin opening someone's document writes an
 * audit row `id_verification.document_view` (issue 31).
 */
export async function getIdDocument(viewer: Viewer | undefined, id: number, side: string, db: Database = getDb()) {
  const index = DOCUMENT_SIDES.indexOf(side as DocumentSide);
  if (!viewer || index < 0 || !Number.isSafeInteger(id) || id < 1) throw new AppError('NOT_FOUND');
  const [row] = await db.select().from(idVerifications).where(eq(idVerifications.id, id));
  if (!row || (viewer.type !== 'admin' && viewer.id !== row.userId)) throw new AppError('NOT_FOUND');
  const key = row.documentKeys[index];
  const blob = key ? await getPrivateBlob(key, db) : undefined;
  if (!blob) throw new AppError('NOT_FOUND');
  if (viewer.id !== row.userId) {
    await recordAudit({ actorId: viewer.id, action: 'id_verification.document_view', targetType: 'user', targetId: row.userId, details: { applicationId: id, side } }, db);
  }
  return blob;
}
