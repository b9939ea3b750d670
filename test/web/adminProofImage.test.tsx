// The back office's deposit proof: read with the operator's token, an image is shown in the page
// and a PDF is offered as a download with a file name, never opened inline in a tab from the
// back office's own origin.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { i18n } from '@lingui/core';
import { ProofImage, proofFileName } from '../../src/admin/pages/ProofImage.tsx';
import { writeToken } from '../../src/admin/transport.ts';

let answer: Blob;
const sentTokens: string[] = [];

beforeEach(() => {
  sentTokens.length = 0;
  writeToken('operator-token');
  vi.stubGlobal('fetch', vi.fn(async (_url: string, init?: RequestInit) => {
    sentTokens.push(new Headers(init?.headers).get('X-Access-Token') ?? '');
    return new Response(answer, { status: 200, headers: { 'content-type': answer.type } });
  }));
  let made = 0;
  URL.createObjectURL = vi.fn(() => `blob:https://bourse.test/object-${made += 1}`);
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const renderProof = (url = '/api/admin/files/42') => render(<I18nProvider i18n={i18n}><ProofImage url={url} /></I18nProvider>);

describe('ProofImage', () => {
  it('offers a PDF as a download named after the upload, not as a link that opens it', async () => {
    answer = new Blob(['%PDF-1.7\n'], { type: 'application/pdf' });
    renderProof();
    const link = (await screen.findByTestId('proof-download')).closest('a')!;
    expect(link.getAttribute('download')).toBe('deposit-proof-42.pdf');
    expect(link.getAttribute('href')).toMatch(/^blob:/);
    expect(link.getAttribute('target')).toBeNull();
    expect(link.textContent).toBe('Download the proof (PDF)');
    expect(sentTokens).toEqual(['operator-token']);
  });

  it('shows an image in the page', async () => {
    answer = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' });
    renderProof();
    expect((await screen.findByTestId('proof-image')).getAttribute('src')).toMatch(/^blob:/);
    expect(screen.queryByTestId('proof-download')).toBeNull();
  });

  it('downloads a type it does not show rather than opening it', async () => {
    answer = new Blob(['<html></html>'], { type: 'text/html' });
    renderProof();
    const link = (await screen.findByTestId('proof-download')).closest('a')!;
    expect(link.getAttribute('download')).toBe('deposit-proof-42.bin');
    expect(screen.queryByTestId('proof-image')).toBeNull();
  });

  it('makes a safe file name from the URL', () => {
    expect(proofFileName('/api/admin/files/abc-123?x=1', 'application/pdf')).toBe('deposit-proof-abc-123.pdf');
    expect(proofFileName('/api/admin/files/a b"c.d', 'application/pdf')).toBe('deposit-proof-abcd.pdf');
    expect(proofFileName('/', 'application/pdf')).toBe('deposit-proof-file.pdf');
  });
});
