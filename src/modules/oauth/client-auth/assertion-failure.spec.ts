import { Logger } from '@nestjs/common';
import { ASSERTION_FAILED, assertionFailed } from './assertion-failure';

describe('assertionFailed', () => {
  it('answers one invalid_client for every reason and logs the reason at debug level only', () => {
    const debug = jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined);
    const other = ['log', 'warn', 'error'].map((level) =>
      jest.spyOn(Logger.prototype, level as 'log').mockImplementation(() => undefined),
    );
    try {
      const errors = ['exp is too far ahead', 'jti already used (replay)'].map((reason) =>
        assertionFailed(reason, 'client-1'),
      );
      for (const error of errors) {
        expect([error.error, error.description]).toEqual(['invalid_client', ASSERTION_FAILED]);
      }
      expect(debug.mock.calls.map((call) => call[0])).toEqual([
        'client assertion refused for client client-1: exp is too far ahead',
        'client assertion refused for client client-1: jti already used (replay)',
      ]);
      for (const spy of other) expect(spy).not.toHaveBeenCalled();
    } finally {
      jest.restoreAllMocks();
    }
  });
});
