import { useSyncExternalStore } from 'react';

// Whether the upload widget is open, outside React: the sidebar owns the widget, and other screens (the Document
// Library's empty state) open it without a shared parent component.
let open = false;
const listeners = new Set<() => void>();

function setOpen(next: boolean): void {
  if (next === open) return;
  open = next;
  for (const listener of listeners) listener();
}

export function openUploadWidget(): void {
  setOpen(true);
}

export function closeUploadWidget(): void {
  setOpen(false);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function getSnapshot(): boolean {
  return open;
}

export function useUploadWidgetOpen(): boolean {
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}

/** Loads the widget's code (Uppy and its styles); called early on hover so the first click opens it at once. */
export function loadUploadWidget() {
  return import('../components/upload-widget');
}
