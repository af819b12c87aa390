import { beforeAll, describe, expect, it } from 'vitest';
import { CITY_ALIASES, CITY_CODES, type CityCode } from '~/lib/cities';
import { createGuide } from '~server/seed/factories';
import { useTestServer } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/** Issue 19: a keyword naming a city finds that city's guides and never another city whose name contains it. */
useTestDatabase();
const server = useTestServer();

const guideOf = (city: CityCode) => `城市導遊 ${CITY_CODES.indexOf(city) + 1}`;

beforeAll(async () => {
  for (const city of CITY_CODES) await createGuide({ name: guideOf(city), city, description: '帶你走訪在地景點。', bio: '在地導遊' });
});

async function found(keyword: string): Promise<string[]> {
  const response = await server.request(`/api/v1/guides?limit=50&keyword=${encodeURIComponent(keyword)}`);
  expect(response.status, keyword).toBe(200);
  return response.json.data.guides.map((g: { name: string }) => g.name);
}

describe(`keyword search by city name (${testDriver})`, () => {
  it('finds, for every name of every city, that city\'s guide and no other', async () => {
    for (const city of CITY_CODES) {
      for (const name of [city, ...CITY_ALIASES[city]]) expect(await found(name), `${name}`).toEqual([guideOf(city)]);
    }
  });

  it('reads Taipei as 台北, not New Taipei, in every language and spelling', async () => {
    const taipei = [guideOf('taipei')];
    for (const name of ['Taipei', 'TAIPEI', 'taipei city', '台北', '臺北市', 'タイペイ']) expect(await found(name), name).toEqual(taipei);
    for (const name of ['New Taipei', 'new taipei city', '新北', 'ニュータイペイ', '台北縣']) expect(await found(name), name).toEqual([guideOf('new_taipei')]);
    // The city with another word: both must match.
    expect(await found('Taipei 在地')).toEqual(taipei);
    expect(await found('New Taipei 景點')).toEqual([guideOf('new_taipei')]);
  });
});
