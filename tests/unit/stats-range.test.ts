import { describe, expect, it } from 'vitest';
import { daysBetween, eachDay, eachMonth, eachWeek, presetRange, weekStart } from '~/lib/stats-range';
import { statsQuerySchema } from '~/schemas/admin-stats';

/** The statistics' periods (app/lib/stats-range.ts) and their query (app/schemas/admin-stats.ts). */
describe('stats periods', () => {
  it('resolves the presets against a Taiwan day, both ends included', () => {
    expect(presetRange('7d', '2026-03-02')).toEqual({ from: '2026-02-24', to: '2026-03-02' });
    expect(daysBetween('2026-02-24', '2026-03-02')).toBe(7);
    expect(presetRange('30d', '2026-01-10')).toEqual({ from: '2025-12-12', to: '2026-01-10' });
    expect(presetRange('year', '2026-11-27')).toEqual({ from: '2026-01-01', to: '2026-11-27' });
  });

  it('lists every day, Monday week and month the period touches', () => {
    expect(eachDay({ from: '2024-02-27', to: '2024-03-01' })).toEqual(['2024-02-27', '2024-02-28', '2024-02-29', '2024-03-01']);
    expect(weekStart('2025-06-15')).toBe('2025-06-09'); // a Sunday belongs to the week of the Monday before
    expect(weekStart('2025-06-16')).toBe('2025-06-16');
    expect(eachWeek({ from: '2025-12-31', to: '2026-01-12' })).toEqual(['2025-12-29', '2026-01-05', '2026-01-12']);
    expect(eachMonth({ from: '2025-11-30', to: '2026-02-01' })).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
  });

  it('refuses one date without the other, an end before the start, and more than two years', () => {
    const fields = (q: Record<string, string>) => {
      const r = statsQuerySchema.safeParse(q);
      return r.success ? null : r.error.issues.map((i) => `${i.path.join('.')}:${i.message}`);
    };
    expect(fields({ range: '90d' })).toBeNull();
    expect(fields({ from: '', to: '' })).toBeNull();
    expect(fields({ from: '2026-01-01' })).toEqual(['to:stats.errors.bothDates']);
    expect(fields({ from: '2026-01-02', to: '2026-01-01' })).toEqual(['to:stats.errors.toBeforeFrom']);
    expect(fields({ from: '2024-01-01', to: '2025-12-31' })).toBeNull(); // 731 days
    expect(fields({ from: '2024-01-01', to: '2026-01-01' })).toEqual(['to:stats.errors.tooLong']);
    expect(fields({ range: 'week' })).toEqual(['range:validation.invalid']);
  });
});
