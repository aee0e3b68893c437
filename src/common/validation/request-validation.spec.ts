import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsString, MaxLength } from 'class-validator';
import { AppError } from '../errors/app-error';
import { AtLeastOneField, BooleanParam, IfPresent, PositiveIntParam } from './dto-decorators';
import { RequestValidationPipe, validateRequest } from './request-validation';

@AtLeastOneField()
class PatchBody {
  @ApiPropertyOptional()
  @IfPresent()
  @IsString()
  @MaxLength(5)
  name?: string;

  @ApiPropertyOptional()
  @IfPresent()
  @IsBoolean()
  enabled?: boolean;
}

class ListQuery {
  @PositiveIntParam({ max: 1000 })
  page: number = 1;

  @PositiveIntParam({ max: 100, clamp: true })
  pageSize: number = 20;

  @BooleanParam()
  enabled?: boolean;
}

/** The AppError a call throws, as `{error, …}` (what the filter sends), or 'no error'. */
const refusal = (fn: () => unknown): Record<string, unknown> | string => {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error.toBody();
    throw error;
  }
  return 'no error';
};

describe('validateRequest', () => {
  describe('a body', () => {
    const body = (value: unknown) => refusal(() => validateRequest(PatchBody, value, 'body'));

    it('becomes an instance of the DTO with the fields sent', () => {
      const dto = validateRequest(PatchBody, { name: 'ab', enabled: false }, 'body');
      expect(dto).toBeInstanceOf(PatchBody);
      expect(dto).toEqual({ name: 'ab', enabled: false });
    });

    it.each([undefined, null, [], 'x', 1, [{ name: 'a' }]])(
      'that is not a JSON object (%j) is invalid_body',
      (value) => {
        expect(body(value)).toEqual({ error: 'invalid_body', message: expect.any(String) });
      },
    );

    it('lists every unknown field in unknown_field, before any wrong type', () => {
      expect(body({ enabled: 'no', id: 1, name: 7, owner: 'x' })).toEqual({
        error: 'unknown_field',
        message: 'Unknown fields: id, owner',
        fields: ['id', 'owner'],
      });
    });

    it.each([[{ enabled: 'false' }], [{ enabled: null }], [{ name: 1 }], [{ name: 'toolong' }]])(
      'refuses a wrong type or value %j as invalid_body, null included',
      (value) => {
        expect(body(value)).toEqual({ error: 'invalid_body', message: expect.any(String) });
      },
    );

    it('refuses a body without any field of an AtLeastOneField DTO as empty_body, last', () => {
      expect(body({})).toEqual({
        error: 'empty_body',
        message: 'Send at least one of name, enabled',
      });
      expect(body({ enabled: 1 })).toMatchObject({ error: 'invalid_body' });
    });
  });

  describe('a query string', () => {
    const query = (value: Record<string, unknown>) =>
      refusal(() => validateRequest(ListQuery, value, 'query'));

    it('applies defaults, converts digits and clamps where told', () => {
      expect(validateRequest(ListQuery, {}, 'query')).toEqual({ page: 1, pageSize: 20 });
      expect(
        validateRequest(ListQuery, { page: '7', pageSize: '1000', enabled: 'true' }, 'query'),
      ).toEqual({ page: 7, pageSize: 100, enabled: true });
      expect(validateRequest(ListQuery, { pageSize: '9'.repeat(40) }, 'query').pageSize).toBe(100);
    });

    it.each([
      [{ page: '0' }, 'page must be a positive integer'],
      [{ page: '-1' }, 'page must be a positive integer'],
      [{ page: '1.5' }, 'page must be a positive integer'],
      [{ page: ' 1' }, 'page must be a positive integer'],
      [{ page: '' }, 'page must be a positive integer'],
      [{ page: '1001' }, 'page must be at most 1000'],
      [{ page: '9'.repeat(30) }, 'page must be at most 1000'],
      [{ pageSize: '0' }, 'pageSize must be a positive integer'],
      [{ enabled: 'TRUE' }, 'enabled must be true or false'],
      [{ page: ['1', '2'] }, 'page: give each parameter once, as a plain value'],
      [{ pagesize: '10', sort: 'id' }, 'Unknown query parameter: pagesize, sort'],
    ])('refuses %j as invalid_query: %s', (value, message) => {
      expect(query(value)).toEqual({ error: 'invalid_query', message });
    });
  });
});

describe(RequestValidationPipe.name, () => {
  const pipe = new RequestValidationPipe();

  it('validates a @Body() or @Query() typed with a DTO class', () => {
    expect(() => pipe.transform({}, { type: 'body', metatype: PatchBody })).toThrow(AppError);
    expect(pipe.transform({ page: '2' }, { type: 'query', metatype: ListQuery })).toEqual({
      page: 2,
      pageSize: 20,
    });
  });

  it('leaves other parameters alone: unknown bodies, path parameters, custom decorators', () => {
    const raw = { anything: [1] };
    expect(pipe.transform(raw, { type: 'body', metatype: Object })).toBe(raw);
    expect(pipe.transform('12x', { type: 'param', metatype: String, data: 'id' })).toBe('12x');
    expect(pipe.transform(raw, { type: 'custom', metatype: PatchBody })).toBe(raw);
  });
});
