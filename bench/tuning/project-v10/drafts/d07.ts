import { PDFDocument, rgb } from 'pdf-lib';
import { minio } from '../storage';

export async function redactAndSave(docKey: string, boxes: { page: number; x: number; y: number; w: number; h: number }[]) {
  const bytes = await minio.getObjectBytes('originals', docKey);
  const pdf = await PDFDocument.load(bytes);
  for (const b of boxes) {
    pdf.getPage(b.page).drawRectangle({ x: b.x, y: b.y, width: b.w, height: b.h, color: rgb(0, 0, 0) });
  }
  const out = await pdf.save();
  await minio.putObject('originals', docKey, Buffer.from(out));
}
