/**
 * The search query's own latency for bench/search.mjs: runs `searchGuides` in this process on the seeded database
 * (scripts never start the catalogue cache, so every call reaches the database) with keywords that each call sees
 * for the first time in its combination, and prints one JSON line of p50/p99 per group.
 *
 *   npx tsx bench/search-query.ts <data-dir | postgres://...>
 */
import { openDatabase, setDatabase } from '~db/client';
import { guideSearchSchema } from '~/schemas/guide-search';
import { searchGuides } from '~/services/catalogue/search.server';

const target = process.argv[2];
if (!target) throw new Error('usage: tsx bench/search-query.ts <data-dir | postgres-url>');
const handle = await openDatabase(target.startsWith('postgres') ? { url: target } : { dataDir: target });
setDatabase(handle);

/** 4-character keywords from the seed's vocabulary (themes, English words), from common to absent. */
const FOUR_CHAR_KEYWORDS = ['夜市美食', '老街散步', '登山步道', '溫泉泡湯', '攝影散策', '寺廟巡禮', '單車環湖', '茶園體驗', '海邊浮潛', '部落文化', 'hike', 'temp', 'walk', 'mark', 'tast', 'moun', '陳怡君1', 'xyzw'];
const TWO_CHAR_KEYWORDS = ['臺北', '花蓮', '美食', '老街', '導遊', 'ea'];
const ONE_CHAR_KEYWORDS = ['台', '湯', 'a'];
const SORTS = ['newest', 'oldest', 'price_asc', 'price_desc', 'rating_desc', 'rating_asc'] as const;
const FILTERS = { city: 'taipei', language: 'en', minPrice: '1500', maxPrice: '4000' };

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
async function time(keywords: string[], filters: Record<string, string>) {
  const ms: number[] = [];
  for (const sort of SORTS) {
    for (const keyword of keywords) {
      const search = guideSearchSchema.parse({ ...filters, keyword, sort });
      const start = performance.now();
      await searchGuides(search);
      ms.push(performance.now() - start);
    }
  }
  ms.sort((a, b) => a - b);
  return { n: ms.length, p50: Number(percentile(ms, 50).toFixed(1)), p99: Number(percentile(ms, 99).toFixed(1)) };
}

// Warm the connection, the plan cache and the buffer pool as a running server would be.
await time(FOUR_CHAR_KEYWORDS.slice(0, 3), {});
const result = {
  'keyword (4 chars) only': await time(FOUR_CHAR_KEYWORDS, {}),
  'keyword (4 chars) + city, language, price': await time(FOUR_CHAR_KEYWORDS, FILTERS),
  'keyword (2 chars) only': await time(TWO_CHAR_KEYWORDS, {}),
  'keyword (1 char) only': await time(ONE_CHAR_KEYWORDS, {}),
  'no keyword, city, language, price': await time([''], FILTERS),
  'no keyword, no filter': await time([''], {}),
};
console.log(JSON.stringify(result));
await handle.close();
