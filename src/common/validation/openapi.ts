import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import type { Dto } from './request-validation';

// Where @ApiProperty keeps a class's properties (@nestjs/swagger's DECORATORS, not exported).
const PROPERTY_NAMES = 'swagger/apiModelPropertiesArray';
const PROPERTY = 'swagger/apiModelProperties';

interface PropertyDocs {
  type?: string | ((...args: never[]) => unknown);
  required?: boolean;
  description?: string;
  enum?: unknown[];
  isArray?: boolean;
  [schemaKeyword: string]: unknown;
}

/**
 * Describes a query DTO's parameters, from its @ApiProperty metadata (as Nest documents a
 * `@Query()` typed with it), on a route that validates the DTO in its handler: after a check
 * that the documented order puts first (the console's role), so not through the global pipe.
 */
export function ApiQueryOf(dto: Dto<object>): MethodDecorator {
  const prototype = dto.prototype as object;
  const names = (Reflect.getMetadata(PROPERTY_NAMES, prototype) ?? []) as string[];
  return applyDecorators(
    ...names.map((key) => {
      const name = key.slice(1); // stored as ':name'
      const docs = Reflect.getMetadata(PROPERTY, prototype, name) as PropertyDocs | undefined;
      // eslint-disable-next-line @typescript-eslint/no-unused-vars
      const { type, required = false, description, enum: values, isArray, ...schema } = docs ?? {};
      if (values) return ApiQuery({ name, required, description, enum: values as string[] });
      const typeName = typeof type === 'function' ? type.name.toLowerCase() : type;
      return ApiQuery({
        name,
        required,
        description,
        schema: { type: typeName as 'string', ...schema },
      });
    }),
  );
}
