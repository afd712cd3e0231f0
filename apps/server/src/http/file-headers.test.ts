import { describe, expect, it } from 'vitest';
import { DOWNLOAD_SANDBOX_CSP, servedFileHeaders } from './file-headers';

describe('headers of a served file', () => {
  it.each([
    ['text/html', 'invoice.html'],
    ['image/svg+xml', 'logo.svg'],
    ['application/xhtml+xml', 'page.xhtml'],
    ['text/xml', 'x.xml'],
    ['application/x-unknown', 'x.bin'],
    ['text/html; charset=utf-8', 'x.html'],
    [null, 'noname'],
  ])('makes %s a sandboxed download even when inline is asked for', (contentType, filename) => {
    const headers = servedFileHeaders({ contentType, filename }, 'inline');
    expect(headers['content-disposition']).toMatch(/^attachment;/);
    expect(headers['content-security-policy']).toBe(DOWNLOAD_SANDBOX_CSP);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['content-type']).not.toMatch(/[;\s]/);
  });

  it.each(['application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/webp'])(
    'lets %s open inline, unframeable',
    (contentType) => {
      const headers = servedFileHeaders({ contentType, filename: 'a' }, 'inline');
      expect(headers['content-disposition']).toMatch(/^inline;/);
      expect(headers['content-security-policy']).toBe("frame-ancestors 'none'");
      expect(servedFileHeaders({ contentType, filename: 'a' }, 'attachment')).toMatchObject({
        'content-disposition': expect.stringMatching(/^attachment;/),
        'content-security-policy': DOWNLOAD_SANDBOX_CSP,
      });
    },
  );
});
