// The validator of every route: TypeBox's compiled check, with query strings and path parameters
// converted from text first. TypeBox converts numbers with parseInt/parseFloat, which reads
// "1e9", "1.5" or "12abc" as a small number; here a numeric field must be plain decimal text
// (at most 16 digits) or it is refused, before any conversion.
import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';

const integerText = /^-?\d{1,16}$/;
const numberText = /^-?\d{1,16}(?:\.\d{1,18})?$/;

interface PropertySchema { type?: string }

export const validatorCompiler: FastifySchemaCompiler<FastifySchema> = (route) => {
  const check = TypeBoxValidatorCompiler(route as Parameters<typeof TypeBoxValidatorCompiler>[0]);
  if (route.httpPart !== 'querystring' && route.httpPart !== 'params') return check;
  const properties = (route.schema as { properties?: Record<string, PropertySchema> }).properties ?? {};
  const numeric = Object.entries(properties)
    .filter(([, property]) => property.type === 'integer' || property.type === 'number')
    .map(([name, property]) => ({ name, pattern: property.type === 'integer' ? integerText : numberText, kind: property.type! }));
  if (numeric.length === 0) return check;
  return (value: unknown) => {
    const fields = (value ?? {}) as Record<string, unknown>;
    for (const { name, pattern, kind } of numeric) {
      const text = fields[name];
      if (typeof text === 'string' && !pattern.test(text)) {
        return { error: [{ message: `Expected ${kind === 'integer' ? 'an integer' : 'a number'} as plain digits`, instancePath: `/${name}` }] } as never;
      }
    }
    return check(value);
  };
};
