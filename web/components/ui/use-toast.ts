import { useSyncExternalStore } from 'react';
import { errorMessage } from '../../lib/api';
import type { ToastVariant } from './toast';

export interface ToastOptions {
  title: string;
  description?: string;
  variant?: ToastVariant;
}

export interface ToastEntry extends ToastOptions {
  id: number;
}

// A module-level store so code outside React (mutation callbacks, the api layer) can raise a toast.
let toasts: readonly ToastEntry[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

/** Shows a toast. PRODUCT §12: one toast is visible at a time, so a new one replaces the current one. */
export function toast(options: ToastOptions): number {
  const id = nextId++;
  toasts = [{ ...options, id }];
  emit();
  return id;
}

/** The destructive toast every failed action shows: `title`, then the error's sentence or `fallback`. */
export function toastError(error: unknown, fallback: string, title = 'Error'): number {
  return toast({ title, description: errorMessage(error, fallback), variant: 'destructive' });
}

export function dismissToast(id: number): void {
  toasts = toasts.filter((entry) => entry.id !== id);
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function getSnapshot(): readonly ToastEntry[] {
  return toasts;
}

export function useToasts(): readonly ToastEntry[] {
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
