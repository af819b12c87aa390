/**
 * Fills an empty database for bench/search.mjs: 10,000 publishable guides (names, bios, descriptions and
 * search text from a small vocabulary, so keywords have realistic hit rates), 2,000 travelers, 200,000 completed
 * orders each with a traveler review, stored rating figures, and 10 open days per guide.
 *
 *   npx tsx bench/search-seed.ts <data-dir | postgres://...>
 */
import { sql } from 'drizzle-orm';
import { openDatabase } from '~db/client';
import { users } from '~db/schema';
import { CITY_CODES } from '~/lib/cities';
import { addDays, todayInTaipei } from '~/lib/dates';
import { guideSearchText } from '~/lib/search-text';

const GUIDES = Number(process.env.BENCH_GUIDES ?? 10_000);
const REVIEWS = Number(process.env.BENCH_REVIEWS ?? 200_000);
const TRAVELERS = 2_000;

const target = process.argv[2];
if (!target) throw new Error('usage: tsx bench/search-seed.ts <data-dir | postgres-url>');
const handle = await openDatabase(target.startsWith('postgres') ? { url: target } : { dataDir: target });
await handle.migrate();
const db = handle.db;

let seed = 42;
const rand = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;

const SURNAMES = ['陳', '林', '黃', '張', '李', '王', '吳', '劉', '蔡', '楊', '許', '鄭', '謝', '郭', '洪', '曾', '邱', '廖', '賴', '周'];
const GIVEN = ['怡君', '志豪', '雅婷', '家瑋', '詩涵', '宗翰', '佩珊', '俊傑', '宜蓁', '惠如', '文彬', '嘉玲', '凱文', '孟哲', '品妤'];
const THEMES = ['夜市美食', '老街散步', '登山步道', '溫泉泡湯', '攝影散策', '寺廟巡禮', '單車環湖', '茶園體驗', '海邊浮潛', '部落文化', 'night market', 'mountain hike', 'temple walk', 'tea tasting'];
const LANGS = [['zh', 'en'], ['zh', 'ja'], ['zh', 'nan'], ['zh', 'en', 'ja'], ['zh', 'hak', 'en'], ['zh', 'ko']];

const now = Date.now();
console.log(`guides: ${GUIDES}`);
for (let start = 0; start < GUIDES; start += 500) {
  const rows = [];
  for (let i = start; i < Math.min(GUIDES, start + 500); i++) {
    const city = pick(CITY_CODES);
    const theme = pick(THEMES);
    const name = `${pick(SURNAMES)}${pick(GIVEN)}${i}`;
    const bio = `${theme}導遊，帶你認識在地。`;
    const description = `${pick(THEMES)}、${theme}與${pick(THEMES)}的一日行程，適合第一次來的旅客。`;
    rows.push({
      name,
      email: `bench-guide-${i}@bench.test`,
      type: 'guide' as const,
      isEmailVerified: true,
      guideStatus: 'active' as const,
      city,
      language: pick(LANGS),
      price: 1000 + Math.floor(rand() * 40) * 100,
      bio,
      description,
      isIdVerified: rand() < 0.7,
      registerDate: new Date(now - i * 3_600_000),
      searchText: guideSearchText({ name, bio, city, description }),
    });
  }
  await db.insert(users).values(rows);
}
await db.execute(sql`insert into users (name, email, type, is_email_verified)
  select 'bench traveler ' || g, 'bench-traveler-' || g || '@bench.test', 'traveler', true from generate_series(1, ${TRAVELERS}) g`);
console.log(`orders and reviews: ${REVIEWS}`);
await db.execute(sql`
  with guides as (select id, row_number() over (order by id) - 1 as n from users where type = 'guide'),
       travelers as (select id, row_number() over (order by id) - 1 as n from users where type = 'traveler')
  insert into orders (traveler_id, guide_id, date, time_slot, number_of_people, status, traveler_completed, guide_completed, total_price)
  select t.id, g.id, (current_date - (1 + s % 700))::date, (array['morning','afternoon','evening'])[1 + s % 3], 1, 'completed', true, true, 2000
  from generate_series(0, ${REVIEWS - 1}) s
  join guides g on g.n = (s * 7919) % ${GUIDES}
  join travelers t on t.n = s % ${TRAVELERS}`);
await db.execute(sql`
  insert into reviews (order_id, reviewer_id, reviewee_id, role, rating, comment)
  select o.id, o.traveler_id, o.guide_id, 'traveler', 1 + ((o.id * 31) % 5 + (o.id * 17) % 3) % 5, '很棒的行程'
  from orders o`);
await db.execute(sql`
  update users u set rating_average = r.avg, rating_count = r.n
  from (select reviewee_id, round(avg(rating)::numeric, 1)::real avg, count(*)::int n from reviews where role = 'traveler' and not is_hidden group by reviewee_id) r
  where r.reviewee_id = u.id`);
console.log('open days');
const today = todayInTaipei();
await db.execute(sql`
  insert into availability_slots (guide_id, date, time_slot, available, price)
  select u.id, ${today}::date + d, 'morning', true, u.price from users u cross join generate_series(1, 10) d where u.type = 'guide'`);
// Leave the tables as a database in service has them: dead rows of the rating update reclaimed and planner
// statistics current (PostgreSQL's autovacuum would do it; PGlite has none, so the seed does it on both).
await db.execute(sql`vacuum analyze`);
console.log(`done (${addDays(today, 10)} last open day)`);
await handle.close();
