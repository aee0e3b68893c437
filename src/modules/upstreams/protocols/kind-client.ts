import type {
  StartParams,
  UpstreamProfile,
  UpstreamProvider,
} from '../providers/upstream-provider';

/** One protocol: how to send the browser to the provider and how to read its answer. */
export interface KindClient {
  authorizationUrl(provider: UpstreamProvider, params: StartParams): Promise<string>;
  complete(
    provider: UpstreamProvider,
    callbackQuery: Record<string, string>,
    params: StartParams,
  ): Promise<UpstreamProfile>;
}
