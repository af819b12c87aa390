import sharp from 'sharp';

/**
 * Pictures made locally for demo data and default avatars, so nothing is ever downloaded.
 * They contain no text: a fresh machine may have no CJK font for librsvg.
 */

/** A 100×100 webp avatar: a head-and-shoulders silhouette on a coloured disc. */
export function generateAvatar(hue: number): Promise<Buffer> {
  const bg = `hsl(${hue}, 55%, 62%)`;
  const fg = `hsl(${hue}, 45%, 92%)`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" viewBox="0 0 200 200">
    <rect width="200" height="200" fill="${bg}"/>
    <circle cx="100" cy="80" r="38" fill="${fg}"/>
    <ellipse cx="100" cy="190" rx="70" ry="62" fill="${fg}"/>
  </svg>`;
  return sharp(Buffer.from(svg)).resize(100, 100).webp({ quality: 90 }).toBuffer();
}

/** A landscape (sky, sun, layered hills) as webp, longest side 1200 px like real uploads. */
export function generateLandscape(seed: number, width = 1200, height = 800): Promise<Buffer> {
  const rand = mulberry32(seed);
  const hue = Math.floor(rand() * 360);
  const hills = [0, 1, 2]
    .map((layer) => {
      const base = height * (0.55 + layer * 0.13);
      const points = Array.from({ length: 7 }, (_, i) => {
        const x = (width / 6) * i;
        const y = base - rand() * height * 0.18;
        return `${x.toFixed(0)},${y.toFixed(0)}`;
      });
      const colour = `hsl(${(hue + 90 + layer * 15) % 360}, ${35 + layer * 10}%, ${48 - layer * 12}%)`;
      return `<polygon points="0,${height} ${points.join(' ')} ${width},${height}" fill="${colour}"/>`;
    })
    .join('');
  const sunX = Math.round(width * (0.2 + rand() * 0.6));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="hsl(${hue}, 70%, 70%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360}, 80%, 88%)"/>
    </linearGradient></defs>
    <rect width="${width}" height="${height}" fill="url(#sky)"/>
    <circle cx="${sunX}" cy="${Math.round(height * 0.3)}" r="${Math.round(height * 0.09)}" fill="hsl(45, 95%, 70%)"/>
    ${hills}
  </svg>`;
  return sharp(Buffer.from(svg)).webp({ quality: 70 }).toBuffer();
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
