import { FileCode, FileImage, FileSpreadsheet, FileText, type LucideIcon } from 'lucide-react';
import type { DocumentKind } from '../../../common/schemas/documents';

interface KindStyle {
  /** The type badge's text. */
  label: string;
  icon: LucideIcon;
  /** Tile colours, so a PDF, a sheet and an image tell apart at a glance. */
  tile: string;
}

/** PRODUCT "Document Library": an icon by type (PDF, image, sheet, text) and a type badge. */
export const DOCUMENT_KINDS: Record<DocumentKind, KindStyle> = {
  pdf: { label: 'PDF', icon: FileText, tile: 'bg-red-50 text-red-600' },
  docx: { label: 'Word', icon: FileText, tile: 'bg-blue-50 text-blue-600' },
  xlsx: { label: 'Excel', icon: FileSpreadsheet, tile: 'bg-emerald-50 text-emerald-600' },
  csv: { label: 'CSV', icon: FileSpreadsheet, tile: 'bg-emerald-50 text-emerald-600' },
  text: { label: 'Text', icon: FileText, tile: 'bg-slate-100 text-slate-600' },
  markdown: { label: 'Markdown', icon: FileCode, tile: 'bg-slate-100 text-slate-600' },
  html: { label: 'HTML', icon: FileCode, tile: 'bg-orange-50 text-orange-600' },
  image: { label: 'Image', icon: FileImage, tile: 'bg-violet-50 text-violet-600' },
};
