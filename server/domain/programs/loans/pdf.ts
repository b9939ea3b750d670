// The signed loan agreement as a PDF (issue 22): the terms as signed, the signature image, the
// time of signing and the SHA-256 of the terms, which anyone can recompute from the terms printed
// above it. pdf-lib's standard Helvetica holds Latin text only (WinAnsi), so the terms are the
// English ones and any other character is replaced by "?". The hash is also the document's
// subject and keywords, for a reader that wants it without parsing the page.
import { PDFDocument, StandardFonts, rgb, type PDFFont } from 'pdf-lib';
import sharp from 'sharp';

export interface AgreementPdfInput {
  loanId: bigint;
  terms: string;
  termsHash: string;
  signedAt: Date;
  /** The signature image as uploaded (PNG, JPEG or WebP), or undefined when its file is gone. */
  signature?: { bytes: Buffer; contentType: string };
}

const pageWidth = 595.28;
const pageHeight = 841.89;
const margin = 50;
const fontSize = 10;
const lineHeight = 14;

/** Characters WinAnsi cannot encode become "?": the PDF never fails on a name or an address. */
const latin = (text: string) => text.replace(/[^\x20-\x7e\u00a0-\u00ff]/g, '?');

function wrap(text: string, font: PDFFont, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    if (paragraph.length === 0) {
      lines.push('');
      continue;
    }
    let line = '';
    for (const word of paragraph.split(' ')) {
      const candidate = line.length === 0 ? word : `${line} ${word}`;
      if (font.widthOfTextAtSize(candidate, fontSize) <= width || line.length === 0) line = candidate;
      else {
        lines.push(line);
        line = word;
      }
    }
    lines.push(line);
  }
  return lines;
}

export async function agreementPdf(input: AgreementPdfInput): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document.setTitle(`Loan agreement ${input.loanId}`);
  document.setSubject(input.termsHash);
  document.setKeywords([`sha256:${input.termsHash}`]);
  document.setProducer('Bourse');
  document.setCreationDate(input.signedAt);
  const font = await document.embedFont(StandardFonts.Helvetica);
  const bold = await document.embedFont(StandardFonts.HelveticaBold);
  let page = document.addPage([pageWidth, pageHeight]);
  let y = pageHeight - margin;
  const newLineRoom = (height: number) => {
    if (y - height < margin) {
      page = document.addPage([pageWidth, pageHeight]);
      y = pageHeight - margin;
    }
  };
  const write = (text: string, options: { font?: PDFFont; size?: number } = {}) => {
    for (const line of wrap(latin(text), options.font ?? font, pageWidth - 2 * margin)) {
      newLineRoom(lineHeight);
      page.drawText(line, { x: margin, y, size: options.size ?? fontSize, font: options.font ?? font, color: rgb(0, 0, 0) });
      y -= lineHeight;
    }
  };
  write(input.terms);
  y -= lineHeight;
  write('Signature of the borrower:', { font: bold });
  if (input.signature) {
    // pdf-lib embeds PNG and JPEG; anything else (WebP) is turned into PNG first.
    const png = input.signature.contentType === 'image/png' || input.signature.contentType === 'image/jpeg'
      ? input.signature.bytes : await sharp(input.signature.bytes).png().toBuffer();
    const image = input.signature.contentType === 'image/jpeg' ? await document.embedJpg(png) : await document.embedPng(png);
    const scale = Math.min(1, 240 / image.width, 100 / image.height);
    const width = image.width * scale;
    const height = image.height * scale;
    newLineRoom(height + lineHeight);
    page.drawImage(image, { x: margin, y: y - height, width, height });
    y -= height + lineHeight;
  } else {
    write('(the signature image is no longer stored)');
  }
  write(`Signed at: ${input.signedAt.toISOString()}`);
  write(`SHA-256 of the terms above (UTF-8): ${input.termsHash}`);
  return document.save({ useObjectStreams: false });
}
