import { Upload } from 'lucide-react';
import { Button } from '../../../components/ui/button';

const UPLOAD_PENDING_NOTE = 'Document upload arrives with the Document Library';

/** SPEC §2 sidebar upload entry point; the upload widget itself comes with the Document Library. */
export function UploadSection() {
  return (
    <section aria-labelledby="upload-heading" className="grid gap-2">
      <h2 id="upload-heading" className="px-3 text-xs font-medium tracking-wide text-muted-foreground uppercase">
        Upload Documents
      </h2>
      {/* The wrapper carries the title because browsers do not show tooltips for disabled buttons reliably. */}
      <span title={UPLOAD_PENDING_NOTE} className="block">
        <Button variant="outline" className="w-full" disabled title={UPLOAD_PENDING_NOTE}>
          <Upload aria-hidden />
          Upload Files
        </Button>
      </span>
    </section>
  );
}
