import { describe, expect, it } from 'vitest';
import { bayesianRating, DEFAULT_PRIOR_MEAN, PRIOR_WEIGHT, rankByRating } from '~/lib/rating';

describe('Bayesian average rating', () => {
  it('5.0 from one review does not beat 4.8 from fifty', () => {
    expect(bayesianRating(4.8, 50)).toBeGreaterThan(bayesianRating(5, 1));
    expect(bayesianRating(4.8, 5)).toBeGreaterThan(bayesianRating(5, 1));
    expect(bayesianRating(4.8, 5)).toBeGreaterThan(bayesianRating(5, 2));
  });
  it('no reviews gives the prior; many reviews approach the real average', () => {
    expect(bayesianRating(null, 0)).toBe(DEFAULT_PRIOR_MEAN);
    expect(bayesianRating(3, 0, 4.2)).toBe(4.2);
    expect(bayesianRating(4.9, 10_000)).toBeCloseTo(4.9, 2);
    expect(bayesianRating(5, 1, 4)).toBeCloseTo((PRIOR_WEIGHT * 4 + 5) / (PRIOR_WEIGHT + 1), 10);
  });
  it('ranks best first, ties by more reviews then lower id', () => {
    const ranked = rankByRating([
      { id: 3, averageRating: 5, reviewCount: 1 },
      { id: 1, averageRating: 4.8, reviewCount: 50 },
      { id: 2, averageRating: null, reviewCount: 0 },
      { id: 5, averageRating: 4.5, reviewCount: 4 },
      { id: 4, averageRating: 4.5, reviewCount: 4 },
      { id: 6, averageRating: 2, reviewCount: 3 },
    ]);
    // 4.5 from four reviews is more evidence than 5.0 from one; a guide without reviews sits at the prior.
    expect(ranked.map((g) => g.id)).toEqual([1, 4, 5, 3, 2, 6]);
  });
});
