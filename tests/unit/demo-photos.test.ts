import { describe, expect, it } from 'vitest';
import { CITY_CODES } from '~/lib/cities';
import { cityScenes, demoGuides, demoGuideTours, guidePhotoScenes } from '~server/seed/demo-content';

/** Issue 19: a demo guide's photos look like their own city (no Taipei 101 skyline on a Tainan guide). */
describe('demo guide photos', () => {
  it('show only scenes of the guide\'s own city, the tower skyline only in Taipei', () => {
    expect(demoGuides.length).toBeGreaterThan(30);
    for (const [i, guide] of demoGuides.entries()) {
      const scenes = guidePhotoScenes(demoGuideTours[i]!, guide.city, 4);
      for (const scene of scenes) expect(cityScenes[guide.city], `${guide.name} (${guide.city}): ${scene}`).toContain(scene);
      if (guide.city !== 'taipei') expect(scenes, `${guide.name} (${guide.city})`).not.toContain('tower_city');
      // The same guide gets the same pictures at every seed.
      expect(guidePhotoScenes(demoGuideTours[i]!, guide.city, 4)).toEqual(scenes);
    }
    for (const city of CITY_CODES) {
      expect(cityScenes[city].length, city).toBeGreaterThan(0);
      if (city !== 'taipei') expect(cityScenes[city], city).not.toContain('tower_city');
    }
  });

  it('keep the scene of the tour where the city has it', () => {
    // A Taipei photo walk shows Taipei's skyline; a Tainan food tour its market, never a skyline.
    expect(guidePhotoScenes('photo', 'taipei', 3)[0]).toBe('tower_city');
    expect(guidePhotoScenes('hiking', 'hualien', 3)).toEqual(['mountains', 'forest', 'mountains']);
    const tainanFood = guidePhotoScenes('food', 'tainan', 3);
    expect(tainanFood[0]).toBe('market');
    for (const tour of ['food', 'heritage', 'art', 'photo'] as const) {
      expect(guidePhotoScenes(tour, 'tainan', 4), tour).not.toEqual(expect.arrayContaining(['city']));
      expect(guidePhotoScenes(tour, 'tainan', 4), tour).not.toEqual(expect.arrayContaining(['tower_city']));
    }
  });
});
