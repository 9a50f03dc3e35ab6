import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { DocumentChunkView } from '../../../../common/schemas/documents';
import { apiFetchWithHeaders } from '../../../lib/api';
import { nextPageOffset, totalFromHeader } from '../../../lib/offset-pages';
import { queryKeys } from '../../../app/query-keys';

/** Chunks per request: a long policy reads in a few pages, and one page stays light to render. */
export const CHUNK_PAGE_SIZE = 200;

const ChunkList = z.array(DocumentChunkView);

export interface ChunkPage {
  items: DocumentChunkView[];
  /** Chunks of the whole document, from X-Total-Count. */
  total: number;
  offset: number;
}

/** One page of a document's extracted text, in reading order. */
export async function getDocumentChunks(id: string, offset: number, signal?: AbortSignal): Promise<ChunkPage> {
  const params = new URLSearchParams({ limit: String(CHUNK_PAGE_SIZE), offset: String(offset) });
  const { data, headers } = await apiFetchWithHeaders(
    'GET',
    `/api/documents/${encodeURIComponent(id)}/chunks?${params.toString()}`,
    ChunkList,
    { signal },
  );
  return { items: data, total: totalFromHeader(headers, offset, data.length, CHUNK_PAGE_SIZE), offset };
}

export function documentChunksQueryOptions(id: string) {
  return infiniteQueryOptions({
    queryKey: queryKeys.documents.chunks(id),
    queryFn: ({ pageParam, signal }) => getDocumentChunks(id, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (last) => nextPageOffset(last.offset, last.items.length, last.total),
  });
}

/** Loaded only once the document is ready: before that there is no text to read. */
export function useDocumentChunks(id: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useInfiniteQuery({ ...documentChunksQueryOptions(id), enabled });
}
