import { Copy, FileInput } from 'lucide-react';
import { IMPORT_FORMATS, type ImportFormat } from '../../../../common/import/types';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { copyToClipboard } from '../../../components/ui/copy-to-clipboard';
import { IMPORT_TEMPLATES } from '../import-templates';

/** PRODUCT "Templates & Examples": copyable CSV, JSON and plain-text examples. */
export function TemplatesTab({ onUse }: { onUse: (format: ImportFormat, content: string) => void }) {
  return (
    // grid-cols-1 (minmax(0, 1fr)) keeps long example lines scrolling inside their box instead of widening the page.
    <div className="grid grid-cols-1 gap-4">
      {IMPORT_FORMATS.map((format) => {
        const template = IMPORT_TEMPLATES[format];
        return (
          <Card key={format} className="min-w-0">
            <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 pb-4">
              <div className="grid min-w-0 flex-1 gap-1.5">
                <CardTitle>{template.title} format</CardTitle>
                <CardDescription>{template.description}</CardDescription>
              </div>
              <div className="flex gap-2">
                <Button variant="outline" size="sm" onClick={() => void copyToClipboard(template.content)}>
                  <Copy aria-hidden />
                  Copy
                </Button>
                <Button variant="outline" size="sm" onClick={() => onUse(format, template.content)}>
                  <FileInput aria-hidden />
                  Use this example
                </Button>
              </div>
            </CardHeader>
            <CardContent>
              <pre
                className="overflow-x-auto rounded-lg border bg-surface p-4 font-mono text-xs leading-relaxed text-slate-700"
                aria-label={`${template.title} example`}
              >
                {template.content}
              </pre>
            </CardContent>
          </Card>
        );
      })}
    </div>
  );
}
