import type { AccountType } from '~/lib/account-types';
import type { EarningsTab } from '~/schemas/earnings';
import type {
  IdVerificationState,
  UserOrderSummary,
  UserReview,
  UserStats,
} from '~/schemas/user-views';

/** What /me knows about the person (dates as ISO strings). */
export interface ProfileUser {
  id: number;
  name: string;
  email: string;
  /** A new address waiting for its code; `email` stays the login until it is confirmed. */
  pendingEmail: string | null;
  type: AccountType;
  bio: string | null;
  city: string | null;
  language: string[];
  price: number | null;
  /** A guide's maximum group size (null for travelers and admins). */
  maxGroupSize: number | null;
  description: string | null;
  /** A guide's headline (中文) and English and Japanese texts (issue 9). */
  headline?: string | null;
  localized?: Partial<Record<'en' | 'ja', { headline?: string; description?: string }>>;
  avatarUrl: string | null;
  isEmailVerified: boolean;
  emailVerifiedAt: string | null;
  isIdVerified: boolean;
  registerDate: string;
  lastLogin: string | null;
}

export const PROFILE_TABS = ['profile', 'orders', 'reviews', 'earnings'] as const;
export type ProfileTab = (typeof PROFILE_TABS)[number];

export interface IdVerificationInfo {
  state: IdVerificationState;
  submittedAt: string | null;
  reviewNotes: string | null;
  verifiedAt: string | null;
}

export type { EarningsTab, UserOrderSummary, UserReview, UserStats };
