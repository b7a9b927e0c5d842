import type { TSchema, Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { ApiError } from './errors.js';

const validators = new WeakMap<TSchema, ReturnType<typeof Compile>>();

/** One field-level problem, as carried in `error.details.fields`. */
export interface FieldProblem {
  path: string;
  message: string;
}

/**
 * Validates a value the route schema could not (a multipart part, a header) against a schema,
 * throwing `validation_failed` with one entry per problem, paths prefixed with `where`.
 */
export function validateAgainst<T extends TSchema>(schema: T, value: unknown, where: string): Static<T> {
  let validator = validators.get(schema);
  if (!validator) {
    validator = Compile(schema);
    validators.set(schema, validator);
  }
  if (validator.Check(value)) return value as Static<T>;
  const fields: FieldProblem[] = validator.Errors(value).slice(0, 20).map((error) => ({
    path: `${where}${error.instancePath}`,
    message: error.message,
  }));
  throw new ApiError('validation_failed', `The ${where} is not valid`, { fields });
}
