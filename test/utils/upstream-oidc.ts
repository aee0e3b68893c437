/**
 * Former home of a second oidc-provider stand-in; there is one now, in upstream-standins/oidc.ts.
 * These names remain only for test/e2e/upstream-browser.e2e-spec.ts until it imports from
 * there directly; import from upstream-standins/ in new tests.
 */
export {
  startOidcStandIn as startOidcUpstream,
  type OidcStandIn as OidcUpstream,
} from './upstream-standins/oidc';
export { visitUpstream } from './upstream-standins/browser';
