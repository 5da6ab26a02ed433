/**
 * React Query bindings typed from the contract. A feature's `api/<call>.ts` usually is:
 *
 *   export const useOrderStats = () => useCall(orders.orderStats, {});
 */
import type { CallDef, CallRequest, CallResponse } from '@console/contract';
import {
  QueryClient,
  useMutation,
  useQuery,
  type UseMutationOptions,
  type UseQueryOptions,
} from '@tanstack/react-query';
import { sessionEvents } from './events.ts';
import { ApiError, call, type CallOptions } from './http.ts';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // The client already reports errors; retrying coded answers would only repeat them.
      retry: (count, err) => !(err instanceof ApiError) && count < 1,
      refetchOnWindowFocus: false,
      staleTime: 30_000,
    },
  },
});

/** Query key of a call: its path plus its body, so invalidating by path hits every variant. */
sessionEvents.on((e) => {
  if (e.type === 'reset') queryClient.clear();
});

export const callKey = <C extends CallDef>(def: C, body?: CallRequest<C>) =>
  body === undefined ? [def.path] : [def.path, body];

export function useCall<C extends CallDef>(
  def: C,
  body: CallRequest<C>,
  options: Omit<UseQueryOptions<CallResponse<C>, Error>, 'queryKey' | 'queryFn'> & CallOptions = {},
) {
  const { silent, ...query } = options;
  return useQuery<CallResponse<C>, Error>({
    queryKey: callKey(def, body),
    queryFn: ({ signal }) => call(def, body, { signal, silent }),
    ...query,
  });
}

/**
 * Starts a call ahead of the component that will `useCall` it (same key, same answer), e.g. a
 * landing page's data while the frame is still rendering. Silent: if it fails, the page's own
 * query asks again on mount and reports the failure as usual.
 */
export function prefetchCall<C extends CallDef>(def: C, body: CallRequest<C>): void {
  void queryClient.prefetchQuery<CallResponse<C>, Error>({
    queryKey: callKey(def, body),
    queryFn: ({ signal }) => call(def, body, { signal, silent: true }),
  });
}

export function useCallMutation<C extends CallDef>(
  def: C,
  options: Omit<UseMutationOptions<CallResponse<C>, Error, CallRequest<C>>, 'mutationFn'> & CallOptions = {},
) {
  const { silent, ...mutation } = options;
  return useMutation<CallResponse<C>, Error, CallRequest<C>>({
    mutationFn: (body) => call(def, body, { silent }),
    ...mutation,
  });
}

export const invalidateCall = (def: CallDef) => queryClient.invalidateQueries({ queryKey: [def.path] });
