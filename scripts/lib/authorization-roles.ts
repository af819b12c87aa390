/*
 * The words of the authorization matrix (issue 21), shared by the hand-kept policy (scripts/authorization-policy.ts)
 * and the matrix built from it (./authorization-matrix.ts): the policy is data the matrix reads, and neither
 * imports the other back (issue 34).
 */

/** Who asks. The world the test builds: a traveler with an order with the guide, a review, a notification … */
export const MATRIX_ROLES = ['visitor', 'traveler', 'otherTraveler', 'guide', 'otherGuide', 'admin', 'blocked'] as const;
export type MatrixRole = (typeof MATRIX_ROLES)[number];

export const ROLE_MEANING: Record<MatrixRole, string> = {
  visitor: 'no session',
  traveler: 'the traveler who owns the order, review, favorite, notification, board post, and sent the chat message (which the guide reported; the guide replied to the post) (and whose id is in /users/{id})',
  otherTraveler: 'another traveler',
  guide: 'the guide of the order and of the traveler’s chat (ID-verified; owns the photo, the ID application, /guides/{id})',
  otherGuide: 'another guide',
  admin: 'an admin',
  blocked: 'a blocked traveler whose session predates the block',
};

/**
 * Expected answers: an exact status, a status class, or `login` (a redirect to /login). `skip`: an allowed,
 * body-less write that would change the shared world (delete, block, log out …); its refusals are still driven.
 */
export type Outcome = '2xx' | '3xx' | 'login' | '400' | '401' | '403' | '404' | '405' | '409' | '415' | 'skip';
