import { useState } from 'react';
import { Link } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowLeft, Lock } from 'lucide-react';
import type { ImportFormat, ParsedEntry } from '../../../common/import/types';
import { Alert, AlertDescription } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { paths } from '../../paths';
import { useCan } from '../../app/me/use-can';
import { ImportForm, type LoadedWorkbook } from './components/import-form';
import { ImportPreviewDialog } from './components/import-preview-dialog';
import { ImportResultPanel } from './components/import-result-panel';
import { TemplatesTab } from './components/templates-tab';
import { EMPTY_IMPORT_FORM, ImportFormValues } from './import-form-values';
import { IMPORT_AUDIENCE, type ImportOutcome } from './import-preview-rules';

type ImportTab = 'import' | 'templates';

/** PRODUCT "Import Q&A (/import)". Anyone may prepare and preview; importing needs knowledge:import (manager+). */
export function ImportPage() {
  const canImport = useCan('knowledge:import');
  const [tab, setTab] = useState<ImportTab>('import');
  const form = useForm({ resolver: zodResolver(ImportFormValues), defaultValues: EMPTY_IMPORT_FORM });
  const [fileName, setFileName] = useState<string | null>(null);
  const [workbook, setWorkbook] = useState<LoadedWorkbook | null>(null);
  const [preview, setPreview] = useState<{ id: number; entries: ParsedEntry[] } | null>(null);
  const [outcome, setOutcome] = useState<ImportOutcome | null>(null);

  const applyTemplate = (format: ImportFormat, content: string) => {
    setWorkbook(null);
    setFileName(null);
    form.reset({ format, content });
    setTab('import');
  };

  const onImported = (result: ImportOutcome) => {
    setPreview(null);
    setWorkbook(null);
    setFileName(null);
    form.reset(EMPTY_IMPORT_FORM);
    setOutcome(result);
  };

  return (
    <div className="flex flex-1 flex-col overflow-y-auto px-8 py-8">
      <div className="mx-auto w-full max-w-4xl">
        <Link
          to={paths.library}
          className="inline-flex items-center gap-1.5 rounded-sm text-sm text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
        >
          <ArrowLeft className="size-4" aria-hidden />
          Knowledge Library
        </Link>
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold tracking-tight">Import Q&amp;A</h1>
          <Badge variant="warning">{IMPORT_AUDIENCE}</Badge>
        </div>
        <p className="mt-1 text-sm text-muted-foreground">
          Bring existing question-and-answer pairs into the Knowledge Library from a spreadsheet, a JSON file or pasted
          text. Questions already in the library are skipped.
        </p>

        {!canImport && (
          <Alert variant="info" className="mt-5">
            <Lock aria-hidden />
            <AlertDescription>
              Only managers and admins can import Q&amp;A entries. You can still prepare and preview an import.
            </AlertDescription>
          </Alert>
        )}

        {outcome ? (
          <ImportResultPanel outcome={outcome} onImportMore={() => setOutcome(null)} />
        ) : (
          <Tabs
            value={tab}
            onValueChange={(value) => setTab(value === 'templates' ? 'templates' : 'import')}
            className="mt-6"
          >
            <TabsList>
              <TabsTrigger value="import">Import Data</TabsTrigger>
              <TabsTrigger value="templates">Templates &amp; Examples</TabsTrigger>
            </TabsList>
            {/* Kept mounted so a pasted text or loaded file survives a look at the templates. */}
            <TabsContent value="import" forceMount className="data-[state=inactive]:hidden">
              <ImportForm
                form={form}
                onPreview={(entries) => setPreview({ id: Date.now(), entries })}
                fileName={fileName}
                onFileNameChange={setFileName}
                workbook={workbook}
                onWorkbookChange={setWorkbook}
              />
            </TabsContent>
            <TabsContent value="templates">
              <TemplatesTab onUse={applyTemplate} />
            </TabsContent>
          </Tabs>
        )}
      </div>

      <ImportPreviewDialog
        key={preview?.id}
        entries={preview?.entries ?? null}
        canImport={canImport}
        onClose={() => setPreview(null)}
        onImported={onImported}
      />
    </div>
  );
}
