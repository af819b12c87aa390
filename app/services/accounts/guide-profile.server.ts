import { getDb, type Database } from '~db/client';
import type { GuideProfileUpdate } from '~/schemas/guide-profile';
import { assertSelfOrAdmin, type Viewer } from '../platform/access.server';
import { AppError, idParamOr } from '../platform/errors.server';
import { updateProfile, type UserRow } from './users.server';

/** A guide id from a URL segment: anything that is not a positive whole number names no guide (404). */
export const guideIdParam = (raw: string | number | undefined): number => idParamOr('GUIDE_NOT_FOUND', raw);

/** The guide whose profile `viewer` may edit (the guide or an admin), checked before the body is read. */
export async function assertMayEditGuideProfile(viewer: Viewer, guideId: number, db: Database = getDb()): Promise<UserRow> {
  let target: UserRow;
  try {
    target = await assertSelfOrAdmin(viewer, guideId, { write: true }, db);
  } catch (error) {
    if (error instanceof AppError && error.code === 'USER_NOT_FOUND') throw new AppError('GUIDE_NOT_FOUND');
    throw error;
  }
  if (target.type !== 'guide') throw new AppError('GUIDE_NOT_FOUND');
  return target;
}

/**
 * PUT /api/v1/guides/{id}/profile: the guide's public profile only, saved by the same service as the /me form
 * (updateProfile), with name, email and bio left as they are. The guide itself or an admin; another person's
 * id is FORBIDDEN, an id that is not a guide GUIDE_NOT_FOUND.
 */
export async function updateGuideProfile(
  viewer: Viewer,
  guideId: number,
  input: GuideProfileUpdate,
  db: Database = getDb(),
): Promise<UserRow> {
  const target = await assertMayEditGuideProfile(viewer, guideId, db);
  return updateProfile(viewer, guideId, { name: target.name, email: target.email, bio: target.bio ?? undefined, ...input }, db);
}
