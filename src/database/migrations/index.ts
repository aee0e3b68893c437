import { Foundation1795302517432 } from './1795302517432-Foundation';
import { UsersRelationsTokensEvents1795302850823 } from './1795302850823-UsersRelationsTokensEvents';
import { UserQueryIndexes1795310000000 } from './1795310000000-UserQueryIndexes';
import { OAuthCodesSessionsPending1795320000000 } from './1795320000000-OAuthCodesSessionsPending';
import { AppUserSearch1795330000000 } from './1795330000000-AppUserSearch';
import { StatelessPendingRequests1795340000000 } from './1795340000000-StatelessPendingRequests';
import { EventCommitOrder1795350000000 } from './1795350000000-EventCommitOrder';
import { CaseInsensitiveUserNames1795360000000 } from './1795360000000-CaseInsensitiveUserNames';
import { ConsoleSessionsAudit1795370000000 } from './1795370000000-ConsoleSessionsAudit';
import { Passkeys1795375000000 } from './1795375000000-Passkeys';
import { UpstreamProviders1795380000000 } from './1795380000000-UpstreamProviders';
import { UpstreamIdentities1795385000000 } from './1795385000000-UpstreamIdentities';
import { RequiredUpstreams1795386000000 } from './1795386000000-RequiredUpstreams';
import { UnbindConfirmationTarget1795390000000 } from './1795390000000-UnbindConfirmationTarget';
import { SigningKeys1795400000000 } from './1795400000000-SigningKeys';
import { OidcCodeClaims1795401000000 } from './1795401000000-OidcCodeClaims';
import { PostLogoutRedirectUris1795402000000 } from './1795402000000-PostLogoutRedirectUris';
import { ConsoleMembers1795420000000 } from './1795420000000-ConsoleMembers';
import { ChangeBoundConfirmations1795430000000 } from './1795430000000-ChangeBoundConfirmations';
import { ClearUnsafeApplicationUrls1795431000000 } from './1795431000000-ClearUnsafeApplicationUrls';
import { TokenGenerations1795440000000 } from './1795440000000-TokenGenerations';
import { UnverifiedUpstreamEmails1795450000000 } from './1795450000000-UnverifiedUpstreamEmails';
import { CodeIssuer1795470000000 } from './1795470000000-CodeIssuer';
import { OidcCodeAuthentication1795480000000 } from './1795480000000-OidcCodeAuthentication';
import { AccountsFoundation1795490000000 } from './1795490000000-AccountsFoundation';
import { SignIns1795500000000 } from './1795500000000-SignIns';
import { Webhooks1795530000000 } from './1795530000000-Webhooks';
import { WebhookReplay1795600000000 } from './1795600000000-WebhookReplay';
import { PartitionedEvents1795620000000 } from './1795620000000-PartitionedEvents';
import { PushedAuthorizationRequests1795640000000 } from './1795640000000-PushedAuthorizationRequests';
import { TokenFillfactor1795630000000 } from './1795630000000-TokenFillfactor';
import { PrivateKeyJwt1795650000000 } from './1795650000000-PrivateKeyJwt';
import { Dpop1795660000000 } from './1795660000000-Dpop';
import { SigningAlgorithms1795670000000 } from './1795670000000-SigningAlgorithms';
import { DeviceAuthorization1795680000000 } from './1795680000000-DeviceAuthorization';
import { BackchannelLogout1795690000000 } from './1795690000000-BackchannelLogout';

/** Every migration in order; each later change appends its own (never edit a landed one). */
export const MIGRATIONS = [
  Foundation1795302517432,
  UsersRelationsTokensEvents1795302850823,
  UserQueryIndexes1795310000000,
  OAuthCodesSessionsPending1795320000000,
  AppUserSearch1795330000000,
  StatelessPendingRequests1795340000000,
  EventCommitOrder1795350000000,
  CaseInsensitiveUserNames1795360000000,
  ConsoleSessionsAudit1795370000000,
  Passkeys1795375000000,
  UpstreamProviders1795380000000,
  UpstreamIdentities1795385000000,
  RequiredUpstreams1795386000000,
  UnbindConfirmationTarget1795390000000,
  SigningKeys1795400000000,
  OidcCodeClaims1795401000000,
  PostLogoutRedirectUris1795402000000,
  ConsoleMembers1795420000000,
  ChangeBoundConfirmations1795430000000,
  ClearUnsafeApplicationUrls1795431000000,
  TokenGenerations1795440000000,
  UnverifiedUpstreamEmails1795450000000,
  CodeIssuer1795470000000,
  OidcCodeAuthentication1795480000000,
  AccountsFoundation1795490000000,
  SignIns1795500000000,
  Webhooks1795530000000,
  WebhookReplay1795600000000,
  PartitionedEvents1795620000000,
  TokenFillfactor1795630000000,
  PushedAuthorizationRequests1795640000000,
  PrivateKeyJwt1795650000000,
  Dpop1795660000000,
  SigningAlgorithms1795670000000,
  DeviceAuthorization1795680000000,
  BackchannelLogout1795690000000,
];
