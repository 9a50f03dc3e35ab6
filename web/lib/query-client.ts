import { QueryClient, type Query } from '@tanstack/react-query';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: {
      /**
       * 'organization' marks data that does not depend on the selected workspace (the user, the organization, the
       * workspace list), so a workspace switch keeps it. Everything else is treated as workspace data.
       */
      scope?: 'organization';
    };
  }
}

/** PRODUCT §11: queries do not retry, do not refetch on window focus and never go stale on their own. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: Infinity },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();

/** True for queries whose data belongs to the selected workspace and must be refetched when it changes. */
export function isWorkspaceQuery(query: Query): boolean {
  return query.meta?.scope !== 'organization';
}
