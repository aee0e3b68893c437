import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';

export const keyNotFound = (): AppError => new AppError(ErrorCode.NotFound, 'API key not found');

export const keyNotRotatable = (): AppError =>
  new AppError(
    ErrorCode.Conflict,
    'Only an active key that has not been rotated yet can be rotated',
  );

export const invalidScopes = (unknown: string[]): AppError =>
  new AppError(ErrorCode.InvalidRequest, `Unknown scopes: ${unknown.join(', ')}`);
