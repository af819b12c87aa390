import { describe, expect, it } from 'vitest';
import { startupSummary } from '~server/startup';

describe('start-up summary (the last lines of npm start)', () => {
  it('is the listening address alone when no admin was generated', () => {
    expect(startupSummary({ url: 'http://localhost:3000', driver: 'pglite', readyMs: 812 })).toEqual([
      '旅遊助手 listening on http://localhost:3000 (pglite, ready in 812 ms)',
    ]);
  });

  it('ends with the generated admin login, after the address', () => {
    const lines = startupSummary({
      url: 'http://localhost:4123',
      driver: 'pglite',
      readyMs: 40,
      generatedAdmin: { email: 'admin@demo.travel-assistant.tw', password: 'pw-123' },
    });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('listening on http://localhost:4123');
    expect(lines[1]).toBe('Admin login (generated on this first start, not shown again): admin@demo.travel-assistant.tw / pw-123');
  });
});
