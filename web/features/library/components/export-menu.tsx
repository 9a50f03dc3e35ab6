import { ChevronDown, Download, FileSpreadsheet, FileText, LoaderCircle } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import type { ExportFormat } from '../api/export-canonical-answers';

interface ExportMenuProps {
  count: number;
  pending: boolean;
  onExport: (format: ExportFormat) => void;
}

/** "Export selected": one click for CSV, the chevron for an Excel workbook. */
export function ExportMenu({ count, pending, onExport }: ExportMenuProps) {
  const disabled = count === 0 || pending;
  return (
    <div className="flex items-center">
      <Button variant="outline" className="rounded-r-none" disabled={disabled} onClick={() => onExport('csv')}>
        {pending ? <LoaderCircle className="animate-spin" aria-hidden /> : <Download aria-hidden />}
        Export selected
      </Button>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button
            variant="outline"
            size="icon"
            className="rounded-l-none border-l-0"
            disabled={disabled}
            aria-label="Choose export format"
          >
            <ChevronDown aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent>
          <DropdownMenuItem onSelect={() => onExport('csv')}>
            <FileText aria-hidden />
            Export as CSV
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => onExport('xlsx')}>
            <FileSpreadsheet aria-hidden />
            Export as Excel (.xlsx)
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </div>
  );
}
