import { lazy, Suspense, useState } from 'react';
import { Upload } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { loadUploadWidget, openUploadWidget, useUploadWidgetOpen } from './upload/upload-widget-store';

// Uppy and its styles load with the widget, on first use, never with the app.
const UploadWidget = lazy(() => loadUploadWidget().then((m) => ({ default: m.UploadWidget })));

/** PRODUCT §2 sidebar "Upload Documents": 'Upload Files' opens the upload widget. Shown to contributors and up. */
export function UploadSection() {
  const open = useUploadWidgetOpen();
  // Once opened the widget stays mounted, so uploads carry on after it is closed.
  const [mounted, setMounted] = useState(open);
  if (open && !mounted) setMounted(true);

  return (
    <section aria-labelledby="upload-heading" className="grid gap-2">
      <h2 id="upload-heading" className="px-3 text-xs font-medium tracking-wide text-muted-foreground uppercase">
        Upload Documents
      </h2>
      <Button
        variant="outline"
        className="w-full"
        onClick={openUploadWidget}
        // Start fetching the widget's code as the pointer arrives, so the click rarely waits for it.
        onPointerEnter={() => void loadUploadWidget()}
        onFocus={() => void loadUploadWidget()}
        aria-haspopup="dialog"
      >
        <Upload aria-hidden />
        Upload Files
      </Button>
      {mounted && (
        // Out of the grid's flow: the widget is a fixed-position modal and must not add a gap to the section.
        <div className="absolute">
          <Suspense fallback={null}>
            <UploadWidget />
          </Suspense>
        </div>
      )}
    </section>
  );
}
