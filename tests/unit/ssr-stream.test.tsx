import { Writable } from 'node:stream';
import { renderToPipeableStream } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { withoutNulBytes } from '~/entry.server';

/** Renders to bytes the way entry.server does, optionally dropping NUL bytes piece by piece. */
function render(element: React.ReactElement, filtered: boolean): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _e, cb) {
        chunks.push(filtered ? withoutNulBytes(chunk) : chunk);
        cb();
      },
    });
    sink.on('finish', () => resolve(Buffer.concat(chunks)));
    const { pipe } = renderToPipeableStream(element, {
      onAllReady() {
        pipe(sink);
      },
      onError: reject,
    });
  });
}

// Many CJK strings: one of them lands on React's 2 KB buffer edge.
const page = (
  <div>
    {Array.from({ length: 300 }, (_, i) => (
      <span key={i}>{'x'.repeat((i % 4) + 1)}最懂台北街頭的小吃</span>
    ))}
  </div>
);

describe('server-rendered HTML', () => {
  it('reproduces react-dom writing zero bytes at a buffer edge (the reason for the filter)', async () => {
    const raw = await render(page, false);
    expect(raw.includes(0)).toBe(true);
  });

  it('reaches the browser without NUL bytes and with every character intact', async () => {
    const html = (await render(page, true)).toString('utf8');
    expect(html).not.toContain('\u0000');
    expect(html).not.toContain('\uFFFD');
    expect(html.match(/最懂台北街頭的小吃/g)).toHaveLength(300);
  });

  it('drops NUL bytes wherever they are and keeps a piece without them as it is', () => {
    const clean = Buffer.from('<p>台北</p>');
    expect(withoutNulBytes(clean)).toBe(clean);
    const dirty = Buffer.concat([Buffer.from([0]), Buffer.from('<p>台'), Buffer.alloc(3), Buffer.from('北</p>'), Buffer.alloc(700)]);
    expect(withoutNulBytes(dirty).toString('utf8')).toBe('<p>台北</p>');
    expect(withoutNulBytes(Buffer.alloc(5)).length).toBe(0);
  });
});
