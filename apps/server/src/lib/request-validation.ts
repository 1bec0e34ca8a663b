import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { refusingNulCharacters } from '@sendwell/contract/common';

/**
 * The app's validator compiler: fastify-type-provider-zod's, over each route's schema wrapped so that
 * a NUL character anywhere in a body, query or path parameter is refused first, naming its field
 * (Postgres text cannot store one, and the statement would fail as a 500). Applied here, every
 * route gets the rule, including routes added later.
 */
export const requestValidatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) =>
  validatorCompiler({ ...route, schema: refusingNulCharacters(route.schema) });
