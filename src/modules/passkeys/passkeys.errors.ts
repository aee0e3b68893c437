import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';

export const confirmationRequired = (): AppError =>
  new AppError(
    ErrorCode.PasskeyConfirmationRequired,
    'This operation needs a valid passkey confirmation (X-Passkey-Confirmation header)',
  );

export const passkeyNotRegistered = (): AppError =>
  new AppError(
    ErrorCode.PasskeyNotRegistered,
    'Register a passkey on the account page first: this operation is confirmed with one',
  );

export const recentSignInRequired = (what = 'Registering a first passkey'): AppError =>
  new AppError(
    ErrorCode.RecentSignInRequired,
    `${what} needs a password sign-in within the last 5 minutes: sign in again`,
  );

export const passkeyNotFound = (): AppError =>
  new AppError(ErrorCode.NotFound, 'Passkey not found');

export const registrationRefused = (why: string): AppError =>
  new AppError(ErrorCode.InvalidRequest, `The passkey was not registered: ${why}`);

export const signInRefused = (): AppError =>
  new AppError(ErrorCode.InvalidCredentials, 'The passkey sign-in could not be verified');

export const invalidBody = (message: string): AppError =>
  new AppError(ErrorCode.InvalidBody, message);
