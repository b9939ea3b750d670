// The signed agreement of a stored loan as a PDF: its terms and hash as signed, its signature image
// read from the uploads store. Shared by the user's download and the operator's.
import { uploads } from '../../../db/schema.ts';
import { eq } from 'drizzle-orm';
import type { Services } from '../../kernel/services.ts';
import type { LoanRow } from './loans.ts';
import { agreementPdf } from './pdf.ts';

export async function signatureOf(services: Services, row: LoanRow): Promise<{ bytes: Buffer; contentType: string } | undefined> {
  if (!row.signatureUploadId) return undefined;
  const [upload] = await services.db.select().from(uploads).where(eq(uploads.id, row.signatureUploadId)).limit(1);
  if (!upload) return undefined;
  const bytes = await services.uploads.get(upload.storedName);
  return bytes ? { bytes, contentType: upload.contentType } : undefined;
}

export async function signedAgreementPdf(services: Services, row: LoanRow): Promise<Uint8Array> {
  return agreementPdf({
    loanId: row.id, terms: row.terms, termsHash: row.termsHash, signedAt: row.signedAt, signature: await signatureOf(services, row),
  });
}
