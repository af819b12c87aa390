/**
 * What /me and GET /api/v1/users/:id/stats show about an account: the shapes the services build and the
 * browser renders (components import them from here, never from a .server module).
 */

import type { OrderStatus } from '~/lib/order-status';

export type { OrderStatus };

export interface UserStats {
  totalOrders: number;
  completedOrders: number;
  averageRating: number;
  totalEarnings: number;
  totalFavorites: number;
  totalReviews: number;
  totalSpent: number;
  currentMonthSpent: number;
  travelerStats: { bookingCount: number; favoriteGuides: number; reviewCount: number };
  guideStats: { serviceHours: number; averageRating: number; isAvailable: boolean };
}

export interface UserOrderSummary {
  id: number;
  status: OrderStatus;
  /** Tour date, YYYY-MM-DD (Taiwan). */
  date: string;
  timeSlot: string;
  totalPrice: number;
  /** The user's side of the order. */
  role: 'traveler' | 'guide';
  otherPartyId: number;
  otherPartyName: string;
  createdAt: string;
}

export interface UserReview {
  id: number;
  orderId: number;
  reviewerId: number;
  reviewerName: string;
  revieweeId: number;
  revieweeName: string;
  role: 'traveler' | 'guide';
  rating: number;
  comment: string | null;
  createdAt: string;
  isHidden: boolean;
}

export type IdVerificationState = 'not_verified' | 'pending' | 'verified' | 'rejected';
