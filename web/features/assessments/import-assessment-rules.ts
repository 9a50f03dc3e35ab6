/** PRODUCT §9 assessment import: the toast when the name or the file is missing, in the specification's words. */
export const MISSING_INFORMATION = 'Please provide assessment name and upload a CSV file.';
/** Under each field, what that field still needs: a sentence that is no longer true never stays on screen. */
export const NAME_MISSING = 'Please enter an assessment name.';
export const FILE_MISSING = 'Please select a file to import.';
/** The specification's 'Please select a CSV file.', naming every format the server reads. */
export const INVALID_FILE = 'Please select a CSV, Excel or Word file.';

/** The message each field shows after a submit with something missing (none for a field that is filled). */
export function missingFieldErrors(values: { name: string; hasFile: boolean }): { name?: string; file?: string } {
  return {
    ...(values.name.trim() ? {} : { name: NAME_MISSING }),
    ...(values.hasFile ? {} : { file: FILE_MISSING }),
  };
}
