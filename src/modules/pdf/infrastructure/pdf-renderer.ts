import PDFDocument from 'pdfkit';
import { PdfContent, toBlocks } from '../domain/pdf-content';

const SIZES = { 1: 20, 2: 16, 3: 13 } as const;

/** Lays out PDF content with pdfkit: a title page heading, then each page with an outline entry. */
export function renderPdf(content: PdfContent): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: content.title, Producer: 'docs-platform-server' } });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);

    doc.font('Helvetica-Bold').fontSize(24).text(content.title);
    content.pages.forEach((page, i) => {
      if (i > 0) doc.addPage();
      else doc.moveDown();
      doc.outline.addItem(page.title);
      doc.font('Helvetica-Bold').fontSize(22).text(page.title).moveDown(0.5);
      for (const block of toBlocks(page.document)) {
        switch (block.kind) {
          case 'heading':
            doc.moveDown(0.4).font('Helvetica-Bold').fontSize(SIZES[block.level]).text(block.text);
            break;
          case 'paragraph':
            doc.font('Helvetica').fontSize(11).text(block.bullet ? `${block.bullet} ${block.text}` : block.text, {
              indent: block.indent * 14,
            });
            break;
          case 'code':
            doc.font('Courier').fontSize(9.5).text(block.text, { indent: 10 });
            break;
          case 'quote':
            doc.font('Helvetica-Oblique').fontSize(11).text(block.text, { indent: 14 });
            break;
          case 'divider':
            doc.moveDown(0.3).moveTo(doc.x, doc.y).lineTo(doc.page.width - 56, doc.y).stroke().moveDown(0.3);
            break;
        }
        doc.moveDown(0.3);
      }
    });
    doc.end();
  });
}
