import { Writable } from 'node:stream';
import { renderToPipeableStream } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Suspense } from 'react';
import { renderDocument, withoutNulBytes } from '~/entry.server';

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

function Broken(): never {
  throw new Error('broken part');
}

const documentOf = (body: React.ReactNode) => (
  <html lang="zh-TW">
    <head>
      <title>台北</title>
    </head>
    <body>{body}</body>
  </html>
);

describe('renderDocument', () => {
  it('renders a page that does not suspend as one string, the same document the streaming renderer sends', async () => {
    const errors: unknown[] = [];
    const { body, status } = await renderDocument(() => documentOf(page), { status: 200, onBoundaryError: (e) => errors.push(e) });
    expect(typeof body).toBe('string');
    expect(status).toBe(200);
    expect(errors).toEqual([]);
    const streamed = (await render(documentOf(page), true)).toString('utf8');
    expect(streamed.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(body).toBe(streamed);
  });

  it('keeps the status it is given (a 404 page stays 404)', async () => {
    const { status } = await renderDocument(() => documentOf(<p>not found</p>), { status: 404, onBoundaryError: () => {} });
    expect(status).toBe(404);
  });

  it('an error inside a Suspense boundary is reported, answers 500 and still sends the rest of the page', async () => {
    const errors: unknown[] = [];
    const { body, status } = await renderDocument(
      () => documentOf(<main><p>還在</p><Suspense fallback={<p>fallback</p>}><Broken /></Suspense></main>),
      { status: 200, onBoundaryError: (e) => errors.push(e) },
    );
    expect(status).toBe(500);
    expect(errors.map((e) => (e as Error).message)).toEqual(['broken part']);
    const html = body.toString();
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('<p>還在</p>');
    expect(html).toContain('fallback');
  });

  it('an error outside any boundary rejects (Remix renders the error page)', async () => {
    await expect(renderDocument(() => documentOf(<Broken />), { status: 200, onBoundaryError: () => {} })).rejects.toThrow('broken part');
  });
});
