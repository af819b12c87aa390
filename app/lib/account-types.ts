/**
 * The kinds of account (SPEC §1 roles), the one list: db/schema.ts builds the column's check from it, app/schemas
 * validate with it. Admins are made by the start-up sequence, never by signing up.
 */
export const ACCOUNT_TYPES = ['traveler', 'guide', 'admin'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

/** The accounts a person can sign up for (/register, POST /api/v1/auth/register). */
export const SIGN_UP_ACCOUNT_TYPES = ['traveler', 'guide'] as const satisfies readonly AccountType[];
export type SignUpAccountType = (typeof SIGN_UP_ACCOUNT_TYPES)[number];
