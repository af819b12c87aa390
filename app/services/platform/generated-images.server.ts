import { loadSharp } from './sharp.server';

/**
 * Pictures made locally for demo data and default avatars, so nothing is ever downloaded.
 * They contain no text: a fresh machine may have no CJK font for librsvg.
 *
 * Demo pictures differ by what they show (issue 9): an avatar is an illustrated face (skin, hair, clothes,
 * glasses vary with the seed), and a scene is one of several landscapes (mountains, coast, city, rice fields,
 * night market, temple, forest, tea hills) in its own colours and composition, so guides, cities and banners
 * do not all share one sunset.
 */

const SKIN = ['#f6d7c3', '#eec1a0', '#e0ac84', '#c98e66', '#a86f4c', '#8a5a3c'];
const HAIR = ['#1f1a17', '#2f2520', '#4a3326', '#6b4a2f', '#8c6239', '#b8b1a8', '#2a2f45'];

/**
 * A 100×100 webp avatar: an illustrated head and shoulders. `seed` picks skin, hair style and colour,
 * clothes, background and whether there are glasses; the same seed gives the same face.
 */
export function generateAvatar(seed: number): Promise<Buffer> {
  const rand = mulberry32(seed * 7919 + 17);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  const bgHue = Math.floor(rand() * 360);
  const skin = pick(SKIN);
  const hair = pick(HAIR);
  const shirtHue = (bgHue + 120 + Math.floor(rand() * 120)) % 360;
  const style = Math.floor(rand() * 4); // 0 short, 1 long, 2 bun, 3 cap
  const glasses = rand() < 0.3;
  const smile = rand() < 0.75;
  const hairShapes = [
    `<path d="M58 88c0-30 20-48 42-48s42 18 42 48c-8-14-22-22-42-22s-34 8-42 22z" fill="${hair}"/>`,
    `<path d="M52 150V92c0-32 22-52 48-52s48 20 48 52v58h-18V98c-8-12-18-18-30-18s-22 6-30 18v52z" fill="${hair}"/>`,
    `<circle cx="100" cy="42" r="16" fill="${hair}"/><path d="M58 90c0-28 20-44 42-44s42 16 42 44c-10-12-24-18-42-18s-32 6-42 18z" fill="${hair}"/>`,
    `<path d="M56 84c2-26 22-42 44-42s42 16 44 42z" fill="hsl(${shirtHue}, 55%, 40%)"/><rect x="96" y="78" width="62" height="10" rx="5" fill="hsl(${shirtHue}, 55%, 34%)"/>`,
  ];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" viewBox="0 0 200 200">
    <rect width="200" height="200" fill="hsl(${bgHue}, 60%, 78%)"/>
    <circle cx="${30 + rand() * 140}" cy="${20 + rand() * 40}" r="${18 + rand() * 20}" fill="hsl(${bgHue}, 65%, 86%)"/>
    ${style === 1 ? hairShapes[1] : ''}
    <path d="M30 200c4-38 34-58 70-58s66 20 70 58z" fill="hsl(${shirtHue}, 50%, 48%)"/>
    <path d="M86 140h28v14c0 8-28 8-28 0z" fill="${skin}"/>
    <ellipse cx="100" cy="98" rx="38" ry="44" fill="${skin}"/>
    ${style === 1 ? '' : hairShapes[style]}
    ${style === 1 ? `<path d="M62 92c4-28 20-40 38-40s34 12 38 40c-12-10-24-14-38-14s-26 4-38 14z" fill="${hair}"/>` : ''}
    <circle cx="86" cy="100" r="4" fill="#1f2937"/><circle cx="114" cy="100" r="4" fill="#1f2937"/>
    ${glasses ? '<g fill="none" stroke="#1f2937" stroke-width="3"><circle cx="86" cy="100" r="10"/><circle cx="114" cy="100" r="10"/><path d="M96 100h8"/></g>' : ''}
    <circle cx="76" cy="116" r="6" fill="#f87171" opacity="0.25"/><circle cx="124" cy="116" r="6" fill="#f87171" opacity="0.25"/>
    ${smile ? '<path d="M88 122c6 8 18 8 24 0" fill="none" stroke="#7c2d12" stroke-width="3" stroke-linecap="round"/>' : '<path d="M90 124h20" stroke="#7c2d12" stroke-width="3" stroke-linecap="round"/>'}
  </svg>`;
  return loadSharp().then((sharp) => sharp(Buffer.from(svg)).resize(100, 100).webp({ quality: 90 }).toBuffer());
}

/**
 * What a landscape can show. 'city' is a skyline of ordinary towers; 'tower_city' the same with one tall tapered
 * tower over it, which reads as Taipei 101, so demo data gives it to Taipei only (server/seed/demo-content.ts).
 */
export const SCENES = ['mountains', 'coast', 'city', 'tower_city', 'fields', 'market', 'temple', 'forest', 'tea'] as const;
export type Scene = (typeof SCENES)[number];

/** A landscape as webp, longest side 1200 px like real uploads; `scene` chooses what it shows. */
export function generateLandscape(seed: number, width = 1200, height = 800, scene?: Scene): Promise<Buffer> {
  const rand = mulberry32(seed);
  const kind = scene ?? SCENES[Math.floor(rand() * SCENES.length)]!;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${drawScene(kind, rand, width, height)}</svg>`;
  return loadSharp().then((sharp) => sharp(Buffer.from(svg)).webp({ quality: 70, effort: 0 }).toBuffer());
}

function ridge(rand: () => number, width: number, base: number, amplitude: number, steps = 8): string {
  return Array.from({ length: steps + 1 }, (_, i) => `${((width / steps) * i).toFixed(0)},${(base - rand() * amplitude).toFixed(0)}`).join(' ');
}

function sky(id: string, top: string, bottom: string, w: number, h: number) {
  return `<defs><linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient></defs><rect width="${w}" height="${h}" fill="url(#${id})"/>`;
}

function drawScene(scene: Scene, rand: () => number, w: number, h: number): string {
  const hueShift = Math.floor(rand() * 40) - 20;
  const time = rand(); // < 0.25 dawn/dusk, else day
  const warm = time < 0.25;
  const skyTop = warm ? `hsl(${20 + hueShift}, 80%, 62%)` : `hsl(${205 + hueShift}, 70%, 62%)`;
  const skyBottom = warm ? `hsl(${40 + hueShift}, 90%, 82%)` : `hsl(${195 + hueShift}, 70%, 88%)`;
  const sunX = Math.round(w * (0.15 + rand() * 0.7));
  const sun = `<circle cx="${sunX}" cy="${Math.round(h * (warm ? 0.42 : 0.22))}" r="${Math.round(h * (0.05 + rand() * 0.05))}" fill="${warm ? '#fde68a' : '#fff7cc'}"/>`;
  const clouds = Array.from({ length: 2 + Math.floor(rand() * 3) }, () => {
    const cx = rand() * w;
    const cy = h * (0.1 + rand() * 0.2);
    const r = h * (0.03 + rand() * 0.03);
    return `<g fill="#ffffff" opacity="0.8"><circle cx="${cx}" cy="${cy}" r="${r}"/><circle cx="${cx + r}" cy="${cy - r * 0.4}" r="${r * 1.2}"/><circle cx="${cx + r * 2.2}" cy="${cy}" r="${r}"/></g>`;
  }).join('');
  switch (scene) {
    case 'mountains': {
      const layers = [0, 1, 2, 3]
        .map((l) => `<polygon points="0,${h} ${ridge(rand, w, h * (0.45 + l * 0.12), h * (0.28 - l * 0.04), 6 + l * 2)} ${w},${h}" fill="hsl(${150 + hueShift + l * 8}, ${25 + l * 10}%, ${62 - l * 13}%)"/>`)
        .join('');
      return sky('s', skyTop, skyBottom, w, h) + sun + clouds + layers;
    }
    case 'coast': {
      const sea = `<rect y="${h * 0.5}" width="${w}" height="${h * 0.5}" fill="hsl(${195 + hueShift}, 75%, 42%)"/>`;
      const waves = Array.from({ length: 6 }, (_, i) => `<path d="M0 ${h * (0.56 + i * 0.07)} Q ${w * 0.25} ${h * (0.54 + i * 0.07)} ${w * 0.5} ${h * (0.56 + i * 0.07)} T ${w} ${h * (0.56 + i * 0.07)}" stroke="hsl(190, 70%, ${70 + i * 3}%)" stroke-width="${3 + i}" fill="none" opacity="0.6"/>`).join('');
      const cliffLeft = rand() < 0.5;
      const cliff = `<polygon points="${cliffLeft ? `0,${h} 0,${h * 0.3} ${w * 0.18},${h * 0.42} ${w * 0.3},${h}` : `${w},${h} ${w},${h * 0.32} ${w * 0.8},${h * 0.45} ${w * 0.66},${h}`}" fill="hsl(${110 + hueShift}, 30%, 32%)"/>`;
      const beach = `<path d="M0 ${h} L0 ${h * 0.86} Q ${w * 0.5} ${h * 0.78} ${w} ${h * 0.9} L${w} ${h}z" fill="hsl(42, 60%, 78%)"/>`;
      const island = `<ellipse cx="${w * (0.3 + rand() * 0.4)}" cy="${h * 0.5}" rx="${w * 0.08}" ry="${h * 0.05}" fill="hsl(140, 20%, 40%)"/>`;
      return sky('s', skyTop, skyBottom, w, h) + sun + clouds + sea + island + waves + cliff + beach;
    }
    case 'city':
    case 'tower_city': {
      const hills = `<polygon points="0,${h} ${ridge(rand, w, h * 0.5, h * 0.15)} ${w},${h}" fill="hsl(160, 20%, 55%)"/>`;
      const count = 14 + Math.floor(rand() * 8);
      const bw = w / count;
      const buildings = Array.from({ length: count }, (_, i) => {
        const bh = h * (0.15 + rand() * 0.35);
        const x = i * bw;
        const light = 30 + Math.floor(rand() * 25);
        const windows = Array.from({ length: Math.floor(bh / 28) }, (_, r) => `<rect x="${x + bw * 0.25}" y="${h - bh + 12 + r * 28}" width="${bw * 0.5}" height="10" fill="hsl(48, 90%, 75%)" opacity="${warm ? 0.9 : 0.35}"/>`).join('');
        return `<rect x="${x}" y="${h - bh}" width="${bw - 4}" height="${bh}" fill="hsl(${215 + hueShift}, 20%, ${light}%)"/>${windows}`;
      }).join('');
      if (scene === 'city') return sky('s', skyTop, skyBottom, w, h) + sun + clouds + hills + buildings;
      const towerX = w * (0.3 + rand() * 0.4);
      const tower = `<polygon points="${towerX - 18},${h} ${towerX - 10},${h * 0.22} ${towerX},${h * 0.12} ${towerX + 10},${h * 0.22} ${towerX + 18},${h}" fill="hsl(200, 25%, 35%)"/>`;
      return sky('s', skyTop, skyBottom, w, h) + sun + clouds + hills + tower + buildings;
    }
    case 'fields': {
      const hills = `<polygon points="0,${h} ${ridge(rand, w, h * 0.42, h * 0.12)} ${w},${h}" fill="hsl(150, 25%, 45%)"/>`;
      const golden = rand() < 0.4;
      const rows = Array.from({ length: 9 }, (_, i) => {
        const y = h * (0.5 + i * 0.06);
        return `<rect y="${y}" width="${w}" height="${h * 0.06 + 1}" fill="hsl(${golden ? 48 - i : 95 + i * 3}, ${55 + (i % 2) * 10}%, ${golden ? 55 + (i % 2) * 8 : 40 + (i % 2) * 8}%)"/>`;
      }).join('');
      const road = `<polygon points="${w * 0.48},${h * 0.5} ${w * 0.52},${h * 0.5} ${w * 0.7},${h} ${w * 0.3},${h}" fill="hsl(35, 20%, 70%)"/>`;
      const trees = Array.from({ length: 5 }, () => {
        const x = rand() * w;
        const y = h * 0.5;
        return `<rect x="${x - 3}" y="${y - 30}" width="6" height="30" fill="#5b4636"/><circle cx="${x}" cy="${y - 40}" r="18" fill="hsl(130, 35%, 30%)"/>`;
      }).join('');
      return sky('s', skyTop, skyBottom, w, h) + sun + clouds + hills + rows + road + trees;
    }
    case 'market': {
      const night = sky('s', `hsl(${240 + hueShift}, 45%, 14%)`, `hsl(${260 + hueShift}, 40%, 30%)`, w, h);
      const stalls = Array.from({ length: 6 }, (_, i) => {
        const x = (w / 6) * i;
        const hue = Math.floor(rand() * 360);
        return `<rect x="${x + 8}" y="${h * 0.55}" width="${w / 6 - 16}" height="${h * 0.3}" fill="hsl(${hue}, 30%, 22%)"/><path d="M${x + 4} ${h * 0.55} L${x + w / 12} ${h * 0.45} L${x + w / 6 - 4} ${h * 0.55}z" fill="hsl(${hue}, 70%, 50%)"/><rect x="${x + 16}" y="${h * 0.62}" width="${w / 6 - 32}" height="${h * 0.08}" fill="hsl(45, 90%, 70%)" opacity="0.85"/>`;
      }).join('');
      const lanterns = Array.from({ length: 12 }, (_, i) => {
        const x = (w / 12) * i + w / 24;
        const y = h * (0.22 + 0.05 * Math.sin(i));
        return `<line x1="${x}" y1="${y - 30}" x2="${x}" y2="${y - 16}" stroke="#444" stroke-width="2"/><ellipse cx="${x}" cy="${y}" rx="16" ry="20" fill="hsl(${rand() < 0.7 ? 0 : 40}, 85%, 52%)"/>`;
      }).join('');
      const string = `<path d="M0 ${h * 0.17} Q ${w / 2} ${h * 0.25} ${w} ${h * 0.17}" stroke="#555" stroke-width="3" fill="none"/>`;
      const ground = `<rect y="${h * 0.85}" width="${w}" height="${h * 0.15}" fill="hsl(30, 15%, 20%)"/>`;
      return night + string + lanterns + stalls + ground;
    }
    case 'temple': {
      const ground = `<rect y="${h * 0.78}" width="${w}" height="${h * 0.22}" fill="hsl(30, 25%, 70%)"/>`;
      const cx = w * (0.35 + rand() * 0.3);
      const tw = w * 0.5;
      const roof = (y: number, width: number) => `<path d="M${cx - width / 2} ${y} Q ${cx - width / 2 + 20} ${y - 30} ${cx - width / 2 - 30} ${y - 50} L${cx + width / 2 + 30} ${y - 50} Q ${cx + width / 2 - 20} ${y - 30} ${cx + width / 2} ${y}z" fill="hsl(${10 + hueShift / 4}, 70%, 38%)"/>`;
      const body = `<rect x="${cx - tw / 2 + 30}" y="${h * 0.5}" width="${tw - 60}" height="${h * 0.28}" fill="hsl(5, 65%, 45%)"/><rect x="${cx - 40}" y="${h * 0.6}" width="80" height="${h * 0.18}" fill="hsl(30, 50%, 25%)"/>`;
      const pillars = [-1, 1].map((s) => `<rect x="${cx + s * (tw / 2 - 50) - 10}" y="${h * 0.5}" width="20" height="${h * 0.28}" fill="hsl(45, 70%, 50%)"/>`).join('');
      const lanterns = [-1, 1].map((s) => `<ellipse cx="${cx + s * (tw / 4)}" cy="${h * 0.56}" rx="16" ry="22" fill="hsl(0, 85%, 55%)"/>`).join('');
      const hills = `<polygon points="0,${h} ${ridge(rand, w, h * 0.55, h * 0.2)} ${w},${h}" fill="hsl(140, 25%, 45%)"/>`;
      return sky('s', skyTop, skyBottom, w, h) + sun + clouds + hills + ground + body + pillars + roof(h * 0.5, tw) + roof(h * 0.36, tw * 0.6) + lanterns;
    }
    case 'forest': {
      const back = `<polygon points="0,${h} ${ridge(rand, w, h * 0.45, h * 0.2)} ${w},${h}" fill="hsl(160, 25%, 50%)"/>`;
      const trees = Array.from({ length: 26 }, (_, i) => {
        const x = rand() * w;
        const base = h * (0.62 + (i / 26) * 0.35);
        const th = h * (0.25 + rand() * 0.2);
        const light = 18 + Math.floor((i / 26) * 20);
        return `<polygon points="${x - th * 0.22},${base} ${x},${base - th} ${x + th * 0.22},${base}" fill="hsl(${140 + hueShift / 2}, 40%, ${light}%)"/>`;
      }).join('');
      const rays = `<polygon points="${sunX},0 ${sunX + w * 0.1},0 ${sunX + w * 0.3},${h} ${sunX + w * 0.15},${h}" fill="#fffbe6" opacity="0.18"/>`;
      return sky('s', skyTop, skyBottom, w, h) + sun + back + rays + trees;
    }
    case 'tea':
    default: {
      const hill = (y: number, hue: number, light: number) => `<path d="M0 ${h} L0 ${y} Q ${w * (0.3 + rand() * 0.3)} ${y - h * 0.2} ${w} ${y + h * 0.05} L${w} ${h}z" fill="hsl(${hue}, 40%, ${light}%)"/>`;
      const rows = Array.from({ length: 10 }, (_, i) => `<path d="M0 ${h * (0.6 + i * 0.045)} Q ${w * 0.5} ${h * (0.52 + i * 0.045)} ${w} ${h * (0.62 + i * 0.045)}" stroke="hsl(110, 45%, ${24 + (i % 2) * 8}%)" stroke-width="${10 + i}" fill="none" stroke-linecap="round"/>`).join('');
      const mist = `<rect y="${h * 0.38}" width="${w}" height="${h * 0.1}" fill="#ffffff" opacity="0.35"/>`;
      return sky('s', skyTop, skyBottom, w, h) + sun + clouds + hill(h * 0.4, 150, 55) + mist + hill(h * 0.55, 115, 45) + rows;
    }
  }
}

/** Small deterministic PRNG so the same seed gives the same picture. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
